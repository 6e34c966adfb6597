//! The last pass over a sanitised card: what the sanitiser cannot do
//! because it needs the card's context (its headings, the model's files,
//! the site's image setting) or renames elements and attributes.
//!
//! - ids: the card's headings keep the ids [`crate::heading_ids`] gave them
//!   (marked with the card's random token so raw HTML cannot claim one);
//!   every other id gets the `user-content-` prefix, so a card cannot take
//!   an id of the page. An `<a name="x">` without an id gets the id
//!   `user-content-x`, as GitHub keeps such targets.
//! - in-card links (`#usage`) land on a heading when one has that id or
//!   slug, on a footnote or a raw-HTML id (`#user-content-...`) otherwise.
//! - relative references go where [`CardContext`] says: a copied file
//!   beside the page, the file on the hub, or nowhere.
//! - `https:` images stay when remote images are on, with lazy loading and
//!   no referrer (the page's policy then allows them); otherwise they lose
//!   their source, as before.
//! - raw HTML headings are shown one level down, as Markdown ones are:
//!   the page's title is its only `h1`.
//! - `align` becomes an `align-*` class (the policy forbids inline styles).
//! - `<video>` and `<audio>` become a link to their media: a page plays
//!   nothing by itself.
//!
//! The input is html5ever's serialisation of the sanitised tree, which is
//! regular: every `<` in text is escaped, every attribute is `name="value"`
//! with `&`, `"` and no-break spaces escaped, and comments are gone. So a
//! small scanner reads it exactly; a tag it cannot read is copied as it is,
//! which is safe, as the sanitiser's output is.

use std::collections::HashSet;

use percent_encoding::percent_decode_str;

use crate::card_links::{CardContext, RefKind, Reference};
use crate::heading_ids::HeadingIds;

/// Prefix of the ids of a card's raw HTML, as GitHub's.
pub(crate) const ID_PREFIX: &str = "user-content-";

/// What the pass needs to know about the card.
pub(crate) struct CardMarkup<'c> {
    pub(crate) context: &'c CardContext,
    pub(crate) headings: &'c HeadingIds,
    /// The card's footnote labels: a link to one is to the footnote.
    pub(crate) footnotes: &'c HashSet<String>,
    /// What the ids of the card's own headings start with.
    pub(crate) heading_token: &'c str,
}

/// The card's HTML after the pass.
#[derive(Debug, Default)]
pub(crate) struct Rewritten {
    pub(crate) html: String,
    /// Whether an image from another host (`https:`) is shown.
    pub(crate) remote_images: bool,
    /// References dropped because they would leave the model's folder.
    pub(crate) dropped: usize,
}

/// A media element being read: its kind and the first source it names.
struct Media {
    label: &'static str,
    source: Option<String>,
    depth: usize,
}

/// `html`, the sanitiser's output, rewritten as the module says.
pub(crate) fn rewrite(html: &str, card: &CardMarkup<'_>) -> Rewritten {
    let mut out = Rewritten { html: String::with_capacity(html.len() + html.len() / 8), ..Rewritten::default() };
    // The names each open heading is written with.
    let mut headings: Vec<&'static str> = Vec::new();
    let mut media: Option<Media> = None;
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        if media.is_none() {
            out.html.push_str(&rest[..lt]);
        }
        let Some((tag, len)) = Tag::read(&rest[lt..]) else {
            if media.is_none() {
                out.html.push('<');
            }
            rest = &rest[lt + 1..];
            continue;
        };
        rest = &rest[lt + len..];
        if let Some(playing) = media.as_mut() {
            if playing.read(&tag) {
                let done = media.take().expect("being read");
                write_media_link(&mut out, card, done);
            }
            continue;
        }
        match tag.name {
            "video" | "audio" if !tag.end => {
                let label = if tag.name == "video" { "Video" } else { "Audio" };
                media = Some(Media { label, source: tag.attr("src").map(unescape), depth: 1 });
            }
            // Only media have sources; a stray one (from `<picture>`) goes.
            "source" => {}
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" if tag.end => {
                out.html.push_str("</");
                out.html.push_str(headings.pop().unwrap_or(tag.name));
                out.html.push('>');
            }
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => {
                let ours = tag.attr("id").is_some_and(|id| id.starts_with(card.heading_token));
                let name = if ours { heading(tag.name) } else { demoted(tag.name) };
                headings.push(name);
                write_start(&mut out, card, &tag, name);
            }
            _ if tag.end => {
                out.html.push_str("</");
                out.html.push_str(tag.name);
                out.html.push('>');
            }
            name => write_start(&mut out, card, &tag, name),
        }
    }
    if media.is_none() {
        out.html.push_str(rest);
    }
    out
}

