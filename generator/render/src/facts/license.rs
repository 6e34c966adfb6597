//! The licence as the Hub shows it: the card's `license` (else the
//! record's `license:` tags); for `license: other`, the card's
//! `license_name`, linked to its `license_link` (a file of the model's
//! repository, or a web page), as the Hub links it.
//!
//! The link comes from the card, so only what can be checked is linked:
//! an `http(s)` URL with no blank or control character, or a plain path of
//! the repository (see [`super::path_problem`]), which leads to the file's
//! page on the hub.

use modelpages_record::CardMeta;
use serde::Serialize;

use super::path_problem;
use crate::card_links::encode_path;

/// Licences shown at most.
const MAX_LICENSES: usize = 8;
/// Longest licence link taken from a card.
const MAX_LINK_LEN: usize = 2_000;

/// One licence: its name, and where to read it when the card says.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LicenseView {
    pub name: String,
    pub url: Option<String>,
}

/// The model's licences: the card's, else its tags'.
pub(super) fn license_views(meta: &CardMeta, tags: &[String], hub_url: &str, id: &str) -> Vec<LicenseView> {
    let names: Vec<&str> = if meta.license.is_empty() {
        tags.iter().filter_map(|t| t.strip_prefix("license:")).collect()
    } else {
        meta.license.iter().map(String::as_str).collect()
    };
    names
        .into_iter()
        .take(MAX_LICENSES)
        .map(|name| match (name, meta.license_name.as_deref()) {
            ("other", Some(own)) => LicenseView {
                name: own.to_owned(),
                url: meta.license_link.as_deref().and_then(|link| license_url(link, hub_url, id)),
            },
            _ => LicenseView { name: name.to_owned(), url: None },
        })
        .collect()
}

/// Where `link` leads: a web page as it is, a file of the model's
/// repository on the hub; `None` for anything else.
fn license_url(link: &str, hub_url: &str, id: &str) -> Option<String> {
    let link = link.trim();
    if link.len() > MAX_LINK_LEN || link.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return None;
    }
    let lower = link.get(..8).unwrap_or(link).to_ascii_lowercase();
    if lower.starts_with("https://") || lower.starts_with("http://") {
        return Some(link.to_owned());
    }
    let path = link.trim_start_matches("./");
    if path.contains(':') || path_problem(path).is_some() {
        return None;
    }
    Some(format!("{}/{id}/blob/main/{}", hub_url.trim_end_matches('/'), encode_path(path)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(license: &[&str], name: Option<&str>, link: Option<&str>) -> CardMeta {
        CardMeta {
            license: license.iter().map(|s| s.to_string()).collect(),
            license_name: name.map(str::to_owned),
            license_link: link.map(str::to_owned),
            ..CardMeta::default()
        }
    }

    fn views(meta: &CardMeta) -> Vec<(String, Option<String>)> {
        license_views(meta, &["license:mit".into()], "https://hub.example/", "black-forest-labs/FLUX.1-dev")
            .into_iter()
            .map(|v| (v.name, v.url))
            .collect()
    }

    #[test]
    fn other_is_shown_by_its_name_linked_to_its_file_or_page() {
        let flux = meta(&["other"], Some("flux-1-dev-non-commercial-license"), Some("LICENSE.md"));
        assert_eq!(
            views(&flux),
            [(
                "flux-1-dev-non-commercial-license".to_owned(),
                Some("https://hub.example/black-forest-labs/FLUX.1-dev/blob/main/LICENSE.md".to_owned())
            )]
        );
        let page = meta(&["other"], Some("gemma"), Some("https://ai.google.dev/gemma/terms"));
        assert_eq!(views(&page)[0].1.as_deref(), Some("https://ai.google.dev/gemma/terms"));
        let spaced = meta(&["other"], Some("x"), Some("./docs/my licence.md"));
        assert_eq!(views(&spaced)[0].1, None, "a blank in a link is not a link");
        let nested = meta(&["other"], Some("x"), Some("./docs/LICENSE"));
        assert_eq!(views(&nested)[0].1.as_deref(), Some("https://hub.example/black-forest-labs/FLUX.1-dev/blob/main/docs/LICENSE"));
        for bad in ["javascript:alert(1)", "../../etc/passwd", "//evil.example/x", "/abs", "data:text/html,x"] {
            assert_eq!(views(&meta(&["other"], Some("x"), Some(bad)))[0].1, None, "{bad}");
        }
        // No name: "other" as the card says; no link: the name alone.
        assert_eq!(views(&meta(&["other"], None, Some("LICENSE"))), [("other".to_owned(), None)]);
        assert_eq!(views(&meta(&["other"], Some("own"), None)), [("own".to_owned(), None)]);
    }

    #[test]
    fn the_cards_licence_else_the_tags() {
        assert_eq!(views(&meta(&["apache-2.0"], Some("ignored"), None)), [("apache-2.0".to_owned(), None)]);
        assert_eq!(views(&CardMeta::default()), [("mit".to_owned(), None)]);
    }
}
