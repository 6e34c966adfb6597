//! Helpers of the listing tests: small synthetic corpora, settings that cut
//! listings small, and what a listing should hold, computed from the records
//! by the rules the site documents (not by the site's own code).

use std::fs;
use std::path::Path;

use super::modelpages;

/// The base URL the listing tests build with: absolute, under a path.
pub const BASE_URL: &str = "https://hub.example/sub/";
/// The site path of the base URL.
pub const BASE_PATH: &str = "/sub/";

/// Listing sizes small enough that a few hundred models fill many pages,
/// shards and sitemap files.
pub const PAGE_SIZE: usize = 7;
pub const SEARCH_PAGE_SIZE: usize = 5;
pub const SHARD_MODELS: usize = 9;
pub const RANKED_MODELS: usize = 12;
pub const STATS_FILES: usize = 8;
pub const SITEMAP_URLS: usize = 50;
pub const API_PAGE_SIZE: usize = 11;
/// Tags a listing row keeps (the render crate's `SUMMARY_TAGS`).
pub const SUMMARY_TAGS: usize = 12;

/// Writes the settings file the listing tests build with.
pub fn write_listing_config(path: &Path) {
    fs::write(
        path,
        format!(
            "base_url = \"{BASE_URL}\"\n[listings]\npage_size = {PAGE_SIZE}\nsearch_page_size = {SEARCH_PAGE_SIZE}\n\
             shard_models = {SHARD_MODELS}\nranked_models = {RANKED_MODELS}\nstats_files = {STATS_FILES}\n\
             sitemap_urls = {SITEMAP_URLS}\napi_page_size = {API_PAGE_SIZE}\n"
        ),
    )
    .unwrap();
}

/// `modelpages synth --minimal`: `count` small records in `dir`.
pub fn synth_minimal(dir: &Path, count: usize) {
    let out = modelpages().args(["synth", "--minimal", "--count", &count.to_string(), "--out"]).arg(dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `modelpages build` with the listing test settings; `--full` when asked.
pub fn build_listings(models: &Path, out: &Path, config: &Path, full: bool) -> super::Run {
    let mut extra: Vec<&std::ffi::OsStr> = vec!["--config".as_ref(), config.as_os_str()];
    if full {
        extra.push("--full".as_ref());
    }
    super::build_with(&extra, models, out, &super::site_src())
}

/// A model as listings show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub id: String,
    pub task: Option<String>,
    pub library: Option<String>,
    pub downloads: u64,
    pub likes: u64,
    pub tags: Vec<String>,
    /// The record's `lastModified`, as written.
    pub updated: Option<String>,
}

impl Listed {
    pub fn namespace(&self) -> &str {
        self.id.split_once('/').unwrap().0
    }

    /// The words search knows the model by (README: runs of ASCII letters
    /// and digits, lowercased, cut to 32; from the id, task, library and
    /// the first tags; each once, at most 64).
    pub fn words(&self) -> Vec<String> {
        let mut words: Vec<String> = Vec::new();
        let texts = std::iter::once(self.id.as_str()).chain(self.task.as_deref()).chain(self.library.as_deref()).chain(self.tags.iter().filter(|t| !t.is_empty() && !t.contains('\n')).take(SUMMARY_TAGS).map(String::as_str));
        for text in texts {
            for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
                let word = word[..word.len().min(32)].to_ascii_lowercase();
                if words.len() < 64 && !words.contains(&word) {
                    words.push(word);
                }
            }
        }
        words
    }
}

/// Listings by name: ids case-folded, then as written.
pub fn name_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.to_ascii_lowercase().cmp(&b.to_ascii_lowercase()).then_with(|| a.cmp(b))
}

/// The ids of `models` most downloaded first, ties by name.
pub fn by_downloads<'a>(models: impl IntoIterator<Item = &'a Listed>) -> Vec<String> {
    let mut models: Vec<&Listed> = models.into_iter().collect();
    models.sort_by(|a, b| b.downloads.cmp(&a.downloads).then_with(|| name_order(&a.id, &b.id)));
    models.into_iter().map(|m| m.id.clone()).collect()
}

/// The ids of `models` most liked first, then most downloaded, then by name.
pub fn by_likes<'a>(models: impl IntoIterator<Item = &'a Listed>) -> Vec<String> {
    let mut models: Vec<&Listed> = models.into_iter().collect();
    models.sort_by(|a, b| b.likes.cmp(&a.likes).then(b.downloads.cmp(&a.downloads)).then_with(|| name_order(&a.id, &b.id)));
    models.into_iter().map(|m| m.id.clone()).collect()
}

/// Every model of `models`, by name.
pub fn listed_models(models: &Path) -> Vec<Listed> {
    let mut all = Vec::new();
    for entry in walkdir::WalkDir::new(models).min_depth(3).max_depth(3) {
        let entry = entry.unwrap();
        if entry.file_name() != "model.json" {
            continue;
        }
        let record: serde_json::Value = serde_json::from_slice(&fs::read(entry.path()).unwrap()).unwrap();
        let text = |key: &str| record[key].as_str().map(str::to_owned);
        all.push(Listed {
            id: text("id").unwrap(),
            task: text("pipeline_tag"),
            library: text("library_name"),
            downloads: record["downloads"].as_u64().unwrap_or(0),
            likes: record["likes"].as_u64().unwrap_or(0),
            tags: record["tags"].as_array().map(|t| t.iter().map(|t| t.as_str().unwrap().to_owned()).collect()).unwrap_or_default(),
            updated: text("lastModified"),
        });
    }
    all.sort_by(|a, b| name_order(&a.id, &b.id));
    all
}

/// The ids the tables of a listing page link, in order (every table's).
pub fn row_ids(html: &str) -> Vec<String> {
    html.split("<tr><td><a href=\"").skip(1).map(|row| row[..row.find('"').unwrap()].trim_start_matches(BASE_PATH).trim_end_matches('/').to_owned()).collect()
}

/// The site paths a page's list of pages by name links, in order.
pub fn page_links(html: &str) -> Vec<String> {
    let Some(start) = html.find("class=\"page-index-links\"") else { return Vec::new() };
    let list = &html[start..start + html[start..].find("</ol>").unwrap()];
    list.split("<li><a href=\"").skip(1).map(|rest| rest[..rest.find('"').unwrap()].to_owned()).collect()
}

/// The site path a page's `rel="next"` link goes to, if it has one.
pub fn next_link(html: &str) -> Option<String> {
    let end = html.find("\" rel=\"next\"")?;
    let start = html[..end].rfind("href=\"")? + 6;
    Some(html[start..end].to_owned())
}

/// The file a site path (under [`BASE_PATH`]) names in `dist`.
pub fn file_of(dist: &Path, site_path: &str) -> std::path::PathBuf {
    let rel = site_path.strip_prefix(BASE_PATH).unwrap_or_else(|| panic!("{site_path} is not under {BASE_PATH}"));
    if rel.is_empty() || rel.ends_with('/') {
        dist.join(rel).join("index.html")
    } else {
        dist.join(rel)
    }
}