/// A heading's name, for the stack of open headings.
fn heading(name: &str) -> &'static str {
    ["h1", "h2", "h3", "h4", "h5", "h6"].into_iter().find(|h| *h == name).unwrap_or("h6")
}

/// A heading one level down, `h6` staying `h6`.
fn demoted(name: &str) -> &'static str {
    match name {
        "h1" => "h2",
        "h2" => "h3",
        "h3" => "h4",
        "h4" => "h5",
        _ => "h6",
    }
}

/// Writes a start tag as `name`, its attributes rewritten.
fn write_start(out: &mut Rewritten, card: &CardMarkup<'_>, tag: &Tag<'_>, name: &str) {
    let html = &mut out.html;
    html.push('<');
    html.push_str(name);
    let mut remote = false;
    for &(attribute, value) in &tag.attrs {
        let (attribute, value) = match attribute {
            // A link target; its own id, if any, wins.
            "name" if tag.name == "a" && tag.attr("id").is_none() => ("id", value),
            "name" => continue,
            _ => (attribute, value),
        };
        let value = match attribute {
            "id" => match value.strip_prefix(card.heading_token) {
                Some(ours) => Some(ours.to_owned()),
                None => Some(format!("{ID_PREFIX}{value}")),
            },
            "href" => href(&mut out.dropped, card, value),
            "src" if tag.name == "img" => {
                let (src, is_remote) = image_source(&mut out.dropped, card, value);
                remote = is_remote;
                src
            }
            "align" => {
                html.push_str(" class=\"align-");
                html.push_str(value);
                html.push('"');
                continue;
            }
            _ => Some(value.to_owned()),
        };
        if let Some(value) = value {
            html.push(' ');
            html.push_str(attribute);
            html.push_str("=\"");
            html.push_str(&value);
            html.push('"');
        }
    }
    if remote {
        html.push_str(" loading=\"lazy\" referrerpolicy=\"no-referrer\"");
        out.remote_images = true;
    }
    html.push('>');
}

/// A link's new `href` (escaped as found), or `None` to drop it.
fn href(dropped: &mut usize, card: &CardMarkup<'_>, value: &str) -> Option<String> {
    if let Some(fragment) = value.strip_prefix('#') {
        let decoded = percent_decode_str(&unescape(fragment)).decode_utf8_lossy().into_owned();
        if !card.footnotes.contains(&decoded) {
            if let Some(id) = card.headings.target(&decoded) {
                return Some(format!("#{}", escape(id)));
            }
        }
        return Some(format!("#{ID_PREFIX}{fragment}"));
    }
    reference(dropped, card, value, RefKind::Link)
}

/// An image's new `src` and whether it is on another host.
fn image_source(dropped: &mut usize, card: &CardMarkup<'_>, value: &str) -> (Option<String>, bool) {
    let remote = |src: String| if card.context.remote_images { (Some(src), true) } else { (None, false) };
    if is_https(value) {
        return remote(value.to_owned());
    }
    match reference(dropped, card, value, RefKind::Image) {
        Some(src) if is_https(&src) => remote(src),
        other => (other, false),
    }
}

/// The URL `value` (escaped) as the card's context resolves it.
fn reference(dropped: &mut usize, card: &CardMarkup<'_>, value: &str, kind: RefKind) -> Option<String> {
    match card.context.reference(&unescape(value), kind) {
        Reference::Keep => Some(value.to_owned()),
        Reference::Replace(url) => Some(escape(&url)),
        Reference::Drop => {
            *dropped += 1;
            None
        }
    }
}

fn is_https(url: &str) -> bool {
    url.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
}

