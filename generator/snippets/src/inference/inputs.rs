//! Sample inputs for inference examples: the model's sample inputs
//! ([`crate::sample`], shared with library examples: texts, the table of
//! table question answering, candidate labels), and the constant rows of
//! tabular tasks.
//!
//! Every client of every provider quotes the sample input, so widget values
//! are used only up to a size ([`MAX_SAMPLE_BYTES`], with at most
//! [`MAX_SAMPLE_ESCAPE_BYTES`] of escapes, [`MAX_SAMPLE_SENTENCES`]).

use std::sync::OnceLock;

use minijinja::Value as TemplateValue;
use modelpages_record::ModelRecord;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::providers::ProviderMapping;
use super::{RequestKind, TaskSpec};
pub use crate::sample::{MAX_SAMPLE_BYTES, MAX_SAMPLE_ESCAPE_BYTES};
use crate::sample::{escape_bytes, fits, SampleTable, SampleTexts};

/// Most sentences of a widget example a sentence-similarity example quotes.
pub const MAX_SAMPLE_SENTENCES: usize = 16;

/// The sentences count whole: their lengths, and their escapes, added up.
fn sentences_fit(sentences: &[String]) -> bool {
    sentences.len() <= MAX_SAMPLE_SENTENCES
        && sentences.iter().map(String::len).sum::<usize>() <= MAX_SAMPLE_BYTES
        && sentences.iter().map(|s| escape_bytes(s)).sum::<usize>() <= MAX_SAMPLE_ESCAPE_BYTES
}

/// Whether the record's widget data holds a value too large for examples
/// (which then use another example's value or the task's default).
pub fn has_oversized_widget_values(record: &ModelRecord) -> bool {
    record.widget_data.iter().any(|w| {
        [&w.text, &w.context, &w.source_sentence].into_iter().flatten().any(|v| !fits(v)) || !sentences_fit(&w.sentences)
    })
}

#[derive(Clone, Debug, Serialize)]
pub struct SampleInputs {
    /// The main text (or prompt); a chat model's message.
    pub text: String,
    pub question: String,
    pub context: String,
    pub table: TableInput,
    pub candidate_labels: Vec<String>,
    pub source_sentence: String,
    pub sentences: Vec<String>,
    #[serde(serialize_with = "constant")]
    pub tabular: &'static Constant,
    /// Chat messages.
    pub messages: Value,
}

impl SampleInputs {
    pub fn of(record: &ModelRecord, kind: &RequestKind<'_>) -> SampleInputs {
        let similarity = record
            .widget_data
            .iter()
            .find(|w| w.source_sentence.as_deref().is_some_and(fits) && sentences_fit(&w.sentences));
        let task = match kind {
            RequestKind::Chat => record.task().unwrap_or("text-generation"),
            RequestKind::Task(spec) => spec.task.as_str(),
        };
        let texts = SampleTexts::of(record, task);
        let text = match kind {
            RequestKind::Chat => texts.chat_text.clone(),
            RequestKind::Task(_) => texts.text,
        };
        let messages = if task == "image-text-to-text" {
            json!([{"role": "user", "content": [
                {"type": "text", "text": texts.chat_text},
                {"type": "image_url", "image_url": {"url": "https://cdn.britannica.com/61/93061-050-99147DCE/Statue-of-Liberty-Island-New-York-Bay.jpg"}}
            ]}])
        } else {
            json!([{"role": "user", "content": text}])
        };
        let table = if texts.table == SampleTable::default_table() {
            TableInput::Default(sample_table())
        } else {
            TableInput::Widget(serde_json::to_value(&texts.table).expect("a table of texts is JSON"))
        };
        SampleInputs {
            text,
            question: texts.question,
            context: texts.context,
            table,
            candidate_labels: texts.candidate_labels,
            source_sentence: similarity
                .and_then(|w| w.source_sentence.clone())
                .unwrap_or_else(|| "That is a happy person".into()),
            sentences: similarity.map(|w| w.sentences.clone()).filter(|s| !s.is_empty()).unwrap_or_else(|| {
                vec!["That is a happy dog".into(), "That is a very happy person".into(), "Today is a sunny day".into()]
            }),
            tabular: sample_tabular(),
            messages,
        }
    }
}

