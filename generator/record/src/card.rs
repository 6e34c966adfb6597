//! Model cards: `README.md` with optional YAML front matter.

use serde_norway::Value as Yaml;

/// A model card split into its metadata and its Markdown body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelCard {
    pub meta: CardMeta,
    pub body: String,
}

/// The front-matter fields a model page shows. Each may be a single value or a
/// list in the card, so each is kept as a list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardMeta {
    pub license: Vec<String>,
    pub language: Vec<String>,
    pub datasets: Vec<String>,
    pub base_model: Vec<String>,
    pub tags: Vec<String>,
}

impl CardMeta {
    pub fn is_empty(&self) -> bool {
        self.license.is_empty()
            && self.language.is_empty()
            && self.datasets.is_empty()
            && self.base_model.is_empty()
            && self.tags.is_empty()
    }
}

/// Front matter that is not valid YAML.
#[derive(Debug, thiserror::Error)]
#[error("front matter is not valid YAML: {0}")]
pub struct FrontMatterError(String);

impl ModelCard {
    /// Splits `text` into front matter and body and reads the metadata.
    pub fn parse(text: &str) -> Result<ModelCard, FrontMatterError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let Some((yaml, body)) = split_front_matter(text) else {
            return Ok(ModelCard { meta: CardMeta::default(), body: text.to_owned() });
        };
        let value: Yaml = if yaml.trim().is_empty() {
            Yaml::Null
        } else {
            serde_norway::from_str(yaml).map_err(|e| FrontMatterError(e.to_string()))?
        };
        let field = |name: &str| strings_of(value.get(name));
        let meta = CardMeta {
            license: field("license"),
            language: field("language"),
            datasets: field("datasets"),
            base_model: field("base_model"),
            tags: field("tags"),
        };
        Ok(ModelCard { meta, body: body.to_owned() })
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

/// A metadata field as a list of strings: a scalar becomes one item; lists keep
/// their scalar items. Nested maps are not metadata a page can show, so they
/// are left out rather than failing the card.
fn strings_of(value: Option<&Yaml>) -> Vec<String> {
    match value {
        None | Some(Yaml::Null) => Vec::new(),
        Some(Yaml::Sequence(items)) => items.iter().filter_map(scalar).collect(),
        Some(other) => scalar(other).into_iter().collect(),
    }
}

fn scalar(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Number(n) => Some(n.to_string()),
        Yaml::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_front_matter_and_keeps_body() {
        let card = ModelCard::parse(
            "---\nlicense: apache-2.0\nlanguage:\n- en\n- fr\ndatasets: [squad]\n\
             base_model: meta-llama/Llama-3.1-8B\ntags:\n- text\n- 7\nmodel-index:\n- name: x\n---\n# Title\n",
        )
        .unwrap();
        assert_eq!(card.meta.license, ["apache-2.0"]);
        assert_eq!(card.meta.language, ["en", "fr"]);
        assert_eq!(card.meta.datasets, ["squad"]);
        assert_eq!(card.meta.base_model, ["meta-llama/Llama-3.1-8B"]);
        assert_eq!(card.meta.tags, ["text", "7"]);
        assert_eq!(card.body, "# Title\n");
    }

    #[test]
    fn no_front_matter_means_whole_text_is_body() {
        for text in ["# Just markdown\n", "---\nnot closed\n", "--- \nx\n---\n", ""] {
            let card = ModelCard::parse(text).unwrap();
            assert!(card.meta.is_empty());
            assert_eq!(card.body, text);
        }
    }

    #[test]
    fn crlf_bom_and_empty_front_matter() {
        let card = ModelCard::parse("\u{feff}---\r\nlicense: mit\r\n---\r\nBody\r\n").unwrap();
        assert_eq!(card.meta.license, ["mit"]);
        assert_eq!(card.body, "Body\r\n");
        let empty = ModelCard::parse("---\n---\nBody").unwrap();
        assert!(empty.meta.is_empty());
        assert_eq!(empty.body, "Body");
    }

    #[test]
    fn invalid_yaml_is_an_error() {
        let err = ModelCard::parse("---\nlicense: [unclosed\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("front matter is not valid YAML"), "{err}");
    }
}
