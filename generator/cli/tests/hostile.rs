//! The hostile corpus, built by the real binary: every bad input is reported
//! with its file and the build goes on; every other input gets a page with
//! no live markup whose examples parse and hold the input exactly; nothing
//! is written outside the output folder and nothing panics or hangs.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common::*;
use crate::hostile_corpus::{Case, Corpus, Expect, MARKER, PAYLOAD};
use modelpages_testkit::html::{live_markup, tokens, Node, SiteMarkup};

/// The policy every page must declare: only the site's own scripts, styles,
/// images and connections; no plugins, no `<base>`, no form posts.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; \
                   connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";
/// The same with `https:` images, for a page whose card shows some (and
/// nothing else from another host).
const CSP_REMOTE_IMAGES: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; \
                                 font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'";

/// Long enough for the whole corpus on a slow machine; a build that waits on
/// a FIFO never finishes.
const BUILD_DEADLINE: Duration = Duration::from_secs(300);

/// The corpus, built once for every test in this file.
struct Built {
    corpus: Corpus,
    cases: Vec<Case>,
    out: PathBuf,
    code: i32,
    stderr: String,
    /// Everything around the output before and after the build.
    before: BTreeMap<String, String>,
    after: BTreeMap<String, String>,
    _dir: tempfile::TempDir,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        // A static is never dropped, so each run's folder (70 MB of corpus)
        // outlives it: the next run removes those of processes that ended.
        remove_folders_of_ended_runs(Path::new(env!("CARGO_TARGET_TMPDIR")));
        let dir = tempfile::Builder::new()
            .prefix(&format!("hostile-{}-", std::process::id()))
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap();
        let (corpus, cases) = Corpus::write(&dir.path().join("corpus"));
        // The build runs from an empty folder with its own temp folder, so a
        // stray relative or temporary write shows up in the snapshot.
        for folder in ["work", "tmp"] {
            fs::create_dir_all(dir.path().join(folder)).unwrap();
        }
        let out = dir.path().join("site");
        let before = surroundings(dir.path());
        let (code, stderr) = run_with_deadline(
            modelpages()
                .arg("build")
                .arg("--all-notes")
                .arg("--models").arg(&corpus.models)
                .arg("--out").arg(&out)
                .arg("--site-src").arg(site_src())
                .current_dir(dir.path().join("work"))
                .env("TMPDIR", dir.path().join("tmp")),
        );
        let after = surroundings(dir.path());
        corpus.restore_permissions();
        Built { corpus, cases, out, code, stderr, before, after, _dir: dir }
    })
}

