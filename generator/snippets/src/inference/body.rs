//! One formatter for request bodies, four outputs: JSON, a Python literal or
//! keyword arguments, a JavaScript object literal, and a curl `-d` argument.
//!
//! Every form is produced from the same JSON value, so a string is encoded
//! exactly once for the language it lands in (never a JSON string inside a
//! JSON string), and nesting is indented by four spaces.

use serde_json::Value;

use crate::escape::{identifier, js_str, py_str, sh_json};

const INDENT: &str = "    ";

/// The output forms of [`format_body`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyFormat {
    Json,
    /// A Python expression: dicts, lists, `True`, `None`.
    Python,
    /// The top-level object's entries as `key=value` lines, for keyword arguments.
    PythonKwargs,
    /// A JavaScript object literal, with bare keys where they are identifiers.
    JsObject,
    /// The JSON text as one single-quoted shell word, for `curl -d`.
    CurlData,
}

/// A body that cannot be written in the asked form.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    #[error("unsupported body format {0:?}")]
    UnsupportedFormat(String),
    #[error("keyword arguments need an object with identifier keys")]
    NotKeywordArguments,
}

impl BodyFormat {
    pub fn parse(name: &str) -> Result<BodyFormat, BodyError> {
        Ok(match name {
            "json" => BodyFormat::Json,
            "python" => BodyFormat::Python,
            "python_kwargs" => BodyFormat::PythonKwargs,
            "js" => BodyFormat::JsObject,
            "curl" => BodyFormat::CurlData,
            other => return Err(BodyError::UnsupportedFormat(other.to_owned())),
        })
    }
}

/// Formats `value`. `level` is the indentation level of the line the value
/// starts on, so nested lines line up with the surrounding code.
pub fn format_body(value: &Value, format: BodyFormat, level: usize) -> Result<String, BodyError> {
    let mut out = String::new();
    match format {
        BodyFormat::Json => write_value(&mut out, value, level, Style::JSON),
        BodyFormat::Python => write_value(&mut out, value, level, Style::PYTHON),
        BodyFormat::JsObject => write_value(&mut out, value, level, Style::JS),
        BodyFormat::CurlData => {
            let mut json = String::new();
            write_value(&mut json, value, level, Style::JSON);
            out = sh_json(&json);
        }
        BodyFormat::PythonKwargs => {
            let Value::Object(map) = value else { return Err(BodyError::NotKeywordArguments) };
            for (i, (key, item)) in map.iter().enumerate() {
                if identifier(key).is_none() {
                    return Err(BodyError::NotKeywordArguments);
                }
                if i > 0 {
                    out.push('\n');
                    push_indent(&mut out, level);
                }
                out.push_str(key);
                out.push('=');
                write_value(&mut out, item, level, Style::PYTHON);
                out.push(',');
            }
        }
    }
    Ok(out)
}

#[derive(Clone, Copy)]
struct Style {
    null: &'static str,
    true_: &'static str,
    false_: &'static str,
    string: fn(&str) -> String,
    /// Bare identifier keys (JavaScript object literals).
    bare_keys: bool,
    /// Trailing commas after the last item (allowed in Python and JS, not JSON).
    trailing_comma: bool,
}

impl Style {
    const JSON: Style = Style { null: "null", true_: "true", false_: "false", string: js_str, bare_keys: false, trailing_comma: false };
    const PYTHON: Style = Style { null: "None", true_: "True", false_: "False", string: py_str, bare_keys: false, trailing_comma: true };
    const JS: Style = Style { null: "null", true_: "true", false_: "false", string: js_str, bare_keys: true, trailing_comma: true };
}

fn push_indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str(INDENT);
    }
}

