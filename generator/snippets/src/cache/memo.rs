//! Examples made once and given to every model they fit, with its own id.
//!
//! Thousands of models share a task, a provider and a widget text, and their
//! hosted-inference examples of one kind then differ only where the model id
//! is written. An example whose template writes the values holding the id
//! only as text ([`crate::cache::id_text`] checks each template) is rendered once
//! with [`ID_MARKER`] in place of the id; every model whose other values are
//! exactly the same gets that text with its own id where the marker is.
//!
//! Why the text is right for every such model:
//! - The key holds every value the template can read, exactly (kind and
//!   content, order of maps), with the id replaced by the marker; equal keys
//!   mean equal contexts but for the id.
//! - The template writes an id-holding value only whole, raw or through
//!   `py`, `js`, `sh` or `comment`, which copy the characters of a plain id
//!   ([`is_plain_id`]) and of the marker as they are, so writing the marker
//!   and then putting the id in its place gives what writing the id gives.
//! - Every marker in the kept text stands for the id: when the text is made,
//!   it is checked against the example rendered with the real id.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

use memchr::memmem::Finder;

use minijinja::value::{ObjectRepr, ValueKind};
use minijinja::Value as TemplateValue;

/// What stands for the model id in a kept text: plain id characters (so the
/// filters copy it as they copy an id) that no template or model writes.
pub(crate) const ID_MARKER: &str = "Qz8mIdMarkerVw3j";

/// How many texts, and encoded parts of keys, are kept before all are
/// dropped and made again: a bound on memory (a text or a part is under a
/// few kilobytes, so some tens of megabytes at most) well above what the
/// examples of 10,000 synthetic models need (about 3,000 texts).
const KEPT_TEXTS: usize = 8_192;
const KEPT_PARTS: usize = 32_768;

/// Whether an id is written the same by every filter a template may apply
/// to it: letters, digits and `-_./`, as the record loader requires. (A
/// record made in code can hold any id; its examples are rendered as they
/// are.)
pub(crate) fn is_plain_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// Puts [`ID_MARKER`] in place of one model's id in the values that hold it.
pub(crate) struct IdMarker<'a> {
    id: &'a str,
    find_id: Finder<'a>,
}

static FIND_MARKER: LazyLock<Finder<'static>> = LazyLock::new(|| Finder::new(ID_MARKER));

impl<'a> IdMarker<'a> {
    /// None for an id that is not plain ([`is_plain_id`]).
    pub(crate) fn new(id: &'a str) -> Option<IdMarker<'a>> {
        is_plain_id(id).then(|| IdMarker { id, find_id: Finder::new(id) })
    }

    /// `value` with the marker for the id, if it is a string; none when the
    /// marker could not be told from the rest (the string holds it already).
    pub(crate) fn mark(&self, value: &TemplateValue) -> Option<TemplateValue> {
        let Some(text) = value.as_str() else { return Some(value.clone()) };
        if FIND_MARKER.find(text.as_bytes()).is_some() {
            return None;
        }
        let mut marked = String::new();
        let mut rest = 0;
        for at in self.find_id.find_iter(text.as_bytes()) {
            marked.push_str(&text[rest..at]);
            marked.push_str(ID_MARKER);
            rest = at + self.id.len();
        }
        if rest == 0 {
            return Some(value.clone());
        }
        marked.push_str(&text[rest..]);
        Some(TemplateValue::from(marked))
    }
}

/// The kept texts and the encoded parts of their keys.
#[derive(Default)]
pub(crate) struct RenderMemo {
    kept: RwLock<Kept>,
}

#[derive(Default)]
struct Kept {
    /// Bumped when everything is dropped, so that a key made before is
    /// never taken for one made after.
    generation: u32,
    /// Encoded values (those of one call, or of one provider) by number,
    /// so that the key of each example is short.
    parts: HashMap<Box<[u8]>, u32>,
    /// The text of each example, split where the id goes.
    texts: HashMap<RenderKey, Arc<[Box<str>]>>,
}

/// One encoded part of a key, as [`RenderMemo::part`] numbers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Part {
    generation: u32,
    number: u32,
}

/// What makes an example: its template (by number) and the parts that hold
/// every value the template can read, as one array, hashed in one go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct RenderKey([u32; 5]);

impl RenderKey {
    /// The key of the template numbered `template` with the values of `parts`.
    pub(crate) fn new(template: u32, [first, second]: [Part; 2]) -> RenderKey {
        RenderKey([template, first.generation, first.number, second.generation, second.number])
    }

    fn generations(&self) -> [u32; 2] {
        [self.0[1], self.0[3]]
    }
}

impl RenderMemo {
    /// The number of an encoded part (from [`Encoder`]).
    pub(crate) fn part(&self, encoded: Vec<u8>) -> Part {
        {
            let kept = self.kept.read().unwrap_or_else(|e| e.into_inner());
            if let Some(&number) = kept.parts.get(encoded.as_slice()) {
                return Part { generation: kept.generation, number };
            }
        }
        let mut kept = self.kept.write().unwrap_or_else(|e| e.into_inner());
        if kept.parts.len() >= KEPT_PARTS {
            kept.drop_all();
        }
        let number = kept.parts.len() as u32;
        let number = *kept.parts.entry(encoded.into_boxed_slice()).or_insert(number);
        Part { generation: kept.generation, number }
    }

