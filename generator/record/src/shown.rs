//! Text from records and folder names as the build log and the pages show it.
//!
//! Names and values come from anyone, so control and bidi characters are
//! written as escapes (`\u{1b}`): a record cannot recolour, retitle or
//! rearrange the terminal that shows the log. On a page, the characters
//! that reorder the text around them are written as escapes too, so that a
//! file named `invoice\u{202e}gpj.exe` is not shown as `invoiceexe.jpg`.

use std::borrow::Cow;

/// Bidi embeddings, overrides and isolates, and the characters that end
/// them: they reorder the text after them, so what is shown is not what is
/// there. The marks (LRM, RLM, ALM) only place the punctuation beside them,
/// as right-to-left text needs, and are not among them.
pub fn reorders_text(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with control and bidi characters written as escapes.
pub fn printable(text: &str) -> String {
    let bidi = |c: char| reorders_text(c) || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}');
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || bidi(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` as a page shows it: the characters that reorder the text (see
/// [`reorders_text`]) written as escapes (`\u{202e}`), everything else as
/// it is. Borrowed when there is none, as for nearly all text.
pub fn page_text(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(reorders_text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if reorders_text(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_and_bidi_characters_only() {
        assert_eq!(printable("a\u{1b}[31mb\u{202e}c é\u{200f}"), "a\\u{1b}[31mb\\u{202e}c é\\u{200f}");
    }

    #[test]
    fn pages_show_what_reorders_text_as_escapes() {
        assert_eq!(page_text("invoice\u{202e}gpj.exe"), "invoice\\u{202e}gpj.exe");
        assert_eq!(page_text("a\u{2066}b\u{2069}\u{202a}c\u{202c}"), "a\\u{2066}b\\u{2069}\\u{202a}c\\u{202c}");
        for kept in ["plain", "é 😀 \u{200d}", "שלום\u{200f}.", "فارسی\u{200c}ها", "a\tb"] {
            assert!(matches!(page_text(kept), Cow::Borrowed(_)), "{kept:?}");
        }
    }
}
