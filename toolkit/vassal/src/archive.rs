//! Zip archives: written reproducibly (sorted entries, fixed time, fixed permissions) and
//! read defensively (entry count, sizes and names checked before anything is used).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{Cursor, Read, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipArchive, ZipWriter};

use std::fs::File;

pub use crate::entry_rules::{ArchiveError, MAX_ENTRIES, check_name};
pub use crate::zip_reader::{Archive, Limits, MAX_ENTRY_BYTES, MAX_TOTAL_BYTES};
pub use crate::zip_records::{CentralEntry, Record, central_directory};
use crate::zip_records::{end_records, fits32};

fn err(e: impl std::fmt::Display) -> ArchiveError {
    ArchiveError(e.to_string())
}

/// Endings of entries whose bytes are compressed already, which deflating again would only
/// slow down: PNG and JPEG images, VASSAL saves and archives (zips themselves).
pub const COMPRESSED: [&str; 6] = [".png", ".jpg", ".jpeg", ".vsav", ".vmod", ".zip"];

/// Writes `files` (archive path → bytes) as a zip whose bytes depend only on them: entries
/// sorted by name, dated 1980-01-01, Unix permissions 0644. Entries that are compressed
/// already ([`COMPRESSED`]: images, saved games, archives) are stored; everything else is
/// deflated.
pub fn write_zip(files: &BTreeMap<String, Vec<u8>>) -> Result<Vec<u8>, ArchiveError> {
    let mut z = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in files {
        check_name(name)?;
        z.start_file(name.as_str(), entry_options(name)?).map_err(err)?;
        z.write_all(bytes).map_err(err)?;
    }
    Ok(z.finish().map_err(err)?.into_inner())
}

/// Whether [`write_zip`] deflates an entry (it stores those [`COMPRESSED`] already).
pub fn is_deflated(name: &str) -> bool {
    !COMPRESSED.iter().any(|ext| name.ends_with(ext))
}

/// The options [`write_zip`] writes an entry with.
fn entry_options(name: &str) -> Result<SimpleFileOptions, ArchiveError> {
    let time = DateTime::from_date_and_time(1980, 1, 1, 0, 0, 0).map_err(err)?;
    let base = SimpleFileOptions::default()
        .last_modified_time(time)
        .system(zip::System::Unix)
        .unix_permissions(0o644);
    Ok(if is_deflated(name) {
        base.compression_method(CompressionMethod::Deflated).compression_level(Some(6))
    } else {
        base.compression_method(CompressionMethod::Stored)
    })
}

/// A zip of the one entry `name`, written as [`write_zip`] writes it: what
/// [`write_zip_from`] copies into a larger archive as it is, so that a caller can keep an
/// entry deflated once.
pub fn deflated_entry(name: &str, bytes: &[u8]) -> Result<Vec<u8>, ArchiveError> {
    check_name(name)?;
    let mut z = ZipWriter::new(Cursor::new(Vec::new()));
    z.start_file(name, entry_options(name)?).map_err(err)?;
    z.write_all(bytes).map_err(err)?;
    Ok(z.finish().map_err(err)?.into_inner())
}

/// Fills its buffer (emptied first) with the bytes of the entry named.
pub type Fetch<'a> = dyn Fn(&str, &mut Vec<u8>) -> Result<(), ArchiveError> + 'a;

/// Where an entry to fetch lies in another zip that muster wrote: its local header (as
/// [`Record::local_header`] writes it) at `header`, then its `len` bytes, stored, whose
/// CRC-32 is `crc`. Such an entry is copied from there, header and bytes, as it is.
#[derive(Debug, Clone, Copy)]
pub struct Lying<'a> {
    /// The other zip.
    pub file: &'a File,
    /// Where the entry's local header starts in it.
    pub header: u64,
    /// The CRC-32 of the entry's bytes.
    pub crc: u32,
    /// How many bytes the entry holds.
    pub len: u64,
}

/// Where an entry to fetch lies in another zip, when it does.
pub type Lie<'a> = dyn Fn(&str) -> Option<Lying<'a>> + 'a;

/// Entries of an archive whose bytes are fetched one at a time as it is written, so that
/// they are never all held at once: their names, and the fetcher, which fills its buffer
/// with an entry's bytes.
pub struct Fetched<'a> {
    /// The names of the entries fetched.
    pub names: &'a BTreeSet<String>,
    /// Fills the buffer (emptied first) with the bytes of the entry named.
    pub fetch: &'a Fetch<'a>,
    /// Where each entry lies in another zip, when it does: such entries are checked there
    /// and copied as they are, in runs, rather than fetched one by one.
    pub lying: &'a Lie<'a>,
}

impl Fetched<'_> {
    /// No entry fetched.
    pub fn none() -> Fetched<'static> {
        static NONE: BTreeSet<String> = BTreeSet::new();
        Fetched {
            names: &NONE,
            fetch: &|name, _| Err(not_fetched(name)),
            lying: &|_| None,
        }
    }
}

/// The error for an entry that nothing gives.
fn not_fetched(name: &str) -> ArchiveError {
    ArchiveError(format!("nothing gives the bytes of {name}"))
}

/// Where an archive is written: a stream that can also copy part of a file to its end.
pub trait ZipOut: Write {
    /// Appends the `len` bytes at `offset` of `from`, as they are. By default they are
    /// read and written again, a mebibyte at a time.
    fn copy_from(&mut self, from: &File, offset: u64, len: u64) -> std::io::Result<()> {
        copy_by_reading(self, from, offset, len)
    }
}

impl ZipOut for Vec<u8> {}

impl ZipOut for File {}

impl<W: ZipOut + ?Sized> ZipOut for &mut W {
    fn copy_from(&mut self, from: &File, offset: u64, len: u64) -> std::io::Result<()> {
        (**self).copy_from(from, offset, len)
    }
}

