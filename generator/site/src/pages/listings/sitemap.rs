//! `sitemap.xml` and `robots.txt`, which need absolute URLs from `--base-url`.
//!
//! The sitemap lists the home page, every listing page (sorted by address)
//! and every model page (by name, as the listings list them). The protocol
//! allows 50,000 URLs and 50 MB per file; files here hold at most
//! `sitemap_urls` URLs and [`MAX_LISTING_FILE_BYTES`] bytes. A site that
//! fits in one file gets `sitemap.xml` alone; a larger one gets the listing
//! pages in `sitemaps/first.xml` and `sitemaps/<hash>.xml`, the model pages
//! in `sitemaps/models/first.xml` and `sitemaps/models/<hash>.xml`, each
//! family cut at content-defined boundaries and its files named by a hash of
//! their first address (see `keyed`), and `sitemap.xml` becomes the index
//! of them. So a model added or removed changes one sitemap file (and the
//! index only when a file splits or merges), and a model whose downloads
//! change changes none.
//!
//! The model pages' files are cut and keyed from the models alone
//! ([`model_sitemaps`]), while the other listing files are written: at hub
//! scale they are a million addresses, which the listing pages, known only
//! once every other listing file is, need not wait for.

use std::ops::Range;
use std::sync::Arc;

use modelpages_render::escape_html;
use rayon::prelude::*;

use super::file::{KeyHasher, ListingFile};
use super::groups::{Groups, ListingInput};
use super::keyed::{boundary_hash, pages, Cut};
use crate::settings::MAX_LISTING_FILE_BYTES;
use crate::store::manifest::ListingKey;

const URLSET_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const URLSET_TAIL: &str = "</urlset>\n";
const INDEX_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const INDEX_TAIL: &str = "</sitemapindex>\n";

/// The `<url>` line of `path` (site-relative) under `base_url`.
fn url_line(base_url: &str, path: &str) -> String {
    format!("  <url><loc>{}</loc></url>\n", escape_html(&format!("{base_url}{path}")))
}

/// How long [`url_line`] makes a line, without making it.
fn url_line_len(base_url: &str, path: &str) -> usize {
    let escaped = |s: &str| s.len() + s.bytes().map(|b| match b { b'&' => 4, b'<' | b'>' => 3, b'"' => 5, b'\'' => 4, _ => 0 }).sum::<usize>();
    "  <url><loc></loc></url>\n".len() + escaped(base_url) + escaped(path)
}

/// The model pages' part of the sitemaps: the listed models (by name) cut
/// into runs, each with its key.
pub struct ModelSitemaps {
    runs: Vec<Range<usize>>,
    keys: Vec<ListingKey>,
    /// The bytes of each run's lines.
    bytes: Vec<usize>,
}

/// Cuts and keys the model pages' sitemap files (see the overview).
pub fn model_sitemaps(input: &ListingInput<'_>, groups: &Groups<'_>) -> ModelSitemaps {
    let (base_url, models) = (input.base_url, input.models);
    // A model's address is its id and a slash, which needs no escaping.
    let lengths: Vec<usize> = models.par_iter().map(|m| url_line_len(base_url, &m.id) + 1).collect();
    let line_bytes = |i: usize| lengths[i];
    let cut = Cut { bytes: Some((&line_bytes, MAX_LISTING_FILE_BYTES - URLSET_HEAD.len() - URLSET_TAIL.len())), ..Cut::at_most(input.settings.sitemap_urls) };
    let runs = pages(models.len(), |i| groups.boundary(i as u32), &cut);
    let (keys, bytes) = runs
        .par_iter()
        .map(|run| {
            let mut key = KeyHasher::new("sitemap models");
            for model in &models[run.clone()] {
                key.str(&model.id);
            }
            (key.finish(), lengths[run.clone()].iter().sum::<usize>())
        })
        .unzip();
    ModelSitemaps { runs, keys, bytes }
}

/// `sitemap.xml`, the sitemap files when one is not enough, and
/// `robots.txt`, which names the sitemap. `pages` are the folders of the
/// listing pages, relative to the site root (the home page is `""`).
pub fn sitemap_files<'a>(input: &'a ListingInput<'a>, pages: Vec<String>, models: ModelSitemaps) -> Vec<ListingFile<'a>> {
    let mut files = vec![ListingFile::ready("robots.txt".into(), robots_txt(input.base_url).into_bytes())];
    files.extend(sitemaps(input, pages, models));
    files
}

