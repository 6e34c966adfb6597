//! What `--out` accepts and refuses, and what a build must never lose: a
//! folder of someone else's files, the build's own inputs, anything outside
//! the output reached through a leftover transaction or a planted link, and
//! pages deleted from the site by hand.

use std::fs;
use std::os::unix::fs::{symlink, MetadataExt};
use std::path::Path;

use crate::common::*;

/// The names beside an output called `name` that a build may create.
fn leftovers_of(parent: &Path, name: &str) -> Vec<String> {
    let prefix = format!(".{name}.");
    let mut found: Vec<String> = fs::read_dir(parent)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix))
        .collect();
    found.sort();
    found
}

fn error_line(run: &Run) -> &str {
    run.stderr.lines().find(|l| l.starts_with("error: ")).unwrap_or_else(|| panic!("no error line: {}", run.stderr))
}

/// `modelpages build` run in `dir` with these arguments.
fn build_in(dir: &Path, args: &[&str]) -> Run {
    modelpages().current_dir(dir).arg("build").args(args).output().unwrap().into()
}

#[test]
fn a_folder_of_other_files_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "x");
    let docs = tmp.path().join("docs");
    write(&docs, "index.md", "# My project\n");
    write(&docs, "guide/setup.md", "Run it.\n");
    let before = snapshot(&docs);

    let run = build(&models, &docs, &site_src());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        error_line(&run).ends_with(&format!(
            "{}: not empty and not a site modelpages built (it has no .modelpages-site file); choose an empty or new folder, or empty this one yourself",
            docs.display()
        )),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    assert_eq!(snapshot(&docs), before, "every file is still there");
    assert_eq!(leftovers_of(tmp.path(), "docs"), Vec::<String>::new(), "no lock, manifest or staging");

    // Emptied by its owner, the same folder is fine, and from then on it is a site.
    fs::remove_dir_all(&docs).unwrap();
    fs::create_dir(&docs).unwrap();
    let run = build(&models, &docs, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(docs.join(".modelpages-site").is_file(), "the site is marked");
    assert!(!fs::read_to_string(docs.join("sitemap.xml")).unwrap().contains("modelpages-site"), "the marker is no page");
    assert_eq!(build(&models, &docs, &site_src()).code, 0);
    assert_eq!(
        leftovers_of(tmp.path(), "docs"),
        vec![".docs.changes".to_owned(), ".docs.manifest".to_owned()],
        "the lock goes with the build"
    );
}

/// The manifest beside `out` as an earlier version wrote it: without the
/// site's identity.
fn strip_site_id(out: &Path) {
    let path = out.with_file_name(format!(".{}.manifest", out.file_name().unwrap().to_string_lossy()));
    let bytes = fs::read(&path).unwrap();
    let newline = bytes.iter().position(|b| *b == b'\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[..newline]).unwrap();
    assert!(header.as_object_mut().unwrap().remove("site_id").is_some(), "a manifest records the site's identity");
    let mut rewritten = serde_json::to_vec(&header).unwrap();
    rewritten.extend_from_slice(&bytes[newline..]);
    fs::write(&path, rewritten).unwrap();
}

#[test]
fn a_site_built_before_the_marker_is_recognised_by_its_manifest() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "x");
    let out = tmp.path().join("dist");
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let site = snapshot(&out);
    // As an earlier version left it: no marker, and a manifest that names
    // the folder but records no site identity.
    let _ = fs::remove_file(out.join(".modelpages-site"));
    strip_site_id(&out);
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let marker = fs::read_to_string(out.join(".modelpages-site")).unwrap();
    assert!(marker.contains("site-id: "), "marked now, with an identity: {marker}");
    assert_eq!(snapshot(&out), site);
    // From then on the identity is kept, build after build.
    assert_eq!(full_build(&models, &out, &site_src()).code, 0);
    assert_eq!(fs::read_to_string(out.join(".modelpages-site")).unwrap(), marker);

    // A copy of it is another folder: the manifest does not name it.
    let copy = tmp.path().join("copy");
    copy_tree(&out, &copy);
    fs::remove_file(copy.join(".modelpages-site")).unwrap();
    fs::copy(tmp.path().join(".dist.manifest"), tmp.path().join(".copy.manifest")).unwrap();
    assert_eq!(build(&models, &copy, &site_src()).code, 1);
}

