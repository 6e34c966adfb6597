//! Model cards: `README.md` with optional YAML front matter.
//!
//! The front matter is what the Hub makes a record's `cardData` of, so it
//! is kept as the same JSON: [`crate::card_meta`] merges it into the
//! record's `cardData` (the front matter's fields win) and reads every
//! card field from there, whichever file it came from.
//!
//! Only the front matter's fields the site reads are taken ([`FIELDS`], see
//! [`crate::yaml_fields`]): any other key may hold anything, aliases and
//! all, and costs nothing. A field that expands too far through aliases,
//! or that the parser cannot build, is left out with a note, as a
//! descriptive field of the record of the wrong shape is; only front
//! matter that is not YAML fails the model.

use serde_json::{Map, Number, Value};
use serde_norway::Value as Yaml;

use crate::hub_fields::{bounded_reason, IgnoredField};
use crate::yaml_fields::{read_fields, Unread};

/// A model card split into its front matter and its Markdown body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelCard {
    /// The front matter's fields as JSON, as the Hub's `cardData` holds
    /// them; empty once [`crate::load`] has merged them into the record.
    pub front_matter: Map<String, Value>,
    /// The names of the front matter's fields, kept after the merge: a
    /// field of the wrong shape is noted against the file it came from.
    pub front_matter_fields: Vec<String>,
    pub body: String,
    /// Front-matter fields left out, with the reason, for the build's notes.
    pub ignored: Vec<IgnoredField>,
}

/// Front matter that cannot be read: it is not YAML.
#[derive(Debug, thiserror::Error)]
pub enum FrontMatterError {
    /// `line` and `column` count from the top of the card file (its first
    /// `---` is line 1), when the parser knows where it stopped.
    #[error("front matter is not valid YAML: {message}")]
    Invalid { message: String, line: Option<usize>, column: Option<usize> },
}

impl FrontMatterError {
    /// A YAML error with its place counted from the top of the card: the
    /// front matter starts on line 2, after the opening `---`.
    fn invalid(err: &serde_norway::Error) -> FrontMatterError {
        let location = err.location();
        // The parser's own text places things at ` at line L column C`,
        // counted from the front matter's start: the place is given
        // separately, counted from the top of the file.
        let message = without_places(&err.to_string());
        FrontMatterError::Invalid {
            message,
            line: location.as_ref().map(|l| l.line() + 1),
            column: location.as_ref().map(|l| l.column()),
        }
    }
}

