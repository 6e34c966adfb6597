//! End-to-end: the `modelpages` binary on the default corpus and on fixtures.

use std::fs;
use std::path::Path;

use crate::common::*;

fn model_dirs(models: &Path) -> Vec<String> {
    let mut ids = Vec::new();
    for ns in fs::read_dir(models).unwrap() {
        let ns = ns.unwrap();
        if !ns.file_type().unwrap().is_dir() {
            continue;
        }
        for model in fs::read_dir(ns.path()).unwrap() {
            let model = model.unwrap();
            if model.path().join("model.json").is_file() {
                ids.push(format!("{}/{}", ns.file_name().to_string_lossy(), model.file_name().to_string_lossy()));
            }
        }
    }
    ids.sort();
    ids
}

#[test]
fn default_corpus_builds_every_page() {
    let root = repo_root();
    let models = root.join("models");
    let ids = model_dirs(&models);
    assert!(ids.len() >= 40, "the default corpus has at least 40 models, found {}", ids.len());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("built {} models, 0 failed in", ids.len())), "{}", run.stderr);

    let index = fs::read_to_string(out.join("index.html")).unwrap();
    let sitemap = fs::read_to_string(out.join("sitemap.xml")).unwrap();
    let search: serde_json::Value = serde_json::from_slice(&fs::read(out.join("search/index.json")).unwrap()).unwrap();
    // Records marked `"hidden": true` (test fixtures) are built but listed nowhere.
    let hidden: Vec<&String> = ids
        .iter()
        .filter(|id| {
            let record: serde_json::Value = serde_json::from_slice(&fs::read(models.join(id).join("model.json")).unwrap()).unwrap();
            record["hidden"] == true
        })
        .collect();
    assert!(!hidden.is_empty(), "the corpus's fixtures are hidden");
    let listed = ids.len() - hidden.len();
    assert_eq!(search["count"], listed, "the search counts every listed model");
    let mut indexed: Vec<String> = Vec::new();
    let mut page = Some("first.json".to_owned());
    while let Some(name) = page {
        let list: serde_json::Value = serde_json::from_slice(&fs::read(out.join("search/all/name").join(&name)).unwrap()).unwrap();
        indexed.extend(list["models"].as_array().unwrap().iter().map(|m| m[0].as_str().unwrap().to_owned()));
        page = list["next"].as_str().map(str::to_owned);
    }
    assert_eq!(indexed.len(), listed, "the search's listing by name holds every listed model");
    assert_eq!(index.matches("<tr>").count(), 1 + listed.min(100), "the page lists the top 100");
    for id in &ids {
        let page = fs::read_to_string(out.join(id).join("index.html")).unwrap();
        let (ns, name) = id.split_once('/').unwrap();
        assert!(page.contains(&format!("<span class=\"model-name\">{name}</span>")), "{id}");
        assert!(page.contains(&format!("data-copy-text=\"{ns}/{name}\"")), "{id}");
        let shown = !hidden.contains(&id);
        assert_eq!(indexed.contains(id), shown, "search listing lists {id} unless it is hidden");
        assert_eq!(sitemap.contains(&format!("<loc>/{id}/</loc>")), shown, "sitemap lists {id} unless it is hidden");
    }
    assert!(fs::read_to_string(out.join("404.html")).unwrap().contains("Page not found"));
    assert!(fs::read_to_string(out.join("robots.txt")).unwrap().contains("Sitemap: /sitemap.xml"));

    // Assets have content-hashed names and every page links the stylesheet that exists.
    let assets: Vec<String> =
        fs::read_dir(out.join("assets")).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    let css = assets.iter().find(|a| a.starts_with("style.") && a.ends_with(".css")).expect("stylesheet");
    let hash = css.trim_start_matches("style.").trim_end_matches(".css");
    assert_eq!(hash.len(), 12, "{css}");
    assert!(hash.chars().all(|c| c.is_ascii_hexdigit()), "{css}");
    assert!(index.contains(&format!("href=\"/assets/{css}\"")));
    assert_nothing_loads_from_other_hosts(&out);
}

#[test]
fn base_url_shapes_links_and_sitemap() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 3, "hello");
    let out = tmp.path().join("dist");
    let run = build_with(&["--base-url".as_ref(), "https://hub.example/models".as_ref()], &models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sitemap = fs::read_to_string(out.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("<loc>https://hub.example/models/ns1/model-1/</loc>"), "{sitemap}");
    assert!(fs::read_to_string(out.join("robots.txt")).unwrap().contains("Sitemap: https://hub.example/models/sitemap.xml"));
    let index = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(index.contains("href=\"/models/ns1/model-1/\""), "{index}");
    assert!(index.contains("href=\"/models/assets/style."), "{index}");
}

