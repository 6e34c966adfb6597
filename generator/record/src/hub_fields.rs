//! Fields of a Hub API record that describe the model rather than tell the
//! generators how to use it: parameter counts (`safetensors`), what the Hub
//! read from a GGUF repository's file headers (`gguf`), gated access
//! (`gated`), evaluation results (`model-index`), `createdAt`, `usedStorage`,
//! the Spaces that use the model (`spaces`) and the base models its card
//! names (`cardData.base_model`).
//!
//! Records saved from the Hub carry these fields, and pages show them, but a
//! model is still worth a page when one of them is odd. So each is parsed
//! with [`Lenient`]: missing or `null` is simply missing, a value of the
//! wrong shape is left out and remembered with the reason, and the build
//! turns the reason into a note ("`gated` ignored: ..."). A record never
//! fails for one of these fields, unlike the fields the generators read,
//! whose wrong types are errors naming line and column.

use std::collections::BTreeMap;

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::shown::printable;

/// How much of a parser's complaint a note keeps: enough to say what was
/// found, never a record's long value copied into the build log.
const MAX_WHY_CHARS: usize = 160;

/// A record field parsed tolerantly: present and well-formed, missing, or
/// present but ignored (with the reason).
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Lenient<T> {
    /// Absent or `null`.
    #[default]
    Missing,
    Parsed(T),
    /// Present but not of the shape the Hub gives it; the reason, printable
    /// and bounded, for the build's notes.
    Ignored(String),
}

impl<T> Lenient<T> {
    /// The value, when it was present and well-formed.
    pub fn get(&self) -> Option<&T> {
        match self {
            Lenient::Parsed(value) => Some(value),
            _ => None,
        }
    }

    /// Why the value was left out, when it was.
    pub fn ignored(&self) -> Option<&str> {
        match self {
            Lenient::Ignored(why) => Some(why),
            _ => None,
        }
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Lenient<T> {
    /// Never fails on the value's shape: the field is read as any JSON
    /// first (only bad JSON syntax, which fails the whole record anyway, is
    /// an error), then as `T`.
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(de)?;
        if value.is_null() {
            return Ok(Lenient::Missing);
        }
        Ok(match T::deserialize(&value) {
            Ok(parsed) => Lenient::Parsed(parsed),
            Err(err) => Lenient::Ignored(bounded_reason(&err.to_string())),
        })
    }
}

/// A parser's complaint as a note may show it: control and bidi characters
/// escaped, at most [`MAX_WHY_CHARS`] characters.
pub(crate) fn bounded_reason(message: &str) -> String {
    let mut why: String = message.chars().take(MAX_WHY_CHARS).collect();
    if why.len() < message.len() {
        why.push_str("...");
    }
    printable(&why)
}

/// A field left out of a record, for the build's notes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IgnoredField {
    /// The field as the record spells it (`gated`, `cardData.base_model`).
    pub field: &'static str,
    pub why: String,
}

/// `safetensors`: the model's parameter count per tensor type and in total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Safetensors {
    /// Parameters per tensor type (`BF16`, `F32`, `I8`, ...).
    pub parameters: BTreeMap<String, u64>,
    /// The Hub's total, or the sum of `parameters` when the record has none.
    pub total: u64,
}

impl<'de> Deserialize<'de> for Safetensors {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            #[serde(default)]
            parameters: BTreeMap<String, u64>,
            #[serde(default)]
            total: Option<u64>,
        }
        let raw = Raw::deserialize(de)?;
        let total = raw.total.unwrap_or_else(|| raw.parameters.values().fold(0u64, |sum, n| sum.saturating_add(*n)));
        Ok(Safetensors { parameters: raw.parameters, total })
    }
}

/// `gguf`: what the Hub read from the headers of a GGUF repository's files.
/// Its other keys (`chat_template`, `bos_token`, ...) are kept as given in `other`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct GgufSummary {
    /// Parameters of the model, over every tensor.
    #[serde(default)]
    pub total: Option<u64>,
    /// `general.architecture` (`llama`, `gemma3`).
    #[serde(default)]
    pub architecture: Option<String>,
    /// The context length the header names, in tokens.
    #[serde(default)]
    pub context_length: Option<u64>,
    /// Every other key as the Hub gives it: the chat prompt reads the
    /// header's `chat_template`, `bos_token` and `eos_token` from here, in
    /// whichever shape tokenizer configs use.
    #[serde(flatten)]
    pub other: serde_json::Map<String, serde_json::Value>,
}

/// `gated`: whether visitors must ask for access, and how it is granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gated {
    /// `false`: anyone can download the files.
    Open,
    /// `"auto"`: access is granted as soon as it is asked for.
    Auto,
    /// `"manual"`: the authors review each request.
    Manual,
}