/// Removes `hostile-<pid>-*` folders whose process no longer runs.
fn remove_folders_of_ended_runs(tmp: &Path) {
    let Ok(entries) = fs::read_dir(tmp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix("hostile-").and_then(|rest| rest.split('-').next()) else { continue };
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Runs `cmd`, killing it and failing the test if it outlives the deadline.
fn run_with_deadline(cmd: &mut Command) -> (i32, String) {
    let started = Instant::now();
    let mut child = cmd.stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status.code().unwrap_or(-1), reader.join().unwrap());
        }
        if started.elapsed() > BUILD_DEADLINE {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("modelpages did not finish within {BUILD_DEADLINE:?}: it hangs on some input\n{}", reader.join().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Every entry under `dir` but the output folder, its lock file and
/// staging folders: kind, and bytes' hash or link target.
fn surroundings(dir: &Path) -> BTreeMap<String, String> {
    let mut entries = BTreeMap::new();
    let walk = walkdir::WalkDir::new(dir).min_depth(1).follow_links(false).into_iter().filter_entry(|e| {
        let name = e.file_name().to_string_lossy();
        !(e.depth() == 1 && (name == "site" || name.starts_with(".site.")))
    });
    for entry in walk {
        let Ok(entry) = entry else { continue };
        let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
        let kind = entry.file_type();
        let what = if kind.is_symlink() {
            format!("link {}", fs::read_link(entry.path()).unwrap().display())
        } else if kind.is_dir() {
            "folder".to_owned()
        } else if kind.is_file() {
            match fs::read(entry.path()) {
                Ok(bytes) => format!("file {}", blake3::hash(&bytes).to_hex()),
                Err(_) => "file (unreadable)".to_owned(),
            }
        } else {
            "special".to_owned()
        };
        entries.insert(rel, what);
    }
    entries
}

fn page_ids(cases: &[Case]) -> BTreeSet<String> {
    cases.iter().filter_map(|c| match &c.expect {
        Expect::Page { id, .. } => Some(id.clone()),
        Expect::Error { .. } => None,
    }).collect()
}

#[test]
fn the_corpus_covers_every_kind_of_hostile_input() {
    let b = built();
    assert!(b.cases.len() >= 40, "{} cases", b.cases.len());
    for prefix in ["id-", "json-", "type-", "card-", "values-", "fs-"] {
        let errors = b.cases.iter().filter(|c| c.name.starts_with(prefix) && matches!(c.expect, Expect::Error { .. })).count();
        let pages = b.cases.iter().filter(|c| c.name.starts_with(prefix) && matches!(c.expect, Expect::Page { .. })).count();
        println!("{prefix:8} {errors:3} errors {pages:3} pages");
        assert!(errors + pages >= 5, "too few {prefix} cases");
    }
}

#[test]
fn every_bad_input_is_an_error_naming_its_file_and_the_build_goes_on() {
    let b = built();
    assert!(!b.stderr.contains("panicked"), "a panic:\n{}", b.stderr);
    assert_eq!(b.code, 1, "{}", b.stderr);
    let models = b.corpus.models.display().to_string();
    let error_lines: Vec<&str> = b.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    let mut expected = 0;
    for case in &b.cases {
        let Expect::Error { file, at, message } = &case.expect else { continue };
        expected += 1;
        let position = at.map(|(line, column)| format!(":{line}:{column}")).unwrap_or_default();
        let prefix = format!("error: {models}/{file}{position}: ");
        let found: Vec<&&str> = error_lines.iter().filter(|l| l.starts_with(&prefix)).collect();
        assert_eq!(found.len(), 1, "{}: want one line starting {prefix:?}, got {found:?}\n{}", case.name, b.stderr);
        assert!(found[0].contains(message.as_str()), "{}: {:?} does not say {message:?}", case.name, found[0]);
    }
    assert_eq!(error_lines.len(), expected, "one error line per bad input:\n{}", b.stderr);
    let pages = page_ids(&b.cases).len();
    let summary = format!("built {pages} models, {expected} failed in ");
    assert!(b.stderr.lines().any(|l| l.starts_with(&summary)), "no {summary:?} in\n{}", b.stderr);
}

#[test]
fn every_part_dropped_from_a_page_is_noted() {
    let b = built();
    let notes: Vec<&str> = b.stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    for case in &b.cases {
        for note in &case.notes {
            let found = notes.iter().filter(|l| l.contains(note.as_str())).count();
            assert_eq!(found, 1, "{}: want one note holding {note:?}, got {found}", case.name);
        }
    }
    let noted: usize = b.cases.iter().map(|c| c.notes.len()).sum();
    assert!(noted >= 4, "{noted} notes expected");
}

#[test]
fn nothing_is_written_outside_the_output_folder() {
    let b = built();
    assert_eq!(b.before, b.after, "files around the output changed during the build");
    let root = b.out.parent().unwrap();
    for name in ["pwned", "x", "b", "outside/pwned"] {
        assert!(!root.join(name).exists() && !b.corpus.root.join(name).exists(), "{name} was written");
    }
    // Inside the output: model pages only for the safe cases, no links.
    let mut model_pages = BTreeSet::new();
    for entry in walkdir::WalkDir::new(&b.out).follow_links(false) {
        let entry = entry.unwrap();
        assert!(!entry.file_type().is_symlink(), "a link in the output: {}", entry.path().display());
        let rel = entry.path().strip_prefix(&b.out).unwrap().to_string_lossy().into_owned();
        let parts: Vec<&str> = rel.split('/').collect();
        if parts.len() == 3 && parts[2] == "index.html" && !["libraries", "tasks"].contains(&parts[0]) {
            model_pages.insert(format!("{}/{}", parts[0], parts[1]));
        }
    }
    assert_eq!(model_pages, page_ids(&b.cases));
}

/// The site's own markup: the CSP above, the hashed stylesheet and island loader.
fn site_markup(out: &Path) -> SiteMarkup {
    let assets: Vec<String> =
        fs::read_dir(out.join("assets")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let find = |prefix: &str, ext: &str| assets.iter().find(|a| a.starts_with(prefix) && a.ends_with(ext)).map(|a| format!("/assets/{a}"));
    SiteMarkup {
        csp: CSP.to_owned(),
        csp_remote_images: Some(CSP_REMOTE_IMAGES.to_owned()),
        stylesheet: find("style.", ".css").expect("a stylesheet"),
        script: fs::read_dir(out.join("assets/islands")).ok().and_then(|entries| {
            let names = entries.map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
            names.into_iter().find(|n| n.starts_with("islands-")).map(|n| format!("/assets/islands/{n}"))
        }),
    }
}

#[test]
fn every_page_declares_the_policy_and_holds_no_live_markup() {
    let b = built();
    let site = site_markup(&b.out);
    let mut pages = 0;
    for entry in walkdir::WalkDir::new(&b.out) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "html") {
            continue;
        }
        let html = fs::read_to_string(entry.path()).unwrap();
        let found = live_markup(&html, Some(&site));
        assert!(found.is_empty(), "{}: {found:#?}", entry.path().display());
        pages += 1;
    }
    assert!(pages > page_ids(&b.cases).len(), "{pages} pages checked");
}

#[test]
fn safe_pages_show_the_input_as_text() {
    let b = built();
    for case in &b.cases {
        let Expect::Page { id, shows } = &case.expect else { continue };
        let html = fs::read_to_string(b.out.join(id).join("index.html")).unwrap();
        let text: String = tokens(&html).into_iter().filter_map(|n| if let Node::Text(t) = n { Some(t) } else { None }).collect::<Vec<_>>().join("\u{0}");
        for shown in shows {
            assert!(text.contains(shown.as_str()), "{}: the page does not show {shown:?}", case.name);
        }
    }
}

#[test]
fn no_page_shows_text_that_reorders_itself() {
    // Record values are shown with bidi overrides and isolates as escapes,
    // on pages and in the search files the island shows; a card's own
    // prose is the card's (right-to-left text may need them).
    let b = built();
    let mut checked = 0;
    for entry in walkdir::WalkDir::new(&b.out) {
        let entry = entry.unwrap();
        let path = entry.path();
        let search = path.strip_prefix(&b.out).is_ok_and(|p| p.starts_with("search"));
        let text = match path.extension().and_then(|e| e.to_str()) {
            Some("html") => outside_card_bodies(&fs::read_to_string(path).unwrap()),
            Some("json") if search => fs::read_to_string(path).unwrap(),
            _ => continue,
        };
        let found: Vec<char> = text.chars().filter(|c| modelpages_record::reorders_text(*c)).collect();
        assert!(found.is_empty(), "{}: {found:?}", path.display());
        checked += 1;
    }
    assert!(checked > page_ids(&b.cases).len(), "{checked} files checked");
}

#[test]
fn a_hidden_flag_of_the_wrong_type_keeps_the_model_out_of_listings() {
    let b = built();
    assert!(b.out.join("hub/hidden-string/index.html").exists(), "its page is built");
    let listed = |file: &str| fs::read_to_string(b.out.join(file)).unwrap().contains("hidden-string");
    assert!(!listed("sitemap.xml") && !listed("hub/index.html"), "listed");
    assert!(fs::read_to_string(b.out.join("hub/index.html")).unwrap().contains("sibling-size-negative"), "its neighbour is listed");
}

/// The text and attribute values of `html` outside its cards' bodies.
fn outside_card_bodies(html: &str) -> String {
    let mut out = String::new();
    let mut card_depth = 0usize;
    for node in tokens(html) {
        match &node {
            Node::Start { name, .. } if name == "div" && (card_depth > 0 || node.attr("class") == Some("card-body")) => card_depth += 1,
            Node::End { name } if name == "div" && card_depth > 0 => card_depth -= 1,
            _ if card_depth > 0 => {}
            Node::Text(text) => out.push_str(text),
            Node::Start { attrs, .. } => attrs.iter().for_each(|(_, value)| out.push_str(value)),
            _ => {}
        }
    }
    out
}

/// The examples of a page: (language, whether it has a copy button, text
/// shown, which the button copies).
fn page_examples(html: &str) -> Vec<(String, bool, String)> {
    let mut examples = Vec::new();
    let mut current: Option<(String, bool, String)> = None;
    // The example is the `<code>` in the figure's `<pre>`; other `<code>`
    // elements name the token variable.
    let (mut in_pre, mut in_code) = (false, false);
    for node in tokens(html) {
        match &node {
            Node::Start { name, .. } if name == "figure" => {
                current = node.attr("data-language").map(|l| (l.to_owned(), false, String::new()));
            }
            Node::Start { name, .. } if name == "pre" => in_pre = true,
            Node::End { name } if name == "pre" => in_pre = false,
            Node::Start { name, .. } if name == "code" => in_code = in_pre && current.is_some(),
            Node::End { name } if name == "code" => in_code = false,
            Node::End { name } if name == "figure" => {
                if let Some(example) = current.take() {
                    examples.push(example);
                }
            }
            Node::Start { .. } => {
                if let (Some(current), Some("copy")) = (current.as_mut(), node.attr("data-island")) {
                    current.1 = true;
                }
            }
            Node::Text(text) if in_code => current.as_mut().unwrap().2.push_str(text),
            _ => {}
        }
    }
    examples
}

#[test]
fn examples_on_hostile_pages_parse_and_hold_the_input_exactly() {
    let b = built();
    let dir = tempfile::tempdir().unwrap();
    let mut written = 0;
    for case in &b.cases {
        let Expect::Page { id, .. } = &case.expect else { continue };
        let html = fs::read_to_string(b.out.join(id).join("index.html")).unwrap();
        // What the generator made, from the model's API file: the page must
        // show each example exactly (highlighting keeps every character).
        let api: serde_json::Value =
            serde_json::from_slice(&fs::read(b.out.join("api/models").join(format!("{id}.json"))).unwrap()).unwrap();
        let mut generated = Vec::new();
        strings_in(&api["examples"], &mut generated);
        for (i, (language, has_copy, shown)) in page_examples(&html).into_iter().enumerate() {
            assert!(has_copy, "{}: every example has a copy button", case.name);
            assert!(generated.contains(&shown), "{}: the page shows other code than was generated:\n{shown}", case.name);
            let copied = shown;
            let ext = match language.as_str() { "python" => "py", "js" => "mjs", "sh" => "sh", other => panic!("language {other}") };
            fs::write(dir.path().join(format!("{}-{i}.{ext}", case.name)), copied + "\n").unwrap();
            written += 1;
        }
    }
    assert!(written >= 100, "{written} examples on hostile pages");
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_snippets.py"))
        .arg("--dir").arg(dir.path()).arg("--literal").arg(PAYLOAD)
        .output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "checker failed:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().last(), Some(format!("{written} passed, 0 failed").as_str()));
    // The payload did reach the examples: a literal holds it.
    let all: String = fs::read_dir(dir.path()).unwrap().map(|e| fs::read_to_string(e.unwrap().path()).unwrap()).collect();
    assert!(all.matches(MARKER).count() >= written / 4, "few examples quote the payload");
}

fn strings_in(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| strings_in(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| strings_in(v, out)),
        _ => {}
    }
}

#[test]
fn check_reports_the_same_load_errors() {
    let b = built();
    let (code, stderr) = run_with_deadline(modelpages().arg("check").arg("--models").arg(&b.corpus.models).arg("--site-src").arg(site_src()));
    assert_eq!(code, 1);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let build_errors: BTreeSet<&str> = b.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    let check_errors: BTreeSet<&str> = stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(check_errors, build_errors);
}
