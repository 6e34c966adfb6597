//! The hostile corpus: bad and hostile model folders, each with the outcome
//! a build must give it. Written at test time under `target/` (invalid
//! UTF-8, FIFOs, symbolic links and a 50 MB record do not belong in git);
//! the table of cases is `cases.rs`.
//!
//! Shared by the end-to-end test (`tests/hostile.rs`) and the example that
//! writes the corpus for the browser test (`examples/hostile_corpus.rs`).
#![allow(dead_code)]

mod cases;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};

/// Every hostile value starts with this, so checkers can find the literals
/// that must hold the whole value.
pub const MARKER: &str = "MPHOSTILE";

/// A value for tags, widget texts and config values: quotes, backslashes,
/// newlines, triple quotes, backticks, template and command substitution,
/// a script end tag and markup that would set `window.__pwned`, a tab, a
/// carriage return, a line separator and a bidi override.
pub const PAYLOAD: &str = "MPHOSTILE\"'\\\n\"\"\"`${window.__pwned=1}`$(touch pwned)</script><script>window.__pwned=1</script>\
                           <img src=x onerror=\"window.__pwned=1\">\t\r\u{2028}\u{202E} # end";

/// What the build must do with one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    /// One error line naming `file` (relative to the models folder, with
    /// the line and column for JSON syntax) and containing `message`.
    Error { file: String, at: Option<(usize, usize)>, message: String },
    /// A page at `<id>/index.html` with no live markup, which shows each of
    /// `shows` as text; its examples must parse and hold [`PAYLOAD`] exactly.
    Page { id: String, shows: Vec<String> },
}

/// One hostile input and its expected outcome.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: &'static str,
    pub expect: Expect,
    /// Text that one `note:` line of the build must hold (a part dropped
    /// from a page that still builds).
    pub notes: Vec<String>,
}

/// Where the corpus is written: `models/` is what the build reads,
/// `outside/` is what links point at (a decoy record and card that must
/// never reach the site).
pub struct Corpus {
    pub root: PathBuf,
    pub models: PathBuf,
    pub outside: PathBuf,
}

impl Corpus {
    /// Writes every case under `root` (which must not exist yet) and returns the table.
    pub fn write(root: &Path) -> (Corpus, Vec<Case>) {
        let corpus = Corpus { root: root.to_owned(), models: root.join("models"), outside: root.join("outside") };
        fs::create_dir_all(&corpus.models).unwrap();
        corpus.file("outside/secret.json", br#"{"id": "fs/record-link", "tags": ["MPHOSTILE secret outside models"]}"#);
        corpus.file("outside/ns/model/model.json", br#"{"id": "linked/model"}"#);
        let cases = cases::all(&corpus);
        let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), cases.len(), "case names are unique");
        (corpus, cases)
    }

    /// Writes `bytes` at `rel` (relative to the root), creating folders.
    pub fn file(&self, rel: &str, bytes: &[u8]) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    /// `models/<folder>/model.json`.
    pub fn record(&self, folder: &str, json: &str) {
        self.file(&format!("models/{folder}/model.json"), json.as_bytes());
    }

    /// `models/<folder>/README.md`.
    pub fn card(&self, folder: &str, text: &str) {
        self.file(&format!("models/{folder}/README.md"), text.as_bytes());
    }

    /// A folder under `models/` named by raw bytes (not always UTF-8).
    pub fn raw_folder(&self, namespace: &str, name: &[u8]) -> PathBuf {
        let dir = self.models.join(namespace).join(OsStr::from_bytes(name));
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A symbolic link at `rel` pointing at `target` (taken as it is).
    pub fn link(&self, rel: &str, target: &Path) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        symlink(target, path).unwrap();
    }

    /// A FIFO at `rel`: opening it for reading would wait for a writer forever.
    pub fn fifo(&self, rel: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0, "mkfifo {rel}");
    }

    /// A Unix socket at `rel` (the listener is dropped; the file stays).
    pub fn socket(&self, rel: &str) {
        let path = self.root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::os::unix::net::UnixListener::bind(path).unwrap();
    }

    /// Sets the permission bits of `rel`; true when the file still reads
    /// (as root it does: permission bits do not stop root).
    pub fn chmod(&self, rel: &str, mode: u32) -> bool {
        let path = self.root.join(rel);
        fs::set_permissions(&path, fs::Permissions::from_mode(mode)).unwrap();
        if path.is_dir() { fs::read_dir(&path).is_ok() } else { fs::read(&path).is_ok() }
    }

    /// Makes everything removable again (undoes `chmod`).
    pub fn restore_permissions(&self) {
        for entry in walkdir::WalkDir::new(&self.root).follow_links(false).into_iter().flatten() {
            if entry.file_type().is_dir() || entry.file_type().is_file() {
                let _ = fs::set_permissions(entry.path(), fs::Permissions::from_mode(0o755));
            }
        }
    }
}

pub fn error(file: &str, message: &str) -> Expect {
    Expect::Error { file: file.to_owned(), at: None, message: message.to_owned() }
}

pub fn syntax_error(file: &str, line: usize, column: usize, message: &str) -> Expect {
    Expect::Error { file: file.to_owned(), at: Some((line, column)), message: message.to_owned() }
}

pub fn page(id: &str, shows: &[&str]) -> Expect {
    Expect::Page { id: id.to_owned(), shows: shows.iter().map(|s| (*s).to_owned()).collect() }
}
