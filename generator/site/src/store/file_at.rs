//! Reading, writing and copying a file's bytes at an offset, without
//! moving a shared position: the manifest is read chunk by chunk from
//! several threads, and written in parts side by side.
//!
//! A copy between two files ([`copy_range`]) stays in the kernel where it
//! can (`copy_file_range`): at hub scale every build copies hundreds of MB
//! of the previous manifest into the next, and carrying them through the
//! program's memory cost twice the copy itself.
//!
//! A file written this way can have its room taken on the disk first
//! ([`reserve`]). ext4 otherwise decides where a file's bytes go only when
//! they are written out, and does so at once for a file renamed over
//! another: the manifest's rename then waited a quarter of a second at hub
//! scale while 400 MB were placed.

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

/// Takes room on the disk for `len` bytes of `file` at `offset`, which
/// the caller is about to write, where the system can (`fallocate`); a
/// file system that cannot is left to place them itself.
pub(crate) fn reserve(file: &fs::File, offset: u64, len: u64) {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let (Ok(offset), Ok(len)) = (libc::off_t::try_from(offset), libc::off_t::try_from(len)) else { return };
        if len > 0 {
            // SAFETY: the descriptor is open for the length of the call,
            // which takes plain integers. Its result is only a hint: the
            // writes that follow work either way.
            unsafe { libc::fallocate(file.as_raw_fd(), 0, offset, len) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (file, offset, len);
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

    #[test]
    fn room_taken_first_leaves_the_file_as_its_writes_make_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = fs::OpenOptions::new().create_new(true).read(true).write(true).open(dir.path().join("f")).unwrap();
        // The later part's room first, as the manifest's two writers may.
        reserve(&file, 5000, 3000);
        reserve(&file, 0, 5000);
        reserve(&file, 8000, 0);
        write_at(&file, &[7u8; 3000], 5000).unwrap();
        write_at(&file, &[1u8; 5000], 0).unwrap();
        let written = fs::read(dir.path().join("f")).unwrap();
        assert_eq!(written.len(), 8000);
        assert!(written[..5000].iter().all(|b| *b == 1) && written[5000..].iter().all(|b| *b == 7));
    }
}
