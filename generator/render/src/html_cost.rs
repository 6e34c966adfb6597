//! What sanitising a card's HTML would cost, found out before ammonia pays it.
//!
//! ammonia parses with html5ever, whose tree builder follows the HTML
//! standard, and the standard's algorithms are not linear on hostile
//! markup: each tag may walk the whole stack of open elements (100,000
//! nested `<div>`s take half a minute), and misnested formatting tags are
//! re-opened inside every later element (45 KB of `<b id=N>` and `<div>`s
//! make 28 MB of HTML; one `<a>` with a long `href` is copied into each
//! later `<div>`). The costs depend on the whole tree builder, so rather
//! than guess at them, [`check`] runs html5ever's own tree builder on the
//! same HTML with a sink that only counts what ammonia's would build, a
//! slice at a time, and stops as soon as a count is past its budget: the
//! check itself never costs more than a slice past the budget.
//!
//! The check costs two thirds of what ammonia does, so cards whose raw HTML
//! is a few common tags (most cards with any) skip it: see [`RawHtmlTally`].

use std::borrow::Cow;
use std::cell::Cell;
use std::rc::Rc;

use html5ever::interface::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::{local_name, ns, Attribute, ParseOpts, QualName};

/// Elements nested deeper than this in the tree (html5ever's stack of open
/// elements is about as deep): real cards nest a few dozen at most.
pub(crate) const MAX_DEPTH: u32 = 256;
/// Steps of the tree builder (each time it looks at an open element) per
/// byte of HTML. Real cards take one or two.
const STEPS_PER_BYTE: usize = 16;
/// Elements per tag in the HTML: a tag may imply two more (`<td>` alone
/// makes a row and a table body); re-opened formatting elements make more.
const ELEMENTS_PER_TAG: usize = 3;
/// Allowances for short HTML, which any of the budgets above would starve.
const SMALL_STEPS: usize = 1 << 20;
const SMALL_ELEMENTS: usize = 4096;
const SMALL_ATTRIBUTE_BYTES: usize = 64 << 10;
/// Fed to the tree builder at a time; the budgets are checked in between.
const SLICE_BYTES: usize = 1024;

/// Raw HTML with at most this many tags (not counting [`PLAIN_VOID_TAGS`]),
/// of at most this many bytes, skips [`check`] when its tags are all plain
/// and none is in a link's text.
const PLAIN_MAX_TAGS: usize = 64;
const PLAIN_MAX_BYTES: usize = 2 << 10;
/// Elements that neither stay open nor close any: they only re-open
/// formatting elements, as text does.
const PLAIN_VOID_TAGS: &[&str] = &["br", "img", "source", "wbr"];
/// Elements (sorted) whose start tags html5ever handles without switching
/// insertion mode (no tables, selects, templates or foreign content: in a table,
/// every Markdown paragraph would re-open the formatting elements left
/// open), and which cards use.
const PLAIN_TAGS: &[&str] = &[
    "a", "abbr", "article", "aside", "audio", "b", "big", "blockquote", "center", "cite", "code", "dd", "del",
    "details", "div", "dl", "dt", "em", "figcaption", "figure", "font", "footer", "h1", "h2", "h3", "h4", "h5",
    "h6", "header", "hr", "i", "ins", "kbd", "li", "main", "mark", "nav", "ol", "p", "picture", "pre", "q", "s",
    "samp", "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "tt", "u", "ul", "var",
    "video",
];

/// What a card's raw HTML holds, to tell whether it needs [`check`].
///
/// Without raw tags the sanitiser sees only the well-nested tags that
/// pulldown-cmark writes, at most [`crate::card_limits::MAX_NESTING`] deep.
/// A few plain tags add little to that: at most [`PLAIN_MAX_TAGS`] open
/// elements and entries in html5ever's list of formatting elements (besides
/// the three each of `em`, `strong` and `code` that misnesting may leave
/// there), and no insertion mode (tables, selects, foreign content) in
/// which Markdown's tags would re-open those entries again and again. An
/// entry left open is re-opened where the element around it closed, and is
/// then closed only by an element opened before it: so at most once per
/// level of nesting and per raw tag that closes elements (void tags close
/// none and are not counted). Its copies add at most (levels + tags) times
/// the raw HTML's bytes: 256 KiB. Markdown links, whose URLs may be long,
/// are always closed by their own end tag unless raw HTML in their text
/// misnests them.
pub(crate) struct RawHtmlTally {
    tags: usize,
    bytes: usize,
    plain: bool,
}

