//! File operations that never follow a symbolic link, for changing a site in
//! place: a link planted inside the output, or a transaction folder replaced
//! by one, must not carry a write or a removal to a file outside the output.
//!
//! A [`Dir`] is an open folder. Paths below it are walked one plain name at a
//! time, each opened with `O_NOFOLLOW | O_DIRECTORY` relative to the one
//! before, so a link anywhere on the way is an error, never a detour; files
//! are created, renamed and removed relative to the folder that holds them.
//! Only plain names are accepted (no `..`, no root), which makes this what
//! Linux's `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS` does, but on
//! every Unix and kernel and with folders made on the way. It costs an open
//! per folder of a path, which is nothing next to writing the files of the
//! few models an in-place change touches.

use std::ffi::OsStr;
use std::io;
use std::path::{Component, Path};

use crate::store::output::{io_error, OutputError};

/// A file name that a build never writes through, with why.
fn link_refused() -> io::Error {
    io::Error::other("is a symbolic link, which a build never follows")
}

/// The folders and the file name of `rel`, when it is a plain relative path.
pub(crate) fn plain_parts(rel: &str) -> Option<(Vec<&OsStr>, &OsStr)> {
    let path = Path::new(rel);
    let mut names = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => names.push(name),
            _ => return None,
        }
    }
    // `a//b` and `a/./b` normalise silently in `components`; a transaction's
    // steps never hold them, so they are not plain either.
    if rel.split('/').count() != names.len() {
        return None;
    }
    let file = names.pop()?;
    Some((names, file))
}

/// What a name in a [`Dir`] is, links not followed.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Folder,
    Link,
    Other,
}

#[cfg(unix)]
pub(crate) use unix::Dir;

#[cfg(not(unix))]
pub(crate) use portable::Dir;

#[cfg(unix)]
mod unix {
    use std::ffi::{CString, OsStr};
    use std::fs::File;
    use std::io::{self, Read, Write};
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    use std::os::unix::ffi::OsStrExt;
    use std::path::{Path, PathBuf};

    use super::{io_error, link_refused, Kind, OutputError};

    const DIR_FLAGS: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW | libc::O_CLOEXEC;

    fn c_name(name: &OsStr) -> io::Result<CString> {
        CString::new(name.as_bytes()).map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in a file name"))
    }

    fn check(rc: libc::c_int) -> io::Result<libc::c_int> {
        if rc < 0 { Err(io::Error::last_os_error()) } else { Ok(rc) }
    }

    /// An open folder; see the module's overview.
    #[derive(Debug)]
    pub(crate) struct Dir {
        fd: OwnedFd,
        /// For messages only.
        path: PathBuf,
    }

    impl Dir {
        /// Opens the folder at `path`, which must not be a link itself (the
        /// folders above it are the user's, links or not).
        pub(crate) fn open(path: &Path) -> Result<Dir, OutputError> {
            let c = c_name(path.as_os_str()).map_err(io_error(path))?;
            // SAFETY: `c` is a valid NUL-terminated path.
            let rc = unsafe { libc::open(c.as_ptr(), DIR_FLAGS) };
            match check(rc) {
                // SAFETY: `fd` was just opened and is owned by nobody else.
                Ok(fd) => Ok(Dir { fd: unsafe { OwnedFd::from_raw_fd(fd) }, path: path.to_owned() }),
                Err(e) if is_link_error(&e) && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) => {
                    Err(io_error(path)(link_refused()))
                }
                Err(e) => Err(io_error(path)(e)),
            }
        }

        /// Makes a new folder at `path` and opens it; anything already there,
        /// a link included, is an error.
        pub(crate) fn create_new(path: &Path) -> Result<Dir, OutputError> {
            std::fs::create_dir(path).map_err(io_error(path))?;
            Dir::open(path)
        }

        pub(crate) fn path(&self) -> &Path {
            &self.path
        }

        pub(crate) fn try_clone(&self) -> Result<Dir, OutputError> {
            Ok(Dir { fd: self.fd.try_clone().map_err(io_error(&self.path))?, path: self.path.clone() })
        }

        fn at(&self, name: &OsStr, call: impl FnOnce(libc::c_int, &CString) -> libc::c_int) -> io::Result<libc::c_int> {
            let c = c_name(name)?;
            check(call(self.fd.as_raw_fd(), &c))
        }

