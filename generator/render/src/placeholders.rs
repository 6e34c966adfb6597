//! Highlighted code kept out of the sanitiser, which would strip its
//! classes: each block is written as a placeholder paragraph before
//! sanitising and put back in its place afterwards, in one pass.
//!
//! A placeholder holds a number drawn at random for each card, which the
//! card cannot know, so a card cannot write one itself (to repeat a block a
//! thousand times, say): the build's output still depends only on its input.

use std::hash::{BuildHasher, RandomState};

/// Ends a placeholder's token: a private-use character that Markdown and
/// the sanitiser leave alone.
const MARK: char = '\u{E000}';

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
            let digits = &html[start + self.prefix.len()..];
            let len = digits.bytes().take_while(u8::is_ascii_digit).count();
            if len == 0 || !digits[len..].starts_with(MARK) {
                continue;
            }
            let mut end = start + self.prefix.len() + len + MARK.len_utf8();
            let mut begin = start;
            if html[..start].ends_with("<p>") && html[end..].starts_with("</p>") {
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
    fn another_cards_placeholders_are_left_as_text() {
        let (ours, theirs) = (Placeholders::new(), Placeholders::new());
        assert_ne!(ours.prefix, theirs.prefix);
        let html = format!("{}<p>{MARK}code-block-0{MARK}</p>", theirs.paragraph(0));
        assert_eq!(ours.fill(&html, &["<pre>a</pre>".to_owned()]), html);
    }
}
