//! Build-time syntax highlighting with class-based spans.
//!
//! Tokens carry short classes (see [`crate::theme`]) and one stylesheet
//! ([`Highlighter::stylesheet`]) holds the colours for a light and a dark
//! theme, so pages carry no inline styles and follow the visitor's
//! `prefers-color-scheme`.
//!
//! Examples of thousands of models differ only in a few values (the id, a
//! file name), so the highlighted HTML of an example's *shape* (its text
//! with the page's plain values replaced by placeholders) is kept and
//! filled with each model's values. This shape cache, and the line cache
//! ([`crate::line_cache`]), are the render side of the build's caching and
//! keep its contract (see `modelpages_snippets`' `cache` module): a cached
//! answer is byte-identical to highlighting the text itself; a shape whose
//! placeholders a grammar splits is highlighted from the real text instead.

use std::fmt::Write as _;
use std::sync::Arc;

use syntect::parsing::{ParseState, ScopeStack, SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

use crate::line_cache::{LineCache, LineOps};
use crate::theme::{stylesheet, token_class, TokenClass};

/// Holds syntect's syntax set (load it once per build, it is costly) and a
/// cache of highlighted example shapes.
pub struct Highlighter {
    syntaxes: SyntaxSet,
    shapes: ShapeCache,
    lines: LineCache,
}

/// Placeholders are this stem, a number and `X`: letters and digits only, so
/// they lex like the plain values they stand for.
const PLACEHOLDER_STEM: &str = "MPVALUEPLACEHOLDER";

/// A value that can stand in a shape: letters, digits, spaces and `-_./:,!?`
/// only, at least 3 characters. Nothing in it is an escape, a quote, a
/// format placeholder or markup in any grammar the examples use, and HTML
/// escaping leaves it as it is.
pub fn is_plain(value: &str) -> bool {
    value.len() >= 3
        && value.chars().all(|c| c.is_ascii_alphanumeric() || " -_./:,!?".contains(c))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !value.contains("  ")
}
/// The cache stops growing at this many shapes or bytes (code and HTML); a
/// build keeps working, only slower.
const MAX_SHAPES: usize = 50_000;
const MAX_SHAPE_CACHE_BYTES: usize = 256 << 20;
/// Examples longer than this are not cached: long code is a card's own and
/// rarely met twice, and would crowd out the short examples models share.
const MAX_SHAPE_BYTES: usize = 16 << 10;

/// Highlighted examples with the model id taken out: examples of different
/// models usually differ only by the id, and highlighting is the costliest
/// step of a build. Sharded so rayon's threads rarely wait on each other.
struct ShapeCache {
    shards: Vec<std::sync::Mutex<ShapeShard>>,
}

#[derive(Default)]
struct ShapeShard {
    shapes: ShapeMap,
    /// Of the keys and HTML held.
    bytes: usize,
}

/// `language NUL shape` to the shape's highlighted HTML.
type ShapeMap = foldhash::HashMap<String, Arc<HighlightedShape>>;

/// A shape's highlighted HTML and where its placeholders sit in it, so
/// filling the values in is one pass.
struct HighlightedShape {
    html: String,
    /// (start, end, value index) of each placeholder in `html`, in order.
    holes: Vec<(usize, usize, usize)>,
}

impl HighlightedShape {
    /// Finds the placeholders in `html`; `None` when any of the `expected`
    /// placeholders is not found whole (a grammar split one), so the caller
    /// highlights the real text instead.
    fn new(html: String, expected: usize) -> Option<HighlightedShape> {
        let mut holes = Vec::with_capacity(expected);
        for start in memchr::memmem::find_iter(html.as_bytes(), PLACEHOLDER_STEM) {
            let digits = &html[start + PLACEHOLDER_STEM.len()..];
            let len = digits.bytes().take_while(u8::is_ascii_digit).count();
            if len == 0 || digits.as_bytes().get(len) != Some(&b'X') {
                return None;
            }
            let index = digits[..len].parse().ok()?;
            holes.push((start, start + PLACEHOLDER_STEM.len() + len + 1, index));
        }
        (holes.len() == expected).then_some(HighlightedShape { html, holes })
    }

    fn fill(&self, values: &[&str]) -> String {
        let extra: usize = self.holes.iter().map(|&(_, _, i)| values[i].len()).sum();
        let mut out = String::with_capacity(self.html.len() + extra);
        let mut at = 0;
        for &(start, end, index) in &self.holes {
            out.push_str(&self.html[at..start]);
            // Plain values need no escaping (see `is_plain`).
            out.push_str(values[index]);
            at = end;
        }
        out.push_str(&self.html[at..]);
        out
    }
}

/// A model's plain values (see [`is_plain`]), ready to be searched for in
/// each of its examples: made once per page.
pub struct ShapeValues<'v> {
    finders: Vec<memchr::memmem::Finder<'v>>,
}

