//! End-to-end: the listings of a synthetic hub of 400 models, built with
//! listing sizes cut small (see `common::listings`) so that a few hundred
//! models fill many pages, shards and sitemap files, as millions do with the
//! default sizes. Every listing by name covers every model exactly once and
//! in order, front pages and the search's ranked listings hold the most
//! downloaded, every model is a few plain links from the home page, sitemaps
//! follow the protocol, the search's files hold what a query needs, the
//! stats files every model's figures, and no file passes 2 MB. (The same at
//! 200,000 models: `make test-scale`.)

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::common::listings::*;
use serde_json::Value;

const MODELS: usize = 400;

struct Site {
    _tmp: tempfile::TempDir,
    dist: PathBuf,
    models: Vec<Listed>,
}

/// The site every test here reads, built once.
fn site() -> &'static Site {
    static SITE: OnceLock<Site> = OnceLock::new();
    SITE.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap();
        let models = tmp.path().join("models");
        synth_minimal(&models, MODELS);
        let config = tmp.path().join("site.toml");
        write_listing_config(&config);
        let dist = tmp.path().join("dist");
        let run = build_listings(&models, &dist, &config, false);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let models = listed_models(&models);
        assert_eq!(models.len(), MODELS);
        Site { _tmp: tmp, dist, models }
    })
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// The ids of a listing of pages by name, following `rel="next"` from
/// its first page, and how many pages there were.
fn walk_listing(dist: &Path, first: &str) -> (Vec<String>, usize) {
    let (mut ids, mut pages, mut next) = (Vec::new(), 0, Some(format!("{BASE_PATH}{first}")));
    while let Some(path) = next {
        let html = fs::read_to_string(file_of(dist, &path)).unwrap();
        let rows = row_ids(&html);
        assert!(!rows.is_empty() && rows.len() <= 3 * PAGE_SIZE, "{path}: {} rows", rows.len());
        assert!(!html.contains(">Downloads</th>"), "{path}: pages by name show no figures");
        ids.extend(rows);
        pages += 1;
        next = next_link(&html);
    }
    (ids, pages)
}

/// The ids of the pages a front page links, following index pages down,
/// and how many index pages there were.
fn linked_pages(dist: &Path, html: &str) -> (Vec<String>, usize) {
    let (mut ids, mut indexes) = (Vec::new(), 0);
    for link in page_links(html) {
        let page = fs::read_to_string(file_of(dist, &link)).unwrap();
        if page_links(&page).is_empty() {
            ids.extend(row_ids(&page));
        } else {
            assert!(row_ids(&page).is_empty(), "{link}: an index page lists pages, not models");
            assert!(page.contains("rel=\"up\""), "{link}: links the page above it");
            let (below, more) = linked_pages(dist, &page);
            ids.extend(below);
            indexes += 1 + more;
        }
    }
    (ids, indexes)
}

fn ids_of<'a>(models: impl Iterator<Item = &'a Listed>) -> Vec<String> {
    models.map(|m| m.id.clone()).collect()
}

/// A task's or library's listing: its front page ranks its most
/// downloaded; past a page of them, its pages by name hold them all.
/// Returns how many index pages it has.
fn check_ranked_listing(dist: &Path, folder: &str, members: &[&Listed]) -> usize {
    let front = fs::read_to_string(dist.join(folder).join("index.html")).unwrap();
    let top = by_downloads(members.iter().copied());
    let shown: Vec<String> = row_ids(&front);
    assert_eq!(shown, top[..top.len().min(PAGE_SIZE)], "{folder}: the most downloaded");
    assert!(front.contains(&format!("{} model", members.len())), "{folder}: its count");
    if members.len() <= PAGE_SIZE {
        assert!(page_links(&front).is_empty(), "{folder}: one page holds them all");
        return 0;
    }
    let want = ids_of(members.iter().copied());
    let (linked, indexes) = linked_pages(dist, &front);
    assert_eq!(linked, want, "{folder}: its pages by name, from its front page");
    assert!(page_links(&front).len() <= 2 * PAGE_SIZE, "{folder}: past that many pages, index pages");
    assert_eq!(walk_listing(dist, &format!("{folder}models/")).0, want, "{folder}: its pages by name, one after the other");
    indexes
}

