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

use super::file::{KeyHasher, ListingFile};
use super::folders::{listing_folders, PagedFolder};
use super::groups::{Groups, ListingInput};
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

/// One URL of the sitemap, kept small: a million of them are listed.
#[derive(Clone, Copy)]
enum Loc {
    Home,
    /// Page `page` of listing folder `folder` (an index into the folders).
    Page { folder: u32, page: u32 },
    /// A model's page, by rank.
    Model(u32),
}

/// `sitemap.xml`, `sitemaps/<n>.xml` when one file is not enough, and
/// `robots.txt`, which names the sitemap.
pub fn sitemap_files<'a>(input: &'a ListingInput<'a>, groups: &Groups<'a>) -> Vec<ListingFile<'a>> {
    let mut files = vec![ListingFile::ready("robots.txt".into(), robots_txt(input.base_url).into_bytes())];
    files.extend(sitemaps(input, groups));
    files
}

/// `sitemap.xml`, and `sitemaps/<n>.xml` when one file is not enough.
fn sitemaps<'a>(input: &'a ListingInput<'a>, groups: &Groups<'a>) -> Vec<ListingFile<'a>> {
    let base_url = input.base_url;
    let folders: Arc<Vec<(PagedFolder, usize)>> = Arc::new(listing_folders(input, groups));
    let mut locs: Vec<Loc> = vec![Loc::Home];
    for (i, (_, pages)) in folders.iter().enumerate() {
        locs.extend((1..=*pages).map(|page| Loc::Page { folder: i as u32, page: page as u32 }));
    }
    for (_, ranks) in &groups.namespaces {
        let mut ranks = ranks.clone();
        ranks.sort_unstable_by(|a, b| input.models[*a as usize].id.cmp(&input.models[*b as usize].id));
        locs.extend(ranks.into_iter().map(Loc::Model));
    }
    let path = {
        let folders = Arc::clone(&folders);
        move |loc: Loc| -> String {
            match loc {
                Loc::Home => String::new(),
                Loc::Page { folder, page } => folders[folder as usize].0.folder(page as usize),
                Loc::Model(rank) => format!("{}/", input.models[rank as usize].id),
            }
        }
    };
    let lengths: Vec<usize> = locs.iter().map(|loc| url_line_len(base_url, &path(*loc))).collect();
    let chunks = cut(&lengths, input.settings.sitemap_urls, MAX_LISTING_FILE_BYTES - URLSET_HEAD.len() - URLSET_TAIL.len());
    let locs = Arc::new(locs);
    let urlset = |file: String, range: std::ops::Range<usize>| {
        let mut key = KeyHasher::new("sitemap");
        for loc in &locs[range.clone()] {
            key.str(&path(*loc));
        }
        let (locs, path) = (Arc::clone(&locs), path.clone());
        ListingFile::lazy(file, key.finish(), move || {
            let mut xml = String::from(URLSET_HEAD);
            for loc in &locs[range.clone()] {
                xml.push_str(&url_line(base_url, &path(*loc)));
            }
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
        let file = format!("sitemaps/{}.xml", n + 1);
        index.push_str(&format!("  <sitemap><loc>{}</loc></sitemap>\n", escape_html(&format!("{base_url}{file}"))));
        files.push(urlset(file, range));
    }
    index.push_str(INDEX_TAIL);
    files.push(ListingFile::ready("sitemap.xml".into(), index.into_bytes()));
    files
}

/// Cuts lines (given by their lengths) into runs of at most `most` lines
/// and `bytes` bytes (a line longer than that alone gets a run of its own).
fn cut(lengths: &[usize], most: usize, bytes: usize) -> Vec<std::ops::Range<usize>> {
    let mut runs = Vec::new();
    let (mut start, mut size) = (0, 0);
    for (i, len) in lengths.iter().enumerate() {
        if i > start && (i - start == most || size + len > bytes) {
            runs.push(start..i);
            (start, size) = (i, 0);
        }
        size += len;
    }
    runs.push(start..lengths.len());
    runs
}

/// Allows everything and names the sitemap, which must be an absolute URL.
fn robots_txt(base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_escaped_and_runs_respect_both_limits() {
        assert_eq!(url_line("https://hub.example/", "c/d&e/"), "  <url><loc>https://hub.example/c/d&amp;e/</loc></url>\n");
        for (base, path) in [("https://hub.example/", "c/d&e/"), ("/", ""), ("/a&b/", "x<y>\"'/")] {
            assert_eq!(url_line_len(base, path), url_line(base, path).len(), "{base} {path}");
        }
        let lines: Vec<usize> = (0..10).map(|i| 10 + i).collect();
        assert_eq!(cut(&lines, 3, 1000), [0..3, 3..6, 6..9, 9..10]);
        assert_eq!(cut(&lines, 100, 30), [0..2, 2..4, 4..6, 6..7, 7..8, 8..9, 9..10]);
        assert_eq!(cut(&lines[..1], 1, 5), [0..1], "a long line alone");
        assert_eq!(robots_txt("/"), "User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n");
    }
}
