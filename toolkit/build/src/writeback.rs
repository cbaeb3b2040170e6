//! Writing staged outputs back to disk while the build goes on, so that the flush before
//! the commit finds little left to write. The large files (a module, a print-ready PDF)
//! are handed to a worker thread that writes each back (`fdatasync`) as soon as it is
//! staged; a file written as it goes is handed over again every [`EVERY`] bytes.

use std::fs::File;
use std::io::{self, Write};
use std::sync::Mutex;
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use muster_package::archive::ZipOut;

use crate::sync::lock;

/// A staged file at least this large is written back as soon as it is staged; smaller ones
/// are left to the commit's flush, which writes them all at once.
pub const EARLY: u64 = 1 << 20;

/// A file written as it goes is handed over again every time this much more is written.
pub const EVERY: u64 = 16 << 20;

/// A worker thread writing back, one after the other, the files handed to it.
#[derive(Debug, Default)]
pub(crate) struct Writeback {
    worker: Mutex<Option<Worker>>,
}

/// The worker's end of the hand-over, and the worker itself.
#[derive(Debug)]
struct Worker {
    files: Sender<File>,
    thread: JoinHandle<io::Result<()>>,
}

impl Writeback {
    /// Hands `file` over to be written back (through a copy of its handle). Nothing is lost
    /// when it cannot be: the commit's flush writes back whatever is left.
    pub(crate) fn start(&self, file: &File) {
        let Ok(file) = file.try_clone() else { return };
        let mut worker = lock(&self.worker);
        if worker.is_none() {
            *worker = Worker::spawn();
        }
        if let Some(w) = worker.as_ref() {
            // A worker gone (its thread ended) has a failure that `finish` reports.
            let _ = w.files.send(file);
        }
    }

    /// Waits until every file handed over is written back; the first failure, if any.
    pub(crate) fn finish(&self) -> io::Result<()> {
        let Some(Worker { files, thread }) = lock(&self.worker).take() else {
            return Ok(());
        };
        drop(files);
        thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the writeback worker failed")))
    }
}

impl Worker {
    /// A worker that writes back each file it is handed until the hand-over closes; none
    /// when no thread can be started.
    fn spawn() -> Option<Worker> {
        let (files, handed) = channel::<File>();
        let thread = std::thread::Builder::new()
            .name("writeback".into())
            .spawn(move || {
                let mut first = Ok(());
                for file in handed {
                    if let Err(e) = file.sync_data()
                        && first.is_ok()
                    {
                        first = Err(e);
                    }
                }
                first
            })
            .ok()?;
        Some(Worker { files, thread })
    }
}

/// A file being written that is handed to the writeback worker every [`EVERY`] bytes.
#[derive(Debug)]
pub struct Streamed<'a> {
    file: &'a mut File,
    writeback: &'a Writeback,
    since: u64,
}

impl<'a> Streamed<'a> {
    /// `file`, written back through `writeback` as it is written.
    pub(crate) fn new(file: &'a mut File, writeback: &'a Writeback) -> Self {
        Streamed { file, writeback, since: 0 }
    }
}

impl Write for Streamed<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.file.write(buf)?;
        self.since += n as u64;
        if self.since >= EVERY {
            self.writeback.start(self.file);
            self.since = 0;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl ZipOut for Streamed<'_> {
    /// Copies in the kernel (`copy_file_range`) where it can, else reads and writes.
    fn copy_from(&mut self, from: &File, offset: u64, len: u64) -> io::Result<()> {
        let mut at = offset;
        let end = offset + len;
        while at < end {
            let want =
                usize::try_from(end - at).unwrap_or(usize::MAX).min(EVERY as usize);
            let copied =
                rustix::fs::copy_file_range(from, Some(&mut at), &*self.file, None, want);
            match copied {
                Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => {
                    self.since += n as u64;
                    if self.since >= EVERY {
                        self.writeback.start(self.file);
                        self.since = 0;
                    }
                }
                // Where the kernel cannot copy between these files, the bytes go through
                // memory.
                Err(_) => {
                    return muster_package::archive::copy_by_reading(
                        self,
                        from,
                        at,
                        end - at,
                    );
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_handed_over_is_written_back_before_finish_returns() {
        let dir = tempfile::tempdir().unwrap();
        let writeback = Writeback::default();
        let path = dir.path().join("a.bin");
        let mut file = File::create(&path).unwrap();
        {
            let mut streamed = Streamed::new(&mut file, &writeback);
            let piece = vec![7u8; 1 << 20];
            for _ in 0..(EVERY >> 20) + 1 {
                streamed.write_all(&piece).unwrap();
            }
        }
        assert!(lock(&writeback.worker).is_some(), "a worker took the file over");
        writeback.finish().unwrap();
        assert!(lock(&writeback.worker).is_none(), "the worker ended");
        assert_eq!(std::fs::metadata(&path).unwrap().len(), EVERY + (1 << 20));
        // Finishing again, with nothing handed over, has nothing to wait for.
        writeback.finish().unwrap();
    }

    #[test]
    fn a_copied_range_lands_after_what_was_written_and_counts_towards_writeback() {
        let dir = tempfile::tempdir().unwrap();
        let from_path = dir.path().join("from.bin");
        let source: Vec<u8> = (0..(EVERY + 5000)).map(|i| (i % 251) as u8).collect();
        std::fs::write(&from_path, &source).unwrap();
        let from = File::open(&from_path).unwrap();
        let writeback = Writeback::default();
        let path = dir.path().join("to.bin");
        let mut file = File::create(&path).unwrap();
        {
            let mut streamed = Streamed::new(&mut file, &writeback);
            streamed.write_all(b"head").unwrap();
            streamed.copy_from(&from, 3, EVERY).unwrap();
            streamed.write_all(b"tail").unwrap();
            // Past the source's end is an error, not a short copy.
            assert!(streamed.copy_from(&from, EVERY, 10_000).is_err());
        }
        assert!(lock(&writeback.worker).is_some(), "the copy handed the file over");
        writeback.finish().unwrap();
        let written = std::fs::read(&path).unwrap();
        assert_eq!(&written[..4], b"head");
        assert_eq!(&written[4..4 + EVERY as usize], &source[3..3 + EVERY as usize]);
        assert_eq!(&written[4 + EVERY as usize..4 + EVERY as usize + 4], b"tail");
    }

    #[test]
    fn a_small_file_written_as_it_goes_is_not_handed_over() {
        let dir = tempfile::tempdir().unwrap();
        let writeback = Writeback::default();
        let mut file = File::create(dir.path().join("b.bin")).unwrap();
        Streamed::new(&mut file, &writeback).write_all(b"small").unwrap();
        assert!(lock(&writeback.worker).is_none());
    }
}