#[test]
fn a_marker_copied_with_a_site_does_not_make_a_folder_of_other_files_a_site() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "x");
    let dist = tmp.path().join("dist");
    assert_eq!(build(&models, &dist, &site_src()).code, 0);
    // docs/ holds the user's own files; `cp -a dist/. docs/` adds the site's.
    let docs = tmp.path().join("docs");
    for i in 0..300 {
        write(&docs, &format!("notes/{i}.md"), &format!("note {i}\n"));
    }
    copy_tree(&dist, &docs);
    let marker = docs.join(".modelpages-site");
    let before = snapshot(&docs);
    assert!(marker.is_file() && before.len() > 300);
    let mut markers = vec![fs::read(&marker).unwrap()];
    // An earlier version's marker, and an empty one, copied the same way.
    markers.push(b"This folder is a site built by modelpages.\n".to_vec());
    markers.push(Vec::new());
    for bytes in markers {
        fs::write(&marker, &bytes).unwrap();
        let run = build(&models, &docs, &site_src());
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(error_line(&run).contains("not empty and not a site modelpages built"), "{}", run.stderr);
        assert_eq!(snapshot(&docs), before, "all 300 of the user's files are still there");
        assert_eq!(leftovers_of(tmp.path(), "docs"), Vec::<String>::new(), "no lock, manifest or staging");
    }
    // dist/ itself is still its own site.
    assert_eq!(build(&models, &dist, &site_src()).code, 0);
}

/// A project as a user has it: records, site sources and settings.
fn project(root: &Path) {
    synthetic_corpus(&root.join("models"), 3, "x");
    copy_tree(&site_src().join("templates"), &root.join("site-src/templates"));
    copy_tree(&site_src().join("static"), &root.join("site-src/static"));
    write(root, "site-src/build/islands.js", "// bundle\n");
    write(root, "modelpages.toml", "title = \"Mine\"\n");
}

#[test]
fn an_output_that_is_holds_or_lies_inside_an_input_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("project");
    project(&root);
    let before = snapshot(tmp.path());
    let whole = root.display().to_string();
    let cases: [(&[&str], &str); 8] = [
        (&["--out", "models"], "the output folder is the models folder"),
        (&["--out", "models/site"], "the output folder lies inside the models folder"),
        (&["--out", "new/../models"], "the output folder is the models folder"),
        (&["--out", "."], "the output folder holds the models folder"),
        (&["--out", &whole], "the output folder holds the models folder"),
        (&["--out", "site-src"], "the output folder is the site sources"),
        (&["--out", "site-src/build"], "the output folder lies inside the site sources"),
        (&["--out", "modelpages.toml"], "the output folder is the settings file"),
    ];
    for (args, want) in cases {
        let run = build_in(&root, args);
        assert_eq!(run.code, 1, "{args:?}: {}", run.stderr);
        let line = error_line(&run);
        assert!(line.contains(want) && line.ends_with("; choose another output folder"), "{args:?}: {line}");
        assert_eq!(snapshot(tmp.path()), before, "{args:?}: nothing touched");
        let names: Vec<_> = walkdir::WalkDir::new(tmp.path()).into_iter().map(|e| e.unwrap().path().to_owned()).collect();
        assert!(!names.iter().any(|p| p.to_string_lossy().contains(".lock")), "{args:?}: {names:?}");
    }

    // A site of its own may not hold the settings file either: a full build
    // would swap it away.
    assert_eq!(build_in(&root, &["--out", "dist"]).code, 0);
    write(&root, "dist/modelpages.toml", "title = \"Inside\"\n");
    let run = build_in(&root, &["--out", "dist", "--config", "dist/modelpages.toml"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(error_line(&run).contains("the output folder holds the settings file"), "{}", run.stderr);
    assert!(root.join("dist/modelpages.toml").is_file());
}

#[test]
fn a_failed_build_leaves_no_lock_manifest_or_staging_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "x");
    let out = tmp.path().join("dist");
    // The models folder is missing: found only after the output is locked.
    let run = build(&tmp.path().join("no-models"), &out, &site_src());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(leftovers_of(tmp.path(), "dist"), Vec::<String>::new());
    assert!(!out.exists());

    // With a site in place, a failing build leaves just what was there,
    // its change set saying that it failed (so no deploy takes the site).
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let run = build(&tmp.path().join("no-models"), &out, &site_src());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(leftovers_of(tmp.path(), "dist"), vec![".dist.changes".to_owned(), ".dist.manifest".to_owned()]);
    assert!(fs::read_to_string(tmp.path().join(".dist.changes")).unwrap().contains(r#""state": "failed""#));
}

/// A site in `tmp/dist` built from a small corpus in `tmp/models`.
fn built_site(tmp: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let models = tmp.join("models");
    synthetic_corpus(&models, 12, "x");
    let out = tmp.join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    (models, out)
}

/// Leaves `.dist.txn` as a build killed after its commit point would, with
/// `plan` and staged files holding `payload`.
fn plant_transaction(tmp: &Path, plan: serde_json::Value, payload: &str) {
    write(tmp, ".dist.txn/files/0", payload);
    write(tmp, ".dist.txn/files/1", payload);
    write(tmp, ".dist.txn/plan.json", &plan.to_string());
}

#[test]
fn a_planted_transaction_cannot_write_outside_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let (models, out) = built_site(tmp.path());
    let site = snapshot(&out);
    let victim = tmp.path().join("victim.txt");
    fs::write(&victim, "precious").unwrap();
    // The manifest path of a plan was taken as it stood.
    let plan = serde_json::json!({
        "steps": [{"Write": {"rel": "index.html", "file": 0}}],
        "manifest": [victim, 1],
    });
    plant_transaction(tmp.path(), plan, "pwned");

    let run = build(&models, &out, &site_src());
    assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(run.code, 1, "a plan this program did not write is refused: {}", run.stderr);
    assert!(error_line(&run).contains(&tmp.path().join(".dist.txn").display().to_string()), "{}", run.stderr);
    assert_eq!(snapshot(&out), site, "nothing applied");
    assert!(tmp.path().join(".dist.txn/plan.json").is_file(), "left for its owner to look at");
}

