//! Putting record values into code safely: one literal form per language.
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
    c.is_control() || is_format_character(c) || c == '\u{2028}' || c == '\u{2029}'
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

/// A double-quoted literal holding exactly `s`, with quotes, backslashes and
/// invisible characters escaped, everything else as it is.
fn quoted(s: &str, astral: AstralEscape) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if !is_invisible(c) => out.push(c),
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
    out.push('"');
    out
}

/// A double-quoted Python string literal holding exactly `s`.
pub fn py_str(s: &str) -> String {
    quoted(s, AstralEscape::Long)
}

/// A double-quoted JavaScript string literal holding exactly `s`; also a
/// valid JSON string, so JSON request bodies use it too.
pub fn js_str(s: &str) -> String {
    quoted(s, AstralEscape::SurrogatePair)
}

/// A shell word holding exactly `s`. Single quotes keep everything literal
/// except the quote itself, which is closed, escaped and reopened. A value
/// with invisible characters is written `$'...'` with escapes instead, so
/// the example shows them and keeps its lines; a terminal never receives a
/// raw control character from a pasted example. No shell argument can hold
/// NUL (`\x00` ends the word), the one character a shell example loses.
pub fn sh_str(s: &str) -> String {
    if s.chars().any(is_invisible) {
        dollar_quoted(s)
    } else {
        single_quoted(s)
    }
}

/// JSON text (a request body) as one shell word, keeping its line breaks:
/// JSON strings hold every invisible character as an escape, so a raw
/// newline in the text is only layout.
pub fn sh_json(json: &str) -> String {
    if json.chars().any(|c| c != '\n' && is_invisible(c)) {
        dollar_quoted(json)
    } else {
        single_quoted(json)
    }
}

fn single_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