/// Writes the link a `<video>` or `<audio>` becomes, when it has a source.
fn write_media_link(out: &mut Rewritten, card: &CardMarkup<'_>, media: Media) {
    let Some(source) = media.source else { return };
    let url = if is_https(&source) || source.to_ascii_lowercase().starts_with("http://") {
        Some(source)
    } else {
        match card.context.reference(&source, RefKind::Image) {
            Reference::Replace(url) => Some(url),
            Reference::Keep | Reference::Drop => None,
        }
    };
    let Some(url) = url else {
        out.dropped += 1;
        return;
    };
    let path = url.split(['?', '#']).next().unwrap_or("");
    let name = percent_decode_str(path.rsplit('/').next().unwrap_or("")).decode_utf8_lossy().into_owned();
    let name = if name.is_empty() { "file" } else { &name };
    out.html.push_str("<span class=\"card-media\"><a href=\"");
    out.html.push_str(&escape(&url));
    out.html.push_str("\" rel=\"noopener noreferrer\">");
    out.html.push_str(media.label);
    out.html.push_str(": ");
    out.html.push_str(&crate::highlight::escape_html(name));
    out.html.push_str("</a></span>");
}

impl Media {
    /// Reads a tag inside the media element; true at its end.
    fn read(&mut self, tag: &Tag<'_>) -> bool {
        match tag.name {
            "video" | "audio" if tag.end => {
                self.depth -= 1;
                return self.depth == 0;
            }
            "video" | "audio" => self.depth += 1,
            "source" if self.source.is_none() => self.source = tag.attr("src").map(unescape),
            _ => {}
        }
        false
    }
}

/// A tag of the sanitiser's output.
struct Tag<'h> {
    name: &'h str,
    end: bool,
    /// Names and values, values escaped as found.
    attrs: Vec<(&'h str, &'h str)>,
}

impl<'h> Tag<'h> {
    /// The tag at the start of `html` and its length, if it reads as one.
    fn read(html: &'h str) -> Option<(Tag<'h>, usize)> {
        let bytes = html.as_bytes();
        let end = bytes.get(1) == Some(&b'/');
        let mut at = 1 + usize::from(end);
        let name_len = bytes[at..].iter().take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit()).count();
        if name_len == 0 {
            return None;
        }
        let name = &html[at..at + name_len];
        at += name_len;
        let mut attrs = Vec::new();
        loop {
            match bytes.get(at)? {
                b'>' => return Some((Tag { name, end, attrs }, at + 1)),
                b' ' if !end => at += 1,
                _ => return None,
            }
            if bytes.get(at) == Some(&b'>') {
                continue;
            }
            let name_len = bytes[at..].iter().take_while(|b| !b"=\"> ".contains(b)).count();
            let attribute = &html[at..at + name_len];
            at += name_len;
            if !html[at..].starts_with("=\"") || attribute.is_empty() {
                return None;
            }
            at += 2;
            let value_len = html[at..].find('"')?;
            attrs.push((attribute, &html[at..at + value_len]));
            at += value_len + 1;
        }
    }

    fn attr(&self, name: &str) -> Option<&'h str> {
        self.attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
    }
}

/// An attribute value as written, entities decoded (the three the
/// serialiser writes).
fn unescape(value: &str) -> String {
    value.replace("&quot;", "\"").replace("&nbsp;", "\u{a0}").replace("&amp;", "&")
}

