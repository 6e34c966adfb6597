//! What a deploy has done, kept beside the output so that an interrupted
//! deploy is resumed by the next one rather than started over.
//!
//! - `.dist.deploy` is the journal of the deploy under way: a header line
//!   (the destination, whether the plan was full), then one line per file
//!   uploaded, `<blake3 of its bytes> <path>`, appended as each upload
//!   completes. The next deploy to the same destination plans in full again
//!   if the interrupted plan was full (its removals came from a listing, and
//!   the new listing says what is there); otherwise it skips a file whose
//!   bytes still have that hash (a build in between may have changed it)
//!   only once the host shows it there with that size (and MD5, where the
//!   ETag is one): the destination may have been emptied since. The paths
//!   journalled count as sent there (see `sent`), so they may be removed. The change set is consumed only when a
//!   deploy completes, so nothing recorded since the last complete deploy is
//!   lost. Removals are not journalled: removing a file that is gone is done.
//! - `.dist.deployed` names the destination of the last complete deploy:
//!   the change set says what changed since then, so a deploy elsewhere
//!   compares the whole site instead.
//!
//! Both are read as the build reads its files back: no links, bounded size,
//! every path plain. A journal line that does not parse (the last one, cut
//! by a kill) ends the journal there; its file is simply uploaded again.

use std::collections::HashMap;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use modelpages_site::changes::is_site_path;
use modelpages_site::output::OutputFolder;
use serde::{Deserialize, Serialize};

use crate::DeployError;

const VERSION: u32 = 1;
/// A journal of two million uploads is under 200 MB; anything larger is not ours.
const MAX_BYTES: u64 = 256 << 20;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    version: u32,
    destination: String,
    full: bool,
}

/// An interrupted deploy, as its journal tells it.
#[derive(Debug, Default)]
pub struct Interrupted {
    /// Whether its plan was a full one.
    pub full: bool,
    /// Uploaded files by path, with the hash of the bytes sent.
    pub done: HashMap<String, String>,
}

fn invalid(path: &Path, message: impl Into<String>) -> DeployError {
    DeployError::State { path: path.to_owned(), message: message.into() }
}

/// The bytes of `path`, `None` when there is none; a link, a FIFO or a huge
/// file in its place is an error.
pub(crate) fn read_back(path: &Path) -> Result<Option<Vec<u8>>, DeployError> {
    if fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let (file, meta) = modelpages_record::open_regular_file(path).map_err(|e| invalid(path, e.to_string()))?;
    if meta.len() > MAX_BYTES {
        return Err(invalid(path, format!("is {} bytes, more than this program writes", meta.len())));
    }
    let mut bytes = Vec::new();
    file.take(MAX_BYTES).read_to_end(&mut bytes).map_err(|e| invalid(path, e.to_string()))?;
    Ok(Some(bytes))
}

/// The interrupted deploy to `destination` that the journal beside `out`
/// records, if any. A journal of a deploy elsewhere is no concern of this
/// one (it is replaced).
pub fn read_interrupted(out: &Path, destination: &str) -> Result<Option<Interrupted>, DeployError> {
    let path = OutputFolder::new(out).deploy_journal();
    let Some(bytes) = read_back(&path)? else { return Ok(None) };
    let text = String::from_utf8_lossy(&bytes);
    let mut lines = text.split_inclusive('\n');
    let header: Header = lines
        .next()
        .and_then(|line| serde_json::from_str(line).ok())
        .ok_or_else(|| invalid(&path, "the first line is not a deploy journal's header"))?;
    if header.version != VERSION {
        return Err(invalid(&path, format!("version {} is not {VERSION}, the one this program writes", header.version)));
    }
    if header.destination != destination {
        return Ok(None);
    }
    let mut done = HashMap::new();
    for line in lines {
        // A line cut short by a kill has no newline: it and anything after
        // it are not counted as done.
        let Some(line) = line.strip_suffix('\n') else { break };
        let Some((hash, rel)) = line.split_once(' ') else { break };
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) || !is_site_path(rel) {
            break;
        }
        done.insert(rel.to_owned(), hash.to_owned());
    }
    Ok(Some(Interrupted { full: header.full, done }))
}

/// The journal of the deploy under way.
#[derive(Debug)]
pub struct Journal {
    path: PathBuf,
    file: Mutex<fs::File>,
}

impl Journal {
    /// Starts the journal of a deploy to `destination`, carrying over what
    /// an interrupted one to the same place already uploaded.
    pub fn begin(out: &Path, destination: &str, full: bool, carried: &HashMap<String, String>) -> Result<Journal, DeployError> {
        let path = OutputFolder::new(out).deploy_journal();
        let io = |e: std::io::Error| invalid(&path, e.to_string());
        let mut text = serde_json::to_string(&Header { version: VERSION, destination: destination.to_owned(), full })
            .expect("headers serialise");
        text.push('\n');
        let mut carried: Vec<_> = carried.iter().collect();
        carried.sort();
        for (rel, hash) in carried {
            text.push_str(&format!("{hash} {rel}\n"));
        }
        replace(&path, text.as_bytes()).map_err(io)?;
        let file = fs::OpenOptions::new().append(true).open(&path).map_err(io)?;
        Ok(Journal { path, file: Mutex::new(file) })
    }

