//! What a destination holds from this site: the paths that deploys of the
//! site in `out` sent there (or found there byte for byte as the site has
//! them) and have not removed since. A deploy removes from a host only what
//! this record names, so a destination that holds files of its own, a
//! copied marker, or a copy of the site made by other means loses nothing
//! the deploy did not put there.
//!
//! One file per destination beside the output, `.dist.sent-<16 hex digits
//! of the destination's hash>`: a header line (the destination, as shown),
//! then the sorted 64-bit hashes of the paths, eight bytes each, so a
//! million-model site (four million files) is kept in 32 MB. A hash names
//! a path: two paths sharing one is a chance of one in 2^64 per pair.
//! Written whole under a new name and renamed into place when a deploy
//! completes; read back as the deploy's other files are (no links, bounded
//! size). A record that is missing or not this program's means nothing is
//! known to have been sent: the next deploy compares the whole site with
//! the host and removes nothing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use modelpages_site::output::OutputFolder;
use serde::{Deserialize, Serialize};

use crate::journal::{read_back, replace};
use crate::DeployError;

const VERSION: u32 = 1;

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    version: u32,
    destination: String,
}

/// The hash by which the record knows a path.
pub fn path_key(rel: &str) -> u64 {
    u64::from_le_bytes(blake3::hash(rel.as_bytes()).as_bytes()[..8].try_into().expect("8 bytes"))
}

/// Where the record of `destination` is kept, beside `out`.
pub fn sent_path(out: &Path, destination: &str) -> PathBuf {
    let hash = blake3::hash(destination.as_bytes()).to_hex();
    OutputFolder::new(out).sent_record(&hash[..16])
}

/// The paths a destination holds from this site, by [`path_key`].
#[derive(Debug, Default)]
pub struct Sent {
    keys: Vec<u64>,
}

impl Sent {
    /// The record of `destination` beside `out`; `None` when there is none
    /// (or it is another destination's, which only a hash clash could make).
    pub fn read(out: &Path, destination: &str) -> Result<Option<Sent>, DeployError> {
        let path = sent_path(out, destination);
        let Some(bytes) = read_back(&path)? else { return Ok(None) };
        let invalid = |message: &str| DeployError::State { path: path.clone(), message: message.to_owned() };
        let newline = bytes.iter().position(|b| *b == b'\n').ok_or_else(|| invalid("not a record of what was sent"))?;
        let header: Header = serde_json::from_slice(&bytes[..newline]).map_err(|_| invalid("not a record of what was sent"))?;
        if header.version != VERSION {
            return Err(invalid("a record of another version of this program; remove it (the next deploy removes nothing from the host)"));
        }
        if header.destination != destination {
            return Ok(None);
        }
        let body = &bytes[newline + 1..];
        if body.len() % 8 != 0 {
            return Err(invalid("cut short; remove it (the next deploy removes nothing from the host)"));
        }
        let mut keys: Vec<u64> = body.chunks_exact(8).map(|k| u64::from_le_bytes(k.try_into().expect("8 bytes"))).collect();
        keys.sort_unstable();
        keys.dedup();
        Ok(Some(Sent { keys }))
    }

    /// Whether a deploy of this site sent `rel` there.
    pub fn contains(&self, rel: &str) -> bool {
        self.keys.binary_search(&path_key(rel)).is_ok()
    }

    /// Every path, by key.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
}

/// Records that `destination` now holds from this site the paths of `keys`.
pub fn record(out: &Path, destination: &str, keys: impl IntoIterator<Item = u64>) -> Result<(), DeployError> {
    let path = sent_path(out, destination);
    let mut keys: Vec<u64> = keys.into_iter().collect();
    keys.sort_unstable();
    keys.dedup();
    let mut bytes = serde_json::to_vec(&Header { version: VERSION, destination: destination.to_owned() }).expect("headers serialise");
    bytes.push(b'\n');
    bytes.reserve(keys.len() * 8);
    for key in keys {
        bytes.extend_from_slice(&key.to_le_bytes());
    }
    replace(&path, &bytes).map_err(|e| DeployError::State { path, message: e.to_string() })
}

/// `before` with `added` and without `removed`, as keys.
pub fn updated<'a>(before: Option<&Sent>, added: impl IntoIterator<Item = &'a str>, removed: &[String]) -> Vec<u64> {
    let removed: HashSet<u64> = removed.iter().map(|rel| path_key(rel)).collect();
    let before = before.map_or(&[][..], Sent::keys).iter().copied();
    before.chain(added.into_iter().map(path_key)).filter(|key| !removed.contains(key)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_record_names_what_was_sent_to_its_destination_only() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        assert!(Sent::read(&out, "s3://b/p").unwrap().is_none());
        record(&out, "s3://b/p", updated(None, ["index.html", "ns/m/index.html"], &[])).unwrap();
        let sent = Sent::read(&out, "s3://b/p").unwrap().unwrap();
        assert!(sent.contains("index.html") && sent.contains("ns/m/index.html") && !sent.contains("CNAME"));
        assert!(Sent::read(&out, "s3://b/other").unwrap().is_none(), "each destination has its own");

        let next = updated(Some(&sent), ["new.html"], &["index.html".to_owned()]);
        record(&out, "s3://b/p", next).unwrap();
        let sent = Sent::read(&out, "s3://b/p").unwrap().unwrap();
        assert!(!sent.contains("index.html") && sent.contains("new.html") && sent.contains("ns/m/index.html"));

        let path = sent_path(&out, "s3://b/p");
        let mut bytes = fs::read(&path).unwrap();
        bytes.pop();
        fs::write(&path, &bytes).unwrap();
        assert!(Sent::read(&out, "s3://b/p").unwrap_err().to_string().contains("cut short"));
        #[cfg(unix)]
        {
            fs::remove_file(&path).unwrap();
            fs::write(tmp.path().join("elsewhere"), "x").unwrap();
            std::os::unix::fs::symlink(tmp.path().join("elsewhere"), &path).unwrap();
            assert!(Sent::read(&out, "s3://b/p").unwrap_err().to_string().contains("symbolic link"));
        }
    }
}
