//! Where the site is served from: the `base_url` setting, checked once and
//! kept in the two forms pages and the preview server need.
//!
//! A base URL is a path (`/`, `/hub/`) or an absolute `http(s)` URL
//! (`https://hub.example/models/`). [`BaseUrl::as_str`] is the whole of it
//! with a trailing slash, for absolute links (sitemaps, feeds, `llms.txt`);
//! [`BaseUrl::path`] is its path alone, for the links inside pages and for
//! the path `serve` mounts the site under. Both come from one parse, so a
//! page's links and the server's mount cannot disagree.

use std::fmt;

/// A base URL that passed [`BaseUrl::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrl {
    /// The URL with a trailing slash.
    url: String,
}

/// A base URL that a page could not use safely.
#[derive(Debug, thiserror::Error)]
#[error("base URL {url:?}: {why}")]
pub struct BaseUrlError {
    pub url: String,
    pub why: &'static str,
}

impl BaseUrl {
    /// Checks `url` (it is written into every page's links, unescaped by
    /// URL rules, so quotes, spaces and the like are refused) and gives it
    /// a trailing slash.
    pub fn parse(url: &str) -> Result<BaseUrl, BaseUrlError> {
        let bad = |why| BaseUrlError { url: url.to_owned(), why };
        if url.chars().any(|c| c.is_whitespace() || c.is_control() || matches!(c, '"' | '\'' | '<' | '>' | '\\')) {
            return Err(bad("must not contain spaces, quotes, angle brackets or backslashes"));
        }
        let absolute = url.starts_with("https://") || url.starts_with("http://");
        if !absolute && !url.starts_with('/') {
            return Err(bad("must start with `/`, `http://` or `https://`"));
        }
        if url.contains(['?', '#']) {
            return Err(bad("must not have a query or fragment"));
        }
        let mut url = url.to_owned();
        if !url.ends_with('/') {
            url.push('/');
        }
        Ok(BaseUrl { url })
    }

    /// The whole URL, ending in `/`.
    pub fn as_str(&self) -> &str {
        &self.url
    }

    /// Its path, starting and ending in `/`: `https://hub.example/models/`
    /// gives `/models/`, `https://hub.example` gives `/`.
    pub fn path(&self) -> &str {
        match self.url.split_once("://") {
            Some((_, rest)) => rest.find('/').map_or("/", |i| &rest[i..]),
            None => &self.url,
        }
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.url)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let forms = |url: &str| {
            let base = BaseUrl::parse(url).unwrap();
            (base.as_str().to_owned(), base.path().to_owned())
        };
        assert_eq!(forms("/"), ("/".into(), "/".into()));
        assert_eq!(forms("/hub"), ("/hub/".into(), "/hub/".into()));
        assert_eq!(forms("/hub/"), ("/hub/".into(), "/hub/".into()));
        assert_eq!(forms("https://hub.example"), ("https://hub.example/".into(), "/".into()));
        assert_eq!(forms("https://hub.example/models/v1"), ("https://hub.example/models/v1/".into(), "/models/v1/".into()));
    }

    #[test]
    fn refused() {
        for bad in ["hub", "/a b", "/\"x", "https://x/?q=1", "/x#top", "javascript:alert(1)", "/a\\b", "/<x>"] {
            assert!(BaseUrl::parse(bad).is_err(), "{bad}");
        }
    }
}
