//! Cards as the Hub renders them, built by the real binary: every in-card
//! link and relative reference on the default corpus resolves, a card's
//! files are copied beside its page or linked on the hub and are never read
//! through a link or from outside the model's folder, remote images follow
//! `card_images` and the page's policy, and an incremental build notices a
//! changed, added or removed image as a full build would.

use std::collections::HashSet;
use std::fs;
use std::path::Path;

use crate::common::*;
use modelpages_render::is_page_id;
use modelpages_testkit::html::{tokens, Node};

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x02\0\0\0\x90wS\xde";

/// The card's part of a model page.
fn card_body(page: &str) -> &str {
    let start = page.find("<div class=\"card-body\">").expect("a card");
    &page[start..start + page[start..].find("</section>").unwrap()]
}

/// Every id in a page, in order.
fn ids(page: &str) -> Vec<String> {
    tokens(page).into_iter().filter_map(|node| node.attr("id").map(str::to_owned)).collect()
}

/// `(tag, attribute, value)` of every `href` and `src` in `html`.
fn references(html: &str) -> Vec<(String, String, String)> {
    let mut found = Vec::new();
    for node in tokens(html) {
        if let Node::Start { name, attrs } = node {
            for (attr, value) in attrs.into_iter().filter(|(a, _)| a == "href" || a == "src") {
                found.push((name.clone(), attr, value));
            }
        }
    }
    found
}

/// `path` with its `%XX` escapes decoded.
fn decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let escaped = bytes.get(i + 1..i + 3).and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match (bytes[i], escaped) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn every_in_card_link_and_relative_file_on_the_corpus_resolves() {
    let models = repo_root().join("models");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (mut fragments, mut files) = (0, 0);
    for ns in fs::read_dir(&out).unwrap().map(|e| e.unwrap()).filter(|e| e.file_type().unwrap().is_dir()) {
        for model in fs::read_dir(ns.path()).unwrap().map(|e| e.unwrap()) {
            let Ok(page) = fs::read_to_string(model.path().join("index.html")) else { continue };
            if !page.contains("class=\"card-body\"") {
                continue;
            }
            let rel = model.path().strip_prefix(&out).unwrap().to_string_lossy().into_owned();
            let all_ids = ids(&page);
            let page_ids: HashSet<String> = all_ids.iter().cloned().collect();
            assert_eq!(page_ids.len(), all_ids.len(), "{rel}: an id is used twice: {all_ids:?}");
            // The page's own ids are the ones cards keep clear of.
            let card_ids = ids(card_body(&page));
            for id in all_ids.iter().filter(|id| !card_ids.contains(id)) {
                assert!(is_page_id(id), "{rel}: the page's id {id:?} is not one heading ids keep clear of");
            }
            for (tag, attr, value) in references(card_body(&page)) {
                if let Some(fragment) = value.strip_prefix('#') {
                    fragments += 1;
                    assert!(page_ids.contains(&decoded(fragment)), "{rel}: <{tag} {attr}={value:?}> lands on no element");
                } else if !value.contains(':') {
                    files += 1;
                    assert!(!value.starts_with('/') && !value.split('/').any(|n| n == ".."), "{rel}: {value:?} leaves the page's folder");
                    let file = model.path().join(decoded(value.split(['#', '?']).next().unwrap()));
                    assert!(file.is_file(), "{rel}: <{tag} {attr}={value:?}> is not in the site");
                }
            }
        }
    }
    assert!(fragments >= 10 && files >= 2, "{fragments} in-card links and {files} files checked");

    let zephyr = out.join("HuggingFaceH4/zephyr-7b-beta");
    let source = models.join("HuggingFaceH4/zephyr-7b-beta");
    assert_eq!(fs::read(zephyr.join("assets/leaderboard.png")).unwrap(), fs::read(source.join("assets/leaderboard.png")).unwrap());
    assert_eq!(fs::read(zephyr.join("docs/prompt-format.md")).unwrap(), fs::read(source.join("docs/prompt-format.md")).unwrap());
    let page = fs::read_to_string(zephyr.join("index.html")).unwrap();
    let card = card_body(&page);
    for expected in [
        "src=\"https://huggingface.co/HuggingFaceH4/zephyr-7b-beta/resolve/main/images/loss-curves.png\"",
        "href=\"https://huggingface.co/HuggingFaceH4/zephyr-7b-beta/blob/main/generation_config.json\"",
        "<span class=\"card-media\"><a href=\"https://huggingface.co/HuggingFaceH4/zephyr-7b-beta/resolve/main/demo.mp4\"",
        "<h2 id=\"zephyr-7b-β\">Zephyr 7B β</h2>",
        "<h4 id=\"how-dpo-trains-it\">",
        "<code>\\\\(\\tau = \\temperature{0.7}\\\\)</code>",
        "<div class=\"align-center\">",
    ] {
        assert!(card.contains(expected), "{expected} in the zephyr card");
    }
    assert_eq!(page.matches("<h1").count(), 1, "one h1: the page's title");
    assert_eq!(card.matches("<math").count(), 10, "every formula but the bad one");
    assert_eq!(card.matches("<math display=\"block\">").count(), 2);
    assert!(page.contains("img-src 'self' data: https:;"), "the page allows the card's remote images");
    assert!(!page.contains("Card tags"), "the card's tags are the record's own");
    assert!(run.stderr.contains("HuggingFaceH4/zephyr-7b-beta: card: 1 formula shown as code"), "{}", run.stderr);
    let strict = fs::read_to_string(out.join("Qwen/Qwen2.5-7B-Instruct/index.html")).unwrap();
    assert!(strict.contains("img-src 'self' data:;"), "a page without remote images keeps the strict policy");
}