/// Appends to `out` the `len` bytes at `offset` of `from`, read and written again a
/// mebibyte at a time.
pub fn copy_by_reading<W: Write + ?Sized>(
    out: &mut W,
    from: &File,
    offset: u64,
    len: u64,
) -> std::io::Result<()> {
    let mut buffer = vec![0; len.min(1 << 20) as usize];
    let mut done = 0;
    while done < len {
        let n = (len - done).min(buffer.len() as u64) as usize;
        read_at(from, &mut buffer[..n], offset + done)?;
        out.write_all(&buffer[..n])?;
        done += n as u64;
    }
    Ok(())
}

/// Fills `bytes` from `file` at `offset`, without moving a position other readers share.
#[cfg(unix)]
pub fn read_at(file: &File, bytes: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, offset)
}

/// Fills `bytes` from `file` at `offset`, without moving a position other readers share.
#[cfg(windows)]
pub fn read_at(
    file: &File,
    mut bytes: &mut [u8],
    mut offset: u64,
) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        match file.seek_read(bytes, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                bytes = &mut bytes[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

/// Whether the entry `record` lies intact at `header` in `file`: its local header as
/// muster writes it, then bytes of its CRC-32. `buffer` is used to read them.
pub fn lies_intact(
    file: &File,
    header: u64,
    record: &Record,
    buffer: &mut Vec<u8>,
) -> bool {
    buffer.clear();
    buffer.resize((record.local_len() + u64::from(record.packed)) as usize, 0);
    read_at(file, buffer, header).is_ok() && record.lies_at_start_of(buffer)
}

/// Writes `files` and the entries `fetched` gives as [`write_zip`] does, to `out` as it
/// goes, holding little more than an entry at a time; returns `out` and the archive's
/// size. Each entry it would deflate is copied from `deflated` (entry name → its
/// [`deflated_entry`]) instead of deflated again: an entry missing there, or whose copy
/// holds other bytes, is an error. Each fetched entry must be one that is stored (not
/// deflated) and not among `files`. One that lies in another zip ([`Fetched::lying`]) is
/// checked there, on a thread of its own a little ahead of the writing, and copied, runs
/// of such entries at once ([`ZipOut::copy_from`]); one found damaged there is fetched
/// instead. Every other is read when its turn comes, into one buffer used again.
pub fn write_zip_from<W: ZipOut>(
    mut out: W,
    files: &BTreeMap<String, Vec<u8>>,
    deflated: &BTreeMap<String, Vec<u8>>,
    fetched: &Fetched,
) -> Result<Zipped<W>, ArchiveError> {
    let mut names: Vec<&String> = files.keys().chain(fetched.names).collect();
    names.sort_unstable();
    if let Some(twice) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(ArchiveError(format!("{} is both given and fetched", twice[0])));
    }
    let mut writer = Writer {
        at: 0,
        directory: Vec::new(),
        count: 0,
        buffer: Vec::new(),
        content: blake3::Hasher::new(),
    };
    std::thread::scope(|scope| -> Result<(), ArchiveError> {
        // Runs of entries lying in another zip go to the checker, which gives each back
        // with whether all of it lies intact, in order.
        let (to_check, checks) = std::sync::mpsc::sync_channel::<Run>(2);
        let (checked, results) = std::sync::mpsc::channel::<(Run, bool)>();
        scope.spawn(move || {
            let mut buffer = Vec::new();
            for run in checks {
                let intact = run.intact(&mut buffer);
                if checked.send((run, intact)).is_err() {
                    break;
                }
            }
        });
        let mut checking = Checking { to_check, results, pending: 0 };
        let mut run: Option<Run> = None;
        for name in names {
            check_name(name)?;
            if !files.contains_key(name.as_str())
                && !is_deflated(name)
                && let Some(lying) = (fetched.lying)(name)
            {
                let record = Record::stored(name, lying.crc, lying.len)?;
                let follows = run.as_ref().is_some_and(|r| {
                    std::ptr::eq(r.file, lying.file)
                        && r.start + r.len == lying.header
                        && r.len < RUN
                });
                if !follows {
                    checking.send(run.take())?;
                    // The checker stays a run ahead of the copying.
                    checking.copy_until(1, &mut writer, &mut out, fetched)?;
                    run = Some(Run {
                        file: lying.file,
                        start: lying.header,
                        len: 0,
                        entries: Vec::new(),
                    });
                }
                let r = run.as_mut().ok_or_else(checker_gone)?;
                r.len += record.local_len() + u64::from(record.packed);
                r.entries.push((lying.header, record));
                continue;
            }
            // Anything else is written after every run before it.
            checking.send(run.take())?;
            checking.copy_until(0, &mut writer, &mut out, fetched)?;
            writer.entry(&mut out, name, files, deflated, fetched)?;
        }
        checking.send(run.take())?;
        checking.copy_until(0, &mut writer, &mut out, fetched)?;
        // Dropping `checking` closes the hand-over: the checker ends.
        Ok(())
    })?;
    let mut end = std::mem::take(&mut writer.directory);
    let directory_len = end.len() as u64;
    end_records(writer.count, directory_len, writer.at, &mut end);
    out.write_all(&end).map_err(err)?;
    let size = writer.at + end.len() as u64;
    Ok(Zipped { out, size, content: writer.content.finalize().to_hex().to_string() })
}

/// An archive [`write_zip_from`] wrote.
#[derive(Debug)]
pub struct Zipped<W> {
    /// Where it was written.
    pub out: W,
    /// Its size in bytes.
    pub size: u64,
    /// What it holds, in hex: the BLAKE3 digest of each entry's name, CRC-32 and size, in
    /// order. Two archives holding the same entries have the same content however their
    /// entries were compressed or laid out.
    pub content: String,
}

/// The most bytes of entries lying in another zip checked and copied at once.
const RUN: u64 = 8 << 20;

/// Entries lying one after the other in another zip: `len` bytes from `start`, each entry
/// with where its local header starts.
struct Run<'a> {
    file: &'a File,
    start: u64,
    len: u64,
    entries: Vec<(u64, Record<'a>)>,
}

impl Run<'_> {
    /// Whether every entry of the run lies intact ([`lies_intact`]), read at once into
    /// `buffer`.
    fn intact(&self, buffer: &mut Vec<u8>) -> bool {
        buffer.clear();
        buffer.resize(self.len as usize, 0);
        if read_at(self.file, buffer, self.start).is_err() {
            return false;
        }
        self.entries.iter().all(|(header, record)| {
            buffer
                .get((header - self.start) as usize..)
                .is_some_and(|bytes| record.lies_at_start_of(bytes))
        })
    }
}

