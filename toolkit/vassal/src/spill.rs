//! [`Spill`]: a seekable writer over a plain one, for a zip writer that seeks back only
//! within the entry it is writing. It holds what was written since it last spilled, and
//! spills it to the plain writer when told (between entries), so that an archive goes to a
//! file as it is written instead of being held whole.

use std::cell::RefCell;
use std::io::{self, Seek, SeekFrom, Write};
use std::rc::Rc;

/// The bytes written but not yet spilled, and where they start.
struct Tail<W> {
    /// Where spilled bytes go.
    out: W,
    /// How many bytes went to `out`: the offset of `held[0]`.
    spilled: u64,
    /// The bytes since.
    held: Vec<u8>,
    /// The writing position, within `held`.
    at: usize,
    /// Where the entry last marked ([`Spill::entry_starts`]) starts.
    entry: u64,
}

/// A handle on one tail: clones share it, so that one can be given to a zip writer and
/// another kept to spill with.
pub(crate) struct Spill<W>(Rc<RefCell<Tail<W>>>);

impl<W> Clone for Spill<W> {
    fn clone(&self) -> Self {
        Spill(Rc::clone(&self.0))
    }
}

impl<W: Write> Spill<W> {
    /// Holds no less than `least` bytes before it spills them.
    const LEAST: usize = 1 << 20;

    /// A tail over `out`, nothing written yet.
    pub(crate) fn new(out: W) -> Self {
        Spill(Rc::new(RefCell::new(Tail {
            out,
            spilled: 0,
            held: Vec::new(),
            at: 0,
            entry: 0,
        })))
    }

    /// Marks that an entry starts at the end of what was written. A zip writer goes back
    /// only to the header of the entry it writes, and is done with an entry when the next
    /// one starts: what lies before the entry marked last can go.
    pub(crate) fn entry_starts(&self) -> io::Result<()> {
        let before = {
            let mut tail = self.0.borrow_mut();
            let end = tail.spilled + tail.held.len() as u64;
            std::mem::replace(&mut tail.entry, end)
        };
        self.spill_before(before)
    }

    /// Gives what is held before `offset` to the plain writer, once there is enough of it;
    /// after this, seeking before `offset` is an error.
    fn spill_before(&self, offset: u64) -> io::Result<()> {
        let mut tail = self.0.borrow_mut();
        let Tail { out, spilled, held, at, .. } = &mut *tail;
        let n = match offset.checked_sub(*spilled).map(usize::try_from) {
            Some(Ok(n)) if n <= held.len() => n,
            _ => return Err(io::Error::other(format!("offset {offset} is not held"))),
        };
        if n < Self::LEAST {
            return Ok(());
        }
        out.write_all(&held[..n])?;
        held.drain(..n);
        *spilled = offset;
        *at = at.saturating_sub(n);
        Ok(())
    }

    /// Spills everything and gives the plain writer back, when no other handle is left.
    pub(crate) fn finish(self) -> io::Result<W> {
        let cell = Rc::try_unwrap(self.0)
            .map_err(|_| io::Error::other("the archive's writer is still in use"))?;
        let mut tail = cell.into_inner();
        tail.out.write_all(&tail.held)?;
        Ok(tail.out)
    }
}

impl<W: Write> Write for Spill<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let mut tail = self.0.borrow_mut();
        let at = tail.at;
        let over = bytes.len().min(tail.held.len() - at);
        tail.held[at..at + over].copy_from_slice(&bytes[..over]);
        tail.held.extend_from_slice(&bytes[over..]);
        tail.at = at + bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<W: Write> Seek for Spill<W> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let mut tail = self.0.borrow_mut();
        let (spilled, len) = (tail.spilled, tail.held.len() as u64);
        let target = match to {
            SeekFrom::Start(at) => Some(at),
            SeekFrom::End(by) => (spilled + len).checked_add_signed(by),
            SeekFrom::Current(by) => (spilled + tail.at as u64).checked_add_signed(by),
        };
        match target {
            Some(at) if at >= spilled && at <= spilled + len => {
                tail.at = (at - spilled) as usize;
                Ok(at)
            }
            _ => Err(io::Error::other(format!(
                "cannot seek to {to:?}: only bytes {spilled} to {} are held",
                spilled + len
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAST: usize = Spill::<Vec<u8>>::LEAST;

    #[test]
    fn writes_reach_the_plain_writer_in_order_with_overwrites_within_the_tail() {
        let spill = Spill::new(Vec::new());
        let mut w = spill.clone();
        w.write_all(b"header....").expect("writes");
        w.write_all(&vec![7; LEAST]).expect("writes");
        let second = w.stream_position().expect("where");
        w.write_all(b"next......").expect("writes");
        // Back to a header, as a zip writer does to fill in sizes, and on again.
        w.seek(SeekFrom::Start(6)).expect("within the tail");
        w.write_all(b"1234").expect("writes");
        assert_eq!(w.seek(SeekFrom::End(0)).expect("end"), second + 10);
        // Too little before an offset is not spilled; enough is, and no further.
        spill.spill_before(5).expect("spills nothing");
        w.seek(SeekFrom::Start(0)).expect("still held");
        spill.spill_before(second).expect("spills");
        let e = w.seek(SeekFrom::Start(3)).expect_err("spilled");
        assert!(e.to_string().contains("only bytes 1048586 to 1048596"), "{e}");
        w.seek(SeekFrom::Start(second + 4)).expect("still held");
        w.write_all(b"NN").expect("writes");
        assert_eq!(w.seek(SeekFrom::Current(4)).expect("end"), second + 10);
        w.write_all(b"tail").expect("writes");
        assert!(spill.spill_before(second + 100).is_err(), "not written yet");
        assert!(spill.clone().finish().is_err(), "another handle is still alive");
        drop(w);
        let out = spill.finish().expect("the only handle");
        assert_eq!(out.len() as u64, second + 14);
        assert_eq!(&out[..10], b"header1234");
        assert!(out[10..second as usize].iter().all(|&b| b == 7));
        assert_eq!(&out[second as usize..], b"nextNN....tail");
    }

    #[test]
    fn an_entry_is_held_until_the_next_one_starts() {
        let spill = Spill::new(Vec::new());
        let mut w = spill.clone();
        let entry = |w: &mut Spill<Vec<u8>>, fill: u8| {
            spill.entry_starts().expect("marks");
            let start = w.stream_position().expect("where");
            w.write_all(&vec![fill; LEAST]).expect("writes");
            start
        };
        let first = entry(&mut w, 1);
        let second = entry(&mut w, 2);
        // The first entry is done with only now: it is still held.
        w.seek(SeekFrom::Start(first)).expect("the first entry is held");
        w.seek(SeekFrom::End(0)).expect("end");
        let third = entry(&mut w, 3);
        assert!(w.seek(SeekFrom::Start(first)).is_err(), "the first entry went");
        w.seek(SeekFrom::Start(second)).expect("the second entry is held");
        w.write_all(b"2nd").expect("writes");
        drop(w);
        let out = spill.finish().expect("the only handle");
        assert_eq!(out.len(), 3 * LEAST);
        assert_eq!(&out[second as usize..second as usize + 3], b"2nd");
        assert_eq!((out[0], out[third as usize]), (1, 3));
    }
}