impl Default for RawHtmlTally {
    fn default() -> Self {
        RawHtmlTally { tags: 0, bytes: 0, plain: true }
    }
}

impl RawHtmlTally {
    /// Counts a raw HTML event; `in_link` when it is in a link's text.
    pub(crate) fn add(&mut self, raw: &str, in_link: bool) {
        self.bytes += raw.len();
        let bytes = raw.as_bytes();
        for at in memchr::memchr_iter(b'<', bytes) {
            // Anything a tokenizer could take for a tag counts, wherever it
            // stands (in a comment, in an attribute): never fewer tags.
            let (name_at, end_tag) = match bytes.get(at + 1) {
                Some(b'/') => (at + 2, true),
                Some(_) => (at + 1, false),
                None => continue,
            };
            // A tag's name runs to a blank, `/` or `>`, as html5ever reads it.
            if !bytes.get(name_at).is_some_and(u8::is_ascii_alphabetic) {
                continue;
            }
            let name_len = bytes[name_at..].iter().take_while(|b| !b.is_ascii_whitespace() && !b"/>".contains(b)).count();
            let kind = plain_kind(&bytes[name_at..name_at + name_len]);
            if end_tag || kind != Some(Plain::Void) {
                self.tags += 1;
            }
            if in_link || (!end_tag && kind.is_none()) {
                self.plain = false;
            }
        }
    }

    /// Whether the HTML could cost the sanitiser more than its size.
    pub(crate) fn needs_check(&self) -> bool {
        self.tags > 0 && !(self.plain && self.tags <= PLAIN_MAX_TAGS && self.bytes <= PLAIN_MAX_BYTES)
    }
}

#[derive(PartialEq)]
enum Plain {
    Void,
    Other,
}

/// Whether a tag name is one of [`PLAIN_TAGS`] or [`PLAIN_VOID_TAGS`].
fn plain_kind(name: &[u8]) -> Option<Plain> {
    let mut lower = [0u8; 12];
    let lower = lower.get_mut(..name.len())?;
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    let lower = std::str::from_utf8(lower).ok()?;
    if PLAIN_VOID_TAGS.contains(&lower) {
        Some(Plain::Void)
    } else {
        PLAIN_TAGS.binary_search(&lower).is_ok().then_some(Plain::Other)
    }
}

/// Which budget a card's HTML is past.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Excess {
    Depth,
    Steps,
    Elements,
    AttributeBytes,
}

impl std::fmt::Display for Excess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Excess::Depth => write!(f, "nests deeper than {MAX_DEPTH} elements"),
            Excess::Steps => write!(f, "takes more than {STEPS_PER_BYTE} steps per byte to parse"),
            Excess::Elements => write!(f, "makes more than {ELEMENTS_PER_TAG} elements per tag"),
            Excess::AttributeBytes => write!(f, "copies more bytes of attributes than it holds"),
        }
    }
}

/// Whether html5ever can build the tree of `html` within the budgets.
pub(crate) fn check(html: &str) -> Result<(), Excess> {
    let tags = memchr::memchr_iter(b'<', html.as_bytes())
        .filter(|&i| html.as_bytes().get(i + 1).is_some_and(u8::is_ascii_alphabetic))
        .count();
    let budget = Budget {
        steps: html.len().saturating_mul(STEPS_PER_BYTE).saturating_add(SMALL_STEPS),
        elements: tags.saturating_mul(ELEMENTS_PER_TAG).saturating_add(SMALL_ELEMENTS),
        attribute_bytes: html.len().saturating_add(SMALL_ATTRIBUTE_BYTES),
    };
    let counts = Rc::new(Counts::default());
    let sink = CountingSink { counts: counts.clone(), document: Node::root() };
    // ammonia parses a fragment in a `<div>`, without scripting.
    let context = QualName::new(None, ns!(html), local_name!("div"));
    let mut parser = html5ever::parse_fragment(sink, ParseOpts::default(), context, Vec::new(), false);
    let mut rest = html;
    while !rest.is_empty() {
        let mut end = SLICE_BYTES.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&rest[..end]));
        rest = &rest[end..];
        counts.within(&budget)?;
    }
    parser.finish();
    counts.within(&budget)
}