/// The runs handed to the checker and not yet written.
struct Checking<'a> {
    to_check: std::sync::mpsc::SyncSender<Run<'a>>,
    results: std::sync::mpsc::Receiver<(Run<'a>, bool)>,
    pending: usize,
}

impl<'a> Checking<'a> {
    /// Hands `run`, when there is one, to the checker.
    fn send(&mut self, run: Option<Run<'a>>) -> Result<(), ArchiveError> {
        if let Some(run) = run {
            self.to_check.send(run).map_err(|_| checker_gone())?;
            self.pending += 1;
        }
        Ok(())
    }

    /// Writes the runs checked, in order, until at most `left` are still with the checker.
    fn copy_until<W: ZipOut>(
        &mut self,
        left: usize,
        writer: &mut Writer,
        out: &mut W,
        fetched: &Fetched,
    ) -> Result<(), ArchiveError> {
        while self.pending > left {
            writer.copy(out, &self.results, fetched)?;
            self.pending -= 1;
        }
        Ok(())
    }
}

/// The checker thread is gone, which it is only after a failure of its own.
fn checker_gone() -> ArchiveError {
    ArchiveError("the archive's entries could not be checked".into())
}

/// An archive being written: where the next entry goes, the central directory so far, how
/// many entries it has, and a buffer for fetched bytes.
struct Writer {
    at: u64,
    directory: Vec<u8>,
    count: u64,
    buffer: Vec<u8>,
    /// What the entries written hold ([`Zipped::content`]).
    content: blake3::Hasher,
}

impl Writer {
    /// Adds the entry `record`, whose local header is at `at`, to the central directory
    /// and to what the archive holds.
    fn list(&mut self, record: &Record, at: u64) {
        record.central_header(at, &mut self.directory);
        let name = record.name.as_bytes();
        self.content.update(&(name.len() as u64).to_le_bytes());
        self.content.update(name);
        self.content.update(&record.crc.to_le_bytes());
        self.content.update(&record.size.to_le_bytes());
    }

    /// Writes the entry `record` whose bytes are `data`.
    fn write<W: ZipOut>(
        &mut self,
        out: &mut W,
        record: &Record,
        data: &[u8],
    ) -> Result<(), ArchiveError> {
        self.list(record, self.at);
        let head = record.local_header();
        out.write_all(&head).and_then(|()| out.write_all(data)).map_err(err)?;
        self.at += head.len() as u64 + data.len() as u64;
        self.count += 1;
        Ok(())
    }

    /// Writes the next run checked: copied as it is when it lies intact, else each of its
    /// entries fetched.
    fn copy<W: ZipOut>(
        &mut self,
        out: &mut W,
        results: &std::sync::mpsc::Receiver<(Run, bool)>,
        fetched: &Fetched,
    ) -> Result<(), ArchiveError> {
        let (run, intact) = results.recv().map_err(|_| checker_gone())?;
        if intact {
            out.copy_from(run.file, run.start, run.len).map_err(err)?;
            for (header, record) in &run.entries {
                self.list(record, self.at + (header - run.start));
            }
            self.at += run.len;
            self.count += run.entries.len() as u64;
            return Ok(());
        }
        for (_, record) in &run.entries {
            let mut bytes = std::mem::take(&mut self.buffer);
            bytes.clear();
            (fetched.fetch)(record.name, &mut bytes)?;
            if bytes.len() != record.size as usize
                || crc32fast::hash(&bytes) != record.crc
            {
                return Err(ArchiveError(format!(
                    "{} changed while it was read",
                    record.name
                )));
            }
            self.write(out, record, &bytes)?;
            self.buffer = bytes;
        }
        Ok(())
    }

    /// Writes the entry `name`: given (deflated as `deflated` holds it, or stored), or
    /// fetched.
    fn entry<W: ZipOut>(
        &mut self,
        out: &mut W,
        name: &str,
        files: &BTreeMap<String, Vec<u8>>,
        deflated: &BTreeMap<String, Vec<u8>>,
        fetched: &Fetched,
    ) -> Result<(), ArchiveError> {
        let Some(bytes) = files.get(name) else {
            if is_deflated(name) {
                return Err(ArchiveError(format!(
                    "{name} would be deflated, not fetched"
                )));
            }
            let mut bytes = std::mem::take(&mut self.buffer);
            bytes.clear();
            (fetched.fetch)(name, &mut bytes)?;
            let record =
                Record::stored(name, crc32fast::hash(&bytes), bytes.len() as u64)?;
            self.write(out, &record, &bytes)?;
            self.buffer = bytes;
            return Ok(());
        };
        if !is_deflated(name) {
            let record =
                Record::stored(name, crc32fast::hash(bytes), bytes.len() as u64)?;
            return self.write(out, &record, bytes);
        }
        let one = deflated
            .get(name)
            .ok_or_else(|| ArchiveError(format!("no deflated copy of {name}")))?;
        let (record, data) = only_entry(one)
            .filter(|(r, _)| {
                r.name == name
                    && r.deflated
                    && r.size as usize == bytes.len()
                    && r.crc == crc32fast::hash(bytes)
            })
            .ok_or_else(|| {
                ArchiveError(format!("the deflated copy of {name} holds other bytes"))
            })?;
        self.write(out, &record, data)
    }
}

