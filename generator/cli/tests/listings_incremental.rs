//! End-to-end: a rebuild after one model changed, was added or was removed
//! writes exactly the listing files whose bytes change (an unchanged file
//! keeps its inode), those files are only ones that list that model, and
//! the site equals a full build of the same models. Listing sizes are cut
//! small (see `common::listings`) so that the 300 models fill many files.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use crate::common::listings::*;
use crate::common::*;

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

/// The stats file of `model`'s namespace in the site `dist`: the one that names it.
fn stats_file_of(dist: &Path, model: &Listed) -> String {
    for entry in fs::read_dir(dist.join("stats")).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let doc: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
            if doc["namespaces"].get(model.namespace()).is_some() {
                return format!("stats/{}", path.file_name().unwrap().to_str().unwrap());
            }
        }
    }
    panic!("no stats file names {}", model.namespace())
}

/// Whether `path` (a file of the site) is one that may change when `model`
/// changes: its own files, the listings of its task, library and namespace,
/// the indexes and counts, the listing of all models, sitemaps (on an add or
/// a removal), its stats file (`stats`), the site's change feed (its task's
/// and namespace's are in their folders), the listings of its tags, and the
/// word files and tops of prefixes of its words.
fn may_list(path: &str, model: &Listed, stats: &str) -> bool {
    let task = model.task.as_deref().unwrap_or("\u{0}");
    let library = model.library.as_deref().unwrap_or("\u{0}");
    let ns = model.namespace();
    let word_file = path.strip_prefix("search/words/").or_else(|| path.strip_prefix("search/top/"));
    if let Some(prefix) = word_file.and_then(|p| p.split_once('/')).map(|(_, f)| f.trim_end_matches(".json")) {
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
        format!("{}/", stats.trim_end_matches(".json")),
        "search/all/".into(),
        "namespaces/".into(),
        "sitemap".into(),
    ];
    let indexes = [
        "index.html",
        "tasks/index.html",
        "libraries/index.html",
        "api/tasks.json",
        "api/libraries.json",
        "search/index.json",
        "search/facets.json",
        "facets/index.html",
        "feed.xml",
        stats,
    ];
    let tagged = model.tags.iter().filter_map(|t| modelpages_render::tag_file_name(t)).any(|name| path.starts_with(&format!("search/tag/{name}/")));
    // Its language's and licence's facet listings (search files and
    // pages), named as their tags are.
    let faceted = model.tags.iter().filter_map(|t| modelpages_render::tag_file_name(t.strip_prefix("license:").unwrap_or(t))).any(|name| {
        ["search/facet/language", "search/facet/license", "facets/language", "facets/license"].iter().any(|kind| path.starts_with(&format!("{kind}/{name}/")))
    });
    tagged || faceted || owned.iter().any(|p| path.starts_with(p.as_str())) || indexes.contains(&path)
}

/// Builds incrementally, then checks the rewrite was exact: returns the
/// listing files (not the model's own) that changed.
fn rebuild_and_check(tmp: &Path, models: &Path, config: &Path, model: &Listed, what: &str) -> Vec<String> {
    let dist = tmp.join("dist");
    let before = files(&dist);
    let stats = stats_file_of(&dist, model);
    let run = build_listings(models, &dist, config, false);
    assert_eq!(run.code, 0, "{what}: {}", run.stderr);
    let after = files(&dist);
    let mut changed = Vec::new();
    // The model's own files are rewritten whole when it is rendered; the
    // rule here is the listings'.
    let own = |p: &str| p.starts_with(&format!("{}/", model.id)) || p == format!("api/models/{}.json", model.id);
    for (path, (inode, hash)) in after.iter().filter(|(p, _)| !own(p)) {
        let Some((old_inode, old_hash)) = before.get(path) else {
            assert!(may_list(path, model, &stats), "{what}: new file {path} does not list {}", model.id);
            changed.push(path.clone());
            continue;
        };
        assert_eq!(inode != old_inode, hash != old_hash, "{what}: {path} was {} but its bytes {}", if inode != old_inode { "rewritten" } else { "kept" }, if hash != old_hash { "changed" } else { "did not" });
        if hash != old_hash {
            assert!(may_list(path, model, &stats), "{what}: {path} changed but does not list {}", model.id);
            changed.push(path.clone());
        }
    }
    for path in before.keys().filter(|p| !after.contains_key(*p)) {
        assert!(may_list(path, model, &stats), "{what}: {path} removed but did not list {}", model.id);
        changed.push(path.clone());
    }
    let full = tmp.join("full");
    let run = build_listings(models, &full, config, true);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_same_sites(&dist, &full, what);
    fs::remove_dir_all(&full).unwrap();
    changed
}

