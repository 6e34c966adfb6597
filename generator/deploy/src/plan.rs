//! What a deploy will do: which files to upload, in which order, and which
//! to remove from the host.
//!
//! Usually the plan is the site's change set (see `modelpages_site::changes`):
//! no remote listing at all, however large the site. A full plan (the first
//! deploy to a destination, `--full`, or a change set that cannot be trusted)
//! lists the host instead and compares each file: by size, then by content,
//! through the MD5 that S3 gives as the ETag of a file uploaded whole, or
//! else by fetching the remote file.
//!
//! A file is removed from the host only when a deploy of this site sent it
//! there (see `sent`): one the site lost since (the change set), or, in a
//! full plan, one the listing shows and the site lacks. Files the host holds
//! that this site never sent (someone else's, a copy's) are left alone and
//! counted; `[deploy] keep` spares files either way. Every removal is in
//! the plan, so `--dry-run` shows it and `--max-deletes` counts it. Dot
//! files are never sent but the site's marker (`deployable::is_deployable`).
//!
//! Uploads go in three waves, each finished before the next starts, so no
//! page links to a file that is not there yet: first the marker
//! (`.modelpages-site`, which claims the destination), then assets, API files
//! and notebooks, then model pages, then the listings and site pages that
//! link to them. Removals come after every upload.

use std::collections::{BTreeMap, BTreeSet};

use modelpages_site::deployable::is_deployable;
use modelpages_site::site_folder::MARKER;

/// What a deploy does, in order.
#[derive(Debug, Default, Clone)]
pub struct Plan {
    /// Why the whole site was compared with the host, if it was.
    pub full: Option<String>,
    /// Uploads in waves, each in path order.
    pub waves: Vec<Vec<String>>,
    /// Removals, in path order.
    pub removals: Vec<String>,
    /// Files compared with the host and found the same (full plans only).
    pub unchanged: usize,
    /// Site entries never deployed (links, FIFOs, dot files), full plans only.
    pub skipped: Vec<String>,
    /// Files on the host the site lacks that no deploy of this site sent
    /// there: never removed (full plans only).
    pub left_alone: Vec<String>,
    /// Files the site lacks that `[deploy] keep` spares.
    pub kept: Vec<String>,
}

impl Plan {
    pub fn uploads(&self) -> impl Iterator<Item = &String> {
        self.waves.iter().flatten()
    }

    pub fn upload_count(&self) -> usize {
        self.waves.iter().map(Vec::len).sum()
    }
}

/// Groups `uploads` into waves (see the module's overview); empty waves are dropped.
pub fn into_waves(uploads: impl IntoIterator<Item = String>) -> Vec<Vec<String>> {
    let mut waves: [Vec<String>; 4] = Default::default();
    for rel in uploads {
        waves[wave(&rel)].push(rel);
    }
    waves.into_iter().filter(|w| !w.is_empty()).map(|mut w| {
        w.sort();
        w
    }).collect()
}

/// 0: the marker; 1: files pages link to; 2: model pages; 3: listings.
fn wave(rel: &str) -> usize {
    let top_level = !rel.contains('/');
    let listing = top_level
        || rel.starts_with("libraries/")
        || rel.starts_with("tasks/")
        || (rel.starts_with("api/") && !rel.starts_with("api/models/"));
    if rel == MARKER {
        0
    } else if listing {
        3
    } else if rel.ends_with(".html") {
        2
    } else {
        1
    }
}

/// A plan from the change set: `uploads` that are still in the site, and
/// `removals`. A path the change set calls changed but the site no longer
/// has is removed, and the other way round, so the host ends up like the
/// site; but a removal is planned only for what `sent` says a deploy of
/// this site put there and `keep` does not spare, and no dot file is sent.
pub fn from_changes(
    uploads: Vec<String>,
    removals: Vec<String>,
    exists: impl Fn(&str) -> bool,
    keep: &[String],
    sent: impl Fn(&str) -> bool,
) -> Plan {
    let mut send = Vec::new();
    let mut remove = Vec::new();
    let mut spared = Vec::new();
    // A dot file is never sent, so never the deploy's to remove either.
    for rel in uploads.into_iter().chain(removals).filter(|rel| is_deployable(rel)) {
        if exists(&rel) {
            send.push(rel);
        } else if is_kept(&rel, keep) {
            spared.push(rel);
        } else if sent(&rel) {
            remove.push(rel);
        }
    }
    for list in [&mut remove, &mut spared] {
        list.sort();
        list.dedup();
    }
    Plan { full: None, waves: into_waves(send), removals: remove, kept: spared, ..Plan::default() }
}

/// One file on the host, from its listing.
#[derive(Debug, Clone)]
pub struct RemoteFile {
    pub size: u64,
    pub e_tag: Option<String>,
}

/// How a local file compares with the host's.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Same,
    Differs,
    /// Same size, and the ETag is not an MD5: the remote bytes must be fetched.
    Fetch,
}

/// Compares a local file with the host's copy as far as the listing allows.
pub fn compare(local: &[u8], remote: &RemoteFile) -> Verdict {
    if remote.size != local.len() as u64 {
        return Verdict::Differs;
    }
    match remote.e_tag.as_deref().and_then(md5_etag) {
        Some(md5) if md5 == hex_md5(local) => Verdict::Same,
        Some(_) => Verdict::Differs,
        None => Verdict::Fetch,
    }
}