/// `text` without its ` at line L column C` parts.
fn without_places(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(" at line ") {
        let after = &rest[at + " at line ".len()..];
        let line_digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let tail = after[line_digits..].strip_prefix(" column ").filter(|_| line_digits > 0);
        let Some(tail) = tail.filter(|t| t.starts_with(|c: char| c.is_ascii_digit())) else {
            out.push_str(&rest[..at + " at line ".len()]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..at]);
        rest = tail.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// How much larger than the front matter's text each field it shows may
/// become once built, aliases expanded (see [`crate::yaml_fields`]).
pub const EXPANSION_FACTOR: usize = 4;
/// The expansion allowed to any front matter, however short: a card may
/// repeat a value with aliases.
pub const MIN_EXPANSION_LIMIT: usize = 1 << 20;

/// The front-matter fields the site reads (through the merged `cardData`:
/// [`crate::card_meta`], the record's bases and evaluation results, the
/// examples' `instance_prompt`).
pub const FIELDS: [&str; 12] = [
    "license",
    "license_name",
    "license_link",
    "language",
    "datasets",
    "base_model",
    "base_model_relation",
    "tags",
    "model-index",
    "extra_gated_heading",
    "extra_gated_fields",
    "instance_prompt",
];

impl ModelCard {
    /// Splits `text` into front matter and body and reads the metadata.
    pub fn parse(text: &str) -> Result<ModelCard, FrontMatterError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Some((yaml, body)) = split_front_matter(text) else {
            return Ok(ModelCard { body: text.to_owned(), ..ModelCard::default() });
        };
        if yaml.trim().is_empty() {
            return Ok(ModelCard { body: body.to_owned(), ..ModelCard::default() });
        }
        let limit = yaml.len().saturating_mul(EXPANSION_FACTOR).max(MIN_EXPANSION_LIMIT);
        let read = read_fields(yaml, &FIELDS, limit).map_err(|e| FrontMatterError::invalid(&e))?;
        let mut ignored = Vec::new();
        for (value, field) in read.iter().zip(FIELDS) {
            let Some(Err(why)) = value else { continue };
            let why = match why {
                Unread::TooLarge => format!(
                    "expands to more than {limit} bytes through YAML aliases; at most {EXPANSION_FACTOR} times \
                     the front matter's size ({} MiB at least) is read",
                    MIN_EXPANSION_LIMIT >> 20
                ),
                Unread::Unbuildable(message) => bounded_reason(&without_places(message)),
            };
            ignored.push(IgnoredField { field, why });
        }
        let front_matter: Map<String, Value> =
            read.into_iter().zip(FIELDS).filter_map(|(value, name)| Some((name.to_owned(), json_of(&value?.ok()?)))).collect();
        let front_matter_fields = front_matter.keys().cloned().collect();
        Ok(ModelCard { front_matter, front_matter_fields, body: body.to_owned(), ignored })
    }
}

/// YAML as the JSON the Hub gives for it: keys that are numbers or booleans
/// become text and other keys are left out, tags are dropped, and numbers
/// JSON cannot hold (`.nan`, `.inf`) are null. The YAML's nesting was
/// bounded by its parser.
fn json_of(value: &Yaml) -> Value {
    match value {
        Yaml::Null => Value::Null,
        Yaml::Bool(b) => Value::Bool(*b),
        Yaml::Number(n) => {
            if let Some(i) = n.as_i64() {
                Value::from(i)
            } else if let Some(u) = n.as_u64() {
                Value::from(u)
            } else {
                n.as_f64().and_then(Number::from_f64).map_or(Value::Null, Value::Number)
            }
        }
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Sequence(items) => Value::Array(items.iter().map(json_of).collect()),
        Yaml::Mapping(map) => {
            let mut fields = Map::new();
            for (key, item) in map {
                let key = match key {
                    Yaml::String(s) => s.clone(),
                    Yaml::Number(n) => n.to_string(),
                    Yaml::Bool(b) => b.to_string(),
                    _ => continue,
                };
                fields.insert(key, json_of(item));
            }
            Value::Object(fields)
        }
        Yaml::Tagged(tagged) => json_of(&tagged.value),
    }
}

/// Returns `(front matter, body)` when `text` opens with a `---` fence that is
/// closed by another `---` line.
fn split_front_matter(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix("---")?;
    let rest = rest.strip_prefix("\r\n").or_else(|| rest.strip_prefix('\n'))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\r', '\n']) == "---" {
            return Some((&rest[..offset], &rest[offset + line.len()..]));
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_front_matter_as_json_and_keeps_body() {
        let card = ModelCard::parse(
            "---\nlicense: apache-2.0\nlanguage:\n- en\n- fr\ndatasets: [squad]\n\
             base_model: meta-llama/Llama-3.1-8B\ntags:\n- text\n- 7\nmodel-index:\n- name: x\n\
             extra_gated_fields:\n  1: one\n  true: yes\n  [a]: list key\n  odd: !custom 5\n  nan: .nan\n\
             unread: [1, 2]\n---\n# Title\n",
        )
        .unwrap();
        assert_eq!(
            Value::Object(card.front_matter.clone()),
            serde_json::json!({"license": "apache-2.0", "language": ["en", "fr"], "datasets": ["squad"],
                "base_model": "meta-llama/Llama-3.1-8B", "tags": ["text", 7], "model-index": [{"name": "x"}],
                "extra_gated_fields": {"1": "one", "true": "yes", "odd": 5, "nan": null}})
        );
        assert_eq!(card.front_matter_fields.len(), 7, "fields the site does not read are not kept");
        assert_eq!(card.body, "# Title\n");
        assert!(ModelCard::parse("---\n- a list\n---\nx").unwrap().front_matter.is_empty());
    }

    #[test]
    fn no_front_matter_means_whole_text_is_body() {
        for text in ["# Just markdown\n", "---\nnot closed\n", "--- \nx\n---\n", ""] {
            let card = ModelCard::parse(text).unwrap();
            assert!(card.front_matter.is_empty());
            assert_eq!(card.body, text);
        }
    }

    #[test]
    fn crlf_bom_and_empty_front_matter() {
        let card = ModelCard::parse("\u{feff}---\r\nlicense: mit\r\n---\r\nBody\r\n").unwrap();
        assert_eq!(card.front_matter["license"], "mit");
        assert_eq!(card.body, "Body\r\n");
        let empty = ModelCard::parse("---\n---\nBody").unwrap();
        assert!(empty.front_matter.is_empty());
        assert_eq!(empty.body, "Body");
    }

    /// Front matter whose anchor holds `anchor_bytes` and is aliased
    /// `aliases` times under `key`.
    fn aliased(key: &str, anchor_bytes: usize, aliases: usize) -> String {
        let mut text = format!("---\nbig: &big \"{}\"\nlicense: mit\n{key}: [", "x".repeat(anchor_bytes));
        text.push_str(&vec!["*big"; aliases].join(", "));
        text.push_str("]\n---\nbody\n");
        text
    }

    #[test]
    fn an_anchor_aliased_thousands_of_times_costs_nothing_under_a_key_not_shown() {
        // 100 KB replayed 2,000 times would be 200 MB of strings.
        let card = ModelCard::parse(&aliased("many", 100_000, 2_000)).unwrap();
        assert_eq!(card.front_matter["license"], "mit");
        assert!(card.ignored.is_empty(), "{:?}", card.ignored);
        assert_eq!(card.body, "body\n");
    }

    #[test]
    fn a_shown_field_aliased_past_the_limit_is_ignored_with_the_reason() {
        let card = ModelCard::parse(&aliased("tags", 100_000, 2_000)).unwrap();
        assert_eq!(card.front_matter["license"], "mit");
        assert!(!card.front_matter.contains_key("tags"));
        assert_eq!(card.ignored.len(), 1);
        assert_eq!(card.ignored[0].field, "tags");
        assert_eq!(
            card.ignored[0].why,
            "expands to more than 1048576 bytes through YAML aliases; at most 4 times the front matter's size \
             (1 MiB at least) is read"
        );
    }

    #[test]
    fn nested_aliases_are_measured_as_expanded() {
        // A billion laughs whose levels are too few for the parser's own
        // repetition limit: 10 KB, 10 x 10 x 10 times over, is 10 MB.
        let mut text = format!("---\na: &a \"{}\"\n", "x".repeat(10_000));
        for (level, prev) in ['b', 'c', 'd'].into_iter().zip(['a', 'b', 'c']) {
            text.push_str(&format!("{level}: &{level} [{}]\n", vec![format!("*{prev}"); 10].join(", ")));
        }
        let card = ModelCard::parse(&format!("{text}license: *d\ntags: [x]\n---\nbody\n")).unwrap();
        assert_eq!(card.ignored.iter().map(|f| f.field).collect::<Vec<_>>(), ["license"]);
        assert!(card.ignored[0].why.contains("through YAML aliases"), "{:?}", card.ignored);
        assert_eq!(card.front_matter["tags"], serde_json::json!(["x"]));
    }

    #[test]
    fn a_shown_field_too_deep_to_build_is_ignored_with_the_reason() {
        let card = ModelCard::parse(&format!("---\nlicense: {}{}\ntags: [x]\n---\nbody\n", "[".repeat(10_000), "]".repeat(10_000))).unwrap();
        assert_eq!(card.ignored.iter().map(|f| f.field).collect::<Vec<_>>(), ["license"]);
        assert!(card.ignored[0].why.starts_with("recursion limit exceeded"), "{:?}", card.ignored);
        assert!(!card.ignored[0].why.contains(" at line "), "{:?}", card.ignored);
        assert_eq!(card.front_matter["tags"], serde_json::json!(["x"]));
    }

    #[test]
    fn modest_aliases_are_read_and_the_limit_grows_with_the_text() {
        // A few aliases, as cards use them to repeat a value.
        let card = ModelCard::parse("---\nbase: &base meta-llama/Llama-3.1-8B\nbase_model: *base\ntags: [*base, x]\n---\n")
            .unwrap();
        assert_eq!(card.front_matter["base_model"], "meta-llama/Llama-3.1-8B");
        assert_eq!(card.front_matter["tags"], serde_json::json!(["meta-llama/Llama-3.1-8B", "x"]));
        // Aliases adding up to less than the front matter's own size.
        let card = ModelCard::parse(&aliased("tags", 1_000, 500)).unwrap();
        assert!(card.ignored.is_empty() && card.front_matter["tags"].as_array().unwrap().len() == 500);
        // The limit grows with the front matter: 2 MB of aliases are left
        // out of a short card and read in one with 1 MB of text of its own.
        assert_eq!(ModelCard::parse(&aliased("tags", 100_000, 20)).unwrap().ignored.len(), 1);
        let long = aliased("tags", 100_000, 20).replacen("license: mit", &format!("license: mit\nabout: {}", "y".repeat(1 << 20)), 1);
        let card = ModelCard::parse(&long).unwrap();
        assert!(card.ignored.is_empty() && card.front_matter["tags"].as_array().unwrap().len() == 20);
    }

    #[test]
    fn invalid_yaml_is_an_error() {
        let err = ModelCard::parse("---\nlicense: [unclosed\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("front matter is not valid YAML"), "{err}");
        // Line 3 of the file: the opening fence, then two lines of YAML.
        let err = ModelCard::parse("---\nlicense: mit\ntags: [a, b\n  c: d\n---\n").unwrap_err();
        let FrontMatterError::Invalid { line, column, message } = err;
        assert_eq!((line, column), (Some(4), Some(4)), "{message}");
        assert!(!message.contains(" at line "), "{message}");
        assert_eq!(without_places("x at line 2 column 1, while y at line 1 column 10"), "x, while y");
        assert_eq!(without_places("said at line one"), "said at line one");
    }
}
