//! End-to-end: `modelpages build --changed FILE` looks only at the models
//! the file names, added and removed ones too, and trusts the others; an
//! added model that clashes with another is left to a look at every model;
//! a bad list is refused, naming its file and line, and leaves the site as
//! it was.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::*;

fn build_changed(list: &Path, models: &Path, out: &Path) -> Run {
    build_with(&["--changed".as_ref(), list.as_os_str()], models, out, &site_src())
}

/// `modelpages build --changed -` of `models` into `out`, reading the list
/// from `stdin`.
fn build_changed_from(stdin: Stdio, models: &Path, out: &Path) -> std::process::Command {
    let mut command = modelpages();
    command.args(["build", "--changed", "-", "--models"]).arg(models).arg("--out").arg(out).arg("--site-src").arg(site_src());
    command.stdin(stdin);
    command
}

/// A synthetic corpus of `count` models and a site built from it: the
/// folder holding both, the models folder and the site.
fn built_site(count: usize) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, count, "first");
    let out = tmp.path().join("dist");
    let first = build(&models, &out, &site_src());
    assert_eq!(first.code, 0, "{}", first.stderr);
    (tmp, models, out)
}

fn page(out: &Path, id: &str) -> String {
    fs::read_to_string(out.join(id).join("index.html")).unwrap()
}

#[cfg(unix)]
#[test]
fn a_changed_list_limits_the_rebuild_to_the_models_it_names() {
    let (tmp, models, out) = built_site(30);
    let untouched = out.join("ns1/model-1/index.html");
    let before = inode(&untouched);

    fs::write(models.join("ns2/model-2/README.md"), "# changed two\n").unwrap();
    fs::write(models.join("ns4/model-4/README.md"), "# changed four\n").unwrap();
    let list = tmp.path().join("changed.txt");
    // As `git -C models diff --name-only --relative` names them: files in model folders.
    fs::write(&list, "# written by the sync job\nns2/model-2/README.md\nns2/model-2/model.json\n").unwrap();
    let listed = build_changed(&list, &models, &out);
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert!(listed.stderr.contains("built 30 models, 0 failed") && listed.stderr.contains("(1 rendered, 29 unchanged)"), "{}", listed.stderr);
    assert!(page(&out, "ns2/model-2").contains("changed two"));
    assert!(!page(&out, "ns4/model-4").contains("changed four"), "a model the list does not name is not looked at");
    assert_eq!(inode(&untouched), before, "an unchanged page is linked, not rewritten");

    // From standard input; a model named that did not change is not rendered.
    let mut child = build_changed_from(Stdio::piped(), &models, &out)
        .stderr(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"ns1/model-1\n").unwrap();
    let from_stdin: Run = child.wait_with_output().unwrap().into();
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    assert!(from_stdin.stderr.contains("(0 rendered, 30 unchanged)"), "{}", from_stdin.stderr);

    // Without a list every model is looked at again: the change the list
    // left out is found, and the site equals a full build.
    let all = build(&models, &out, &site_src());
    assert!(all.stderr.contains("(1 rendered, 29 unchanged)"), "{}", all.stderr);
    assert!(page(&out, "ns4/model-4").contains("changed four"));
    let full = tmp.path().join("full");
    assert_eq!(full_build(&models, &full, &site_src()).code, 0);
    assert_eq!(snapshot(&out), snapshot(&full), "the site equals a full build");
}

