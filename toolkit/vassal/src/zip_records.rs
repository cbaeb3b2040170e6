//! The records of a zip archive as muster writes them (each entry's local header, its
//! central directory header, the end records) and the central directory read back.
//!
//! Every record is fixed by the entry alone: dated 1980-01-01, made on Unix with mode 0644,
//! no extra field but the Zip64 one an offset past 4 GiB needs. The same entry therefore
//! has the same local header in every archive muster writes, which is what lets a writer
//! copy an entry, header and all, from the archive it wrote before.

use std::io::{Read, Seek, SeekFrom};

use crate::entry_rules::{ArchiveError, MAX_ENTRIES, check_name};

/// The signature of a local header.
pub const LOCAL: u32 = 0x0403_4b50;
/// The signature of a central directory header.
const CENTRAL: u32 = 0x0201_4b50;
/// The signature of the end of the central directory.
const END: u32 = 0x0605_4b50;
/// The signature of the Zip64 end of the central directory.
const END64: u32 = 0x0606_4b50;
/// The signature of the Zip64 end locator.
const LOCATOR: u32 = 0x0706_4b50;
/// A 32-bit field too small for its value, which a Zip64 field then holds.
const FULL32: u32 = u32::MAX;
/// A 16-bit count too small for its value.
const FULL16: u16 = u16::MAX;
/// 1980-01-01 00:00 in MS-DOS form: time, then date.
const DOS_TIME: (u16, u16) = (0, (1 << 5) | 1);
/// A local header's length before the name.
pub const LOCAL_FIXED: u64 = 30;

/// What a zip records of one entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<'n> {
    /// The entry's name.
    pub name: &'n str,
    /// Whether its bytes are deflated (else stored as they are).
    pub deflated: bool,
    /// The CRC-32 of its bytes.
    pub crc: u32,
    /// How many bytes it takes in the archive.
    pub packed: u32,
    /// How many bytes it holds.
    pub size: u32,
}

impl<'n> Record<'n> {
    /// The record of `name` holding `len` bytes stored as they are, with CRC-32 `crc`; an
    /// error when they do not fit a zip entry.
    pub fn stored(name: &'n str, crc: u32, len: u64) -> Result<Self, ArchiveError> {
        let size = fits32(name, len)?;
        Ok(Record { name, deflated: false, crc, packed: size, size })
    }

    /// The version of the format the entry needs (and is made by).
    fn version(&self) -> u16 {
        if self.deflated { 20 } else { 10 }
    }

    /// The general-purpose flags: UTF-8 names are marked as such.
    fn flags(&self) -> u16 {
        if self.name.is_ascii() { 0 } else { 1 << 11 }
    }

    /// The fields a local and a central header share, from the version needed on.
    fn common(&self, out: &mut Vec<u8>, version: u16, extra: u16) {
        let method = if self.deflated { 8 } else { 0 };
        for half in [version, self.flags(), method, DOS_TIME.0, DOS_TIME.1] {
            out.extend_from_slice(&half.to_le_bytes());
        }
        for word in [self.crc, self.packed, self.size] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        out.extend_from_slice(&(self.name.len() as u16).to_le_bytes());
        out.extend_from_slice(&extra.to_le_bytes());
    }

    /// The entry's local header, which its bytes follow.
    pub fn local_header(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.local_len() as usize);
        out.extend_from_slice(&LOCAL.to_le_bytes());
        self.common(&mut out, self.version(), 0);
        out.extend_from_slice(self.name.as_bytes());
        out
    }

    /// The length of the local header.
    pub fn local_len(&self) -> u64 {
        LOCAL_FIXED + self.name.len() as u64
    }

    /// Whether `bytes` start with the entry as muster writes it: its local header, then
    /// bytes of its CRC-32.
    pub fn lies_at_start_of(&self, bytes: &[u8]) -> bool {
        let head = self.local_header();
        let data = head.len() + self.packed as usize;
        bytes.get(..head.len()) == Some(&head[..])
            && bytes
                .get(head.len()..data)
                .is_some_and(|data| crc32fast::hash(data) == self.crc)
    }

    /// Appends to `out` the entry's central directory header, for a local header at
    /// `offset`. An offset past 4 GiB goes in a Zip64 extra field.
    pub fn central_header(&self, offset: u64, out: &mut Vec<u8>) {
        let far = offset >= u64::from(FULL32);
        let version = if far { 45 } else { self.version() };
        out.extend_from_slice(&CENTRAL.to_le_bytes());
        out.extend_from_slice(&((3u16 << 8) | version).to_le_bytes());
        self.common(out, version, if far { 12 } else { 0 });
        // Comment length, disk, internal attributes; then the external ones: mode 0644.
        for half in [0u16, 0, 0] {
            out.extend_from_slice(&half.to_le_bytes());
        }
        out.extend_from_slice(&(0o100_644u32 << 16).to_le_bytes());
        out.extend_from_slice(&(if far { FULL32 } else { offset as u32 }).to_le_bytes());
        out.extend_from_slice(self.name.as_bytes());
        if far {
            out.extend_from_slice(&1u16.to_le_bytes());
            out.extend_from_slice(&8u16.to_le_bytes());
            out.extend_from_slice(&offset.to_le_bytes());
        }
    }
}

