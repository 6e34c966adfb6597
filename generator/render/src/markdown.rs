//! Model cards: Markdown to sanitised HTML with highlighted code blocks,
//! math as MathML, and headings with ids.
//!
//! Cards are written by anyone. A card of plain Markdown (no raw HTML,
//! images, footnotes, in-card or relative links: most cards) is written
//! straight from pulldown-cmark's events, which escape every text and
//! attribute; any other card goes through ammonia (see
//! [`crate::card_sanitiser`]), which costs more than the rest of the card,
//! and then through [`crate::card_rewrite`], which resolves its links and
//! ids in the card's context. Tests check that ammonia would leave the first
//! kind as it is. Highlighted code and MathML are produced by us and are
//! safe, so they are kept out of the sanitiser (see [`crate::placeholders`]).
//!
//! A large card's events are written as they are parsed, never held all at
//! once: it is first written as plain Markdown and, at its first event that
//! needs ammonia, parsed again for the sanitiser. What one card may cost is
//! bounded (see [`crate::card_limits`]) on both paths: tables that would be
//! padded with too many empty cells and HTML past the card's budget make
//! the card shown as its Markdown source; raw HTML that would cost the
//! sanitiser too much (see [`crate::html_cost`]) is shown as text.

use std::cell::RefCell;

use pulldown_cmark::{Alignment, CowStr, Event, LinkType, Tag, TagEnd};
use pulldown_cmark_escape::{escape_href, escape_html};

use crate::card_events::{CardEvents, CardState, Piece, RawHtml};
use crate::card_limits::{
    html_budget, large_card_turn, padded_cells_allowed, padded_cells_at_most, CardNotes, MAX_HIGHLIGHTED_BYTES,
    MAX_HIGHLIGHTED_LINE,
};
use crate::card_links::CardContext;
use crate::card_rewrite::{rewrite, CardMarkup};
use crate::card_sanitiser::sanitizer;
use crate::heading_ids::CardHeading;
use crate::highlight::{escape_html as escape_text, Highlighter, ShapeValues};
use crate::html_cost;
use crate::placeholders::Placeholders;

/// A card's HTML, safe to put in a page, its headings, and what the card
/// lost to the limits on what a card may cost (see [`crate::card_limits`]).
#[derive(Debug)]
pub struct RenderedCard {
    pub html: String,
    pub notes: Vec<String>,
    /// In order, with the ids the HTML gives them.
    pub headings: Vec<CardHeading>,
    /// Whether the HTML shows images from other hosts (`https:`): its page
    /// must allow them.
    pub remote_images: bool,
}

/// Renders a card's Markdown body to HTML that is safe to put in a page.
/// `values` are the model's own strings (id, name...): code blocks that
/// differ only by them share one highlighting (see [`Highlighter::highlight_example`]).
/// `context` says where the card's relative references lead and whether
/// remote images are shown.
pub fn render_card(
    markdown: &str,
    highlighter: &Highlighter,
    values: &ShapeValues<'_>,
    context: &CardContext,
) -> RenderedCard {
    let _turn = large_card_turn(markdown.len());
    let mut highlight_left = MAX_HIGHLIGHTED_BYTES;
    let mut unhighlighted = false;
    let mut code_block = |code: &str, lang: &str| {
        let highlighted = if code.len() <= highlight_left && !has_long_line(code) {
            highlight_left -= code.len();
            highlighter.highlight_example(code, lang, values)
        } else if !highlighter.highlights(lang) {
            // Only escaped, which costs little.
            highlighter.highlight_example(code, lang, values)
        } else {
            unhighlighted = true;
            highlighter.highlight(code, "text")
        };
        format!("<pre class=\"hl-code\"><code>{highlighted}</code></pre>")
    };
    let card = card_html(markdown, Path::Fastest, context, &mut code_block);
    let mut notes = card.notes;
    notes.unhighlighted = unhighlighted;
    RenderedCard { html: card.html, notes: notes.into_notes(), headings: card.headings, remote_images: card.remote_images }
}

