//! Model records built around untrusted values, for the property tests and
//! the fuzz targets: every field a generator reads gets one of the values, so
//! whatever a template quotes, it quotes something hostile.

use serde_json::{json, Value};

/// The untrusted parts of a record. Where a field needs a known value to be
/// used at all (a task, a PEFT task type), the record keeps a real one.
#[derive(Clone, Debug, Default)]
pub struct RecordParts {
    pub library: String,
    pub task: Option<String>,
    pub tags: Vec<String>,
    /// Widget texts, used in turn for `text`, `source_sentence`, two
    /// `sentences` and `context`.
    pub texts: Vec<String>,
    /// Put in every `config` section and in `transformersInfo`.
    pub config_value: String,
    /// The provider's model id in each provider mapping.
    pub provider_id: String,
    /// A provider of the record's own naming, next to the known ones.
    pub provider_name: String,
    /// `cardData.base_model` and `cardData.instance_prompt`.
    pub card_value: String,
}

impl RecordParts {
    /// `value` in every untrusted field and among the tags.
    pub fn filled(library: &str, task: Option<&str>, mut tags: Vec<String>, value: &str) -> RecordParts {
        tags.push(value.to_owned());
        RecordParts {
            library: library.to_owned(),
            task: task.map(str::to_owned),
            tags,
            texts: vec![value.to_owned()],
            config_value: value.to_owned(),
            provider_id: value.to_owned(),
            provider_name: value.to_owned(),
            card_value: value.to_owned(),
        }
    }
}

/// The record as `model.json` would hold it, with id `hostile/model`.
pub fn record_json(parts: &RecordParts) -> Value {
    let text = |i: usize| parts.texts.get(i % parts.texts.len().max(1)).cloned().unwrap_or_default();
    let value = &parts.config_value;
    let provider_id = &parts.provider_id;
    let task = parts.task.clone().unwrap_or_default();
    let mut mapping = serde_json::Map::new();
    mapping.insert(
        parts.provider_name.clone(),
        json!({"providerId": provider_id, "status": "live", "task": "conversational"}),
    );
    mapping.insert("together".into(), json!({"providerId": provider_id, "status": "live", "task": task}));
    mapping.insert(
        "fal-ai".into(),
        json!({"providerId": provider_id, "status": "live", "task": task, "adapter": "lora", "adapterWeightsPath": provider_id}),
    );
    let mut record = json!({
        "id": "hostile/model",
        "library_name": parts.library,
        "tags": parts.tags,
        "widgetData": [{"text": text(0), "source_sentence": text(1), "sentences": [text(2), text(3)], "context": text(4)}],
        "cardData": {"base_model": parts.card_value, "instance_prompt": parts.card_value},
        "inferenceProviderMapping": mapping,
        "transformersInfo": {"auto_model": value, "processor": value},
        "config": {
            "architectures": [value],
            "adapter_transformers": {"model_name": value},
            "keras_hub": {"tasks": [value, "CausalLM"]},
            "peft": {"base_model_name_or_path": value, "task_type": "CAUSAL_LM"},
            "sklearn": {"model": {"file": value}, "model_format": "skops"},
            "speechbrain": {"speechbrain_interface": value}
        }
    });
    if let Some(task) = &parts.task {
        record["pipeline_tag"] = json!(task);
    }
    record
}

/// Tags that switch templates onto their other branches.
pub const MEANINGFUL_TAGS: &[&str] = &["conversational", "custom_code", "lora", "musicgen", "yolov8", "audio", "gguf"];