/// Checks that the sites `a` and `b` hold the same files, byte for byte.
fn assert_same_sites(a: &Path, b: &Path, what: &str) {
    let (a, b) = (snapshot(a), snapshot(b));
    let differ: Vec<&String> = a.keys().chain(b.keys()).filter(|p| a.get(*p) != b.get(*p)).collect();
    assert!(differ.is_empty(), "{what}: the incremental build differs from a full one in {differ:?}");
}

#[cfg(unix)]
#[test]
fn rebuilds_write_exactly_the_listing_files_that_change() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synth_minimal(&models, 300);
    let config = tmp.path().join("site.toml");
    write_listing_config(&config);
    let dist = tmp.path().join("dist");
    let run = build_listings(&models, &dist, &config, false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let listed = listed_models(&models);

    // A card: the model's page changes, no listing does.
    let model = listed[40].clone();
    fs::write(models.join(&model.id).join("README.md"), "# A card\n\nWritten later.\n").unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &model, "a card added");
    assert!(changed.is_empty(), "a card changes no listing: {changed:?}");

    // Downloads: the model moves up the ranked files; no page of its own,
    // no page by name and no word file changes.
    let model = by_downloads(&listed)[150].clone();
    let model = listed.iter().find(|m| m.id == model).unwrap().clone();
    let page = inode(&dist.join(&model.id).join("index.html"));
    // Only the figure changes, as a sync job rewrites it: the rest of the
    // record keeps its bytes.
    let path = models.join(&model.id).join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    let was = format!("\"downloads\": {},", model.downloads);
    assert!(text.contains(&was), "{text}");
    fs::write(&path, text.replace(&was, &format!("\"downloads\": {},", by_downloads_counts(&listed)[2] + 1))).unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &model, "downloads changed");
    assert_eq!(inode(&dist.join(&model.id).join("index.html")), page, "the model's page stays as it is");
    // Its namespace's stats file, or (a namespace with many models) one of its own.
    let stats = stats_file_of(&dist, &model);
    let own_stats = format!("{}/{}/", stats.trim_end_matches(".json"), model.namespace());
    assert!(changed.iter().any(|p| *p == stats || p.starts_with(&own_stats)), "its stats file changes: {changed:?}");
    assert!(changed.iter().any(|p| p.starts_with("search/top/")), "{changed:?}");
    assert!(changed.contains(&"index.html".to_owned()), "it joins the home page's most downloaded: {changed:?}");
    let stable = |p: &&String| p.starts_with("search/words/") || p.contains("/name/") || p.starts_with("sitemap") || p.starts_with(&format!("{}/", model.namespace()));
    assert!(!changed.iter().any(|p| stable(&p)), "files by name stay as they are: {changed:?}");
    assert!(!changed.iter().any(|p| p.ends_with("feed.xml")), "no change feed follows the downloads: {changed:?}");

    // A model changed on the hub (its `lastModified` moves, here past every
    // other): it leads the change feeds of the site, its task and its
    // namespace and the search's orders by recency, and the search's rows
    // that show its day change; no other listing file does.
    let model = listed.iter().find(|m| m.task.is_some() && m.id != listed[40].id).unwrap().clone();
    let path = models.join(&model.id).join("model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    record["lastModified"] = "2030-01-02T03:04:05.000Z".into();
    fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let mut changed = rebuild_and_check(tmp.path(), &models, &config, &model, "lastModified moved");
    changed.sort();
    let mut feeds = vec![
        "feed.xml".to_owned(),
        format!("tasks/{}/feed.xml", model.task.as_deref().unwrap()),
        format!("{}/-/feed.xml", model.namespace()),
    ];
    feeds.sort();
    for feed in &feeds {
        assert!(changed.contains(feed), "{feed} changes: {changed:?}");
    }
    for path in changed.iter().filter(|p| !feeds.contains(p)) {
        let text = fs::read_to_string(dist.join(path)).unwrap();
        let lists = text.contains(&format!("\"{}\"", model.id)) || path.contains("/updated/");
        assert!(path.starts_with("search/") && lists, "{path} changed but neither lists {} nor orders by recency", model.id);
    }
    assert!(changed.contains(&"search/all/updated/1.json".to_owned()), "it leads the order by recency: {changed:?}");
    for feed in &feeds {
        let xml = fs::read_to_string(dist.join(feed)).unwrap();
        let first = xml.split("<entry>").nth(1).unwrap_or_default();
        assert!(first.contains(&format!("<title>{} updated</title>", model.id)) && first.contains("<updated>2030-01-02T03:04:05Z</updated>"), "{feed}: {xml}");
    }

    // A model added, then removed again: a few files of each of its
    // listings, not every page after it.
    let added = Listed { id: format!("{}-added", listed[7].id), ..listed[7].clone() };
    copy_tree(&models.join(&listed[7].id), &models.join(&added.id));
    let path = models.join(&added.id).join("model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    record["id"] = added.id.clone().into();
    fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &added, "a model added");
    assert!(changed.iter().any(|p| p.starts_with("sitemaps/")), "{changed:?}");
    assert_few_changed(&changed, &added);
    fs::remove_dir_all(models.join(&added.id)).unwrap();
    let changed = rebuild_and_check(tmp.path(), &models, &config, &added, "a model removed");
    assert_few_changed(&changed, &added);
}

