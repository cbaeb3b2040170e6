//! Reading zip archives (modules and saved games) with bounded work and memory: every
//! entry name is checked, an archive whose entries share a name or share bytes is refused,
//! and each entry is unpacked only as far as it is needed, never past its declared size,
//! [`MAX_ENTRY_BYTES`] or what is left of [`MAX_TOTAL_BYTES`] for the whole archive.

use std::collections::BTreeMap;
use std::io::{Cursor, Read};

use flate2::read::DeflateDecoder;

use crate::entry_rules::ArchiveError;
use crate::zip_records::{CentralEntry, LOCAL, LOCAL_FIXED, central_directory};

/// The most bytes muster unpacks from one archive, all entries together, and the most a
/// module or saved game may declare that its entries hold.
pub const MAX_TOTAL_BYTES: u64 = 1 << 30;

/// The most bytes muster unpacks from one entry into memory: 256 MiB, some ten times the
/// largest saved game or buildFile known. Images are not unpacked whole: muster reads only
/// their header ([`Archive::read_head`]).
pub const MAX_ENTRY_BYTES: u64 = 256 << 20;

/// How much an [`Archive`] unpacks at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most bytes one entry unpacks to in memory.
    pub entry: u64,
    /// The most bytes unpacked from the archive, all reads together, and the most its
    /// entries may declare together.
    pub total: u64,
}

impl Limits {
    /// [`MAX_ENTRY_BYTES`] an entry, [`MAX_TOTAL_BYTES`] the archive.
    pub const DEFAULT: Limits = Limits { entry: MAX_ENTRY_BYTES, total: MAX_TOTAL_BYTES };
}

/// A number of bytes as a user reads it: in GiB or MiB too when it is a whole number of them.
fn amount(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB ({bytes} bytes)", bytes >> 30)
    } else if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB ({bytes} bytes)", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// The signature of a data descriptor, which may follow an entry's data.
const DESCRIPTOR: u32 = 0x0807_4b50;

/// An archive whose entry names, sizes and places have been checked, and which counts the
/// bytes it unpacks.
pub struct Archive {
    bytes: Vec<u8>,
    entries: Vec<CentralEntry>,
    names: Vec<String>,
    by_name: BTreeMap<String, usize>,
    unpacked: u64,
    limits: Limits,
}

impl Archive {
    /// Opens an archive from its bytes, refusing more than
    /// [`MAX_ENTRIES`](crate::entry_rules::MAX_ENTRIES) entries, a declared total size over
    /// [`MAX_TOTAL_BYTES`], any entry name that would escape its folder, two entries of one
    /// name, and entries that share bytes.
    pub fn open(bytes: Vec<u8>) -> Result<Archive, ArchiveError> {
        Archive::open_with(bytes, Limits::DEFAULT)
    }

    /// Opens an archive as [`Archive::open`] does, with other limits.
    pub fn open_with(bytes: Vec<u8>, limits: Limits) -> Result<Archive, ArchiveError> {
        let entries = central_directory(Cursor::new(&bytes))?;
        let total = entries.iter().fold(0u64, |t, e| t.saturating_add(e.size));
        if total > limits.total {
            return Err(ArchiveError(format!(
                "the archive unpacks to {total} bytes, more than the {} muster reads",
                amount(limits.total)
            )));
        }
        let by_name = unique_names(&entries)?;
        refuse_shared_bytes(&entries)?;
        let names = entries.iter().map(|e| e.name.clone()).collect();
        Ok(Archive { bytes, entries, names, by_name, unpacked: 0, limits })
    }