/// Whether a line of `code` is over [`MAX_HIGHLIGHTED_LINE`] bytes.
fn has_long_line(code: &str) -> bool {
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', code.as_bytes()).chain([code.len()]) {
        if end - start > MAX_HIGHLIGHTED_LINE {
            return true;
        }
        start = end + 1;
    }
    false
}

/// How a card's HTML is made safe.
#[derive(Clone, Copy, PartialEq)]
enum Path {
    /// Written from trusted events when the card allows it, else sanitised.
    Fastest,
    /// Always through ammonia: what tests compare the fast path with.
    #[cfg(test)]
    Sanitised,
}

/// Cards up to this size are parsed once and their events held while it is
/// decided whether they need ammonia. Larger ones are written as they are
/// parsed and parsed again if they do: their events would take some 40
/// bytes a byte of card.
const HELD_EVENTS_CARD_BYTES: usize = 256 << 10;

/// What [`card_html`] made of a card.
struct CardHtml {
    html: String,
    /// Whether it was written without ammonia (which tests compare).
    #[cfg_attr(not(test), allow(dead_code))]
    trusted: bool,
    notes: CardNotes,
    headings: Vec<CardHeading>,
    remote_images: bool,
}

/// The card's HTML with each code block written by `code_block(code, lang)`,
/// which must return safe HTML.
fn card_html(
    markdown: &str,
    path: Path,
    context: &CardContext,
    code_block: &mut dyn FnMut(&str, &str) -> String,
) -> CardHtml {
    let state = CardState::default();
    let done = |html: String, trusted: bool, mut notes: CardNotes, rewritten: Option<(bool, usize)>| {
        notes.flattened = state.flattened.get();
        notes.math_problems = state.math_problems.get();
        let (remote_images, dropped) = rewritten.unwrap_or_default();
        notes.dropped_references = dropped;
        CardHtml { html, trusted, notes, headings: state.headings.take(), remote_images }
    };
    let mut notes = CardNotes::default();
    let source = |notes: CardNotes| {
        state.headings.take();
        done(shown_as_source(markdown), false, notes, None)
    };
    // Before the parser builds its tree of the card, which holds every
    // padded cell.
    let padded = padded_cells_at_most(markdown);
    if padded > padded_cells_allowed(markdown.len()) {
        notes.padded_cells = Some(padded);
        return source(notes);
    }
    let mut raw = RawHtml::Sanitise;
    loop {
        let sanitised = if markdown.len() <= HELD_EVENTS_CARD_BYTES {
            let mut pieces = Vec::with_capacity(markdown.len() / 8);
            let mut trusted = path == Path::Fastest;
            for piece in CardEvents::new(markdown, raw, &state, code_block) {
                if let Piece::Event(event) = &piece {
                    trusted = trusted && is_trusted(event);
                }
                pieces.push(piece);
            }
            if trusted {
                let Ok(html) = fast_html(pieces.into_iter(), &state.blocks, Blocks::Move, markdown.len()) else {
                    notes.too_large = Some(html_budget(markdown.len()));
                    return source(notes);
                };
                return done(html, true, notes, None);
            }
            sanitised_html(pieces.into_iter(), &state, context, markdown.len())
        } else {
            if path == Path::Fastest {
                // Written until the first event that needs ammonia, if any.
                let mut trusted = true;
                let card = CardEvents::new(markdown, raw, &state, code_block).take_while(|piece| {
                    trusted = !matches!(piece, Piece::Event(event) if !is_trusted(event));
                    trusted
                });
                let Ok(html) = fast_html(card, &state.blocks, Blocks::Copy, markdown.len()) else {
                    notes.too_large = Some(html_budget(markdown.len()));
                    return source(notes);
                };
                if trusted {
                    return done(html, true, notes, None);
                }
            }
            sanitised_html(CardEvents::new(markdown, raw, &state, code_block), &state, context, markdown.len())
        };
        match sanitised {
            Ok(card) => return done(card.html, false, notes, Some((card.remote_images, card.dropped))),
            Err(Unsanitised::RawHtml(excess)) => {
                notes.raw_html = Some(excess);
                raw = RawHtml::AsText;
            }
            Err(Unsanitised::TooLarge) => {
                notes.too_large = Some(html_budget(markdown.len()));
                return source(notes);
            }
        }
    }
}

