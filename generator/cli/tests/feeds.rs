//! The change feeds end to end: every feed of the default corpus is Atom
//! as `tests/checkers/check_feeds.py` reads it with Python's XML parser,
//! the pages link them, the checker catches broken feeds, and values from
//! hostile records come out escaped.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::*;

/// Runs `check_feeds.py` on a site built for `base_url`: (exit ok, stdout).
fn check_feeds(dist: &Path, base_url: &str) -> (bool, String) {
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_feeds.py"))
        .arg("--dist")
        .arg(dist)
        .args(["--base-url", base_url])
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.stderr.is_empty() || out.status.success(), "checker crashed:\n{}", String::from_utf8_lossy(&out.stderr));
    (out.status.success(), stdout)
}

fn build_at(models: &Path, dist: &Path, base_url: &str, config: Option<&Path>) -> Run {
    let mut extra: Vec<&std::ffi::OsStr> = vec!["--base-url".as_ref(), base_url.as_ref()];
    if let Some(config) = config {
        extra.extend(["--config".as_ref(), config.as_os_str()]);
    }
    build_with(&extra, models, dist, &site_src())
}

/// Replaces the first `from` of the site file `path` with `to`.
fn edit(dist: &Path, path: &str, from: &str, to: &str) {
    let file = dist.join(path);
    let text = fs::read_to_string(&file).unwrap();
    assert!(text.contains(from), "{path} has no {from:?}");
    fs::write(&file, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn every_feed_of_the_default_corpus_is_atom_and_linked_from_its_listing() {
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    let run = build_at(&repo_root().join("models"), &dist, "https://hub.example/", None);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (ok, report) = check_feeds(&dist, "https://hub.example/");
    assert!(ok, "{report}");
    // A feed for the site, every task with models and every namespace.
    let tasks = fs::read_dir(dist.join("tasks")).unwrap().filter(|e| e.as_ref().unwrap().path().join("index.html").is_file()).count();
    let namespaces = fs::read_dir(&dist).unwrap().filter(|e| e.as_ref().unwrap().path().join("-/feed.xml").is_file()).count();
    assert!(tasks > 20 && namespaces > 50, "{tasks} tasks, {namespaces} namespaces");
    assert!(report.contains(&format!("checked {} feeds (", 1 + tasks + namespaces)), "{report}");
    let site = fs::read_to_string(dist.join("feed.xml")).unwrap();
    assert_eq!(site.matches("<entry>").count(), 50, "the latest 50 of the corpus's models");
    // The corpus shows an added model (created the day it last changed)
    // and an updated one with its creation date.
    assert!(site.contains("<title>library-examples/cortiq-example added</title>"), "{site}");
    let llama = fs::read_to_string(dist.join("meta-llama/-/feed.xml")).unwrap();
    assert!(llama.contains("<published>2024-04-17T09:35:12Z</published>"), "{llama}");
    assert!(llama.contains("<id>https://hub.example/meta-llama/Meta-Llama-3-8B-Instruct/#"), "{llama}");

    // The checker is not a rubber stamp: each break is named.
    edit(&dist, "feed.xml", "<updated>", "<updated>yesterday</updated><x>");
    edit(&dist, "tasks/text-generation/feed.xml", "<entry>", "<entry><title>two titles</title>");
    edit(&dist, "meta-llama/-/feed.xml", "<author>", "<foo xmlns=\"urn:other\"/><author>");
    edit(&dist, "meta-llama/index.html", "type=\"application/atom+xml\"", "type=\"text/plain\"");
    edit(&dist, "tasks/fill-mask/index.html", "fill-mask/feed.xml", "fill-mask/nofeed.xml");
    let (ok, report) = check_feeds(&dist, "https://hub.example/");
    assert!(!ok, "{report}");
    for named in [
        "feed.xml: not XML",
        "tasks/text-generation/feed.xml entry 1: 2 atom:title elements",
        "meta-llama/-/feed.xml: element {urn:other}foo outside the Atom namespace",
        "meta-llama/index.html: does not link its feed meta-llama/-/feed.xml",
        "tasks/fill-mask/index.html: links feed '/tasks/fill-mask/nofeed.xml'",
    ] {
        assert!(report.contains(named), "{named}: {report}");
    }
    assert!(report.trim_end().ends_with(" 5 failed"), "{report}");
}

#[test]
fn hostile_record_values_are_escaped_in_feeds() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    let hostile = r#"{"id": "evil/m", "pipeline_tag": "fill-mask", "library_name": "x</summary><script>alert(1)</script>\u0001\u202e&amp;",
        "lastModified": "2024-05-06T07:08:09.5+02:00", "createdAt": "2024-05-06T00:00:00Z"}"#;
    write(&models, "evil/m/model.json", hostile);
    // A timestamp that is not one: the model is in no feed.
    write(&models, "evil/undated/model.json", r#"{"id": "evil/undated", "pipeline_tag": "fill-mask", "lastModified": "2024-05-06T07:08:09Z<b>"}"#);
    let config = tmp.path().join("site.toml");
    fs::write(&config, "title = \"Hub & <b>'s\\u0007\"\n").unwrap();
    // A namespace named as the site's feed would be overwritten by it.
    write(&models, "feed.xml/m/model.json", r#"{"id": "feed.xml/m", "lastModified": "2024-05-06T00:00:00Z"}"#);
    let dist = tmp.path().join("dist");
    let run = build_at(&models, &dist, "/", Some(&config));
    assert!(run.stderr.contains("namespace \"feed.xml\" is reserved for the site's own pages"), "{}", run.stderr);
    assert!(dist.join("feed.xml").is_file() && !dist.join("feed.xml/m").exists());
    let (ok, report) = check_feeds(&dist, "/");
    assert!(ok, "{report}");
    assert!(report.contains("checked 3 feeds (3 entries)"), "one entry in each of three feeds: {report}");
    for feed in ["feed.xml", "tasks/fill-mask/feed.xml", "evil/-/feed.xml"] {
        let xml = fs::read_to_string(dist.join(feed)).unwrap();
        assert!(!xml.contains("<script>") && !xml.contains('\u{1}') && !xml.contains('\u{7}') && !xml.contains('\u{202e}'), "{feed}: {xml}");
        assert!(xml.contains("Library: x&lt;/summary&gt;&lt;script&gt;alert(1)&lt;/script&gt;\\u{1}\\u{202e}&amp;amp;."), "{feed}: {xml}");
        assert!(xml.contains("· Hub &amp; &lt;b&gt;&apos;s\\u{7}</title>"), "{feed}: {xml}");
        assert!(xml.contains("<updated>2024-05-06T05:08:09Z</updated>"), "in UTC, to the second: {xml}");
        assert!(xml.contains("<title>evil/m added</title>") && !xml.contains("evil/undated"), "{feed}: {xml}");
        assert!(xml.contains("<id>tag:modelpages,2024:/evil/m/#2024-05-06T05:08:09Z</id>"), "{feed}: {xml}");
    }
}