    /// The entry names, in archive order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Whether the archive has an entry.
    pub fn contains(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    /// How many bytes have been unpacked from the archive so far, all reads together.
    pub fn unpacked(&self) -> u64 {
        self.unpacked
    }

    /// The entry named, as the central directory records it.
    fn entry(&self, name: &str) -> Result<&CentralEntry, ArchiveError> {
        self.by_name
            .get(name)
            .map(|&i| &self.entries[i])
            .ok_or_else(|| ArchiveError(format!("the archive has no entry {name:?}")))
    }

    /// Reads one entry whole, checked against the size and CRC-32 the archive records: a
    /// larger entry than [`MAX_ENTRY_BYTES`] (its [`Limits`]), one that would unpack more
    /// than [`MAX_TOTAL_BYTES`] from the archive, all reads together, or one whose memory cannot
    /// be had is refused before it is unpacked; a damaged one is an error that says so.
    pub fn read(&mut self, name: &str) -> Result<Vec<u8>, ArchiveError> {
        let e = self.entry(name)?;
        if e.size > self.limits.entry {
            return Err(ArchiveError(format!(
                "the entry {name:?} unpacks to {} bytes, more than the {} muster reads from one entry",
                e.size,
                amount(self.limits.entry)
            )));
        }
        self.check_budget(name, e.size)?;
        let mut out = Vec::new();
        out.try_reserve_exact(e.size as usize).map_err(|_| {
            ArchiveError(format!(
                "cannot allocate the {} bytes the entry {name:?} unpacks to: the machine is out of memory",
                e.size
            ))
        })?;
        let (size, crc) = (e.size, e.crc);
        let (read, more) = {
            let mut data = self.data(e)?.take(size);
            let read = data.read_to_end(&mut out);
            let mut rest = data.into_inner();
            let more = read.is_ok() && rest.read(&mut [0u8]).is_ok_and(|n| n > 0);
            (read, more)
        };
        self.unpacked += out.len() as u64;
        read.map_err(|e| damaged(name, &format!("its data does not unpack ({e})")))?;
        if more {
            return Err(damaged(
                name,
                &format!("it unpacks to more than the {size} bytes the archive records"),
            ));
        }
        if out.len() as u64 != size {
            return Err(damaged(
                name,
                &format!(
                    "it unpacks to {} bytes, fewer than the {size} the archive records (cut short?)",
                    out.len()
                ),
            ));
        }
        let found = crc32fast::hash(&out);
        if found != crc {
            return Err(damaged(
                name,
                &format!(
                    "its bytes have CRC-32 {found:08x}, not the {crc:08x} the archive records"
                ),
            ));
        }
        Ok(out)
    }

    /// The first `n` bytes of an entry (fewer when it holds fewer), unpacked no further:
    /// what an image's size needs. Only the bytes read are checked, so a damage past them
    /// goes unseen.
    pub fn read_head(&mut self, name: &str, n: u64) -> Result<Vec<u8>, ArchiveError> {
        let e = self.entry(name)?;
        let n = n.min(e.size);
        self.check_budget(name, n)?;
        let mut out = Vec::with_capacity(n as usize);
        let read = self.data(e)?.take(n).read_to_end(&mut out);
        self.unpacked += out.len() as u64;
        read.map_err(|e| damaged(name, &format!("its data does not unpack ({e})")))?;
        Ok(out)
    }

    /// Refuses to unpack `n` more bytes for the entry `name` when that would take the
    /// archive past its total limit.
    fn check_budget(&self, name: &str, n: u64) -> Result<(), ArchiveError> {
        if self.unpacked.saturating_add(n) > self.limits.total {
            return Err(ArchiveError(format!(
                "reading the entry {name:?} would unpack more than the {} muster unpacks from one archive, all entries together",
                amount(self.limits.total)
            )));
        }
        Ok(())
    }

    /// Where the entry's data starts: after its local header, whose signature is checked.
    fn data_start(&self, e: &CentralEntry) -> Result<usize, ArchiveError> {
        let at = usize::try_from(e.header).ok();
        let fixed = at.and_then(|at| self.bytes.get(at..at + LOCAL_FIXED as usize));
        let Some(fixed) = fixed.filter(|f| f[..4] == LOCAL.to_le_bytes()) else {
            return Err(damaged(
                &e.name,
                &format!("its local header is missing at offset {}", e.header),
            ));
        };
        let half = |i: usize| usize::from(u16::from_le_bytes([fixed[i], fixed[i + 1]]));
        Ok(e.header as usize + LOCAL_FIXED as usize + half(26) + half(28))
    }

    /// A reader of the entry's unpacked bytes.
    fn data(&self, e: &CentralEntry) -> Result<Box<dyn Read + '_>, ArchiveError> {
        if e.flags & 1 != 0 {
            return Err(ArchiveError(format!(
                "the entry {:?} is encrypted, which muster and VASSAL do not read",
                e.name
            )));
        }
        let start = self.data_start(e)?;
        let packed = self
            .bytes
            .get(start..)
            .and_then(|rest| rest.get(..usize::try_from(e.packed).ok()?));
        let Some(packed) = packed else {
            return Err(damaged(
                &e.name,
                "its data runs past the end of the archive (the file is cut short?)",
            ));
        };
        match e.method {
            0 if e.packed == e.size => Ok(Box::new(packed)),
            0 => Err(damaged(
                &e.name,
                &format!(
                    "it is stored as {} bytes but the archive records {}",
                    e.packed, e.size
                ),
            )),
            8 => Ok(Box::new(DeflateDecoder::new(packed))),
            m => Err(ArchiveError(format!(
                "the entry {:?} is compressed with method {m}, which muster does not read (VASSAL reads stored and deflated entries)",
                e.name
            ))),
        }
    }

