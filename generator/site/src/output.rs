//! Writing the site so that readers only ever see a complete one.
//!
//! A build writes into a staging folder beside the output (same file system),
//! then swaps it in with one rename. A lock file beside the output keeps two
//! builds from writing the same site. A build that fails or is killed leaves
//! only its staging folder behind, which the next build removes.

use std::fs::{self, File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use crate::journal::same_bytes;

/// A problem writing the output; every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: another build is writing this site (lock file {}); wait for it to finish", out.display(), lock.display())]
    Busy { out: PathBuf, lock: PathBuf },
    #[error("{}: exists and is not a folder; choose another output folder", path.display())]
    NotAFolder { path: PathBuf },
}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_owned(), source }
}

/// Exclusive right to write one output folder, for as long as it is held.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
}

/// A sibling of `out` named `.{out name}{suffix}`.
pub(crate) fn sibling(out: &Path, suffix: &str) -> PathBuf {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "site".into());
    out.with_file_name(format!(".{name}{suffix}"))
}

/// Takes the lock on `out`, or says which build holds it. The lock is released
/// when the value is dropped, or by the OS if the process dies.
pub fn lock_output(out: &Path) -> Result<OutputLock, OutputError> {
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(|source| {
            // "File exists" would not say which file is in the way.
            match parent.ancestors().find(|a| fs::metadata(a).is_ok_and(|m| !m.is_dir())) {
                Some(file) => OutputError::NotAFolder { path: file.to_owned() },
                None => OutputError::Io { path: parent.to_owned(), source },
            }
        })?;
    }
    let lock = sibling(out, ".lock");
    let file = File::options().create(true).truncate(false).write(true).open(&lock).map_err(io_error(&lock))?;
    match file.try_lock() {
        Ok(()) => Ok(OutputLock { _file: file }),
        Err(TryLockError::WouldBlock) => Err(OutputError::Busy { out: out.to_owned(), lock }),
        Err(TryLockError::Error(source)) => Err(OutputError::Io { path: lock, source }),
    }
}

/// The folder a build writes into before it becomes the output.
#[derive(Debug)]
pub struct Staging {
    dir: PathBuf,
    out: PathBuf,
    committed: bool,
}

impl Staging {
    /// Creates a fresh staging folder for `out`, first removing what earlier
    /// killed builds left. Needs the lock, which proves nobody else is using them.
    pub fn create(out: &Path, _lock: &OutputLock) -> Result<Staging, OutputError> {
        if fs::symlink_metadata(out).is_ok_and(|m| !m.is_dir()) {
            return Err(OutputError::NotAFolder { path: out.to_owned() });
        }
        let prefix = sibling(out, ".tmp-");
        let parent = prefix.parent().expect("a sibling has a parent").to_owned();
        let stale_prefix = prefix.file_name().expect("named").to_string_lossy().into_owned();
        let listing = fs::read_dir(if parent.as_os_str().is_empty() { Path::new(".") } else { &parent })
            .map_err(io_error(&parent))?;
        for entry in listing.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&stale_prefix) {
                remove_tree(&entry.path()).map_err(io_error(&entry.path()))?;
            }
        }
        let dir = sibling(out, &format!(".tmp-{}", std::process::id()));
        fs::create_dir(&dir).map_err(io_error(&dir))?;
        Ok(Staging { dir, out: out.to_owned(), committed: false })
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// Writes `bytes` to `rel` inside the staging folder, creating folders.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let path = self.dir.join(rel);
        // The common case, a new file in a folder that exists, costs one
        // open; folders are made and stale files removed only when asked for.
        match write_new(&path, bytes) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                if let Some(parent) = path.parent() {
                    fs::create_dir_all(parent).map_err(io_error(parent))?;
                }
            }
            // A page kept by a hard link and then rendered after all must not
            // be written through the link into the live site: replace it.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => fs::remove_file(&path).map_err(io_error(&path))?,
            Err(e) => return Err(io_error(&path)(e)),
        }
        write_new(&path, bytes).map_err(io_error(&path))
    }

    /// Hard-links `rel` from the previous site into the staging folder: the
    /// page is unchanged, so it is neither rendered nor written again.
    pub fn link_from(&self, previous: &Path, rel: &str) -> Result<(), OutputError> {
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(io_error(parent))?;
        }
        fs::hard_link(previous.join(rel), &path).map_err(io_error(&path))
    }

    /// Writes `bytes` to `rel`, or links the previous site's file when it
    /// holds exactly these bytes.
    pub fn write_or_link(&self, previous: &Path, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        if same_bytes(&previous.join(rel), bytes) && self.link_from(previous, rel).is_ok() {
            return Ok(());
        }
        self.write(rel, bytes)
    }

    /// Makes the staged site the output in one step, then removes the old site.
    pub fn commit(mut self) -> Result<(), OutputError> {
        if self.out.exists() {
            swap(&self.dir, &self.out).map_err(io_error(&self.out))?;
            // `self.dir` now holds the previous site; Drop removes it.
        } else {
            fs::rename(&self.dir, &self.out).map_err(io_error(&self.out))?;
            self.committed = true;
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            let _ = remove_tree(&self.dir);
        }
    }
}