#[test]
fn every_listing_covers_its_models_once_by_name() {
    let Site { dist, models, .. } = site();
    let mut tasks: BTreeMap<&str, Vec<&Listed>> = BTreeMap::new();
    let mut namespaces: Vec<(&str, Vec<String>)> = Vec::new();
    for m in models {
        if let Some(task) = &m.task {
            tasks.entry(task).or_default().push(m);
        }
        match namespaces.last_mut() {
            Some((ns, ids)) if *ns == m.namespace() => ids.push(m.id.clone()),
            _ => namespaces.push((m.namespace(), vec![m.id.clone()])),
        }
    }
    let mut indexes = 0;
    for (task, members) in &tasks {
        indexes += check_ranked_listing(dist, &format!("tasks/{task}/"), members);
    }
    // Libraries: those of the catalogue (the API lists them all).
    let libraries = json(&dist.join("api/libraries.json"));
    let mut with_models = 0;
    for library in libraries["libraries"].as_array().unwrap() {
        let key = library["key"].as_str().unwrap();
        let members: Vec<&Listed> = models.iter().filter(|m| m.library.as_deref() == Some(key)).collect();
        if members.is_empty() {
            let html = fs::read_to_string(dist.join(format!("libraries/{key}/index.html"))).unwrap();
            assert!(html.contains("<p class=\"empty\">") && !html.contains("<tbody>"), "library {key} has no models");
            continue;
        }
        with_models += 1;
        indexes += check_ranked_listing(dist, &format!("libraries/{key}/"), &members);
    }
    assert!(with_models >= 5, "the corpus spreads over libraries");
    assert!(indexes > 0, "the longest listings have index pages");
    // Namespaces: from the namespace index's pages, then each namespace's pages.
    let (listed_namespaces, _) = {
        let (mut names, mut next) = (Vec::new(), Some(format!("{BASE_PATH}namespaces/")));
        while let Some(path) = next {
            let html = fs::read_to_string(file_of(dist, &path)).unwrap();
            names.extend(row_ids(&html));
            next = next_link(&html);
        }
        (names, ())
    };
    assert_eq!(listed_namespaces, namespaces.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>(), "every namespace once, by name");
    let mut seen = HashSet::new();
    for (namespace, want) in &namespaces {
        let (ids, _) = walk_listing(dist, &format!("{namespace}/"));
        assert_eq!(&ids, want, "namespace {namespace}");
        seen.extend(ids);
    }
    assert_eq!(seen.len(), MODELS, "the namespaces' pages list every model once");
    let busiest = namespaces.iter().map(|(_, ids)| ids.len()).max().unwrap();
    assert!(busiest > 5 * PAGE_SIZE, "a namespace long enough for several pages: {busiest}");
}

#[test]
fn every_model_is_a_few_plain_links_from_the_home_page() {
    let Site { dist, models, .. } = site();
    let mut depth: HashMap<PathBuf, usize> = HashMap::from([(dist.join("index.html"), 0)]);
    let mut queue = VecDeque::from([dist.join("index.html")]);
    while let Some(file) = queue.pop_front() {
        let html = fs::read_to_string(&file).unwrap();
        for link in html.split("href=\"").skip(1).map(|s| &s[..s.find('"').unwrap()]) {
            if !link.starts_with(BASE_PATH) || link.contains('?') || link.ends_with(".css") || link.ends_with(".ipynb") || link.ends_with(".json") {
                continue;
            }
            let target = file_of(dist, link);
            if target.extension().is_some_and(|e| e == "html") && !depth.contains_key(&target) {
                assert!(target.is_file(), "{} links {link}, which is missing", file.display());
                depth.insert(target.clone(), depth[&file] + 1);
                queue.push_back(target);
            }
        }
    }
    let deepest = models.iter().map(|m| depth.get(&dist.join(&m.id).join("index.html")).copied().unwrap_or_else(|| panic!("{} unreachable", m.id))).max().unwrap();
    assert!(deepest <= 7, "a model {deepest} clicks from the home page");
}

