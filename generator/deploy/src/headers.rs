//! `Content-Type` and `Cache-Control` for each file sent to a host that keeps
//! them (S3, WebDAV; a local folder's web server decides its own).
//!
//! Assets have a hash of their bytes in their names (`assets/style.<hash>.css`),
//! so a browser or CDN may keep them for a year without asking again. Pages
//! and listings keep their names when they change, so they are cached
//! briefly. `[deploy.cache_control]` and `[deploy.content_types]` in
//! `modelpages.toml` override these defaults rule by rule. A cache rule is a
//! folder (`assets/`; the longest that holds the file wins), else an
//! extension (`.html`), else `*`.

use std::collections::BTreeMap;

use modelpages_site::content_types;
use modelpages_site::settings::DeploySettings;

/// Hashed assets: never changed under the same name.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Everything else: pages, listings, API files.
pub const SHORT: &str = "public, max-age=300";

const DEFAULT_CACHE: [(&str, &str); 3] = [("assets/", IMMUTABLE), (".html", SHORT), ("*", SHORT)];

/// Bytes no rule names.
const UNKNOWN_TYPE: &str = content_types::UNKNOWN;

/// The headers of every file, defaults overlaid with the settings.
#[derive(Debug, Clone)]
pub struct Headers {
    cache_control: BTreeMap<String, String>,
    content_types: BTreeMap<String, String>,
}

impl Headers {
    pub fn new(settings: &DeploySettings) -> Headers {
        let mut cache_control: BTreeMap<String, String> =
            DEFAULT_CACHE.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        cache_control.extend(settings.cache_control.iter().map(|(k, v)| (k.clone(), v.clone())));
        // The site's own table, keyed as the settings key theirs (`.html`).
        let mut content_types: BTreeMap<String, String> =
            content_types::BY_EXTENSION.iter().map(|(ext, v)| (format!(".{ext}"), v.to_string())).collect();
        content_types.extend(settings.content_types.iter().map(|(k, v)| (k.to_ascii_lowercase(), v.clone())));
        Headers { cache_control, content_types }
    }

    /// `Content-Type` of the site file `rel`.
    pub fn content_type(&self, rel: &str) -> &str {
        extension(rel).and_then(|ext| self.content_types.get(&ext)).map_or(UNKNOWN_TYPE, String::as_str)
    }

    /// `Cache-Control` of the site file `rel`.
    pub fn cache_control(&self, rel: &str) -> &str {
        let folder = self
            .cache_control
            .iter()
            .filter(|(rule, _)| rule.ends_with('/') && rel.starts_with(rule.as_str()))
            .max_by_key(|(rule, _)| rule.len());
        let by_extension = || extension(rel).and_then(|ext| self.cache_control.get(&ext));
        folder
            .map(|(_, value)| value)
            .or_else(by_extension)
            .or_else(|| self.cache_control.get("*"))
            .map_or(SHORT, String::as_str)
    }
}

/// `.ext` of the file name of `rel`, lowercased, as the settings' rules
/// name it; a dot file (`.nojekyll`) has none.
fn extension(rel: &str) -> Option<String> {
    content_types::extension(rel).map(|ext| format!(".{ext}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_cache_hashed_assets_for_a_year_and_pages_briefly() {
        let headers = Headers::new(&DeploySettings::default());
        assert_eq!(headers.cache_control("assets/style.0123456789ab.css"), IMMUTABLE);
        assert_eq!(headers.cache_control("ns/m/index.html"), SHORT);
        assert_eq!(headers.cache_control("sitemap.xml"), SHORT);
        assert_eq!(headers.content_type("ns/m/index.html"), "text/html; charset=utf-8");
        assert_eq!(headers.content_type("assets/islands.0123456789ab.js"), "text/javascript; charset=utf-8");
        assert_eq!(headers.content_type("api/models/ns/m.json"), "application/json");
        assert_eq!(headers.content_type("NS/M/NOTEBOOK.IPYNB"), "application/x-ipynb+json");
        assert_eq!(headers.content_type("ns/m/index.md"), "text/markdown; charset=utf-8");
        assert_eq!(headers.content_type("llms.txt"), "text/plain; charset=utf-8");
        assert_eq!(headers.content_type(".modelpages-site"), UNKNOWN_TYPE);
        // Card images copied into the site go up as images, not bytes.
        assert_eq!(headers.content_type("ns/m/card-files/photo.JPG"), "image/jpeg");
        assert_eq!(headers.content_type("ns/m/card-files/a.avif"), "image/avif");
    }

    #[test]
    fn settings_override_rule_by_rule() {
        let settings = DeploySettings {
            cache_control: [("assets/fonts/", "max-age=1"), (".html", "no-cache"), ("*", "max-age=60")]
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .collect(),
            content_types: [(".TXT".to_owned(), "text/plain".to_owned())].into_iter().collect(),
            keep: Vec::new(),
        };
        let headers = Headers::new(&settings);
        assert_eq!(headers.cache_control("assets/fonts/a.woff2"), "max-age=1", "the longest folder wins");
        assert_eq!(headers.cache_control("assets/style.0123456789ab.css"), IMMUTABLE, "defaults stay");
        assert_eq!(headers.cache_control("index.html"), "no-cache");
        assert_eq!(headers.cache_control("robots.txt"), "max-age=60");
        assert_eq!(headers.content_type("robots.txt"), "text/plain");
    }
}