/// `len` as a 32-bit size field, or the error that `name` is too large for a zip entry.
pub fn fits32(name: &str, len: u64) -> Result<u32, ArchiveError> {
    u32::try_from(len)
        .ok()
        .filter(|&s| s < FULL32)
        .ok_or_else(|| ArchiveError(format!("{name} is too large for a zip entry")))
}

/// Appends to `out` the end of a central directory of `count` entries, `len` bytes long,
/// starting at `offset`: with the Zip64 end record and its locator first when a count or
/// an offset does not fit the plain one.
pub fn end_records(count: u64, len: u64, offset: u64, out: &mut Vec<u8>) {
    let wide = count >= u64::from(FULL16)
        || len >= u64::from(FULL32)
        || offset >= u64::from(FULL32);
    if wide {
        let at = offset + len;
        out.extend_from_slice(&END64.to_le_bytes());
        out.extend_from_slice(&44u64.to_le_bytes());
        for half in [(3u16 << 8) | 45, 45] {
            out.extend_from_slice(&half.to_le_bytes());
        }
        for word in [0u32, 0] {
            out.extend_from_slice(&word.to_le_bytes());
        }
        for long in [count, count, len, offset] {
            out.extend_from_slice(&long.to_le_bytes());
        }
        out.extend_from_slice(&LOCATOR.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        out.extend_from_slice(&at.to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes());
    }
    let count16 = if wide { FULL16 } else { count as u16 };
    out.extend_from_slice(&END.to_le_bytes());
    for half in [0u16, 0, count16, count16] {
        out.extend_from_slice(&half.to_le_bytes());
    }
    let (len32, offset32) =
        if wide { (FULL32, FULL32) } else { (len as u32, offset as u32) };
    for word in [len32, offset32] {
        out.extend_from_slice(&word.to_le_bytes());
    }
    out.extend_from_slice(&0u16.to_le_bytes());
}

/// An entry as the central directory records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CentralEntry {
    /// Its name, checked to stay inside the folder it is unpacked to.
    pub name: String,
    /// Whether it is stored as it is (not compressed).
    pub stored: bool,
    /// Its compression method: 0 stored, 8 deflated.
    pub method: u16,
    /// Its general-purpose flags (bit 0: encrypted; bit 3: sizes in a data descriptor).
    pub flags: u16,
    /// The CRC-32 of its bytes.
    pub crc: u32,
    /// How many bytes it takes in the archive.
    pub packed: u64,
    /// How many bytes it holds.
    pub size: u64,
    /// Where its local header starts.
    pub header: u64,
}

/// Reads the `n` bytes at `offset` of `reader`.
fn read_exact_at<R: Read + Seek>(
    reader: &mut R,
    offset: u64,
    n: usize,
) -> Result<Vec<u8>, ArchiveError> {
    let mut bytes = vec![0; n];
    reader
        .seek(SeekFrom::Start(offset))
        .and_then(|_| reader.read_exact(&mut bytes))
        .map_err(|e| ArchiveError(format!("the archive cannot be read ({e})")))?;
    Ok(bytes)
}