#[test]
fn sitemaps_follow_the_protocol_and_list_every_page_once() {
    let Site { dist, models, .. } = site();
    let index = fs::read_to_string(dist.join("sitemap.xml")).unwrap();
    assert!(index.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"), "{index}");
    let locs = |xml: &str| -> Vec<String> { xml.split("<loc>").skip(1).map(|s| s[..s.find("</loc>").unwrap()].to_owned()).collect() };
    let files = locs(&index);
    assert!(files.len() >= 10, "{} sitemap files", files.len());
    let mut urls = Vec::new();
    let mut firsts = Vec::new();
    for file in &files {
        // Named by their first address (a hash of it), so none is renamed
        // when a page is added before it; the model pages apart.
        let name = file.strip_prefix(&format!("{BASE_URL}sitemaps/")).and_then(|f| f.strip_suffix(".xml")).unwrap();
        let name = name.strip_prefix("models/").unwrap_or(name);
        assert!(name == "first" || name.len() == 16 && name.bytes().all(|b| b.is_ascii_hexdigit()), "{file}");
        if name == "first" {
            firsts.push(file.clone());
        }
        let path = dist.join(file.strip_prefix(BASE_URL).unwrap());
        let xml = fs::read_to_string(&path).unwrap();
        assert!(xml.len() < 50 << 20 && xml.len() <= modelpages_site::MAX_LISTING_FILE_BYTES);
        assert!(xml.contains("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">") && xml.ends_with("</urlset>\n"));
        let here = locs(&xml);
        assert!(!here.is_empty() && here.len() <= SITEMAP_URLS, "{file}: {} URLs", here.len());
        urls.extend(here);
    }
    // Well-formed XML, by a real parser.
    let parsed = std::process::Command::new("python3")
        .args(["-c", "import sys, xml.etree.ElementTree as E\nfor p in sys.argv[1:]: E.parse(p)"])
        .arg(dist.join("sitemap.xml"))
        .args(files.iter().map(|f| dist.join(f.strip_prefix(BASE_URL).unwrap())))
        .output()
        .unwrap();
    assert!(parsed.status.success(), "{}", String::from_utf8_lossy(&parsed.stderr));
    let unique: HashSet<&String> = urls.iter().collect();
    assert_eq!(unique.len(), urls.len(), "no URL twice");
    assert_eq!(firsts, [format!("{BASE_URL}sitemaps/first.xml"), format!("{BASE_URL}sitemaps/models/first.xml")], "each family starts with its first");
    // Listing pages by address, then model pages by name, as listings list them.
    let model_urls: HashSet<String> = models.iter().map(|m| format!("{BASE_URL}{}/", m.id)).collect();
    let (model_pages, pages): (Vec<&String>, Vec<&String>) = urls.iter().partition(|u| model_urls.contains(*u));
    let mut sorted = pages.clone();
    sorted.sort();
    assert_eq!(sorted, pages, "listing pages by address");
    assert_eq!(urls[..pages.len()].iter().collect::<Vec<_>>(), pages, "listing pages first");
    let mut by_name = model_pages.clone();
    by_name.sort_by_key(|u| (u.to_ascii_lowercase(), (*u).clone()));
    assert_eq!(by_name, model_pages, "model pages by name");
    assert!(urls.iter().all(|u| u.starts_with(BASE_URL) && u.ends_with('/')));
    // Exactly the site's pages: every index.html but the 404 page's.
    let pages: HashSet<String> = walkdir::WalkDir::new(dist)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() == "index.html")
        .map(|e| format!("{BASE_URL}{}", e.path().parent().unwrap().strip_prefix(dist).unwrap().to_str().unwrap()))
        .map(|u| if u.ends_with('/') { u } else { format!("{u}/") })
        .collect();
    assert_eq!(unique.len(), pages.len());
    assert!(pages.iter().all(|p| unique.contains(p)), "every page is in a sitemap");
    assert!(models.iter().all(|m| unique.contains(&format!("{BASE_URL}{}/", m.id))));
    assert_eq!(fs::read_to_string(dist.join("robots.txt")).unwrap(), format!("User-agent: *\nAllow: /\nSitemap: {BASE_URL}sitemap.xml\n"));
}

#[test]
fn no_file_passes_two_megabytes() {
    let Site { dist, .. } = site();
    let mut files = 0;
    for entry in walkdir::WalkDir::new(dist) {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            files += 1;
            let len = entry.metadata().unwrap().len();
            assert!(len <= modelpages_site::MAX_LISTING_FILE_BYTES as u64, "{}: {len} bytes", entry.path().display());
        }
    }
    assert!(files > MODELS * 2);
}

/// The ids of a scope's search listing by name, following `next`, and the
/// first page.
fn read_names(dist: &Path, scope: &str) -> (Vec<String>, Value) {
    let folder = dist.join(format!("search/{scope}/name"));
    let first = json(&folder.join("first.json"));
    let (mut ids, mut page) = (Vec::new(), Some(first.clone()));
    while let Some(doc) = page {
        let rows = doc["models"].as_array().unwrap();
        assert!(!rows.is_empty() && rows.len() <= 3 * SEARCH_PAGE_SIZE, "{scope}");
        ids.extend(rows.iter().map(|r| r[0].as_str().unwrap().to_owned()));
        page = doc["next"].as_str().map(|next| json(&folder.join(next)));
    }
    (ids, first)
}

/// The ids of a scope's ranked search listing, page after page.
fn read_ranked(dist: &Path, scope: &str, order: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for page in 1.. {
        let path = dist.join(format!("search/{scope}/{order}/{page}.json"));
        if !path.exists() {
            break;
        }
        let doc = json(&path);
        let rows = doc["models"].as_array().unwrap();
        assert!(!rows.is_empty() && rows.len() <= SEARCH_PAGE_SIZE, "{}", path.display());
        assert_eq!(doc["page"], page);
        ids.extend(rows.iter().map(|r| r[0].as_str().unwrap().to_owned()));
    }
    ids
}

#[test]
fn search_listings_and_api_pages_cover_their_models_in_order() {
    let Site { dist, models, .. } = site();
    let manifest = json(&dist.join("search/index.json"));
    assert_eq!(manifest["count"], MODELS);
    assert!(!fs::read_to_string(dist.join("search/index.json")).unwrap().contains(&models[0].id), "no model in the manifest");
    let check = |scope: &str, of: &dyn Fn(&Listed) -> bool| {
        let members: Vec<&Listed> = models.iter().filter(|m| of(m)).collect();
        let (names, first) = read_names(dist, scope);
        assert_eq!(names, ids_of(members.iter().copied()), "{scope} by name");
        assert_eq!(first["count"], members.len(), "{scope}: its count on its first page");
        let mut top = by_downloads(members.iter().copied());
        top.truncate(RANKED_MODELS);
        assert_eq!(read_ranked(dist, scope, "downloads"), top, "{scope} by downloads");
        if members.len() > SEARCH_PAGE_SIZE {
            let mut top = by_likes(members.iter().copied());
            top.truncate(RANKED_MODELS);
            assert_eq!(read_ranked(dist, scope, "likes"), top, "{scope} by likes");
        } else {
            assert!(read_ranked(dist, scope, "likes").is_empty(), "{scope}: one page is sorted by the island");
        }
    };
    check("all", &|_| true);
    let tasks: Vec<String> = manifest["tasks"].as_array().unwrap().iter().map(|t| t[0].as_str().unwrap().to_owned()).collect();
    let libraries: Vec<String> = manifest["libraries"].as_array().unwrap().iter().map(|t| t[0].as_str().unwrap().to_owned()).collect();
    for task in &tasks {
        check(&format!("task/{task}"), &|m| m.task.as_deref() == Some(task));
        let api: Vec<String> = api_ids(dist, &format!("api/tasks/{task}/first.json"));
        assert_eq!(api, ids_of(models.iter().filter(|m| m.task.as_deref() == Some(task))), "api task {task}");
    }
    for library in &libraries {
        check(&format!("library/{library}"), &|m| m.library.as_deref() == Some(library));
        let api: Vec<String> = api_ids(dist, &format!("api/libraries/{library}/first.json"));
        assert_eq!(api, ids_of(models.iter().filter(|m| m.library.as_deref() == Some(library))), "api library {library}");
    }
    for pair in manifest["pairs"].as_array().unwrap() {
        let (task, library) = (&tasks[pair[0].as_u64().unwrap() as usize], &libraries[pair[1].as_u64().unwrap() as usize]);
        let of = |m: &Listed| m.task.as_deref() == Some(task) && m.library.as_deref() == Some(library);
        assert_eq!(pair[2].as_u64().unwrap() as usize, models.iter().filter(|m| of(m)).count());
        check(&format!("task-library/{task}/{library}"), &of);
    }
    // A namespace has its pages by name and its stats file, which the island sorts it by.
    let namespaces: HashSet<&str> = models.iter().map(Listed::namespace).collect();
    for namespace in namespaces {
        let scope = format!("namespace/{namespace}");
        let (names, first) = read_names(dist, &scope);
        assert_eq!(names, ids_of(models.iter().filter(|m| m.namespace() == namespace)), "{scope}");
        let stats = first["stats"].as_str().unwrap();
        assert!(json(&dist.join(stats))["namespaces"][namespace].is_object(), "{scope}: its stats file holds it");
        assert!(!dist.join(format!("search/{scope}/downloads")).exists(), "{scope}: no ranked listing");
    }
}

/// Every id of an API listing, following `next` from `first`.
fn api_ids(dist: &Path, first: &str) -> Vec<String> {
    let (mut ids, mut next) = (Vec::new(), Some(format!("{BASE_PATH}{first}")));
    while let Some(path) = next {
        let doc = json(&file_of(dist, &path));
        let page: Vec<String> = doc["models"].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_owned()).collect();
        assert!(!page.is_empty() && page.len() <= API_PAGE_SIZE);
        ids.extend(page);
        next = doc["next"].as_str().map(str::to_owned);
    }
    ids
}