#[test]
fn bad_records_are_reported_and_the_good_ones_still_build() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "good/one/model.json", r#"{"id": "good/one"}"#);
    write(&models, "bad/syntax/model.json", "{\n  \"id\": \"bad/syntax\",\n  \"tags\": [\"a\" \"b\"]\n}\n");
    write(&models, "bad/wrong-id/model.json", r#"{"id": "bad/other"}"#);
    write(&models, "bad/no-record/README.md", "# card only");
    write(&models, "assets/clash/model.json", r#"{"id": "assets/clash"}"#);
    write(&models, "good/One/model.json", r#"{"id": "good/One"}"#);
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 1, "{}", run.stderr);
    let m = models.display();
    for line in [
        format!("error: {m}/bad/syntax/model.json:3:16: expected `,` or `]`"),
        format!("error: {m}/bad/wrong-id/model.json: id \"bad/other\" does not match its folder \"bad/wrong-id\""),
        format!("error: {m}/bad/no-record: no model.json in this model folder"),
        format!("error: {m}/assets/clash/model.json: namespace \"assets\" is reserved for the site's own pages"),
        format!("error: {m}/good/one/model.json: id \"good/one\" differs from \"good/One\" only by case; their pages would collide"),
    ] {
        assert!(run.stderr.lines().any(|l| l == line), "missing line {line:?} in:\n{}", run.stderr);
    }
    assert!(run.stderr.lines().any(|l| l.starts_with("built 1 models, 5 failed in ")), "{}", run.stderr);
    assert!(out.join("good/One/index.html").is_file());
    assert!(!out.join("bad").exists() && !out.join("assets/clash").exists());

    let check: Run = modelpages().arg("check").arg("--models").arg(&models).arg("--site-src").arg(site_src()).output().unwrap().into();
    assert_eq!(check.code, 1);
    assert!(check.stderr.contains("checked 6 models, 5 failed"), "{}", check.stderr);
    assert!(check.stderr.contains("bad/syntax/model.json:3:16:"), "{}", check.stderr);
}

#[test]
fn check_passes_on_a_clean_corpus_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    synthetic_corpus(tmp.path(), 4, "x");
    let before = snapshot(tmp.path());
    let run: Run = modelpages().arg("check").arg("--models").arg(tmp.path()).arg("--site-src").arg(site_src()).output().unwrap().into();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("checked 4 models, 0 failed"), "{}", run.stderr);
    assert_eq!(snapshot(tmp.path()), before);
}

#[test]
fn rebuilds_are_byte_identical() {
    let models = repo_root().join("models");
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    assert_eq!(build(&models, &a, &site_src()).code, 0);
    assert_eq!(build(&models, &b, &site_src()).code, 0);
    let first = snapshot(&a);
    assert!(first.len() > 40);
    assert_eq!(first, snapshot(&b));
    // Rebuilding over an existing output gives the same bytes too.
    assert_eq!(build(&models, &a, &site_src()).code, 0);
    assert_eq!(first, snapshot(&a));
}

#[test]
fn hostile_cards_are_sanitised() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "evil/card/model.json", r#"{"id": "evil/card", "tags": ["<script>alert(1)</script>"]}"#);
    write(&models, "evil/card/README.md",
        "---\nlicense: \"<b onmouseover=alert(2)>mit</b>\"\n---\n<script>alert(3)</script>\n\n\
         <img src=x onerror=\"alert(4)\">\n\n[x](javascript:alert(5))\n\n<a href=\"javascript:alert(6)\">y</a>\n");
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = fs::read_to_string(out.join("evil/card/index.html")).unwrap();
    for bad in ["<script>alert", "onerror", "javascript:", "<b onmouseover"] {
        assert!(!page.contains(bad), "{bad} in page:\n{page}");
    }
    assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "tags are escaped text");
    assert!(page.contains("Content-Security-Policy"), "pages carry a CSP");
}

