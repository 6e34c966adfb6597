//! A card's Markdown events as the writers in [`crate::markdown`] take
//! them: nesting past [`MAX_NESTING`] flattened, raw HTML kept or made text,
//! and each code block rendered once and handed on by its number.

use std::cell::{Cell, RefCell};

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::card_limits::MAX_NESTING;
use crate::html_cost::RawHtmlTally;

/// What becomes of the card's raw HTML.
#[derive(Clone, Copy, PartialEq)]
pub(crate) enum RawHtml {
    /// Sanitised with the rest.
    Sanitise,
    /// Written as text: for HTML that would cost the sanitiser too much.
    AsText,
}

/// An event of a card, or one of its code blocks by number.
pub(crate) enum Piece<'a> {
    Event(Event<'a>),
    Code(usize),
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
}

/// A card's events, nesting past the limit flattened, each code block
/// rendered once into the card's state and given by its number, raw HTML
/// tallied there.
pub(crate) struct CardEvents<'a, 'c> {
    parser: Parser<'a>,
    raw: RawHtml,
    state: &'c CardState,
    code_block: &'c mut dyn FnMut(&str, &str) -> String,
    next_block: usize,
    /// Tags open, to flatten those past [`MAX_NESTING`].
    depth: usize,
    /// Links open: raw HTML in a link's text is tallied as such.
    links: usize,
}

impl<'a, 'c> CardEvents<'a, 'c> {
    pub(crate) fn new(
        markdown: &'a str,
        raw: RawHtml,
        state: &'c CardState,
        code_block: &'c mut dyn FnMut(&str, &str) -> String,
    ) -> CardEvents<'a, 'c> {
        let options = Options::ENABLE_TABLES
            | Options::ENABLE_STRIKETHROUGH
            | Options::ENABLE_TASKLISTS
            | Options::ENABLE_FOOTNOTES;
        state.raw_html.take();
        let parser = Parser::new_ext(markdown, options);
        CardEvents { parser, raw, state, code_block, next_block: 0, depth: 0, links: 0 }
    }
}

impl<'a> Iterator for CardEvents<'a, '_> {
    type Item = Piece<'a>;

    #[inline]
    fn next(&mut self) -> Option<Piece<'a>> {
        loop {
            let event = self.parser.next()?;
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
                        // It writes nothing; without it the card may need no sanitiser.
                        Tag::HtmlBlock if self.raw == RawHtml::AsText => continue,
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
                Event::Html(raw) | Event::InlineHtml(raw) => match self.raw {
                    RawHtml::AsText => return Some(Piece::Event(Event::Text(raw.clone()))),
                    RawHtml::Sanitise => self.state.raw_html.borrow_mut().add(raw, self.links > 0),
                },
                _ => {}
            }
            return Some(Piece::Event(event));
        }
    }
}

impl<'a> CardEvents<'a, '_> {
    /// The code block `start` starts, read to its end and rendered unless
    /// an earlier pass did.
    fn code_block(&mut self, start: Event<'a>) -> Piece<'a> {
        let Event::Start(Tag::CodeBlock(kind)) = start else { unreachable!("a code block's start") };
        let mut code = String::new();
        for event in self.parser.by_ref() {
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
}