/// A model added or removed changes at most 100 files besides its tags'
/// listings, and at most 3 pages of each of those (the page it joins or
/// leaves, and the one a page boundary at it moves to or from).
fn assert_few_changed(changed: &[String], model: &Listed) {
    let (tagged, rest): (Vec<&String>, Vec<&String>) = changed.iter().partition(|p| p.starts_with("search/tag/"));
    // A facet value's files (its language's, its licence's): its ranked
    // pages, which it may join in every order, and a few pages by name.
    let facet_value = |p: &str| -> Option<String> {
        let rest = p.strip_prefix("search/facet/").or_else(|| p.strip_prefix("facets/"))?;
        let mut parts = rest.split('/');
        Some(format!("{}/{}", parts.next()?, parts.next().filter(|v| !v.ends_with(".html"))?))
    };
    let (faceted, rest): (Vec<&String>, Vec<&String>) = rest.into_iter().partition(|p| facet_value(p).is_some());
    let mut per_value: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for path in &faceted {
        *per_value.entry(facet_value(path).unwrap()).or_default() += 1;
    }
    let ranked_pages = 3 * RANKED_MODELS.div_ceil(SEARCH_PAGE_SIZE);
    assert!(per_value.values().all(|n| *n <= ranked_pages + 6), "{per_value:?}");
    assert!(rest.len() <= 100, "{} files: {rest:?}", rest.len());
    let folders: std::collections::HashSet<&str> = tagged.iter().map(|p| p.split('/').nth(2).unwrap()).collect();
    assert!(tagged.len() <= 3 * folders.len() && folders.len() <= model.tags.len(), "{} files of {} tags: {tagged:?}", tagged.len(), folders.len());
}

/// The downloads of `models`, highest first.
fn by_downloads_counts(models: &[Listed]) -> Vec<u64> {
    let mut counts: Vec<u64> = models.iter().map(|m| m.downloads).collect();
    counts.sort_by(|a, b| b.cmp(a));
    counts
}