/// Whether the fast path may move the code blocks into its HTML.
#[derive(Clone, Copy, PartialEq)]
enum Blocks {
    Move,
    /// Copy them: a sanitising pass may need them.
    Copy,
}

/// A card shown as its Markdown source, for when its HTML would cost too much.
fn shown_as_source(markdown: &str) -> String {
    let mut html = String::with_capacity(markdown.len() + 11);
    html.push_str("<pre>");
    html.push_str(&escape_text(markdown));
    html.push_str("</pre>");
    html
}

/// The card written from its events, all trusted, without ammonia; an
/// error when its HTML would be over its [`html_budget`].
fn fast_html<'a>(
    pieces: impl Iterator<Item = Piece<'a>>,
    blocks: &RefCell<Vec<String>>,
    take: Blocks,
    markdown_len: usize,
) -> Result<String, std::fmt::Error> {
    let events = pieces.map(|piece| match piece {
        Piece::Code(index) | Piece::Inline(index) => {
            let inline = matches!(piece, Piece::Inline(_));
            let block = &mut blocks.borrow_mut()[index];
            let block = if take == Blocks::Move { std::mem::take(block) } else { block.clone() };
            if inline { Event::InlineHtml(block.into()) } else { Event::Html(block.into()) }
        }
        Piece::Event(Event::Start(Tag::Link { dest_url, title, .. })) => {
            Event::InlineHtml(link_start(&dest_url, &title).into())
        }
        Piece::Event(Event::End(TagEnd::Link)) => Event::InlineHtml("</a>".into()),
        // In the attribute order ammonia writes, so both paths match.
        Piece::Event(Event::TaskListMarker(true)) => {
            Event::InlineHtml("<input type=\"checkbox\" checked=\"\" disabled=\"\">\n".into())
        }
        Piece::Event(Event::TaskListMarker(false)) => Event::InlineHtml("<input type=\"checkbox\" disabled=\"\">\n".into()),
        // Alignment is written as inline styles, which the CSP forbids.
        Piece::Event(Event::Start(Tag::Table(columns))) => Event::Start(Tag::Table(vec![Alignment::None; columns.len()])),
        Piece::Event(event) => event,
    });
    let mut html = String::with_capacity(markdown_len * 3 / 2);
    let cap = html_budget(markdown_len);
    pulldown_cmark::html::write_html_fmt(Capped { html: &mut html, cap }, events)?;
    Ok(html)
}

/// Why a card was not sanitised.
enum Unsanitised {
    /// Its raw HTML is past this budget of [`html_cost`].
    RawHtml(html_cost::Excess),
    /// Its HTML would be over the card's [`html_budget`].
    TooLarge,
}

/// A sanitised card's HTML, whether it shows remote images, and how many
/// of its references were dropped (see [`crate::card_rewrite`]).
struct Sanitised {
    html: String,
    remote_images: bool,
    dropped: usize,
}