impl SampleInputs {
    /// The texts examples quote, which a model's widget examples can give.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let table = match &self.table {
            TableInput::Widget(table) => table.as_object(),
            TableInput::Default(_) => None,
        };
        let cells = table.into_iter().flatten().flat_map(|(name, cells)| {
            std::iter::once(name.as_str()).chain(cells.as_array().into_iter().flatten().filter_map(Value::as_str))
        });
        [&self.text, &self.question, &self.context, &self.source_sentence]
            .into_iter()
            .map(String::as_str)
            .chain(cells)
            .chain(self.candidate_labels.iter().map(String::as_str))
    }
}

/// The table of table question answering: the sample table every model
/// shares (a constant, see [`Constant`]), or a widget's own.
#[derive(Clone, Debug)]
pub enum TableInput {
    Default(&'static Constant),
    Widget(Value),
}

impl TableInput {
    pub fn json(&self) -> &Value {
        match self {
            TableInput::Default(constant) => &constant.json,
            TableInput::Widget(table) => table,
        }
    }
}

impl Serialize for TableInput {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            TableInput::Default(table) => constant(table, serializer),
            TableInput::Widget(table) => table.serialize(serializer),
        }
    }
}

/// A sample input that is the same for every model, built once, as JSON and
/// as a template value.
#[derive(Debug)]
pub struct Constant {
    pub json: Value,
    template: TemplateValue,
}

impl Constant {
    fn new(json: Value) -> Constant {
        Constant { template: TemplateValue::from_serialize(&json), json }
    }
}

/// Serialises a [`Constant`]: into a template value, as the template value
/// it already is (shared, not converted again); into anything else, as its
/// JSON.
fn constant<S: serde::Serializer>(constant: &&'static Constant, serializer: S) -> Result<S::Ok, S::Error> {
    constant.template.serialize(serializer)
}

/// The constants, as template values: the same data for every model.
pub(crate) fn constants() -> [&'static TemplateValue; 2] {
    [&sample_table().template, &sample_tabular().template]
}

/// The sample table of table question answering ([`crate::sample::DEFAULT_TABLE`]).
fn sample_table() -> &'static Constant {
    static TABLE: OnceLock<Constant> = OnceLock::new();
    TABLE.get_or_init(|| Constant::new(serde_json::to_value(SampleTable::default_table()).expect("a table of texts is JSON")))
}

/// The sample rows of tabular tasks.
fn sample_tabular() -> &'static Constant {
    static TABULAR: OnceLock<Constant> = OnceLock::new();
    TABULAR.get_or_init(|| {
        Constant::new(json!({
            "fixed_acidity": ["7.4", "7.8", "10.3"],
            "volatile_acidity": ["0.7", "0.88", "0.32"],
            "citric_acid": ["0", "0", "0.45"]
        }))
    })
}

/// The JSON body of a plain-data request; for requests that carry a file, the
/// part that is data (the template adds the file).
pub fn json_body(spec: &TaskSpec, sample: &SampleInputs) -> Value {
    match spec.input.as_str() {
        "text" => json!({"inputs": sample.text}),
        "question_context" => json!({"inputs": {"question": sample.question, "context": sample.context}}),
        "table_query" => json!({"inputs": {"query": sample.question, "table": sample.table.json()}}),
        "text_labels" => json!({"inputs": sample.text, "parameters": {"candidate_labels": sample.candidate_labels}}),
        "sentences" => json!({"inputs": {"source_sentence": sample.source_sentence, "sentences": sample.sentences}}),
        "tabular" => json!({"inputs": {"data": sample.tabular.json}}),
        "image_labels" => json!({"parameters": {"candidate_labels": sample.candidate_labels}}),
        "image_question" => json!({"question": sample.question}),
        "image_prompt" => json!({"parameters": {"prompt": sample.text}}),
        _ => Value::Null,
    }
}

/// The arguments fal's model takes. Files are added by the template (as a
/// data URI in `image_url`).
pub fn fal_arguments(record: &ModelRecord, spec: &TaskSpec, mapping: &ProviderMapping, hub_url: &str) -> Value {
    let sample = SampleInputs::of(record, &RequestKind::Task(spec));
    let mut args = Map::new();
    args.insert("prompt".into(), json!(sample.text));
    if mapping.adapter.as_deref() == Some("lora") {
        if let Some(path) = &mapping.adapter_weights_path {
            // The path was checked to stay in the repository (route); what
            // a URL cannot hold as it is, such as a space, is encoded.
            let url = format!(
                "{}/{}/resolve/main/{}",
                hub_url.trim_end_matches('/'),
                record.id,
                crate::escape::percent_encode_path(path)
            );
            args.insert("loras".into(), json!([{"path": url, "scale": 1}]));
        }
    }
    Value::Object(args)
}