struct Budget {
    steps: usize,
    elements: usize,
    attribute_bytes: usize,
}

#[derive(Default)]
struct Counts {
    /// Times the tree builder asked about an element (its name, or whether
    /// it is another): its walks over the open elements.
    steps: Cell<usize>,
    elements: Cell<usize>,
    attribute_bytes: Cell<usize>,
    /// The deepest element appended, counted from the fragment's root.
    depth: Cell<u32>,
}

impl Counts {
    fn within(&self, budget: &Budget) -> Result<(), Excess> {
        if self.depth.get() > MAX_DEPTH {
            Err(Excess::Depth)
        } else if self.steps.get() > budget.steps {
            Err(Excess::Steps)
        } else if self.elements.get() > budget.elements {
            Err(Excess::Elements)
        } else if self.attribute_bytes.get() > budget.attribute_bytes {
            Err(Excess::AttributeBytes)
        } else {
            Ok(())
        }
    }

    fn step(&self) {
        self.steps.set(self.steps.get() + 1);
    }
}

/// An element's name and how deep it was put. Depths are not updated when
/// the tree builder moves nodes (misnested formatting, foster parenting):
/// that moves them at most a level or two from where they were counted.
struct Node {
    name: QualName,
    depth: Cell<u32>,
}

impl Node {
    fn root() -> Rc<Node> {
        Rc::new(Node { name: QualName::new(None, ns!(), local_name!("")), depth: Cell::new(0) })
    }
}

struct CountingSink {
    counts: Rc<Counts>,
    document: Rc<Node>,
}

impl CountingSink {
    fn place(&self, child: &NodeOrText<Rc<Node>>, depth: u32) {
        if let NodeOrText::AppendNode(node) = child {
            node.depth.set(depth);
            self.counts.depth.set(self.counts.depth.get().max(depth));
        }
    }
}

impl TreeSink for CountingSink {
    type Handle = Rc<Node>;
    type Output = ();
    type ElemName<'a> = &'a QualName;

    fn finish(self) {}

