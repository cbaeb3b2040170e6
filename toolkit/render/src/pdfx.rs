//! What makes a sheet PDF one a print shop takes as PDF/X-4: the output intent with its
//! embedded ICC profile, the document information dictionary and the XMP metadata that
//! says the same. [`crate::sheet::join_pdf`] writes them around the pages.
//!
//! Dates are given, never read from the clock, so the same inputs give the same bytes.

use std::fmt::Write;

/// The ICC profile every sheet's output intent embeds: sRGB IEC61966-2.1, ICC version 2,
/// from Debian's `icc-profiles-free` (zlib licence; `toolkit/render/icc/README.md`).
pub const SRGB_ICC: &[u8] = include_bytes!("../icc/sRGB.icc");

/// The output condition the sheets are made for, as their output intent names it.
pub const OUTPUT_CONDITION: &str = "sRGB IEC61966-2.1";

/// The PDF/X version the sheets declare, in the information dictionary and the XMP.
pub const PDFX_VERSION: &str = "PDF/X-4";

/// The date written when none is given: 1980-01-01 00:00:00 UTC, the date of every entry
/// of muster's zips, in seconds since 1970.
pub const FIXED_DATE: u64 = 315_532_800;

/// The latest date that can be written: 9999-12-31 23:59:59 UTC.
pub const LAST_DATE: u64 = 253_402_300_799;

/// What the document says about itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocInfo {
    /// The title.
    pub title: String,
    /// The creation and modification date, seconds since 1970 (UTC).
    pub date: u64,
}

impl DocInfo {
    /// A document titled `title`, dated `date` (seconds since 1970, as
    /// `SOURCE_DATE_EPOCH` gives it) or else [`FIXED_DATE`]; dates past [`LAST_DATE`] are
    /// written as that.
    pub fn new(title: &str, date: Option<u64>) -> Self {
        DocInfo {
            title: title.to_string(),
            date: date.unwrap_or(FIXED_DATE).min(LAST_DATE),
        }
    }
}

/// The program that wrote the document, as Creator and Producer say.
fn producer() -> String {
    format!("muster {}", env!("CARGO_PKG_VERSION"))
}

/// Year, month, day, hour, minute and second of `secs` seconds since 1970 (UTC).
pub fn civil(secs: u64) -> (u64, u64, u64, u64, u64, u64) {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Days to a civil date (the proleptic Gregorian calendar), in eras of 400 years
    // that start on 1 March.
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month, day, rest / 3600, rest % 3600 / 60, rest % 60)
}

/// A date as the information dictionary writes it: `D:YYYYMMDDHHmmSS+00'00'`.
pub fn pdf_date(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("D:{y:04}{mo:02}{d:02}{h:02}{mi:02}{s:02}+00'00'")
}

/// A date as XMP writes it: `YYYY-MM-DDTHH:mm:SS+00:00`.
pub fn xmp_date(secs: u64) -> String {
    let (y, mo, d, h, mi, s) = civil(secs);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}+00:00")
}

/// A PDF text string: a literal string when `s` is ASCII, else UTF-16BE with its byte
/// order mark, in hex.
fn pdf_text(s: &str) -> String {
    if s.is_ascii() {
        let mut out = String::from("(");
        for c in s.chars() {
            match c {
                '(' | ')' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_ascii_control() => {
                    let _ = write!(out, "\\{:03o}", c as u32);
                }
                c => out.push(c),
            }
        }
        out.push(')');
        out
    } else {
        let mut out = String::from("<FEFF");
        for unit in s.encode_utf16() {
            let _ = write!(out, "{unit:04X}");
        }
        out.push('>');
        out
    }
}

/// The document information dictionary.
pub(crate) fn info_dict(info: &DocInfo) -> String {
    let date = pdf_text(&pdf_date(info.date));
    let producer = pdf_text(&producer());
    format!(
        "<</Title {title}/Creator {producer}/Producer {producer}/CreationDate {date}/ModDate {date}/Trapped/False/GTS_PDFXVersion {version}>>",
        title = pdf_text(&info.title),
        version = pdf_text(PDFX_VERSION),
    )
}