    /// Records that `rel` was uploaded with bytes hashing to `hash`.
    pub fn uploaded(&self, rel: &str, hash: &str) -> Result<(), DeployError> {
        let mut file = self.file.lock().expect("no panics while held");
        // One write per line, so a kill cuts at most the last one.
        file.write_all(format!("{hash} {rel}\n").as_bytes()).map_err(|e| invalid(&self.path, e.to_string()))
    }

    /// The deploy completed: the journal goes.
    pub fn complete(self) -> Result<(), DeployError> {
        fs::remove_file(&self.path).map_err(|e| invalid(&self.path, e.to_string()))
    }
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Deployed {
    version: u32,
    destination: String,
}

/// The destination of the last complete deploy of the site in `out`.
pub fn last_destination(out: &Path) -> Result<Option<String>, DeployError> {
    let path = OutputFolder::new(out).last_deploy();
    let Some(bytes) = read_back(&path)? else { return Ok(None) };
    let deployed: Deployed = serde_json::from_slice(&bytes)
        .map_err(|e| invalid(&path, format!("{}:{}: not a deploy record: {e}", e.line(), e.column())))?;
    Ok((deployed.version == VERSION).then_some(deployed.destination))
}

/// Records `destination` as the last complete deploy's.
pub fn record_destination(out: &Path, destination: &str) -> Result<(), DeployError> {
    let path = OutputFolder::new(out).last_deploy();
    let io = |e: std::io::Error| invalid(&path, e.to_string());
    let mut json = serde_json::to_vec_pretty(&Deployed { version: VERSION, destination: destination.to_owned() })
        .expect("records serialise");
    json.push(b'\n');
    replace(&path, &json).map_err(io)
}

/// Writes `bytes` whole over `path` ([`modelpages_site::atomic_file`]):
/// a reader sees the old file or the new one, and a link in its place is
/// replaced, never written through.
pub(crate) fn replace(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    modelpages_site::atomic_file::replace_with_bytes(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_is_resumed_only_for_its_destination_and_only_whole_lines_count() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let hash = "a".repeat(64);
        let journal = Journal::begin(&out, "s3://b/p", true, &HashMap::new()).unwrap();
        journal.uploaded("ns/m/index.html", &hash).unwrap();
        journal.uploaded("index.html", &hash).unwrap();
        drop(journal);
        // A kill in the middle of a line.
        let mut file = fs::OpenOptions::new().append(true).open(OutputFolder::new(&out).deploy_journal()).unwrap();
        file.write_all(format!("{hash} sitem").as_bytes()).unwrap();
        let interrupted = read_interrupted(&out, "s3://b/p").unwrap().unwrap();
        assert!(interrupted.full);
        assert_eq!(interrupted.done.len(), 2);
        assert_eq!(interrupted.done["index.html"], hash);
        assert!(read_interrupted(&out, "s3://other/p").unwrap().is_none());

        // Carried over into the next journal, which completes.
        let next = Journal::begin(&out, "s3://b/p", false, &interrupted.done).unwrap();
        assert_eq!(read_interrupted(&out, "s3://b/p").unwrap().unwrap().done.len(), 2);
        next.complete().unwrap();
        assert!(read_interrupted(&out, "s3://b/p").unwrap().is_none());
    }

    #[test]
    fn hostile_lines_end_the_journal_and_links_are_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let hash = "b".repeat(64);
        let header = r#"{"version":1,"destination":"d","full":false}"#;
        fs::write(OutputFolder::new(&out).deploy_journal(), format!("{header}\n{hash} ok.html\n{hash} ../../etc/passwd\n{hash} later.html\n")).unwrap();
        let done = read_interrupted(&out, "d").unwrap().unwrap().done;
        assert_eq!(done.keys().collect::<Vec<_>>(), ["ok.html"]);
        fs::write(OutputFolder::new(&out).deploy_journal(), "not json\n").unwrap();
        assert!(read_interrupted(&out, "d").unwrap_err().to_string().contains("not a deploy journal"));
        #[cfg(unix)]
        {
            fs::remove_file(OutputFolder::new(&out).deploy_journal()).unwrap();
            fs::write(tmp.path().join("elsewhere"), format!("{header}\n")).unwrap();
            std::os::unix::fs::symlink(tmp.path().join("elsewhere"), OutputFolder::new(&out).deploy_journal()).unwrap();
            assert!(read_interrupted(&out, "d").unwrap_err().to_string().contains("symbolic link"));
        }
        record_destination(&out, "file:///srv").unwrap();
        assert_eq!(last_destination(&out).unwrap().as_deref(), Some("file:///srv"));
    }
}
