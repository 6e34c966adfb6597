//! Replacing one small file whole: the manifest, the change list, a deploy's
//! records. The bytes go to a new file beside it, are synced to the disk,
//! and the new file is renamed over the old one, so a reader (or the next
//! run, after a kill or a crash of the machine) finds the old bytes or the
//! new ones, never a part. A link in the file's place is replaced, never
//! written through.
//!
//! Pages are not written this way: a build writes thousands, and syncing
//! each would cost more than the build; they are replaced by renames (see
//! the store's transaction), which a killed build cannot leave half-done.

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Writes `path` through `write`, as described above; on an error the new
/// file is removed and `path` is left as it was. The error names no path:
/// callers add the one they report.
pub fn replace(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    replace_file(path, |file| {
        let mut out = BufWriter::new(file);
        write(&mut out)?;
        out.flush()
    })
}

/// [`replace`], with the new file handed to `write` as it is, for writes
/// at offsets (the manifest, written in parts side by side).
pub fn replace_file(path: &Path, write: impl FnOnce(&fs::File) -> io::Result<()>) -> io::Result<()> {
    let mut staged = path.as_os_str().to_owned();
    staged.push(".tmp");
    let staged = PathBuf::from(staged);
    // A new file, never one found there: a link left in its place would
    // have the bytes written wherever it points.
    let _ = fs::remove_file(&staged);
    let written = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&staged)
        .and_then(|file| {
            write(&file)?;
            // Synced before the rename: after a crash the name never points
            // at a file whose bytes did not reach the disk.
            file.sync_all()
        })
        .and_then(|()| fs::rename(&staged, path));
    if written.is_err() {
        let _ = fs::remove_file(&staged);
    }
    written
}

/// [`replace`] with bytes already in hand.
pub fn replace_with_bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace(path, |out| out.write_all(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_the_old_file_on_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("record.json");
        replace_with_bytes(&path, b"one").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"one");
        let failed = replace(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"one", "the old bytes stay");
        assert!(!dir.path().join("record.json.tmp").exists(), "no staged file left");
        replace_with_bytes(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_in_place_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside.txt");
        fs::write(&outside, b"theirs").unwrap();
        let path = dir.path().join("record.json");
        std::os::unix::fs::symlink(&outside, &path).unwrap();
        // A link where the staged file goes is removed, not followed.
        std::os::unix::fs::symlink(&outside, dir.path().join("record.json.tmp")).unwrap();
        replace_with_bytes(&path, b"ours").unwrap();
        assert_eq!(fs::read(&outside).unwrap(), b"theirs");
        assert!(!fs::symlink_metadata(&path).unwrap().file_type().is_symlink());
        assert_eq!(fs::read(&path).unwrap(), b"ours");
    }
}