/// A model whose card refers to files of every kind, good and bad, beside
/// another model whose file it must never reach.
#[cfg(unix)]
fn hostile_files(models: &Path, outside: &Path) {
    let dir = models.join("evil/files");
    fs::create_dir_all(dir.join("assets")).unwrap();
    fs::create_dir_all(outside).unwrap();
    fs::write(outside.join("secret.png"), PNG).unwrap();
    write(models, "evil/other/model.json", r#"{"id": "evil/other"}"#);
    fs::write(models.join("evil/other/secret.png"), PNG).unwrap();
    write(models, "evil/files/model.json", r#"{"id": "evil/files", "tags": ["mine"]}"#);
    fs::write(dir.join("assets/ok.png"), PNG).unwrap();
    fs::write(dir.join("assets/fake.png"), "<svg onload=alert(1)>").unwrap();
    fs::write(dir.join("big.png"), [PNG, &vec![0u8; 4 << 20]].concat()).unwrap();
    fs::write(dir.join(".env"), "TOKEN=secret").unwrap();
    std::os::unix::fs::symlink(outside.join("secret.png"), dir.join("assets/linked.png")).unwrap();
    std::os::unix::fs::symlink(outside, dir.join("linkdir")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("assets/fifo.png").to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    write(
        models,
        "evil/files/README.md",
        "---\ntags:\n- mine\n- extra\n---\n# Files\n\n![ok](assets/ok.png) <img src=\"./assets/ok.png\" alt=\"raw\">\n\n\
         ![fake](assets/fake.png) ![linked](assets/linked.png) ![dirlink](linkdir/secret.png) ![fifo](assets/fifo.png)\n\n\
         ![up](../other/secret.png) ![encoded](%2e%2e/other/secret.png) ![abs](/etc/passwd) ![slash](\\\\evil.example/x.png)\n\n\
         [big](big.png) [env](.env) [page](index.html) [weights](model.safetensors)\n",
    );
}

#[cfg(unix)]
#[test]
fn card_files_are_copied_only_from_inside_the_folder_and_never_through_links() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    hostile_files(&models, &tmp.path().join("outside"));
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let written: Vec<String> = snapshot(&out.join("evil/files")).into_keys().collect();
    // The page, its Markdown twin, and of the card's files only the ordinary image inside the folder.
    assert_eq!(written, ["assets/ok.png", "index.html", "index.md"], "only the ordinary image inside the folder is copied");
    assert_eq!(fs::read(out.join("evil/files/assets/ok.png")).unwrap(), PNG);
    let everything: Vec<String> = snapshot(&out).into_keys().collect();
    for name in ["secret.png", "linked.png", "fake.png", "big.png", "passwd", ".env", "fifo.png"] {
        assert!(!everything.iter().any(|f| f.ends_with(name)), "{name} was written: {everything:?}");
    }
    let page = fs::read_to_string(out.join("evil/files/index.html")).unwrap();
    let card = card_body(&page);
    let hub = "https://huggingface.co/evil/files";
    for expected in [
        "<img src=\"assets/ok.png\" alt=\"ok\">".to_owned(),
        "<img src=\"assets/ok.png\" alt=\"raw\">".to_owned(),
        format!("<img src=\"{hub}/resolve/main/assets/fake.png\" alt=\"fake\""),
        format!("<img src=\"{hub}/resolve/main/assets/linked.png\" alt=\"linked\""),
        format!("<img src=\"{hub}/resolve/main/linkdir/secret.png\" alt=\"dirlink\""),
        format!("<img src=\"{hub}/resolve/main/assets/fifo.png\" alt=\"fifo\""),
        "<img alt=\"up\">".to_owned(),
        "<img alt=\"encoded\">".to_owned(),
        "<img src=\"https://huggingface.co/etc/passwd\" alt=\"abs\"".to_owned(),
        "<img alt=\"slash\">".to_owned(),
        format!("<a href=\"{hub}/blob/main/big.png\""),
        format!("<a href=\"{hub}/blob/main/.env\""),
        format!("<a href=\"{hub}/blob/main/index.html\""),
        format!("<a href=\"{hub}/blob/main/model.safetensors\""),
    ] {
        assert!(card.contains(&expected), "{expected} in\n{card}");
    }
    for note in [
        "evil/files: card: assets/fake.png is not a PNG, JPEG, GIF, WebP or AVIF image",
        "evil/files: card: assets/linked.png is a symbolic link",
        "evil/files: card: linkdir/secret.png is in a linked folder",
        "evil/files: card: assets/fifo.png is not a regular file",
        &format!("evil/files: card: big.png is {} bytes, over the 4 MiB", PNG.len() + (4 << 20)),
        "evil/files: card: 3 references leaving the model's folder",
    ] {
        assert!(run.stderr.contains(note), "{note} in\n{}", run.stderr);
    }
    let tags = &page[page.find("class=\"tag-groups\"").expect("a tags section")..];
    assert!(tags.contains(">mine</a>") && tags.contains(">extra</a>"), "tags the record lacks are shown");
}

#[test]
fn remote_images_follow_the_setting_and_the_pages_policy() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "org/remote/model.json", r#"{"id": "org/remote"}"#);
    write(&models, "org/remote/README.md", "![chart](https://cdn.example/chart.png) [site](https://cdn.example/)\n");
    write(&models, "org/plain/model.json", r#"{"id": "org/plain"}"#);
    write(&models, "org/plain/README.md", "Just text.\n");
    let strict = "img-src 'self' data:;";
    let widened = "img-src 'self' data: https:;";
    let page = |out: &Path, id: &str| fs::read_to_string(out.join(id).join("index.html")).unwrap();

    let out = tmp.path().join("remote");
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let remote = page(&out, "org/remote");
    assert!(remote.contains(widened) && !remote.contains(strict));
    assert!(remote.contains("<img src=\"https://cdn.example/chart.png\" alt=\"chart\" loading=\"lazy\" referrerpolicy=\"no-referrer\">"));
    assert!(page(&out, "org/plain").contains(strict), "only pages with remote images widen their policy");

    let config = tmp.path().join("local.toml");
    fs::write(&config, "card_images = \"local\"\n").unwrap();
    let out = tmp.path().join("local");
    let run = build_with(&["--config".as_ref(), config.as_os_str()], &models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let local = page(&out, "org/remote");
    assert!(local.contains(strict) && !local.contains(widened));
    assert!(local.contains("<img alt=\"chart\">") && !local.contains("cdn.example/chart.png"), "the image keeps its alt text only");
    assert!(local.contains("href=\"https://cdn.example/\""), "links stay links");
}

#[cfg(unix)]
#[test]
fn an_incremental_build_notices_a_changed_added_or_removed_image() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 6, "base");
    let dir = models.join("ns1/model-1");
    fs::create_dir_all(dir.join("assets")).unwrap();
    fs::create_dir_all(dir.join("images")).unwrap();
    fs::write(dir.join("assets/chart.png"), PNG).unwrap();
    fs::write(dir.join("README.md"), "![chart](assets/chart.png)\n\n![later](images/later.png)\n").unwrap();
    // Stamps of files changed less than 2 s before a build are not trusted:
    // wait, so the next builds trust the stamps and must see the images' own.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    let out = tmp.path().join("dist");
    let first = build(&models, &out, &site_src());
    assert!(first.stderr.contains("(6 rendered, 0 unchanged)"), "{}", first.stderr);
    let page = out.join("ns1/model-1/index.html");
    assert!(fs::read_to_string(&page).unwrap().contains("src=\"assets/chart.png\""));

    let check = |step: &str, page_has: &str| {
        let run = build(&models, &out, &site_src());
        assert!(run.stderr.contains("(1 rendered, 5 unchanged)"), "{step}: {}", run.stderr);
        assert!(fs::read_to_string(&page).unwrap().contains(page_has), "{step}");
        let full = tmp.path().join(format!("full-{}", step.replace(' ', "-")));
        assert_eq!(full_build(&models, &full, &site_src()).code, 0);
        assert_eq!(snapshot(&out), snapshot(&full), "{step}: incremental equals full");
    };
    // Rewritten in place, same size: only the image's own stamp changes.
    let changed = [&PNG[..PNG.len() - 1], b"!"].concat();
    fs::write(dir.join("assets/chart.png"), &changed).unwrap();
    check("changed image", "src=\"assets/chart.png\"");
    assert_eq!(fs::read(out.join("ns1/model-1/assets/chart.png")).unwrap(), changed);

    fs::write(dir.join("images/later.png"), PNG).unwrap();
    check("added image", "src=\"images/later.png\"");
    assert!(out.join("ns1/model-1/images/later.png").is_file());

    fs::remove_file(dir.join("assets/chart.png")).unwrap();
    check("removed image", "src=\"https://huggingface.co/ns1/model-1/resolve/main/assets/chart.png\"");
    assert!(!out.join("ns1/model-1/assets/chart.png").exists(), "a copy no card refers to goes");
}
