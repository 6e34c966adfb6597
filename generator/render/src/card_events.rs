//! A card's Markdown events as the writers in [`crate::markdown`] take
//! them: nesting past [`MAX_NESTING`] flattened, raw HTML kept or made text,
//! each code block and formula (in Markdown, see [`crate::markdown_math`],
//! or in the text of raw HTML, see [`crate::html_math`]) rendered once and
//! handed on by its number, and each heading shown one level down with its
//! id (see [`crate::heading_ids`]).
//!
//! A heading's events are held until its end, to make its id of its text;
//! the headings, their ids and the card's footnote labels are kept in the
//! card's state for the pass that rewrites in-card links.

use std::cell::{Cell, RefCell};
use std::collections::{HashSet, VecDeque};
use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, OffsetIter, Options, Parser, Tag, TagEnd};

use crate::card_limits::MAX_NESTING;
use crate::card_math::{formula_to_mathml, MathProblem, MathStyle, MAX_FORMULAS_PER_CARD, MAX_MATH_BYTES_PER_CARD};
use crate::heading_ids::{CardHeading, HeadingIds};
use crate::html_cost::RawHtmlTally;
use crate::html_math::HtmlText;
use crate::markdown_math::{slice, CardMath};

/// What becomes of the card's raw HTML.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum RawHtml {
    /// Sanitised with the rest.
    Sanitise,
    /// Written as text: for HTML that would cost the sanitiser too much.
    AsText,
}

/// An event of a card, or one of its rendered blocks by number: a code
/// block (a block of its own) or a formula (inline, in its paragraph).
pub(crate) enum Piece<'a> {
    Event(Event<'a>),
    Code(usize),
    Inline(usize),
}

/// What the passes over one card share.
#[derive(Default)]
pub(crate) struct CardState {
    /// The card's code blocks, each rendered by the first pass to meet it.
    pub(crate) blocks: RefCell<Vec<String>>,
    /// Whether a pass flattened nesting.
    pub(crate) flattened: Cell<bool>,
    /// The raw HTML the last pass met.
    pub(crate) raw_html: RefCell<RawHtmlTally>,
    /// The headings the last pass met, with their ids.
    pub(crate) headings: RefCell<Vec<CardHeading>>,
    pub(crate) heading_ids: RefCell<HeadingIds>,
    /// The labels of the footnotes the last pass met.
    pub(crate) footnotes: RefCell<HashSet<String>>,
    /// Formulas shown as code, by [`MathProblem`].
    pub(crate) math_problems: Cell<[usize; 4]>,
    /// Formulas converted and their bytes, against the card's budget.
    pub(crate) math_spent: Cell<(usize, usize)>,
}

/// A card's events, nesting past the limit flattened, each code block
/// rendered once into the card's state and given by its number, raw HTML
/// tallied there.
pub(crate) struct CardEvents<'a, 'c> {
    parser: CardMath<'a, OffsetIter<'a>>,
    markdown: &'a str,
    raw: RawHtml,
    state: &'c CardState,
    code_block: &'c mut dyn FnMut(&str, &str) -> String,
    next_block: usize,
    /// Tags open, to flatten those past [`MAX_NESTING`].
    depth: usize,
    /// Links open: raw HTML in a link's text is tallied as such.
    links: usize,
    /// The text of the heading being read, for its id.
    heading_text: Option<String>,
    /// A heading's events, held until its id is known, to hand on.
    held: VecDeque<Piece<'a>>,
    /// Where the scan of the raw HTML block being read for math stands.
    html_text: HtmlText,
    /// The rest of a raw HTML line cut at its formulas, to hand on.
    html_pieces: VecDeque<Piece<'a>>,
}

impl<'a, 'c> CardEvents<'a, 'c> {
    pub(crate) fn new(
        markdown: &'a str,
        raw: RawHtml,
        state: &'c CardState,
        code_block: &'c mut dyn FnMut(&str, &str) -> String,
    ) -> CardEvents<'a, 'c> {
        // No `ENABLE_MATH`: math is found as the Hub finds it (`card_math`).
        let options = Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES;
        state.raw_html.take();
        state.headings.take();
        state.heading_ids.take();
        state.footnotes.take();
        let parser = CardMath::new(Parser::new_ext(markdown, options).into_offset_iter(), markdown);
        CardEvents {
            parser,
            markdown,
            raw,
            state,
            code_block,
            next_block: 0,
            depth: 0,
            links: 0,
            heading_text: None,
            held: VecDeque::new(),
            html_text: HtmlText::default(),
            html_pieces: VecDeque::new(),
        }
    }
}

