//! The model record: `model.json`, in the shape the Hub API returns.
//!
//! Two kinds of fields. Those the generators read to make examples
//! (`pipeline_tag`, `tags`, `widgetData`, ...) are strict: a wrong type fails
//! the record with an error at its line and column, as an example built on a
//! misread value would mislead. Those that only describe the model
//! (`safetensors`, `gated`, `model-index`, ... see [`crate::hub_fields`]) are
//! lenient: a wrong type is ignored and noted, and the model still builds.
//!
//! The task: a record saved with `?expand[]=inferenceProviderMapping` has no
//! `pipeline_tag`, only the providers' mapping, whose entries each name the
//! task they serve. [`ModelRecord::task`] falls back on it, as the Hub does,
//! reading the chat task `conversational` as `text-generation`; so is a
//! `pipeline_tag` of `conversational`, which older records carry.
//!
//! The card's metadata is read from `cardData` alone, once a card's front
//! matter has been merged into it ([`crate::card_meta`]).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::card_meta::CardMeta;
use crate::hub_fields::{self, null_as_default, EvalResult, Gated, IgnoredField, Lenient, ModelIndexEntry, Safetensors};

/// One model as described by its `model.json`.
///
/// Only `id` is required. Fields the generator does not read are ignored, so a
/// record saved straight from the Hub API loads as it is. `null` is accepted
/// wherever a field may be missing, as the Hub API writes it.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelRecord {
    pub id: String,
    #[serde(rename = "pipeline_tag", default)]
    pub pipeline_tag: Option<String>,
    #[serde(rename = "library_name", default)]
    pub library_name: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub tags: Vec<String>,
    /// Nested, library-specific sections (`peft`, `sklearn`, `architectures`, ...).
    #[serde(default)]
    pub config: Option<Value>,
    #[serde(default)]
    pub transformers_info: Option<TransformersInfo>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub widget_data: Vec<WidgetExample>,
    /// The card's metadata as the Hub parsed it from the card's front
    /// matter; once loaded, merged with the card's own front matter.
    #[serde(default)]
    pub card_data: Option<Value>,
    /// Object keyed by provider, or a list of objects with a `provider` field.
    #[serde(default)]
    pub inference_provider_mapping: Option<Value>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub siblings: Vec<Sibling>,
    #[serde(default)]
    pub downloads: Option<u64>,
    #[serde(default)]
    pub likes: Option<u64>,
    #[serde(default)]
    pub last_modified: Option<String>,
    /// Parameter counts per tensor type and in total.
    #[serde(default)]
    pub safetensors: Lenient<Safetensors>,
    #[serde(default)]
    pub gated: Lenient<Gated>,
    /// Evaluation results, in the card metadata's format: the Hub's copy of
    /// `cardData.model-index`, which comes first.
    #[serde(rename = "model-index", default)]
    pub model_index: Lenient<Vec<ModelIndexEntry>>,
    #[serde(default)]
    pub created_at: Lenient<String>,
    /// Bytes the repository takes on the Hub, every revision included.
    #[serde(default)]
    pub used_storage: Lenient<u64>,
    /// Ids of the Spaces that use the model.
    #[serde(default)]
    pub spaces: Lenient<Vec<String>>,
    /// What the Hub read from the model's GGUF files (`total`,
    /// `architecture`, `context_length`, `chat_template`, `bos_token`,
    /// `eos_token`); read only where a page shows it, leniently.
    #[serde(default)]
    pub gguf: Option<Value>,
    /// Not the Hub's: `true` builds the model's page but keeps the model out
    /// of every listing, the search, the sitemap, the API listings and other
    /// models' trees (test fixtures, drafts). See [`ModelRecord::hidden`].
    #[serde(default)]
    hidden: Lenient<bool>,
}

/// How the transformers library loads the model.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct TransformersInfo {
    #[serde(default)]
    pub auto_model: Option<String>,
    #[serde(default)]
    pub processor: Option<String>,
    #[serde(default)]
    pub pipeline_tag: Option<String>,
    #[serde(default)]
    pub custom_class: Option<String>,
}