/// The MD5 in an S3-style ETag (`"<32 hex digits>"`); a multipart upload's
/// (`-<parts>`) or any other server's is none.
fn md5_etag(e_tag: &str) -> Option<String> {
    let inner = e_tag.trim_start_matches("W/").trim_matches('"');
    (inner.len() == 32 && inner.bytes().all(|b| b.is_ascii_hexdigit())).then(|| inner.to_ascii_lowercase())
}

fn hex_md5(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Whether `keep` names `rel`: the file itself, or a folder (ending in
/// `/`) that holds it.
pub fn is_kept(rel: &str, keep: &[String]) -> bool {
    keep.iter().any(|k| if k.ends_with('/') { rel.starts_with(k.as_str()) } else { rel == k })
}

/// What a full plan makes of the files the host has and the site lacks.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Strays {
    /// Sent there by a deploy of this site: removed.
    pub removals: Vec<String>,
    /// Spared by `keep`.
    pub kept: Vec<String>,
    /// Never sent there by a deploy of this site: left alone.
    pub left_alone: Vec<String>,
}

/// Sorts the files of `remote` that `local` lacks (see [`Strays`]); `sent`
/// says whether a deploy of this site sent a path there.
pub fn strays(remote: &BTreeMap<String, RemoteFile>, local: &BTreeSet<String>, keep: &[String], sent: impl Fn(&str) -> bool) -> Strays {
    let mut found = Strays::default();
    for rel in remote.keys().filter(|rel| !local.contains(*rel)) {
        let list = if is_kept(rel, keep) {
            &mut found.kept
        } else if sent(rel) {
            &mut found.removals
        } else {
            &mut found.left_alone
        };
        list.push(rel.clone());
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_send_what_pages_link_to_before_the_pages() {
        let paths = [
            "index.html", "sitemap.xml", "ns/m/index.html", "api/models/ns/m.json", "api/tasks.json",
            "assets/style.0123.css", "tasks/fill-mask/index.html", "libraries/index.html", MARKER, "ns/m/notebook.ipynb",
        ];
        let waves = into_waves(paths.iter().map(|p| p.to_string()));
        assert_eq!(waves, vec![
            vec![MARKER.to_owned()],
            vec!["api/models/ns/m.json".to_owned(), "assets/style.0123.css".to_owned(), "ns/m/notebook.ipynb".to_owned()],
            vec!["ns/m/index.html".to_owned()],
            ["api/tasks.json", "index.html", "libraries/index.html", "sitemap.xml", "tasks/fill-mask/index.html"]
                .map(String::from).to_vec(),
        ]);
    }

    #[test]
    fn a_change_plan_follows_the_site_as_it_is() {
        let plan = from_changes(
            vec!["a".into(), "gone-since".into(), ".env".into()],
            vec!["b".into(), "back".into(), "CNAME".into(), "never-sent".into()],
            |rel| rel == "a" || rel == "back" || rel == ".env",
            &["CNAME".into()],
            |rel| rel != "never-sent",
        );
        assert_eq!(plan.uploads().cloned().collect::<Vec<_>>(), ["a", "back"], "no dot file is sent");
        assert_eq!(plan.removals, ["b", "gone-since"], "only what was sent, and not what keep spares");
        assert_eq!(plan.kept, ["CNAME"]);
    }

    #[test]
    fn files_compare_by_size_then_md5_etag_then_bytes() {
        let remote = |size, e_tag: Option<&str>| RemoteFile { size, e_tag: e_tag.map(str::to_owned) };
        // MD5 of "hello".
        let md5 = "\"5d41402abc4b2a76b9719d911017c592\"";
        assert_eq!(compare(b"hello", &remote(5, Some(md5))), Verdict::Same);
        assert_eq!(compare(b"hellp", &remote(5, Some(md5))), Verdict::Differs);
        assert_eq!(compare(b"hello!", &remote(5, Some(md5))), Verdict::Differs);
        assert_eq!(compare(b"hello", &remote(5, Some("\"abc-2\""))), Verdict::Fetch);
        assert_eq!(compare(b"hello", &remote(5, None)), Verdict::Fetch);
    }

    #[test]
    fn strays_spare_what_keep_names() {
        let remote: BTreeMap<String, RemoteFile> = ["CNAME", "old/index.html", "well-known/x", "site.html"]
            .iter()
            .map(|p| (p.to_string(), RemoteFile { size: 1, e_tag: None }))
            .collect();
        let local: BTreeSet<String> = ["site.html".to_owned()].into();
        let all = strays(&remote, &local, &["CNAME".into(), "well-known/".into()], |_| true);
        assert_eq!(all.removals, ["old/index.html"]);
        assert_eq!(all.kept, ["CNAME", "well-known/x"]);
        let found = strays(&remote, &local, &[], |rel| rel == "CNAME");
        assert_eq!((found.removals, found.left_alone), (vec!["CNAME".to_owned()], vec!["old/index.html".to_owned(), "well-known/x".to_owned()]));
    }
}
