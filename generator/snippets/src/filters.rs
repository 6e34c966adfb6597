//! The filters every template may use. Each takes what a template holds and
//! returns code in one language; record values reach code only through them,
//! so the filters that quote a value also note it for the engine's report of
//! the values a model's examples hold ([`crate::substituted`]).

use std::borrow::Cow;

use indexmap::IndexMap;
use minijinja::value::ValueKind;
use minijinja::{Environment, State, Value as TemplateValue};
use serde_json::Value;

use crate::escape::{comment_text, identifier, js_str, py_str, py_value, sh_str};
use crate::substituted::note;
use crate::body::{self, BodyError, BodyFormat};

/// Adds the filters to `env`.
pub(crate) fn register_filters(env: &mut Environment<'static>) {
    // String literals; non-strings (numbers) are written in their text form.
    env.add_filter("py", |state: &State, v: TemplateValue| noted(state, &v, py_str(&text_of(&v))));
    env.add_filter("js", |state: &State, v: TemplateValue| noted(state, &v, js_str(&text_of(&v))));
    env.add_filter("sh", |state: &State, v: TemplateValue| noted(state, &v, sh_str(&text_of(&v))));
    env.add_filter("comment", |state: &State, v: TemplateValue| noted(state, &v, comment_text(&text_of(&v))));
    // A class or function name from the record, or none when it is not one.
    env.add_filter("ident", |state: &State, v: TemplateValue| {
        let name = v.as_str().and_then(identifier).map(TemplateValue::from).unwrap_or(TemplateValue::from(()));
        noted(state, &v, name)
    });
    // Any record value as a Python literal (dicts, lists, True/None...).
    env.add_filter("pyval", |state: &State, v: TemplateValue| noted(state, &v, py_value(&json_of(&v))));
    // `body | format_body("python", 1)`: one JSON value as json, python,
    // python_kwargs, js or curl, indented for the line it starts on.
    env.add_filter("format_body", format_body);
    // `token_env | js_env`: `process.env.HF_TOKEN` (bracketed if not an identifier).
    env.add_filter("js_env", |v: TemplateValue| {
        let name = text_of(&v);
        match identifier(&name) {
            Some(id) => format!("process.env.{id}"),
            None => format!("process.env[{}]", js_str(&name)),
        }
    });
    // `a | merge_dict(b)`: a new mapping with b's entries after a's.
    env.add_filter("merge_dict", merge_dict);
    // `tags | digits_after("yolov")`: "8" for a tag "yolov8", none without one.
    env.add_filter("digits_after", |list: TemplateValue, prefix: String| {
        let found = list.try_iter().ok().and_then(|mut items| {
            items.find_map(|item| {
                let digits = item.as_str()?.strip_prefix(prefix.as_str())?;
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.to_owned())
            })
        });
        found.map(TemplateValue::from).unwrap_or(TemplateValue::from(()))
    });
}

/// A value as text: strings are borrowed, not copied.
fn text_of(value: &TemplateValue) -> Cow<'_, str> {
    match value.as_str() {
        Some(s) => Cow::Borrowed(s),
        None if value.is_undefined() || value.is_none() => Cow::Borrowed(""),
        None => Cow::Owned(value.to_string()),
    }
}

/// `code`, made from `value`, with `value` noted ([`crate::substituted`]).
fn noted<T>(state: &State, value: &TemplateValue, code: T) -> T {
    note(state, value);
    code
}

/// `body | format_body("python", 1)`.
fn format_body(state: &State, v: TemplateValue, format: String, level: Option<usize>) -> Result<String, minijinja::Error> {
    // Noted before the cache is asked, so a remembered body is noted too.
    note(state, &v);
    let invalid = |e: BodyError| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string());
    let format = BodyFormat::parse(&format).map_err(invalid)?;
    let level = level.unwrap_or(0);
    // A model's examples format the same few values again and again.
    crate::cache::remembered_body(&v, format, level, || {
        // Written as it is; a value that is not plain data goes through JSON.
        body::format_template_body(&v, format, level)
            .unwrap_or_else(|| body::format_body(&json_of(&v), format, level))
    })
    .map_err(invalid)
}

/// `a | merge_dict(b)`: a new mapping with b's entries after a's (a's
/// place kept for a key in both), each value as JSON gives it back; an
/// empty one for what is not a mapping.
fn merge_dict(a: TemplateValue, b: TemplateValue) -> TemplateValue {
    // Nearly always both are maps of data (a request body and chat
    // parameters), which JSON gives back as they are: merge them as they
    // are, rather than going through JSON and back.
    if let (Some(a), Some(b)) = (data_map(&a), data_map(&b)) {
        let mut merged = a.clone();
        merged.extend(b.iter().map(|(k, v)| (k.clone(), v.clone())));
        return TemplateValue::from_object(merged);
    }
    let mut merged: serde_json::Map<String, Value> = match json_of(&a) {
        Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    if let Value::Object(extra) = json_of(&b) {
        merged.extend(extra);
    }
    TemplateValue::from_serialize(Value::Object(merged))
}

/// `value` as a map, if it is one that going through JSON and back would
/// give back the same: an index map (what maps are made of) with string
/// keys, holding only such values.
fn data_map(value: &TemplateValue) -> Option<&IndexMap<TemplateValue, TemplateValue>> {
    let map = value.downcast_object_ref::<IndexMap<TemplateValue, TemplateValue>>()?;
    map.iter().all(|(k, v)| k.as_str().is_some() && is_json_data(v)).then_some(map)
}

/// Whether JSON gives `value` back as it is: strings, booleans, none, and
/// lists and maps of those. (Numbers can come back as another kind of
/// number, undefined comes back as none: those go through JSON.)
fn is_json_data(value: &TemplateValue) -> bool {
    match value.kind() {
        ValueKind::String => value.as_str().is_some(),
        ValueKind::Bool | ValueKind::None => true,
        ValueKind::Seq => {
            value.downcast_object_ref::<Vec<TemplateValue>>().is_some_and(|items| items.iter().all(is_json_data))
        }
        ValueKind::Map => data_map(value).is_some(),
        _ => false,
    }
}

/// A template value as JSON: `serde_json::to_value`, `null` when that fails.
fn json_of(value: &TemplateValue) -> Value {
    to_json(value).unwrap_or(Value::Null)
}

/// `serde_json::to_value(value)`, with the same result and errors, but
/// without serde's machinery for what filters are nearly always given:
/// strings, lists and maps with string keys. Anything else (numbers, bytes,
/// other keys) goes through serde as before.
fn to_json(value: &TemplateValue) -> Result<Value, serde_json::Error> {
    let object = value.as_object();
    Ok(match (value.kind(), value.as_str(), object) {
        (ValueKind::Undefined | ValueKind::None, _, _) => Value::Null,
        (ValueKind::Bool, _, _) => Value::Bool(value.is_true()),
        (ValueKind::String, Some(s), _) => Value::String(s.to_owned()),
        (ValueKind::Seq | ValueKind::Iterable, _, Some(object)) => {
            Value::Array(object.try_iter().into_iter().flatten().map(|item| to_json(&item)).collect::<Result<_, _>>()?)
        }
        (ValueKind::Map, _, Some(object)) => {
            let mut map = serde_json::Map::new();
            for (key, item) in object.try_iter_pairs().into_iter().flatten() {
                let Some(key) = key.as_str() else { return serde_json::to_value(value) };
                map.insert(key.to_owned(), to_json(&item)?);
            }
            Value::Object(map)
        }
        _ => serde_json::to_value(value)?,
    })
}