#[test]
fn a_failed_build_leaves_the_previous_site() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 5, "first");
    let out = tmp.path().join("dist");
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let before = snapshot(&out);

    // A template that fails while rendering pages: the build must stop without swapping.
    let broken = tmp.path().join("site-src");
    copy_tree(&site_src().join("templates"), &broken.join("templates"));
    copy_tree(&site_src().join("static"), &broken.join("static"));
    fs::write(broken.join("templates/model.html"), "{% extends \"base.html\" %}{% block content %}{{ model.no_such_field.x }}{% endblock %}").unwrap();
    write(&models, "ns9/new/model.json", r#"{"id": "ns9/new"}"#);
    let run = build(&models, &out, &broken);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("template model.html"), "{}", run.stderr);
    assert!(run.stderr.contains("was left as it was"), "{}", run.stderr);
    assert_eq!(snapshot(&out), before);
    assert_no_staging_left(tmp.path());

    // Missing templates fail before anything is written.
    fs::remove_file(broken.join("templates/404.html")).unwrap();
    let run = build(&models, &out, &broken);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("template 404.html"), "{}", run.stderr);
    assert_eq!(snapshot(&out), before);
}

#[test]
fn output_that_is_a_file_or_inside_one_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 1, "x");
    let out = tmp.path().join("dist");
    fs::write(&out, "precious").unwrap();
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("exists and is not a folder"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(&out).unwrap(), "precious");

    // An output inside that file: the error names the path that is not a folder.
    let run = build(&models, &out.join("dist"), &site_src());
    assert_eq!(run.code, 1);
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    let line = run.stderr.lines().find(|l| l.starts_with("error: ")).expect("an error line");
    assert!(line.ends_with(&format!("{}: exists and is not a folder; choose another output folder", out.display())), "{line}");
    assert_eq!(fs::read_to_string(&out).unwrap(), "precious");
}


#[test]
fn settings_file_sets_title_and_inference_urls() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "acme/chat/model.json", r#"{"id": "acme/chat", "pipeline_tag": "text-generation", "tags": ["conversational"]}"#);
    let config = tmp.path().join("site.toml");
    fs::write(&config, "title = \"Acme models\"\nrouter_url = \"https://router.acme.example\"\n").unwrap();
    let out = tmp.path().join("dist");
    let run: Run = modelpages()
        .arg("build").arg("--models").arg(&models).arg("--out").arg(&out)
        .arg("--site-src").arg(site_src()).arg("--config").arg(&config)
        .output().unwrap().into();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = fs::read_to_string(out.join("acme/chat/index.html")).unwrap();
    assert!(page.contains("<title>acme/chat · Acme models</title>"), "title from the settings");
    assert!(page.contains("https://router.acme.example/v1/chat/completions"), "router from the settings");
    assert!(!page.contains("router.huggingface.co"));

    // A --config file that is missing or wrong is an error, and nothing is written.
    let missing: Run = modelpages().arg("build").arg("--models").arg(&models).arg("--out").arg(tmp.path().join("x"))
        .arg("--site-src").arg(site_src()).arg("--config").arg(tmp.path().join("nope.toml")).output().unwrap().into();
    assert_eq!(missing.code, 1);
    assert!(missing.stderr.contains("nope.toml"), "{}", missing.stderr);
    fs::write(&config, "router_url = 5\n").unwrap();
    let bad: Run = modelpages().arg("build").arg("--models").arg(&models).arg("--out").arg(tmp.path().join("y"))
        .arg("--site-src").arg(site_src()).arg("--config").arg(&config).output().unwrap().into();
    assert_eq!(bad.code, 1);
    assert!(bad.stderr.contains("site.toml") && bad.stderr.contains("router_url"), "{}", bad.stderr);
    assert!(!tmp.path().join("y").exists());
}

#[test]
fn task_pages_for_known_tasks_only() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "a/classifier/model.json", r#"{"id": "a/classifier", "pipeline_tag": "text-classification"}"#);
    write(&models, "a/odd/model.json", r#"{"id": "a/odd", "pipeline_tag": "../../escape"}"#);
    let out = tmp.path().join("dist");
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let listing = fs::read_to_string(out.join("tasks/index.html")).unwrap();
    assert!(listing.contains("href=\"/tasks/text-classification/\"") && listing.contains("Text Classification"));
    let task = fs::read_to_string(out.join("tasks/text-classification/index.html")).unwrap();
    assert!(task.contains("href=\"/a/classifier/\""));
    let page = fs::read_to_string(out.join("a/classifier/index.html")).unwrap();
    assert!(page.contains("<a href=\"/tasks/text-classification/\">Text Classification</a>"));
    let odd = fs::read_to_string(out.join("a/odd/index.html")).unwrap();
    assert!(!odd.contains("/tasks/.."), "an unknown tag gets no link");
    let written: Vec<String> = walkdir::WalkDir::new(out.join("tasks")).into_iter().map(|e| e.unwrap().path().display().to_string()).collect();
    assert!(written.iter().all(|p| !p.contains("escape")), "{written:?}");
    assert!(!tmp.path().join("escape").exists());
}

