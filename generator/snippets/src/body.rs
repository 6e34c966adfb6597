//! One formatter for request bodies, four outputs: JSON, a Python literal or
//! keyword arguments, a JavaScript object literal, and a curl `-d` argument.
//!
//! Every form is produced from the same JSON value, so a string is encoded
//! exactly once for the language it lands in (never a JSON string inside a
//! JSON string), and nesting is indented by four spaces.

use std::borrow::Cow;
use std::fmt::Write;

use minijinja::Value as TemplateValue;
use serde_json::Value;

use crate::escape::{identifier, push_js_str, push_py_str, sh_json};

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
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    #[error("unsupported body format {0:?}")]
    UnsupportedFormat(String),
    #[error("keyword arguments need an object with identifier keys")]
    NotKeywordArguments,
}

impl BodyFormat {
    /// Every form, by the name templates give `format_body`.
    pub const NAMED: &'static [(&'static str, BodyFormat)] = &[
        ("json", BodyFormat::Json),
        ("python", BodyFormat::Python),
        ("python_kwargs", BodyFormat::PythonKwargs),
        ("js", BodyFormat::JsObject),
        ("curl", BodyFormat::CurlData),
    ];

    pub fn parse(name: &str) -> Result<BodyFormat, BodyError> {
        BodyFormat::NAMED
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, format)| *format)
            .ok_or_else(|| BodyError::UnsupportedFormat(name.to_owned()))
    }

    /// The name templates give `format_body` for this form.
    pub fn name(self) -> &'static str {
        BodyFormat::NAMED.iter().find(|(_, format)| *format == self).map_or("", |(name, _)| name)
    }
}

/// Formats `value`. `level` is the indentation level of the line the value
/// starts on, so nested lines line up with the surrounding code.
pub fn format_body(value: &Value, format: BodyFormat, level: usize) -> Result<String, BodyError> {
    format_node(value, format, level).expect("JSON values are always plain data")
}

/// [`format_body`] of a template value (what the `format_body` filter is
/// given), written as it is: the same text as formatting
/// `serde_json::to_value(value)`, without building that JSON value first,
/// which costs more than the writing. `None` for a value that is not plain
/// data (see [`Node`]); the caller converts such a value to JSON.
pub(crate) fn format_template_body(
    value: &TemplateValue,
    format: BodyFormat,
    level: usize,
) -> Option<Result<String, BodyError>> {
    format_node(value.clone(), format, level).ok()
}

/// A value [`format_body`] can write: a JSON value, or a template value.
trait BodyValue: Sized + Clone {
    /// The text of a key (a key whose node is a string).
    type Key: AsRef<str>;
    /// What the value is; an error for a value this formatter does not write.
    fn node(&self) -> Result<Node<'_, Self>, NotPlainData>;
    /// Whether the value is a scalar, and a string only of up to 24 bytes:
    /// lists of up to four of those stay on one line.
    fn is_short_scalar(&self) -> Result<bool, NotPlainData>;
}

/// One value, with its items for a list or an object.
enum Node<'a, V: BodyValue> {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(&'a str),
    Array(Cow<'a, [V]>),
    Object(Vec<(V::Key, V)>),
}

/// A template value that is not null, a boolean, a number, a string, a list
/// or a map with string keys, e.g. bytes or a map with number keys: how
/// JSON holds those is left to `serde_json`.
#[derive(Debug)]
struct NotPlainData;

impl<'v> BodyValue for &'v Value {
    type Key = &'v str;

    fn node(&self) -> Result<Node<'_, &'v Value>, NotPlainData> {
        let value: &'v Value = self;
        Ok(match value {
            Value::Null => Node::Null,
            Value::Bool(b) => Node::Bool(*b),
            Value::Number(n) => Node::Number(n.clone()),
            Value::String(s) => Node::String(s),
            Value::Array(items) => Node::Array(Cow::Owned(items.iter().collect())),
            Value::Object(map) => Node::Object(map.iter().map(|(k, v)| (k.as_str(), v)).collect()),
        })
    }