impl<'v> ShapeValues<'v> {
    pub fn new(values: &[&'v str]) -> ShapeValues<'v> {
        let mut plain: Vec<&str> = values.iter().copied().filter(|v| is_plain(v)).collect();
        plain.sort_unstable();
        plain.dedup();
        ShapeValues { finders: plain.into_iter().map(memchr::memmem::Finder::new).collect() }
    }
}

/// An example with its plain values replaced by numbered placeholders.
struct Shape<'v> {
    /// `language NUL text`: the cache key.
    key: String,
    lang_len: usize,
    /// The value each placeholder number stands for.
    values: Vec<&'v str>,
    /// How many placeholders the text holds.
    holes: usize,
}

impl<'v> Shape<'v> {
    /// Replaces every occurrence of each plain value, preferring at each
    /// position the longest value that starts there (so a name inside an id
    /// goes with the id). `None` when the code holds the placeholder stem
    /// itself, which could not be told from a placeholder, or the language
    /// a NUL, which would make two keys alike.
    fn of(code: &str, lang: &str, values: &'v ShapeValues<'v>) -> Option<Shape<'v>> {
        if memchr::memmem::find(code.as_bytes(), PLACEHOLDER_STEM.as_bytes()).is_some() || lang.contains('\0') {
            return None;
        }
        // (start, end, value) of every occurrence of every plain value.
        let mut found: Vec<(usize, usize, &'v str)> = Vec::new();
        for finder in &values.finders {
            // Plain values are ASCII, so the needle is a whole str.
            let value = std::str::from_utf8(finder.needle()).expect("plain values are ASCII");
            found.extend(finder.find_iter(code.as_bytes()).map(|start| (start, start + value.len(), value)));
        }
        found.sort_unstable_by_key(|&(start, end, _)| (start, std::cmp::Reverse(end)));
        let mut key = String::with_capacity(lang.len() + 1 + code.len());
        key.push_str(lang);
        key.push('\0');
        let mut used: Vec<&'v str> = Vec::new();
        let (mut at, mut holes) = (0, 0);
        for (start, end, value) in found {
            if start < at {
                continue; // overlaps the value just replaced
            }
            let index = match used.iter().position(|v| *v == value) {
                Some(index) => index,
                None => {
                    used.push(value);
                    used.len() - 1
                }
            };
            key.push_str(&code[at..start]);
            let _ = write!(key, "{PLACEHOLDER_STEM}{index}X");
            at = end;
            holes += 1;
        }
        key.push_str(&code[at..]);
        Some(Shape { key, lang_len: lang.len(), values: used, holes })
    }

    fn text(&self) -> &str {
        &self.key[self.lang_len + 1..]
    }
}

impl ShapeCache {
    fn new() -> ShapeCache {
        ShapeCache { shards: (0..16).map(|_| Default::default()).collect() }
    }

    fn shard(&self, key: &str) -> &std::sync::Mutex<ShapeShard> {
        use std::hash::BuildHasher;
        let hash = foldhash::fast::FixedState::default().hash_one(key);
        &self.shards[(hash as usize) % self.shards.len()]
    }
}

impl Default for Highlighter {
    fn default() -> Self {
        Highlighter::new()
    }
}

impl Highlighter {
    pub fn new() -> Highlighter {
        Highlighter { syntaxes: SyntaxSet::load_defaults_newlines(), shapes: ShapeCache::new(), lines: LineCache::new() }
    }