/// A value escaped for a double-quoted attribute.
fn escape(value: &str) -> String {
    value.replace('&', "&amp;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(html: &str, remote_images: bool) -> Rewritten {
        let context = CardContext::hub_only("https://hub.example", "org/model", remote_images);
        let mut headings = HeadingIds::default();
        headings.assign("Usage");
        headings.assign("Main");
        let footnotes = HashSet::from(["1".to_owned()]);
        rewrite(html, &CardMarkup { context: &context, headings: &headings, footnotes: &footnotes, heading_token: "\u{E000}t-" })
    }

    #[test]
    fn ids_and_in_card_links() {
        let html = rewritten(
            "<h2 id=\"\u{E000}t-usage\">Usage</h2><p id=\"x\"><a href=\"#usage\">u</a> <a href=\"#Main\">m</a> \
             <a href=\"#x\">x</a> <a href=\"#1\">1</a> <a href=\"#user-content-usage\">g</a></p>",
            true,
        )
        .html;
        assert_eq!(
            html,
            "<h2 id=\"usage\">Usage</h2><p id=\"user-content-x\"><a href=\"#usage\">u</a> <a href=\"#section-main\">m</a> \
             <a href=\"#user-content-x\">x</a> <a href=\"#user-content-1\">1</a> <a href=\"#usage\">g</a></p>"
        );
    }

    #[test]
    fn raw_headings_are_shown_one_level_down() {
        let html = rewritten("<h1 class=\"x\">T</h1><h2 id=\"\u{E000}t-usage\">U</h2><h6>S</h6><h3 id=\"forged\">F</h3>", true).html;
        assert_eq!(html, "<h2 class=\"x\">T</h2><h2 id=\"usage\">U</h2><h6>S</h6><h4 id=\"user-content-forged\">F</h4>");
    }

    #[test]
    fn images_follow_the_setting_and_references_their_files() {
        let on = rewritten("<img src=\"https://x.example/a.png\" alt=\"a\"><img src=\"pics/b.png\"><img src=\"../c.png\" alt=\"c\">", true);
        assert_eq!(
            on.html,
            "<img src=\"https://x.example/a.png\" alt=\"a\" loading=\"lazy\" referrerpolicy=\"no-referrer\">\
             <img src=\"https://hub.example/org/model/resolve/main/pics/b.png\" loading=\"lazy\" referrerpolicy=\"no-referrer\">\
             <img alt=\"c\">"
        );
        assert!(on.remote_images);
        assert_eq!(on.dropped, 1);
        let off = rewritten("<img src=\"https://x.example/a.png\" alt=\"a\"><a href=\"docs/x.md\">d</a>", false);
        assert_eq!(off.html, "<img alt=\"a\"><a href=\"https://hub.example/org/model/blob/main/docs/x.md\">d</a>");
        assert!(!off.remote_images);
    }

    #[test]
    fn media_become_links_and_align_a_class() {
        let html = rewritten(
            "<p align=\"center\">c</p><video src=\"https://x.example/demo.mp4\">fallback <b>text</b></video>\
             <audio><source src=\"clips/a%20b.wav\"><source src=\"https://x.example/other.wav\"></audio><video>none</video><source src=\"x\">",
            true,
        )
        .html;
        assert_eq!(
            html,
            "<p class=\"align-center\">c</p><span class=\"card-media\"><a href=\"https://x.example/demo.mp4\" rel=\"noopener noreferrer\">Video: demo.mp4</a></span>\
             <span class=\"card-media\"><a href=\"https://hub.example/org/model/resolve/main/clips/a%20b.wav\" rel=\"noopener noreferrer\">Audio: a b.wav</a></span>"
        );
    }

    #[test]
    fn unreadable_tags_are_copied_as_they_are() {
        let html = "<p>a &lt; b</p><x-unknown y=\"1\">t</x-unknown><p title=\"a>b\">q</p><P ID=\"x\">";
        assert_eq!(rewritten(html, true).html, html);
    }

    /// Every element the sanitiser keeps, and its ids, are read: none of
    /// them can carry an id of the page's through the pass.
    #[test]
    fn every_element_the_sanitiser_keeps_is_read() {
        let mut html = String::new();
        for tag in crate::card_sanitiser::sanitizer().clone_tags() {
            html.push_str(&format!("<{tag} id=\"main\"></{tag}>"));
        }
        let clean = crate::card_sanitiser::sanitizer().clean(&html).to_string();
        let out = rewritten(&clean, true).html;
        assert!(clean.matches("id=\"main\"").count() > 20, "{clean}");
        assert_eq!(out.matches("id=\"main\"").count(), 0, "{out}");
        // Media elements (and their ids) become links, or nothing without a source.
        assert_eq!(out.matches(" id=\"").count(), out.matches(" id=\"user-content-main\"").count(), "{out}");
        assert_eq!(out.matches(" id=\"").count() + 3, clean.matches("id=\"main\"").count(), "all but video, audio, source");
    }
}