/// No page or stylesheet makes the browser fetch from another host, but
/// for cards' `https:` images on pages whose policy allows them, which load
/// lazily and send no referrer.
fn assert_nothing_loads_from_other_hosts(out: &Path) {
    let loads = regex_lite_loads();
    for entry in walkdir::WalkDir::new(out) {
        let entry = entry.unwrap();
        let path = entry.path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else { continue };
        if ext != "html" && ext != "css" {
            continue;
        }
        let text = fs::read_to_string(path).unwrap();
        let remote_images = text.contains("img-src 'self' data: https:;");
        for needle in &loads {
            if remote_images && needle == "<img src=\"https://" {
                for tag in text.split(needle.as_str()).skip(1).map(|rest| &rest[..rest.find('>').unwrap()]) {
                    assert!(tag.ends_with(" loading=\"lazy\" referrerpolicy=\"no-referrer\""), "{}: <img src=\"https://{tag}>", path.display());
                }
                continue;
            }
            assert!(!text.contains(needle.as_str()), "{} loads from another host ({needle})", path.display());
        }
    }
}

/// Markup and CSS that make a browser fetch something: none may name a host.
fn regex_lite_loads() -> Vec<String> {
    let mut needles = Vec::new();
    for scheme in ["http://", "https://", "//"] {
        for prefix in ["<script src=\"", "<img src=\"", "<iframe src=\"", "url(", "@import \"", "<source src=\""] {
            needles.push(format!("{prefix}{scheme}"));
        }
        needles.push(format!("rel=\"stylesheet\" href=\"{scheme}"));
    }
    needles
}

#[cfg(unix)]
#[test]
fn incremental_builds_equal_full_builds_and_rewrite_only_what_changed() {
    use std::os::unix::fs::MetadataExt;
    let inode = |p: &Path| fs::metadata(p).unwrap().ino();
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 30, "first");
    let out = tmp.path().join("dist");
    let first = build(&models, &out, &site_src());
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert!(first.stderr.contains("(30 rendered, 0 unchanged)"), "{}", first.stderr);
    let untouched = out.join("ns1/model-1/index.html");
    let before = inode(&untouched);

    // Change one model's card, add one model, delete one model.
    fs::write(models.join("ns2/model-2/README.md"), "# changed card\n").unwrap();
    write(&models, "ns9/added/model.json", r#"{"id": "ns9/added", "pipeline_tag": "fill-mask", "downloads": 5}"#);
    fs::remove_dir_all(models.join("ns3/model-3")).unwrap();
    let second = build(&models, &out, &site_src());
    assert_eq!(second.code, 0, "{}", second.stderr);
    assert!(second.stderr.contains("built 30 models, 0 failed") && second.stderr.contains("(2 rendered, 28 unchanged)"), "{}", second.stderr);
    assert_eq!(inode(&untouched), before, "an unchanged page is linked, not rewritten");
    assert!(!out.join("ns3/model-3").exists(), "a deleted model's page disappears");
    assert!(fs::read_to_string(out.join("ns2/model-2/index.html")).unwrap().contains("changed card"));

    let full = tmp.path().join("full");
    let run: Run = modelpages().arg("build").arg("--full").arg("--models").arg(&models).arg("--out").arg(&full)
        .arg("--site-src").arg(site_src()).output().unwrap().into();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(snapshot(&out), snapshot(&full), "incremental output equals a full build");

    // A GGUF file put beside a record changes that model's page (its header is
    // read), so the model is rendered again although its record did not change.
    fs::write(models.join("ns4/model-4/weights-Q4_K_M.gguf"), b"not a gguf file").unwrap();
    let with_gguf = build(&models, &out, &site_src());
    assert!(with_gguf.stderr.contains("(1 rendered, 29 unchanged)"), "{}", with_gguf.stderr);
    assert!(fs::read_to_string(out.join("ns4/model-4/index.html")).unwrap().contains("Q4_K_M"));

    // A changed template changes every page: the next build renders them all.
    let changed_src = tmp.path().join("site-src");
    copy_tree(&site_src().join("templates"), &changed_src.join("templates"));
    copy_tree(&site_src().join("static"), &changed_src.join("static"));
    let third = build(&models, &out, &changed_src);
    assert!(third.stderr.contains("(30 rendered, 0 unchanged)"), "{}", third.stderr);
}