#[test]
fn the_stats_files_hold_every_models_figures() {
    let Site { dist, models, .. } = site();
    let files: Vec<PathBuf> = fs::read_dir(dist.join("stats")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_file()).collect();
    assert!(files.len() <= STATS_FILES && files.len() > 1, "{} stats files", files.len());
    let mut found: HashMap<String, (u64, u64)> = HashMap::new();
    let mut split = 0;
    for file in &files {
        for (namespace, entry) in json(file)["namespaces"].as_object().unwrap() {
            let mut take = |models: &serde_json::Map<String, Value>| {
                for (name, counts) in models {
                    let counts = (counts[0].as_u64().unwrap_or(0), counts[1].as_u64().unwrap_or(0));
                    assert!(found.insert(format!("{namespace}/{name}"), counts).is_none(), "{namespace}/{name} twice");
                }
            };
            match entry.get("pages") {
                // A namespace with many models has files of its own, by name.
                Some(pages) => {
                    split += 1;
                    let folder = file.with_extension("").join(namespace);
                    for (n, page) in pages.as_array().unwrap().iter().enumerate() {
                        let path = match page.as_str() {
                            None => folder.join("first.json"),
                            Some(name) => folder.join(format!("from/{name}.json")),
                        };
                        assert_eq!(page.is_null(), n == 0);
                        take(json(&path)["models"].as_object().unwrap());
                    }
                }
                None => take(entry.as_object().unwrap()),
            }
        }
    }
    assert!(split > 0, "the busiest namespaces have files of their own");
    assert_eq!(found.len(), MODELS);
    for m in models {
        assert_eq!(found[&m.id], (m.downloads, m.likes), "{}", m.id);
    }
}