    /// Like [`Highlighter::highlight`] for an example of one model: the
    /// example's shape, with each of `values` (the model id, its widget texts)
    /// replaced by a placeholder, is highlighted once per build and the values
    /// put back. Only plain values are replaced (see [`is_plain`]): they lex
    /// like any placeholder inside the strings, URLs and comments they sit
    /// in, which `tests` check byte for byte on the whole corpus.
    pub fn highlight_example(&self, code: &str, lang: &str, values: &ShapeValues<'_>) -> String {
        let Some(shape) = Shape::of(code, lang, values).filter(|shape| shape.key.len() <= MAX_SHAPE_BYTES) else {
            return self.highlight(code, lang);
        };
        let shard = self.shapes.shard(&shape.key);
        let cached = shard.lock().expect("cache lock").shapes.get(&shape.key).cloned();
        let highlighted = match cached {
            Some(highlighted) => highlighted,
            None => {
                let Some(highlighted) = HighlightedShape::new(self.highlight(shape.text(), lang), shape.holes) else {
                    return self.highlight(code, lang);
                };
                let highlighted = Arc::new(highlighted);
                let mut shard = shard.lock().expect("cache lock");
                let bytes = shape.key.len() + highlighted.html.len();
                let shards = self.shapes.shards.len();
                if shard.shapes.len() < MAX_SHAPES / shards && shard.bytes + bytes <= MAX_SHAPE_CACHE_BYTES / shards {
                    shard.bytes += bytes;
                    shard.shapes.insert(shape.key, highlighted.clone());
                }
                highlighted
            }
        };
        highlighted.fill(&shape.values)
    }

    /// Highlights `code` written in `lang` (a fence token such as `python`,
    /// `py`, `js`, `sh`). Unknown languages come back escaped but unstyled.
    /// The result is the inside of a `<code>` element: flat spans, one per
    /// run of text with the same style.
    pub fn highlight(&self, code: &str, lang: &str) -> String {
        self.highlight_lines(code, lang, true)
    }

    /// [`Highlighter::highlight`] without the line cache: every line parsed
    /// afresh. The reference the caches are tested against.
    pub fn highlight_uncached(&self, code: &str, lang: &str) -> String {
        self.highlight_lines(code, lang, false)
    }

    fn highlight_lines(&self, code: &str, lang: &str, line_cache: bool) -> String {
        let Some(syntax) = self.syntax_for(lang) else {
            return escape_content(code);
        };
        let mut parser = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        let mut out = SpanWriter::with_capacity(code.len() * 2);
        for line in LinesWithEndings::from(code) {
            // A grammar failure is syntect's problem, not the page's: show the code plain.
            let ops = if line_cache {
                self.lines.parse_line(&mut parser, line, &self.syntaxes)
            } else {
                parser.parse_line(line, &self.syntaxes).map(LineOps::from)
            };
            let Ok(ops) = ops else {
                return escape_content(code);
            };
            let mut at = 0;
            for (index, op) in ops.iter() {
                if *index > at {
                    out.text(&line[at..*index], &stack);
                    at = *index;
                }
                if stack.apply(op).is_err() {
                    return escape_content(code);
                }
            }
            out.text(&line[at..], &stack);
        }
        out.finish()
    }

    /// Whether `lang` has a grammar: code in other languages is only escaped.
    pub fn highlights(&self, lang: &str) -> bool {
        self.syntax_for(lang).is_some()
    }

    fn syntax_for(&self, lang: &str) -> Option<&SyntaxReference> {
        let token = match lang.trim().to_ascii_lowercase().as_str() {
            "" | "text" | "plain" | "plaintext" | "txt" => return None,
            "js" | "javascript" | "mjs" | "ts" | "typescript" | "jsx" | "tsx" => "js",
            "sh" | "shell" | "bash" | "zsh" | "console" | "curl" => "sh",
            "py" | "python" | "python3" => "py",
            other => return self.syntaxes.find_syntax_by_token(other),
        };
        self.syntaxes.find_syntax_by_token(token)
    }