/// The output intent: PDF/X, for sRGB, with the profile in object `icc`.
pub(crate) fn output_intent(icc: u32) -> String {
    let condition = pdf_text(OUTPUT_CONDITION);
    format!(
        "<</Type/OutputIntent/S/GTS_PDFX/OutputConditionIdentifier {condition}/OutputCondition {condition}/RegistryName (http://www.color.org)/Info {condition}/DestOutputProfile {icc} 0 R>>"
    )
}

/// The ICC profile's stream dictionary: three components (RGB), the profile as it is.
pub(crate) fn icc_dict() -> String {
    format!("<</N 3/Length {}>>", SRGB_ICC.len())
}

/// A UUID-shaped identifier from 32 hex digits.
fn uuid(hex: &str) -> String {
    let h = |a: usize, b: usize| hex.get(a..b).unwrap_or("0");
    format!("uuid:{}-{}-{}-{}-{}", h(0, 8), h(8, 12), h(12, 16), h(16, 20), h(20, 32))
}

/// The XMP packet: the same title, tool, dates and PDF/X version as [`info_dict`], and
/// the document's `id` (32 hex digits) as its document and instance id.
pub(crate) fn xmp(info: &DocInfo, id: &str) -> String {
    let date = xmp_date(info.date);
    let producer = crate::svg::esc(&producer());
    let title = crate::svg::esc(&info.title);
    let id = uuid(id);
    format!(
        r#"<?xpacket begin="{bom}" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>
   <xmp:CreatorTool>{producer}</xmp:CreatorTool>
   <xmp:CreateDate>{date}</xmp:CreateDate>
   <xmp:ModifyDate>{date}</xmp:ModifyDate>
   <xmp:MetadataDate>{date}</xmp:MetadataDate>
   <pdf:Producer>{producer}</pdf:Producer>
   <pdf:Trapped>False</pdf:Trapped>
   <xmpMM:DocumentID>{id}</xmpMM:DocumentID>
   <xmpMM:InstanceID>{id}</xmpMM:InstanceID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>{version}</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="r"?>"#,
        bom = '\u{feff}',
        version = PDFX_VERSION,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_both_forms() {
        assert_eq!(pdf_date(FIXED_DATE), "D:19800101000000+00'00'");
        assert_eq!(xmp_date(FIXED_DATE), "1980-01-01T00:00:00+00:00");
        assert_eq!(xmp_date(0), "1970-01-01T00:00:00+00:00");
        // 2024-02-29 12:34:56 UTC, a leap day.
        assert_eq!(xmp_date(1_709_210_096), "2024-02-29T12:34:56+00:00");
        assert_eq!(pdf_date(LAST_DATE), "D:99991231235959+00'00'");
        assert_eq!(DocInfo::new("x", Some(u64::MAX)).date, LAST_DATE);
        assert_eq!(DocInfo::new("x", None).date, FIXED_DATE);
    }

    #[test]
    fn text_is_escaped_for_pdf_and_xml() {
        assert_eq!(pdf_text("a (b) \\"), "(a \\(b\\) \\\\)");
        assert_eq!(pdf_text("é"), "<FEFF00E9>");
        assert_eq!(crate::svg::esc("<a & \"b\">\u{7}"), "&lt;a &amp; &quot;b&quot;&gt;");
        let info = DocInfo::new("Oasis <1942> — counters", None);
        let x = xmp(&info, "0123456789abcdef0123456789abcdef");
        assert!(x.contains("Oasis &lt;1942&gt; — counters"));
        assert!(x.contains("uuid:01234567-89ab-cdef-0123-456789abcdef"));
        assert!(info_dict(&info).contains("/GTS_PDFXVersion (PDF/X-4)"));
    }

    #[test]
    fn the_profile_is_an_rgb_icc_profile() {
        assert_eq!(&SRGB_ICC[36..40], b"acsp");
        assert_eq!(&SRGB_ICC[16..20], b"RGB ");
        let size = u32::from_be_bytes(SRGB_ICC[0..4].try_into().unwrap());
        assert_eq!(size as usize, SRGB_ICC.len());
    }
}
