//! Math in a card's Markdown, found as the Hub finds it: the Hub typesets
//! math before it reads the Markdown, with two delimiters only, `$$...$$`
//! for display math and `\\(...\\)` (two backslashes in the source) for
//! inline math. Anything else is Markdown: `\(` and `\[` are escaped
//! brackets (`Conversational BERT \(English, cased\)` shows plain
//! parentheses), and text between single `$` signs (`$5 and $10`) is text.
//!
//! So the parser reads no math; [`CardMath`] finds the delimiters among its
//! events, by their source, outside code and images, and stands in a math
//! event for the events between them. The formula is the source between the
//! delimiters, as the Hub's pass sees it, so Markdown inside it (`x_i *
//! y_i`) is no emphasis; emphasis that a formula cuts in two is left as
//! text, as the Hub's pass leaves it unpaired. [`crate::card_math`]
//! converts the formulas.

use std::collections::VecDeque;
use std::ops::Range;

use memchr::memmem;
use pulldown_cmark::{CowStr, Event, Tag, TagEnd};

use crate::card_math::{MathStyle, DISPLAY, MAX_FORMULA_REACH};

/// The delimiters of inline math as the text of the source's `\\(` and
/// `\\)`: the first backslash escapes the second.
const INLINE_OPEN: &str = "\\(";
const INLINE_CLOSE: &str = "\\)";

/// An event, its range, and whether the parser started a text event there
/// (a text the parser starts right after a backslash is an escaped
/// character; one split off here never is).
type Item<'a> = (Event<'a>, Range<usize>, bool);

/// A parser's events with each `$$...$$` and `\\(...\\)` made one
/// `DisplayMath` or `InlineMath` event whose range covers the delimiters.
/// The delimiters must stand in the same run of inline events, at most
/// [`MAX_FORMULA_REACH`] apart; a formula may take in the start of a tag
/// (whose end is then dropped), never the end of one it did not start.
/// Otherwise the events pass as they are.
pub(crate) struct CardMath<'a, I> {
    events: I,
    markdown: &'a str,
    /// Events looked at and given back, to look at again first.
    replay: VecDeque<Item<'a>>,
    /// The tags handed on and not yet ended; `true` for one whose start a
    /// formula took in, whose end is dropped.
    open: Vec<bool>,
    /// Block quotes open: their `>` are taken out of a formula's lines.
    quotes: usize,
    /// Inside a code block or an image's text, where no math is read.
    code: bool,
    images: usize,
}

/// A formula being read.
struct Search<'a> {
    delimiter: MathStyle,
    /// Where the formula's source starts, with its delimiter, and its LaTeX.
    start: usize,
    latex_start: usize,
    /// Events taken in after the opening, to give back if it has no end.
    seen: Vec<Item<'a>>,
    /// Starts of tags taken in and not ended since (their ends are to drop).
    started: usize,
    /// Tags the formula ends whose starts an earlier formula took in.
    orphans_ended: usize,
}