    fn parse_error(&self, _message: Cow<'static, str>) {}

    fn get_document(&self) -> Rc<Node> {
        self.document.clone()
    }

    fn elem_name<'a>(&'a self, target: &'a Rc<Node>) -> &'a QualName {
        self.counts.step();
        &target.name
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _flags: ElementFlags) -> Rc<Node> {
        let counts = &self.counts;
        counts.elements.set(counts.elements.get() + 1);
        let bytes: usize = attrs.iter().map(|a| a.name.local.len() + a.value.len()).sum();
        counts.attribute_bytes.set(counts.attribute_bytes.get() + bytes);
        Rc::new(Node { name, depth: Cell::new(0) })
    }

    fn create_comment(&self, _text: StrTendril) -> Rc<Node> {
        Node::root()
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> Rc<Node> {
        Node::root()
    }

    fn append(&self, parent: &Rc<Node>, child: NodeOrText<Rc<Node>>) {
        self.place(&child, parent.depth.get() + 1);
    }

    fn append_based_on_parent_node(&self, element: &Rc<Node>, prev_element: &Rc<Node>, child: NodeOrText<Rc<Node>>) {
        // Either beside `element` or inside `prev_element`: count the deeper.
        self.place(&child, element.depth.get().max(prev_element.depth.get() + 1));
    }

    fn append_doctype_to_document(&self, _name: StrTendril, _public_id: StrTendril, _system_id: StrTendril) {}

    fn get_template_contents(&self, target: &Rc<Node>) -> Rc<Node> {
        target.clone()
    }

    fn same_node(&self, x: &Rc<Node>, y: &Rc<Node>) -> bool {
        self.counts.step();
        Rc::ptr_eq(x, y)
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &Rc<Node>, new_node: NodeOrText<Rc<Node>>) {
        self.place(&new_node, sibling.depth.get());
    }

    fn add_attrs_if_missing(&self, _target: &Rc<Node>, _attrs: Vec<Attribute>) {}

    fn remove_from_parent(&self, _target: &Rc<Node>) {}

    fn reparent_children(&self, _node: &Rc<Node>, _new_parent: &Rc<Node>) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_html_is_within_every_budget() {
        let card = "<div align=\"center\"><img src=\"logo.png\"></div>\n<p>Some <b>bold</b> and <a href=\"x\">a link</a>.</p>\n\
                    <table><tr><th>a</th><td>1</td></tr><tr><td><code>x</code></td><td>2</td></tr></table>\n";
        assert_eq!(check(&card.repeat(2000)), Ok(()));
        assert_eq!(check(""), Ok(()));
    }

    #[test]
    fn deep_nesting_is_past_the_depth_budget() {
        assert_eq!(check(&"<div>".repeat(MAX_DEPTH as usize - 8)), Ok(()));
        assert_eq!(check(&"<div>".repeat(100_000)), Err(Excess::Depth));
        let formatting: String = (0..20_000).map(|i| format!("<b id={i}>")).collect();
        assert_eq!(check(&formatting), Err(Excess::Depth));
        assert_eq!(check(&"<blockquote>\n".repeat(1000)), Err(Excess::Depth));
    }

    fn tally(events: &[(&str, bool)]) -> RawHtmlTally {
        let mut tally = RawHtmlTally::default();
        events.iter().for_each(|(raw, in_link)| tally.add(raw, *in_link));
        tally
    }

    #[test]
    fn a_few_plain_tags_need_no_check() {
        assert!(PLAIN_TAGS.windows(2).all(|pair| pair[0] < pair[1]), "sorted, for binary search");
        assert!(!tally(&[]).needs_check());
        assert!(!tally(&[("<!-- comment --> a < b", false)]).needs_check(), "no tag at all");
        let badge = "<a href=\"https://x.y/\"><img src=\"https://x.y/b.svg\"></a>";
        assert!(!tally(&[("<div align=\"center\">\n", false), (badge, false), ("</div>\n", false)]).needs_check());
        assert!(!tally(&[("<DIV>", false), ("<Br/>", false)]).needs_check(), "names in any case");
        assert!(tally(&[("<a-b>", false)]).needs_check(), "a name runs to a blank, `/` or `>`");
        let breaks = "line<br>".repeat(PLAIN_MAX_BYTES / "line<br>".len());
        assert!(breaks.len() <= PLAIN_MAX_BYTES && breaks.matches("<br>").count() > PLAIN_MAX_TAGS);
        assert!(!tally(&[(&breaks, false)]).needs_check(), "void elements do not count");
        for hostile in [
            "<table><tr><td>x",
            "<svg><style>",
            "<div title=\"<select>\">",
            "<!-- <template> -->",
            &"<div>".repeat(PLAIN_MAX_TAGS + 1),
            &format!("<a href=\"{}\">", "x".repeat(PLAIN_MAX_BYTES)),
        ] {
            assert!(tally(&[(hostile, false)]).needs_check(), "{hostile}");
        }
        assert!(tally(&[("<div>", true)]).needs_check(), "in a link's text");
    }

    #[test]
    fn formatting_reopened_in_every_element_is_past_a_budget() {
        // Each `<div>` re-opens every `<b>` left open before the first `</div>`.
        let opened: String = (0..200).map(|i| format!("<b id={i}>")).collect();
        let html = format!("<div>{opened}</div>{}", "<div>x</div>".repeat(2000));
        assert_eq!(check(&html), Err(Excess::Elements));
        // One long link copied into each of them.
        let html = format!("<div><a href=\"{}\">x</div>{}", "y".repeat(100_000), "<div>x</div>".repeat(100));
        assert_eq!(check(&html), Err(Excess::AttributeBytes));
    }
}