fn write_value(out: &mut String, value: &Value, level: usize, style: Style) {
    match value {
        Value::Null => out.push_str(style.null),
        Value::Bool(true) => out.push_str(style.true_),
        Value::Bool(false) => out.push_str(style.false_),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => out.push_str(&(style.string)(s)),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        // Short lists of scalars stay on one line, as people write them.
        Value::Array(items) if items.len() <= 4 && items.iter().all(is_short_scalar) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_value(out, item, level, style);
            }
            out.push(']');
        }
        Value::Array(items) => {
            out.push_str("[\n");
            write_items(out, items.iter().map(|v| (None, v)), level, style);
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            write_items(out, map.iter().map(|(k, v)| (Some(k.as_str()), v)), level, style);
            out.push('}');
        }
    }
}

fn write_items<'a>(
    out: &mut String,
    items: impl ExactSizeIterator<Item = (Option<&'a str>, &'a Value)>,
    level: usize,
    style: Style,
) {
    let count = items.len();
    for (i, (key, item)) in items.enumerate() {
        push_indent(out, level + 1);
        if let Some(key) = key {
            match identifier(key) {
                Some(bare) if style.bare_keys => out.push_str(bare),
                _ => out.push_str(&(style.string)(key)),
            }
            out.push_str(": ");
        }
        write_value(out, item, level + 1, style);
        if i + 1 < count || style.trailing_comma {
            out.push(',');
        }
        out.push('\n');
    }
    push_indent(out, level);
}

fn is_short_scalar(value: &Value) -> bool {
    match value {
        Value::String(s) => s.len() <= 24,
        Value::Array(_) | Value::Object(_) => false,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body() -> Value {
        json!({"inputs": "I want a refund", "parameters": {"candidate_labels": ["refund", "legal", "faq"], "multi_label": false, "top-k": null}})
    }

    #[test]
    fn four_outputs_from_one_value() {
        assert_eq!(
            format_body(&body(), BodyFormat::Json, 0).unwrap(),
            "{\n    \"inputs\": \"I want a refund\",\n    \"parameters\": {\n        \"candidate_labels\": [\"refund\", \"legal\", \"faq\"],\n        \"multi_label\": false,\n        \"top-k\": null\n    }\n}"
        );
        assert_eq!(
            format_body(&body(), BodyFormat::Python, 1).unwrap(),
            "{\n        \"inputs\": \"I want a refund\",\n        \"parameters\": {\n            \"candidate_labels\": [\"refund\", \"legal\", \"faq\"],\n            \"multi_label\": False,\n            \"top-k\": None,\n        },\n    }"
        );
        assert_eq!(
            format_body(&body(), BodyFormat::JsObject, 0).unwrap(),
            "{\n    inputs: \"I want a refund\",\n    parameters: {\n        candidate_labels: [\"refund\", \"legal\", \"faq\"],\n        multi_label: false,\n        \"top-k\": null,\n    },\n}"
        );
        let curl = format_body(&json!({"inputs": "it's"}), BodyFormat::CurlData, 0).unwrap();
        assert_eq!(curl, "'{\n    \"inputs\": \"it'\\''s\"\n}'");
    }

    #[test]
    fn keyword_arguments() {
        let kwargs = format_body(&json!({"text": "hi", "candidate_labels": ["a", "b"]}), BodyFormat::PythonKwargs, 1).unwrap();
        assert_eq!(kwargs, "text=\"hi\",\n    candidate_labels=[\"a\", \"b\"],", "keys keep their order");
        assert_eq!(format_body(&json!({"top-k": 1}), BodyFormat::PythonKwargs, 0), Err(BodyError::NotKeywordArguments));
        assert_eq!(format_body(&json!([1]), BodyFormat::PythonKwargs, 0), Err(BodyError::NotKeywordArguments));
        assert_eq!(BodyFormat::parse("yaml"), Err(BodyError::UnsupportedFormat("yaml".into())));
    }

    #[test]
    fn strings_are_encoded_once() {
        let hostile = json!({"inputs": "a\"b\\c\n${x}`'"});
        let json = format_body(&hostile, BodyFormat::Json, 0).unwrap();
        let back: Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back, hostile);
        let py = format_body(&hostile, BodyFormat::Python, 0).unwrap();
        assert!(py.contains(r#""a\"b\\c\n${x}`'""#), "{py}");
    }
}
