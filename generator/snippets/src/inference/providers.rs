//! Which providers serve a model, from the record's `inferenceProviderMapping`,
//! and what the engine knows about each provider's own API.

use serde::Deserialize;
use serde_json::Value;

/// The router chooses the provider.
pub const AUTO: &str = "auto";
/// Hugging Face's own serverless inference; always offered.
pub const HF_INFERENCE: &str = "hf-inference";
pub const FAL_AI: &str = "fal-ai";

/// One provider's entry in a record's mapping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProviderMapping {
    pub provider: String,
    /// The model's id on the provider's own API.
    pub provider_id: String,
    pub status: String,
    /// The task the provider serves the model for (`conversational` for chat).
    pub task: String,
    /// Set for LoRA adapters served on a base model (`"lora"`).
    pub adapter: Option<String>,
    pub adapter_weights_path: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    #[serde(default)]
    provider: Option<String>,
    #[serde(default)]
    provider_id: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    task: Option<String>,
    #[serde(default)]
    adapter: Option<String>,
    #[serde(default)]
    adapter_weights_path: Option<String>,
}

/// Reads the mapping in either of the Hub's forms: an object keyed by
/// provider, or a list of objects with a `provider` field. Entries that are
/// not objects or lack a provider are skipped; the rest keep their order.
pub fn provider_mappings(value: Option<&Value>) -> Vec<ProviderMapping> {
    let entries: Vec<(Option<String>, &Value)> = match value {
        Some(Value::Object(map)) => map.iter().map(|(k, v)| (Some(k.clone()), v)).collect(),
        Some(Value::Array(items)) => items.iter().map(|v| (None, v)).collect(),
        _ => Vec::new(),
    };
    entries
        .into_iter()
        .filter_map(|(key, value)| {
            let entry: Entry = serde_json::from_value(value.clone()).ok()?;
            let provider = key.or(entry.provider).filter(|p| !p.is_empty())?;
            Some(ProviderMapping {
                provider,
                provider_id: entry.provider_id.unwrap_or_default(),
                status: entry.status.unwrap_or_else(|| "live".into()),
                task: entry.task.unwrap_or_default(),
                adapter: entry.adapter,
                adapter_weights_path: entry.adapter_weights_path,
            })
        })
        .collect()
}

/// What the engine knows of a provider's own API, for direct requests.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct ProviderInfo {
    pub name: String,
    /// Base URL of the provider's OpenAI-compatible API, for chat.
    #[serde(default)]
    pub openai_base_url: Option<String>,
}

/// Providers with a known direct API (`data/providers.json`).
pub fn known_providers() -> Vec<ProviderInfo> {
    serde_json::from_str(include_str!("../../data/providers.json")).expect("data/providers.json is valid")
}

/// Provider names become environment variable names and code strings, so
/// only plain names are used: a lowercase letter, then letters, digits, `-`.
pub fn is_provider_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A provider's model id goes into URL paths and request bodies: letters,
/// digits and `-_./:@`, without `..`.
pub fn is_provider_id(id: &str) -> bool {
    !id.is_empty()
        && !id.contains("..")
        && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:@".contains(c))
}

/// The environment variable a direct request to `provider` reads its key from:
/// the name upper-cased, `-` as `_`, then `_API_KEY`.
pub fn provider_key_variable(provider: &str) -> String {
    let mut name: String =
        provider.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_uppercase() } else { '_' }).collect();
    name.push_str("_API_KEY");
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn object_and_list_forms_read_the_same() {
        let object = json!({"together": {"providerId": "meta/llama", "status": "live", "task": "conversational"},
                            "fal-ai": {"providerId": "fal-ai/flux/dev", "status": "staging", "task": "text-to-image",
                                       "adapter": "lora", "adapterWeightsPath": "w.safetensors"}});
        let list = json!([{"provider": "together", "providerId": "meta/llama", "status": "live", "task": "conversational"},
                          {"provider": "fal-ai", "providerId": "fal-ai/flux/dev", "status": "staging", "task": "text-to-image",
                           "adapter": "lora", "adapterWeightsPath": "w.safetensors"}]);
        let from_object = provider_mappings(Some(&object));
        let from_list = provider_mappings(Some(&list));
        assert_eq!(from_object.len(), 2);
        assert_eq!(from_object, from_list);
        assert_eq!(from_object[1].adapter_weights_path.as_deref(), Some("w.safetensors"));
    }

    #[test]
    fn odd_entries_are_skipped() {
        let value = json!([{"providerId": "x"}, "text", 5, {"provider": "groq", "providerId": 7}, {"provider": "groq"}]);
        let mappings = provider_mappings(Some(&value));
        assert_eq!(mappings.len(), 1);
        assert_eq!(mappings[0].provider, "groq");
        assert_eq!(mappings[0].status, "live");
        assert!(provider_mappings(Some(&json!("nope"))).is_empty());
        assert!(provider_mappings(None).is_empty());
    }

    #[test]
    fn names_and_ids() {
        for ok in ["fal-ai", "together", "hf-inference", "nebius"] {
            assert!(is_provider_name(ok), "{ok}");
        }
        for bad in ["", "1x", "Fal", "a b", "x\"y", "a_b"] {
            assert!(!is_provider_name(bad), "{bad}");
        }
        for ok in ["fal-ai/flux/dev", "accounts/fireworks/models/llama-v3p1", "x@v1:latest"] {
            assert!(is_provider_id(ok), "{ok}");
        }
        for bad in ["", "a b", "../x", "a?b", "a'b"] {
            assert!(!is_provider_id(bad), "{bad}");
        }
    }

    #[test]
    fn key_variables() {
        assert_eq!(provider_key_variable("fal-ai"), "FAL_AI_API_KEY");
        assert_eq!(provider_key_variable("together"), "TOGETHER_API_KEY");
        assert_eq!(provider_key_variable("fireworks-ai"), "FIREWORKS_AI_API_KEY");
    }

    #[test]
    fn known_providers_have_https_bases() {
        for p in known_providers() {
            if let Some(url) = p.openai_base_url {
                assert!(url.starts_with("https://") && !url.ends_with('/'), "{}: {url}", p.name);
            }
        }
    }
}
