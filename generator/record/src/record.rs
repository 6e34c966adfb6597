//! The model record: `model.json`, in the shape the Hub API returns.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

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
    /// The card's metadata as the Hub parsed it from the card's front matter.
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
}

/// A file in the model repository.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
pub struct Sibling {
    pub rfilename: String,
    #[serde(default)]
    pub size: Option<u64>,
}

impl ModelRecord {
    /// The task the card or the Hub gives for this model, if any.
    pub fn task(&self) -> Option<&str> {
        self.pipeline_tag.as_deref().filter(|t| !t.is_empty())
    }

    pub fn library(&self) -> Option<&str> {
        self.library_name.as_deref().filter(|l| !l.is_empty())
    }

    pub fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| t == tag)
    }
}

fn null_as_default<'de, D, T>(de: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(de)?.unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_id_is_required() {
        let r: ModelRecord = serde_json::from_str(r#"{"id": "a/b"}"#).unwrap();
        assert_eq!(r.id, "a/b");
        assert!(r.tags.is_empty() && r.task().is_none() && r.library().is_none());
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
}
