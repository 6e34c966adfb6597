//! `sitemap.xml` and `robots.txt`, which need absolute URLs from `--base-url`.
//!
//! The sitemap lists the home page, every page of every listing and every
//! model page. The protocol allows 50,000 URLs and 50 MB per file; files
//! here hold at most `sitemap_urls` URLs and [`MAX_LISTING_FILE_BYTES`]
//! bytes. A site that fits in one file gets `sitemap.xml` alone; a larger
//! one gets `sitemaps/1.xml`, `sitemaps/2.xml`, ... and `sitemap.xml`
//! becomes the index of them. Models are listed by namespace and name, so
//! a model whose downloads change moves in no sitemap file.

use std::sync::Arc;

use modelpages_render::escape_html;

use super::html::listing_folders;
use super::{Groups, KeyHasher, ListingFile, ListingInput};
use crate::settings::MAX_LISTING_FILE_BYTES;

const URLSET_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const URLSET_TAIL: &str = "</urlset>\n";
const INDEX_HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
const INDEX_TAIL: &str = "</sitemapindex>\n";

/// The `<url>` line of `path` (site-relative) under `base_url`.
fn url_line(base_url: &str, path: &str) -> String {
    format!("  <url><loc>{}</loc></url>\n", escape_html(&format!("{base_url}{path}")))
}

/// `sitemap.xml`, and `sitemaps/<n>.xml` when one file is not enough.
pub fn sitemap_files<'a>(input: &ListingInput<'a>, groups: &Groups<'a>) -> Vec<ListingFile<'a>> {
    let base_url = input.base_url;
    let mut lines: Vec<String> = vec![url_line(base_url, "")];
    for (folder, pages) in listing_folders(input, groups) {
        lines.extend((1..=pages).map(|n| url_line(base_url, &folder.folder(n))));
    }
    for (_, ranks) in &groups.namespaces {
        let mut ids: Vec<&str> = ranks.iter().map(|&r| input.models[r as usize].id.as_str()).collect();
        ids.sort_unstable();
        lines.extend(ids.into_iter().map(|id| url_line(base_url, &format!("{id}/"))));
    }
    let chunks = cut(&lines, input.settings.sitemap_urls, MAX_LISTING_FILE_BYTES - URLSET_HEAD.len() - URLSET_TAIL.len());
    let lines = Arc::new(lines);
    let urlset = |path: String, range: std::ops::Range<usize>| {
        let mut key = KeyHasher::new("sitemap");
        lines[range.clone()].iter().for_each(|line| {
            key.str(line);
        });
        let lines = Arc::clone(&lines);
        ListingFile::lazy(path, key.finish(), move || {
            let body: usize = lines[range.clone()].iter().map(String::len).sum();
            let mut xml = String::with_capacity(URLSET_HEAD.len() + body + URLSET_TAIL.len());
            xml.push_str(URLSET_HEAD);
            lines[range.clone()].iter().for_each(|line| xml.push_str(line));
            xml.push_str(URLSET_TAIL);
            Ok(xml.into_bytes())
        })
    };
    if chunks.len() == 1 {
        return vec![urlset("sitemap.xml".into(), chunks[0].clone())];
    }
    let mut index = String::from(INDEX_HEAD);
    let mut files = Vec::with_capacity(chunks.len() + 1);
    for (n, range) in chunks.into_iter().enumerate() {
        let path = format!("sitemaps/{}.xml", n + 1);
        index.push_str(&format!("  <sitemap><loc>{}</loc></sitemap>\n", escape_html(&format!("{base_url}{path}"))));
        files.push(urlset(path, range));
    }
    index.push_str(INDEX_TAIL);
    files.push(ListingFile::ready("sitemap.xml".into(), index.into_bytes()));
    files
}

/// Cuts `lines` into runs of at most `most` lines and `bytes` bytes (a
/// line longer than that alone gets a run of its own).
fn cut(lines: &[String], most: usize, bytes: usize) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        if i > start && (i - start == most || size + line.len() > bytes) {
            runs.push(start..i);
            (start, size) = (i, 0);
        }
        size += line.len();
    }
    runs.push(start..lines.len());
    runs
}

pub fn robots_txt(base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_escaped_and_runs_respect_both_limits() {
        assert_eq!(url_line("https://hub.example/", "c/d&e/"), "  <url><loc>https://hub.example/c/d&amp;e/</loc></url>\n");
        let lines: Vec<String> = (0..10).map(|i| "x".repeat(10 + i)).collect();
        assert_eq!(cut(&lines, 3, 1000), [0..3, 3..6, 6..9, 9..10]);
        assert_eq!(cut(&lines, 100, 30), [0..2, 2..4, 4..6, 6..7, 7..8, 8..9, 9..10]);
        assert_eq!(cut(&lines[..1], 1, 5), [0..1], "a long line alone");
        assert_eq!(robots_txt("/"), "User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n");
    }
}