/// Writes `bytes` to a file that must not exist yet.
fn write_new(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    fs::OpenOptions::new().write(true).create_new(true).open(path)?.write_all(bytes)
}

/// Removes a site folder, its top-level folders in parallel: a site of
/// 100,000 models is 400,000 files, and removing them one by one waits on
/// the disk for minutes.
pub fn remove_tree(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    let entries: Vec<fs::DirEntry> = match fs::read_dir(dir) {
        Ok(listing) => listing.collect::<io::Result<_>>()?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    crate::plan::with_io_threads(|| {
        entries.par_iter().try_for_each(|entry| match entry.file_type()? {
            kind if kind.is_dir() => fs::remove_dir_all(entry.path()),
            _ => fs::remove_file(entry.path()),
        })
    })?;
    fs::remove_dir_all(dir)
}

/// Exchanges two folders atomically where the OS can; otherwise moves the old
/// one aside first, which leaves a moment with no output but never a mix.
fn swap(staged: &Path, out: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let a = CString::new(staged.as_os_str().as_bytes())?;
        let b = CString::new(out.as_os_str().as_bytes())?;
        // SAFETY: both are valid NUL-terminated paths; renameat2 reads them only.
        let rc = unsafe {
            libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE)
        };
        if rc == 0 {
            return Ok(());
        }
        let err = io::Error::last_os_error();
        if !matches!(err.raw_os_error(), Some(libc::EINVAL) | Some(libc::ENOSYS)) {
            return Err(err);
        }
    }
    let aside = sibling(out, &format!(".tmp-{}-old", std::process::id()));
    fs::rename(out, &aside)?;
    fs::rename(staged, out)?;
    fs::rename(&aside, staged)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_until_the_first_lets_go() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        let first = lock_output(&out).unwrap();
        let err = lock_output(&out).unwrap_err();
        assert!(matches!(err, OutputError::Busy { .. }));
        assert!(err.to_string().contains("another build is writing this site"), "{err}");
        drop(first);
        assert!(lock_output(&out).is_ok());
    }

    #[test]
    fn staging_is_swapped_in_and_stale_folders_are_cleared() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("old.html"), "old").unwrap();
        fs::create_dir_all(dir.path().join(".dist.tmp-999999")).unwrap();
        let lock = lock_output(&out).unwrap();
        let staging = Staging::create(&out, &lock).unwrap();
        assert!(!dir.path().join(".dist.tmp-999999").exists(), "stale staging removed");
        staging.write("a/b/index.html", b"new").unwrap();
        staging.commit().unwrap();
        assert_eq!(fs::read_to_string(out.join("a/b/index.html")).unwrap(), "new");
        assert!(!out.join("old.html").exists());
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 2, "only dist and its lock file remain: {names:?}");
    }

    #[test]
    fn dropped_staging_is_removed_and_output_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        fs::create_dir_all(&out).unwrap();
        fs::write(out.join("keep.html"), "keep").unwrap();
        let lock = lock_output(&out).unwrap();
        let staging = Staging::create(&out, &lock).unwrap();
        let staged = staging.path().to_owned();
        staging.write("x.html", b"x").unwrap();
        drop(staging);
        assert!(!staged.exists());
        assert_eq!(fs::read_to_string(out.join("keep.html")).unwrap(), "keep");
    }
}