    fn is_short_scalar(&self) -> Result<bool, NotPlainData> {
        Ok(match self {
            Value::String(s) => s.len() <= 24,
            Value::Array(_) | Value::Object(_) => false,
            _ => true,
        })
    }
}

/// A key of a template map, known to be a string.
struct TemplateKey(TemplateValue);

impl AsRef<str> for TemplateKey {
    fn as_ref(&self) -> &str {
        self.0.as_str().unwrap_or_default()
    }
}

/// Read as `serde_json::to_value` reads a template value: undefined and none
/// are null, lists and iterables arrays, maps objects in their order.
impl BodyValue for TemplateValue {
    type Key = TemplateKey;

    fn node(&self) -> Result<Node<'_, TemplateValue>, NotPlainData> {
        use minijinja::value::ValueKind;
        // Lists made from data are vectors: read in place, not item by item.
        if let Some(items) = self.downcast_object_ref::<Vec<TemplateValue>>() {
            return Ok(Node::Array(Cow::Borrowed(items)));
        }
        Ok(match (self.kind(), self.as_object()) {
            (ValueKind::Undefined | ValueKind::None, _) => Node::Null,
            (ValueKind::Bool, _) => Node::Bool(self.is_true()),
            (ValueKind::String, _) => Node::String(self.as_str().ok_or(NotPlainData)?),
            // Numbers are converted as serde_json does it, to be written as JSON writes them.
            (ValueKind::Number, _) => match serde_json::to_value(self) {
                Ok(Value::Number(n)) => Node::Number(n),
                Ok(Value::Null) => Node::Null,
                _ => return Err(NotPlainData),
            },
            (ValueKind::Seq | ValueKind::Iterable, Some(object)) => {
                Node::Array(Cow::Owned(object.try_iter().into_iter().flatten().collect()))
            }
            (ValueKind::Map, Some(object)) => {
                let mut entries = Vec::new();
                // Maps made from data are index maps: read them in place
                // rather than through the object's own iterator.
                let pairs: Box<dyn Iterator<Item = (TemplateValue, TemplateValue)>> =
                    match self.downcast_object_ref::<indexmap::IndexMap<TemplateValue, TemplateValue>>() {
                        Some(map) => Box::new(map.iter().map(|(k, v)| (k.clone(), v.clone()))),
                        None => Box::new(object.try_iter_pairs().into_iter().flatten()),
                    };
                for (key, item) in pairs {
                    if key.as_str().is_none() {
                        return Err(NotPlainData);
                    }
                    entries.push((TemplateKey(key), item));
                }
                Node::Object(entries)
            }
            _ => return Err(NotPlainData),
        })
    }

    fn is_short_scalar(&self) -> Result<bool, NotPlainData> {
        use minijinja::value::ValueKind;
        match self.kind() {
            ValueKind::String => Ok(self.as_str().ok_or(NotPlainData)?.len() <= 24),
            ValueKind::Seq | ValueKind::Iterable | ValueKind::Map => Ok(false),
            ValueKind::Undefined | ValueKind::None | ValueKind::Bool | ValueKind::Number => Ok(true),
            _ => Err(NotPlainData),
        }
    }
}

