//! `sitemap.xml` and `robots.txt`, which need absolute URLs from `--base-url`.
//!
//! The sitemap lists the home page, every listing page and every model
//! page, sorted by address. The protocol allows 50,000 URLs and 50 MB per
//! file; files here hold at most `sitemap_urls` URLs and
//! [`MAX_LISTING_FILE_BYTES`] bytes. A site that fits in one file gets
//! `sitemap.xml` alone; a larger one gets `sitemaps/first.xml` and
//! `sitemaps/<hash>.xml`, cut at content-defined boundaries and named by a
//! hash of their first address (see `keyed`), and `sitemap.xml` becomes
//! the index of them. So a model added or removed changes one sitemap file
//! (and the index only when a file splits or merges), and a model whose
//! downloads change changes none.

use std::sync::Arc;

use modelpages_render::escape_html;
use rayon::prelude::*;

use super::file::{KeyHasher, ListingFile};
use super::keyed::{boundary_hash, pages, Cut};
use super::groups::ListingInput;
use crate::settings::MAX_LISTING_FILE_BYTES;

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

/// `sitemap.xml`, `sitemaps/<name>.xml` when one file is not enough, and
/// `robots.txt`, which names the sitemap. `pages` are the folders of the
/// listing pages, relative to the site root (the home page is `""`).
pub fn sitemap_files<'a>(input: &'a ListingInput<'a>, pages: Vec<String>) -> Vec<ListingFile<'a>> {
    let mut files = vec![ListingFile::ready("robots.txt".into(), robots_txt(input.base_url).into_bytes())];
    files.extend(sitemaps(input, pages));
    files
}

/// `sitemap.xml`, and `sitemaps/<name>.xml` when one file is not enough.
fn sitemaps<'a>(input: &'a ListingInput<'a>, mut paths: Vec<String>) -> Vec<ListingFile<'a>> {
    let base_url = input.base_url;
    // A million addresses and more: sorted, measured and keyed in parallel.
    paths.par_extend(input.models.par_iter().map(|m| format!("{}/", m.id)));
    paths.par_sort_unstable();
    let lengths: Vec<usize> = paths.par_iter().map(|path| url_line_len(base_url, path)).collect();
    let line_bytes = |i: usize| lengths[i];
    let cut = Cut { bytes: Some((&line_bytes, MAX_LISTING_FILE_BYTES - URLSET_HEAD.len() - URLSET_TAIL.len())), ..Cut::at_most(input.settings.sitemap_urls) };
    let runs = pages(paths.len(), |i| boundary_hash(&paths[i]), &cut);
    let paths = Arc::new(paths);
    let urlset = |file: String, range: std::ops::Range<usize>| {
        let mut key = KeyHasher::new("sitemap");
        for path in &paths[range.clone()] {
            key.str(path);
        }
        let paths = Arc::clone(&paths);
        ListingFile::lazy(file, key.finish(), move || {
            let mut xml = String::from(URLSET_HEAD);
            for path in &paths[range.clone()] {
                xml.push_str(&url_line(base_url, path));
            }
            xml.push_str(URLSET_TAIL);
            Ok(xml.into_bytes())
        })
    };
    if runs.len() <= 1 {
        return vec![urlset("sitemap.xml".into(), runs.first().cloned().unwrap_or(0..0))];
    }
    let names: Vec<String> = runs
        .iter()
        .enumerate()
        .map(|(n, range)| {
            let name = if n == 0 { "first".to_owned() } else { format!("{:016x}", boundary_hash(&paths[range.start])) };
            format!("sitemaps/{name}.xml")
        })
        .collect();
    let mut index = String::from(INDEX_HEAD);
    for file in &names {
        index.push_str(&format!("  <sitemap><loc>{}</loc></sitemap>\n", escape_html(&format!("{base_url}{file}"))));
    }
    index.push_str(INDEX_TAIL);
    let mut files: Vec<ListingFile<'a>> = names.into_par_iter().zip(runs).map(|(file, range)| urlset(file, range)).collect();
    files.push(ListingFile::ready("sitemap.xml".into(), index.into_bytes()));
    files
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
