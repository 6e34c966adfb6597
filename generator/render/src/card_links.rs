//! Where a card's relative references lead: `![chart](./imgs/chart.png)`,
//! `[design](docs/architecture.md)`, `<img src="assets/logo.png">`.
//!
//! On the Hub a card's relative reference names a file of the model's
//! repository. Here the build decides, through [`CardLinks`], whether the
//! file is in the model's folder (the site crate copies it beside the page:
//! [`Resolved::Local`]) or lives only on the hub ([`Resolved::Hub`]:
//! `hub_url/<id>/resolve/main/<path>` for images, `/blob/main/<path>` for
//! other links, as the Hub's own file views). This module is pure: it reads
//! a reference, checks that its path stays inside the model's folder (no
//! `..`, no backslash, nothing that decodes to either), and asks the
//! [`CardLinks`] it is given; a path that would leave the folder is dropped.
//! A reference from the site's root (`/datasets/x`) is one on the hub, as
//! it is on the Hub's pages.

use std::sync::Arc;

use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What a card refers to a file for: showing it (an image) or linking to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefKind {
    Image,
    Link,
}

/// Where a relative reference of a card leads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// A file copied beside the page: this URL, relative to the page.
    Local(String),
    /// The file on the hub: this absolute URL.
    Hub(String),
    /// Nowhere: the reference is dropped.
    Nowhere,
}

/// Resolves a card's relative references for one model.
pub trait CardLinks: Send + Sync {
    /// Where `path` leads: a plain path inside the model's folder (names
    /// joined by `/`, none empty, `.` or `..`, no backslash), decoded.
    fn resolve(&self, path: &str, kind: RefKind) -> Resolved;
}

/// Every file on the hub: what a card's references lead to when the build
/// has no files of the model's (and in tests).
#[derive(Clone, Debug)]
pub struct HubLinks {
    hub_url: String,
    model_id: String,
}

impl HubLinks {
    /// `hub_url` without a trailing slash.
    pub fn new(hub_url: &str, model_id: &str) -> HubLinks {
        HubLinks { hub_url: hub_url.trim_end_matches('/').to_owned(), model_id: model_id.to_owned() }
    }

    /// The hub's URL of `path`: the file itself for images, its page for links.
    pub fn url(&self, path: &str, kind: RefKind) -> String {
        let view = match kind {
            RefKind::Image => "resolve",
            RefKind::Link => "blob",
        };
        format!("{}/{}/{view}/main/{}", self.hub_url, self.model_id, encode_path(path))
    }
}

impl CardLinks for HubLinks {
    fn resolve(&self, path: &str, kind: RefKind) -> Resolved {
        Resolved::Hub(self.url(path, kind))
    }
}

/// What rendering a card needs to know about the model and the site.
#[derive(Clone)]
pub struct CardContext {
    pub links: Arc<dyn CardLinks>,
    /// Whether `https:` images are shown (`card_images = "remote"`).
    pub remote_images: bool,
    /// The hub, without a trailing slash.
    pub hub_url: String,
    pub model_id: String,
}

impl CardContext {
    /// References resolved to the hub, remote images as `remote_images` says.
    pub fn hub_only(hub_url: &str, model_id: &str, remote_images: bool) -> CardContext {
        CardContext {
            links: Arc::new(HubLinks::new(hub_url, model_id)),
            remote_images,
            hub_url: hub_url.trim_end_matches('/').to_owned(),
            model_id: model_id.to_owned(),
        }
    }

    /// What becomes of the URL `url` (as the sanitiser left it) of a
    /// reference of `kind`; fragments alone (`#x`) are not handled here.
    pub(crate) fn reference(&self, url: &str, kind: RefKind) -> Reference {
        let trimmed = url.trim_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
        if trimmed.is_empty() || trimmed.starts_with(['#', '?']) || has_scheme(trimmed) {
            return Reference::Keep;
        }
        if trimmed.starts_with("//") || trimmed.starts_with('\\') || trimmed.starts_with("/\\") {
            return Reference::Drop;
        }
        let (path, suffix) = trimmed.split_at(trimmed.find(['?', '#']).unwrap_or(trimmed.len()));
        let Some(path) = plain_path(path) else { return Reference::Drop };
        if trimmed.starts_with('/') {
            // From the root of the site it was written for: the hub.
            let url = format!("{}/{}{}{suffix}", self.hub_url, encode_path(&path.names), if path.folder { "/" } else { "" });
            return Reference::Replace(url);
        }
        if path.folder || path.names.is_empty() {
            return match kind {
                RefKind::Image => Reference::Drop,
                RefKind::Link => Reference::Replace(format!(
                    "{}/{}/tree/main/{}{suffix}",
                    self.hub_url,
                    self.model_id,
                    encode_path(&path.names)
                )),
            };
        }
        match self.links.resolve(&path.names, kind) {
            Resolved::Local(url) | Resolved::Hub(url) => Reference::Replace(format!("{url}{suffix}")),
            Resolved::Nowhere => Reference::Drop,
        }
    }
}

