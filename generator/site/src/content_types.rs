//! The media type of each kind of file a site holds, by extension: one
//! table for every program that serves or uploads the site (`serve`'s
//! preview, `deploy`'s S3 and WebDAV uploads), so they cannot disagree.
//!
//! It names what the build writes (pages, listings, API files, notebooks,
//! Markdown twins, sitemaps and Atom feeds, both `.xml`, assets) and what
//! it copies from cards (the images of `pages::card_files`); anything else
//! is sent as bytes.

/// Sent for a file whose extension no entry names.
pub const UNKNOWN: &str = "application/octet-stream";

/// `(extension without the dot, lowercase; media type)`.
pub const BY_EXTENSION: &[(&str, &str)] = &[
    ("html", "text/html; charset=utf-8"),
    ("css", "text/css; charset=utf-8"),
    ("js", "text/javascript; charset=utf-8"),
    ("mjs", "text/javascript; charset=utf-8"),
    ("json", "application/json"),
    ("map", "application/json"),
    ("ipynb", "application/x-ipynb+json"),
    ("xml", "application/xml"),
    ("txt", "text/plain; charset=utf-8"),
    // The models' Markdown twins: text, which no browser runs.
    ("md", "text/markdown; charset=utf-8"),
    ("svg", "image/svg+xml"),
    ("png", "image/png"),
    ("jpg", "image/jpeg"),
    ("jpeg", "image/jpeg"),
    ("gif", "image/gif"),
    ("webp", "image/webp"),
    ("avif", "image/avif"),
    ("ico", "image/x-icon"),
    ("woff2", "font/woff2"),
    ("wasm", "application/wasm"),
    ("webmanifest", "application/manifest+json"),
];

/// The extension of the last component of `path` (either separator),
/// lowercased; a dot file (`.nojekyll`) has none.
pub fn extension(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let dot = name.rfind('.').filter(|i| *i > 0)?;
    Some(name[dot + 1..].to_ascii_lowercase())
}

/// The media type of the site file `path`.
pub fn of(path: &str) -> &'static str {
    extension(path)
        .and_then(|ext| BY_EXTENSION.iter().find(|(known, _)| *known == ext))
        .map_or(UNKNOWN, |(_, media_type)| media_type)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_kind_the_site_holds_has_its_type() {
        assert_eq!(of("ns/m/index.html"), "text/html; charset=utf-8");
        assert_eq!(of("NS/M/NOTEBOOK.IPYNB"), "application/x-ipynb+json");
        assert_eq!(of("ns/m/index.md"), "text/markdown; charset=utf-8");
        assert_eq!(of("llms.txt"), "text/plain; charset=utf-8");
        // Card images copied into the site (every extension card_files takes).
        for (name, media_type) in [
            ("a.png", "image/png"),
            ("a.jpg", "image/jpeg"),
            ("a.JPEG", "image/jpeg"),
            ("a.gif", "image/gif"),
            ("a.webp", "image/webp"),
            ("a.avif", "image/avif"),
        ] {
            assert_eq!(of(&format!("ns/m/card-files/{name}")), media_type, "{name}");
        }
        assert_eq!(of(".modelpages-site"), UNKNOWN);
        assert_eq!(of("a.unknown"), UNKNOWN);
        assert_eq!(of("dir.d/file"), UNKNOWN);
    }

    #[test]
    fn extensions_are_unique_and_lowercase() {
        let mut seen = std::collections::BTreeSet::new();
        for (ext, _) in BY_EXTENSION {
            assert_eq!(*ext, ext.to_ascii_lowercase());
            assert!(seen.insert(*ext), "{ext} twice");
        }
    }
}
