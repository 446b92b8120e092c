//! A program's captured answer: in memory while it is small, in an anonymous temporary file
//! once it is not, so that a program printing 64 MiB costs the harness a file, not 64 MiB of
//! its own memory per worker. Readers see the same bytes either way.

use std::fs::File;
use std::io::{self, Read, Write};
use std::sync::Arc;

/// Past this many bytes an answer goes to a temporary file.
pub const SPILL_AT: usize = 1024 * 1024;

/// The bytes a program wrote as its answer.
#[derive(Clone, Debug, Default)]
pub struct Captured {
    /// The bytes, while they are in memory; the first ones kept, once the rest is forgotten.
    memory: Vec<u8>,
    /// The whole answer, once it was spilled (unlinked: it goes when the last handle does).
    file: Option<Arc<File>>,
    /// How many bytes the answer has.
    len: u64,
}

impl PartialEq<[u8]> for Captured {
    fn eq(&self, other: &[u8]) -> bool {
        self.len == other.len() as u64 && self.to_vec().is_ok_and(|bytes| bytes == other)
    }
}

impl From<Vec<u8>> for Captured {
    fn from(memory: Vec<u8>) -> Captured {
        Captured {
            len: memory.len() as u64,
            memory,
            file: None,
        }
    }
}

impl Captured {
    /// An answer read from `file` (kept open, never read into memory beyond [`SPILL_AT`]):
    /// its first `len` bytes.
    pub fn from_file(file: File, len: u64) -> io::Result<Captured> {
        if len as usize <= SPILL_AT {
            let mut memory = Vec::with_capacity(len as usize);
            file.take(len).read_to_end(&mut memory)?;
            return Ok(Captured::from(memory));
        }
        Ok(Captured {
            memory: Vec::new(),
            file: Some(Arc::new(file)),
            len,
        })
    }

    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether every byte can still be read (nothing was forgotten).
    pub fn is_complete(&self) -> bool {
        self.file.is_some() || self.memory.len() as u64 == self.len
    }

    /// Reads the readable bytes from the start.
    pub fn reader(&self) -> CapturedReader<'_> {
        CapturedReader { of: self, at: 0 }
    }

    /// The first `n` bytes, or fewer.
    pub fn head(&self, n: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let _ = self.reader().take(n as u64).read_to_end(&mut out);
        out
    }

    /// Every readable byte, in memory: for answers that are cases themselves (a generator's),
    /// whose size is the case's.
    pub fn to_vec(&self) -> io::Result<Vec<u8>> {
        if self.file.is_none() {
            return Ok(self.memory.clone());
        }
        let mut out = Vec::with_capacity(self.len as usize);
        self.reader().read_to_end(&mut out)?;
        Ok(out)
    }

    /// Copies the readable bytes into `out`.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<u64> {
        io::copy(&mut self.reader(), out)
    }

    /// The same answer with only its first `n` bytes kept (and its length remembered): what a
    /// report needs of a case once it is judged.
    pub fn forget_beyond(&self, n: usize) -> Captured {
        Captured {
            memory: self.head(n),
            file: None,
            len: self.len,
        }
    }
}

/// A reader over a [`Captured`] answer; reads of a spilled answer use their own offsets, so
/// readers of one answer never disturb each other.
pub struct CapturedReader<'a> {
    of: &'a Captured,
    at: u64,
}

impl Read for CapturedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = match &self.of.file {
            Some(file) => {
                let left = self.of.len.saturating_sub(self.at);
                let want = buf.len().min(left as usize);
                if want == 0 {
                    return Ok(0);
                }
                read_at(file, &mut buf[..want], self.at)?
            }
            None => {
                let rest = self.of.memory.get(self.at as usize..).unwrap_or(&[]);
                let n = rest.len().min(buf.len());
                buf[..n].copy_from_slice(&rest[..n]);
                n
            }
        };
        self.at += n as u64;
        Ok(n)
    }
}

/// Reads from `file` at `offset` without moving a shared cursor (readers share the file).
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

/// Reads from `file` at `offset`: Windows moves the file's cursor, which no reader relies on
/// (each read names its offset).
#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// Collects an answer as it arrives: in memory up to [`SPILL_AT`], then in a temporary file.
#[derive(Debug, Default)]
pub(crate) struct Collector {
    memory: Vec<u8>,
    file: Option<File>,
    len: u64,
}