    /// Checks that VASSAL, reading the archive from its start one local header after
    /// another (as `java.util.zip.ZipInputStream` does when it loads a saved game), meets
    /// only entries the central directory lists, each under its own name and sizes, and
    /// reaches the entry `name`: so that the entry it loads is the one muster reads.
    pub fn check_streamed(&self, name: &str) -> Result<(), ArchiveError> {
        let by_header: BTreeMap<u64, &CentralEntry> =
            self.entries.iter().map(|e| (e.header, e)).collect();
        let mut at = 0u64;
        let hidden = |at: u64| {
            ArchiveError(format!(
                "the archive holds at offset {at} an entry that its central directory does not list; VASSAL reads a saved game from the start of the file, so it could load bytes muster does not see"
            ))
        };
        while self.word(at) == Some(LOCAL) {
            let e = by_header.get(&at).ok_or_else(|| hidden(at))?;
            let start = self.data_start(e)?;
            let local_name = self.bytes.get(at as usize + 30..start);
            let half = |i: u64| self.half(at + i).unwrap_or_default();
            let word = |i: u64| self.word(at + i).unwrap_or_default();
            let described = half(6) & 8 != 0;
            let sizes_agree = described
                || (u64::from(word(18)) == e.packed || word(18) == u32::MAX)
                    && (u64::from(word(22)) == e.size || word(22) == u32::MAX);
            let named = local_name
                .is_some_and(|n| n.get(..e.name.len()) == Some(e.name.as_bytes()))
                && usize::from(half(26)) == e.name.len();
            if !named || !sizes_agree || half(8) != e.method {
                return Err(damaged(
                    &e.name,
                    "its local header records another name, method or size than the central directory; VASSAL, which reads a saved game by its local headers, would read something else",
                ));
            }
            if e.name == name {
                return Ok(());
            }
            at = start as u64 + e.packed;
            if described {
                at += if self.word(at) == Some(DESCRIPTOR) { 16 } else { 12 };
            }
        }
        Err(ArchiveError(format!(
            "VASSAL, which reads a saved game from the start of the file, one entry after another, does not reach the entry {name:?} (it stops at offset {at})"
        )))
    }

    /// The 32-bit word at `at`, if the archive holds it.
    fn word(&self, at: u64) -> Option<u32> {
        let at = usize::try_from(at).ok()?;
        Some(u32::from_le_bytes(self.bytes.get(at..at + 4)?.try_into().ok()?))
    }

    /// The 16-bit half-word at `at`, if the archive holds it.
    fn half(&self, at: u64) -> Option<u16> {
        let at = usize::try_from(at).ok()?;
        Some(u16::from_le_bytes(self.bytes.get(at..at + 2)?.try_into().ok()?))
    }

    /// Unpacks every file entry under `dir`, creating folders as needed.
    pub fn extract(&mut self, dir: &std::path::Path) -> Result<usize, ArchiveError> {
        let names = self.names.clone();
        let mut count = 0;
        for name in names.iter().filter(|n| !n.ends_with('/')) {
            let bytes = self.read(name)?;
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|e| {
                    ArchiveError(format!("cannot create {} ({e})", parent.display()))
                })?;
            }
            std::fs::write(&path, bytes).map_err(|e| {
                ArchiveError(format!("cannot write {} ({e})", path.display()))
            })?;
            count += 1;
        }
        Ok(count)
    }
}

/// The error for a damaged entry.
fn damaged(name: &str, why: &str) -> ArchiveError {
    ArchiveError(format!("the entry {name:?} is damaged: {why}"))
}

/// Each entry's place by name; two file entries of one name are an error, as VASSAL reads
/// the first when it loads a saved game (`ZipInputStream`) and the last when it reads a
/// module or a save's metadata (`ZipFile`). A folder listed twice is harmless.
fn unique_names(
    entries: &[CentralEntry],
) -> Result<BTreeMap<String, usize>, ArchiveError> {
    let mut by_name = BTreeMap::new();
    for (i, e) in entries.iter().enumerate() {
        if by_name.insert(e.name.clone(), i).is_some() && !e.name.ends_with('/') {
            let n = entries.iter().filter(|o| o.name == e.name).count();
            return Err(ArchiveError(format!(
                "the archive has {n} entries named {:?}: VASSAL loads a saved game from the first and reads a module from the last, so which one counts is unclear; write the archive again with one entry of each name",
                e.name
            )));
        }
    }
    Ok(by_name)
}