/// A day of hub changes (`synth --day`: every model's downloads moved, a
/// tenth of its likes, a model in a thousand added or edited, fewer
/// removed) renders only the models added or edited, rewrites only files
/// that show figures or list those models, and ends with the site a full
/// build makes, byte for byte, day after day.
#[cfg(unix)]
#[test]
fn days_of_hub_changes_rewrite_few_files_and_equal_a_full_build() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    let count = 3000;
    synth_minimal(&models, count);
    let dist = tmp.path().join("dist");
    // Listings cut small, so that a listing shifting after an added model
    // would show as many more files than the bound below.
    let config = tmp.path().join("site.toml");
    write_listing_config(&config);
    let run = build_listings(&models, &dist, &config, false);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for day in 1..=2 {
        let before = files(&dist);
        let out = modelpages().args(["synth", "--minimal", "--count", &count.to_string(), "--day", &day.to_string(), "--out"]).arg(&models).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stderr).into_owned();
        let run = build_listings(&models, &dist, &config, false);
        assert_eq!(run.code, 0, "{}", run.stderr);
        // Only the models added or whose cards were edited are rendered.
        let rendered: usize = run.stderr.split(" rendered").next().unwrap().rsplit('(').next().unwrap().parse().unwrap();
        let number = |word: &str| -> usize { said.split(&format!(" {word}")).next().unwrap().rsplit(' ').next().unwrap().parse().unwrap() };
        assert_eq!(rendered, number("cards edited") + number("added"), "day {day}: {said} / {}", run.stderr);
        let after = files(&dist);
        let changed: Vec<&String> = after.keys().filter(|p| before.get(*p).map(|b| &b.1) != Some(&after[*p].1)).collect();
        // Front pages of tasks, libraries and facet values show their most
        // downloaded, so they follow the downloads.
        let listings = ["tasks/", "libraries/", "facets/"];
        let pages = changed.iter().filter(|p| p.ends_with("/index.html") && !listings.iter().any(|l| p.starts_with(l))).count();
        assert!(pages <= rendered * 3 + 40, "day {day}: {pages} pages changed: {changed:?}");
        assert!(changed.iter().all(|p| !p.starts_with("api/models/") || rendered > 0), "day {day}");
        assert!(changed.len() * 100 <= after.len() * 25, "day {day}: {} of {} files changed", changed.len(), after.len());
        let full = tmp.path().join("full");
        let run = build_listings(&models, &full, &config, true);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_same_sites(&dist, &full, &format!("day {day}"));
        fs::remove_dir_all(&full).unwrap();
    }

    // The day after, one model added, named as a sync job names it: its own
    // files and the few listing files around it change, whatever the
    // listings' lengths, and the site is still the full build's.
    let listed = listed_models(&models);
    let source = &listed[listed.len() / 2];
    let added = format!("{}-added", source.id);
    copy_tree(&models.join(&source.id), &models.join(&added));
    let path = models.join(&added).join("model.json");
    let mut record: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
    record["id"] = added.clone().into();
    fs::write(&path, serde_json::to_vec_pretty(&record).unwrap()).unwrap();
    let changed_list = tmp.path().join("changed.txt");
    fs::write(&changed_list, format!("{added}\n")).unwrap();
    let before = files(&dist);
    let extra: [&std::ffi::OsStr; 4] = ["--config".as_ref(), config.as_os_str(), "--changed".as_ref(), changed_list.as_os_str()];
    let run = build_with_env(&extra, &models, &dist, &site_src(), &[("MODELPAGES_TIMINGS", "1")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The groups and the search's word index were carried on from the
    // previous build's, not made afresh; the files below are the full
    // build's all the same.
    assert!(run.stderr.contains("groups carried on") && run.stderr.contains("word index carried on"), "{}", run.stderr);
    // And so were the search trie's nodes, all but those new to it.
    let nodes = run.stderr.split(" nodes carried on").next().unwrap().rsplit(", ").next().unwrap();
    let (carried, all) = nodes.split_once(" of ").unwrap_or_else(|| panic!("{}", run.stderr));
    let (carried, all): (usize, usize) = (carried.parse().unwrap(), all.parse().unwrap());
    assert!(all > 50 && carried + 5 >= all, "{carried} of {all} trie nodes carried on");
    let after = files(&dist);
    // Files written, rewritten or removed.
    let changed: std::collections::BTreeSet<&String> =
        after.keys().chain(before.keys()).filter(|p| before.get(*p).map(|b| &b.1) != after.get(*p).map(|a| &a.1)).collect();
    assert!(changed.contains(&format!("{added}/index.html")), "the added model has its page: {changed:?}");
    assert!(changed.len() <= 100, "one model added changed {} files: {changed:?}", changed.len());
    let full = tmp.path().join("full");
    let run = build_listings(&models, &full, &config, true);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_same_sites(&dist, &full, "one model added with --changed");
}