/// The hops a node lists: each prefix and whether it is a node (its file a top).
fn hops_of(list: &Value) -> Vec<(String, bool)> {
    list.as_array().unwrap().iter().map(|h| (h[0].as_str().unwrap().to_owned(), h[1].as_bool().unwrap())).collect()
}

/// Walks the word trie from the manifest's roots as the island does: the
/// node that answers `word`, and whether its prefix is the word's own.
fn find_shard(dist: &Path, roots: &[(String, bool)], word: &str, cache: &mut HashMap<String, Value>) -> Option<(Value, bool)> {
    let mut hops = roots.to_vec();
    loop {
        let (next, node) = hops.iter().find(|(p, _)| p.starts_with(word) || word.starts_with(p.as_str()))?.clone();
        let kind = if node { "top" } else { "words" };
        let shard = cache.entry(next.clone()).or_insert_with(|| json(&dist.join(format!("search/{kind}/{}/{next}.json", &next[..1])))).clone();
        assert_eq!(shard["prefix"], next.as_str());
        assert_eq!(shard["complete"], !node, "{next}: a leaf's file is a word file, a node's a top");
        if word.len() <= next.len() {
            return Some((shard, true));
        }
        if shard["complete"] == true {
            return Some((shard, false));
        }
        hops = hops_of(&shard["children"]);
        if hops.is_empty() {
            return None;
        }
    }
}

/// The words of a word file's or top's row: its id's, then those it names.
fn row_words(row: &Value, strings: &[&str], at: usize) -> Vec<String> {
    let id = row[0].as_str().unwrap();
    let mut words: Vec<String> = Vec::new();
    for w in id.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).map(|w| w.to_ascii_lowercase()) {
        if !words.contains(&w) {
            words.push(w);
        }
    }
    words.extend(row[at].as_array().unwrap().iter().map(|i| strings[i.as_u64().unwrap() as usize].to_owned()));
    words
}