    /// CSS for the highlight classes: the light theme under
    /// `prefers-color-scheme: light`, the dark one under `dark`.
    pub fn stylesheet() -> String {
        stylesheet()
    }
}

/// Writes escaped text into spans, starting a span only where the style changes.
struct SpanWriter {
    html: String,
    /// The classes of the open span, if one is open.
    open: Option<Arc<TokenClass>>,
}

impl SpanWriter {
    fn with_capacity(capacity: usize) -> SpanWriter {
        SpanWriter { html: String::with_capacity(capacity), open: None }
    }

    fn text(&mut self, text: &str, stack: &ScopeStack) {
        if text.is_empty() {
            return;
        }
        let class = token_class(stack.as_slice());
        // Whitespace looks the same in any span without a background or
        // underline, so it joins the open one rather than splitting it.
        let blank = text.bytes().all(|b| b.is_ascii_whitespace());
        let keep_open = match &self.open {
            Some(open) => **open == *class || (blank && !open.shows_whitespace && !class.shows_whitespace),
            None => class.classes.is_empty() || (blank && !class.shows_whitespace),
        };
        if !keep_open {
            if self.open.take().is_some() {
                self.html.push_str("</span>");
            }
            if !class.classes.is_empty() {
                self.html.push_str("<span class=\"");
                self.html.push_str(&class.classes);
                self.html.push_str("\">");
                self.open = Some(class);
            }
        }
        escape_content_into(text, &mut self.html);
    }

    fn finish(mut self) -> String {
        if self.open.is_some() {
            self.html.push_str("</span>");
        }
        self.html
    }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let _ = write_html_escaped(text, |piece| {
        out.push_str(piece);
        Ok::<(), std::convert::Infallible>(())
    });
    out
}

/// Hands `text` to `write` HTML-escaped, in pieces: runs that need no escape
/// go whole, so no intermediate string is made.
pub(crate) fn write_html_escaped<E>(text: &str, mut write: impl FnMut(&str) -> Result<(), E>) -> Result<(), E> {
    let mut start = 0;
    for (i, b) in text.bytes().enumerate() {
        let entity = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            b'\'' => "&#39;",
            _ => continue,
        };
        write(&text[start..i])?;
        write(entity)?;
        start = i + 1;
    }
    write(&text[start..])
}

/// Escapes text for element content only (never an attribute): quotes mean
/// nothing there, and code is full of them.
fn escape_content_into(text: &str, out: &mut String) {
    let mut start = 0;
    for i in memchr::memchr3_iter(b'&', b'<', b'>', text.as_bytes()) {
        out.push_str(&text[start..i]);
        out.push_str(match text.as_bytes()[i] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            _ => "&gt;",
        });
        start = i + 1;
    }
    out.push_str(&text[start..]);
}

