//! The sanitiser cards go through: ammonia's defaults (no scripts, styles,
//! handlers, frames, forms or unsafe URLs) and what cards need besides.
//!
//! - task lists: disabled checkboxes, and no other input;
//! - ids, which [`crate::card_rewrite`] then prefixes or resolves, and the
//!   `name` of `<a>` (an old way to write a link target), which it makes one;
//! - `dir` (`ltr`, `rtl`, `auto`), for cards in right-to-left scripts;
//! - `align` on blocks and cells, `left`, `center` or `right` only, which
//!   [`crate::card_rewrite`] makes a class;
//! - `<video>`, `<audio>` and their `<source>`, which become links there;
//! - sources (`src`) that are `https:` or relative only: an image from any
//!   other host (`http:`, `//host`, `/\host`) loses its source, as every
//!   image did before `https:` ones could be shown.
//!
//! Raw MathML is not allowed: a card's formulas are made MathML by
//! [`crate::card_math`] and kept out of this sanitiser.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Elements that may be aligned by an `align` attribute.
const ALIGNED: &[&str] = &["div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "table", "img"];

pub(crate) fn sanitizer() -> &'static ammonia::Builder<'static> {
    static BUILDER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        // Task lists render as disabled checkboxes; nothing else may be an input.
        b.add_tags(["input", "video", "audio", "source"])
            .add_tag_attributes("input", ["checked", "type"])
            .set_tag_attribute_value("input", "disabled", "")
            .add_tag_attribute_values("input", "type", ["checkbox"])
            .add_tag_attributes("video", ["src"])
            .add_tag_attributes("audio", ["src"])
            .add_tag_attributes("source", ["src"])
            .add_tag_attributes("a", ["name"])
            .add_generic_attributes(["id", "dir"])
            .url_schemes(HashSet::from(["http", "https", "mailto"]))
            .attribute_filter(|_element, attribute, value| match attribute {
                "src" => source(value),
                "align" => alignment(value).map(Cow::Borrowed),
                "dir" => ["ltr", "rtl", "auto"].into_iter().find(|d| d.eq_ignore_ascii_case(value.trim())).map(Cow::Borrowed),
                _ => Some(Cow::Borrowed(value)),
            });
        for element in ALIGNED {
            b.add_tag_attributes(element, ["align"]);
        }
        b
    })
}

/// A source as kept: `https:` (without the blanks browsers skip), or a
/// relative path; `None` for any other host.
fn source(value: &str) -> Option<Cow<'_, str>> {
    let trimmed = value.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    if trimmed.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://")) {
        return Some(Cow::Borrowed(trimmed));
    }
    (!names_another_host(value)).then_some(Cow::Borrowed(value))
}

/// The alignments kept, lowercased.
fn alignment(value: &str) -> Option<&'static str> {
    ["left", "center", "right"].into_iter().find(|a| a.eq_ignore_ascii_case(value.trim()))
}

/// Whether a URL leads away from the page's own host: it has a scheme, or it
/// starts with two slashes (browsers read `\\` as `/`), after the leading
/// blanks and controls browsers skip.
fn names_another_host(url: &str) -> bool {
    let url = url.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    let mut start = url.chars().take(2);
    if start.clone().count() == 2 && start.all(|c| c == '/' || c == '\\') {
        return true;
    }
    // A colon before any path, query or fragment ends a scheme.
    match (url.find(':'), url.find(['/', '?', '#', '\\'])) {
        (Some(colon), path) if colon > 0 => path.is_none_or(|path| colon < path),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_https_or_relative() {
        for (url, other) in [("a.png", false), ("/x/a.png", false), ("a:b", true), ("HTTPS://x", true), ("?q=a:b", false), ("\\/x", true)] {
            assert_eq!(names_another_host(url), other, "{url}");
        }
        assert_eq!(source(" \thttps://x.example/a.png").as_deref(), Some("https://x.example/a.png"));
        assert_eq!(source("HTTPS://x.example/a.png").as_deref(), Some("HTTPS://x.example/a.png"));
        for other in ["http://x.example/a.png", "//x.example/a.png", "/\\x.example/a.png", "data:image/png;base64,AA"] {
            assert_eq!(source(other), None, "{other}");
        }
        assert_eq!(source("pics/a.png").as_deref(), Some("pics/a.png"));
    }

    #[test]
    fn media_and_alignment_pass_for_the_rewrite() {
        let html = sanitizer()
            .clean(
                "<div align=\"CENTER\"><video src=\"https://x.example/v.mp4\" poster=\"https://x.example/p.png\" autoplay>t</video></div>\
                 <p align=\"justify\" dir=\"RTL\">j</p><p dir=\"sideways\">s</p><audio><source src=\"a.wav\" type=\"audio/wav\"></audio><math><mi>x</mi></math>",
            )
            .to_string();
        assert_eq!(
            html,
            "<div align=\"center\"><video src=\"https://x.example/v.mp4\">t</video></div><p dir=\"rtl\">j</p><p>s</p><audio><source src=\"a.wav\"></audio>"
        );
    }
}