        /// The folder `name` in this one, made first when `create` is set.
        pub(crate) fn child(&self, name: &OsStr, create: bool) -> Result<Dir, OutputError> {
            let path = self.path.join(name);
            // SAFETY (every `at` call here): a valid folder fd and C string.
            let open = || self.at(name, |fd, c| unsafe { libc::openat(fd, c.as_ptr(), DIR_FLAGS) });
            let fd = match open() {
                Err(e) if create && e.kind() == io::ErrorKind::NotFound => {
                    match self.at(name, |fd, c| unsafe { libc::mkdirat(fd, c.as_ptr(), 0o777) }) {
                        Err(e) if e.kind() != io::ErrorKind::AlreadyExists => return Err(io_error(&path)(e)),
                        _ => open(),
                    }
                }
                other => other,
            };
            match fd {
                // SAFETY: `fd` was just opened and is owned by nobody else.
                Ok(fd) => Ok(Dir { fd: unsafe { OwnedFd::from_raw_fd(fd) }, path }),
                Err(e) if is_link_error(&e) && self.kind(name).ok().flatten() == Some(Kind::Link) => {
                    Err(io_error(&path)(link_refused()))
                }
                Err(e) => Err(io_error(&path)(e)),
            }
        }

        /// What `name` is, `None` when there is nothing by that name.
        pub(crate) fn kind(&self, name: &OsStr) -> io::Result<Option<Kind>> {
            let mut stat = std::mem::MaybeUninit::<libc::stat>::uninit();
            // SAFETY: `stat` is written by fstatat before it is read.
            let found = self.at(name, |fd, c| unsafe {
                libc::fstatat(fd, c.as_ptr(), stat.as_mut_ptr(), libc::AT_SYMLINK_NOFOLLOW)
            });
            match found {
                Ok(_) => {
                    // SAFETY: fstatat succeeded, so it filled `stat` in.
                    let mode = unsafe { stat.assume_init() }.st_mode & libc::S_IFMT;
                    Ok(Some(match mode {
                        libc::S_IFREG => Kind::File,
                        libc::S_IFDIR => Kind::Folder,
                        libc::S_IFLNK => Kind::Link,
                        _ => Kind::Other,
                    }))
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            }
        }

        /// Creates the file `name`, which must not exist, with `bytes`.
        pub(crate) fn write_new(&self, name: &OsStr, bytes: &[u8]) -> Result<(), OutputError> {
            let path = self.path.join(name);
            self.create_file(name)?.write_all(bytes).map_err(io_error(&path))
        }

        /// Creates the file `name`, which must not exist, for writing.
        pub(crate) fn create_file(&self, name: &OsStr) -> Result<File, OutputError> {
            let path = self.path.join(name);
            let flags = libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW | libc::O_CLOEXEC;
            let fd = self.at(name, |fd, c| unsafe { libc::openat(fd, c.as_ptr(), flags, 0o666 as libc::c_uint) });
            // SAFETY: `fd` was just opened and is owned by nobody else.
            Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd.map_err(io_error(&path))?) }))
        }

        /// The regular file `name`, opened for reading, with its metadata;
        /// `None` when it does not exist. A link (not followed) or anything
        /// but a regular file is an error.
        pub(crate) fn open_file(&self, name: &OsStr) -> io::Result<Option<(File, std::fs::Metadata)>> {
            // Non-blocking, so a FIFO in its place cannot hang the build.
            let flags = libc::O_RDONLY | libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC;
            let fd = match self.at(name, |fd, c| unsafe { libc::openat(fd, c.as_ptr(), flags) }) {
                Ok(fd) => fd,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
                Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(link_refused()),
                Err(e) => return Err(e),
            };
            // SAFETY: `fd` was just opened and is owned by nobody else.
            let file = File::from(unsafe { OwnedFd::from_raw_fd(fd) });
            let meta = file.metadata()?;
            if !meta.is_file() {
                return Err(io::Error::other("is not a regular file"));
            }
            Ok(Some((file, meta)))
        }

        /// The bytes of the regular file `name`, `None` when it does not exist.
        pub(crate) fn read(&self, name: &OsStr) -> Result<Option<Vec<u8>>, OutputError> {
            let path = self.path.join(name);
            let Some((mut file, _)) = self.open_file(name).map_err(io_error(&path))? else { return Ok(None) };
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).map_err(io_error(&path))?;
            Ok(Some(bytes))
        }

        /// Renames `name` to `to_name` in `to`, replacing what is there (a
        /// link there is replaced, not followed).
        pub(crate) fn rename(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> Result<(), OutputError> {
            let target = to.path.join(to_name);
            let to_c = c_name(to_name).map_err(io_error(&target))?;
            self.at(name, |fd, c| unsafe { libc::renameat(fd, c.as_ptr(), to.fd.as_raw_fd(), to_c.as_ptr()) })
                .map(drop)
                .map_err(io_error(&target))
        }

        /// Renames `name` to `target`, a path of the caller's choosing.
        pub(crate) fn rename_to_path(&self, name: &OsStr, target: &Path) -> Result<(), OutputError> {
            let to_c = c_name(target.as_os_str()).map_err(io_error(target))?;
            self.at(name, |fd, c| unsafe { libc::renameat(fd, c.as_ptr(), libc::AT_FDCWD, to_c.as_ptr()) })
                .map(drop)
                .map_err(io_error(target))
        }

        /// Removes the file (or link) `name`; what a link points to is untouched.
        pub(crate) fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            self.at(name, |fd, c| unsafe { libc::unlinkat(fd, c.as_ptr(), 0) }).map(drop)
        }

        /// Removes the empty folder `name`.
        pub(crate) fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
            self.at(name, |fd, c| unsafe { libc::unlinkat(fd, c.as_ptr(), libc::AT_REMOVEDIR) }).map(drop)
        }
    }

    /// What opening a link with `O_NOFOLLOW` (and `O_DIRECTORY`) fails with.
    fn is_link_error(e: &io::Error) -> bool {
        matches!(e.raw_os_error(), Some(libc::ELOOP) | Some(libc::ENOTDIR))
    }
}

