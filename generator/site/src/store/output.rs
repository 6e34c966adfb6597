//! Writing the site so that readers only ever see a complete one.
//!
//! A build writes into a staging folder beside the output (same file system),
//! then swaps it in with one rename. A lock file beside the output keeps two
//! builds from writing the same site; it is removed when the build ends. A
//! build that fails leaves nothing beside the output; one that is killed
//! leaves its staging folder, which the next build removes (a link in its
//! place is removed itself: nothing here ever follows one to remove it).
//!
//! Every file kept beside the output, the build's and the deploy's, is
//! named by [`OutputFolder`], which also tells them (and what is inside
//! them) from the build's inputs.

use std::fs::{self, File, TryLockError};
use std::io;
use std::path::{Path, PathBuf};

use crate::store::io_pool::with_io_threads;

/// A problem writing the output; every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error("{}: another build is writing this site (lock file {}); wait for it to finish", out.display(), lock.display())]
    Busy { out: PathBuf, lock: PathBuf },
    #[error("{}: exists and is not a folder; choose another output folder", path.display())]
    NotAFolder { path: PathBuf },
    #[error("{}: is a symbolic link; give the folder it points to, or another one", path.display())]
    Link { path: PathBuf },
    #[error("{}: the output folder must be named by its own name (such as dist or ../site), not `.` or `..`", path.display())]
    Unnamed { path: PathBuf },
    #[error("{}: not empty and not a site modelpages built ({why}); choose an empty or new folder, or empty this one yourself", path.display())]
    NotASite { path: PathBuf, why: &'static str },
    #[error("{}: the output folder {relation} the {input} {}; choose another output folder", out.display(), input_path.display())]
    HoldsInput { out: PathBuf, relation: &'static str, input: &'static str, input_path: PathBuf },
    #[error("{}: not a transaction this program wrote for {} ({reason}); nothing was applied: look at it, remove it, then build again", path.display(), out.display())]
    ForeignTransaction { path: PathBuf, out: PathBuf, reason: String },
}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> OutputError + '_ {
    move |source| OutputError::Io { path: path.to_owned(), source }
}

/// Exclusive right to write one output folder, for as long as it is held.
/// Its file is removed when it is let go, so a build leaves no lock behind.
#[derive(Debug)]
pub struct OutputLock {
    _file: File,
    path: PathBuf,
}

impl Drop for OutputLock {
    fn drop(&mut self) {
        // Removed while still held (the file closes after this): a build
        // that opened it meanwhile finds, once it gets the lock, that the
        // path no longer names its file, and starts over (see `lock_output`).
        let _ = fs::remove_file(&self.path);
    }
}

/// The output folder and the files a build and a deploy keep beside it.
/// Each is named after the output, `.{name}{suffix}` in the same folder
/// (`.dist.manifest` beside `dist`), so two sites in one folder never share
/// one, and every name is made here:
///
/// | file | what it holds | kept by |
/// |---|---|---|
/// | `.{name}.lock` | the lock of the build or deploy writing the site | [`lock_output`] |
/// | `.{name}.tmp-{pid}` | a build's staging folder (and `-old`, the site it replaced) | [`Staging`] |
/// | `.{name}.txn` | an in-place transaction | `journal` |
/// | `.{name}.manifest` | what the site was built from | `manifest` |
/// | `.{name}.changes` | what changed since the last deploy | `changes` |
/// | `.{name}.deploy` | the journal of a deploy under way | the deploy crate's `journal` |
/// | `.{name}.deployed` | the destination of the last complete deploy | the deploy crate's `journal` |
/// | `.{name}.sent-{hash}` | what deploys sent to one destination | the deploy crate's `sent` |
#[derive(Clone, Copy, Debug)]
pub struct OutputFolder<'a> {
    out: &'a Path,
}

/// What follows `.{name}` in the name of each file kept beside the output.
const SIDE_FILES: [&str; 8] = [".lock", ".tmp-", ".txn", ".manifest", ".changes", ".deploy", ".deployed", ".sent-"];

impl<'a> OutputFolder<'a> {
    pub fn new(out: &'a Path) -> OutputFolder<'a> {
        OutputFolder { out }
    }

    pub fn path(&self) -> &'a Path {
        self.out
    }

