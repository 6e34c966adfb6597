//! Highlighted code and math kept out of the sanitiser, which would strip
//! their classes and MathML: each code block is written as a placeholder
//! paragraph before sanitising, each formula as a placeholder token in its
//! text, and each is put back in its place afterwards, in one pass.
//!
//! The same random prefix marks the ids of the card's own headings (see
//! [`Placeholders::heading_id`]), which keep their ids where raw HTML's
//! get a prefix.
//!
//! A placeholder holds a number drawn at random for each card, which the
//! card cannot know, so a card cannot write one itself (to repeat a block a
//! thousand times, say): the build's output still depends only on its input.

use std::hash::{BuildHasher, RandomState};

/// Ends a placeholder's token: a private-use character that Markdown and
/// the sanitiser leave alone.
const MARK: char = '\u{E000}';
/// After the prefix: an inline token, or a heading's id.
const INLINE: char = 'i';
const HEADING: char = 'h';

/// The placeholders of one card.
pub(crate) struct Placeholders {
    /// `MARK`, the card's random number in hex and `-`: what each token starts with.
    prefix: String,
}

impl Placeholders {
    pub(crate) fn new() -> Placeholders {
        // Each `RandomState` has fresh keys from the system's randomness.
        Placeholders { prefix: format!("{MARK}{:016x}-", RandomState::new().hash_one(0)) }
    }

    /// The paragraph that stands for block `index` until [`Placeholders::fill`].
    pub(crate) fn paragraph(&self, index: usize) -> String {
        format!("<p>{}{index}{MARK}</p>", self.prefix)
    }

    /// The text that stands for inline block `index` (a formula) until
    /// [`Placeholders::fill`]; it stays in its paragraph.
    pub(crate) fn token(&self, index: usize) -> String {
        format!("{}{INLINE}{index}{MARK}", self.prefix)
    }

    /// The id a heading of the card is written with for the sanitiser: one
    /// raw HTML cannot write (see [`crate::card_rewrite`]).
    pub(crate) fn heading_id(&self, id: &str) -> String {
        format!("{}{HEADING}{id}", self.prefix)
    }

    /// What [`Placeholders::heading_id`]s start with.
    pub(crate) fn heading_token(&self) -> String {
        format!("{}{HEADING}", self.prefix)
    }

    /// `html` with each placeholder replaced by its block, each block used
    /// at most once. The sanitiser may have moved a placeholder's text into
    /// other elements; then the token alone is replaced.
    pub(crate) fn fill(&self, html: &str, blocks: &[String]) -> String {
        let mut out = String::with_capacity(html.len() + blocks.iter().map(String::len).sum::<usize>());
        let mut used = vec![false; blocks.len()];
        let mut copied = 0;
        for start in memchr::memmem::find_iter(html.as_bytes(), self.prefix.as_bytes()) {
            if start < copied {
                continue;
            }
            let after = &html[start + self.prefix.len()..];
            let inline = after.starts_with(INLINE);
            let digits = &after[usize::from(inline)..];
            let len = digits.bytes().take_while(u8::is_ascii_digit).count();
            if len == 0 || !digits[len..].starts_with(MARK) {
                continue;
            }
            let mut end = start + self.prefix.len() + usize::from(inline) + len + MARK.len_utf8();
            let mut begin = start;
            if !inline && html[..start].ends_with("<p>") && html[end..].starts_with("</p>") {
                begin -= "<p>".len();
                end += "</p>".len();
            }
            out.push_str(&html[copied..begin]);
            if let Some(index) = digits[..len].parse::<usize>().ok().filter(|&i| i < blocks.len() && !used[i]) {
                used[index] = true;
                out.push_str(&blocks[index]);
            }
            copied = end;
        }
        out.push_str(&html[copied..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_block_goes_back_once_in_its_place() {
        let places = Placeholders::new();
        let blocks = ["<pre>a</pre>".to_owned(), "<pre>b</pre>".to_owned()];
        let html = format!("<h1>x</h1>{}<ul><li>{}</li></ul>{}", places.paragraph(1), places.paragraph(0), places.paragraph(1));
        assert_eq!(places.fill(&html, &blocks), "<h1>x</h1><pre>b</pre><ul><li><pre>a</pre></li></ul>");
        // Moved into another element by the sanitiser: the token alone goes.
        let moved = places.paragraph(0).replace("<p>", "<p><b>").replace("</p>", "</b></p>");
        assert_eq!(places.fill(&moved, &blocks), "<p><b><pre>a</pre></b></p>");
    }

    #[test]
    fn inline_tokens_keep_their_paragraph() {
        let places = Placeholders::new();
        let blocks = ["<math></math>".to_owned(), "<pre>b</pre>".to_owned()];
        let html = format!("<p>{}</p><p>a {} b</p>{}", places.token(0), places.token(0), places.paragraph(1));
        assert_eq!(places.fill(&html, &blocks), "<p><math></math></p><p>a  b</p><pre>b</pre>", "each used once");
        assert!(places.heading_id("usage").starts_with(&places.heading_token()));
    }

    #[test]
    fn another_cards_placeholders_are_left_as_text() {
        let (ours, theirs) = (Placeholders::new(), Placeholders::new());
        assert_ne!(ours.prefix, theirs.prefix);
        let html = format!("{}<p>{MARK}code-block-0{MARK}</p>", theirs.paragraph(0));
        assert_eq!(ours.fill(&html, &["<pre>a</pre>".to_owned()]), html);
    }
}