/// Every entry of the zip `reader` reads, from its central directory alone (no local
/// header is read): more than [`MAX_ENTRIES`] entries, a name that would escape its
/// folder, or a record that does not read is an error.
pub fn central_directory<R: Read + Seek>(
    mut reader: R,
) -> Result<Vec<CentralEntry>, ArchiveError> {
    let not_zip = |why: &str| ArchiveError(format!("not a zip archive ({why})"));
    let end = reader
        .seek(SeekFrom::End(0))
        .map_err(|e| ArchiveError(format!("the archive cannot be read ({e})")))?;
    let tail_len = end.min(22 + u64::from(FULL16));
    let tail = read_exact_at(&mut reader, end - tail_len, tail_len as usize)?;
    let at = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| tail[i..i + 4] == END.to_le_bytes())
        .ok_or_else(|| not_zip("no end of central directory"))?;
    let word =
        |b: &[u8], i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let half = |b: &[u8], i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let long = |b: &[u8], i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let record = &tail[at..];
    let (mut count, mut len, mut offset) = (
        u64::from(half(record, 10)),
        u64::from(word(record, 12)),
        u64::from(word(record, 16)),
    );
    if count == u64::from(FULL16)
        || len == u64::from(FULL32)
        || offset == u64::from(FULL32)
    {
        // The Zip64 locator sits just before the end record.
        let locator_at = (end - tail_len + at as u64)
            .checked_sub(20)
            .ok_or_else(|| not_zip("no Zip64 locator"))?;
        let locator = read_exact_at(&mut reader, locator_at, 20)?;
        if word(&locator, 0) != LOCATOR {
            return Err(not_zip("no Zip64 locator"));
        }
        let end64_at = long(&locator, 8);
        if end64_at.checked_add(56).is_none_or(|e| e > end) {
            return Err(not_zip("the Zip64 end record lies past the end"));
        }
        let end64 = read_exact_at(&mut reader, end64_at, 56)?;
        if word(&end64, 0) != END64 {
            return Err(not_zip("no Zip64 end record"));
        }
        (count, len, offset) = (long(&end64, 32), long(&end64, 40), long(&end64, 48));
    }
    if count > MAX_ENTRIES as u64 {
        return Err(ArchiveError(format!(
            "the archive has {count} entries, more than the {MAX_ENTRIES} muster reads"
        )));
    }
    if offset.checked_add(len).is_none_or(|e| e > end) {
        return Err(not_zip("the central directory lies past the end"));
    }
    let directory = read_exact_at(&mut reader, offset, len as usize)?;
    let short = || ArchiveError("the central directory is cut short".into());
    let mut entries = Vec::with_capacity(count as usize);
    let mut i = 0usize;
    for _ in 0..count {
        let fixed = directory.get(i..i + 46).ok_or_else(short)?;
        if word(fixed, 0) != CENTRAL {
            return Err(ArchiveError("a central directory header is damaged".into()));
        }
        let flags = half(fixed, 8);
        let method = half(fixed, 10);
        let crc = word(fixed, 16);
        let (name_len, extra_len, comment_len) = (
            half(fixed, 28) as usize,
            half(fixed, 30) as usize,
            half(fixed, 32) as usize,
        );
        let mut packed = u64::from(word(fixed, 20));
        let mut size = u64::from(word(fixed, 24));
        let mut header = u64::from(word(fixed, 42));
        let name_at = i + 46;
        let name = directory.get(name_at..name_at + name_len).ok_or_else(short)?;
        let name = String::from_utf8(name.to_vec())
            .map_err(|_| ArchiveError("an entry name is not UTF-8".into()))?;
        check_name(&name)?;
        let extra_at = name_at + name_len;
        let mut extra =
            directory.get(extra_at..extra_at + extra_len).ok_or_else(short)?;
        // The Zip64 field holds, in order, each of size, packed size and offset that
        // did not fit.
        while extra.len() >= 4 {
            let (id, n) = (half(extra, 0), half(extra, 2) as usize);
            let body = extra.get(4..4 + n).ok_or_else(short)?;
            if id == 1 {
                let mut at = 0;
                for field in [&mut size, &mut packed, &mut header] {
                    if *field == u64::from(FULL32) {
                        *field = long(body.get(at..at + 8).ok_or_else(short)?, 0);
                        at += 8;
                    }
                }
            }
            extra = &extra[4 + n..];
        }
        entries.push(CentralEntry {
            name,
            stored: method == 0,
            method,
            flags,
            crc,
            packed,
            size,
            header,
        });
        i = extra_at + extra_len + comment_len;
    }
    Ok(entries)
}
