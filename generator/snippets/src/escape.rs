//! Putting record values into code safely: one literal form per language,
//! and percent-encoding for the values that go into URLs.
//!
//! Record values are untrusted. Every value that lands in an example goes
//! through one of these, so a quote, newline or `${...}` in a tag or widget
//! text stays data and the example still parses.

use serde_json::Value;

/// Characters a reader cannot see or that move the text around them:
/// controls (C0, DEL, C1), Unicode's format characters (bidi embeddings,
/// overrides and isolates, zero-width characters, the BOM, tag characters)
/// and the line and paragraph separators. In an example they could hide
/// what the code does ("Trojan Source") or break a line where the reader
/// sees none, so literals hold them as escapes and comments as spaces.
pub fn is_invisible(c: char) -> bool {
    // Nearly every character of an example is ASCII, where only the C0
    // controls and DEL qualify; the range table below is for the rest.
    if c.is_ascii() {
        return is_invisible_ascii(c as u8);
    }
    c.is_control() || is_format_character(c) || c == '\u{2028}' || c == '\u{2029}'
}

/// [`is_invisible`] for an ASCII byte: the C0 controls and DEL.
fn is_invisible_ascii(b: u8) -> bool {
    b < 0x20 || b == 0x7f
}

/// Whether `s` holds an invisible character other than those `allowed` says
/// may stay, checking the (common) ASCII bytes without decoding them.
fn has_invisible(s: &str, allowed: impl Fn(char) -> bool) -> bool {
    if s.is_ascii() {
        // 16 bytes at a time, without branches, which the compiler checks
        // in parallel.
        let invisible = |b: u8| is_invisible_ascii(b) & !allowed(b as char);
        s.as_bytes().chunks(16).any(|chunk| chunk.iter().fold(false, |any, &b| any | invisible(b)))
    } else {
        s.chars().any(|c| is_invisible(c) && !allowed(c))
    }
}

/// Unicode's format characters (general category Cf).
fn is_format_character(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{0600}'..='\u{0605}' | '\u{061C}' | '\u{06DD}' | '\u{070F}' | '\u{0890}'..='\u{0891}'
        | '\u{08E2}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}' | '\u{110BD}' | '\u{110CD}'
        | '\u{13430}'..='\u{1343F}' | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}' | '\u{E0001}'
        | '\u{E0020}'..='\u{E007F}')
}

/// How a double-quoted literal writes a character outside the Basic
/// Multilingual Plane as an escape: the one place Python and JavaScript differ.
enum AstralEscape {
    /// Python's `\U0001f600`.
    Long,
    /// A UTF-16 surrogate pair, `\ud83d\ude00`: JavaScript and JSON.
    SurrogatePair,
}

/// Whether a byte of a string may need an escape in a double-quoted
/// literal: a quote, a backslash, an ASCII control, DEL, or part of a
/// character outside ASCII.
fn needs_a_look(b: u8) -> bool {
    !(0x20..0x7f).contains(&b) || b == b'"' || b == b'\\'
}

/// Appends a double-quoted literal holding exactly `s` to `out`, with
/// quotes, backslashes and invisible characters escaped, everything else as
/// it is.
fn push_quoted(out: &mut String, s: &str, astral: AstralEscape) {
    use std::fmt::Write;
    out.reserve(s.len() + 2);
    out.push('"');
    // Runs of characters that stay as they are are copied in one go. ASCII
    // is checked byte by byte, and first 16 bytes at a time (which the
    // compiler does in parallel): only the rest is decoded.
    let bytes = s.as_bytes();
    let (mut run, mut at) = (0, 0);
    while at < bytes.len() {
        if let Some(chunk) = bytes.get(at..at + 16) {
            if !chunk.iter().fold(false, |any, &b| any | needs_a_look(b)) {
                at += 16;
                continue;
            }
        }
        let b = bytes[at];
        if !needs_a_look(b) {
            at += 1;
            continue;
        }
        let c = s[at..].chars().next().expect("`at` is on a character boundary");
        let next = at + c.len_utf8();
        if !b.is_ascii() && !is_invisible(c) {
            at = next;
            continue;
        }
        out.push_str(&s[run..at]);
        (run, at) = (next, next);
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32).expect("writing to a String"),
            c => match astral {
                AstralEscape::Long => write!(out, "\\U{:08x}", c as u32).expect("writing to a String"),
                AstralEscape::SurrogatePair => {
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        write!(out, "\\u{unit:04x}").expect("writing to a String");
                    }
                }
            },
        }
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// A double-quoted Python string literal holding exactly `s`.
pub fn py_str(s: &str) -> String {
    let mut out = String::new();
    push_py_str(&mut out, s);
    out
}

/// A double-quoted JavaScript string literal holding exactly `s`; also a
/// valid JSON string, so JSON request bodies use it too.
pub fn js_str(s: &str) -> String {
    let mut out = String::new();
    push_js_str(&mut out, s);
    out
}