impl Collector {
    /// Takes `bytes` (a buffer the caller reuses).
    pub(crate) fn push(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        if self.file.is_none() && self.memory.len() + bytes.len() > SPILL_AT {
            // A temporary file where one can be made; memory otherwise, as before.
            if let Ok(mut file) = tempfile::tempfile()
                && file.write_all(&self.memory).is_ok()
            {
                self.memory = Vec::new();
                self.file = Some(file);
            }
        }
        match &mut self.file {
            Some(file) => {
                if file.write_all(bytes).is_err() {
                    // A full disk: what was written is what the program wrote, as far as it
                    // can be kept.
                    self.len -= bytes.len() as u64;
                }
            }
            None => self.memory.extend_from_slice(bytes),
        }
    }

    pub(crate) fn len(&self) -> u64 {
        self.len
    }

    /// The answer, cut to its first `limit` bytes.
    pub(crate) fn finish(self, limit: u64) -> Captured {
        let len = self.len.min(limit);
        match self.file {
            Some(file) => Captured {
                memory: Vec::new(),
                file: Some(Arc::new(file)),
                len,
            },
            None => {
                let mut memory = self.memory;
                memory.truncate(len as usize);
                Captured::from(memory)
            }
        }
    }
}

/// The first `limit` bytes of a stream, held as a [`Collector`] holds them (spilled to a file
/// past [`SPILL_AT`]), so that a program flooding its output costs no more memory than a small
/// one.
pub(crate) struct Upto {
    collector: Collector,
    limit: u64,
}

impl Upto {
    pub(crate) fn new(limit: u64) -> Upto {
        Upto {
            collector: Collector::default(),
            limit,
        }
    }

    /// Keeps what of `bytes` is within the limit; whether some of them were past it.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> bool {
        let room = self.limit.saturating_sub(self.collector.len());
        let kept = bytes.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        if kept > 0 {
            self.collector.push(&bytes[..kept]);
        }
        kept < bytes.len()
    }

    pub(crate) fn finish(self) -> Captured {
        self.collector.finish(self.limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_answer_is_read_back_whole_from_its_file() {
        let mut collector = Collector::default();
        let piece: Vec<u8> = (0..=255u8).cycle().take(300_000).collect();
        for _ in 0..10 {
            collector.push(&piece);
        }
        let captured = collector.finish(2_500_000);
        assert!(captured.file.is_some() && captured.memory.is_empty());
        assert_eq!(captured.len(), 2_500_000);
        let whole = captured.to_vec().unwrap();
        assert_eq!(whole.len(), 2_500_000);
        assert_eq!(&whole[..300_000], &piece[..]);
        assert_eq!(&whole[300_000..600_000], &piece[..]);
        assert_eq!(captured.head(3), [0, 1, 2]);
        let kept = captured.forget_beyond(4);
        assert_eq!(
            (kept.len(), kept.to_vec().unwrap()),
            (2_500_000, vec![0, 1, 2, 3])
        );
        assert!(!kept.is_complete());
    }

    #[test]
    fn a_small_answer_stays_in_memory() {
        let mut collector = Collector::default();
        collector.push(b"12 ");
        collector.push(b"34\n");
        let captured = collector.finish(5);
        assert!(captured.file.is_none());
        assert!(captured == *b"12 34".as_slice());
    }

    /// An interactive program's output kept up to its limit: past it nothing more is held,
    /// and what is kept past [`SPILL_AT`] is in a file, not in memory.
    #[test]
    fn a_flood_is_kept_up_to_its_limit_in_a_file() {
        let mut upto = Upto::new(2_000_000);
        let piece: Vec<u8> = (0..=255u8).cycle().take(700_000).collect();
        let over: Vec<bool> = (0..4).map(|_| upto.push(&piece)).collect();
        assert_eq!(over, [false, false, true, true]);
        assert!(upto.collector.file.is_some() && upto.collector.memory.is_empty());
        let captured = upto.finish();
        assert_eq!(captured.len(), 2_000_000);
        let whole = captured.to_vec().unwrap();
        assert_eq!(&whole[1_400_000..2_000_000], &piece[..600_000]);
    }
}