    /// The example for `key` with `id` written in it, if one was kept.
    pub(crate) fn text(&self, key: &RenderKey, id: &str) -> Option<String> {
        let pieces = self.kept.read().unwrap_or_else(|e| e.into_inner()).texts.get(key).cloned()?;
        let length = pieces.iter().map(|p| p.len()).sum::<usize>() + id.len() * (pieces.len() - 1);
        let mut text = String::with_capacity(length);
        for (i, piece) in pieces.iter().enumerate() {
            if i > 0 {
                text.push_str(id);
            }
            text.push_str(piece);
        }
        Some(text)
    }

    /// Keeps `marked_text`, an example rendered with the marker for the id.
    pub(crate) fn keep(&self, key: RenderKey, marked_text: &str) {
        let pieces: Arc<[Box<str>]> = marked_text.split(ID_MARKER).map(Box::from).collect();
        let mut kept = self.kept.write().unwrap_or_else(|e| e.into_inner());
        if key.generations().iter().any(|&generation| generation != kept.generation) {
            return;
        }
        if kept.texts.len() >= KEPT_TEXTS {
            kept.drop_all();
            return;
        }
        kept.texts.insert(key, pieces);
    }
}

#[cfg(test)]
impl RenderMemo {
    /// How many texts are kept.
    pub(crate) fn kept_texts(&self) -> usize {
        self.kept.read().unwrap().texts.len()
    }
}

impl Kept {
    fn drop_all(&mut self) {
        self.parts.clear();
        self.texts.clear();
        self.generation = self.generation.wrapping_add(1);
    }
}

/// Writes template values as bytes that are equal only for equal values:
/// each value's kind, then its content (strings by length, lists and maps
/// item by item in their order, closed by an end mark).
#[derive(Default)]
pub(crate) struct Encoder {
    bytes: Vec<u8>,
    /// Where the data of constants lies: values that live as long as the
    /// program and never change, written by their number instead.
    constants: Vec<usize>,
}

/// The address of a list's or map's data, for the types data is held in
/// (what a template value made from data is); none for anything else.
pub(crate) fn data_address(value: &TemplateValue) -> Option<usize> {
    if let Some(list) = value.downcast_object_ref::<Vec<TemplateValue>>() {
        return Some(list as *const Vec<TemplateValue> as usize);
    }
    let map = value.downcast_object_ref::<indexmap::IndexMap<TemplateValue, TemplateValue>>()?;
    Some(map as *const indexmap::IndexMap<TemplateValue, TemplateValue> as usize)
}