/// `sitemap.xml`, and the files of both families when one file is not enough.
fn sitemaps<'a>(input: &'a ListingInput<'a>, mut paths: Vec<String>, models: ModelSitemaps) -> Vec<ListingFile<'a>> {
    let base_url = input.base_url;
    paths.par_sort_unstable();
    let lengths: Vec<usize> = paths.iter().map(|path| url_line_len(base_url, path)).collect();
    let line_bytes = |i: usize| lengths[i];
    let room = MAX_LISTING_FILE_BYTES - URLSET_HEAD.len() - URLSET_TAIL.len();
    let cut = Cut { bytes: Some((&line_bytes, room)), ..Cut::at_most(input.settings.sitemap_urls) };
    let runs = pages(paths.len(), |i| boundary_hash(&paths[i]), &cut);
    let paths = Arc::new(paths);
    let page_key = |range: &Range<usize>| {
        let mut key = KeyHasher::new("sitemap");
        for path in &paths[range.clone()] {
            key.str(path);
        }
        key.finish()
    };
    let page_lines = |range: Range<usize>| {
        let paths = Arc::clone(&paths);
        move |xml: &mut String| {
            for path in &paths[range.clone()] {
                xml.push_str(&url_line(base_url, path));
            }
        }
    };
    let model_lines = |range: Range<usize>| {
        move |xml: &mut String| {
            for model in &input.models[range.clone()] {
                xml.push_str(&url_line(base_url, &format!("{}/", model.id)));
            }
        }
    };
    let one_file = runs.len() <= 1
        && models.runs.len() <= 1
        && paths.len() + input.models.len() <= input.settings.sitemap_urls
        && lengths.iter().sum::<usize>() + models.bytes.iter().sum::<usize>() <= room;
    if one_file {
        let (pages_run, models_run) = (runs.first().cloned().unwrap_or(0..0), models.runs.first().cloned().unwrap_or(0..0));
        let mut key = KeyHasher::new("sitemap");
        key.key(&page_key(&pages_run)).key(models.keys.first().unwrap_or(&[0; 16]));
        let (pages, models) = (page_lines(pages_run), model_lines(models_run));
        return vec![urlset("sitemap.xml".into(), key.finish(), move |xml| {
            pages(xml);
            models(xml);
        })];
    }
    let name = |family: &str, n: usize, first: u64| if n == 0 { format!("sitemaps/{family}first.xml") } else { format!("sitemaps/{family}{first:016x}.xml") };
    let mut files: Vec<ListingFile<'a>> = runs
        .into_par_iter()
        .enumerate()
        .map(|(n, range)| urlset(name("", n, boundary_hash(&paths[range.start])), page_key(&range), page_lines(range)))
        .collect();
    files.extend(
        models
            .runs
            .into_iter()
            .zip(models.keys)
            .enumerate()
            .map(|(n, (range, key))| urlset(name("models/", n, boundary_hash(&input.models[range.start].id)), key, model_lines(range))),
    );
    let mut index = String::from(INDEX_HEAD);
    for file in &files {
        index.push_str(&format!("  <sitemap><loc>{}</loc></sitemap>\n", escape_html(&format!("{base_url}{}", file.path))));
    }
    index.push_str(INDEX_TAIL);
    files.push(ListingFile::ready("sitemap.xml".into(), index.into_bytes()));
    files
}

/// A sitemap file of the lines `lines` writes, made when `key` changed.
fn urlset<'a>(path: String, key: ListingKey, lines: impl Fn(&mut String) + Send + Sync + 'a) -> ListingFile<'a> {
    ListingFile::lazy(path, key, move || {
        let mut xml = String::from(URLSET_HEAD);
        lines(&mut xml);
        xml.push_str(URLSET_TAIL);
        Ok(xml.into_bytes())
    })
}

/// Allows everything and names the sitemap, which must be an absolute URL.
fn robots_txt(base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_escaped_and_measured() {
        assert_eq!(url_line("https://hub.example/", "c/d&e/"), "  <url><loc>https://hub.example/c/d&amp;e/</loc></url>\n");
        for (base, path) in [("https://hub.example/", "c/d&e/"), ("/", ""), ("/a&b/", "x<y>\"'/")] {
            assert_eq!(url_line_len(base, path), url_line(base, path).len(), "{base} {path}");
        }
        assert_eq!(robots_txt("/"), "User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n");
    }
}
