//! What `modelpages deploy` may take from an output folder, and how it reads
//! it: the site must be one this program built there (its manifest names the
//! folder and its marker carries the identity the manifest records, see
//! `site_folder::built_here`), whose last build finished; every file is read
//! without following a link, so a link planted in the site cannot send a
//! file from elsewhere on the machine to a public host; and no dot file is
//! ever sent but the site's marker ([`is_deployable`]): a `.env` or `.ssh/`
//! that found its way into the folder is not the site's.
//!
//! The deploy holds the build's lock (see [`crate::store::output::lock_output`])
//! from [`open_for_deploy`] to the end, so no build changes the site, or its
//! change set, while it is being uploaded.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::store::changes::{read_change_set, BuildState, ChangeSet, ChangeSetError};
use crate::store::nofollow::{plain_parts, Dir};
use crate::store::output::{OutputError, OutputFolder, OutputLock};
use crate::store::site_folder::{built_here, MARKER};

/// Why a site cannot be deployed; every variant names the path.
#[derive(Debug, thiserror::Error)]
pub enum NotDeployable {
    #[error("{}: not a site modelpages built ({why}); build it with `modelpages build --out {}`", path.display(), path.display())]
    NotASite { path: PathBuf, why: &'static str },
    #[error("{}: a build was cut short while changing the site in place ({} is left); run `modelpages build` to finish it, then deploy", out.display(), txn.display())]
    MidTransaction { out: PathBuf, txn: PathBuf },
    #[error("{}: the last build of this site did not finish (killed, or still running); build again, then deploy", path.display())]
    BuildRunning { path: PathBuf },
    #[error("{}: the last build of this site failed; fix what it reported and build again, then deploy", path.display())]
    BuildFailed { path: PathBuf },
    #[error("{0}; build the site again, which replaces it")]
    ChangeSet(#[from] ChangeSetError),
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// What changed since the last deploy, as far as the site knows.
#[derive(Debug)]
pub enum SiteChanges {
    /// These paths, from a change set the last build finished.
    Paths { uploads: Vec<String>, removals: Vec<String> },
    /// Anything may have changed, for this reason: compare with the host.
    WholeSite { why: &'static str },
}

/// A built site opened for a deploy.
#[derive(Debug)]
pub struct DeployableSite {
    out: PathBuf,
    root: Dir,
    pub changes: SiteChanges,
}

/// Whether `rel` is a path of the site a deploy may send: a plain relative
/// path (see `changes::is_site_path`) with no part starting with `.`, or
/// the marker at the root. A build writes no other dot file.
pub fn is_deployable(rel: &str) -> bool {
    crate::store::changes::is_site_path(rel) && (rel == MARKER || !rel.split('/').any(|part| part.starts_with('.')))
}

/// Opens the site in `out` for a deploy, under the lock `_lock`, or says why
/// it may not be deployed.
pub fn open_for_deploy(out: &Path, _lock: &OutputLock) -> Result<DeployableSite, NotDeployable> {
    let root = Dir::open(out)?;
    if root.kind(OsStr::new(MARKER)).ok().flatten() != Some(crate::store::nofollow::Kind::File) {
        return Err(NotDeployable::NotASite { path: out.to_owned(), why: crate::store::site_folder::NotBuiltHere::NoMarker.reason() });
    }
    built_here(out).map_err(|why| NotDeployable::NotASite { path: out.to_owned(), why: why.reason() })?;
    // With the lock held, a transaction's folder is one a killed build left.
    let txn = OutputFolder::new(out).transaction();
    if std::fs::symlink_metadata(&txn).is_ok() {
        return Err(NotDeployable::MidTransaction { out: out.to_owned(), txn });
    }
    let changes = match read_change_set(out)? {
        None => SiteChanges::WholeSite { why: "no change set beside the site (built by an earlier version?)" },
        Some(set) => from_change_set(out, set)?,
    };
    Ok(DeployableSite { out: out.to_owned(), root, changes })
}

fn from_change_set(out: &Path, set: ChangeSet) -> Result<SiteChanges, NotDeployable> {
    let path = OutputFolder::new(out).change_set();
    match set.state {
        BuildState::Running => return Err(NotDeployable::BuildRunning { path }),
        BuildState::Failed => return Err(NotDeployable::BuildFailed { path }),
        BuildState::Done => {}
    }
    if !set.describes(out) {
        return Ok(SiteChanges::WholeSite { why: "the change set was recorded for another folder" });
    }
    if set.whole_site {
        return Ok(SiteChanges::WholeSite { why: "the change set cannot list what changed (a build was killed, or too much changed)" });
    }
    let (uploads, removals) = set.uploads_and_removals();
    Ok(SiteChanges::Paths {
        uploads: uploads.into_iter().map(str::to_owned).collect(),
        removals: removals.into_iter().map(str::to_owned).collect(),
    })
}

impl DeployableSite {
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// The bytes of the site's file `rel`, `None` when there is none; a link
    /// anywhere on its path, or in its place, is an error.
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>, OutputError> {
        let Some((folders, name)) = plain_parts(rel) else {
            return Err(OutputError::Io {
                path: self.out.join(rel),
                source: std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a plain relative path"),
            });
        };
        let folder = match self.root.descend(&folders, false) {
            Ok(folder) => folder,
            Err(OutputError::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(err) => return Err(err),
        };
        folder.read(name)
    }

    /// Every regular file of the site a deploy may send ([`is_deployable`])
    /// by relative path, in order, and the other entries (links, FIFOs, dot
    /// files), which are never deployed.
    pub fn list(&self) -> Result<(Vec<String>, Vec<String>), OutputError> {
        let mut files = Vec::new();
        let mut skipped = Vec::new();
        for entry in walkdir::WalkDir::new(&self.out).follow_links(false).min_depth(1).sort_by_file_name() {
            let entry = entry.map_err(|e| OutputError::Io {
                path: e.path().map_or_else(|| self.out.clone(), Path::to_owned),
                source: e.into_io_error().unwrap_or_else(|| std::io::Error::other("a folder loop")),
            })?;
            if entry.file_type().is_dir() {
                continue;
            }
            let rel = entry.path().strip_prefix(&self.out).expect("walked from it").to_string_lossy().into_owned();
            if entry.file_type().is_file() && is_deployable(&rel) {
                files.push(rel);
            } else {
                skipped.push(rel);
            }
        }
        Ok((files, skipped))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::output::lock_output;
    use std::fs;

    #[test]
    fn only_finished_sites_of_ours_are_deployed_and_links_are_never_read() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir_all(out.join("ns/m")).unwrap();
        fs::write(out.join("ns/m/index.html"), "page").unwrap();
        let lock = lock_output(&out).unwrap();
        assert!(matches!(open_for_deploy(&out, &lock), Err(NotDeployable::NotASite { .. })));
        // A marker alone is no site: an empty one, or one copied from a site.
        let id = crate::store::site_folder::new_site_id(&out);
        fs::write(out.join(MARKER), crate::store::site_folder::marker_text(&id)).unwrap();
        let err = open_for_deploy(&out, &lock).unwrap_err().to_string();
        assert!(err.contains("no manifest beside it names this folder"), "{err}");
        let mut manifest = crate::store::manifest::Manifest::new("g".into(), 0);
        manifest.site = crate::store::manifest::folder_identity(&out).unwrap();
        manifest.site_id = Some(id.clone());
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        // Dot files that found their way in are never the site's.
        fs::write(out.join(".env"), "TOKEN=x").unwrap();
        fs::create_dir_all(out.join(".ssh")).unwrap();
        fs::write(out.join(".ssh/id_ed25519"), "key").unwrap();
        fs::write(out.join("ns/m/.hidden"), "x").unwrap();
        let site = open_for_deploy(&out, &lock).unwrap();
        assert!(matches!(site.changes, SiteChanges::WholeSite { .. }), "no change set: compare everything");
        assert_eq!(site.read("ns/m/index.html").unwrap().unwrap(), b"page");
        assert!(site.read("ns/none/index.html").unwrap().is_none());
        assert!(site.read("../dist/ns/m/index.html").is_err());
        #[cfg(unix)]
        {
            fs::write(tmp.path().join("secret"), "key").unwrap();
            std::os::unix::fs::symlink(tmp.path().join("secret"), out.join("leak")).unwrap();
            std::os::unix::fs::symlink(tmp.path(), out.join("up")).unwrap();
            assert!(site.read("leak").unwrap_err().to_string().contains("symbolic link"));
            assert!(site.read("up/secret").unwrap_err().to_string().contains("symbolic link"));
            let (files, skipped) = site.list().unwrap();
            assert_eq!(files, [MARKER, "ns/m/index.html"]);
            assert_eq!(skipped, [".env", ".ssh/id_ed25519", "leak", "ns/m/.hidden", "up"]);
        }
        assert!(is_deployable(MARKER) && is_deployable("ns/m/index.html") && is_deployable("invoice#2024"));
        assert!(!is_deployable(".env") && !is_deployable("ns/.git/config") && !is_deployable("ns/.modelpages-site"));
        fs::create_dir(OutputFolder::new(&out).transaction()).unwrap();
        assert!(matches!(open_for_deploy(&out, &lock), Err(NotDeployable::MidTransaction { .. })));
    }
}
