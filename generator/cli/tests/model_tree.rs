//! End-to-end: the model tree is a dependency between models' pages. A base
//! lists its derivatives, a derivative links its base when the base is on
//! the site; adding, changing, hiding or removing one model re-renders the
//! others whose tree changed, and every incremental build equals a full
//! build of the same models, byte for byte.

use std::fs;
use std::path::Path;

use crate::common::*;

const BASE: &str = "org/base";

fn record(id: &str, downloads: u64, extra: &str) -> String {
    format!(r#"{{"id": "{id}", "pipeline_tag": "text-classification", "library_name": "transformers", "downloads": {downloads}{extra}}}"#)
}

fn derivative(models: &Path, id: &str, relation: &str, downloads: u64, extra: &str) {
    let tags = format!(r#", "tags": ["base_model:{relation}:{BASE}", "base_model:{BASE}"]{extra}"#);
    write(models, &format!("{id}/model.json"), &record(id, downloads, &tags));
}

fn page(dist: &Path, id: &str) -> String {
    fs::read_to_string(dist.join(id).join("index.html")).unwrap()
}

/// The derivatives a base's page links, in order.
fn derivatives_on(html: &str) -> Vec<String> {
    html.split("class=\"tree-derivative\" href=\"/")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().trim_end_matches('/').to_owned())
        .collect()
}

/// Builds incrementally into `dist`, fully into a second folder, and
/// checks the two sites are the same bytes.
fn build_and_compare(tmp: &Path, models: &Path, what: &str) {
    let site_src = site_src();
    let run = build(models, &tmp.join("dist"), &site_src);
    assert_eq!(run.code, 0, "{what}: {}", run.stderr);
    let full = tmp.join(format!("full-{}", what.replace(' ', "-")));
    let run = full_build(models, &full, &site_src);
    assert_eq!(run.code, 0, "{what}: {}", run.stderr);
    let (incremental, full) = (snapshot(&tmp.join("dist")), snapshot(&full));
    let differ: Vec<&String> = incremental.keys().chain(full.keys()).filter(|k| incremental.get(*k) != full.get(*k)).collect();
    assert!(differ.is_empty(), "{what}: incremental and full builds differ in {differ:?}");
}

#[test]
fn incremental_builds_keep_bases_and_derivatives_right() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, &format!("{BASE}/model.json"), &record(BASE, 1000, ""));
    write(&models, "other/unrelated/model.json", &record("other/unrelated", 5, ""));
    derivative(&models, "x/ft-a", "finetune", 10, "");
    build_and_compare(tmp.path(), &models, "first build");
    let dist = tmp.path().join("dist");
    assert_eq!(derivatives_on(&page(&dist, BASE)), ["x/ft-a"]);
    assert!(page(&dist, "x/ft-a").contains(&format!("class=\"tree-base\" href=\"/{BASE}/\"")), "the derivative links its base");
    let unrelated = inode(&dist.join("other/unrelated/index.html"));

    // A new derivative of a higher popularity class (a decade more
    // downloads): the base lists it first.
    derivative(&models, "y/ft-b", "finetune", 500, "");
    build_and_compare(tmp.path(), &models, "derivative added");
    assert_eq!(derivatives_on(&page(&dist, BASE)), ["y/ft-b", "x/ft-a"]);
    assert_eq!(inode(&dist.join("other/unrelated/index.html")), unrelated, "a model outside the tree is not rendered again");

    // Downloads moving within their decade change no page: the base ranks
    // its derivatives by class, and no page shows a model's own figures.
    let base = inode(&dist.join(BASE).join("index.html"));
    let derivative_page = inode(&dist.join("x/ft-a/index.html"));
    derivative(&models, "x/ft-a", "finetune", 97, "");
    build_and_compare(tmp.path(), &models, "derivative downloads moved");
    assert_eq!(inode(&dist.join(BASE).join("index.html")), base, "the base's page is not rendered again");
    assert_eq!(inode(&dist.join("x/ft-a/index.html")), derivative_page, "nor the derivative's");

    // Downloads crossing a decade change the order; a new relation adds a group.
    derivative(&models, "x/ft-a", "finetune", 9999, "");
    derivative(&models, "z/q", "quantized", 1, "");
    build_and_compare(tmp.path(), &models, "derivative changed");
    assert_eq!(derivatives_on(&page(&dist, BASE)), ["x/ft-a", "y/ft-b", "z/q"]);
    assert!(page(&dist, BASE).contains(">1 quantized model</h3>"));

    // Hidden: built, but in no list.
    derivative(&models, "y/ft-b", "finetune", 500, r#", "hidden": true"#);
    build_and_compare(tmp.path(), &models, "derivative hidden");
    assert_eq!(derivatives_on(&page(&dist, BASE)), ["x/ft-a", "z/q"]);
    assert!(dist.join("y/ft-b/index.html").exists());

    // A hidden base: its page is built, but the page of a model naming it
    // does not link it there; it links the hub, as for a base not on the site.
    write(&models, "acme/secret/model.json", &record("acme/secret", 1, r#", "hidden": true"#));
    let names_secret = r#", "tags": ["base_model:finetune:acme/secret"]"#;
    write(&models, "x/from-secret/model.json", &record("x/from-secret", 1, names_secret));
    build_and_compare(tmp.path(), &models, "hidden base");
    let from_secret = page(&dist, "x/from-secret");
    assert!(!from_secret.contains("href=\"/acme/secret/\""), "{from_secret}");
    assert!(from_secret.contains("class=\"tree-base\" href=\"https://huggingface.co/acme/secret\""));
    assert!(dist.join("acme/secret/index.html").exists());
    // Listed again: the derivative's page links it on the site.
    write(&models, "acme/secret/model.json", &record("acme/secret", 1, ""));
    build_and_compare(tmp.path(), &models, "hidden base listed");
    assert!(page(&dist, "x/from-secret").contains("class=\"tree-base\" href=\"/acme/secret/\""));

    // Removed.
    fs::remove_dir_all(models.join("z")).unwrap();
    build_and_compare(tmp.path(), &models, "derivative removed");
    assert_eq!(derivatives_on(&page(&dist, BASE)), ["x/ft-a"]);

    // The base removed: its derivative links the hub instead.
    fs::remove_dir_all(models.join("org")).unwrap();
    build_and_compare(tmp.path(), &models, "base removed");
    assert!(page(&dist, "x/ft-a").contains(&format!("class=\"tree-base\" href=\"https://huggingface.co/{BASE}\"")));
}

#[test]
fn a_base_with_many_derivatives_links_a_page_of_them_all() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, &format!("{BASE}/model.json"), &record(BASE, 1000, ""));
    for i in 0..7 {
        derivative(&models, &format!("d/ft-{i}"), "finetune", 10u64.pow(i), "");
    }
    build_and_compare(tmp.path(), &models, "many derivatives");
    let dist = tmp.path().join("dist");
    let html = page(&dist, BASE);
    assert_eq!(derivatives_on(&html), ["d/ft-6", "d/ft-5", "d/ft-4", "d/ft-3", "d/ft-2"], "the top five on the page");
    assert!(html.contains(">7 fine-tunes</h3>"));
    assert!(html.contains(&format!("href=\"/{BASE}/derivatives/\"")));
    let all = fs::read_to_string(dist.join(BASE).join("derivatives/index.html")).unwrap();
    assert_eq!(derivatives_on(&all).len(), 7);
}