/// The text of `value` in `format`, or the error of a body that cannot be
/// written so; `NotPlainData` when the value is not plain data.
fn format_node<V: BodyValue>(
    value: V,
    format: BodyFormat,
    level: usize,
) -> Result<Result<String, BodyError>, NotPlainData> {
    let mut out = String::new();
    match format {
        BodyFormat::Json => write_value(&mut out, &value, level, Style::JSON)?,
        BodyFormat::Python => write_value(&mut out, &value, level, Style::PYTHON)?,
        BodyFormat::JsObject => write_value(&mut out, &value, level, Style::JS)?,
        BodyFormat::CurlData => {
            let mut json = String::new();
            write_value(&mut json, &value, level, Style::JSON)?;
            out = sh_json(&json);
        }
        BodyFormat::PythonKwargs => {
            // (A value that is not plain data could only be converted to
            // JSON that is no keyword arguments either: the error is the same.)
            let Ok(Node::Object(entries)) = value.node() else { return Ok(Err(BodyError::NotKeywordArguments)) };
            for (i, (key, item)) in entries.iter().enumerate() {
                let key = key.as_ref();
                if identifier(key).is_none() {
                    return Ok(Err(BodyError::NotKeywordArguments));
                }
                if i > 0 {
                    out.push('\n');
                    push_indent(&mut out, level);
                }
                out.push_str(key);
                out.push('=');
                write_value(&mut out, item, level, Style::PYTHON)?;
                out.push(',');
            }
        }
    }
    Ok(Ok(out))
}

#[derive(Clone, Copy)]
struct Style {
    null: &'static str,
    true_: &'static str,
    false_: &'static str,
    /// Appends a string literal.
    string: fn(&mut String, &str),
    /// Bare identifier keys (JavaScript object literals).
    bare_keys: bool,
    /// Trailing commas after the last item (allowed in Python and JS, not JSON).
    trailing_comma: bool,
}

impl Style {
    const JSON: Style = Style { null: "null", true_: "true", false_: "false", string: push_js_str, bare_keys: false, trailing_comma: false };
    const PYTHON: Style = Style { null: "None", true_: "True", false_: "False", string: push_py_str, bare_keys: false, trailing_comma: true };
    const JS: Style = Style { null: "null", true_: "true", false_: "false", string: push_js_str, bare_keys: true, trailing_comma: true };
}

fn push_indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str(INDENT);
    }
}

fn write_value<V: BodyValue>(out: &mut String, value: &V, level: usize, style: Style) -> Result<(), NotPlainData> {
    match value.node()? {
        Node::Null => out.push_str(style.null),
        Node::Bool(true) => out.push_str(style.true_),
        Node::Bool(false) => out.push_str(style.false_),
        Node::Number(n) => write!(out, "{n}").expect("writing to a String"),
        Node::String(s) => (style.string)(out, s),
        Node::Array(items) if items.is_empty() => out.push_str("[]"),
        Node::Object(entries) if entries.is_empty() => out.push_str("{}"),
        Node::Array(items) => {
            // Short lists of scalars stay on one line, as people write them.
            if items.len() <= 4 && all_short_scalars(&items)? {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    write_value(out, item, level, style)?;
                }
                out.push(']');
            } else {
                out.push_str("[\n");
                write_items(out, items.iter().map(|v| (None, v)), level, style)?;
                out.push(']');
            }
        }
        Node::Object(entries) => {
            out.push_str("{\n");
            write_items(out, entries.iter().map(|(k, v)| (Some(k.as_ref()), v)), level, style)?;
            out.push('}');
        }
    }
    Ok(())
}

fn all_short_scalars<V: BodyValue>(items: &[V]) -> Result<bool, NotPlainData> {
    for item in items {
        if !item.is_short_scalar()? {
            return Ok(false);
        }
    }
    Ok(true)
}

fn write_items<'a, V: BodyValue + 'a>(
    out: &mut String,
    items: impl ExactSizeIterator<Item = (Option<&'a str>, &'a V)>,
    level: usize,
    style: Style,
) -> Result<(), NotPlainData> {
    let count = items.len();
    for (i, (key, item)) in items.enumerate() {
        push_indent(out, level + 1);
        if let Some(key) = key {
            match identifier(key) {
                Some(bare) if style.bare_keys => out.push_str(bare),
                _ => (style.string)(out, key),
            }
            out.push_str(": ");
        }
        write_value(out, item, level + 1, style)?;
        if i + 1 < count || style.trailing_comma {
            out.push(',');
        }
        out.push('\n');
    }
    push_indent(out, level);
    Ok(())
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