/// [`py_str`], appended to `out`.
pub(crate) fn push_py_str(out: &mut String, s: &str) {
    push_quoted(out, s, AstralEscape::Long);
}

/// [`js_str`], appended to `out`.
pub(crate) fn push_js_str(out: &mut String, s: &str) {
    push_quoted(out, s, AstralEscape::SurrogatePair);
}

/// A shell word holding exactly `s`. Single quotes keep everything literal
/// except the quote itself, which is closed, escaped and reopened. A value
/// with invisible characters is written `$'...'` with escapes instead, so
/// the example shows them and keeps its lines; a terminal never receives a
/// raw control character from a pasted example. No shell argument can hold
/// NUL (`\x00` ends the word), the one character a shell example loses.
pub fn sh_str(s: &str) -> String {
    if has_invisible(s, |_| false) {
        dollar_quoted(s)
    } else {
        single_quoted(s)
    }
}

/// JSON text (a request body) as one shell word, keeping its line breaks:
/// JSON strings hold every invisible character as an escape, so a raw
/// newline in the text is only layout.
pub fn sh_json(json: &str) -> String {
    if has_invisible(json, |c| c == '\n') {
        dollar_quoted(json)
    } else {
        single_quoted(json)
    }
}

fn single_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    let mut pieces = s.split('\'');
    out.push_str(pieces.next().unwrap_or(""));
    for piece in pieces {
        out.push_str("'\\''");
        out.push_str(piece);
    }
    out.push('\'');
    out
}