/// One example input of the model's widget on the Hub.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct WidgetExample {
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub source_sentence: Option<String>,
    #[serde(default, deserialize_with = "null_as_default")]
    pub sentences: Vec<String>,
    #[serde(default)]
    pub context: Option<String>,
    /// A table question-answering widget's table: column names to cells.
    /// Any JSON: the examples check it before using it.
    #[serde(default)]
    pub table: Option<Value>,
    /// A zero-shot widget's labels: one text of labels separated by commas,
    /// as the Hub writes them, or a list. Any JSON, checked before use.
    #[serde(default)]
    pub candidate_labels: Option<Value>,
}

/// A file in the model repository.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Sibling {
    pub rfilename: String,
    /// In bytes. One that is not a whole number of bytes (`-1`) is left
    /// out, and the reason kept in `size_ignored` for the build's notes.
    pub size: Option<u64>,
    #[serde(skip)]
    pub size_ignored: Option<String>,
}

impl<'de> Deserialize<'de> for Sibling {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Raw {
            rfilename: String,
            #[serde(default)]
            size: Lenient<u64>,
        }
        let raw = Raw::deserialize(de)?;
        let size_ignored = raw.size.ignored().map(str::to_owned);
        Ok(Sibling { rfilename: raw.rfilename, size: raw.size.get().copied(), size_ignored })
    }
}

/// The task of the provider-mapping entries that serve a chat model.
const CHAT_TASK: &str = "conversational";

impl ModelRecord {
    /// The model's task: its `pipeline_tag`, or else the task the first
    /// provider-mapping entry that names one serves; `conversational` read
    /// as `text-generation` (with chat), as the Hub does.
    pub fn task(&self) -> Option<&str> {
        let task = self.pipeline_tag.as_deref().filter(|t| !t.is_empty()).or_else(|| self.mapping_tasks().next())?;
        Some(if task == CHAT_TASK { "text-generation" } else { task })
    }

    /// A chat model: tagged `conversational`, of that `pipeline_tag`, or
    /// served for chat by a provider.
    pub fn is_conversational(&self) -> bool {
        self.has_tag(CHAT_TASK)
            || self.pipeline_tag.as_deref() == Some(CHAT_TASK)
            || self.mapping_tasks().any(|t| t == CHAT_TASK)
    }

    /// The card's metadata (license, languages, datasets, tags...) from
    /// `cardData`.
    pub fn card_meta(&self) -> CardMeta {
        CardMeta::of(self.card_data.as_ref())
    }

    /// The non-empty `task` of each provider-mapping entry, in the mapping's
    /// order; the mapping is an object keyed by provider or a list, and
    /// entries of other shapes are skipped.
    fn mapping_tasks(&self) -> impl Iterator<Item = &str> {
        let entries: Box<dyn Iterator<Item = &Value>> = match &self.inference_provider_mapping {
            Some(Value::Object(map)) => Box::new(map.values()),
            Some(Value::Array(items)) => Box::new(items.iter()),
            _ => Box::new(std::iter::empty()),
        };
        entries.filter_map(Value::as_object).filter_map(|entry: &Map<String, Value>| entry.get("task")?.as_str()).filter(|t| !t.is_empty())
    }

    /// `cardData.base_model`: the models the card says this one was made
    /// from (none when it is missing or of the wrong shape).
    pub fn base_models(&self) -> Vec<&str> {
        match hub_fields::base_models(self.card_data.as_ref()) {
            Lenient::Parsed(ids) => ids,
            _ => Vec::new(),
        }
    }

    /// Every evaluation result, in the card's order: of `cardData.model-index`
    /// when it has any (the card, which the front matter may have changed),
    /// else of the record's own `model-index`.
    pub fn evaluation_results(&self) -> Vec<EvalResult> {
        let results = |entries: &Vec<ModelIndexEntry>| -> Vec<EvalResult> {
            entries.iter().flat_map(|entry| entry.results.iter().cloned()).collect()
        };
        let from_card = self.card_model_index();
        from_card.get().map(results).filter(|r| !r.is_empty()).or_else(|| self.model_index.get().map(results)).unwrap_or_default()
    }

    /// `cardData.model-index`, parsed as leniently as the record's own.
    fn card_model_index(&self) -> Lenient<Vec<ModelIndexEntry>> {
        match self.card_data.as_ref().and_then(|data| data.get("model-index")) {
            None => Lenient::Missing,
            Some(value) => Lenient::deserialize(value).unwrap_or_default(),
        }
    }

    /// Whether the model is kept out of listings (see the field). A value
    /// other than `true`, `false` or `null` is ignored with a note, and the
    /// model is kept hidden: whoever wrote `"hidden": "yes"` meant it to be.
    pub fn hidden(&self) -> bool {
        !matches!(self.hidden, Lenient::Missing | Lenient::Parsed(false))
    }