impl<'a> Iterator for CardEvents<'a, '_> {
    type Item = Piece<'a>;

    #[inline]
    fn next(&mut self) -> Option<Piece<'a>> {
        if let Some(piece) = self.held.pop_front() {
            return Some(piece);
        }
        let piece = self.next_piece()?;
        match piece {
            Piece::Event(Event::Start(Tag::Heading { level, .. })) => Some(self.heading(level)),
            piece => Some(piece),
        }
    }
}

impl<'a> CardEvents<'a, '_> {
    /// The next event, nesting past the limit flattened, code blocks and
    /// formulas rendered, raw HTML tallied or made text.
    fn next_piece(&mut self) -> Option<Piece<'a>> {
        if let Some(piece) = self.html_pieces.pop_front() {
            return Some(piece);
        }
        loop {
            let (event, range) = self.parser.next()?;
            match &event {
                Event::Start(tag) => {
                    self.depth += 1;
                    if self.depth > MAX_NESTING {
                        self.state.flattened.set(true);
                        continue;
                    }
                    match tag {
                        Tag::CodeBlock(_) => return Some(self.code_block(event)),
                        Tag::Link { .. } => self.links += 1,
                        Tag::FootnoteDefinition(label) => {
                            self.state.footnotes.borrow_mut().insert(label.to_string());
                        }
                        Tag::HtmlBlock => {
                            self.html_text = HtmlText::default();
                            // It writes nothing; without it the card may need no sanitiser.
                            if self.raw == RawHtml::AsText {
                                continue;
                            }
                        }
                        _ => {}
                    }
                }
                Event::End(tag) => {
                    // Tags come in nested pairs: an end is as deep as its start.
                    self.depth -= 1;
                    if self.depth >= MAX_NESTING {
                        continue;
                    }
                    match tag {
                        TagEnd::Link => self.links -= 1,
                        TagEnd::HtmlBlock if self.raw == RawHtml::AsText => continue,
                        _ => {}
                    }
                }
                Event::Html(raw) | Event::InlineHtml(raw) => {
                    // A line of a raw HTML block; inline HTML is one tag.
                    let block = matches!(event, Event::Html(_));
                    match self.raw {
                        RawHtml::AsText => {
                            self.heading_words(raw);
                            if block {
                                // Its formulas keep their numbers, as in a pass that renders them.
                                self.next_block += self.html_text.formulas(raw).len();
                            }
                            return Some(Piece::Event(Event::Text(raw.clone())));
                        }
                        RawHtml::Sanitise => {
                            self.state.raw_html.borrow_mut().add(raw, self.links > 0);
                            if block {
                                let raw = raw.clone();
                                return Some(self.html_with_math(raw));
                            }
                        }
                    }
                }
                Event::InlineMath(latex) => return Some(self.formula(latex, MathStyle::Inline, range)),
                Event::DisplayMath(latex) => return Some(self.formula(latex, MathStyle::Display, range)),
                Event::Text(text) | Event::Code(text) => self.heading_words(text),
                _ => {}
            }
            return Some(Piece::Event(event));
        }
    }

    /// Adds `text` to the words of the heading being read, if any.
    fn heading_words(&mut self, text: &str) {
        if let Some(words) = self.heading_text.as_mut() {
            words.push_str(text);
        }
    }

    /// The start of a heading whose start tag was just read, shown one
    /// level down with its id; its other events are held to follow.
    fn heading(&mut self, level: HeadingLevel) -> Piece<'a> {
        self.heading_text = Some(String::new());
        let mut inner = VecDeque::new();
        // Headings hold no headings, so the first end is this one's.
        while let Some(piece) = self.next_piece() {
            if matches!(piece, Piece::Event(Event::End(TagEnd::Heading(_)))) {
                break;
            }
            inner.push_back(piece);
        }
        let text = self.heading_text.take().unwrap_or_default();
        let id = self.state.heading_ids.borrow_mut().assign(&text);
        let shown = match level {
            HeadingLevel::H1 => HeadingLevel::H2,
            HeadingLevel::H2 => HeadingLevel::H3,
            HeadingLevel::H3 => HeadingLevel::H4,
            HeadingLevel::H4 => HeadingLevel::H5,
            HeadingLevel::H5 | HeadingLevel::H6 => HeadingLevel::H6,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        self.state.headings.borrow_mut().push(CardHeading { level: shown as u8, id: id.clone(), text: words.join(" ") });
        inner.push_back(Piece::Event(Event::End(TagEnd::Heading(shown))));
        self.held = inner;
        Piece::Event(Event::Start(Tag::Heading { level: shown, id: Some(id.into()), classes: Vec::new(), attrs: Vec::new() }))
    }

    /// A line of a raw HTML block, cut at its formulas: its first piece,
    /// the others to follow. A formula that cannot be converted stays as
    /// the HTML wrote it.
    fn html_with_math(&mut self, raw: CowStr<'a>) -> Piece<'a> {
        let formulas = self.html_text.formulas(&raw);
        if formulas.is_empty() {
            return Piece::Event(Event::Html(raw));
        }
        let mut copied = 0;
        for formula in formulas {
            if let Some(index) = self.converted(&raw[formula.latex], formula.style) {
                if formula.source.start > copied {
                    self.html_pieces.push_back(Piece::Event(Event::Html(slice(&raw, copied..formula.source.start))));
                }
                self.html_pieces.push_back(Piece::Inline(index));
                copied = formula.source.end;
            }
        }
        if copied < raw.len() {
            self.html_pieces.push_back(Piece::Event(Event::Html(slice(&raw, copied..))));
        }
        self.html_pieces.pop_front().expect("a formula or the line")
    }

    /// The formula `latex`, whose source is `range`, as MathML; one that
    /// cannot be converted is shown as its source, in code.
    fn formula(&mut self, latex: &CowStr<'_>, style: MathStyle, range: Range<usize>) -> Piece<'a> {
        self.heading_words(latex);
        match self.converted(latex, style) {
            Some(index) => Piece::Inline(index),
            None => Piece::Event(Event::Code(CowStr::Borrowed(&self.markdown[range]))),
        }
    }

    /// The number of the block holding the MathML of `latex`, converted
    /// unless an earlier pass did; `None` when it cannot be (its block is
    /// left empty, which costs no memory).
    fn converted(&mut self, latex: &str, style: MathStyle) -> Option<usize> {
        let index = self.next_block;
        self.next_block += 1;
        let blocks = &self.state.blocks;
        if index == blocks.borrow().len() {
            let (formulas, bytes) = self.state.math_spent.get();
            let (formulas, bytes) = (formulas + 1, bytes + latex.len());
            self.state.math_spent.set((formulas, bytes));
            let converted = if formulas > MAX_FORMULAS_PER_CARD || bytes > MAX_MATH_BYTES_PER_CARD {
                Err(MathProblem::OverBudget)
            } else {
                formula_to_mathml(latex, style)
            };
            let html = converted.unwrap_or_else(|problem| {
                let mut counts = self.state.math_problems.get();
                counts[problem as usize] += 1;
                self.state.math_problems.set(counts);
                String::new()
            });
            blocks.borrow_mut().push(html);
        }
        let converted = !blocks.borrow()[index].is_empty();
        converted.then_some(index)
    }

    /// The code block `start` starts, read to its end and rendered unless
    /// an earlier pass did.
    fn code_block(&mut self, start: Event<'a>) -> Piece<'a> {
        let Event::Start(Tag::CodeBlock(kind)) = start else { unreachable!("a code block's start") };
        let mut code = String::new();
        for (event, _) in self.parser.by_ref() {
            match event {
                Event::Text(text) => code.push_str(&text),
                Event::End(TagEnd::CodeBlock) => break,
                _ => {}
            }
        }
        self.depth -= 1;
        let index = self.next_block;
        self.next_block += 1;
        let blocks = &self.state.blocks;
        if index == blocks.borrow().len() {
            let lang = match &kind {
                CodeBlockKind::Fenced(info) => fence_language(info),
                CodeBlockKind::Indented => "",
            };
            let html = (self.code_block)(&code, lang);
            blocks.borrow_mut().push(html);
        }
        Piece::Code(index)
    }
}

/// The language of a fence's info string: its first word, without the
/// `{...}` or `,attr` decorations some writers add.
fn fence_language(info: &str) -> &str {
    let word = info.split_whitespace().next().unwrap_or("");
    word.trim_start_matches('{').split([',', '}']).next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(markdown: &str, state: &CardState) -> Vec<Event<'static>> {
        let mut code_block = |code: &str, _: &str| code.to_owned();
        CardEvents::new(markdown, RawHtml::Sanitise, state, &mut code_block)
            .map(|piece| match piece {
                Piece::Event(event) => event.into_static(),
                Piece::Code(index) => Event::Html(format!("block {index}").into()),
                Piece::Inline(index) => Event::InlineHtml(format!("inline {index}").into()),
            })
            .collect()
    }

    #[test]
    fn nesting_past_the_limit_keeps_its_text_and_loses_its_tags() {
        let state = CardState::default();
        // Quotes past the limit, a paragraph, then a code block at the limit.
        let quoted = "> ".repeat(MAX_NESTING - 1);
        let quotes = format!("{} deep\n\nx\n\n{quoted}```\n{quoted}code\n{quoted}```\n", ">".repeat(MAX_NESTING + 10));
        let kept = pieces(&quotes, &state);
        assert!(state.flattened.get());
        let starts = kept.iter().filter(|e| matches!(e, Event::Start(_))).count();
        let ends = kept.iter().filter(|e| matches!(e, Event::End(_))).count();
        assert_eq!((starts, ends), (2 * MAX_NESTING, 2 * MAX_NESTING));
        assert!(kept.contains(&Event::Text("deep".into())));
        assert!(kept.contains(&Event::Html("block 0".into())), "a block at the limit stays one");
        assert_eq!(kept.last(), Some(&Event::End(TagEnd::BlockQuote(None))));

        // The paragraph inside the quotes is one level more.
        let shallow = format!("{} deep\n", ">".repeat(MAX_NESTING - 1));
        let state = CardState::default();
        assert_eq!(pieces(&shallow, &state).len(), Parser::new(&shallow).count());
        assert!(!state.flattened.get());
    }

    #[test]
    fn headings_get_ids_and_go_one_level_down() {
        let state = CardState::default();
        let events = pieces("# Model *card*\n\n## Usage\n\n###### Deep\n\n## Usage\n\nSetext\n---\n", &state);
        let starts: Vec<(HeadingLevel, String)> = events
            .iter()
            .filter_map(|e| match e {
                Event::Start(Tag::Heading { level, id, .. }) => Some((*level, id.as_deref().unwrap_or("").to_owned())),
                _ => None,
            })
            .collect();
        use HeadingLevel::*;
        let expected = [(H2, "model-card"), (H3, "usage"), (H6, "deep"), (H3, "usage-1"), (H3, "setext")];
        assert_eq!(starts, expected.map(|(l, id)| (l, id.to_owned())));
        assert!(events.contains(&Event::End(TagEnd::Heading(H6))));
        let headings = state.headings.borrow();
        assert_eq!(headings[0], CardHeading { level: 2, id: "model-card".into(), text: "Model card".into() });
        assert_eq!(headings.len(), 5);
    }

    #[test]
    fn formulas_are_rendered_once_and_bad_ones_shown_as_code() {
        let state = CardState::default();
        let card = "Inline \\\\(x^2\\\\), display\n\n$$\\frac{1}{2}$$\n\nand \\\\(\\frac{1}{\\\\) broken.\n";
        let events = pieces(card, &state);
        assert_eq!(events.iter().filter(|e| matches!(e, Event::InlineHtml(_))).count(), 2, "{events:?}");
        assert!(events.contains(&Event::Code("\\\\(\\frac{1}{\\\\)".into())), "{events:?}");
        let blocks = state.blocks.borrow();
        assert!(blocks[0].starts_with("<math>") && blocks[1].starts_with("<math display=\"block\">"), "{blocks:?}");
        assert_eq!(blocks[2], "", "nothing kept for a formula shown as code");
        assert_eq!(state.math_problems.get(), [0, 0, 1, 0]);
        drop(blocks);
        // A second pass reuses what the first rendered.
        pieces(card, &state);
        assert_eq!(state.blocks.borrow().len(), 3);
        assert_eq!(state.math_problems.get(), [0, 0, 1, 0]);
    }

    /// A formula in the text of raw HTML is a block of its own, between
    /// the HTML before and after it; one that cannot be converted stays as
    /// written. A pass that shows the HTML as text keeps the numbers.
    #[test]
    fn formulas_in_raw_html_are_cut_out_of_it() {
        let state = CardState::default();
        let card = "<table>\n<tr><td>\\\\(n_{layers}\\\\)</td><td>\\\\(\\frac{1}{\\\\)</td></tr>\n</table>\n\n```\ncode\n```\n";
        let events = pieces(card, &state);
        let html: Vec<&str> = events.iter().filter_map(|e| if let Event::Html(h) = e { Some(h.as_ref()) } else { None }).collect();
        assert_eq!(html, ["<table>\n", "<tr><td>", "</td><td>\\\\(\\frac{1}{\\\\)</td></tr>\n", "</table>\n", "block 2"], "{events:?}");
        assert!(events.contains(&Event::InlineHtml("inline 0".into())), "{events:?}");
        assert!(state.blocks.borrow()[0].starts_with("<math><msub>"), "{:?}", state.blocks.borrow());
        assert_eq!(state.blocks.borrow()[1], "");
        let mut code_block = |code: &str, _: &str| code.to_owned();
        let as_text: Vec<Piece<'_>> = CardEvents::new(card, RawHtml::AsText, &state, &mut code_block).collect();
        assert!(as_text.iter().any(|p| matches!(p, Piece::Code(2))), "the code block keeps its number");
        assert!(!as_text.iter().any(|p| matches!(p, Piece::Inline(_))));
    }
}
