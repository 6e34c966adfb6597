//! Sample inputs for inference examples: the model's own widget data first,
//! then a default per task (the spec's constants where it names one).
//!
//! Every client of every provider quotes the sample input, hundreds of
//! examples on a chat model's page, so widget values are used only up to a
//! size ([`MAX_SAMPLE_BYTES`], [`MAX_SAMPLE_SENTENCES`]): a record's long
//! value would otherwise be copied into the page hundreds of times.

use std::sync::OnceLock;

use minijinja::Value as TemplateValue;
use modelpages_record::ModelRecord;
use serde::Serialize;
use serde_json::{json, Map, Value};

use super::providers::ProviderMapping;
use super::{RequestKind, TaskSpec};

/// Longest widget value (text, context, source sentence, all sentences
/// together) an example quotes; real widget texts are a sentence or a
/// paragraph.
pub const MAX_SAMPLE_BYTES: usize = 1024;
/// Most sentences of a widget example a sentence-similarity example quotes.
pub const MAX_SAMPLE_SENTENCES: usize = 16;

fn fits(value: &str) -> bool {
    value.len() <= MAX_SAMPLE_BYTES
}

fn sentences_fit(sentences: &[String]) -> bool {
    sentences.len() <= MAX_SAMPLE_SENTENCES && sentences.iter().map(String::len).sum::<usize>() <= MAX_SAMPLE_BYTES
}

/// Whether the record's widget data holds a value too large for examples
/// (which then use another example's value or the task's default).
pub fn has_oversized_widget_values(record: &ModelRecord) -> bool {
    record.widget_data.iter().any(|w| {
        [&w.text, &w.context, &w.source_sentence].into_iter().flatten().any(|v| !fits(v)) || !sentences_fit(&w.sentences)
    })
}

/// Spec: the sample image-generation prompt is an astronaut in a jungle.
pub const IMAGE_PROMPT: &str = "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k";
/// Spec: the example candidate labels.
pub const CANDIDATE_LABELS: [&str; 3] = ["refund", "legal", "faq"];

#[derive(Clone, Debug, Serialize)]
pub struct SampleInputs {
    /// The main text (or prompt).
    pub text: String,
    pub question: String,
    pub context: String,
    #[serde(serialize_with = "constant")]
    pub table: &'static Constant,
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
        let widget_text = record.widget_data.iter().find_map(|w| w.text.clone().filter(|v| fits(v)));
        let widget_context = record.widget_data.iter().find_map(|w| w.context.clone().filter(|v| fits(v)));
        let similarity = record
            .widget_data
            .iter()
            .find(|w| w.source_sentence.as_deref().is_some_and(fits) && sentences_fit(&w.sentences));
        let task = match kind {
            RequestKind::Chat => "chat",
            RequestKind::Task(spec) => spec.task.as_str(),
        };
        let default_text = match task {
            "text-classification" => "I like you. I love you",
            "token-classification" => "My name is Sarah Jessica Parker but you can call me Jessica",
            "translation" => "My name is Wolfgang and I live in Berlin",
            "summarization" => "The tower is 324 metres (1,063 ft) tall, about the same height as an 81-storey building, and the tallest structure in Paris. Its base is square, measuring 125 metres (410 ft) on each side.",
            "fill-mask" => "The answer to the universe is [MASK].",
            "text-generation" => "Can you please let us know more details about your ",
            "text-to-image" => IMAGE_PROMPT,
            "text-to-video" => "A young man walking on the street",
            "text-to-speech" => "The answer to the universe is 42",
            "text-to-audio" => "liquid drum and bass, atmospheric synths, airy sounds",
            "zero-shot-classification" => "Hi, I recently bought a device from your company but it is not working as advertised and I would like to get reimbursed!",
            "image-to-image" | "image-text-to-image" => "Turn the cat into a tiger.",
            "image-to-video" | "image-text-to-video" => "The cat starts to dance",
            "chat" => "What is the capital of France?",
            _ => "Today is a sunny day and I will get some ice cream.",
        };
        let text = widget_text.clone().unwrap_or_else(|| default_text.to_owned());
        let messages = if record.task() == Some("image-text-to-text") {
            json!([{"role": "user", "content": [
                {"type": "text", "text": widget_text.clone().unwrap_or_else(|| "Describe this image in one sentence.".into())},
                {"type": "image_url", "image_url": {"url": "https://cdn.britannica.com/61/93061-050-99147DCE/Statue-of-Liberty-Island-New-York-Bay.jpg"}}
            ]}])
        } else {
            json!([{"role": "user", "content": text}])
        };
        let (question, context) = match task {
            "document-question-answering" => (widget_text.clone().unwrap_or_else(|| "What is the invoice number?".into()), String::new()),
            _ => (
                widget_text.clone().unwrap_or_else(|| "What is my name?".into()),
                widget_context.unwrap_or_else(|| "My name is Clara and I live in Berkeley.".into()),
            ),
        };
        SampleInputs {
            text,
            question,
            context,
            table: sample_table(),
            candidate_labels: match task {
                "zero-shot-image-classification" => vec!["cat".into(), "dog".into(), "llama".into()],
                _ => CANDIDATE_LABELS.iter().map(|s| s.to_string()).collect(),
            },
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

/// The sample table of table question answering.
fn sample_table() -> &'static Constant {
    static TABLE: OnceLock<Constant> = OnceLock::new();
    TABLE.get_or_init(|| {
        Constant::new(json!({
            "Repository": ["Transformers", "Datasets", "Tokenizers"],
            "Stars": ["36542", "4512", "3934"],
            "Contributors": ["651", "77", "34"],
            "Programming language": ["Python", "Python", "Rust, Python and NodeJS"]
        }))
    })
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
        "table_query" => json!({"inputs": {"query": sample.question_for_table(), "table": sample.table.json}}),
        "text_labels" => json!({"inputs": sample.text, "parameters": {"candidate_labels": sample.candidate_labels}}),
        "sentences" => json!({"inputs": {"source_sentence": sample.source_sentence, "sentences": sample.sentences}}),
        "tabular" => json!({"inputs": {"data": sample.tabular.json}}),
        "image_labels" => json!({"parameters": {"candidate_labels": sample.candidate_labels}}),
        "image_question" => json!({"question": sample.question}),
        "image_prompt" => json!({"parameters": {"prompt": sample.text}}),
        _ => Value::Null,
    }
}

impl SampleInputs {
    fn question_for_table(&self) -> &str {
        "How many stars does the transformers repository have?"
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