#[test]
fn a_transaction_never_follows_a_link_inside_the_output() {
    let tmp = tempfile::tempdir().unwrap();
    let (models, out) = built_site(tmp.path());
    let elsewhere = tmp.path().join("elsewhere");
    write(&elsewhere, "victim.txt", "precious");
    let before = snapshot(&elsewhere);
    symlink(&elsewhere, out.join("link")).unwrap();
    // A plan bound to this very output, as this program writes them: only
    // the link stands between it and the folder outside.
    let meta = fs::metadata(&out).unwrap();
    let plan = serde_json::json!({
        "site": [meta.dev(), meta.ino()],
        "steps": [
            {"Remove": {"rel": "link/victim.txt"}},
            {"Write": {"rel": "link/planted.txt", "file": 0}},
        ],
        "manifest": null,
    });
    plant_transaction(tmp.path(), plan, "pwned");

    let run = build(&models, &out, &site_src());
    assert_eq!(snapshot(&elsewhere), before, "{}", run.stderr);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(error_line(&run).contains(&out.join("link").display().to_string()), "names the link: {}", run.stderr);
}

#[test]
fn planted_staging_links_are_removed_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "x");
    let home = tmp.path().join("home");
    write(&home, "notes.txt", "precious");
    write(&home, "deep/er.txt", "precious too");
    let before = snapshot(&home);
    symlink(&home, tmp.path().join(".dist.tmp-1")).unwrap();
    symlink(home.join("notes.txt"), tmp.path().join(".dist.manifest.tmp")).unwrap();
    let out = tmp.path().join("dist");

    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(snapshot(&home), before, "the links' targets are untouched");
    assert!(fs::symlink_metadata(tmp.path().join(".dist.tmp-1")).is_err(), "the stale link itself is gone");
}

#[test]
fn pages_deleted_by_hand_come_back_with_the_next_build() {
    let tmp = tempfile::tempdir().unwrap();
    let (models, out) = built_site(tmp.path());
    let site = snapshot(&out);

    // `rm -rf dist/*`: the dot files (the marker) stay.
    for entry in fs::read_dir(&out).unwrap() {
        let entry = entry.unwrap();
        if !entry.file_name().to_string_lossy().starts_with('.') {
            let path = entry.path();
            if path.is_dir() { fs::remove_dir_all(path) } else { fs::remove_file(path) }.unwrap();
        }
    }
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(snapshot(&out), site, "every page is back");

    // One namespace folder, then one model's folder.
    for gone in ["ns3", "ns2/model-9"] {
        fs::remove_dir_all(out.join(gone)).unwrap();
        let run = build(&models, &out, &site_src());
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(snapshot(&out), site, "{gone} is back");
    }
}
