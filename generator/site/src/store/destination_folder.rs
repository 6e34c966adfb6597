//! A local folder as the destination of `modelpages deploy` (the root a web
//! server serves), written as a build writes its output: through
//! [`nofollow`](crate::store::nofollow) folder handles, so a symbolic link in
//! the destination is never followed. A link on the way to a file is an
//! error naming it, and so is a link in the place of a file to write or
//! remove: the deploy neither writes through one nor replaces one, since it
//! did not make it. The folder given (`/srv/www`, which may itself be a link
//! the user set up) is resolved once; nothing below it is.
//!
//! Each file is written whole into the upload folder ([`UPLOADS`], at the
//! root), then renamed into place, so a visitor never gets half a page.
//! Only that folder holds what a killed deploy leaves half written, so
//! clearing it ([`DestinationFolder::clear_uploads`]) touches nothing else:
//! no file of the destination is ever taken for a leftover by its name.
//! Folders a removal empties go too.

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::store::nofollow::{plain_parts, Dir, Kind};
use crate::store::output::{io_error, OutputError};

/// The folder at the destination's root that files are written into before
/// they are renamed into place. It is not the site's: listings skip it.
pub const UPLOADS: &str = ".modelpages-upload";

/// An open destination folder; `None` inside when it does not exist (a dry
/// run, which makes nothing, sees it as empty).
#[derive(Debug)]
pub struct DestinationFolder {
    path: PathBuf,
    root: Option<Dir>,
    next_upload: AtomicU64,
}

/// What a destination folder holds, links not followed.
#[derive(Debug, Default)]
pub struct FolderListing {
    /// Regular files by relative path, with their sizes.
    pub files: BTreeMap<String, u64>,
    /// Everything else (links, FIFOs, names that are no plain path), by
    /// relative path: never read, written, removed or gone into.
    pub others: Vec<String>,
}

fn refused(path: &Path, why: &str) -> OutputError {
    io_error(path)(io::Error::other(why.to_owned()))
}

const LINK: &str = "is a symbolic link, which a deploy never follows or replaces; remove it, then deploy again";

impl DestinationFolder {
    /// Opens the folder `path`, made first (with its parents) when `create`
    /// is set; otherwise a folder that does not exist is seen as empty.
    pub fn open(path: &Path, create: bool) -> Result<DestinationFolder, OutputError> {
        if create {
            std::fs::create_dir_all(path).map_err(io_error(path))?;
        }
        let root = match path.canonicalize() {
            Ok(resolved) => Some(Dir::open(&resolved)?),
            Err(e) if e.kind() == io::ErrorKind::NotFound && !create => None,
            Err(e) => return Err(io_error(path)(e)),
        };
        Ok(DestinationFolder { path: path.to_owned(), root, next_upload: AtomicU64::new(0) })
    }

    /// Every entry below the root but the upload folder, links not followed.
    pub fn list(&self) -> Result<FolderListing, OutputError> {
        let mut listing = FolderListing::default();
        let Some(root) = &self.root else { return Ok(listing) };
        let walk = walkdir::WalkDir::new(root.path()).follow_links(false).min_depth(1).sort_by_file_name();
        let mut walk = walk.into_iter();
        while let Some(entry) = walk.next() {
            let entry = entry.map_err(|e| io_error(&self.path)(e.into_io_error().unwrap_or_else(|| io::Error::other("a folder loop"))))?;
            let rel = entry.path().strip_prefix(root.path()).expect("walked from it");
            if rel == Path::new(UPLOADS) {
                walk.skip_current_dir();
                continue;
            }
            if entry.file_type().is_dir() {
                continue;
            }
            let rel_text = rel.to_str().filter(|r| crate::store::changes::is_site_path(r));
            match rel_text {
                Some(rel) if entry.file_type().is_file() => {
                    let size = entry.metadata().map_err(|e| io_error(entry.path())(e.into()))?.len();
                    listing.files.insert(rel.to_owned(), size);
                }
                _ => listing.others.push(rel.to_string_lossy().into_owned()),
            }
        }
        Ok(listing)
    }