/// The card through ammonia and the card's context, or why not.
fn sanitised_html<'a>(
    mut pieces: impl Iterator<Item = Piece<'a>>,
    state: &CardState,
    context: &CardContext,
    markdown_len: usize,
) -> Result<Sanitised, Unsanitised> {
    let places = Placeholders::new();
    let mut html = String::with_capacity(markdown_len * 3 / 2);
    let events = pieces.by_ref().map(|piece| match piece {
        Piece::Code(index) => Event::Html(places.paragraph(index).into()),
        Piece::Inline(index) => Event::Text(places.token(index).into()),
        // Marked as the card's own, which raw HTML's ids cannot be.
        Piece::Event(Event::Start(Tag::Heading { level, id: Some(id), classes, attrs })) => {
            let id = CowStr::from(places.heading_id(&id));
            Event::Start(Tag::Heading { level, id: Some(id), classes, attrs })
        }
        Piece::Event(event) => event,
    });
    // Code blocks and formulas are placeholders here; all of the card is
    // counted again once they are put back.
    let cap = html_budget(markdown_len);
    let written = pulldown_cmark::html::write_html_fmt(Capped { html: &mut html, cap }, events);
    // The parser's tree of the card goes before the sanitiser's is built.
    drop(pieces);
    if written.is_err() {
        return Err(Unsanitised::TooLarge);
    }
    if state.raw_html.borrow().needs_check() {
        html_cost::check(&html).map_err(Unsanitised::RawHtml)?;
    }
    let clean = {
        let dom = sanitizer().clean(&html);
        drop(html);
        dom.to_string()
    };
    let markup = CardMarkup {
        context,
        headings: &state.heading_ids.borrow(),
        footnotes: &state.footnotes.borrow(),
        heading_token: &places.heading_token(),
    };
    let card = rewrite(&clean, &markup);
    drop(clean);
    let blocks = state.blocks.borrow();
    let html = if blocks.is_empty() { card.html } else { places.fill(&card.html, &blocks) };
    // Links resolved in the card's context (a relative path becomes the
    // hub's URL) and blocks put back can make it larger.
    if html.len() > cap {
        return Err(Unsanitised::TooLarge);
    }
    Ok(Sanitised { html, remote_images: card.remote_images, dropped: card.dropped })
}

/// Writes into `html` until it would be over `cap` bytes; then fails, which
/// stops the writer.
struct Capped<'h> {
    html: &'h mut String,
    cap: usize,
}

impl std::fmt::Write for Capped<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if self.html.len() + s.len() > self.cap {
            return Err(std::fmt::Error);
        }
        self.html.push_str(s);
        Ok(())
    }
}

/// Whether `event` can be written without ammonia, which most cards allow:
/// pulldown-cmark escapes all text and attributes, so what is left to check
/// is raw HTML, URLs and ids. Images, footnotes (ids), in-page links (ids)
/// and links with anything but a plain web URL send the card through
/// ammonia and the pass that resolves them. Headings' ids are the card
/// events' own (see [`crate::heading_ids`]).
fn is_trusted(event: &Event) -> bool {
    match event {
        Event::Html(_) | Event::InlineHtml(_) | Event::FootnoteReference(_) => false,
        Event::Start(Tag::Image { .. } | Tag::FootnoteDefinition(_)) => false,
        Event::Start(Tag::Link { link_type, dest_url, .. }) => {
            *link_type != LinkType::Email && is_plain_url(dest_url)
        }
        Event::Start(Tag::Heading { classes, attrs, .. }) => classes.is_empty() && attrs.is_empty(),
        Event::Start(tag) => matches!(
            tag,
            Tag::Paragraph
                | Tag::BlockQuote(None)
                | Tag::List(_)
                | Tag::Item
                | Tag::Table(_)
                | Tag::TableHead
                | Tag::TableRow
                | Tag::TableCell
                | Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
        ),
        Event::Text(_) | Event::Code(_) | Event::SoftBreak | Event::HardBreak | Event::Rule => true,
        Event::TaskListMarker(_) | Event::End(_) => true,
        _ => false,
    }
}

/// A web or mail URL of characters that need no second look: the URLs
/// ammonia would keep as they are. Relative paths are not: they lead to a
/// file of the model's, which [`crate::card_rewrite`] resolves.
fn is_plain_url(url: &str) -> bool {
    let Some(rest) = ["https://", "http://", "mailto:"].iter().find_map(|s| url.strip_prefix(s)) else { return false };
    rest.bytes().all(|b| b.is_ascii_alphanumeric() || b"-._~/?=&%+@:,;!*()".contains(&b))
}

