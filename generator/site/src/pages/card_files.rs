//! The files a card refers to (`![chart](assets/chart.png)`,
//! `[config](config.json)`): copied beside the model's page when they are
//! in the model's folder, linked to the hub when not. This is the site's
//! [`CardLinks`]; the render crate decides which references are files of
//! the model's and never touches the disk.
//!
//! Only what is safe to serve from the site's own host is copied: raster
//! images whose bytes say so (PNG, JPEG, GIF, WebP, AVIF; an SVG can hold
//! script, so it stays on the hub) and, for links, text files of a few
//! kinds that are UTF-8. Only ordinary files inside the folder are read:
//! every folder on the way and the file itself are opened without following
//! links (see [`crate::store::nofollow`]), names starting with `.` (`.env`,
//! `.git`) are never read, and names the page's own files take
//! (`index.html`, its Markdown twin `index.md`, the notebook) are left to
//! the hub. A card costs at most
//! [`MAX_LOOKUPS`] paths looked up, [`MAX_CARD_FILES`] files and
//! [`MAX_CARD_FILES_BYTES`] read, [`MAX_CARD_FILE_BYTES`] each; past that,
//! references go to the hub.
//!
//! What was found for each path looked up, in order, is the model's input
//! along with its record and card: [`card_files_state`] finds it again for
//! an incremental build, so a changed image renders its page again.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use modelpages_render::{encode_path, CardLinks, HubLinks, RefKind, Resolved};

use crate::store::nofollow::{Dir, Kind};
use crate::pages::notebook::NOTEBOOK_FILE;
use modelpages_render::MARKDOWN_FILE;

/// Largest file copied.
pub const MAX_CARD_FILE_BYTES: u64 = 4 << 20;
/// Bytes and files read per model.
pub const MAX_CARD_FILES_BYTES: u64 = 16 << 20;
pub const MAX_CARD_FILES: usize = 64;
/// Distinct paths looked up per model (most are not there).
pub const MAX_LOOKUPS: usize = 256;

const IMAGE_EXTENSIONS: &[&str] = &["png", "jpg", "jpeg", "gif", "webp", "avif"];
/// Text a browser shows or saves as text, never runs.
const TEXT_EXTENSIONS: &[&str] = &["md", "txt", "json", "csv", "tsv", "yaml", "yml", "toml", "py"];
/// First names the model's own files take in its folder of the site.
const PAGE_NAMES: &[&str] = &["index.html", MARKDOWN_FILE, NOTEBOOK_FILE];

/// What looking a path up found.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    Absent,
    /// A link, a folder, a FIFO...: never read.
    Refused(String),
    TooLarge(u64),
    /// The model's budget of files or bytes was spent.
    OverBudget,
    /// Read, but not what its name says (an image, UTF-8 text).
    NotCopyable(&'static str),
    /// Read and copied; the hash of its bytes.
    Copied(String),
}

#[derive(Debug, Default)]
struct Budget {
    files: usize,
    bytes: u64,
}

/// What a file's name says it is, when it may be copied at all.
fn copyable_kind(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    if IMAGE_EXTENSIONS.contains(&ext.as_str()) {
        Some("image")
    } else if TEXT_EXTENSIONS.contains(&ext.as_str()) {
        Some("text")
    } else {
        None
    }
}

