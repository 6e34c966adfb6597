//! The card's metadata, wherever it was written: the front matter of the
//! model's `README.md` or the record's `cardData` (the Hub's copy of the
//! front matter, which a record saved from the Hub API carries even without
//! its card).
//!
//! There is one path for both: [`merge_front_matter`] puts the front
//! matter's fields into the record's `cardData`, a field of the front matter
//! replacing the record's (the card on disk is newer than the record made
//! from it), and every card field is read from the merged `cardData` alone:
//! [`CardMeta`] here, and `base_model` and `model-index` by the record
//! ([`crate::ModelRecord::base_models`], [`crate::ModelRecord::evaluation_results`]).

use serde_json::{Map, Value};

/// The card fields a model page shows. Each of the list fields may be one
/// value or a list in the card, so each is kept as a list; items that are
/// not text, numbers or booleans are left out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CardMeta {
    pub license: Vec<String>,
    /// `license_name`: the licence a `license: other` card is under.
    pub license_name: Option<String>,
    /// `license_link`: where that licence is, a URL or a file of the model.
    pub license_link: Option<String>,
    pub language: Vec<String>,
    pub datasets: Vec<String>,
    pub tags: Vec<String>,
    /// What the access request of a gated model asks (`extra_gated_*`).
    pub access_request: AccessRequest,
}

/// The access request form of a gated model, as its card customises it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AccessRequest {
    /// `extra_gated_heading`: the form's title.
    pub heading: Option<String>,
    /// The names of `extra_gated_fields` the visitor fills in (checkboxes,
    /// which are statements to accept rather than facts to give, and
    /// `ip_location`, which the Hub fills in itself, left out).
    pub fields: Vec<String>,
}

/// Most fields of an access request form listed: real forms have a handful.
const MAX_REQUEST_FIELDS: usize = 16;

impl CardMeta {
    /// The metadata of `card_data`, the record's `cardData` once merged.
    pub fn of(card_data: Option<&Value>) -> CardMeta {
        let field = |name: &str| card_data.and_then(|data| data.get(name));
        let text = |name: &str| strings_of(field(name)).into_iter().next().filter(|s| !s.is_empty());
        CardMeta {
            license: strings_of(field("license")),
            license_name: text("license_name"),
            license_link: text("license_link"),
            language: strings_of(field("language")),
            datasets: strings_of(field("datasets")),
            tags: strings_of(field("tags")),
            access_request: AccessRequest {
                heading: text("extra_gated_heading"),
                fields: match field("extra_gated_fields") {
                    Some(Value::Object(fields)) => fields
                        .iter()
                        .filter(|(_, kind)| is_asked(kind))
                        .map(|(name, _)| name.clone())
                        .take(MAX_REQUEST_FIELDS)
                        .collect(),
                    _ => Vec::new(),
                },
            },
        }
    }
}

/// Whether a field of the form, of type `kind` (a name, or an object with
/// a `type`), asks the visitor for something: not a box to tick, not the
/// location the Hub finds itself.
fn is_asked(kind: &Value) -> bool {
    let kind = match kind {
        Value::String(kind) => Some(kind.as_str()),
        Value::Object(spec) => spec.get("type").and_then(Value::as_str),
        _ => None,
    };
    !matches!(kind, Some("checkbox" | "ip_location"))
}

/// Merges a card's front matter into the record's `cardData`: each field
/// of the front matter replaces the record's, except a `null` one (a key
/// written without a value), which says nothing. A `cardData` that is not
/// an object is replaced when the front matter has fields.
pub fn merge_front_matter(card_data: &mut Option<Value>, front_matter: Map<String, Value>) {
    let mut fields = front_matter.into_iter().filter(|(_, value)| !value.is_null()).peekable();
    if fields.peek().is_none() {
        return;
    }
    if !matches!(card_data, Some(Value::Object(_))) {
        *card_data = Some(Value::Object(Map::new()));
    }
    let Some(Value::Object(data)) = card_data else { unreachable!("made an object above") };
    data.extend(fields);
}

/// A field as a list of strings: a scalar becomes one item; lists keep their
/// scalar items. Nested objects are not metadata a page can show, so they
/// are left out rather than failing the card.
fn strings_of(value: Option<&Value>) -> Vec<String> {
    match value {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.iter().filter_map(scalar_text).collect(),
        Some(other) => scalar_text(other).into_iter().collect(),
    }
}

/// A JSON text, number or boolean as text; `None` for anything else.
pub fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn merged(card_data: Option<Value>, front_matter: Value) -> Option<Value> {
        let mut data = card_data;
        let Value::Object(front_matter) = front_matter else { panic!("an object") };
        merge_front_matter(&mut data, front_matter);
        data
    }

    #[test]
    fn the_front_matter_wins_field_by_field() {
        let record = json!({"license": "mit", "language": ["en"], "base_model": "old/name", "widget": [{"text": "hi"}]});
        let data = merged(Some(record.clone()), json!({"license": "apache-2.0", "base_model": "new/name", "language": null}));
        assert_eq!(
            data,
            Some(json!({"license": "apache-2.0", "language": ["en"], "base_model": "new/name", "widget": [{"text": "hi"}]}))
        );
        assert_eq!(merged(Some(record.clone()), json!({})), Some(record.clone()), "no front matter: the record's as it is");
        assert_eq!(merged(None, json!({"tags": ["a"]})), Some(json!({"tags": ["a"]})));
        assert_eq!(merged(Some(json!("odd")), json!({"tags": ["a"]})), Some(json!({"tags": ["a"]})));
        assert_eq!(merged(Some(json!("odd")), json!({"tags": null})), Some(json!("odd")));
    }

    #[test]
    fn reads_every_field_from_card_data() {
        let data = json!({
            "license": "other", "license_name": "flux-1-dev-non-commercial-license", "license_link": "LICENSE.md",
            "language": ["en", "fr", 7, {"x": 1}], "datasets": "squad", "tags": ["a", true],
            "extra_gated_heading": "Access the model",
            "extra_gated_fields": {"First Name": "text", "Country": "country", "I accept the terms": "checkbox",
                "Affiliation": {"type": "text"}, "Consent": {"type": "checkbox"}, "geo": "ip_location"},
        });
        let meta = CardMeta::of(Some(&data));
        assert_eq!(meta.license, ["other"]);
        assert_eq!(meta.license_name.as_deref(), Some("flux-1-dev-non-commercial-license"));
        assert_eq!(meta.license_link.as_deref(), Some("LICENSE.md"));
        assert_eq!(meta.language, ["en", "fr", "7"]);
        assert_eq!(meta.datasets, ["squad"]);
        assert_eq!(meta.tags, ["a", "true"]);
        assert_eq!(meta.access_request.heading.as_deref(), Some("Access the model"));
        assert_eq!(meta.access_request.fields, ["First Name", "Country", "Affiliation"], "in the card's order");
        assert_eq!(CardMeta::of(None), CardMeta::default());
        assert_eq!(CardMeta::of(Some(&json!(["not", "an", "object"]))), CardMeta::default());
        assert_eq!(CardMeta::of(Some(&json!({"license_name": ""}))).license_name, None);
    }
}