/// The record and data of the first entry of the zip `one`, read from its local header.
fn only_entry(one: &[u8]) -> Option<(Record<'_>, &[u8])> {
    let half = |i: usize| Some(u16::from_le_bytes([*one.get(i)?, *one.get(i + 1)?]));
    let word = |i: usize| Some(u32::from_le_bytes(one.get(i..i + 4)?.try_into().ok()?));
    if word(0)? != 0x0403_4b50 {
        return None;
    }
    let (name_len, extra_len) = (usize::from(half(26)?), usize::from(half(28)?));
    let name = std::str::from_utf8(one.get(30..30 + name_len)?).ok()?;
    let packed = word(18)?;
    let start = 30 + name_len + extra_len;
    let data = one.get(start..start + packed as usize)?;
    let record =
        Record { name, deflated: half(8)? == 8, crc: word(14)?, packed, size: word(22)? };
    Some((record, data))
}

/// Writes one-entry zips (entry name → a zip [`deflated_entry`] or [`joined_entry`]
/// wrote) as one archive, copying each entry as it is, in name order.
pub fn write_zip_entries(
    entries: &BTreeMap<String, Vec<u8>>,
) -> Result<Vec<u8>, ArchiveError> {
    let mut z = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, one) in entries {
        check_name(name)?;
        let mut source = ZipArchive::new(Cursor::new(one.as_slice())).map_err(err)?;
        let entry = source.by_index_raw(0).map_err(err)?;
        if !entry.name().is_ok_and(|n| n == name.as_str()) {
            return Err(ArchiveError(format!("the copy of {name} holds another entry")));
        }
        z.raw_copy_file(entry).map_err(err)?;
    }
    Ok(z.finish().map_err(err)?.into_inner())
}

/// Part of an entry's bytes deflated on its own, ending on a byte boundary and not the
/// last block, so that parts deflated apart (and kept apart) join into one entry
/// ([`joined_entry`]) without deflating the whole again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeflatedPart {
    /// The CRC-32 of the part's bytes.
    pub crc: u32,
    /// How many bytes the part holds.
    pub len: u64,
    /// The part, deflated.
    pub data: Vec<u8>,
}

impl DeflatedPart {
    /// Deflates `bytes` at the level [`write_zip`] uses, flushed to a byte boundary.
    pub fn of(bytes: &[u8]) -> Result<Self, ArchiveError> {
        use flate2::{Compress, Compression, FlushCompress};
        let mut deflate = Compress::new(Compression::new(6), false);
        let mut data: Vec<u8> = Vec::with_capacity(bytes.len() / 4 + 64);
        loop {
            if data.capacity() - data.len() < 64 {
                data.reserve(bytes.len() / 8 + 64);
            }
            let read = deflate.total_in() as usize;
            deflate
                .compress_vec(&bytes[read..], &mut data, FlushCompress::Sync)
                .map_err(err)?;
            // Done when all is read and the flush had room to end.
            if deflate.total_in() as usize == bytes.len() && data.len() < data.capacity()
            {
                break;
            }
        }
        Ok(DeflatedPart { crc: crc32fast::hash(bytes), len: bytes.len() as u64, data })
    }

    /// The part as bytes to keep: CRC, length, then the deflated data.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(12 + self.data.len());
        out.extend_from_slice(&self.crc.to_le_bytes());
        out.extend_from_slice(&self.len.to_le_bytes());
        out.extend_from_slice(&self.data);
        out
    }

    /// A part from what [`DeflatedPart::to_bytes`] wrote.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, ArchiveError> {
        let short = || ArchiveError("a kept deflated part is cut short".into());
        let crc = bytes.get(..4).and_then(|b| b.try_into().ok()).ok_or_else(short)?;
        let len = bytes.get(4..12).and_then(|b| b.try_into().ok()).ok_or_else(short)?;
        Ok(DeflatedPart {
            crc: u32::from_le_bytes(crc),
            len: u64::from_le_bytes(len),
            data: bytes[12..].to_vec(),
        })
    }
}

/// The fewest bytes in a part of [`content_parts`], but for the last.
pub const MIN_PART: usize = 128 << 10;
/// The most bytes in a part of [`content_parts`].
pub const MAX_PART: usize = 2 << 20;

/// 256 fixed pseudo-random words, one per byte value, for [`content_parts`]' rolling hash.
const GEAR: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut state: u64 = 0x6d75_7374_6572_2121;
    let mut i = 0;
    while i < 256 {
        // SplitMix64.
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        table[i] = z ^ (z >> 31);
        i += 1;
    }
    table
};

/// Cuts `bytes` into parts for deflating apart ([`DeflatedPart`]) where the bytes
/// themselves say: a part ends where a rolling hash of its last 64 bytes has its top 19
/// bits clear (every 512 KiB or so), and holds [`MIN_PART`] to [`MAX_PART`] bytes. An edit
/// moves only the cuts near it, so the parts before and after it stay as they were, even
/// when the edit changes the length.
pub fn content_parts(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut parts = Vec::with_capacity(bytes.len() / (512 << 10) + 1);
    let mut start = 0;
    while start < bytes.len() {
        let end = bytes.len().min(start + MAX_PART);
        let mut cut = end;
        let mut hash = 0u64;
        let mut at = start;
        while at < end {
            hash = (hash << 1).wrapping_add(GEAR[usize::from(bytes[at])]);
            at += 1;
            if at - start >= MIN_PART && hash >> 45 == 0 {
                cut = at;
                break;
            }
        }
        parts.push(start..cut);
        start = cut;
    }
    parts
}