/// An opening `<a>` as ammonia would leave it: escaped, with its `rel`.
fn link_start(dest_url: &str, title: &str) -> String {
    let mut a = String::from("<a href=\"");
    // Writing to a String cannot fail.
    let _ = escape_href(&mut a, dest_url);
    if !title.is_empty() {
        a.push_str("\" title=\"");
        let _ = escape_html(&mut a, title);
    }
    a.push_str("\" rel=\"noopener noreferrer\">");
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use std::sync::OnceLock;

    fn render(md: &str) -> String {
        render_with(md, true).html
    }

    fn render_with(md: &str, remote_images: bool) -> RenderedCard {
        let context = CardContext::hub_only("https://hub.example", "org/model", remote_images);
        render_card(md, &Highlighter::new(), &ShapeValues::new(&[]), &context)
    }

    #[test]
    fn gfm_features_render() {
        let html = render(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n- [ ] todo\n\nNote[^1].\n\n[^1]: The note.\n",
        );
        assert!(html.contains("<table>") && html.contains("<td>1</td>"), "{html}");
        assert!(html.contains("<del>old</del>"), "{html}");
        assert!(html.contains("<input") && html.contains("checked") && html.contains("disabled"), "{html}");
        assert!(html.contains("href=\"#user-content-1\""), "{html}");
        assert!(html.contains("id=\"user-content-1\""), "{html}");
    }

    #[test]
    fn fenced_code_is_highlighted() {
        let html = render("```python\nimport torch\n```\n\n```{.js}\nlet a = \"<i>\";\n```\n");
        assert!(html.contains("<pre class=\"hl-code\"><code><span class=\""), "{html}");
        assert!(html.contains("&lt;i&gt;") && !html.contains("<i>"), "{html}");
        assert!(!html.contains('\u{E000}'), "placeholders are all replaced: {html}");
    }

    #[test]
    fn scripts_handlers_and_dangerous_links_are_removed() {
        let html = render(
            "<script>alert(1)</script>\n\n<img src=\"x.png\" onerror=\"alert(2)\">\n\n\
             [click](javascript:alert(3)) <a href=\"JaVaScRiPt:alert(4)\">x</a>\n\n\
             <iframe src=\"https://evil.example\"></iframe>\n\n<a href=\"data:text/html,hi\">d</a>\n\n\
             <div onclick=\"alert(5)\" style=\"position:fixed\">text</div>\n\n<!-- <script>alert(6)</script> -->\n",
        );
        for bad in ["<script", "onerror", "javascript:", "JaVaScRiPt", "<iframe", "data:", "onclick", "style=", "alert(6)"] {
            assert!(!html.contains(bad), "{bad} survived: {html}");
        }
        assert!(html.contains("text"), "{html}");
    }

    #[test]
    fn images_from_other_hosts_lose_their_source_unless_https_and_allowed() {
        let md = "![a](https://x.example/a.png) <img src=\"//evil.example/b.png\" alt=\"b\"> \
                  <img src=\"/\\evil.example/c.png\" alt=\"c\"> <img src=\" http://evil.example/d.png\"> ![e](pics/e.png)";
        let on = render_with(md, true);
        assert!(!on.html.contains("evil.example"), "{}", on.html);
        assert!(on.html.contains("<img src=\"https://x.example/a.png\" alt=\"a\" loading=\"lazy\" referrerpolicy=\"no-referrer\">"), "{}", on.html);
        assert!(on.html.contains("src=\"https://hub.example/org/model/resolve/main/pics/e.png\""), "{}", on.html);
        assert!(on.remote_images);
        let off = render_with(md, false);
        assert!(!off.html.contains("src=") && off.html.contains("alt=\"a\"") && off.html.contains("alt=\"b\""), "{}", off.html);
        assert!(!off.remote_images);
        assert!(!render_with("![a](https://x.example/a.png)", false).remote_images);
    }

    #[test]
    fn headings_get_ids_and_in_card_links_land_on_them() {
        let card = render("# Title\n\n- [Usage](#usage)\n- [Main](#main)\n- [Note](#note)\n\n## Usage\n\n## Main\n\n<a id=\"note\"></a>\n\n<h1>Raw</h1>\n");
        for expected in [
            "<h2 id=\"title\">Title</h2>",
            "<a href=\"#usage\" rel=\"noopener noreferrer\">Usage</a>",
            "<a href=\"#section-main\" rel=\"noopener noreferrer\">Main</a>",
            "<a href=\"#user-content-note\" rel=\"noopener noreferrer\">Note</a>",
            "<h3 id=\"usage\">Usage</h3>",
            "<h3 id=\"section-main\">Main</h3>",
            "<a id=\"user-content-note\" rel=\"noopener noreferrer\"></a>",
            "<h2>Raw</h2>",
        ] {
            assert!(card.contains(expected), "{expected} in {card}");
        }
        assert!(!card.contains("<h1"), "{card}");
        let plain = render_with("# One\n\n## Two\n\ntext\n", true);
        assert_eq!(plain.html, "<h2 id=\"one\">One</h2>\n<h3 id=\"two\">Two</h3>\n<p>text</p>\n");
        assert_eq!(plain.headings.iter().map(|h| (h.level, h.id.as_str())).collect::<Vec<_>>(), [(2, "one"), (3, "two")]);
    }

    #[test]
    fn math_renders_and_bad_math_is_code() {
        let card = render_with(
            "Inline \\\\(x^2\\\\) and \\\\(y_i * z_i\\\\).\n\n$$\\frac{a}{b}$$\n\n$$\n\\sum_i x_i\n$$\n\nBad: $$\\notacommand{x}$$ and `$$x$$` is code.\n",
            true,
        );
        assert_eq!(card.html.matches("<math").count(), 4, "{}", card.html);
        assert_eq!(card.html.matches("<math display=\"block\">").count(), 2, "{}", card.html);
        assert!(card.html.contains("<code>$$\\notacommand{x}$$</code>"), "{}", card.html);
        assert!(card.html.contains("<code>$$x$$</code>"), "{}", card.html);
        assert!(!card.html.contains("<em>"), "no emphasis inside math: {}", card.html);
        assert_eq!(card.notes, ["1 formula shown as code (not LaTeX math the converter reads)"]);
        // The same through the sanitiser, beside raw HTML: MathML survives it.
        let raw = render_with("<b>raw</b> and $$x^2$$ <math><mi>evil</mi></math>\n", true);
        assert_eq!(raw.html.matches("<math").count(), 1, "only ours: {}", raw.html);
        assert!(raw.html.contains("<msup><mi>x</mi><mn>2</mn></msup>"), "{}", raw.html);
    }

    /// What the real cards write: an escaped parenthesis is a parenthesis,
    /// escaped brackets around a link keep the link, prices are prices.
    #[test]
    fn escaped_brackets_and_prices_are_text_as_on_the_hub() {
        let card = render(
            "# Conversational BERT \\(English, cased, 12-layer\\)\n\n\\[[Journal Link](https://example.org/journal)\\] \\[x\\]\n\n\
             Hosting costs $5 a day, or $150 a month.\n",
        );
        assert!(!card.contains("<math"), "{card}");
        assert!(card.contains("<h2 id=\"conversational-bert-english-cased-12-layer\">Conversational BERT (English, cased, 12-layer)</h2>"), "{card}");
        assert!(card.contains("[<a href=\"https://example.org/journal\" rel=\"noopener noreferrer\">Journal Link</a>] [x]"), "{card}");
        assert!(card.contains("Hosting costs $5 a day, or $150 a month."), "{card}");
    }

    /// The Hub reads math before Markdown, so the formulas real cards put
    /// in HTML tables are rendered; still sanitised around them.
    #[test]
    fn formulas_in_raw_html_tables_render() {
        let card = render(
            "<table>\n<tr><th>Hyperparameter</th><th>Value</th></tr>\n\
             <tr><td>\\\\(n_{parameters}\\\\)</td><td>6053381344</td></tr>\n\
             <tr><td onclick=\"alert(1)\">\\\\(d_{model}\\\\)</td><td>4096</td></tr>\n\
             <tr><td title=\"$$x$$\">$$n_{heads}$$</td><td><code>$$16$$</code></td></tr>\n</table>\n",
        );
        assert_eq!(card.matches("<math>").count(), 2, "{card}");
        assert_eq!(card.matches("<math display=\"block\">").count(), 1, "{card}");
        assert!(card.contains("<td><math><msub><mi>n</mi>"), "{card}");
        assert!(!card.contains("\\\\(") && !card.contains("onclick"), "{card}");
        assert!(card.contains("title=\"$$x$$\"") && card.contains("<code>$$16$$</code>"), "attributes and code stay: {card}");
    }

    /// bigscience/bloom's card links to `<a name="...">` targets, as
    /// GitHub keeps them: an id with the card's prefix.
    #[test]
    fn named_anchors_are_link_targets() {
        let card = render("- [Glossary](#glossary)\n\n<a name=\"glossary\"></a>\n\n<a name=\"two\" id=\"own\">x</a> [Two](#two)\n");
        assert!(card.contains("<a id=\"user-content-glossary\" rel=\"noopener noreferrer\"></a>"), "{card}");
        assert!(card.contains("<a href=\"#user-content-glossary\" rel=\"noopener noreferrer\">Glossary</a>"), "{card}");
        assert!(card.contains("<a id=\"user-content-own\" rel=\"noopener noreferrer\">x</a>"), "an id of its own wins: {card}");
        assert!(!card.contains("name="), "{card}");
    }

    #[test]
    fn safe_html_is_kept() {
        let html = render("<details><summary>More</summary>\n\nHidden *text*.\n\n</details>\n\n[site](https://example.com)\n");
        assert!(html.contains("<details><summary>More</summary>"), "{html}");
        assert!(html.contains("<em>text</em>"), "{html}");
        assert!(html.contains("href=\"https://example.com\""), "{html}");
    }

    #[test]
    fn a_forged_placeholder_stays_text() {
        let html = render("<b>raw</b>\n\n\u{E000}code-block-0\u{E000}\n\n```\nsafe\n```\n\n\u{E000}code-block-7\u{E000}\n");
        assert_eq!(html.matches("safe").count(), 1, "{html}");
        assert!(html.contains("\u{E000}code-block-0\u{E000}") && html.contains("\u{E000}code-block-7\u{E000}"), "{html}");
    }

    /// Renders `md` both ways with code blocks ammonia keeps as they are;
    /// where the card took the fast path, ammonia must have nothing to change.
    fn fast_path_is_what_ammonia_keeps(md: &str) -> bool {
        let block = |n: &mut usize| {
            *n += 1;
            format!("<pre><code>block {n}</code></pre>")
        };
        let (mut a, mut b) = (0, 0);
        let context = CardContext::hub_only("https://hub.example", "org/model", true);
        let fast = card_html(md, Path::Fastest, &context, &mut |_, _| block(&mut a));
        let sanitised = card_html(md, Path::Sanitised, &context, &mut |_, _| block(&mut b));
        let (trusted, fast, sanitised) = (fast.trusted, fast.html, sanitised.html);
        if trusted {
            assert_eq!(normalise(&fast), normalise(&sanitised), "card:\n{md}\nfast:\n{fast}");
        } else {
            assert_eq!(fast, sanitised, "{md}");
        }
        trusted
    }

    /// Parses and writes HTML back, keeping every attribute that could tell
    /// the two paths apart, so only serialisation differences vanish.
    fn normalise(html: &str) -> String {
        static KEEP_ALL: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
        let builder = KEEP_ALL.get_or_init(|| {
            let mut b = ammonia::Builder::default();
            b.add_tags(["input"])
                .link_rel(None)
                .strip_comments(false)
                .url_schemes(HashSet::from(["http", "https", "mailto", "javascript", "data", "vbscript", "file"]))
                .add_generic_attributes([
                    "style", "class", "id", "rel", "href", "src", "alt", "start", "type", "checked", "disabled",
                    "align", "onclick", "onerror", "target", "name",
                ]);
            b
        });
        builder.clean(html).to_string()
    }

    #[test]
    fn fast_cards_equal_sanitised_cards_on_the_corpus() {
        let models = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
        let (mut cards, mut fast) = (0, 0);
        for ns in std::fs::read_dir(&models).unwrap() {
            for model in std::fs::read_dir(ns.unwrap().path()).unwrap() {
                let Ok(card) = std::fs::read_to_string(model.unwrap().path().join("README.md")) else { continue };
                let body = card.splitn(3, "---").nth(2).filter(|_| card.starts_with("---")).unwrap_or(&card);
                cards += 1;
                fast += usize::from(fast_path_is_what_ammonia_keeps(body));
            }
        }
        assert!(cards > 100 && fast * 2 > cards, "{fast} of {cards} cards took the fast path");
    }

    #[test]
    fn hand_picked_cards_take_the_path_they_should() {
        for (md, fast) in [
            ("# Title\n\nText with *em*, **strong**, ~~del~~, `code` & <b>x</b>\n", false),
            ("# Title\n\nText with *em*, **strong**, ~~del~~, `code` & \"q\" 'a' < > \u{a0}\n", true),
            ("| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n", true),
            ("- [x] done\n- [ ] todo\n\n1. one\n2. two\n\n5. five\n\n---\n\n> quote\n", true),
            ("[site](https://example.com/a_b?c=d&e=f \"Title & co\") <https://auto.example>\n", true),
            ("[rel](docs/x.md)\n", false),
            ("[mail](mailto:a@example.com)\n", true),
            ("[bad](javascript:alert(1)) [bad2](JAVASCRIPT:x) [data](data:text/html,x)\n", false),
            ("[in page](#usage)\n", false),
            ("![img](pic.png)\n", false),
            ("Note[^1].\n\n[^1]: The note.\n", false),
            ("<mail@example.com>\n", false),
            ("line one  \nline two\\\nthree\n\n```python\nx = 1\n```\n\n    indented\n", true),
            ("# Heading {#custom}\n\n## Heading\n\n# Main\n", true),
            ("Math $x^2$ and $$y$$ and $$\\frac{1}{$$ and \\\\(z\\\\) and \\(no\\)\n", true),
        ] {
            assert_eq!(fast_path_is_what_ammonia_keeps(md), fast, "{md}");
        }
    }

    use proptest::prelude::*;

    fn markdown_piece() -> impl Strategy<Value = String> {
        let text = "[a-zA-Z0-9 &<>\"'*_`~|:#!\\\\\u{a0}\u{e000}é-]{0,24}";
        let url = prop_oneof![
            Just("https://example.com/x?a=1&b=2".to_owned()),
            Just("javascript:alert(1)".to_owned()),
            Just("docs/a b.md".to_owned()),
            Just("#anchor".to_owned()),
            Just("mailto:a@b.c".to_owned()),
            Just("//evil.example/x".to_owned()),
            Just("HTTP://X".to_owned()),
            "[a-z:/#?.%()-]{0,16}",
        ];
        prop_oneof![
            text.prop_map(|t| format!("{t}\n")),
            (text, url.clone()).prop_map(|(t, u)| format!("[{t}]({u})")),
            (text, url).prop_map(|(t, u)| format!("![{t}]({u})\n")),
            text.prop_map(|t| format!("# {t}\n")),
            text.prop_map(|t| format!("- [x] {t}\n- {t}\n")),
            text.prop_map(|t| format!("| {t} | b |\n|:-|-:|\n| `{t}` | *{t}* |\n")),
            text.prop_map(|t| format!("```py\n{t}\n```\n")),
            text.prop_map(|t| format!("> **{t}**\n")),
            Just("\n".to_owned()),
            Just("<div>".to_owned()),
            Just("[^1]\n\n[^1]: x\n".to_owned()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
        #[test]
        fn random_cards_render_the_same_either_way(pieces in prop::collection::vec(markdown_piece(), 0..12)) {
            fast_path_is_what_ammonia_keeps(&pieces.concat());
        }
    }
}