/// Refuses entries whose bytes overlap, which no zip tool writes and zip bombs do, to
/// unpack the same bytes many times over.
fn refuse_shared_bytes(entries: &[CentralEntry]) -> Result<(), ArchiveError> {
    let mut placed: Vec<&CentralEntry> = entries.iter().collect();
    placed.sort_by_key(|e| e.header);
    for pair in placed.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let end = a
            .header
            .saturating_add(LOCAL_FIXED + a.name.len() as u64)
            .saturating_add(a.packed);
        if end > b.header {
            return Err(ArchiveError(format!(
                "the entries {:?} and {:?} share bytes of the archive, which no zip tool writes and zip bombs do; muster does not read it",
                a.name, b.name
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;
    use crate::archive::{DeflatedPart, joined_entry};
    use crate::zip_records::{Record, end_records};

    /// An entry written by hand: its name, whether deflated, its bytes as they lie in the
    /// archive, and the size and CRC-32 its records declare.
    struct Raw {
        name: String,
        deflated: bool,
        data: Vec<u8>,
        size: u32,
        crc: u32,
    }

    fn stored(name: &str, bytes: &[u8]) -> Raw {
        Raw {
            name: name.into(),
            deflated: false,
            data: bytes.to_vec(),
            size: bytes.len() as u32,
            crc: crc32fast::hash(bytes),
        }
    }

    fn deflated(name: &str, bytes: &[u8]) -> Raw {
        let mut z =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::new(6));
        z.write_all(bytes).expect("deflates");
        Raw {
            name: name.into(),
            deflated: true,
            data: z.finish().expect("deflates"),
            size: bytes.len() as u32,
            crc: crc32fast::hash(bytes),
        }
    }

    /// A zip holding the local headers and data of `entries` in order, and a central
    /// directory of `directory`: each a name and the entry whose local header (and
    /// declared sizes) it points to.
    fn zip_of(entries: &[Raw], directory: &[(&str, usize)]) -> Vec<u8> {
        let record = |e: &Raw, name: &'static str| Record {
            name,
            deflated: e.deflated,
            crc: e.crc,
            packed: e.data.len() as u32,
            size: e.size,
        };
        let mut out = Vec::new();
        let mut offsets = Vec::new();
        for e in entries {
            offsets.push(out.len() as u64);
            let name: &'static str = Box::leak(e.name.clone().into_boxed_str());
            out.extend(record(e, name).local_header());
            out.extend(&e.data);
        }
        let start = out.len() as u64;
        for &(name, i) in directory {
            let name: &'static str = Box::leak(name.to_string().into_boxed_str());
            record(&entries[i], name).central_header(offsets[i], &mut out);
        }
        let len = out.len() as u64 - start;
        end_records(directory.len() as u64, len, start, &mut out);
        out
    }

    /// A zip of `entries`, each listed once under its own name.
    fn plain(entries: &[Raw]) -> Vec<u8> {
        let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
        let directory: Vec<(&str, usize)> =
            names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        zip_of(entries, &directory)
    }

    fn refused(bytes: Vec<u8>) -> String {
        Archive::open(bytes).err().expect("refused").0
    }

    #[test]
    fn two_entries_of_one_name_are_refused_naming_the_entry() {
        let save =
            plain(&[stored("savedGame", b"first"), stored("savedGame", b"second")]);
        let e = refused(save);
        assert!(e.contains("2 entries named \"savedGame\""), "{e}");
        assert!(e.contains("VASSAL loads a saved game from the first"), "{e}");
        let module = plain(&[
            deflated("buildFile.xml", b"<a/>"),
            stored("images/m.png", b"png"),
            deflated("buildFile.xml", b"<b/>"),
            stored("images/m.png", b"png"),
        ]);
        assert!(refused(module).contains("entries named \"buildFile.xml\""));
        // A folder listed twice is harmless.
        let folders = plain(&[stored("images/", b""), stored("images/", b"")]);
        assert_eq!(Archive::open(folders).expect("opens").names().len(), 2);
    }

    #[test]
    fn entries_sharing_bytes_are_refused() {
        let entries = [deflated("images/0.png", &[0; 1 << 20])];
        let names: Vec<String> = (0..10).map(|i| format!("images/{i}.png")).collect();
        let directory: Vec<(&str, usize)> =
            names.iter().map(|n| (n.as_str(), 0)).collect();
        let e = refused(zip_of(&entries, &directory));
        assert!(e.contains("share bytes of the archive"), "{e}");
        assert!(e.contains("\"images/0.png\" and \"images/1.png\""), "{e}");
        // The same entries, each with bytes of its own, open.
        let own: Vec<Raw> = names.iter().map(|n| deflated(n, &[0; 1 << 10])).collect();
        assert_eq!(Archive::open(plain(&own)).expect("opens").names(), names);
    }

    /// A deflated entry of `mib` mebibytes of zeros, made of parts deflated once.
    fn zeros(name: &str, mib: usize) -> Vec<u8> {
        let part = DeflatedPart::of(&[0; 1 << 20]).expect("deflates");
        joined_entry(name, &vec![part; mib]).expect("joins")
    }

    #[test]
    fn an_entry_past_the_entry_limit_is_refused_before_it_is_unpacked() {
        // A save of about 1 MB whose savedGame unpacks, honestly, to 1 GiB.
        let bomb = zeros("savedGame", 1024);
        assert!(bomb.len() < 2 << 20, "{}", bomb.len());
        let mut archive = Archive::open(bomb.clone()).expect("opens");
        let e = archive.read("savedGame").expect_err("refused");
        assert_eq!(
            e.0,
            "the entry \"savedGame\" unpacks to 1073741824 bytes, more than the 256 MiB (268435456 bytes) muster reads from one entry"
        );
        assert_eq!(archive.unpacked(), 0, "nothing unpacked");
        let e = crate::read::read_save(bomb).expect_err("refused");
        assert!(e.0.contains("more than the 256 MiB"), "{e}");
    }

    #[test]
    fn the_limit_of_one_archive_bounds_all_reads_together() {
        let limits = Limits { entry: 1 << 20, total: 3 << 20 };
        let mut archive = Archive::open_with(zeros("a.txt", 1), limits).expect("opens");
        for _ in 0..3 {
            assert_eq!(archive.read("a.txt").expect("reads").len(), 1 << 20);
        }
        assert_eq!(archive.unpacked(), 3 << 20);
        let e = archive.read("a.txt").expect_err("refused");
        assert_eq!(
            e.0,
            "reading the entry \"a.txt\" would unpack more than the 3 MiB (3145728 bytes) muster unpacks from one archive, all entries together"
        );
        assert_eq!(archive.unpacked(), 3 << 20, "nothing more unpacked");
        // Declared sizes over the limit are refused when the archive opens.
        let e = Archive::open_with(zeros("a.txt", 4), limits).err().expect("refused");
        assert!(e.0.contains("unpacks to 4194304 bytes, more than the 3 MiB"), "{e}");
    }

    #[test]
    fn an_entry_unpacking_past_its_declared_size_is_damaged_and_stops_there() {
        let mut liar = deflated("savedGame", &[b'a'; 8 << 20]);
        liar.size = 1000;
        let mut archive = Archive::open(plain(&[liar])).expect("opens");
        let e = archive.read("savedGame").expect_err("refused");
        assert_eq!(
            e.0,
            "the entry \"savedGame\" is damaged: it unpacks to more than the 1000 bytes the archive records"
        );
        assert_eq!(archive.unpacked(), 1000);
    }

    #[test]
    fn damaged_entries_say_so_with_their_name() {
        let text = b"begin_save end_save ".repeat(500);
        let read =
            |raw: Raw| Archive::open(plain(&[raw])).and_then(|mut a| a.read("savedGame"));
        let mut bad_crc = deflated("savedGame", &text);
        bad_crc.crc ^= 1;
        let e = read(bad_crc).expect_err("refused").0;
        assert!(
            e.starts_with("the entry \"savedGame\" is damaged: its bytes have CRC-32"),
            "{e}"
        );
        let mut cut = deflated("savedGame", &text);
        cut.data.truncate(cut.data.len() / 2);
        let e = read(cut).expect_err("refused").0;
        assert!(e.starts_with("the entry \"savedGame\" is damaged: "), "{e}");
        let mut short = stored("savedGame", &text);
        short.size += 10;
        let e = read(short).expect_err("refused").0;
        assert!(
            e.contains(
                "is damaged: it is stored as 10000 bytes but the archive records 10010"
            ),
            "{e}"
        );
        let mut fewer = deflated("savedGame", &text);
        fewer.size += 10;
        let e = read(fewer).expect_err("refused").0;
        assert!(
            e.contains("is damaged: it unpacks to 10000 bytes, fewer than the 10010"),
            "{e}"
        );
        // The data running past the end of the file.
        let mut zip = plain(&[stored("savedGame", &text)]);
        let packed_at = zip.len() - 22 - (46 + 9) + 20;
        zip[packed_at..packed_at + 4].copy_from_slice(&20_000u32.to_le_bytes());
        zip[packed_at + 4..packed_at + 8].copy_from_slice(&20_000u32.to_le_bytes());
        let e = Archive::open(zip)
            .and_then(|mut a| a.read("savedGame"))
            .expect_err("refused")
            .0;
        assert!(
            e.contains("is damaged: its data runs past the end of the archive"),
            "{e}"
        );
        // A local header that is not there.
        let mut zip = plain(&[stored("savedGame", &text)]);
        zip[0] = b'X';
        let e = Archive::open(zip)
            .and_then(|mut a| a.read("savedGame"))
            .expect_err("refused")
            .0;
        assert!(e.contains("is damaged: its local header is missing at offset 0"), "{e}");
    }

    #[test]
    fn the_head_of_an_entry_is_unpacked_no_further() {
        let mut image = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\x00\0\0\x02\x00".to_vec();
        image.resize(64 << 20, 0);
        let mut archive =
            Archive::open(plain(&[deflated("images/big.png", &image)])).expect("opens");
        let head = archive.read_head("images/big.png", 24).expect("reads");
        assert_eq!(head, image[..24]);
        assert_eq!(archive.unpacked(), 24);
    }

    #[test]
    fn board_images_named_many_times_are_read_once_and_only_their_header() {
        let mut image = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\x00\0\0\x02\x00".to_vec();
        image.resize(64 << 20, 0);
        let boards: String = (0..20)
            .map(|i| format!("<VASSAL.build.module.map.boardPicker.Board name=\"b{i}\" image=\"big.png\"/>"))
            .collect();
        let build = format!(
            "<VASSAL.launch.BasicModule name=\"m\"><VASSAL.build.module.Map mapName=\"Main\"><VASSAL.build.module.map.BoardPicker>{boards}</VASSAL.build.module.map.BoardPicker></VASSAL.build.module.Map></VASSAL.launch.BasicModule>"
        );
        let zip = plain(&[
            deflated("buildFile.xml", build.as_bytes()),
            deflated("images/big.png", &image),
        ]);
        let mut archive = Archive::open(zip).expect("opens");
        let info = crate::read::read_module(&mut archive).expect("reads");
        assert_eq!(info.maps[0].boards.len(), 20);
        assert!(info.maps[0].boards.iter().all(|b| (b.width, b.height) == (256, 512)));
        assert_eq!(archive.unpacked(), build.len() as u64 + 24);
    }

    #[test]
    fn vassal_streaming_the_save_meets_the_entries_muster_reads() {
        let hidden = [stored("savedGame", b"hidden"), stored("savedGame", b"listed")];
        let archive = Archive::open(zip_of(&hidden, &[("savedGame", 1)])).expect("opens");
        let e = archive.check_streamed("savedGame").expect_err("refused").0;
        assert!(
            e.contains("at offset 0 an entry that its central directory does not list"),
            "{e}"
        );
        let e = crate::read::read_save(zip_of(&hidden, &[("savedGame", 1)]))
            .expect_err("refused");
        assert!(e.0.contains("does not list"), "{e}");
        // A local header under another name than its record.
        let renamed = [stored("savedGame", b"x"), stored("savedData", b"<d/>")];
        let zip = zip_of(&renamed, &[("savedGame", 1), ("savedData", 0)]);
        let e = Archive::open(zip)
            .expect("opens")
            .check_streamed("savedGame")
            .expect_err("refused");
        assert!(e.0.contains("its local header records another name"), "{e}");
        // What muster writes streams as it reads.
        let files = [
            ("moduledata".to_string(), b"<data/>".to_vec()),
            ("savedGame".to_string(), b"!VCSK5a".to_vec()),
        ]
        .into();
        let zip = crate::archive::write_zip(&files).expect("writes");
        Archive::open(zip).expect("opens").check_streamed("savedGame").expect("streams");
    }
}