/// A zip of the one deflated entry `name` whose bytes are `parts` in order: what
/// [`write_zip_entries`] copies into a larger archive. Dated and permitted as
/// [`write_zip`] writes entries.
pub fn joined_entry(name: &str, parts: &[DeflatedPart]) -> Result<Vec<u8>, ArchiveError> {
    check_name(name)?;
    if u16::try_from(name.len()).is_err() {
        return Err(ArchiveError(format!("{name} is too long a name for a zip entry")));
    }
    let mut crc = crc32fast::Hasher::new();
    let mut data =
        Vec::with_capacity(parts.iter().map(|p| p.data.len()).sum::<usize>() + 2);
    for p in parts {
        crc.combine(&crc32fast::Hasher::new_with_initial_len(p.crc, p.len));
        data.extend_from_slice(&p.data);
    }
    // The last block: empty, fixed codes, final.
    data.extend_from_slice(&[0x03, 0x00]);
    let len: u64 = parts.iter().map(|p| p.len).sum();
    let record = Record {
        name,
        deflated: true,
        crc: crc.finalize(),
        packed: fits32(name, data.len() as u64)?,
        size: fits32(name, len)?,
    };
    let mut z = record.local_header();
    z.reserve(data.len() + 2 * name.len() + 98);
    z.extend_from_slice(&data);
    let directory = z.len() as u64;
    record.central_header(0, &mut z);
    let directory_len = z.len() as u64 - directory;
    end_records(1, directory_len, directory, &mut z);
    Ok(z)
}

/// Where the bytes of an entry stored as they are lie in its archive ([`stored_entries`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEntry {
    /// Where its local header starts.
    pub header: u64,
    /// The bytes' place in the archive, were its local header as muster writes it
    /// ([`Record::local_header`]): [`lies_intact`] tells whether it is.
    pub range: std::ops::Range<usize>,
    /// Their CRC-32, as the archive declares it.
    pub crc: u32,
}