/// Where there are no file descriptors to walk from, every name is looked at
/// (without following) before it is used: the same refusals, though a link
/// swapped in between the look and the use is not caught.
#[cfg(not(unix))]
mod portable {
    use std::ffi::OsStr;
    use std::fs;
    use std::io;
    use std::path::{Path, PathBuf};

    use super::{io_error, link_refused, Kind, OutputError};

    #[derive(Debug)]
    pub(crate) struct Dir {
        path: PathBuf,
    }

    fn no_link(path: &Path) -> io::Result<()> {
        match fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => Err(link_refused()),
            _ => Ok(()),
        }
    }

    impl Dir {
        pub(crate) fn open(path: &Path) -> Result<Dir, OutputError> {
            no_link(path).map_err(io_error(path))?;
            match fs::metadata(path).map_err(io_error(path))? {
                m if m.is_dir() => Ok(Dir { path: path.to_owned() }),
                _ => Err(io_error(path)(io::Error::other("is not a folder"))),
            }
        }

        pub(crate) fn create_new(path: &Path) -> Result<Dir, OutputError> {
            fs::create_dir(path).map_err(io_error(path))?;
            Dir::open(path)
        }

        pub(crate) fn path(&self) -> &Path {
            &self.path
        }

        pub(crate) fn try_clone(&self) -> Result<Dir, OutputError> {
            Ok(Dir { path: self.path.clone() })
        }

        pub(crate) fn child(&self, name: &OsStr, create: bool) -> Result<Dir, OutputError> {
            let path = self.path.join(name);
            if create && self.kind(name).map_err(io_error(&path))?.is_none() {
                fs::create_dir(&path).map_err(io_error(&path))?;
            }
            Dir::open(&path)
        }

        pub(crate) fn kind(&self, name: &OsStr) -> io::Result<Option<Kind>> {
            match fs::symlink_metadata(self.path.join(name)) {
                Ok(m) if m.is_file() => Ok(Some(Kind::File)),
                Ok(m) if m.is_dir() => Ok(Some(Kind::Folder)),
                Ok(m) if m.file_type().is_symlink() => Ok(Some(Kind::Link)),
                Ok(_) => Ok(Some(Kind::Other)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                Err(e) => Err(e),
            }
        }

        pub(crate) fn write_new(&self, name: &OsStr, bytes: &[u8]) -> Result<(), OutputError> {
            use std::io::Write;
            let path = self.path.join(name);
            self.create_file(name)?.write_all(bytes).map_err(io_error(&path))
        }

        pub(crate) fn create_file(&self, name: &OsStr) -> Result<fs::File, OutputError> {
            let path = self.path.join(name);
            fs::OpenOptions::new().write(true).create_new(true).open(&path).map_err(io_error(&path))
        }

        pub(crate) fn read(&self, name: &OsStr) -> Result<Option<Vec<u8>>, OutputError> {
            let path = self.path.join(name);
            match self.kind(name).map_err(io_error(&path))? {
                None => Ok(None),
                Some(Kind::File) => fs::read(&path).map(Some).map_err(io_error(&path)),
                Some(_) => Err(io_error(&path)(io::Error::other("is not a regular file"))),
            }
        }

        pub(crate) fn open_file(&self, name: &OsStr) -> io::Result<Option<(fs::File, fs::Metadata)>> {
            let path = self.path.join(name);
            match self.kind(name)? {
                None => Ok(None),
                Some(Kind::File) => {
                    let file = fs::File::open(&path)?;
                    let meta = file.metadata()?;
                    Ok(Some((file, meta)))
                }
                Some(Kind::Link) => Err(link_refused()),
                Some(_) => Err(io::Error::other("is not a regular file")),
            }
        }

        pub(crate) fn rename(&self, name: &OsStr, to: &Dir, to_name: &OsStr) -> Result<(), OutputError> {
            self.rename_to_path(name, &to.path.join(to_name))
        }

        pub(crate) fn rename_to_path(&self, name: &OsStr, target: &Path) -> Result<(), OutputError> {
            fs::rename(self.path.join(name), target).map_err(io_error(target))
        }

        pub(crate) fn remove_file(&self, name: &OsStr) -> io::Result<()> {
            fs::remove_file(self.path.join(name))
        }

        pub(crate) fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
            fs::remove_dir(self.path.join(name))
        }
    }
}