    /// The descriptive fields that were present but left out, with the
    /// reason, in a fixed order: the build's notes.
    pub fn ignored_fields(&self) -> Vec<IgnoredField> {
        let base_model = hub_fields::base_models(self.card_data.as_ref());
        let hidden = self.hidden.ignored().map(|why| format!("{why}; the model is kept hidden"));
        let odd_sizes: Vec<&str> = self.siblings.iter().filter_map(|s| s.size_ignored.as_deref()).collect();
        let sizes = odd_sizes.first().map(|first| match odd_sizes.len() {
            1 => format!("{first} (1 file)"),
            n => format!("{first} (and {} more, {n} files)", n - 1),
        });
        let card_model_index = self.card_model_index();
        let fields: [(&'static str, Option<&str>); 10] = [
            ("safetensors", self.safetensors.ignored()),
            ("gated", self.gated.ignored()),
            ("model-index", self.model_index.ignored()),
            ("createdAt", self.created_at.ignored()),
            ("usedStorage", self.used_storage.ignored()),
            ("spaces", self.spaces.ignored()),
            ("cardData.base_model", base_model.ignored()),
            ("hidden", hidden.as_deref()),
            ("siblings[].size", sizes.as_deref()),
            ("cardData.model-index", card_model_index.ignored()),
        ];
        fields
            .into_iter()
            .filter_map(|(field, why)| Some(IgnoredField { field, why: why?.to_owned() }))
            .collect()
    }

    pub fn library(&self) -> Option<&str> {
        self.library_name.as_deref().filter(|l| !l.is_empty())
    }

    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_id_is_required() {
        let r: ModelRecord = serde_json::from_str(r#"{"id": "a/b"}"#).unwrap();
        assert_eq!(r.id, "a/b");
        assert!(r.tags.is_empty() && r.task().is_none() && r.library().is_none() && !r.hidden());
        let hidden: ModelRecord = serde_json::from_str(r#"{"id": "a/b", "hidden": true}"#).unwrap();
        assert!(hidden.hidden());
        let listed: ModelRecord = serde_json::from_str(r#"{"id": "a/b", "hidden": false}"#).unwrap();
        assert!(!listed.hidden() && listed.ignored_fields().is_empty());
        assert!(serde_json::from_str::<ModelRecord>(r#"{"tags": []}"#).is_err());
    }

    #[test]
    fn reads_hub_api_shape_and_ignores_unknown_fields() {
        let json = r#"{
            "_id": "66a1", "id": "meta-llama/Llama-3.1-8B-Instruct", "private": false,
            "pipeline_tag": "text-generation", "library_name": "transformers",
            "tags": ["transformers", "conversational"],
            "config": {"architectures": ["LlamaForCausalLM"], "model_type": "llama"},
            "transformersInfo": {"auto_model": "AutoModelForCausalLM", "processor": "AutoTokenizer"},
            "widgetData": [{"text": "Hi"}, {"source_sentence": "a", "sentences": ["b", "c"]}],
            "cardData": {"license": "llama3.1"},
            "inferenceProviderMapping": {"together": {"providerId": "x", "status": "live", "task": "conversational"}},
            "siblings": [{"rfilename": "config.json", "size": 855}, {"rfilename": "a.bin"}],
            "downloads": 12, "likes": 3, "lastModified": "2024-09-25T14:06:55.000Z",
            "spaces": ["x/y"]
        }"#;
        let r: ModelRecord = serde_json::from_str(json).unwrap();
        assert_eq!(r.task(), Some("text-generation"));
        assert!(r.has_tag("conversational"));
        let info = r.transformers_info.as_ref().unwrap();
        assert_eq!(info.auto_model.as_deref(), Some("AutoModelForCausalLM"));
        assert_eq!(r.widget_data[1].sentences, ["b", "c"]);
        assert_eq!(r.siblings[0].size, Some(855));
        assert_eq!(r.siblings[1].size, None);
        assert_eq!((r.downloads, r.likes), (Some(12), Some(3)));
        assert_eq!(r.last_modified.as_deref(), Some("2024-09-25T14:06:55.000Z"));
    }

    #[test]
    fn nulls_mean_missing() {
        let json = r#"{"id": "a/b", "pipeline_tag": null, "tags": null, "widgetData": null,
                       "siblings": null, "transformersInfo": null, "downloads": null}"#;
        let r: ModelRecord = serde_json::from_str(json).unwrap();
        assert!(r.tags.is_empty() && r.widget_data.is_empty() && r.siblings.is_empty());
        assert!(r.transformers_info.is_none() && r.downloads.is_none());
    }

    #[test]
    fn wrong_types_are_errors() {
        for bad in [
            r#"{"id": 5}"#,
            r#"{"id": "a/b", "tags": "x"}"#,
            r#"{"id": "a/b", "tags": [1]}"#,
            r#"{"id": "a/b", "downloads": -1}"#,
            r#"{"id": "a/b", "widgetData": [{"text": 3}]}"#,
        ] {
            assert!(serde_json::from_str::<ModelRecord>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn task_falls_back_on_the_provider_mapping() {
        let image: ModelRecord = serde_json::from_str(
            r#"{"id": "ByteDance/SDXL-Lightning", "inferenceProviderMapping": {
                "fal-ai": {"status": "live", "providerId": "fal-ai/lightning-models", "task": "text-to-image"},
                "replicate": {"status": "live", "providerId": "bytedance/sdxl-lightning-4step", "task": "text-to-image"}}}"#,
        )
        .unwrap();
        assert_eq!(image.task(), Some("text-to-image"));
        assert!(!image.is_conversational());
        let chat: ModelRecord = serde_json::from_str(
            r#"{"id": "a/b", "inferenceProviderMapping": [{"provider": "x", "status": "live"},
                {"provider": "together", "task": "conversational", "providerId": "p"}]}"#,
        )
        .unwrap();
        assert_eq!(chat.task(), Some("text-generation"));
        assert!(chat.is_conversational());
        // The record's own pipeline_tag wins.
        let own: ModelRecord = serde_json::from_str(
            r#"{"id": "a/b", "pipeline_tag": "image-text-to-text", "inferenceProviderMapping": {"x": {"task": "conversational"}}}"#,
        )
        .unwrap();
        assert_eq!(own.task(), Some("image-text-to-text"));
        for odd in [r#""fal-ai""#, r#"[1, {"task": 5}, {"task": ""}]"#, "{}"] {
            let r: ModelRecord = serde_json::from_str(&format!(r#"{{"id": "a/b", "inferenceProviderMapping": {odd}}}"#)).unwrap();
            assert_eq!(r.task(), None, "{odd}");
        }
    }

    #[test]
    fn a_conversational_pipeline_tag_is_chat_text_generation() {
        let chat: ModelRecord =
            serde_json::from_str(r#"{"id": "facebook/blenderbot-400M-distill", "pipeline_tag": "conversational"}"#).unwrap();
        assert_eq!(chat.task(), Some("text-generation"));
        assert!(chat.is_conversational());
        let plain: ModelRecord = serde_json::from_str(r#"{"id": "a/b", "pipeline_tag": "text-generation"}"#).unwrap();
        assert!(!plain.is_conversational());
    }

    #[test]
    fn evaluation_results_come_from_the_cards_model_index_first() {
        let result = |dataset: &str| {
            serde_json::json!([{"name": "m", "results": [{"task": {"type": "text-generation"},
                "dataset": {"name": dataset, "type": dataset}, "metrics": [{"type": "acc", "value": 50.0}]}]}])
        };
        let dataset = |r: &ModelRecord| r.evaluation_results()[0].dataset.clone().unwrap().kind.unwrap();
        let only_card: ModelRecord =
            serde_json::from_value(serde_json::json!({"id": "a/b", "cardData": {"model-index": result("arc")}})).unwrap();
        assert_eq!(dataset(&only_card), "arc");
        let both: ModelRecord = serde_json::from_value(
            serde_json::json!({"id": "a/b", "model-index": result("old"), "cardData": {"model-index": result("card")}}),
        )
        .unwrap();
        assert_eq!((both.evaluation_results().len(), dataset(&both)), (1, "card".to_owned()));
        let odd_card: ModelRecord = serde_json::from_value(
            serde_json::json!({"id": "a/b", "model-index": result("top"), "cardData": {"model-index": "none"}}),
        )
        .unwrap();
        assert_eq!(dataset(&odd_card), "top", "a card model-index of the wrong shape gives way to the record's");
        let ignored: Vec<&str> = odd_card.ignored_fields().iter().map(|f| f.field).collect();
        assert_eq!(ignored, ["cardData.model-index"]);
    }

    #[test]
    fn reads_the_descriptive_hub_fields() {
        let json = r#"{"id": "meta-llama/Meta-Llama-3-8B-Instruct", "gated": "manual",
            "safetensors": {"parameters": {"BF16": 8030261248}, "total": 8030261248},
            "model-index": [{"name": "m", "results": [{"task": {"type": "text-generation"},
                "dataset": {"name": "Drop (3-Shot)", "type": "drop"}, "metrics": [{"type": "f1", "value": 9.66}]}]}],
            "createdAt": "2024-04-17T09:35:12.000Z", "usedStorage": 96262052839,
            "spaces": ["a/space", "b/space"], "cardData": {"base_model": ["x/base", "y/base"]}}"#;
        let r: ModelRecord = serde_json::from_str(json).unwrap();
        assert_eq!(r.gated.get(), Some(&Gated::Manual));
        assert_eq!(r.safetensors.get().unwrap().total, 8_030_261_248);
        assert_eq!(r.evaluation_results().len(), 1);
        assert_eq!(r.created_at.get().map(String::as_str), Some("2024-04-17T09:35:12.000Z"));
        assert_eq!(r.used_storage.get(), Some(&96_262_052_839));
        assert_eq!(r.spaces.get().unwrap().len(), 2);
        assert_eq!(r.base_models(), ["x/base", "y/base"]);
        assert!(r.ignored_fields().is_empty());
    }

    #[test]
    fn descriptive_fields_of_the_wrong_type_are_ignored_not_errors() {
        let json = r#"{"id": "a/b", "gated": true, "safetensors": "lots", "model-index": {"name": "m"},
            "createdAt": 1700000000, "usedStorage": "1 GB", "spaces": "a/space", "cardData": {"base_model": 5}}"#;
        let r: ModelRecord = serde_json::from_str(json).expect("a wrong descriptive field never fails the record");
        let fields: Vec<&str> = r.ignored_fields().iter().map(|f| f.field).collect();
        assert_eq!(
            fields,
            ["safetensors", "gated", "model-index", "createdAt", "usedStorage", "spaces", "cardData.base_model"]
        );
        assert!(r.gated.get().is_none() && r.safetensors.get().is_none() && r.base_models().is_empty());
        assert!(r.evaluation_results().is_empty());
        // null is missing, not ignored.
        let nulls: ModelRecord =
            serde_json::from_str(r#"{"id": "a/b", "gated": null, "model-index": null, "spaces": null}"#).unwrap();
        assert!(nulls.ignored_fields().is_empty());
    }

    #[test]
    fn an_odd_hidden_flag_keeps_the_model_hidden_with_a_note() {
        for odd in [r#""yes""#, "1", "[]", r#"{"x": true}"#] {
            let r: ModelRecord = serde_json::from_str(&format!(r#"{{"id": "a/b", "hidden": {odd}}}"#)).expect("never fails the record");
            assert!(r.hidden(), "{odd}");
            let ignored = r.ignored_fields();
            assert_eq!(ignored.len(), 1, "{odd}");
            assert_eq!(ignored[0].field, "hidden");
            assert!(ignored[0].why.ends_with("; the model is kept hidden"), "{}", ignored[0].why);
        }
    }

    #[test]
    fn file_sizes_that_are_no_byte_count_are_left_out_with_one_note() {
        let r: ModelRecord = serde_json::from_str(
            r#"{"id": "a/b", "siblings": [{"rfilename": "a", "size": -1}, {"rfilename": "b", "size": 3},
                {"rfilename": "c", "size": "1 GB"}, {"rfilename": "d", "size": null}]}"#,
        )
        .expect("never fails the record");
        let sizes: Vec<Option<u64>> = r.siblings.iter().map(|s| s.size).collect();
        assert_eq!(sizes, [None, Some(3), None, None]);
        let ignored = r.ignored_fields();
        assert_eq!(ignored.len(), 1);
        assert_eq!(ignored[0].field, "siblings[].size");
        assert_eq!(ignored[0].why, "invalid value: integer `-1`, expected u64 (and 1 more, 2 files)");
        // A sibling still needs its name.
        assert!(serde_json::from_str::<ModelRecord>(r#"{"id": "a/b", "siblings": [{"size": 1}]}"#).is_err());
    }
}