fn dollar_quoted(s: &str) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(s.len() + 3);
    out.push_str("$'");
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            // UTF-8 bytes, not `\u`: bash's `\u` depends on the locale.
            c if is_invisible(c) => {
                for byte in c.encode_utf8(&mut [0; 4]).bytes() {
                    write!(out, "\\x{byte:02x}").expect("writing to a String");
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// Text safe to put after `#` or `//` on one line: line breaks and other
/// invisible characters become spaces, so the text can neither end the
/// comment nor reorder the code around it.
pub fn comment_text(s: &str) -> String {
    if !has_invisible(s, |_| false) {
        return s.to_owned();
    }
    s.chars().map(|c| if is_invisible(c) { ' ' } else { c }).collect()
}

/// `s` if it is a plain identifier (`[A-Za-z_][A-Za-z0-9_]*`), for record
/// values used as class or function names.
pub fn identifier(s: &str) -> Option<&str> {
    let mut chars = s.chars();
    let first = chars.next()?;
    let ok = (first.is_ascii_alphabetic() || first == '_') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    ok.then_some(s)
}

/// A Python literal for a JSON value (`True`, `None`, dicts, lists, numbers, strings).
pub fn py_value(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => py_str(s),
        Value::Array(items) => format!("[{}]", items.iter().map(py_value).collect::<Vec<_>>().join(", ")),
        Value::Object(map) => format!(
            "{{{}}}",
            map.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_value(v))).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// `s` with every byte but unreserved URL characters and `/` percent-encoded,
/// so it can stand in a URL path or query value as it is.
pub fn percent_encode_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_encoding() {
        assert_eq!(percent_encode_path("org/Model-1.5_x~"), "org/Model-1.5_x~");
        assert_eq!(percent_encode_path("a b&c?d#é'\""), "a%20b%26c%3Fd%23%C3%A9%27%22");
    }

    #[test]
    fn literals_escape_what_their_language_needs() {
        let hostile = "a\"b'c\\d\ne${x}`$(y)</script>\u{2028}";
        assert_eq!(py_str(hostile), r#""a\"b'c\\d\ne${x}`$(y)</script>\u2028""#);
        assert_eq!(js_str(hostile), py_str(hostile));
        assert_eq!(sh_str("it's $HOME"), r"'it'\''s $HOME'");
        assert_eq!(comment_text("a\nb\r\tc\u{202E}d"), "a b  c d");
    }

    #[test]
    fn invisible_characters_become_escapes() {
        // Bidi override, zero-width space, DEL, a C1 control, a tag character.
        let sneaky = "x\u{202E}y\u{200B}\u{7f}\u{85}\u{E0041}\u{1F600}";
        assert_eq!(py_str(sneaky), r#""x\u202ey\u200b\u007f\u0085\U000e0041😀""#);
        assert_eq!(js_str(sneaky), r#""x\u202ey\u200b\u007f\u0085\udb40\udc41😀""#);
        let json: String = serde_json::from_str(&js_str(sneaky)).unwrap();
        assert_eq!(json, sneaky, "the JavaScript form is JSON too");
        assert_eq!(sh_str("a'b\n\tc\u{1b}[31m\u{202E}"), r"$'a\'b\n\tc\x1b[31m\xe2\x80\xae'");
        assert_eq!(sh_str("plain \u{1F600} text"), "'plain \u{1F600} text'");
        assert_eq!(sh_json("{\n    \"a\": \"it's\"\n}"), "'{\n    \"a\": \"it'\\''s\"\n}'", "a body keeps its lines");
        assert_eq!(sh_json("{\"a\": \"\u{7}\"}"), r#"$'{"a": "\x07"}'"#);
    }

    #[test]
    fn identifiers() {
        assert_eq!(identifier("AutoModelForCausalLM"), Some("AutoModelForCausalLM"));
        assert_eq!(identifier("_x1"), Some("_x1"));
        for bad in ["", "1a", "a-b", "a b", "os.system", "x;import os", "é"] {
            assert_eq!(identifier(bad), None, "{bad}");
        }
    }

    #[test]
    fn python_values() {
        let v: Value = serde_json::from_str(r#"{"a": [1, true, null, "x\"y"], "b": false}"#).unwrap();
        assert_eq!(py_value(&v), r#"{"a": [1, True, None, "x\"y"], "b": False}"#);
    }

    /// The plain char-by-char forms of the escapes, as they were before the
    /// fast paths: the fast forms must give exactly the same text.
    mod reference {
        use super::super::{is_format_character, AstralEscape};
        use std::fmt::Write;

        pub fn is_invisible(c: char) -> bool {
            c.is_control() || is_format_character(c) || c == '\u{2028}' || c == '\u{2029}'
        }

        pub fn quoted(s: &str, astral: AstralEscape) -> String {
            let mut out = String::from('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c if !is_invisible(c) => out.push(c),
                    c if (c as u32) < 0x10000 => write!(out, "\\u{:04x}", c as u32).unwrap(),
                    c => match astral {
                        AstralEscape::Long => write!(out, "\\U{:08x}", c as u32).unwrap(),
                        AstralEscape::SurrogatePair => {
                            for unit in c.encode_utf16(&mut [0u16; 2]) {
                                write!(out, "\\u{unit:04x}").unwrap();
                            }
                        }
                    },
                }
            }
            out.push('"');
            out
        }

        pub fn single_quoted(s: &str) -> String {
            let mut out = String::from('\'');
            for c in s.chars() {
                if c == '\'' {
                    out.push_str("'\\''");
                } else {
                    out.push(c);
                }
            }
            out.push('\'');
            out
        }

        pub fn sh_str(s: &str) -> String {
            if s.chars().any(is_invisible) {
                super::super::dollar_quoted(s)
            } else {
                single_quoted(s)
            }
        }

        pub fn sh_json(json: &str) -> String {
            if json.chars().any(|c| c != '\n' && is_invisible(c)) {
                super::super::dollar_quoted(json)
            } else {
                single_quoted(json)
            }
        }

        pub fn comment_text(s: &str) -> String {
            s.chars().map(|c| if is_invisible(c) { ' ' } else { c }).collect()
        }
    }

    /// Mostly characters that matter to the escapes, plus any character.
    fn tricky_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let tricky = proptest::sample::select(vec![
            'a', ' ', '"', '\'', '\\', '\n', '\r', '\t', '\0', '\u{1b}', '\u{7f}', '\u{80}', '\u{85}', '\u{9f}',
            '\u{a0}', '\u{ad}', 'é', '\u{200b}', '\u{202e}', '\u{2028}', '\u{2029}', '\u{feff}', '\u{fffd}',
            '\u{e0041}', '\u{1f600}', '\u{110bd}',
        ]);
        let piece = prop_oneof![
            3 => tricky.prop_map(String::from),
            1 => any::<char>().prop_map(String::from),
            // Long plain runs, which the literal writers skip 16 bytes at a time.
            1 => "[a-z ]{0,40}",
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
    }

    proptest::proptest! {
        #[test]
        fn fast_paths_give_the_reference_text(s in tricky_text()) {
            for c in s.chars() {
                proptest::prop_assert_eq!(is_invisible(c), reference::is_invisible(c), "{:?}", c);
            }
            proptest::prop_assert_eq!(py_str(&s), reference::quoted(&s, AstralEscape::Long));
            proptest::prop_assert_eq!(js_str(&s), reference::quoted(&s, AstralEscape::SurrogatePair));
            proptest::prop_assert_eq!(sh_str(&s), reference::sh_str(&s));
            proptest::prop_assert_eq!(sh_json(&s), reference::sh_json(&s));
            proptest::prop_assert_eq!(comment_text(&s), reference::comment_text(&s));
        }
    }

    #[test]
    fn every_character_is_classified_as_before() {
        for c in (0..=char::MAX as u32).filter_map(char::from_u32) {
            assert_eq!(is_invisible(c), reference::is_invisible(c), "{c:?}");
        }
    }
}