impl<'de> Deserialize<'de> for Gated {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        match Value::deserialize(de)? {
            Value::Bool(false) => Ok(Gated::Open),
            Value::String(s) if s == "auto" => Ok(Gated::Auto),
            Value::String(s) if s == "manual" => Ok(Gated::Manual),
            other => Err(D::Error::custom(format!("expected false, \"auto\" or \"manual\", found {}", kind_of(&other)))),
        }
    }
}

impl Serialize for Gated {
    /// As the Hub writes it: `false`, `"auto"` or `"manual"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Gated::Open => serializer.serialize_bool(false),
            Gated::Auto => serializer.serialize_str("auto"),
            Gated::Manual => serializer.serialize_str("manual"),
        }
    }
}

/// What kind of JSON value `value` is, for a reason that names no content.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(true) => "true",
        Value::Bool(false) => "false",
        Value::Number(_) => "a number",
        Value::String(_) => "another string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// One model of `model-index` (the card metadata's evaluation results):
/// usually one, named after the model.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct ModelIndexEntry {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub results: Vec<EvalResult>,
}

/// One evaluation: a task, a dataset and the metrics measured on it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct EvalResult {
    #[serde(default)]
    pub task: Option<EvalTask>,
    #[serde(default)]
    pub dataset: Option<EvalDataset>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub metrics: Vec<Metric>,
    /// Where the figures come from (a leaderboard), when not the authors.
    #[serde(default)]
    pub source: Option<EvalSource>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct EvalTask {
    /// The task's key (`text-generation`).
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct EvalDataset {
    #[serde(default)]
    pub name: Option<String>,
    /// The dataset's id on the Hub (`ai2_arc`, `cais/mmlu`).
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub config: Option<String>,
    #[serde(default)]
    pub split: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
pub struct Metric {
    /// The metric's key (`acc_norm`, `f1`).
    #[serde(rename = "type", default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub value: Option<MetricValue>,
    #[serde(default)]
    pub name: Option<String>,
    /// Whether the Hub verified the figure itself.
    #[serde(default)]
    pub verified: Option<bool>,
}

/// A metric's value: cards write numbers, and sometimes text ("71.3 ± 0.4").
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum MetricValue {
    Number(f64),
    Text(String),
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct EvalSource {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

/// Reads `null` as the default value (an empty list), as the Hub API writes
/// missing values.
pub(crate) fn null_as_default<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(de)?.unwrap_or_default())
}

/// `cardData.base_model`: the models this one was made from. The card
/// writes one id or a list of them; anything else is left out with a note.
pub(crate) fn base_models(card_data: Option<&Value>) -> Lenient<Vec<&str>> {
    match card_data.and_then(|data| data.get("base_model")) {
        None | Some(Value::Null) => Lenient::Missing,
        Some(Value::String(id)) if id.is_empty() => Lenient::Missing,
        Some(Value::String(id)) => Lenient::Parsed(vec![id.as_str()]),
        Some(Value::Array(items)) => match items.iter().map(Value::as_str).collect::<Option<Vec<&str>>>() {
            Some(ids) => Lenient::Parsed(ids.into_iter().filter(|id| !id.is_empty()).collect()),
            None => Lenient::Ignored("expected a model id or a list of model ids, found a list holding something else".into()),
        },
        Some(other) => Lenient::Ignored(format!("expected a model id or a list of model ids, found {}", kind_of(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lenient<T: DeserializeOwned>(json: &str) -> Lenient<T> {
        serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
    }

    #[test]
    fn gated_takes_the_hubs_three_values_only() {
        assert_eq!(lenient::<Gated>("false"), Lenient::Parsed(Gated::Open));
        assert_eq!(lenient::<Gated>("\"auto\""), Lenient::Parsed(Gated::Auto));
        assert_eq!(lenient::<Gated>("\"manual\""), Lenient::Parsed(Gated::Manual));
        assert_eq!(lenient::<Gated>("null"), Lenient::Missing);
        for (bad, found) in [("true", "true"), ("\"yes\"", "another string"), ("1", "a number"), ("[]", "a list")] {
            let why = lenient::<Gated>(bad).ignored().map(str::to_owned);
            assert_eq!(why, Some(format!("expected false, \"auto\" or \"manual\", found {found}")), "{bad}");
        }
        assert_eq!(serde_json::to_string(&[Gated::Open, Gated::Auto, Gated::Manual]).unwrap(), r#"[false,"auto","manual"]"#);
    }

    #[test]
    fn safetensors_counts_and_totals() {
        let parsed = lenient::<Safetensors>(r#"{"parameters": {"BF16": 8030261248}, "total": 8030261248}"#);
        let st = parsed.get().unwrap();
        assert_eq!((st.parameters["BF16"], st.total), (8_030_261_248, 8_030_261_248));
        // No total: the sum of the types.
        let summed = lenient::<Safetensors>(r#"{"parameters": {"F32": 10, "I8": 5}}"#);
        assert_eq!(summed.get().unwrap().total, 15);
        let bad = lenient::<Safetensors>(r#"{"parameters": {"F32": "many"}, "total": 1}"#);
        assert!(bad.ignored().unwrap().contains("expected u64"), "{bad:?}");
        assert!(lenient::<Safetensors>(r#"{"parameters": {"F32": -1}}"#).ignored().is_some());
    }

    #[test]
    fn gguf_reads_the_hubs_header_summary() {
        let parsed = lenient::<GgufSummary>(
            r#"{"total": 8030261312, "architecture": "llama", "context_length": 131072, "bos_token": "<|begin_of_text|>"}"#,
        );
        let gguf = parsed.get().unwrap();
        assert_eq!((gguf.total, gguf.architecture.as_deref(), gguf.context_length), (Some(8_030_261_312), Some("llama"), Some(131_072)));
        assert_eq!(gguf.other.get("bos_token").and_then(|v| v.as_str()), Some("<|begin_of_text|>"), "other keys kept for the chat prompt");
        assert_eq!(lenient::<GgufSummary>("{}").get(), Some(&GgufSummary::default()));
        assert!(lenient::<GgufSummary>(r#"{"total": "8B"}"#).ignored().unwrap().contains("expected u64"));
        assert!(lenient::<GgufSummary>("\"llama\"").ignored().is_some());
        assert!(lenient::<GgufSummary>("8030261312").ignored().is_some());
    }

    #[test]
    fn model_index_reads_the_card_metadata_format() {
        let parsed = lenient::<Vec<ModelIndexEntry>>(
            r#"[{"name": "m", "results": [{"task": {"type": "text-generation", "name": "Text Generation"},
                "dataset": {"name": "HellaSwag (10-Shot)", "type": "hellaswag", "split": "validation", "args": {"num_few_shot": 10}},
                "metrics": [{"type": "acc_norm", "value": 84.36, "name": "normalized accuracy", "verified": false},
                            {"type": "f1", "value": "71.3 ± 0.4"}],
                "source": {"name": "Open LLM Leaderboard", "url": "https://example.org/board"}}]}]"#,
        );
        let entries = parsed.get().unwrap();
        let result = &entries[0].results[0];
        assert_eq!(result.dataset.as_ref().unwrap().kind.as_deref(), Some("hellaswag"));
        assert_eq!(result.metrics[0].value, Some(MetricValue::Number(84.36)));
        assert_eq!(result.metrics[0].verified, Some(false));
        assert_eq!(result.metrics[1].value, Some(MetricValue::Text("71.3 ± 0.4".into())));
        assert_eq!(result.source.as_ref().unwrap().name.as_deref(), Some("Open LLM Leaderboard"));
        assert!(lenient::<Vec<ModelIndexEntry>>(r#"{"name": "m"}"#).ignored().is_some());
        assert!(lenient::<Vec<ModelIndexEntry>>(r#"[{"results": [{"metrics": [{"value": [1]}]}]}]"#).ignored().is_some());
    }

    #[test]
    fn reasons_are_bounded_and_printable() {
        let long = format!("\"\u{202e}{}\"", "x".repeat(10_000));
        let why = lenient::<u64>(&long).ignored().unwrap().to_owned();
        assert!(why.chars().count() <= MAX_WHY_CHARS + 12, "{} chars", why.chars().count());
        assert!(!why.contains('\u{202e}'), "{why}");
        assert!(why.ends_with("..."), "{why}");
    }

    #[test]
    fn base_model_is_one_id_or_a_list() {
        let data = |v: Value| serde_json::json!({ "base_model": v });
        assert_eq!(base_models(Some(&data("a/b".into()))), Lenient::Parsed(vec!["a/b"]));
        assert_eq!(base_models(Some(&data(serde_json::json!(["a/b", "c/d"])))), Lenient::Parsed(vec!["a/b", "c/d"]));
        assert_eq!(base_models(None), Lenient::Missing);
        assert_eq!(base_models(Some(&data(Value::Null))), Lenient::Missing);
        assert!(base_models(Some(&data(5.into()))).ignored().unwrap().ends_with("found a number"));
        assert!(base_models(Some(&data(serde_json::json!(["a/b", 5])))).ignored().is_some());
    }
}
