//! Reading, writing and copying a file's bytes at an offset, without
//! moving a shared position: the manifest is read chunk by chunk from
//! several threads, and written in parts side by side.
//!
//! A copy between two files ([`copy_range`]) stays in the kernel where it
//! can (`copy_file_range`): at hub scale every build copies hundreds of MB
//! of the previous manifest into the next, and carrying them through the
//! program's memory cost twice the copy itself.

use std::fs;
use std::io;

/// Fills `buf` from `file` at `offset`.
pub(crate) fn read_at(file: &fs::File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Read, Seek};
        let mut file = file.try_clone()?;
        file.seek(io::SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}

/// Writes all of `bytes` into `file` at `offset`.
pub(crate) fn write_at(file: &fs::File, bytes: &[u8], offset: u64) -> io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, Write};
        let mut file = file.try_clone()?;
        file.seek(io::SeekFrom::Start(offset))?;
        file.write_all(bytes)
    }
}

/// Copies `len` bytes of `from` at `from_at` into `to` at `to_at`: in the
/// kernel where the system and file systems allow, else through a buffer.
pub(crate) fn copy_range(from: &fs::File, from_at: u64, to: &fs::File, to_at: u64, len: u64) -> io::Result<()> {
    let mut done = 0;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        while done < len {
            let (mut src, mut dst) = ((from_at + done) as libc::loff_t, (to_at + done) as libc::loff_t);
            let want = usize::try_from(len - done).unwrap_or(usize::MAX).min(1 << 30);
            // SAFETY: both descriptors are open for the length of the call,
            // and the offsets are plain integers the call updates.
            let copied = unsafe { libc::copy_file_range(from.as_raw_fd(), &mut src, to.as_raw_fd(), &mut dst, want, 0) };
            match copied {
                0 => return Err(io::Error::from(io::ErrorKind::UnexpectedEof)),
                n if n > 0 => done += n as u64,
                _ => {
                    let err = io::Error::last_os_error();
                    match err.raw_os_error() {
                        Some(libc::EINTR) => continue,
                        // Not between these files or on this system: by hand.
                        Some(libc::EXDEV | libc::ENOSYS | libc::EINVAL | libc::EOPNOTSUPP | libc::EPERM) => break,
                        _ => return Err(err),
                    }
                }
            }
        }
    }
    let mut buf = vec![0; (len - done).min(1 << 20) as usize];
    while done < len {
        let n = (len - done).min(buf.len() as u64) as usize;
        read_at(from, &mut buf[..n], from_at + done)?;
        write_at(to, &buf[..n], to_at + done)?;
        done += n as u64;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_copy_between_files_at_their_offsets() {
        let dir = tempfile::tempdir().unwrap();
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
        fs::write(dir.path().join("from"), &bytes).unwrap();
        let from = fs::File::open(dir.path().join("from")).unwrap();
        let to = fs::OpenOptions::new().create_new(true).read(true).write(true).open(dir.path().join("to")).unwrap();
        write_at(&to, b"head", 0).unwrap();
        copy_range(&from, 10, &to, 4, 2_000_000).unwrap();
        copy_range(&from, 0, &to, 2_000_004, 5).unwrap();
        let written = fs::read(dir.path().join("to")).unwrap();
        assert_eq!(&written[..4], b"head");
        assert_eq!(&written[4..2_000_004], &bytes[10..2_000_010]);
        assert_eq!(&written[2_000_004..], &bytes[..5]);
        let mut back = [0u8; 3];
        read_at(&to, &mut back, 1).unwrap();
        assert_eq!(&back, b"ead");
        assert!(copy_range(&from, 2_999_999, &to, 0, 2).is_err(), "past the end of the source");
    }
}
