//! Which providers serve a model, from the record's `inferenceProviderMapping`,
//! which of them the site knows, and what the engine knows about each
//! provider's own API.
//!
//! Only known providers get examples: those of the catalogue
//! (`data/providers.json`), `auto` and `hf-inference`, and those the settings
//! add. Each costs a page tens of kilobytes of examples, so a record cannot
//! be allowed to name thousands; the others get one note per model.

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

/// How many unknown providers a note names; it counts the rest.
const UNKNOWN_NAMES_SHOWN: usize = 5;
/// Characters of each unknown name shown: names come from records.
const UNKNOWN_NAME_CHARS: usize = 40;

/// The one note of a model whose mapping names providers the site does not
/// know (`unknown`, distinct, in the mapping's order).
pub fn unknown_providers_note(id: &str, unknown: &[&str]) -> String {
    let shown: Vec<String> = unknown
        .iter()
        .take(UNKNOWN_NAMES_SHOWN)
        .map(|name| format!("{:?}", name.chars().take(UNKNOWN_NAME_CHARS).collect::<String>()))
        .collect();
    let mut names = shown.join(", ");
    if unknown.len() > UNKNOWN_NAMES_SHOWN {
        names.push_str(&format!(" and {} more", unknown.len() - UNKNOWN_NAMES_SHOWN));
    }
    let (count, verb) = match unknown.len() {
        1 => ("1 provider is".to_owned(), "gets"),
        n => (format!("{n} providers are"), "get"),
    };
    format!("{id}: {count} not known here and {verb} no examples: {names} (extra_providers in the settings adds providers)")
}

/// Whether a path of a model's repository is safe to put in a file URL
/// under `/resolve/main/`: relative, with no `.` or `..` or empty segment
/// (which would leave the folder, or the repository, once the URL is
/// resolved), no scheme (`:` before the first `/`), no `?` or `#`, no
/// backslash (some servers read it as `/`) and no control character.
pub fn is_repository_path(path: &str) -> bool {
    let before_slash = path.split('/').next().unwrap_or("");
    !path.is_empty()
        && !before_slash.contains(':')
        && !path.chars().any(|c| c.is_control() || matches!(c, '?' | '#' | '\\'))
        && path.split('/').all(|segment| !matches!(segment, "" | "." | ".."))
}

/// What the engine knows of a provider: its name and, where it knows it,
/// the style of its own API.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct ProviderInfo {
    pub name: String,
    /// Without one, the provider's examples are the SDKs' (which know its
    /// API) and, for chat, the router's OpenAI-compatible route.
    #[serde(default)]
    pub api: Option<ProviderApi>,
}

/// The style of a provider's own API: how requests to it are made, beyond
/// the router's OpenAI-compatible chat route every provider has.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "style", rename_all = "kebab-case", deny_unknown_fields)]
pub enum ProviderApi {
    /// An OpenAI-compatible API at `base_url` (no trailing slash): direct
    /// chat requests go to `{base_url}/chat/completions` with the
    /// provider's own model id.
    Openai { base_url: String },
    /// The router's own inference: a task is sent to
    /// `{router}/{provider}/models/{id}`, with `/pipeline/{task}` after it
    /// for `pipeline_tasks`; it serves the tasks marked `hf_inference`.
    /// Direct requests go to the router too, with the router's token.
    HfInference { pipeline_tasks: Vec<String> },
    /// A request queue: a task is submitted to `{router}/{provider}/{provider
    /// id}?_subdomain=queue`, or directly to `{queue_url}/{provider id}`
    /// with `Authorization: {direct_auth} <key>`; it serves the tasks
    /// marked `fal`.
    FalQueue { queue_url: String, direct_auth: String },
}

/// The catalogue: the providers the engine knows, with their APIs' styles
/// where it knows them (`data/providers.json`).
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
    fn repository_paths() {
        for ok in ["w.safetensors", "lora/v2/w.safetensors", "a b/c:d (1).safetensors", "x..y", ".hidden/w"] {
            assert!(is_repository_path(ok), "{ok}");
        }
        for bad in ["", "/w", "../w", "a/../../w", "a/./w", "a//w", "a/", "c:w", "https://x/w", "w?x", "w#x", "a\\w", "w\u{7f}"] {
            assert!(!is_repository_path(bad), "{bad}");
        }
    }

    #[test]
    fn unknown_provider_notes_name_a_few() {
        assert_eq!(
            unknown_providers_note("a/b", &["x"]),
            "a/b: 1 provider is not known here and gets no examples: \"x\" (extra_providers in the settings adds providers)"
        );
        let many = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
        assert!(unknown_providers_note("a/b", &many).contains("7 providers are not known here and get no examples: \
                                                                 \"p1\", \"p2\", \"p3\", \"p4\", \"p5\" and 2 more ("));
        let long = "x".repeat(10_000) + "\u{1b}";
        let note = unknown_providers_note("a/b", &[&long]);
        assert!(note.len() < 200 && !note.contains('\u{1b}'), "{note}");
    }

    #[test]
    fn key_variables() {
        assert_eq!(provider_key_variable("fal-ai"), "FAL_AI_API_KEY");
        assert_eq!(provider_key_variable("together"), "TOGETHER_API_KEY");
        assert_eq!(provider_key_variable("fireworks-ai"), "FIREWORKS_AI_API_KEY");
    }

    #[test]
    fn known_providers_have_https_urls_and_plain_schemes() {
        for p in known_providers() {
            let url = match &p.api {
                Some(ProviderApi::Openai { base_url }) => base_url,
                Some(ProviderApi::FalQueue { queue_url, direct_auth }) => {
                    // Written into examples as it is, unescaped.
                    assert!(!direct_auth.is_empty() && direct_auth.chars().all(|c| c.is_ascii_alphabetic()), "{}", p.name);
                    queue_url
                }
                _ => continue,
            };
            assert!(url.starts_with("https://") && !url.ends_with('/'), "{}: {url}", p.name);
        }
    }

    #[test]
    fn the_catalogue_holds_the_router_own_provider_with_its_style() {
        let catalogue = known_providers();
        let hf = catalogue.iter().find(|p| p.name == HF_INFERENCE).expect("hf-inference is in the catalogue");
        assert!(matches!(hf.api, Some(ProviderApi::HfInference { .. })), "{hf:?}");
        let odd: Result<Vec<ProviderInfo>, _> = serde_json::from_str(r#"[{"name": "x", "api": {"style": "grpc"}}]"#);
        assert!(odd.is_err(), "an unknown style is an error, not a provider without examples");
    }
}