#[test]
fn every_word_prefix_finds_its_models_through_the_shards() {
    let Site { dist, models, .. } = site();
    let manifest = json(&dist.join("search/index.json"));
    let roots = hops_of(&manifest["roots"]);
    let words: Vec<Vec<String>> = models.iter().map(Listed::words).collect();
    let mut prefixes: Vec<String> = words.iter().flatten().flat_map(|w| (1..=w.len()).map(|n| w[..n].to_owned())).collect();
    prefixes.extend(["zzzz", "q9x", "llamaz"].map(String::from));
    prefixes.sort();
    prefixes.dedup();
    let mut cache = HashMap::new();
    let (mut capped, mut exact_complete) = (0, 0);
    for prefix in &prefixes {
        let matching: Vec<&Listed> = models.iter().zip(&words).filter(|(_, ws)| ws.iter().any(|w| w.starts_with(prefix.as_str()))).map(|(m, _)| m).collect();
        let want = ids_of(matching.iter().copied());
        let Some((shard, exact)) = find_shard(dist, &roots, prefix, &mut cache) else {
            assert!(want.is_empty(), "{prefix}: no shard, but {} models match", want.len());
            continue;
        };
        if shard["complete"] == true {
            // A leaf: every match, by name, without figures.
            let listed: Vec<&str> = shard["models"].as_array().unwrap().iter().map(|m| m[0].as_str().unwrap()).collect();
            assert!(listed.len() <= SHARD_MODELS, "{prefix}");
            if exact {
                assert_eq!(listed, want, "{prefix}: every match, by name");
                exact_complete += 1;
            } else {
                assert!(want.iter().all(|id| listed.contains(&id.as_str())), "{prefix}: a leaf above it lists every match");
            }
            continue;
        }
        assert!(exact, "{prefix}: a node that is not a leaf answers only its own prefix");
        let about = shard["about"].as_u64().unwrap() as f64;
        assert!((about - want.len() as f64).abs() <= want.len() as f64 * 0.05 + 0.5, "{prefix}: about {about} of {}", want.len());
        let listed: Vec<String> = shard["models"].as_array().unwrap().iter().map(|m| m[0].as_str().unwrap().to_owned()).collect();
        let most = by_downloads(matching.iter().copied());
        assert_eq!(listed, most[..most.len().min(SHARD_MODELS)], "{prefix}: the most downloaded, in order");
        capped += 1;
    }
    assert!(capped > 20 && exact_complete > 20, "{capped} capped, {exact_complete} complete");
    // Every word file and top was reached, and each row names its model's other words.
    let count = |folder: &str| walkdir::WalkDir::new(dist.join(folder)).into_iter().filter(|e| e.as_ref().unwrap().file_type().is_file()).count();
    assert_eq!(count("search/words") + count("search/top"), cache.len(), "no file of the trie is out of the walk's reach");
    let by_id: HashMap<&str, &Vec<String>> = models.iter().map(|m| m.id.as_str()).zip(&words).collect();
    for shard in cache.values().filter(|s| s["complete"] == true) {
        let strings: Vec<&str> = shard["strings"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        for row in shard["models"].as_array().unwrap() {
            assert_eq!(&row_words(row, &strings, 3), by_id[row[0].as_str().unwrap()], "{} in {}", row[0], shard["prefix"]);
        }
    }
    for entry in walkdir::WalkDir::new(dist.join("search/top")).into_iter().map(|e| e.unwrap()).filter(|e| e.file_type().is_file()) {
        let top = json(entry.path());
        let strings: Vec<&str> = top["strings"].as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
        for row in top["models"].as_array().unwrap() {
            let id = row[0].as_str().unwrap();
            assert_eq!(&row_words(row, &strings, 5), by_id[id], "{id} in {}", top["prefix"]);
            let model = models.iter().find(|m| m.id == id).unwrap();
            assert_eq!((row[1].as_u64().unwrap(), row[2].as_u64().unwrap()), (model.downloads, model.likes), "{id}: its figures");
        }
    }
}

/// A tag back from the name of its folder (`~` and two hex digits a byte).
fn tag_of_folder(name: &str) -> String {
    let mut bytes = Vec::new();
    let mut rest = name.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        if first == b'~' {
            bytes.push(u8::from_str_radix(std::str::from_utf8(&tail[..2]).unwrap(), 16).unwrap());
            rest = &tail[2..];
        } else {
            bytes.push(first);
            rest = tail;
        }
    }
    String::from_utf8(bytes).unwrap()
}