impl<'a, I: Iterator<Item = (Event<'a>, Range<usize>)>> CardMath<'a, I> {
    pub(crate) fn new(events: I, markdown: &'a str) -> Self {
        CardMath { events, markdown, replay: VecDeque::new(), open: Vec::new(), quotes: 0, code: false, images: 0 }
    }

    fn take(&mut self) -> Option<Item<'a>> {
        self.replay.pop_front().or_else(|| self.events.next().map(|(event, range)| (event, range, true)))
    }

    /// The text of `event` when delimiters are looked for in it: a text
    /// that is the source as it is (an entity's text is not).
    fn source_text<'e>(&self, event: &'e Event<'a>, range: &Range<usize>) -> Option<&'e CowStr<'a>> {
        match event {
            Event::Text(text) if self.markdown.get(range.clone()) == Some(&**text) => Some(text),
            _ => None,
        }
    }

    /// Whether the text at `range`, which the parser started if `parsed`,
    /// starts with an escaped character.
    fn escaped(&self, range: &Range<usize>, parsed: bool) -> bool {
        parsed && range.start > 0 && self.markdown.as_bytes()[range.start - 1] == b'\\'
    }

    /// The first opening delimiter in `text`: where, and which. `\\(` is an
    /// escaped backslash then `(`, so its text can only start an event; a
    /// `$$` may stand anywhere, but not as an escaped `\\$$`.
    fn opening(&self, text: &str, range: &Range<usize>, parsed: bool) -> Option<(usize, MathStyle)> {
        let escaped = self.escaped(range, parsed);
        if escaped && text.starts_with(INLINE_OPEN) {
            return Some((0, MathStyle::Inline));
        }
        let from = usize::from(escaped);
        let at = from + memmem::find(text.as_bytes().get(from..)?, DISPLAY.as_bytes())?;
        Some((at, MathStyle::Display))
    }

    /// The closing delimiter of `search` in `text` from byte `from`: its
    /// start in the source, and the bytes of `text` up to its end.
    fn closing(&self, search: &Search<'_>, text: &str, range: &Range<usize>, parsed: bool, from: usize) -> Option<(usize, usize)> {
        match search.delimiter {
            MathStyle::Inline => (from == 0 && text.starts_with(INLINE_CLOSE) && self.escaped(range, parsed))
                .then(|| (range.start - 1, INLINE_CLOSE.len())),
            MathStyle::Display => {
                // Looked for within the formula's reach only.
                let reach = (search.start + MAX_FORMULA_REACH).saturating_sub(range.start);
                let window = text.as_bytes().get(from..text.len().min(reach).max(from))?;
                let at = from + memmem::find(window, DISPLAY.as_bytes())?;
                Some((range.start + at, at + DISPLAY.len()))
            }
        }
    }

    /// Hands on `event`, noting where the events stand. The end of a tag
    /// whose start a formula took in is its closing delimiter as text, or
    /// nothing.
    fn hand_on(&mut self, event: Event<'a>, range: Range<usize>) -> Option<(Event<'a>, Range<usize>)> {
        match &event {
            Event::Start(tag) => {
                self.open.push(false);
                match tag {
                    Tag::BlockQuote(_) => self.quotes += 1,
                    Tag::CodeBlock(_) => self.code = true,
                    Tag::Image { .. } => self.images += 1,
                    _ => {}
                }
            }
            Event::End(tag) => {
                if self.open.pop() == Some(true) {
                    // Its start went into a formula: its closing delimiter
                    // is text, as the Hub's math pass leaves it unpaired.
                    let closing = closing_delimiter(self.markdown, tag, &range)?;
                    return Some((Event::Text(CowStr::Borrowed(closing)), range.end - closing.len()..range.end));
                }
                match tag {
                    TagEnd::BlockQuote(_) => self.quotes = self.quotes.saturating_sub(1),
                    TagEnd::CodeBlock => self.code = false,
                    TagEnd::Image => self.images = self.images.saturating_sub(1),
                    _ => {}
                }
            }
            _ => {}
        }
        Some((event, range))
    }

    /// The formula whose opening delimiter starts `text` (at `range`): its
    /// math event or, when it has no end, its delimiter as text, what was
    /// looked at given back.
    fn formula(&mut self, text: CowStr<'a>, range: Range<usize>, delimiter: MathStyle) -> (Event<'a>, Range<usize>) {
        // The delimiter's bytes in the text (`\\(` is `\(` there).
        let opening = match delimiter {
            MathStyle::Inline => INLINE_OPEN.len(),
            MathStyle::Display => DISPLAY.len(),
        };
        let start = if delimiter == MathStyle::Inline { range.start - 1 } else { range.start };
        let mut search = Search { delimiter, start, latex_start: range.start + opening, seen: Vec::new(), started: 0, orphans_ended: 0 };
        let reach = start + MAX_FORMULA_REACH;
        if let Some((close, after)) = self.closing(&search, &text, &range, false, opening) {
            if let Some(math) = self.close(&search, close, (&text, &range), after) {
                return math;
            }
        } else if range.end <= reach {
            while let Some((event, event_range, parsed)) = self.take() {
                let mut closed = None;
                let mut reopened = false;
                if let Some(next) = self.source_text(&event, &event_range) {
                    reopened = delimiter == MathStyle::Inline && self.opening(next, &event_range, parsed) == Some((0, MathStyle::Inline));
                    if !reopened {
                        closed = self.closing(&search, next, &event_range, parsed, 0).map(|found| (found, next.clone()));
                    }
                }
                let was_closed = closed.is_some();
                if let Some(((close, after), next)) = closed {
                    if let Some(math) = self.close(&search, close, (&next, &event_range), after) {
                        return math;
                    }
                }
                let go_on = !reopened && !was_closed && self.take_in(&mut search, &event) && event_range.end <= reach;
                search.seen.push((event, event_range, parsed));
                if !go_on {
                    break;
                }
            }
        }
        // No end: the delimiter is text, and what follows is looked at again.
        for item in search.seen.into_iter().rev() {
            self.replay.push_front(item);
        }
        if text.len() > opening {
            self.replay.push_front((Event::Text(slice(&text, opening..)), range.start + opening..range.end, false));
        }
        (Event::Text(slice(&text, ..opening)), range.start..range.start + opening)
    }

    /// Whether `event` may be inside a formula, counting the tags it starts
    /// and ends; `false` for a block, an image, or the end of a tag the
    /// formula did not start and no earlier formula took the start of.
    fn take_in(&self, search: &mut Search<'_>, event: &Event<'_>) -> bool {
        match event {
            Event::Start(tag) if is_inline(tag) => {
                search.started += 1;
                true
            }
            Event::End(tag) if is_inline_end(tag) => {
                if search.started > 0 {
                    search.started -= 1;
                    return true;
                }
                let below = self.open.len().checked_sub(1 + search.orphans_ended);
                if below.is_some_and(|at| self.open[at]) {
                    search.orphans_ended += 1;
                    return true;
                }
                false
            }
            Event::Text(_) | Event::Code(_) | Event::SoftBreak | Event::HardBreak | Event::InlineHtml(_) => true,
            _ => false,
        }
    }

    /// The math event of `search`, closed at `close` in the source, in
    /// `text` (at `range`) whose first `after` bytes end with the closing
    /// delimiter; the rest of `text` is looked at again. `None` for a
    /// formula of nothing but blanks, which is no formula.
    fn close(&mut self, search: &Search<'_>, close: usize, (text, range): (&CowStr<'a>, &Range<usize>), after: usize) -> Option<(Event<'a>, Range<usize>)> {
        let latex = &self.markdown[search.latex_start..close];
        if latex.trim().is_empty() {
            return None;
        }
        let latex = if self.quotes > 0 { CowStr::from(unquoted(latex)) } else { CowStr::Borrowed(latex) };
        if text.len() > after {
            self.replay.push_front((Event::Text(slice(text, after..)), range.start + after..range.end, false));
        }
        let kept = self.open.len() - search.orphans_ended;
        self.open.truncate(kept);
        self.open.extend(std::iter::repeat_n(true, search.started));
        let math = match search.delimiter {
            MathStyle::Inline => Event::InlineMath(latex),
            MathStyle::Display => Event::DisplayMath(latex),
        };
        Some((math, search.start..range.start + after))
    }
}