/// The ids a listing page's table rows link, in order.
fn row_ids(html: &str) -> Vec<String> {
    html.split("<tr><td><a href=\"/").skip(1).map(|rest| rest.split("/\"").next().unwrap().to_owned()).collect()
}

/// The addresses a page's list of pages by name links.
fn page_links(html: &str) -> Vec<String> {
    let Some(start) = html.find("class=\"page-index-links\"") else { return Vec::new() };
    let list = &html[start..html[start..].find("</ol>").map_or(html.len(), |end| start + end)];
    list.split("<li><a href=\"").skip(1).map(|rest| rest.split('"').next().unwrap().to_owned()).collect()
}

#[test]
fn front_pages_rank_by_downloads_and_pages_by_name_hold_every_model() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 330, "listing");
    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mut by_name: Vec<String> = (0..330).map(|i| format!("ns{}/model-{i}", i % 7)).collect();
    by_name.sort_by_key(|id| id.to_ascii_lowercase());
    for (folder, search) in [("libraries/transformers/", "/?library=transformers"), ("tasks/text-classification/", "/?task=text-classification")] {
        let front = fs::read_to_string(out.join(folder).join("index.html")).unwrap();
        let top = row_ids(&front);
        assert_eq!(top.len(), 100, "{folder}: the 100 most downloaded");
        // synthetic_corpus gives model-i i downloads: the most downloaded first.
        let want: Vec<String> = (230..330).rev().map(|i| format!("ns{}/model-{i}", i % 7)).collect();
        assert_eq!(top, want, "{folder}");
        assert!(front.contains(">Downloads</th>") && front.contains("<td class=\"num\">329</td>"), "{folder} shows their downloads");
        assert!(front.contains("330 models."), "{folder} counts them all on its front page");
        assert!(front.contains(&format!("href=\"{search}\"")), "{folder} links the search");
        // Its pages by name hold every model once, by name, without figures.
        let links = page_links(&front);
        assert!(links.len() >= 2, "{folder}: {} pages by name", links.len());
        let mut listed = Vec::new();
        for (n, link) in links.iter().enumerate() {
            assert!(link.starts_with(&format!("/{folder}models/")), "{link}");
            let html = fs::read_to_string(out.join(link.trim_start_matches('/')).join("index.html")).unwrap();
            assert!(!html.contains(">Downloads</th>") && !html.contains("330 models"), "{link}: no figure, no count");
            listed.extend(row_ids(&html));
            if let Some(next) = links.get(n + 1) {
                assert!(html.contains(&format!("href=\"{next}\" rel=\"next\"")), "{link}: a plain link to the next page");
            }
            assert!(html.contains(&format!("href=\"/{folder}\" rel=\"up\"")), "{link}: and to the front page");
        }
        assert_eq!(listed, by_name, "{folder}: every model once, by name");
    }
    // Namespaces: an index of them, and each one's models, by name.
    let namespaces = fs::read_to_string(out.join("namespaces/index.html")).unwrap();
    assert_eq!(namespaces.matches("<tr><td><a href=").count(), 7);
    assert!(namespaces.contains("<td><a href=\"/ns3/\">ns3</a></td><td class=\"num\">47</td>"), "{namespaces}");
    let ns3 = fs::read_to_string(out.join("ns3/index.html")).unwrap();
    let want: Vec<String> = by_name.iter().filter(|id| id.starts_with("ns3/")).cloned().collect();
    assert_eq!(row_ids(&ns3), want);
}

/// A hub build yields thousands of notes: the first ones are printed with a
/// count of the rest, and `--all-notes` prints every one.
#[test]
fn notes_are_capped_unless_all_are_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    for i in 0..25 {
        // hf-inference serves no text-to-video model: one note each.
        let id = format!("ns/video-{i}");
        write(&models, &format!("{id}/model.json"), &format!(r#"{{"id": "{id}", "pipeline_tag": "text-to-video", "library_name": "diffusers"}}"#));
    }
    let notes = |stderr: &str| stderr.lines().filter(|l| l.starts_with("note: ns/video-")).count();
    let run = build(&models, &tmp.path().join("out"), &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(notes(&run.stderr), 20, "{}", run.stderr);
    assert!(run.stderr.contains("note: ... and 5 more notes (--all-notes prints them all)"), "{}", run.stderr);
    let all = build_with(&["--full".as_ref(), "--all-notes".as_ref()], &models, &tmp.path().join("out"), &site_src());
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert_eq!(notes(&all.stderr), 25, "{}", all.stderr);
    assert!(!all.stderr.contains("more notes"), "{}", all.stderr);
}
