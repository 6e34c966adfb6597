//! Math in the text of a card's raw HTML. The Hub typesets a card's math
//! before it reads the Markdown, so a formula in an HTML table
//! (`<td>\\(n_{parameters}\\)</td>`) is rendered like one in Markdown; here
//! the lines of a raw HTML block are scanned for the same two delimiters
//! (see [`crate::card_math`]) in the text between tags: never inside a tag
//! (an attribute's value is no place for MathML), a comment, or a `<code>`
//! or `<pre>` element. The MathML then stands in the HTML's place for the
//! formula, kept out of the sanitiser as every formula is.
//!
//! Raw HTML is not Markdown: `\\(` there is two backslashes as written, and
//! a formula ends on the line, and in the run of text, it starts in.

use std::ops::Range;

use memchr::memmem;

use crate::card_math::{MathStyle, DISPLAY, MAX_FORMULA_REACH};

/// The delimiters of inline math in raw HTML, as written.
const INLINE_OPEN: &str = "\\\\(";
const INLINE_CLOSE: &str = "\\\\)";

/// Elements whose text is code, where no math is read.
const CODE_ELEMENTS: [&str; 2] = ["code", "pre"];

/// A formula in a line of raw HTML.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HtmlFormula {
    /// The formula with its delimiters, in the line.
    pub(crate) source: Range<usize>,
    /// Its LaTeX, in the line.
    pub(crate) latex: Range<usize>,
    pub(crate) style: MathStyle,
}

/// Where the scan of one raw HTML block stands between its lines.
#[derive(Debug, Default)]
pub(crate) struct HtmlText {
    /// Inside a tag, and inside which quote of one of its values (`0` for none).
    tag: Option<u8>,
    comment: bool,
    /// `<code>` and `<pre>` elements open.
    code: usize,
}

impl HtmlText {
    /// The formulas in `line`, the next line of the block, in order.
    pub(crate) fn formulas(&mut self, line: &str) -> Vec<HtmlFormula> {
        let bytes = line.as_bytes();
        let mut found = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            if self.comment {
                match memmem::find(&bytes[at..], b"-->") {
                    Some(end) => {
                        self.comment = false;
                        at += end + 3;
                    }
                    None => break,
                }
            } else if let Some(quote) = self.tag {
                let b = bytes[at];
                at += 1;
                self.tag = match (quote, b) {
                    (0, b'>') => None,
                    (0, b'"' | b'\'') => Some(b),
                    (0, _) => Some(0),
                    (q, b) if q == b => Some(0),
                    (q, _) => Some(q),
                };
            } else {
                let end = next_markup(bytes, at);
                if self.code == 0 {
                    text_formulas(line, at..end, &mut found);
                }
                at = end;
                if at < bytes.len() {
                    at = self.markup(line, at);
                }
            }
        }
        found
    }

    /// Reads the markup starting at `at` (a `<` that opens a tag or a
    /// comment) as far as its name; where the scan goes on.
    fn markup(&mut self, line: &str, at: usize) -> usize {
        let rest = &line[at..];
        if rest.starts_with("<!--") {
            self.comment = true;
            return at + 4;
        }
        let (closing, name_at) = if rest.starts_with("</") { (true, 2) } else { (false, 1) };
        let name: String = rest[name_at..].chars().take_while(char::is_ascii_alphanumeric).collect::<String>().to_ascii_lowercase();
        if CODE_ELEMENTS.contains(&name.as_str()) {
            self.code = if closing { self.code.saturating_sub(1) } else { self.code + 1 };
        }
        self.tag = Some(0);
        at + name_at + name.len()
    }
}

/// Where the text run from `at` ends: at the next `<` that opens a tag
/// (a letter or `/` after it) or a comment, or at the end.
fn next_markup(bytes: &[u8], mut at: usize) -> usize {
    while let Some(lt) = memchr::memchr(b'<', &bytes[at..]) {
        let lt = at + lt;
        match bytes.get(lt + 1) {
            Some(b) if b.is_ascii_alphabetic() || *b == b'/' || *b == b'!' => return lt,
            _ => at = lt + 1,
        }
    }
    bytes.len()
}

