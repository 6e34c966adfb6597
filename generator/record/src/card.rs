//! Model cards: `README.md` with optional YAML front matter.
//!
//! The front matter is what the Hub makes a record's `cardData` of, so it
//! is kept as the same JSON: [`crate::card_meta`] merges it into the
//! record's `cardData` (the front matter's fields win) and reads every
//! card field from there, whichever file it came from.

use serde_json::{Map, Number, Value};
use serde_norway::Value as Yaml;

use crate::yaml_size::{expanded_size, SizeError};

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
}

/// Front matter that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FrontMatterError {
    /// `line` and `column` count from the top of the card file (its first
    /// `---` is line 1), when the parser knows where it stopped.
    #[error("front matter is not valid YAML: {message}")]
    Invalid { message: String, line: Option<usize>, column: Option<usize> },
    /// Its aliases expand it past the limit: a few kilobytes of YAML can
    /// stand for gigabytes (see [`crate::yaml_size`]).
    #[error(
        "front matter expands to more than {limit} bytes through YAML aliases; at most {EXPANSION_FACTOR} times \
         its own size ({} MiB at least) is read",
        MIN_EXPANSION_LIMIT >> 20
    )]
    TooLarge { limit: usize },
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

/// How much larger than its text front matter may become once its aliases
/// are expanded. Without aliases it is at most about 1.5 times (see
/// [`expanded_size`]), so only aliases can reach this.
pub const EXPANSION_FACTOR: usize = 4;
/// The expansion allowed to any front matter, however short: a card may
/// repeat a value with aliases.
pub const MIN_EXPANSION_LIMIT: usize = 1 << 20;

impl ModelCard {
    /// Splits `text` into front matter and body and reads the metadata.
    pub fn parse(text: &str) -> Result<ModelCard, FrontMatterError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Some((yaml, body)) = split_front_matter(text) else {
            return Ok(ModelCard { body: text.to_owned(), ..ModelCard::default() });
        };
        let value: Yaml = if yaml.trim().is_empty() {
            Yaml::Null
        } else {
            // Measured first, so that what is built is bounded by the text.
            let limit = yaml.len().saturating_mul(EXPANSION_FACTOR).max(MIN_EXPANSION_LIMIT);
            match expanded_size(yaml, limit) {
                Ok(_) => {}
                Err(SizeError::TooLarge) => return Err(FrontMatterError::TooLarge { limit }),
                Err(SizeError::Invalid(e)) => return Err(FrontMatterError::invalid(&e)),
            }
            serde_norway::from_str(yaml).map_err(|e| FrontMatterError::invalid(&e))?
        };
        let front_matter = match json_of(&value) {
            Value::Object(fields) => fields,
            // A scalar or a list is no metadata.
            _ => Map::new(),
        };
        let front_matter_fields = front_matter.keys().cloned().collect();
        Ok(ModelCard { front_matter, front_matter_fields, body: body.to_owned() })
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
             1: one\ntrue: yes\n[a]: list key\nodd: !custom 5\nnan: .nan\n---\n# Title\n",
        )
        .unwrap();
        assert_eq!(
            Value::Object(card.front_matter.clone()),
            serde_json::json!({"license": "apache-2.0", "language": ["en", "fr"], "datasets": ["squad"],
                "base_model": "meta-llama/Llama-3.1-8B", "tags": ["text", 7], "model-index": [{"name": "x"}],
                "1": "one", "true": "yes", "odd": 5, "nan": null})
        );
        assert_eq!(card.front_matter_fields.len(), 10);
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

    /// Front matter whose anchor holds `anchor_bytes` and is aliased `aliases` times.
    fn aliased(anchor_bytes: usize, aliases: usize) -> String {
        let mut text = format!("---\nbig: &big \"{}\"\nlicense: mit\nmany: [", "x".repeat(anchor_bytes));
        text.push_str(&vec!["*big"; aliases].join(", "));
        text.push_str("]\n---\nbody\n");
        text
    }

    #[test]
    fn an_anchor_aliased_thousands_of_times_is_refused() {
        // 100 KB replayed 2,000 times would be 200 MB of strings.
        let err = ModelCard::parse(&aliased(100_000, 2_000)).unwrap_err().to_string();
        assert_eq!(
            err,
            "front matter expands to more than 1048576 bytes through YAML aliases; at most 4 times its own size \
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
        text.push_str("license: mit\n---\nbody\n");
        let err = ModelCard::parse(&text).unwrap_err().to_string();
        assert!(err.contains("through YAML aliases"), "{err}");
    }

    #[test]
    fn modest_aliases_are_read_and_the_limit_grows_with_the_text() {
        // A few aliases, as cards use them to repeat a value.
        let card = ModelCard::parse("---\nbase: &base meta-llama/Llama-3.1-8B\nbase_model: *base\ntags: [*base, x]\n---\n")
            .unwrap();
        assert_eq!(card.front_matter["base_model"], "meta-llama/Llama-3.1-8B");
        assert_eq!(card.front_matter["tags"], serde_json::json!(["meta-llama/Llama-3.1-8B", "x"]));
        // Aliases adding up to less than the front matter's own size.
        assert_eq!(ModelCard::parse(&aliased(1_000, 500)).unwrap().front_matter["license"], "mit");
        // The limit grows with the front matter: 2 MB of aliases are refused
        // in a short card and read in one with 1 MB of text of its own.
        assert!(ModelCard::parse(&aliased(100_000, 20)).is_err());
        let long = aliased(100_000, 20).replacen("license: mit", &format!("license: mit\nabout: {}", "y".repeat(1 << 20)), 1);
        assert_eq!(ModelCard::parse(&long).unwrap().front_matter["license"], "mit");
    }

    #[test]
    fn invalid_yaml_is_an_error() {
        let err = ModelCard::parse("---\nlicense: [unclosed\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("front matter is not valid YAML"), "{err}");
        // Line 3 of the file: the opening fence, then two lines of YAML.
        let err = ModelCard::parse("---\nlicense: mit\ntags: [a, b\n  c: d\n---\n").unwrap_err();
        let FrontMatterError::Invalid { line, column, message } = err else { panic!("{err}") };
        assert_eq!((line, column), (Some(4), Some(4)), "{message}");
        assert!(!message.contains(" at line "), "{message}");
        assert_eq!(without_places("x at line 2 column 1, while y at line 1 column 10"), "x, while y");
        assert_eq!(without_places("said at line one"), "said at line one");
    }
}