fn escape_content(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    escape_content_into(text, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of highlighted HTML: tags dropped, entities decoded.
    fn text_of(html: &str) -> String {
        let mut text = String::new();
        let mut rest = html;
        while let Some(open) = rest.find('<') {
            text.push_str(&rest[..open]);
            rest = &rest[rest[open..].find('>').expect("tags close") + open + 1..];
        }
        text.push_str(rest);
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
    }

    #[test]
    fn python_gets_classed_spans_and_escaped_text() {
        let hl = Highlighter::new();
        let html = hl.highlight("import os\nprint(\"<b>\")\n", "python");
        assert!(html.contains("<span class=\"l"), "{html}");
        assert!(html.contains("&lt;b&gt;"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(!html.contains("style="), "class-based only: {html}");
        assert!(!html.contains("<span class=\"\""), "no empty classes: {html}");
        assert_eq!(html.matches("<span").count(), html.matches("</span>").count(), "{html}");
        assert!(!html.contains("<span class=\"l1\"><span"), "spans are flat: {html}");
    }

    #[test]
    fn highlighting_keeps_every_character() {
        let hl = Highlighter::new();
        for (lang, code) in [
            ("python", "import os\n\n  x = {'a': \"<&>\"}  # note\n\tprint(x)\n"),
            ("js", "const a = `x ${1 + 2}`; // <b>\r\nawait fetch(\"u\", {method: 'POST'});\n"),
            ("sh", "curl -X POST \"https://h/x?a=1&b=2\" \\\n  -d '{\"k\": \"v\"}'\n"),
            ("json", "{\"a\": [1, 2.5, null, \"é\"]}"),
            ("python", ""),
        ] {
            let html = hl.highlight(code, lang);
            assert_eq!(text_of(&html), code, "{lang}: {html}");
        }
    }

    #[test]
    fn whitespace_joins_the_span_around_it() {
        let hl = Highlighter::new();
        // Two keywords of the same colour with a space between: one span.
        let html = hl.highlight("from a import b\n", "python");
        let spans = html.matches("<span").count();
        let words = hl.highlight("from\n", "python").matches("<span").count();
        assert!(spans >= 2 && words == 1, "{html}");
        assert!(!html.contains("<span class=\"\">"), "{html}");
    }

    #[test]
    fn aliases_and_unknown_languages() {
        let hl = Highlighter::new();
        assert_eq!(hl.highlight("x", "py"), hl.highlight("x", "python"));
        assert!(hl.highlight("echo hi\n", "bash").contains("<span class="));
        assert!(hl.highlight("const a = 1;\n", "js").contains("<span class="));
        assert_eq!(hl.highlight("<x> & y\n", "no-such-lang"), "&lt;x&gt; &amp; y\n");
    }

    #[test]
    fn shapes_take_the_longest_value_at_each_place_and_fill_back() {
        let values = ShapeValues::new(&["acme/tiny-bert", "tiny-bert", "no", "tiny-bert"]);
        let code = "m = \"acme/tiny-bert\"  # tiny-bert, not acme/tiny-bert2\n";
        let shape = Shape::of(code, "python", &values).expect("a shape");
        assert_eq!(shape.values, ["acme/tiny-bert", "tiny-bert"], "too short or repeated values are not placeholders");
        assert_eq!(shape.holes, 3);
        assert_eq!(
            shape.text(),
            "m = \"MPVALUEPLACEHOLDER0X\"  # MPVALUEPLACEHOLDER1X, not MPVALUEPLACEHOLDER0X2\n"
        );
        let highlighted = HighlightedShape::new(shape.text().to_owned(), shape.holes).expect("placeholders whole");
        assert_eq!(highlighted.fill(&shape.values), code);
    }

    #[test]
    fn examples_that_cannot_be_shaped_are_highlighted_whole() {
        let hl = Highlighter::new();
        let code = "x = \"MPVALUEPLACEHOLDER0X acme/tiny-bert\"\n";
        let values = ShapeValues::new(&["acme/tiny-bert"]);
        assert!(Shape::of(code, "python", &values).is_none());
        assert!(Shape::of("acme/tiny-bert", "python\0x", &values).is_none(), "the language ends the key");
        assert_eq!(hl.highlight_example(code, "python", &values), hl.highlight(code, "python"));
        // A placeholder a grammar cut in two cannot be filled.
        assert!(HighlightedShape::new("<i>MPVALUEPLACEHOLDER</i>0X".into(), 1).is_none());
        assert!(HighlightedShape::new("MPVALUEPLACEHOLDER0X".into(), 2).is_none());
    }

    #[test]
    fn long_examples_are_highlighted_but_not_kept() {
        let hl = Highlighter::new();
        let values = ShapeValues::new(&["acme/tiny-bert"]);
        // 48 KB: a long block of a card.
        let long = "x = 'acme/tiny-bert'  # a long block of a card\n".repeat(1000);
        assert_eq!(hl.highlight_example(&long, "python", &values), hl.highlight(&long, "python"));
        hl.highlight_example("x = 'acme/tiny-bert'\n", "python", &values);
        let kept: usize = hl.shapes.shards.iter().map(|shard| shard.lock().unwrap().shapes.len()).sum();
        assert_eq!(kept, 1, "only the short example is kept");
    }

    #[test]
    fn code_escapes_markup_but_not_quotes() {
        let hl = Highlighter::new();
        let html = hl.highlight("a = '<b>' + \"&\"\n", "python");
        assert!(html.contains("&lt;b&gt;") && html.contains("&amp;"), "{html}");
        assert!(html.contains('\'') && html.contains('"') && !html.contains("&quot;"), "{html}");
        assert_eq!(hl.highlight("\"<x>\"", "text"), "\"&lt;x&gt;\"");
    }
}