/// The formulas in the text run `run` of `line`, added to `found`.
fn text_formulas(line: &str, run: Range<usize>, found: &mut Vec<HtmlFormula>) {
    let text = &line[run.clone()];
    let mut from = 0;
    while from < text.len() {
        let display = memmem::find(&text.as_bytes()[from..], DISPLAY.as_bytes()).map(|i| (from + i, MathStyle::Display));
        let inline = memmem::find(&text.as_bytes()[from..], INLINE_OPEN.as_bytes()).map(|i| (from + i, MathStyle::Inline));
        let Some((open, style)) = [display, inline].into_iter().flatten().min_by_key(|(at, _)| *at) else { break };
        let (open_len, close) = match style {
            MathStyle::Display => (DISPLAY.len(), DISPLAY),
            MathStyle::Inline => (INLINE_OPEN.len(), INLINE_CLOSE),
        };
        let latex_start = open + open_len;
        let reach = text.len().min(latex_start + MAX_FORMULA_REACH);
        let closing = memmem::find(&text.as_bytes()[latex_start..reach], close.as_bytes()).map(|i| latex_start + i);
        match closing {
            Some(end) if !text[latex_start..end].trim().is_empty() => {
                found.push(HtmlFormula {
                    source: run.start + open..run.start + end + close.len(),
                    latex: run.start + latex_start..run.start + end,
                    style,
                });
                from = end + close.len();
            }
            _ => from = latex_start,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn latex(lines: &[&str]) -> Vec<(String, MathStyle)> {
        let mut scan = HtmlText::default();
        let mut out = Vec::new();
        for line in lines {
            for formula in scan.formulas(line) {
                assert_eq!(&line[formula.source.start..formula.latex.start].trim_end_matches(['(', '$', '\\']), &"");
                out.push((line[formula.latex.clone()].to_owned(), formula.style));
            }
        }
        out
    }

    /// EleutherAI/gpt-j-6b and its kind put the model's sizes in an HTML
    /// table, each named by a formula.
    #[test]
    fn formulas_in_the_text_of_an_html_table() {
        let found = latex(&[
            "<table>",
            "<tr><td>\\\\(n_{parameters}\\\\)</td><td>6053381344</td></tr>",
            "<tr><td>\\\\(n_{layers}\\\\)</td><td>28&ast;</td></tr>",
            "<tr><td colspan=\"2\">$$d_{model} = 4096$$ and $5</td></tr>",
            "</table>",
        ]);
        assert_eq!(
            found,
            [
                ("n_{parameters}".to_owned(), MathStyle::Inline),
                ("n_{layers}".to_owned(), MathStyle::Inline),
                ("d_{model} = 4096".to_owned(), MathStyle::Display),
            ]
        );
    }

    #[test]
    fn no_math_in_tags_comments_or_code() {
        let found = latex(&[
            "<img alt=\"$$x$$\" title='\\\\(y\\\\)'><!-- $$z$$",
            "still a comment $$w$$ --> <code>$$c$$</code><pre>",
            "$$in pre$$</pre> <a href=\"x\"",
            "  title=\"$$still a tag$$\">$$ok$$</a> a < b $$also ok$$",
        ]);
        assert_eq!(found, [("ok".to_owned(), MathStyle::Display), ("also ok".to_owned(), MathStyle::Display)]);
    }

    #[test]
    fn unclosed_blank_or_split_formulas_are_not_math() {
        assert!(latex(&["<td>$$ $$ and \\\\( never closed</td>"]).is_empty());
        assert!(latex(&["<td>$$a<b>c</b>d$$</td>"]).is_empty(), "a formula stays in its run of text");
        assert!(latex(&["<td>\\(single\\)</td>"]).is_empty(), "one backslash is no delimiter");
        let long = format!("<p>$$ {} $$</p>", "x".repeat(MAX_FORMULA_REACH + 1));
        assert!(latex(&[&long]).is_empty());
    }
}