    /// `.{out name}`: the start of every side file's name.
    fn stem(&self) -> String {
        let name = self.out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "site".into());
        format!(".{name}")
    }

    fn side_file(&self, suffix: &str) -> PathBuf {
        self.out.with_file_name(format!("{}{suffix}", self.stem()))
    }

    pub fn lock_file(&self) -> PathBuf {
        self.side_file(".lock")
    }

    /// The staging folder of the build running as process `pid`.
    pub fn staging(&self, pid: u32) -> PathBuf {
        self.side_file(&format!(".tmp-{pid}"))
    }

    /// Where the site a build replaces waits while the staged one moves in,
    /// where the two cannot be exchanged in one step.
    pub fn replaced(&self, pid: u32) -> PathBuf {
        self.side_file(&format!(".tmp-{pid}-old"))
    }

    /// Whether `name`, beside the output, is a staging folder (or a site
    /// being replaced) some build left.
    pub fn is_staging_name(&self, name: &std::ffi::OsStr) -> bool {
        name.to_string_lossy().starts_with(&format!("{}.tmp-", self.stem()))
    }

    pub fn transaction(&self) -> PathBuf {
        self.side_file(".txn")
    }

    pub fn manifest(&self) -> PathBuf {
        self.side_file(".manifest")
    }

    pub fn change_set(&self) -> PathBuf {
        self.side_file(".changes")
    }

    pub fn deploy_journal(&self) -> PathBuf {
        self.side_file(".deploy")
    }

    pub fn last_deploy(&self) -> PathBuf {
        self.side_file(".deployed")
    }

    /// The record of what deploys sent to the destination whose hash is
    /// `destination_hash` (16 hex digits).
    pub fn sent_record(&self, destination_hash: &str) -> PathBuf {
        self.side_file(&format!(".sent-{destination_hash}"))
    }

    /// Whether `path` is the output, inside it, or one of the files kept
    /// beside it (or inside one): what a build or deploy writes, and so
    /// never an input of a build.
    pub fn holds(&self, path: &Path) -> bool {
        if path.starts_with(self.out) {
            return true;
        }
        let stem = self.stem();
        path.ancestors().any(|p| {
            p.parent() == self.out.parent()
                && p.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_prefix(stem.as_str()))
                    .is_some_and(|rest| SIDE_FILES.iter().any(|suffix| rest.starts_with(suffix)))
        })
    }
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
    let lock = OutputFolder::new(out).lock_file();
    loop {
        let mut options = File::options();
        options.create(true).truncate(false).write(true);
        // A link planted in its place is an error, not a file to create elsewhere.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NOFOLLOW);
        let file = options.open(&lock).map_err(io_error(&lock))?;
        match file.try_lock() {
            // The build that held it may have removed the file between our
            // open and our lock: a lock on a file that no path names would
            // let a third build lock a new one beside us. Only the file the
            // path names counts; otherwise try again.
            Ok(()) if names_file(&lock, &file) => return Ok(OutputLock { _file: file, path: lock }),
            Ok(()) => continue,
            Err(TryLockError::WouldBlock) => return Err(OutputError::Busy { out: out.to_owned(), lock }),
            Err(TryLockError::Error(source)) => return Err(OutputError::Io { path: lock, source }),
        }
    }
}