/// What becomes of a URL in a card.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Reference {
    Keep,
    Replace(String),
    Drop,
}

/// A relative path, decoded and checked.
struct PlainPath {
    /// Its names joined by `/`; empty for the folder itself.
    names: String,
    /// Whether it names a folder (ends with `/`).
    folder: bool,
}

/// The decoded names of a relative (or root-relative) path, `.` names
/// left out; `None` when a name is `..`, holds a backslash or a control
/// character, or the path does not decode to UTF-8.
fn plain_path(path: &str) -> Option<PlainPath> {
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    if decoded.contains(['\\', '\0']) || decoded.chars().any(char::is_control) {
        return None;
    }
    let mut names = Vec::new();
    for name in decoded.split('/') {
        match name {
            "" | "." => {}
            ".." => return None,
            name => names.push(name),
        }
    }
    Some(PlainPath { names: names.join("/"), folder: decoded.ends_with('/') || decoded.ends_with("/.") })
}

/// Whether a URL starts with a scheme (`https:`, `mailto:`, `javascript:`).
fn has_scheme(url: &str) -> bool {
    let Some(colon) = url.find(':') else { return false };
    let scheme = &url[..colon];
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
}

/// Bytes kept as they are in a path's names; every other is escaped.
const PATH_NAME: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// A plain path (names joined by `/`) as a URL path: each name escaped.
pub fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for (i, name) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        out.extend(utf8_percent_encode(name, PATH_NAME));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Files `present` are local; the rest go to the hub.
    struct Folder(&'static [&'static str]);

    impl CardLinks for Folder {
        fn resolve(&self, path: &str, kind: RefKind) -> Resolved {
            if self.0.contains(&path) {
                Resolved::Local(encode_path(path))
            } else {
                HubLinks::new("https://hub.example", "org/model").resolve(path, kind)
            }
        }
    }

    fn context() -> CardContext {
        CardContext {
            links: Arc::new(Folder(&["assets/chart.png", "docs/a b.md"])),
            remote_images: true,
            hub_url: "https://hub.example".into(),
            model_id: "org/model".into(),
        }
    }

    #[test]
    fn present_files_are_local_and_the_rest_on_the_hub() {
        let ctx = context();
        let replaced = |url: &str, kind| match ctx.reference(url, kind) {
            Reference::Replace(url) => url,
            other => panic!("{url}: {other:?}"),
        };
        assert_eq!(replaced("./assets/chart.png", RefKind::Image), "assets/chart.png");
        assert_eq!(replaced("assets//./chart.png", RefKind::Image), "assets/chart.png");
        assert_eq!(replaced("docs/a%20b.md#usage", RefKind::Link), "docs/a%20b.md#usage");
        assert_eq!(replaced("images/loss.png", RefKind::Image), "https://hub.example/org/model/resolve/main/images/loss.png");
        assert_eq!(replaced("model.safetensors", RefKind::Link), "https://hub.example/org/model/blob/main/model.safetensors");
        assert_eq!(replaced("图/曲线 1.png", RefKind::Image), "https://hub.example/org/model/resolve/main/%E5%9B%BE/%E6%9B%B2%E7%BA%BF%201.png");
        assert_eq!(replaced("src/", RefKind::Link), "https://hub.example/org/model/tree/main/src");
        assert_eq!(replaced("/datasets/x/y", RefKind::Link), "https://hub.example/datasets/x/y");
        for kept in ["https://example.com/x.png", "mailto:a@b.c", "#usage", "?tab=files", ""] {
            assert_eq!(ctx.reference(kept, RefKind::Link), Reference::Keep, "{kept}");
        }
    }

    #[test]
    fn paths_that_leave_the_folder_are_dropped() {
        let ctx = context();
        for bad in [
            "../other/model.json",
            "assets/../../x.png",
            "%2e%2e/x.png",
            "a%2F..%2F..%2Fx",
            "a\\..\\..\\x",
            "/../etc/passwd",
            "//evil.example/x.png",
            "\\\\evil.example/x.png",
            "/\\evil.example/x.png",
            "a%00b.png",
            "a%0a/../b",
            "%ff.png",
        ] {
            assert_eq!(ctx.reference(bad, RefKind::Image), Reference::Drop, "{bad}");
        }
        assert_eq!(ctx.reference("./", RefKind::Image), Reference::Drop, "a folder is no image");
    }
}
