//! Text from records and folder names as the build log shows it.
//!
//! Names and values come from anyone, so control and bidi characters are
//! written as escapes (`\u{1b}`): a record cannot recolour, retitle or
//! rearrange the terminal that shows the log.

/// `text` with control and bidi characters written as escapes.
pub fn printable(text: &str) -> String {
    let bidi = |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_and_bidi_characters_only() {
        assert_eq!(printable("a\u{1b}[31mb\u{202e}c é"), "a\\u{1b}[31mb\\u{202e}c é");
    }
}