impl<'a, I: Iterator<Item = (Event<'a>, Range<usize>)>> Iterator for CardMath<'a, I> {
    type Item = (Event<'a>, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (event, range, parsed) = self.take()?;
            let found = if self.code || self.images > 0 {
                None
            } else {
                self.source_text(&event, &range).and_then(|text| Some((self.opening(text, &range, parsed)?, text.clone())))
            };
            match found {
                Some(((0, delimiter), text)) => return Some(self.formula(text, range, delimiter)),
                Some(((at, _), text)) => {
                    // The text before the delimiter; the rest is looked at again.
                    self.replay.push_front((Event::Text(slice(&text, at..)), range.start + at..range.end, false));
                    return Some((Event::Text(slice(&text, ..at)), range.start..range.start + at));
                }
                None => {}
            }
            if let Some(handed) = self.hand_on(event, range) {
                return Some(handed);
            }
        }
    }
}

/// The source of the delimiter that ends emphasis, strong emphasis or
/// strikethrough (`*`, `__`, `~~`): the end of the tag's range.
fn closing_delimiter<'a>(markdown: &'a str, tag: &TagEnd, range: &Range<usize>) -> Option<&'a str> {
    let marks = markdown.get(range.clone())?.as_bytes();
    let run = marks.iter().rev().take_while(|b| **b == b'*' || **b == b'_' || **b == b'~').count();
    let len = match tag {
        TagEnd::Emphasis => 1,
        TagEnd::Strong => 2,
        TagEnd::Strikethrough => run.min(2),
        _ => return None,
    };
    (run >= len && len > 0).then(|| &markdown[range.end - len..range.end])
}