    /// Whether the destination holds anything at all (the upload folder
    /// aside), and the first thing found.
    pub fn first_entry(&self) -> Result<Option<String>, OutputError> {
        let listing = self.list()?;
        Ok(listing.files.into_keys().next().or_else(|| listing.others.into_iter().next()))
    }

    /// The folder holding `rel` and its file name; `None` when a folder on
    /// the way is missing (and `create` is not set).
    fn folder_of<'r>(&self, rel: &'r str, create: bool) -> Result<Option<(Dir, &'r OsStr)>, OutputError> {
        let Some(root) = &self.root else { return Ok(None) };
        let Some((folders, name)) = plain_parts(rel) else {
            return Err(refused(&self.path.join(rel), "is not a plain relative path"));
        };
        match root.descend(&folders, create) {
            Ok(dir) => Ok(Some((dir, name))),
            Err(OutputError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound && !create => Ok(None),
            Err(err) => Err(self.link_said(err)),
        }
    }

    /// `err`, reworded when a link stopped it: a deploy, not a build, met it.
    fn link_said(&self, err: OutputError) -> OutputError {
        match err {
            OutputError::Io { path, source } if source.to_string().contains("symbolic link") => refused(&path, LINK),
            other => other,
        }
    }

    /// The size of the regular file `rel`, `None` when there is none.
    pub fn size(&self, rel: &str) -> Result<Option<u64>, OutputError> {
        let Some((dir, name)) = self.folder_of(rel, false)? else { return Ok(None) };
        let path = self.path.join(rel);
        match dir.open_file(name).map_err(io_error(&path)) {
            Ok(found) => Ok(found.map(|(_, meta)| meta.len())),
            Err(err) => Err(self.link_said(err)),
        }
    }

    /// The bytes of the regular file `rel`, `None` when there is none.
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>, OutputError> {
        let Some((dir, name)) = self.folder_of(rel, false)? else { return Ok(None) };
        dir.read(name).map_err(|e| self.link_said(e))
    }

    /// Writes `bytes` as `rel`: whole into the upload folder, then renamed
    /// into place over the file there. A link or a folder in its place is
    /// an error, never replaced.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), OutputError> {
        let path = self.path.join(rel);
        let root = self.root.as_ref().ok_or_else(|| refused(&self.path, "does not exist"))?;
        let (dir, name) = self.folder_of(rel, true)?.expect("made on the way");
        match dir.kind(name).map_err(io_error(&path))? {
            None | Some(Kind::File) => {}
            Some(Kind::Link) => return Err(refused(&path, LINK)),
            Some(_) => return Err(refused(&path, "is not a regular file; a deploy does not replace it")),
        }
        let uploads = root.child(OsStr::new(UPLOADS), true).map_err(|e| self.link_said(e))?;
        let staged = OsString::from(format!("{}-{}", std::process::id(), self.next_upload.fetch_add(1, Ordering::Relaxed)));
        let _ = uploads.remove_file(&staged);
        uploads.write_new(&staged, bytes)?;
        uploads.rename(&staged, &dir, name).inspect_err(|_| {
            let _ = uploads.remove_file(&staged);
        })
    }

    /// Removes the file `rel` (one already gone is removed), then every
    /// folder on its way that this leaves empty. A link in its place, or on
    /// the way, is an error: the deploy never sent one.
    pub fn remove(&self, rel: &str) -> Result<(), OutputError> {
        let path = self.path.join(rel);
        let Some((dir, name)) = self.folder_of(rel, false)? else { return Ok(()) };
        match dir.kind(name).map_err(io_error(&path))? {
            None => return Ok(()),
            Some(Kind::File) => dir.remove_file(name).map_err(io_error(&path))?,
            Some(Kind::Link) => return Err(refused(&path, LINK)),
            Some(_) => return Err(refused(&path, "is not a regular file; a deploy does not remove it")),
        }
        let root = self.root.as_ref().expect("a folder was found");
        let (folders, _) = plain_parts(rel).expect("checked on the way");
        for depth in (0..folders.len()).rev() {
            let parent = root.descend(&folders[..depth], false)?;
            // Not empty (or gone meanwhile): the folders above are not empty either.
            if parent.remove_dir(folders[depth]).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// Removes the upload folder and what a killed deploy left in it;
    /// returns how many files that was.
    pub fn clear_uploads(&self) -> Result<usize, OutputError> {
        let Some(root) = &self.root else { return Ok(0) };
        let uploads = match root.child(OsStr::new(UPLOADS), false) {
            Ok(dir) => dir,
            Err(OutputError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => return Ok(0),
            Err(err) => return Err(self.link_said(err)),
        };
        let names: Vec<OsString> = std::fs::read_dir(uploads.path())
            .map_err(io_error(uploads.path()))?
            .map(|e| e.map(|e| e.file_name()))
            .collect::<io::Result<_>>()
            .map_err(io_error(uploads.path()))?;
        for name in &names {
            uploads.remove_file(name).map_err(io_error(&uploads.path().join(name)))?;
        }
        root.remove_dir(OsStr::new(UPLOADS)).map_err(io_error(uploads.path()))?;
        Ok(names.len())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    #[test]
    fn files_are_written_and_removed_below_the_root_and_links_are_never_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let www = tmp.path().join("www");
        let outside = tmp.path().join("outside");
        fs::create_dir_all(&outside).unwrap();
        fs::write(outside.join("victim"), "precious").unwrap();
        let folder = DestinationFolder::open(&www, true).unwrap();
        folder.write("ns/m/index.html", b"page").unwrap();
        folder.write("invoice#2024", b"mine").unwrap();
        assert_eq!(fs::read_to_string(www.join("ns/m/index.html")).unwrap(), "page");
        assert!(!www.join(UPLOADS).join("0").exists(), "renamed into place");
        assert_eq!(folder.size("ns/m/index.html").unwrap(), Some(4));
        assert_eq!(folder.read("ns/none/index.html").unwrap(), None);

        symlink(&outside, www.join("link")).unwrap();
        symlink(outside.join("victim"), www.join("ns/file-link")).unwrap();
        let listing = folder.list().unwrap();
        assert_eq!(listing.files.keys().collect::<Vec<_>>(), ["invoice#2024", "ns/m/index.html"], "a name with # is a file like any other");
        assert_eq!(listing.others, ["link", "ns/file-link"]);
        for rel in ["link/victim", "link/new.html", "ns/file-link"] {
            let err = folder.write(rel, b"pwned").unwrap_err().to_string();
            assert!(err.contains("never follows or replaces"), "{rel}: {err}");
            let err = folder.remove(rel).unwrap_err().to_string();
            assert!(err.contains("never follows or replaces"), "{rel}: {err}");
        }
        assert_eq!(fs::read_to_string(outside.join("victim")).unwrap(), "precious");
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 1);
        assert!(fs::symlink_metadata(www.join("ns/file-link")).unwrap().file_type().is_symlink());

        fs::remove_file(www.join("ns/file-link")).unwrap();
        folder.remove("ns/m/index.html").unwrap();
        assert!(!www.join("ns").exists(), "emptied folders go");
        folder.remove("ns/m/index.html").unwrap();
        assert!(www.join("invoice#2024").exists());

        // What a killed deploy left half written is in the upload folder only.
        fs::create_dir_all(www.join(UPLOADS)).unwrap();
        fs::write(www.join(UPLOADS).join("17-3"), "half").unwrap();
        assert_eq!(folder.first_entry().unwrap().as_deref(), Some("invoice#2024"));
        assert_eq!(folder.clear_uploads().unwrap(), 1);
        assert!(!www.join(UPLOADS).exists() && www.join("invoice#2024").exists());
        assert_eq!(folder.clear_uploads().unwrap(), 0);

        let missing = DestinationFolder::open(&tmp.path().join("none"), false).unwrap();
        assert!(missing.list().unwrap().files.is_empty() && missing.first_entry().unwrap().is_none());
        assert!(!tmp.path().join("none").exists());
    }
}