impl Dir {
    /// The folder reached by the plain names `names` below this one, each
    /// made first when `create` is set; a link on the way is an error.
    pub(crate) fn descend(&self, names: &[&OsStr], create: bool) -> Result<Dir, OutputError> {
        let Some((first, rest)) = names.split_first() else {
            return self.try_clone();
        };
        let mut dir = self.child(first, create)?;
        for name in rest {
            dir = dir.child(name, create)?;
        }
        Ok(dir)
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    #[test]
    fn only_plain_relative_paths_have_parts() {
        let (folders, file) = plain_parts("ns/m/index.html").unwrap();
        assert_eq!(folders, [OsStr::new("ns"), OsStr::new("m")]);
        assert_eq!(file, "index.html");
        assert_eq!(plain_parts("index.html").unwrap().0.len(), 0);
        for rel in ["", "../x", "/etc/x", "a/../../x", "a/./b", "a//b", "a/", "./a"] {
            assert!(plain_parts(rel).is_none(), "{rel:?}");
        }
    }

    #[test]
    fn links_are_refused_on_the_way_and_replaced_at_the_end() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("site");
        let outside = tmp.path().join("outside");
        fs::create_dir_all(root.join("real")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("victim"), "precious").unwrap();
        symlink(&outside, root.join("link")).unwrap();
        symlink(outside.join("victim"), root.join("real/file-link")).unwrap();
        let dir = Dir::open(&root).unwrap();

        let err = dir.descend(&[OsStr::new("link")], true).unwrap_err().to_string();
        assert!(err.contains("link: is a symbolic link, which a build never follows"), "{err}");
        let err = dir.descend(&[OsStr::new("link"), OsStr::new("deeper")], true).unwrap_err().to_string();
        assert!(err.contains("never follows"), "{err}");
        assert!(!outside.join("deeper").exists());
        assert!(Dir::open(&root.join("link")).is_err(), "the start itself may not be a link");
        assert!(dir.read(OsStr::new("link")).is_err());

        // A link at the end of a path is a name like any other: removed or
        // replaced itself, its target untouched.
        let real = dir.descend(&[OsStr::new("real")], false).unwrap();
        real.write_new(OsStr::new("new"), b"new").unwrap();
        real.rename(OsStr::new("new"), &real, OsStr::new("file-link")).unwrap();
        assert_eq!(fs::read_to_string(root.join("real/file-link")).unwrap(), "new");
        assert_eq!(fs::read_to_string(outside.join("victim")).unwrap(), "precious");
        dir.remove_file(OsStr::new("link")).unwrap();
        assert!(outside.join("victim").exists());
        assert!(real.write_new(OsStr::new("file-link"), b"again").is_err(), "never over an existing name");

        let made = dir.descend(&[OsStr::new("a"), OsStr::new("b")], true).unwrap();
        assert!(made.path().ends_with("site/a/b") && root.join("a/b").is_dir());
        assert_eq!(dir.kind(OsStr::new("a")).unwrap(), Some(Kind::Folder));
        assert_eq!(dir.kind(OsStr::new("gone")).unwrap(), None);
    }
}