/// Whether `bytes` start as a raster image does.
fn is_raster_image(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x89PNG\r\n\x1a\n")
        || bytes.starts_with(b"\xff\xd8\xff")
        || bytes.starts_with(b"GIF87a")
        || bytes.starts_with(b"GIF89a")
        || (bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP"))
        || matches!(bytes.get(4..12), Some(b"ftypavif" | b"ftypavis"))
}

/// Looks `path` (a plain path) up in the model's folder `dir`, reading it
/// within `budget`; the bytes come back when it may be copied.
fn look_up(dir: &Path, path: &str, budget: &mut Budget) -> (Found, Option<Vec<u8>>) {
    if budget.files >= MAX_CARD_FILES {
        return (Found::OverBudget, None);
    }
    let mut names: Vec<&OsStr> = path.split('/').map(OsStr::new).collect();
    let Some(file) = names.pop() else { return (Found::Absent, None) };
    let refused = |why: &str| (Found::Refused(why.to_owned()), None);
    let mut folder = match Dir::open(dir) {
        Ok(folder) => folder,
        Err(err) => return refused(&err.to_string()),
    };
    for name in names {
        match folder.kind(name) {
            Ok(Some(Kind::Folder)) => {}
            Ok(None | Some(Kind::File)) => return (Found::Absent, None),
            Ok(Some(Kind::Link)) => return refused("is in a linked folder; links are not followed"),
            Ok(Some(Kind::Other)) | Err(_) => return refused("is not in an ordinary folder"),
        }
        folder = match folder.child(name, false) {
            Ok(child) => child,
            Err(_) => return refused("is not in an ordinary folder"),
        };
    }
    let (opened, meta) = match folder.open_file(file) {
        Ok(Some(found)) => found,
        Ok(None) => return (Found::Absent, None),
        Err(err) => return refused(&err.to_string()),
    };
    if meta.len() > MAX_CARD_FILE_BYTES {
        return (Found::TooLarge(meta.len()), None);
    }
    if budget.bytes + meta.len() > MAX_CARD_FILES_BYTES {
        return (Found::OverBudget, None);
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    if let Err(err) = opened.take(MAX_CARD_FILE_BYTES + 1).read_to_end(&mut bytes) {
        return refused(&err.to_string());
    }
    budget.files += 1;
    budget.bytes += bytes.len() as u64;
    if bytes.len() as u64 > MAX_CARD_FILE_BYTES {
        return (Found::TooLarge(bytes.len() as u64), None);
    }
    let what = match copyable_kind(path) {
        Some("image") if !is_raster_image(&bytes) => Some("is not a PNG, JPEG, GIF, WebP or AVIF image"),
        Some("text") if std::str::from_utf8(&bytes).is_err() || bytes.contains(&0) => Some("is not UTF-8 text"),
        _ => None,
    };
    match what {
        Some(why) => (Found::NotCopyable(why), None),
        None => (Found::Copied(blake3::hash(&bytes).to_hex().to_string()), Some(bytes)),
    }
}

/// The state of the card files `paths` of the model in `dir`, looked up
/// again in order: equal to [`CardFilesFound::state`] when none changed.
pub fn card_files_state(dir: &Path, paths: &[String]) -> String {
    let mut budget = Budget::default();
    let found: Vec<(String, Found)> = paths.iter().map(|path| (path.clone(), look_up(dir, path, &mut budget).0)).collect();
    state_text(&found)
}

fn state_text(found: &[(String, Found)]) -> String {
    found.iter().map(|(path, found)| format!("{path}\0{found:?}\n")).collect()
}

/// The [`CardLinks`] of one model: its folder and the hub.
pub struct CardFiles {
    dir: PathBuf,
    hub: HubLinks,
    lookups: Mutex<Lookups>,
}

#[derive(Default)]
struct Lookups {
    /// Every path looked up, in order, and what was found.
    found: Vec<(String, Found)>,
    index: HashMap<String, usize>,
    copied: Vec<(String, Vec<u8>)>,
    budget: Budget,
    /// Paths not looked up for the limit.
    skipped: usize,
}

/// What a card's files came to, once its page is rendered.
#[derive(Debug, Default)]
pub struct CardFilesFound {
    /// Copied files: path in the model's folder (and beside its page), bytes.
    pub copied: Vec<(String, Vec<u8>)>,
    /// Every path looked up, in order: what [`card_files_state`] needs.
    pub looked_up: Vec<String>,
    /// What was found, for the model's input hash.
    pub state: String,
    /// What was not copied and why.
    pub notes: Vec<String>,
}

impl CardFiles {
    pub fn new(dir: &Path, hub_url: &str, model_id: &str) -> CardFiles {
        CardFiles { dir: dir.to_owned(), hub: HubLinks::new(hub_url, model_id), lookups: Mutex::new(Lookups::default()) }
    }

    /// What the card's references found, the copies taken out.
    pub fn finish(&self) -> CardFilesFound {
        let lookups = std::mem::take(&mut *self.lookups.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
        let mut notes = Vec::new();
        let mut over_budget = false;
        for (path, found) in &lookups.found {
            let why = match found {
                Found::Refused(why) => why.clone(),
                Found::TooLarge(len) => format!("is {len} bytes, over the {} MiB a card's file may be", MAX_CARD_FILE_BYTES >> 20),
                Found::NotCopyable(why) => (*why).to_owned(),
                Found::OverBudget => {
                    over_budget = true;
                    continue;
                }
                Found::Absent | Found::Copied(_) => continue,
            };
            notes.push(format!("{path} {why}; it is linked on the hub instead"));
        }
        if over_budget || lookups.skipped > 0 {
            notes.push(format!(
                "files past the first {MAX_CARD_FILES} ({} MiB) or {MAX_LOOKUPS} paths it refers to are linked on the hub",
                MAX_CARD_FILES_BYTES >> 20
            ));
        }
        CardFilesFound {
            state: state_text(&lookups.found),
            looked_up: lookups.found.into_iter().map(|(path, _)| path).collect(),
            copied: lookups.copied,
            notes,
        }
    }
}

impl CardLinks for CardFiles {
    fn resolve(&self, path: &str, kind: RefKind) -> Resolved {
        let hub = || Resolved::Hub(self.hub.url(path, kind));
        let hidden = path.split('/').any(|name| name.starts_with('.'));
        let first = path.split('/').next().unwrap_or("");
        let reserved = PAGE_NAMES.iter().any(|name| name.eq_ignore_ascii_case(first));
        let copyable = match copyable_kind(path) {
            Some("image") => true,
            Some(_) => kind == RefKind::Link,
            None => false,
        };
        if hidden || reserved || !copyable {
            return hub();
        }
        let mut lookups = self.lookups.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let at = match lookups.index.get(path) {
            Some(&at) => at,
            None if lookups.found.len() >= MAX_LOOKUPS => {
                lookups.skipped += 1;
                return hub();
            }
            None => {
                let (found, bytes) = look_up(&self.dir, path, &mut lookups.budget);
                if let Some(bytes) = bytes {
                    lookups.copied.push((path.to_owned(), bytes));
                }
                lookups.found.push((path.to_owned(), found));
                let at = lookups.found.len() - 1;
                lookups.index.insert(path.to_owned(), at);
                at
            }
        };
        match lookups.found[at].1 {
            Found::Copied(_) => Resolved::Local(encode_path(path)),
            _ => hub(),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;

    const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

    #[test]
    fn every_image_copied_has_a_media_type() {
        for ext in IMAGE_EXTENSIONS {
            let media_type = crate::content_types::of(&format!("a.{ext}"));
            assert!(media_type.starts_with("image/"), "{ext}: {media_type}");
        }
    }

    fn files() -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("models/org/model");
        fs::create_dir_all(dir.join("assets")).unwrap();
        fs::create_dir_all(tmp.path().join("outside")).unwrap();
        fs::write(dir.join("assets/chart.png"), PNG).unwrap();
        fs::write(dir.join("assets/fake.png"), b"<svg onload=alert(1)>").unwrap();
        fs::write(dir.join("assets/logo.svg"), b"<svg/>").unwrap();
        fs::write(dir.join("notes.md"), "# notes\n").unwrap();
        fs::write(dir.join(".env"), "TOKEN=secret").unwrap();
        fs::write(dir.join("index.html"), "<script>").unwrap();
        fs::write(dir.join("index.md"), "# not the twin\n").unwrap();
        fs::write(tmp.path().join("outside/secret.png"), PNG).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("outside/secret.png"), dir.join("assets/linked.png")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("outside"), dir.join("linked-folder")).unwrap();
        fs::write(dir.join("big.png"), vec![0x89; MAX_CARD_FILE_BYTES as usize + 1]).unwrap();
        (tmp, dir)
    }

    #[test]
    fn files_in_the_folder_are_copied_and_the_rest_linked_on_the_hub() {
        let (_tmp, dir) = files();
        let card = CardFiles::new(&dir, "https://hub.example", "org/model");
        let hub = |p: &str, view: &str| Resolved::Hub(format!("https://hub.example/org/model/{view}/main/{p}"));
        for (path, kind, expected) in [
            ("assets/chart.png", RefKind::Image, Resolved::Local("assets/chart.png".into())),
            ("assets/chart.png", RefKind::Link, Resolved::Local("assets/chart.png".into())),
            ("notes.md", RefKind::Link, Resolved::Local("notes.md".into())),
            ("notes.md", RefKind::Image, hub("notes.md", "resolve")),
            ("images/loss.png", RefKind::Image, hub("images/loss.png", "resolve")),
            ("assets/fake.png", RefKind::Image, hub("assets/fake.png", "resolve")),
            ("assets/logo.svg", RefKind::Image, hub("assets/logo.svg", "resolve")),
            ("assets/linked.png", RefKind::Image, hub("assets/linked.png", "resolve")),
            ("linked-folder/secret.png", RefKind::Image, hub("linked-folder/secret.png", "resolve")),
            ("big.png", RefKind::Image, hub("big.png", "resolve")),
            (".env", RefKind::Link, hub(".env", "blob")),
            ("index.html", RefKind::Link, hub("index.html", "blob")),
            ("index.md", RefKind::Link, hub("index.md", "blob")),
            ("model.safetensors", RefKind::Link, hub("model.safetensors", "blob")),
        ] {
            assert_eq!(card.resolve(path, kind), expected, "{path} {kind:?}");
        }
        let found = card.finish();
        let copied: Vec<&str> = found.copied.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(copied, ["assets/chart.png", "notes.md"]);
        assert_eq!(found.copied[0].1, PNG);
        for note in ["assets/fake.png is not a PNG", "assets/linked.png", "linked-folder/secret.png is in a linked folder", "big.png is 4194305 bytes"] {
            assert!(found.notes.iter().any(|n| n.starts_with(note)), "{note}: {:?}", found.notes);
        }
        assert_eq!(found.notes.len(), 4, "{:?}", found.notes);
        assert_eq!(card_files_state(&dir, &found.looked_up), found.state, "found again the same");
        fs::write(dir.join("assets/chart.png"), [PNG, b"changed"].concat()).unwrap();
        assert_ne!(card_files_state(&dir, &found.looked_up), found.state, "a changed image changes the state");
    }

    #[test]
    fn a_model_reads_at_most_its_budget() {
        let (_tmp, dir) = files();
        for i in 0..MAX_CARD_FILES + 5 {
            fs::write(dir.join(format!("assets/{i}.png")), PNG).unwrap();
        }
        let card = CardFiles::new(&dir, "https://hub.example", "org/model");
        let local = (0..MAX_CARD_FILES + 5)
            .filter(|i| matches!(card.resolve(&format!("assets/{i}.png"), RefKind::Image), Resolved::Local(_)))
            .count();
        assert_eq!(local, MAX_CARD_FILES);
        for i in 0..MAX_LOOKUPS {
            card.resolve(&format!("absent/{i}.png"), RefKind::Image);
        }
        let found = card.finish();
        assert_eq!(found.looked_up.len(), MAX_LOOKUPS);
        assert!(found.notes.iter().any(|n| n.starts_with("files past the first 64")), "{:?}", found.notes);
    }
}
