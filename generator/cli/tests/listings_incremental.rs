//! End-to-end: a rebuild after one model changed, was added or was removed
//! writes exactly the listing files whose bytes change (an unchanged file
//! keeps its inode), those files are only ones that list that model, and
//! the site equals a full build of the same models. Listing sizes are cut
//! small (see `common::listings`) so that the 300 models fill many files.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::listings::*;
use common::*;

/// Every file of a site: its inode and the hash of its bytes.
fn files(dist: &Path) -> BTreeMap<String, (u64, String)> {
    walkdir::WalkDir::new(dist)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(dist).unwrap().to_string_lossy().into_owned();
            (rel, (inode(e.path()), blake3::hash(&fs::read(e.path()).unwrap()).to_hex().to_string()))
        })
        .collect()
}

/// Whether `path` (a file of the site) is one that may change when `model`
/// changes: its own files, the listings of its task, library and namespace,
/// the indexes and counts, the listing of all models, sitemaps (on an add or
/// a removal), and the shards of prefixes of its words.
fn may_list(path: &str, model: &Listed) -> bool {
    let task = model.task.as_deref().unwrap_or("\u{0}");
    let library = model.library.as_deref().unwrap_or("\u{0}");
    let ns = model.namespace();
    if let Some(prefix) = path.strip_prefix("search/words/").and_then(|p| p.split_once('/')).map(|(_, f)| f.trim_end_matches(".json")) {
        return model.words().iter().any(|w| w.starts_with(prefix));
    }
    let owned = [
        format!("{}/", model.id),
        format!("api/models/{}.json", model.id),
        format!("tasks/{task}/"),
        format!("libraries/{library}/"),
        format!("{ns}/"),
        format!("api/tasks/{task}/"),
        format!("api/libraries/{library}/"),
        format!("search/task/{task}/"),
        format!("search/library/{library}/"),
        format!("search/task-library/{task}/{library}/"),
        format!("search/namespace/{ns}/"),
        "search/all/".into(),
        "namespaces/".into(),
        "sitemap".into(),
    ];
    let indexes = ["index.html", "tasks/index.html", "libraries/index.html", "api/tasks.json", "api/libraries.json", "search/index.json"];
    owned.iter().any(|p| path.starts_with(p.as_str())) || indexes.contains(&path)
}

/// Builds incrementally, then checks the rewrite was exact: returns the
/// listing files (not the model's own) that changed.
fn rebuild_and_check(tmp: &Path, models: &Path, config: &Path, model: &Listed, what: &str) -> Vec<String> {
    let dist = tmp.join("dist");
    let before = files(&dist);
    let run = build_listings(models, &dist, config, false);
    assert_eq!(run.code, 0, "{what}: {}", run.stderr);
    let after = files(&dist);
    let mut changed = Vec::new();
    // The model's own files are rewritten whole when it is rendered; the
    // rule here is the listings'.
    let own = |p: &str| p.starts_with(&format!("{}/", model.id)) || p == format!("api/models/{}.json", model.id);
    for (path, (inode, hash)) in after.iter().filter(|(p, _)| !own(p)) {
        let Some((old_inode, old_hash)) = before.get(path) else {
            assert!(may_list(path, model), "{what}: new file {path} does not list {}", model.id);
            changed.push(path.clone());
            continue;
        };
        assert_eq!(inode != old_inode, hash != old_hash, "{what}: {path} was {} but its bytes {}", if inode != old_inode { "rewritten" } else { "kept" }, if hash != old_hash { "changed" } else { "did not" });
        if hash != old_hash {
            assert!(may_list(path, model), "{what}: {path} changed but does not list {}", model.id);
            changed.push(path.clone());
        }
    }
    for path in before.keys().filter(|p| !after.contains_key(*p)) {
        assert!(may_list(path, model), "{what}: {path} removed but did not list {}", model.id);
    }
    let full = tmp.join("full");
    let run = build_listings(models, &full, config, true);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (incremental, full_site) = (snapshot(&dist), snapshot(&full));
    let differ: Vec<&String> = incremental.keys().chain(full_site.keys()).filter(|p| incremental.get(*p) != full_site.get(*p)).collect();
    assert!(differ.is_empty(), "{what}: the incremental build differs from a full one in {differ:?}");
    fs::remove_dir_all(&full).unwrap();
    changed
}

#[cfg(unix)]
#[test]
fn rebuilds_write_exactly_the_listing_files_that_change() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synth_minimal(&models, 300);
    let config = tmp.path().join("site.toml");
    write_listing_config(&config);
    let run = build_listings(&models, &tmp.path().join("dist"), &config, false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let listed = listed_models(&models);
    let total = files(&tmp.path().join("dist")).len();

    // A card: the model's page changes, no listing does.
    let model = listed[40].clone();
    fs::write(models.join(&model.id).join("README.md"), "# A card\n\nWritten later.\n").unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &model, "a card added");
    assert!(changed.is_empty(), "a card changes no listing: {changed:?}");

    // Downloads: the model moves up its listings.
    let model = listed[150].clone();
    let path = models.join(&model.id).join("model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    record["downloads"] = (listed[20].downloads + 1).into();
    fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &model, "downloads changed");
    assert!(changed.iter().any(|p| p.starts_with("search/words/")), "{changed:?}");
    assert!(changed.iter().any(|p| p.starts_with(&format!("{}/", model.namespace()))), "{changed:?}");
    assert!(changed.len() < total / 10, "{} of {total} files", changed.len());

    // A model added, then removed again.
    let added = Listed { id: format!("{}-added", listed[7].id), ..listed[7].clone() };
    copy_tree(&models.join(&listed[7].id), &models.join(&added.id));
    let path = models.join(&added.id).join("model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    record["id"] = added.id.clone().into();
    fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &added, "a model added");
    assert!(changed.iter().any(|p| p.starts_with("sitemaps/")), "{changed:?}");
    fs::remove_dir_all(models.join(&added.id)).unwrap();
    rebuild_and_check(tmp.path(), &models, &config, &added, "a model removed");
}