#[test]
fn every_tag_listing_holds_exactly_the_models_carrying_the_tag() {
    let Site { dist, models, .. } = site();
    // The records' tags as the filters take them (README): the Hub's own,
    // base models (the model tree lists those) and papers (they link arXiv) left out.
    let hub_own = |t: &str| {
        ["endpoints_compatible", "autotrain_compatible", "text-generation-inference", "has_space", "custom_code"].contains(&t)
            || ["region:", "deploy:", "base_model:", "doi:", "template:", "arxiv:"].iter().any(|p| t.starts_with(p))
    };
    let mut want: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for m in models {
        for tag in m.tags.iter().filter(|t| !hub_own(t)) {
            want.entry(tag.clone()).or_default().push(m.id.clone());
        }
    }
    assert!(want.len() > 20 && want.contains_key("license:mit") && want.contains_key("en"), "{:?}", want.keys());
    let mut found = BTreeMap::new();
    for entry in fs::read_dir(dist.join("search/tag")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-_~".contains(&b)), "{name}");
        let (ids, first) = read_names(dist, &format!("tag/{name}"));
        assert!(first.get("count").is_none(), "{name}: a count would rewrite the first page on every add");
        if let Some(next) = first["next"].as_str() {
            let second = json(&dist.join(format!("search/tag/{name}/name/{next}")));
            assert!(second.get("previous").is_none_or(Value::is_null), "{name}: pages are read from the first on");
        }
        // Each row names its model's stats file, which holds the model.
        let bucket = first["buckets"][0].as_u64().unwrap();
        let (namespace, model) = ids[0].split_once('/').unwrap();
        let stats = json(&dist.join(format!("stats/{bucket}.json")));
        assert!(stats["namespaces"][namespace].is_object(), "{name}: stats/{bucket}.json holds {model}'s namespace");
        found.insert(tag_of_folder(&name), ids);
    }
    assert_eq!(found, want, "one listing per tag, each with exactly its models, by name");
}

#[test]
fn listings_show_task_and_library_names_not_keys() {
    let Site { dist, models, .. } = site();
    let model = models.iter().find(|m| m.task.as_deref() == Some("text-generation") && m.library.as_deref() == Some("transformers")).unwrap();
    // The namespace's page by name that lists it.
    let page = walkdir::WalkDir::new(dist.join(model.namespace()))
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name() == "index.html" && !e.path().starts_with(dist.join(&model.id)))
        .map(|e| fs::read_to_string(e.path()).unwrap())
        .find(|html| html.contains(&format!(">{}</a></td>", model.id)))
        .expect("a namespace page lists the model");
    assert!(page.contains("<td>Text Generation</td>") && page.contains("<td>Transformers</td>"), "names shown");
    assert!(!page.contains("<td>text-generation</td>") && !page.contains("<td>transformers</td>"), "no raw keys");
    // The home page's rows likewise: no task key of several words is shown as it is.
    let home = fs::read_to_string(dist.join("index.html")).unwrap();
    let keys: HashSet<&str> = models.iter().filter_map(|m| m.task.as_deref()).filter(|t| t.contains('-')).collect();
    assert!(keys.iter().all(|k| !home.contains(&format!("<td>{k}</td>"))), "home shows task names");
    assert!(home.matches("<td>").count() > PAGE_SIZE, "the home table has rows");
}

/// The day since the epoch of an RFC 3339 `lastModified` (its date part).
fn day_of(stamp: &str) -> i64 {
    let (y, m, d): (i64, i64, i64) = (stamp[..4].parse().unwrap(), stamp[5..7].parse().unwrap(), stamp[8..10].parse().unwrap());
    // Days from civil (proleptic Gregorian), as in Howard Hinnant's algorithm.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
}

/// The languages the search knows a synthetic model by: its tags that are
/// two-letter codes of ISO 639-1 (README: languages are the tags the page
/// groups under Languages; the minimal records carry no card).
fn languages_of(m: &Listed) -> Vec<String> {
    let codes: HashSet<&str> = include_str!("../../render/data/language_codes.txt").lines().filter(|l| !l.starts_with('#')).map(str::trim).collect();
    m.tags.iter().filter(|t| codes.contains(t.as_str()) && t.as_str() != "tf").cloned().collect()
}

/// A row's facets as the strings and codes it names.
fn row_facets(row: &Value, strings: &[Value], at: usize) -> (Vec<String>, Vec<String>, i64) {
    let facets = &row[at];
    let list = |v: &Value| -> Vec<String> { v.as_array().unwrap().iter().map(|i| strings[i.as_u64().unwrap() as usize].as_str().unwrap().to_owned()).collect() };
    (list(&facets[0]), list(&facets[1]), facets[5].as_i64().unwrap())
}