#[cfg(unix)]
#[test]
fn a_changed_list_names_models_added_and_removed_too() {
    let (tmp, models, out) = built_site(20);
    let list = tmp.path().join("changed.txt");

    // Added: named in the list, unknown to the site; only it is looked at.
    write(&models, "ns9/added/model.json", r#"{"id": "ns9/added", "pipeline_tag": "fill-mask", "downloads": 5}"#);
    fs::write(models.join("ns2/model-2/README.md"), "# changed two\n").unwrap();
    fs::write(&list, "ns9/added\n").unwrap();
    let added = build_changed(&list, &models, &out);
    assert_eq!(added.code, 0, "{}", added.stderr);
    assert!(added.stderr.contains("built 21 models") && added.stderr.contains("(1 rendered, 20 unchanged)"), "{}", added.stderr);
    assert!(out.join("ns9/added/index.html").is_file());
    assert!(fs::read_to_string(out.join("ns9/index.html")).unwrap().contains("href=\"/ns9/added/\""), "its namespace lists it");
    assert!(!page(&out, "ns2/model-2").contains("changed two"), "a model the list does not name is not looked at");

    // Removed: named in the list, its folder gone.
    fs::remove_dir_all(models.join("ns3/model-3")).unwrap();
    fs::write(&list, "ns3/model-3\nns2/model-2\n").unwrap();
    let removed = build_changed(&list, &models, &out);
    assert_eq!(removed.code, 0, "{}", removed.stderr);
    assert!(removed.stderr.contains("built 20 models") && removed.stderr.contains("(1 rendered, 19 unchanged)"), "{}", removed.stderr);
    assert!(!out.join("ns3/model-3").exists(), "a removed model's pages go");
    assert!(!fs::read_to_string(out.join("ns3/index.html")).unwrap().contains("model-3/"), "and its namespace no longer lists it");

    let full = tmp.path().join("full");
    assert_eq!(full_build(&models, &full, &site_src()).code, 0);
    assert_eq!(snapshot(&out), snapshot(&full), "the site equals a full build");

    // An added model that breaks a layout rule is left to a whole survey,
    // which reports it (and finds the change the list left out).
    write(&models, "stats/x/model.json", r#"{"id": "stats/x"}"#);
    fs::write(models.join("ns4/model-4/README.md"), "# changed four\n").unwrap();
    fs::write(&list, "stats/x\n").unwrap();
    let clash = build_changed(&list, &models, &out);
    assert_eq!(clash.code, 1, "{}", clash.stderr);
    assert!(clash.stderr.contains("namespace \"stats\" is reserved for the site's own pages"), "{}", clash.stderr);
    assert!(page(&out, "ns4/model-4").contains("changed four"), "the whole folder was looked at");
}

#[test]
fn a_bad_changed_list_is_refused_naming_its_file_and_line() {
    let (tmp, models, out) = built_site(5);
    let before = snapshot(&out);

    let list = tmp.path().join("changed.txt");
    fs::write(&list, "ns1/model-1\n../../etc\n").unwrap();
    let bad = build_changed(&list, &models, &out);
    assert_ne!(bad.code, 0);
    assert!(bad.stderr.contains("changed.txt") && bad.stderr.contains("line 2"), "{}", bad.stderr);
    let missing = build_changed(&tmp.path().join("no-such-list"), &models, &out);
    assert_ne!(missing.code, 0);
    assert!(missing.stderr.contains("no-such-list"), "{}", missing.stderr);
    let with_full = modelpages().args(["build", "--full", "--changed"]).arg(&list).output().unwrap();
    assert_eq!(with_full.status.code(), Some(2), "--changed and --full contradict each other");
    assert_eq!(snapshot(&out), before, "the site is left as it was");
}

#[test]
#[cfg(unix)]
fn an_endless_or_overlong_changed_list_is_refused_without_reading_it_all() {
    let (tmp, models, out) = built_site(3);
    let before = snapshot(&out);
    // An endless standard input: reading stops past the limit, with an error.
    let endless: Run = build_changed_from(fs::File::open("/dev/zero").unwrap().into(), &models, &out).output().unwrap().into();
    assert_ne!(endless.code, 0);
    assert!(endless.stderr.contains("standard input") && endless.stderr.contains("longer than 16 MiB"), "{}", endless.stderr);
    // A list of too many lines, short as it is in bytes.
    let list = tmp.path().join("changed.txt");
    fs::write(&list, "ns1/model-1\n".repeat(modelpages_site::MAX_LIST_LINES + 1)).unwrap();
    let long = build_changed(&list, &models, &out);
    assert_ne!(long.code, 0);
    assert!(long.stderr.contains("changed.txt") && long.stderr.contains("more than 250000 lines"), "{}", long.stderr);
    assert_eq!(snapshot(&out), before, "the site is left as it was");
}