impl Encoder {
    /// An encoder that writes each of `constants` (lists or maps of data
    /// that live as long as the program) as its number.
    pub(crate) fn with_constants(constants: &[&'static TemplateValue]) -> Encoder {
        let constants = constants.iter().filter_map(|constant| data_address(constant)).collect();
        Encoder { bytes: Vec::with_capacity(1024), constants }
    }

    /// Adds `value`; false for a value that is not plain data (an object
    /// with behaviour of its own), which cannot be compared this way.
    pub(crate) fn add(&mut self, value: &TemplateValue) -> bool {
        if let Some(number) = data_address(value).and_then(|at| self.constants.iter().position(|&c| c == at)) {
            self.bytes.push(b'c');
            self.bytes.push(number as u8);
            return true;
        }
        match value.kind() {
            ValueKind::Undefined => self.bytes.push(b'u'),
            ValueKind::None => self.bytes.push(b'n'),
            ValueKind::Bool => self.bytes.push(if value.is_true() { b't' } else { b'f' }),
            ValueKind::Number => {
                self.bytes.push(if value.is_integer() { b'i' } else { b'd' });
                self.add_text(&value.to_string());
            }
            ValueKind::String => {
                let Some(text) = value.as_str() else { return false };
                self.bytes.push(if value.is_safe() { b'S' } else { b's' });
                self.add_text(text);
            }
            ValueKind::Seq => {
                if let Some(items) = value.downcast_object_ref::<Vec<TemplateValue>>() {
                    self.bytes.push(b'l');
                    if !items.iter().all(|item| self.add(item)) {
                        return false;
                    }
                } else {
                    let Some(object) = value.as_object().filter(|o| o.repr() == ObjectRepr::Seq) else { return false };
                    let Some(mut items) = object.try_iter() else { return false };
                    self.bytes.push(b'l');
                    if !items.all(|item| self.add(&item)) {
                        return false;
                    }
                }
                self.bytes.push(b'e');
            }
            ValueKind::Map => {
                if let Some(entries) = value.downcast_object_ref::<indexmap::IndexMap<TemplateValue, TemplateValue>>() {
                    self.bytes.push(b'm');
                    if !entries.iter().all(|(k, v)| self.add(k) && self.add(v)) {
                        return false;
                    }
                } else {
                    let Some(object) = value.as_object().filter(|o| o.repr() == ObjectRepr::Map) else { return false };
                    let Some(mut entries) = object.try_iter_pairs() else { return false };
                    self.bytes.push(b'm');
                    if !entries.all(|(k, v)| self.add(&k) && self.add(&v)) {
                        return false;
                    }
                }
                self.bytes.push(b'e');
            }
            _ => return false,
        }
        true
    }

    fn add_text(&mut self, text: &str) {
        self.bytes.extend_from_slice(&(text.len() as u64).to_le_bytes());
        self.bytes.extend_from_slice(text.as_bytes());
    }

    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encoded(value: TemplateValue) -> Option<Vec<u8>> {
        let mut encoder = Encoder::default();
        encoder.add(&value).then(|| encoder.into_bytes())
    }

    #[test]
    fn encodings_tell_values_apart() {
        let values = [
            TemplateValue::UNDEFINED,
            TemplateValue::from(()),
            TemplateValue::from(true),
            TemplateValue::from(false),
            TemplateValue::from(1),
            TemplateValue::from(1.0),
            TemplateValue::from("1"),
            TemplateValue::from_safe_string("1".into()),
            TemplateValue::from(""),
            TemplateValue::from(vec![TemplateValue::from("a"), TemplateValue::from("b")]),
            TemplateValue::from(vec![TemplateValue::from("ab")]),
            TemplateValue::from(vec![TemplateValue::from(vec![TemplateValue::from("a")]), TemplateValue::from("b")]),
            TemplateValue::from_serialize(serde_json::json!({"a": "b", "c": "d"})),
            TemplateValue::from_serialize(serde_json::json!({"c": "d", "a": "b"})),
            TemplateValue::from_serialize(serde_json::json!({"a": ["b"]})),
        ];
        let encodings: Vec<Vec<u8>> = values.iter().map(|v| encoded(v.clone()).expect("plain data")).collect();
        for (i, a) in encodings.iter().enumerate() {
            for (j, b) in encodings.iter().enumerate() {
                assert_eq!(a == b, i == j, "{:?} and {:?}", values[i], values[j]);
            }
        }
        let data = || TemplateValue::from_serialize(serde_json::json!({"a": [1, "x"]}));
        assert_eq!(encoded(data()), encoded(data()));
    }

    #[test]
    fn constants_are_written_by_number() {
        static CONSTANT: std::sync::OnceLock<TemplateValue> = std::sync::OnceLock::new();
        let constant = CONSTANT.get_or_init(|| TemplateValue::from_serialize(serde_json::json!({"a": ["b"]})));
        let copy = TemplateValue::from_serialize(serde_json::json!({"a": ["b"]}));
        let encode = |value: &TemplateValue| {
            let mut encoder = Encoder::with_constants(&[constant]);
            assert!(encoder.add(value));
            encoder.into_bytes()
        };
        assert_eq!(encode(constant), encode(&constant.clone()));
        assert_ne!(encode(constant), encode(&copy));
        assert_eq!(encode(&copy), encoded(copy.clone()).unwrap());
    }

    #[test]
    fn objects_with_behaviour_are_not_encoded() {
        assert_eq!(encoded(TemplateValue::from_function(|| "x")), None);
    }

    #[test]
    fn kept_texts_get_each_id() {
        let memo = RenderMemo::default();
        let part = memo.part(b"values".to_vec());
        assert_eq!(memo.part(b"values".to_vec()), part);
        assert_ne!(memo.part(b"other values".to_vec()), part);
        let key = RenderKey::new(7, [part, part]);
        assert_eq!(memo.text(&key, "org/a"), None);
        memo.keep(key, &format!("model: \"{ID_MARKER}\"\nurl: \"https://h/{ID_MARKER}/x\""));
        assert_eq!(memo.text(&key, "org/a").unwrap(), "model: \"org/a\"\nurl: \"https://h/org/a/x\"");
        assert_eq!(memo.text(&key, "b/c-1.5").unwrap(), "model: \"b/c-1.5\"\nurl: \"https://h/b/c-1.5/x\"");
    }

    #[test]
    fn plain_ids_and_markers() {
        assert!(is_plain_id("org/Model-1.5_x") && is_plain_id(ID_MARKER));
        assert!(!is_plain_id("org/a'b") && !is_plain_id("org/a b") && !is_plain_id("org/é") && !is_plain_id(""));
        assert!(IdMarker::new("org/a b").is_none());
        let marker = IdMarker::new("org/a").unwrap();
        let mark = |text: &str| marker.mark(&TemplateValue::from(text)).map(|v| v.as_str().unwrap().to_owned());
        assert_eq!(mark("https://r/models/org/a/pipeline").unwrap(), format!("https://r/models/{ID_MARKER}/pipeline"));
        assert_eq!(mark("org/a:org/ab").unwrap(), format!("{ID_MARKER}:{ID_MARKER}b"));
        assert_eq!(mark("https://r/v1").unwrap(), "https://r/v1");
        assert_eq!(mark(&format!("x{ID_MARKER}")), None);
        assert_eq!(marker.mark(&TemplateValue::from(true)), Some(TemplateValue::from(true)));
    }
}