#[test]
fn facet_files_count_and_list_exactly_the_models_of_each_value() {
    let Site { dist, models, .. } = site();
    let facets_text = fs::read(dist.join("search/facets.json")).unwrap();
    assert!(facets_text.len() < 40_000, "the facets file stays small: {} bytes", facets_text.len());
    let facets: Value = serde_json::from_slice(&facets_text).unwrap();
    assert!(!models.iter().any(|m| String::from_utf8_lossy(&facets_text).contains(&format!("\"{}\"", m.id))), "no model in the facets file");
    let by_id: HashMap<&str, &Listed> = models.iter().map(|m| (m.id.as_str(), m)).collect();
    let mut want: BTreeMap<(String, String), Vec<&Listed>> = BTreeMap::new();
    for m in models {
        for language in languages_of(m) {
            want.entry(("language".into(), language)).or_default().push(m);
        }
        for license in m.tags.iter().filter_map(|t| t.strip_prefix("license:")) {
            want.entry(("license".into(), license.to_owned())).or_default().push(m);
        }
    }
    assert!(want.keys().filter(|(k, _)| k == "language").count() >= 3 && want.keys().any(|(k, _)| k == "license"), "{:?}", want.keys());
    for kind in ["language", "license"] {
        let listed: BTreeMap<String, u64> =
            facets[kind].as_array().unwrap().iter().map(|e| (e[0].as_str().unwrap().to_owned(), e[1].as_u64().unwrap())).collect();
        let expected: BTreeMap<String, u64> = want.iter().filter(|((k, _), _)| k == kind).map(|((_, v), ms)| (v.clone(), ms.len() as u64)).collect();
        assert_eq!(listed, expected, "{kind}: every value with its count");
        let counts: Vec<u64> = facets[kind].as_array().unwrap().iter().map(|e| e[1].as_u64().unwrap()).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{kind}: most common first");
    }
    for ((kind, value), members) in &want {
        let folder = value.bytes().map(|b| if b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_' { (b as char).to_string() } else { format!("~{b:02x}") }).collect::<String>();
        let scope = format!("facet/{kind}/{folder}");
        let mut top = by_downloads(members.iter().copied());
        top.truncate(RANKED_MODELS);
        assert_eq!(read_ranked(dist, &scope, "downloads"), top, "{scope} by downloads");
        if members.len() > SEARCH_PAGE_SIZE {
            let mut recent: Vec<&Listed> = members.clone();
            recent.sort_by(|a, b| {
                let day = |m: &Listed| m.updated.as_deref().map(day_of);
                day(b).cmp(&day(a)).then_with(|| name_order(&a.id, &b.id))
            });
            let mut recent = ids_of(recent.into_iter());
            recent.truncate(RANKED_MODELS);
            assert_eq!(read_ranked(dist, &scope, "updated"), recent, "{scope} by recency");
            // Pages by recency show no figures: downloads moving leaves them as they are.
            let page = json(&dist.join(format!("search/{scope}/updated/1.json")));
            assert!(page["models"][0][1].is_number() && page["models"][0][3].is_array(), "[id, task, library, facets]");
        }
        // A language's or licence's pages by name are its tag's.
        assert!(!dist.join(format!("search/{scope}/name")).exists(), "{scope}");
    }
    // Every row of every listing by name carries its model's facets, exactly.
    let mut rows = 0;
    for entry in walkdir::WalkDir::new(dist.join("search")).into_iter().map(|e| e.unwrap()).filter(|e| e.file_type().is_file()) {
        let path = entry.path();
        let in_names = path.parent().is_some_and(|p| p.ends_with("name") || p.parent().is_some_and(|q| q.ends_with("name")));
        if !in_names {
            continue;
        }
        let doc = json(path);
        let strings = doc["strings"].as_array().unwrap();
        for row in doc["models"].as_array().unwrap() {
            let m = by_id[row[0].as_str().unwrap()];
            let (languages, licenses, day) = row_facets(row, strings, 3);
            assert_eq!(languages, languages_of(m), "{}: {}", path.display(), m.id);
            let licence_tags: Vec<String> = m.tags.iter().filter_map(|t| t.strip_prefix("license:")).map(str::to_owned).collect();
            assert_eq!(licenses, licence_tags, "{}: {}", path.display(), m.id);
            assert_eq!(day, m.updated.as_deref().map_or(-1, day_of), "{}", m.id);
            rows += 1;
        }
        // Bounded: at most three pages' worth of rows, each of bounded size.
        let bytes = fs::metadata(path).unwrap().len() as usize;
        assert!(bytes <= 3 * SEARCH_PAGE_SIZE * 700, "{}: {bytes} bytes", path.display());
    }
    assert!(rows > MODELS * 3, "{rows} rows read");
}
