//! Putting record values into code safely: one literal form per language.
//!
//! Record values are untrusted. Every value that lands in an example goes
//! through one of these, so a quote, newline or `${...}` in a tag or widget
//! text stays data and the example still parses.

use serde_json::Value;

/// A double-quoted Python string literal holding exactly `s`.
///
/// JSON string syntax is a subset of Python's: every JSON escape means the
/// same in Python, so serde_json's encoder is exact.
pub fn py_str(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialise")
}

/// A double-quoted JavaScript string literal holding exactly `s` (JSON is
/// valid JavaScript since ES2019, which allowed U+2028 and U+2029 in strings).
pub fn js_str(s: &str) -> String {
    serde_json::to_string(s).expect("strings always serialise")
}

/// A single-quoted shell word holding exactly `s`: nothing inside single
/// quotes is special except the quote itself, which is closed, escaped and
/// reopened.
pub fn sh_str(s: &str) -> String {
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

/// Text safe to put after `#` or `//` on one line: line breaks and other
/// control characters become spaces, so the text cannot end the comment.
pub fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() || c == '\u{2028}' || c == '\u{2029}' { ' ' } else { c })
        .collect()
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
        assert_eq!(py_str(hostile), r#""a\"b'c\\d\ne${x}`$(y)</script>\u{2028}""#.replace("\\u{2028}", "\u{2028}"));
        assert_eq!(sh_str("it's $HOME"), r"'it'\''s $HOME'");
        assert_eq!(comment_text("a\nb\r\tc"), "a b  c");
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