/// Whether `path` names the open `file` (and not a new file made since).
fn names_file(path: &Path, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (fs::symlink_metadata(path), file.metadata()) {
            (Ok(named), Ok(open)) => named.dev() == open.dev() && named.ino() == open.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        // Where an open file cannot be removed, the path names it still.
        let _ = (path, file);
        true
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
        let folder = OutputFolder::new(out);
        let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let siblings = fs::read_dir(parent).map_err(io_error(parent))?;
        for entry in siblings.flatten() {
            if folder.is_staging_name(&entry.file_name()) {
                remove_tree(&entry.path()).map_err(io_error(&entry.path()))?;
            }
        }
        let dir = folder.staging(std::process::id());
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
/// the disk for minutes. A link (or file) at `dir` is removed itself: what
/// it points to is not ours. Links inside are never followed either.
pub fn remove_tree(dir: &Path) -> io::Result<()> {
    use rayon::prelude::*;
    match fs::symlink_metadata(dir) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        Ok(meta) if !meta.is_dir() => return fs::remove_file(dir),
        Ok(_) => {}
    }
    let entries: Vec<fs::DirEntry> = match fs::read_dir(dir) {
        Ok(names) => names.collect::<io::Result<_>>()?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    with_io_threads(|| {
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
    let aside = OutputFolder::new(out).replaced(std::process::id());
    fs::rename(out, &aside)?;
    fs::rename(staged, out)?;
    fs::rename(&aside, staged)
}

/// Writes `path` whole through [`crate::atomic_file::replace`] (synced, then
/// renamed over it), naming `path` in the error.
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), OutputError> {
    crate::atomic_file::replace(path, write).map_err(io_error(path))
}

/// [`write_atomically`], the new file handed to `write` as it is (see
/// [`crate::atomic_file::replace_file`]).
pub(crate) fn write_file_atomically(path: &Path, write: impl FnOnce(&fs::File) -> std::io::Result<()>) -> Result<(), OutputError> {
    crate::atomic_file::replace_file(path, write).map_err(io_error(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_beside_the_output_is_named_after_it_and_held_by_it() {
        let folder = OutputFolder::new(Path::new("/srv/dist"));
        let beside = [
            folder.lock_file(),
            folder.staging(7),
            folder.replaced(7),
            folder.transaction(),
            folder.manifest(),
            folder.change_set(),
            folder.deploy_journal(),
            folder.last_deploy(),
            folder.sent_record("0123456789abcdef"),
        ];
        let mut names: Vec<String> = beside.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        for (path, name) in beside.iter().zip(&names) {
            assert_eq!(path.parent(), Some(Path::new("/srv")), "{name}");
            assert!(name.starts_with(".dist."), "{name}");
            assert!(folder.holds(path) && folder.holds(&path.join("inside/a.html")), "{name}");
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), beside.len(), "no two share a name");
        assert!(folder.is_staging_name(std::ffi::OsStr::new(".dist.tmp-7-old")));
        assert!(!folder.is_staging_name(std::ffi::OsStr::new(".dist.txn")));
        assert!(folder.holds(Path::new("/srv/dist/index.html")));
        for input in ["/srv/.dist-settings.toml", "/srv/.distant/x", "/srv/.dist", "/srv/models/.dist.lock", "/srv/distro"] {
            assert!(!folder.holds(Path::new(input)), "{input}");
        }
    }

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
    fn the_lock_file_goes_with_the_lock_and_only_the_named_file_counts() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("dist");
        let lock = lock_output(&out).unwrap();
        let path = dir.path().join(".dist.lock");
        assert!(path.exists());
        drop(lock);
        assert!(!path.exists(), "no lock file is left behind");

        // A build that opened the file just before its holder removed it
        // must not count its lock: the path names another file by then.
        let opened = File::options().create(true).truncate(false).write(true).open(&path).unwrap();
        assert!(names_file(&path, &opened));
        fs::remove_file(&path).unwrap();
        fs::write(&path, "").unwrap();
        assert!(!names_file(&path, &opened));
        let _lock = lock_output(&out).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_removed_themselves_never_what_they_point_to() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        fs::create_dir_all(home.join("deep")).unwrap();
        fs::write(home.join("deep/notes"), "precious").unwrap();
        let out = dir.path().join("dist");
        std::os::unix::fs::symlink(&home, dir.path().join(".dist.tmp-1")).unwrap();
        std::os::unix::fs::symlink(home.join("deep/notes"), dir.path().join(".dist.tmp-2")).unwrap();
        let lock = lock_output(&out).unwrap();
        let staging = Staging::create(&out, &lock).unwrap();
        assert_eq!(fs::read_to_string(home.join("deep/notes")).unwrap(), "precious");
        assert!(fs::symlink_metadata(dir.path().join(".dist.tmp-1")).is_err());
        assert!(fs::symlink_metadata(dir.path().join(".dist.tmp-2")).is_err());
        // A link inside a folder being removed goes too, its target stays.
        std::os::unix::fs::symlink(&home, staging.path().join("link")).unwrap();
        drop(staging);
        assert_eq!(fs::read_to_string(home.join("deep/notes")).unwrap(), "precious");
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