/// Part of an event's text, borrowed from the card when it is.
pub(crate) fn slice<'a>(text: &CowStr<'a>, part: impl std::slice::SliceIndex<str, Output = str>) -> CowStr<'a> {
    match text {
        CowStr::Borrowed(text) => CowStr::Borrowed(&text[part]),
        other => CowStr::from(other[part].to_owned()),
    }
}

fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(tag, Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. })
}

fn is_inline_end(tag: &TagEnd) -> bool {
    matches!(tag, TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link)
}

/// A formula's lines after the first without the block quote markers
/// (`> `) the source has before them.
fn unquoted(latex: &str) -> String {
    let mut lines = latex.split('\n');
    let mut out = lines.next().unwrap_or("").to_owned();
    for line in lines {
        out.push('\n');
        out.push_str(line.trim_start_matches([' ', '\t', '>']));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pulldown_cmark::{Options, Parser};

    fn events(markdown: &str) -> Vec<Event<'_>> {
        let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
        let parser = Parser::new_ext(markdown, options).into_offset_iter();
        CardMath::new(parser, markdown).map(|(event, _)| event).collect()
    }

    fn formulas<'e>(found: &'e [Event<'e>]) -> Vec<&'e Event<'e>> {
        found.iter().filter(|e| matches!(e, Event::InlineMath(_) | Event::DisplayMath(_))).collect()
    }

    fn text(found: &[Event<'_>]) -> String {
        found.iter().filter_map(|e| if let Event::Text(t) = e { Some(t.as_ref()) } else { None }).collect()
    }

    #[test]
    fn the_hubs_two_delimiters_make_math() {
        let found = events(
            "a \\\\(x_i + y_i*z*\\\\) b, $$\\frac{a}{b}$$ c and `\\\\(code\\\\)`\n\n$$\nE = mc^2\n$$\n\n> $$\n> a\n> $$\n",
        );
        assert_eq!(
            formulas(&found),
            [
                &Event::InlineMath("x_i + y_i*z*".into()),
                &Event::DisplayMath("\\frac{a}{b}".into()),
                &Event::DisplayMath("\nE = mc^2\n".into()),
                &Event::DisplayMath("\na\n".into()),
            ],
            "{found:?}"
        );
        assert_eq!(text(&found), "a  b,  c and ", "the text around the formulas stays: {found:?}");
        assert!(found.contains(&Event::Code("\\\\(code\\\\)".into())), "code stays code: {found:?}");
        assert!(!found.iter().any(|e| matches!(e, Event::Start(Tag::Emphasis))), "no emphasis inside math: {found:?}");
    }

    /// `\(` and `\[` are escaped brackets, and single dollars are text:
    /// the real cards' "Conversational BERT \(English, cased\)" and
    /// `\[[Journal Link](...)\]` show plain brackets and keep their link.
    #[test]
    fn escaped_brackets_and_single_dollars_stay_text() {
        let bert = events("Conversational BERT \\(English, cased, 12-layer\\)\n");
        assert!(formulas(&bert).is_empty(), "{bert:?}");
        assert_eq!(text(&bert), "Conversational BERT (English, cased, 12-layer)");
        let journal = events("\\[[Journal Link](https://example.org/journal)\\]\n");
        assert!(formulas(&journal).is_empty(), "{journal:?}");
        assert_eq!(text(&journal), "[Journal Link]");
        assert!(journal.iter().any(|e| matches!(e, Event::Start(Tag::Link { .. }))), "{journal:?}");
        let prices = events("It costs $5 and $10, or $x$ with $y_i$.\n");
        assert!(formulas(&prices).is_empty(), "{prices:?}");
        assert_eq!(text(&prices), "It costs $5 and $10, or $x$ with $y_i$.");
    }

    #[test]
    fn unmatched_or_straddling_delimiters_stay_text() {
        for (markdown, shown) in [
            ("\\\\( never closed\n", "\\( never closed"),
            ("$$ closed in\n\nanother paragraph $$\n", "$$ closed inanother paragraph $$"),
            ("*a $$b* c$$\n", "a $$b c$$"),
            ("$$$$\n", "$$$$"),
            ("\\$$x$$ costs\n", "$$x$$ costs"),
        ] {
            let found = events(markdown);
            assert!(formulas(&found).is_empty(), "{markdown}: {found:?}");
            assert_eq!(text(&found), shown, "{markdown}: {found:?}");
        }
        let long = format!("$$ {} $$\n", "*a* ".repeat(MAX_FORMULA_REACH / 2));
        assert!(formulas(&events(&long)).is_empty());
        let long_line = format!("$$ {} $$\n", "a".repeat(MAX_FORMULA_REACH + 10));
        assert!(formulas(&events(&long_line)).is_empty());
        // The second opening pairs.
        let twice = events("\\\\( \\\\( x \\\\)\n");
        assert_eq!(formulas(&twice), [&Event::InlineMath(" x ".into())], "{twice:?}");
        assert_eq!(text(&twice), "\\( ");
    }

    /// The Hub reads math before Markdown: emphasis whose opening went
    /// into a formula is no emphasis, its closing `*` shown as text.
    #[test]
    fn a_formula_that_takes_in_a_tag_start_leaves_its_end_as_text() {
        let found = events("$$a*b$$ c*d and $$e*f$$ g*h\n");
        assert_eq!(formulas(&found), [&Event::DisplayMath("a*b".into()), &Event::DisplayMath("e*f".into())], "{found:?}");
        assert!(!found.iter().any(|e| matches!(e, Event::Start(Tag::Emphasis) | Event::End(TagEnd::Emphasis))), "{found:?}");
        assert_eq!(text(&found), " c*d and  g*h");
        let strong = events("$$a**b$$ c** d\n");
        assert_eq!(text(&strong), " c** d", "{strong:?}");
    }

    #[test]
    fn no_math_in_code_blocks_or_images_and_after_a_literal_backslash() {
        let found = events("```\n$$x$$\n```\n\n    $$y$$\n\n![$$z$$](a.png)\n");
        assert!(formulas(&found).is_empty(), "{found:?}");
        // `\\\\` is an escaped backslash: the `$$` after it opens.
        let after = events("a\\\\$$x$$\n");
        assert_eq!(formulas(&after), [&Event::DisplayMath("x".into())], "{after:?}");
        assert_eq!(text(&after), "a\\");
    }
}
