//! `sitemap.xml` and `robots.txt`, which need absolute URLs from `--base-url`.

use modelpages_render::escape_html;

/// A sitemap listing the home page and every page URL in `paths`
/// (site-relative, e.g. `org/model/`), in the order given.
pub fn sitemap_xml<'a>(base_url: &str, paths: impl IntoIterator<Item = &'a str>) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in std::iter::once("").chain(paths) {
        xml.push_str("  <url><loc>");
        xml.push_str(&escape_html(&format!("{base_url}{path}")));
        xml.push_str("</loc></url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

pub fn robots_txt(base_url: &str) -> String {
    format!("User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitemap_lists_home_then_pages_with_escaping() {
        let xml = sitemap_xml("https://hub.example/", ["a/b/", "c/d&e/"]);
        assert!(xml.contains("<loc>https://hub.example/</loc>"));
        assert!(xml.contains("<loc>https://hub.example/a/b/</loc>"));
        assert!(xml.contains("<loc>https://hub.example/c/d&amp;e/</loc>"));
        assert_eq!(robots_txt("/"), "User-agent: *\nAllow: /\nSitemap: /sitemap.xml\n");
    }
}