/// Every entry stored as it is (not compressed) in the archive `reader` reads, by name:
/// where its local header starts, where its bytes lie and their CRC-32, as the central
/// directory declares them; no local header is read ([`central_directory`]). More than
/// [`MAX_ENTRIES`] entries, a name that would escape its folder, or an entry whose bytes
/// would lie past the archive's end is an error.
pub fn stored_entries<R: Read + std::io::Seek>(
    mut reader: R,
) -> Result<BTreeMap<String, StoredEntry>, ArchiveError> {
    let end = reader.seek(std::io::SeekFrom::End(0)).map_err(err)?;
    let mut stored = BTreeMap::new();
    for e in central_directory(reader)? {
        if !e.stored || e.name.ends_with('/') {
            continue;
        }
        let start = e.header + crate::zip_records::LOCAL_FIXED + e.name.len() as u64;
        let stop = start.checked_add(e.packed).filter(|stop| *stop <= end);
        let (Some(stop), true) = (stop, e.packed == e.size) else {
            return Err(ArchiveError(format!(
                "the stored entry {:?} does not fit in the archive",
                e.name
            )));
        };
        let range =
            usize::try_from(start).map_err(err)?..usize::try_from(stop).map_err(err)?;
        stored.insert(e.name, StoredEntry { header: e.header, range, crc: e.crc });
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_deflated_apart_join_into_one_entry_that_reads_back_whole() {
        let text: Vec<u8> =
            (0..200_000u32).flat_map(|i| (i % 251).to_le_bytes()).collect();
        for cuts in [vec![], vec![0], vec![1, 5000], vec![100_000, 100_000, 799_999]] {
            let mut parts = Vec::new();
            let mut from = 0;
            for &to in cuts.iter().chain([&text.len()]) {
                let part = DeflatedPart::of(&text[from..to]).expect("deflates");
                let kept = DeflatedPart::from_bytes(&part.to_bytes()).expect("reads");
                assert_eq!(kept, part);
                parts.push(kept);
                from = to;
            }
            let mut entries = BTreeMap::new();
            entries.insert("a".to_string(), deflated_entry("a", b"first").expect("zips"));
            entries.insert("b".to_string(), joined_entry("b", &parts).expect("joins"));
            let zip = write_zip_entries(&entries).expect("writes");
            let mut archive = Archive::open(zip.clone()).expect("opens");
            assert_eq!(archive.names(), ["a", "b"]);
            assert_eq!(archive.read("a").expect("reads a"), b"first");
            assert_eq!(archive.read("b").expect("reads b"), text, "cut at {cuts:?}");
            assert_eq!(write_zip_entries(&entries).expect("writes"), zip, "reproducible");
        }
        assert!(DeflatedPart::from_bytes(&[1, 2, 3]).is_err());
        let mut wrong = BTreeMap::new();
        wrong.insert("c".to_string(), deflated_entry("a", b"x").expect("zips"));
        assert!(write_zip_entries(&wrong).is_err(), "an entry under another name");
    }

    #[test]
    fn a_joined_entry_named_beyond_ascii_is_marked_utf8_and_reads_back_by_its_name() {
        let text = "Übersicht der Verbände ".repeat(3000).into_bytes();
        let parts = [
            DeflatedPart::of(&text[..10_000]).expect("deflates"),
            DeflatedPart::of(&text[10_000..]).expect("deflates"),
        ];
        let name = "images/Übersicht.png";
        let joined = joined_entry(name, &parts).expect("joins");
        // The general-purpose flags of the local header: bit 11, names in UTF-8.
        assert_eq!(u16::from_le_bytes([joined[6], joined[7]]), 1 << 11);
        let mut zip = ZipArchive::new(Cursor::new(joined.clone())).expect("opens");
        let mut entry = zip.by_index(0).expect("has the entry");
        assert_eq!(entry.name().expect("names"), name);
        let mut back = Vec::new();
        entry.read_to_end(&mut back).expect("inflates");
        assert_eq!(back, text);
        let ascii = joined_entry("images/overview.png", &parts).expect("joins");
        assert_eq!(u16::from_le_bytes([ascii[6], ascii[7]]), 0, "no flag for ASCII");
        let mut entries = BTreeMap::new();
        entries.insert(name.to_string(), joined);
        let whole = write_zip_entries(&entries).expect("writes");
        let mut archive = Archive::open(whole).expect("opens");
        assert_eq!(archive.names(), [name]);
        assert_eq!(archive.read(name).expect("reads"), text);
        assert!(joined_entry(&"a".repeat(70_000), &parts).is_err(), "too long a name");
    }

    #[test]
    fn stored_entries_are_found_in_place_and_deflated_ones_are_not_listed() {
        let mut files = BTreeMap::new();
        files.insert("buildFile.xml".to_string(), b"<module/>".repeat(40));
        files.insert("images/a.png".to_string(), vec![1, 2, 3]);
        files.insert("images/b.png".to_string(), (0..=255).collect());
        let zip = write_zip(&files).expect("writes");
        let stored = stored_entries(Cursor::new(&zip)).expect("lists");
        let bytes = &zip;
        assert_eq!(stored.keys().collect::<Vec<_>>(), ["images/a.png", "images/b.png"]);
        for (name, entry) in &stored {
            let found = &bytes[entry.range.clone()];
            assert_eq!(found, files[name].as_slice(), "{name}");
            assert_eq!(entry.crc, crc32fast::hash(found), "{name}");
        }
        // An archive cut short is not read.
        assert!(stored_entries(Cursor::new(&zip[..zip.len() / 2])).is_err());
    }

    #[test]
    fn content_parts_cover_the_bytes_and_an_edit_moves_only_the_cuts_near_it() {
        // Bytes with no repeating pattern, as a compact JSON document has.
        let mut state = 7u64;
        let bytes: Vec<u8> = (0..6_000_000)
            .map(|_| {
                state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let alphabet = b"{}[]:,\"abcdefgh0123456789";
                alphabet[(state >> 33) as usize % alphabet.len()]
            })
            .collect();
        let parts = content_parts(&bytes);
        assert!(parts.len() > 3, "{}", parts.len());
        assert_eq!(parts[0].start, 0);
        assert_eq!(parts.last().unwrap().end, bytes.len());
        for pair in parts.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
            assert!(pair[0].len() >= MIN_PART && pair[0].len() <= MAX_PART);
        }
        // One byte more, in the middle: the parts before and after are the same bytes.
        let at = bytes.len() / 2;
        let mut edited = bytes.clone();
        edited.insert(at, b'9');
        let slices = |b: &[u8], ps: &[std::ops::Range<usize>]| -> Vec<Vec<u8>> {
            ps.iter().map(|r| b[r.clone()].to_vec()).collect()
        };
        let before = slices(&bytes, &parts);
        let after = slices(&edited, &content_parts(&edited));
        let same = after.iter().filter(|p| before.contains(p)).count();
        assert!(same + 2 >= before.len(), "{same} of {} parts kept", before.len());
        assert!(content_parts(&[]).is_empty());
        assert_eq!(content_parts(b"short"), vec![0..5]);
    }

    #[test]
    fn same_files_give_the_same_bytes() {
        let mut files = BTreeMap::new();
        files.insert("b.txt".to_string(), b"hello".to_vec());
        files.insert("images/a.png".to_string(), vec![1, 2, 3]);
        let one = write_zip(&files).expect("writes");
        let two = write_zip(&files).expect("writes");
        assert_eq!(one, two);
        let mut a = Archive::open(one).expect("opens");
        assert_eq!(a.names(), ["b.txt", "images/a.png"]);
        assert_eq!(a.read("b.txt").expect("reads"), b"hello");
    }

    #[test]
    fn a_module_of_the_largest_games_opens_and_one_past_the_limit_is_refused() {
        let files = |n: usize| -> BTreeMap<String, Vec<u8>> {
            (0..n).map(|i| (format!("images/{i}.png"), Vec::new())).collect()
        };
        // A game of 10,000 two-sided counters: two images a counter, and the rest.
        let module = write_zip(&files(20_040)).expect("writes");
        assert_eq!(Archive::open(module).expect("opens").names().len(), 20_040);
        let past = write_zip(&files(MAX_ENTRIES + 1)).expect("writes");
        let refused = Archive::open(past).err().expect("refused");
        assert!(refused.0.contains("more than the 100000 muster reads"), "{refused}");
    }

    /// [`write_zip_from`] into memory.
    fn zip_from(
        files: &BTreeMap<String, Vec<u8>>,
        deflated: &BTreeMap<String, Vec<u8>>,
        fetched: &Fetched,
    ) -> Result<Vec<u8>, ArchiveError> {
        Ok(write_zip_from(Vec::new(), files, deflated, fetched)?.out)
    }

    #[test]
    fn an_archive_from_entries_deflated_apart_is_the_archive_written_whole() {
        let mut files = BTreeMap::new();
        files.insert("buildFile.xml".to_string(), b"<piece/>".repeat(500));
        files.insert("images/a.png".to_string(), vec![7; 300]);
        files.insert("rules/ruleset.json".to_string(), b"{\"units\": []}".repeat(90));
        let deflated: BTreeMap<String, Vec<u8>> = files
            .iter()
            .filter(|(name, _)| is_deflated(name))
            .map(|(name, bytes)| {
                (name.clone(), deflated_entry(name, bytes).expect("writes"))
            })
            .collect();
        assert_eq!(deflated.len(), 2);
        let apart = zip_from(&files, &deflated, &Fetched::none()).expect("writes");
        assert_eq!(apart, write_zip(&files).expect("writes"));
        // A copy that is missing, or of other bytes, is refused.
        let mut missing = deflated.clone();
        missing.remove("buildFile.xml");
        let e = zip_from(&files, &missing, &Fetched::none()).expect_err("refused");
        assert!(e.0.contains("no deflated copy of buildFile.xml"), "{e}");
        let mut other = deflated;
        other.insert(
            "buildFile.xml".into(),
            deflated_entry("buildFile.xml", b"<other/>").expect("writes"),
        );
        let e = zip_from(&files, &other, &Fetched::none()).expect_err("refused");
        assert!(e.0.contains("holds other bytes"), "{e}");
    }

    #[test]
    fn fetched_entries_make_the_archive_written_whole() {
        let mut whole = BTreeMap::new();
        whole.insert("buildFile.xml".to_string(), b"<piece/>".repeat(50));
        whole.insert("images/a.png".to_string(), vec![7; 300]);
        whole.insert("images/b.png".to_string(), vec![8; 30]);
        whole.insert("s1.vsav".to_string(), vec![9; 40]);
        let deflated: BTreeMap<String, Vec<u8>> = [(
            "buildFile.xml".to_string(),
            deflated_entry("buildFile.xml", &whole["buildFile.xml"]).expect("writes"),
        )]
        .into();
        let mut given = whole.clone();
        let held: Vec<String> = vec!["images/a.png".into(), "images/b.png".into()];
        for name in &held {
            given.remove(name);
        }
        let names: BTreeSet<String> = held.iter().cloned().collect();
        let fetch = |name: &str, buffer: &mut Vec<u8>| {
            assert!(buffer.is_empty(), "{name} is fetched into an empty buffer");
            buffer.extend_from_slice(&whole[name]);
            Ok(())
        };
        let fetched = Fetched { names: &names, fetch: &fetch, lying: &|_| None };
        let written = zip_from(&given, &deflated, &fetched).expect("writes");
        assert_eq!(written, write_zip(&whole).expect("writes"));
        // A fetcher's error is the archive's; an entry both given and fetched, or fetched
        // but deflated, is refused.
        let failing =
            |name: &str, _: &mut Vec<u8>| Err(ArchiveError(format!("gone: {name}")));
        let fetched = Fetched { names: &names, fetch: &failing, lying: &|_| None };
        let e = zip_from(&given, &deflated, &fetched).expect_err("refused");
        assert_eq!(e.0, "gone: images/a.png");
        let fetched = Fetched { names: &names, fetch: &fetch, lying: &|_| None };
        let e = zip_from(&whole, &deflated, &fetched).expect_err("refused");
        assert!(e.0.contains("images/a.png is both given and fetched"), "{e}");
        let mut names = names;
        names.insert("rules/r.json".into());
        let fetched = Fetched { names: &names, fetch: &fetch, lying: &|_| None };
        let e = zip_from(&given, &deflated, &fetched).expect_err("refused");
        assert!(e.0.contains("rules/r.json would be deflated"), "{e}");
    }

    #[test]
    fn entries_lying_in_the_last_archive_are_copied_and_damaged_ones_fetched() {
        let mut whole = BTreeMap::new();
        whole.insert("buildFile.xml".to_string(), b"<piece/>".repeat(50));
        for (i, name) in ["images/a.png", "images/b.png", "images/c.png", "images/é.png"]
            .into_iter()
            .enumerate()
        {
            whole.insert(name.to_string(), vec![i as u8 + 1; 300 + i]);
        }
        whole.insert("s1.vsav".to_string(), vec![9; 40]);
        let last = write_zip(&whole).expect("writes");
        let dir =
            std::env::temp_dir().join(format!("muster-lying-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("folder");
        let path = dir.join("last.vmod");
        std::fs::write(&path, &last).expect("writes");
        let stored = stored_entries(&File::open(&path).expect("opens")).expect("lists");
        let deflated: BTreeMap<String, Vec<u8>> = [(
            "buildFile.xml".to_string(),
            deflated_entry("buildFile.xml", &whole["buildFile.xml"]).expect("writes"),
        )]
        .into();
        // Every image but c lies in the last archive; c is fetched.
        let held: BTreeSet<String> =
            whole.keys().filter(|n| n.starts_with("images/")).cloned().collect();
        let mut given = whole.clone();
        given.retain(|name, _| !held.contains(name));
        let fetches = std::cell::Cell::new(0);
        let fetch = |name: &str, buffer: &mut Vec<u8>| {
            fetches.set(fetches.get() + 1);
            buffer.extend_from_slice(&whole[name]);
            Ok(())
        };
        let failing =
            |name: &str, _: &mut Vec<u8>| Err(ArchiveError(format!("gone: {name}")));
        // Intact, only the entry lying nowhere is fetched. With a byte flipped in b's
        // bytes, then in a's local header, the run of a and b is fetched entry by entry
        // instead (and c as before), and the archive is the same; when the fetcher cannot
        // give them either, the archive fails.
        for (flipped, fetched_then) in [
            (None, 1),
            (Some(stored["images/b.png"].range.start + 7), 3),
            (Some(stored["images/a.png"].header as usize + 14), 3),
        ] {
            let mut lies = last.clone();
            if let Some(at) = flipped {
                lies[at] ^= 1;
            }
            std::fs::write(&path, &lies).expect("writes");
            let file = File::open(&path).expect("opens");
            let lying = |name: &str| {
                let e = stored.get(name).filter(|_| name != "images/c.png")?;
                Some(Lying {
                    file: &file,
                    header: e.header,
                    crc: e.crc,
                    len: e.range.len() as u64,
                })
            };
            fetches.set(0);
            let fetched = Fetched { names: &held, fetch: &fetch, lying: &lying };
            assert_eq!(zip_from(&given, &deflated, &fetched).expect("writes"), last);
            assert_eq!(fetches.get(), fetched_then, "{flipped:?}");
            let fetched = Fetched { names: &held, fetch: &failing, lying: &lying };
            let failed = zip_from(&given, &deflated, &fetched).map_err(|e| e.0);
            let gone = if flipped.is_some() {
                "gone: images/a.png"
            } else {
                "gone: images/c.png"
            };
            assert_eq!(failed, Err(gone.to_string()));
        }
        std::fs::remove_dir_all(&dir).expect("removes");
    }

    #[test]
    fn the_central_directory_reads_back_as_the_zip_crate_reads_it() {
        let mut files = BTreeMap::new();
        files.insert("buildFile.xml".to_string(), b"<piece/>".repeat(50));
        files.insert("images/ü.png".to_string(), vec![3; 77]);
        files.insert("s1.vsav".to_string(), vec![9; 40]);
        let zip = write_zip(&files).expect("writes");
        let read = central_directory(Cursor::new(&zip)).expect("reads");
        let mut theirs = ZipArchive::new(Cursor::new(&zip)).expect("opens");
        assert_eq!(read.len(), theirs.len());
        for (i, e) in read.iter().enumerate() {
            let f = theirs.by_index_raw(i).expect("entry");
            assert_eq!(e.name, f.name().expect("name"));
            assert_eq!(e.stored, f.compression() == CompressionMethod::Stored);
            assert_eq!(
                (e.crc, e.packed, e.size),
                (f.crc32(), f.compressed_size(), f.size())
            );
            assert_eq!(e.header, f.header_start());
        }
        // A cut archive, or one past the entry limit, does not read.
        assert!(central_directory(Cursor::new(&zip[..zip.len() - 5])).is_err());
        assert!(central_directory(Cursor::new(&zip[zip.len() / 2..])).is_err());
    }

    #[test]
    fn more_entries_than_a_plain_zip_counts_end_in_zip64_records() {
        let files: BTreeMap<String, Vec<u8>> = (0..70_000u32)
            .map(|i| (format!("images/{i}.png"), i.to_le_bytes().to_vec()))
            .collect();
        let zip = zip_from(&files, &BTreeMap::new(), &Fetched::none()).expect("writes");
        let read = central_directory(Cursor::new(&zip)).expect("reads");
        assert_eq!(read.len(), 70_000);
        let theirs = ZipArchive::new(Cursor::new(&zip)).expect("the zip crate opens it");
        assert_eq!(theirs.len(), 70_000);
        // A header past 4 GiB is recorded in a Zip64 field and read back from it.
        let record = Record::stored("far.png", 5, 1).expect("fits");
        let mut directory = Vec::new();
        record.central_header(5 << 30, &mut directory);
        let len = directory.len() as u64;
        crate::zip_records::end_records(1, len, 0, &mut directory);
        let read = central_directory(Cursor::new(&directory)).expect("reads");
        assert_eq!(read[0].header, 5 << 30);
    }

    #[test]
    fn an_archive_written_as_it_goes_is_the_archive_written_whole() {
        // Entries large enough that the writer gives most of them to the file early.
        let mut files: BTreeMap<String, Vec<u8>> = (0..5u8)
            .map(|i| (format!("images/{i}.png"), vec![i; 700_000 + usize::from(i)]))
            .collect();
        files.insert("buildFile.xml".into(), b"<piece/>".repeat(40_000));
        files.insert("z.vsav".into(), vec![9; 3 << 20]);
        let deflated: BTreeMap<String, Vec<u8>> = [(
            "buildFile.xml".to_string(),
            deflated_entry("buildFile.xml", &files["buildFile.xml"]).expect("writes"),
        )]
        .into();
        let whole = write_zip(&files).expect("writes");
        let mut given = files.clone();
        let held = given.remove("images/3.png").expect("there");
        let fetch = |_: &str, buffer: &mut Vec<u8>| {
            buffer.extend_from_slice(&held);
            Ok(())
        };
        let names = ["images/3.png".to_string()].into();
        let fetched = Fetched { names: &names, fetch: &fetch, lying: &|_| None };
        let zipped =
            write_zip_from(Vec::new(), &given, &deflated, &fetched).expect("writes");
        assert_eq!(zipped.size, zipped.out.len() as u64);
        assert!(zipped.out == whole, "the same bytes as the archive written whole");
        let all = Fetched { names: &BTreeSet::new(), fetch: &fetch, lying: &|_| None };
        let again = write_zip_from(Vec::new(), &files, &deflated, &all).expect("writes");
        assert_eq!(zipped.content, again.content, "the same entries, the same content");
        let mut other = files.clone();
        other.insert("images/3.png".into(), b"another picture".to_vec());
        let other = write_zip_from(Vec::new(), &other, &deflated, &all).expect("writes");
        assert_ne!(zipped.content, other.content, "an entry changed");
    }

    #[test]
    fn compressed_entries_are_stored_and_the_rest_deflated() {
        let text =
            b"buildFile text buildFile text buildFile text buildFile text".repeat(20);
        let mut files = BTreeMap::new();
        for name in ["buildFile.xml", "images/a.png", "photo.jpg", "setup.vsav"] {
            files.insert(name.to_string(), text.clone());
        }
        let zip = write_zip(&files).expect("writes");
        let mut z = ZipArchive::new(Cursor::new(zip)).expect("opens");
        for (name, method) in [
            ("buildFile.xml", CompressionMethod::Deflated),
            ("images/a.png", CompressionMethod::Stored),
            ("photo.jpg", CompressionMethod::Stored),
            ("setup.vsav", CompressionMethod::Stored),
        ] {
            let entry = z.by_name(name).expect("entry");
            assert_eq!(entry.compression(), method, "{name}");
        }
    }

    #[test]
    fn escaping_names_are_refused() {
        for bad in ["../x", "a/../../x", "/etc/passwd", "C:/x", "a\\..\\b", "./a", ""] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        for good in ["buildFile.xml", "images/a b.png", "rules/ruleset.json", "a..b"] {
            assert!(check_name(good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn archives_with_escaping_entries_do_not_open() {
        let mut z = ZipWriter::new(Cursor::new(Vec::new()));
        z.start_file("../evil.txt", SimpleFileOptions::default()).expect("starts");
        z.write_all(b"x").expect("writes");
        let bytes = z.finish().expect("finishes").into_inner();
        let e = Archive::open(bytes).err().expect("refused");
        assert!(e.0.contains("escape"), "{e}");
        assert!(Archive::open(b"not a zip".to_vec()).is_err());
    }
}
