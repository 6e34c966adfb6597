//! The static JSON API: `api/models/<namespace>/<name>.json` for every model,
//! so editors, bots and docs tools can fetch a model's examples from any
//! static host. The listings (`api/libraries.json`, `api/tasks.json` and
//! their pages of ids) are in `listings::api`.
//!
//! Pure: the examples the page already shows go in, `(path, bytes)` comes
//! out. Field order is fixed by the structs below, so the same input always
//! gives the same bytes. The JSON Schemas in `site-src/schema/` describe these
//! files; bump [`API_VERSION`] on any change that is not an addition.

use modelpages_record::{Gated, ModelRecord, Safetensors};
use modelpages_render::{base_refs, CodeExample, InferenceExample};
use modelpages_record::BaseRef;
use modelpages_snippets::{LocalAppExample, LocalAppKind};
use serde::Serialize;


/// The version every API file carries; consumers check it.
pub const API_VERSION: u32 = 3;

/// Where a model's API file goes, relative to the site root.
pub fn model_api_path(id: &str) -> String {
    format!("api/models/{id}.json")
}

/// A local-app example as the API file shows it: a view of the page's
/// [`LocalAppExample`], with the API's own name for its kind and no empty
/// docs URL.
#[derive(Serialize)]
struct LocalAppDoc<'a> {
    /// The app's key, e.g. `llama.cpp`.
    app: &'a str,
    label: &'a str,
    docs_url: Option<&'a str>,
    /// `command` or `deep-link`.
    kind: &'static str,
    /// The command or the link.
    content: &'a str,
}

impl<'a> LocalAppDoc<'a> {
    fn of(example: &'a LocalAppExample) -> LocalAppDoc<'a> {
        LocalAppDoc {
            app: &example.app,
            label: &example.label,
            docs_url: Some(example.docs_url.as_str()).filter(|u| !u.is_empty()),
            kind: match example.kind {
                LocalAppKind::Command => "command",
                LocalAppKind::DeepLink => "deep-link",
            },
            content: &example.content,
        }
    }
}

/// Everything a model's API file holds besides the record's own fields.
pub struct ModelApiInput<'a> {
    pub id: &'a str,
    pub task: Option<&'a str>,
    /// The record's `library_name`, known to the catalogue or not.
    pub library: Option<&'a str>,
    pub tags: &'a [String],
    /// Site path of the model's page (`/ns/name/`).
    pub page: String,
    /// Site path of the notebook, when the model has one.
    pub notebook: Option<String>,
    /// Site path of the page's Markdown twin.
    pub markdown: String,
    pub library_examples: &'a [CodeExample],
    pub inference: &'a [InferenceExample],
    pub local_apps: &'a [LocalAppExample],
    pub hub: HubFacts<'a>,
}

/// What the record says of the model on the Hub, as the API file carries it
/// (`hub`): the descriptive fields that parsed; those of the wrong shape
/// are left out (and noted by the build).
#[derive(Clone, Debug, Serialize)]
pub struct HubFacts<'a> {
    pub gated: Option<Gated>,
    pub safetensors: Option<&'a Safetensors>,
    pub base_models: Vec<&'a str>,
    pub created_at: Option<&'a str>,
    /// Every base the record names, with the relation.
    pub base_relations: Vec<BaseRef>,
    /// Kept out of the listings.
    pub hidden: bool,
}

impl<'a> HubFacts<'a> {
    pub fn of(record: &'a ModelRecord) -> HubFacts<'a> {
        HubFacts {
            gated: record.gated.get().copied(),
            safetensors: record.safetensors.get(),
            base_models: record.base_models(),
            created_at: record.created_at.get().map(String::as_str),
            base_relations: base_refs(record),
            hidden: record.hidden(),
        }
    }
}

#[derive(Serialize)]
struct ModelDoc<'a> {
    api_version: u32,
    id: &'a str,
    task: Option<&'a str>,
    library: Option<&'a str>,
    tags: &'a [String],
    page: &'a str,
    notebook: Option<&'a str>,
    markdown: &'a str,
    examples: ExamplesDoc<'a>,
    hub: &'a HubFacts<'a>,
}

#[derive(Serialize)]
struct ExamplesDoc<'a> {
    library: Vec<LibraryExampleDoc<'a>>,
    inference: Vec<InferenceExampleDoc<'a>>,
    /// Optional in the schema, so files from before local apps validate.
    local_apps: Vec<LocalAppDoc<'a>>,
}

#[derive(Serialize)]
struct LibraryExampleDoc<'a> {
    language: &'a str,
    /// The library key: a library example's "client" is the library itself.
    client: &'a str,
    content: &'a str,
}

#[derive(Serialize)]
struct InferenceExampleDoc<'a> {
    provider: &'a str,
    language: &'a str,
    client: &'a str,
    streaming: bool,
    token_env: &'a str,
    content: &'a str,
}

/// `api/models/<id>.json`.
pub fn model_api_json(input: &ModelApiInput<'_>) -> Vec<u8> {
    let client = input.library.unwrap_or_default();
    let doc = ModelDoc {
        api_version: API_VERSION,
        id: input.id,
        task: input.task,
        library: input.library,
        tags: input.tags,
        page: &input.page,
        notebook: input.notebook.as_deref(),
        markdown: &input.markdown,
        examples: ExamplesDoc {
            library: input
                .library_examples
                .iter()
                .map(|e| LibraryExampleDoc { language: e.language, client, content: &e.text })
                .collect(),
            inference: input
                .inference
                .iter()
                .map(|e| InferenceExampleDoc {
                    provider: &e.provider,
                    language: e.language,
                    client: e.client,
                    streaming: e.streaming,
                    token_env: &e.token_env,
                    content: &e.text,
                })
                .collect(),
            local_apps: input.local_apps.iter().map(LocalAppDoc::of).collect(),
        },
        hub: &input.hub,
    };
    to_json_bytes(&doc)
}

/// Two-space indented JSON with a final newline: readable on a static host,
/// and diffs of two builds stay small.
pub(crate) fn to_json_bytes(value: &impl Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).expect("API documents serialise");
    bytes.push(b'\n');
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn model_file_holds_every_example_in_a_fixed_order() {
        let tags = vec!["a".to_owned()];
        let record: ModelRecord = serde_json::from_str(
            r#"{"id": "ns/m", "gated": "auto", "safetensors": {"parameters": {"BF16": 7}, "total": 7},
                "createdAt": 5, "cardData": {"base_model": "x/base"}}"#,
        )
        .unwrap();
        let library_examples = [CodeExample { language: "sh", text: "pip install x".into() }];
        let inference = [InferenceExample {
            provider: "auto".into(),
            language: "python",
            client: "huggingface_hub",
            streaming: true,
            token_env: "HF_TOKEN".into(),
            text: "print(1)".into(),
        }];
        let bytes = model_api_json(&ModelApiInput {
            id: "ns/m",
            task: Some("text-generation"),
            library: Some("transformers"),
            tags: &tags,
            page: "/hub/ns/m/".into(),
            notebook: None,
            markdown: "/hub/ns/m/index.md".into(),
            library_examples: &library_examples,
            inference: &inference,
            local_apps: &[],
            hub: HubFacts::of(&record),
        });
        let text = String::from_utf8(bytes.clone()).unwrap();
        let keys: Vec<usize> = ["\"api_version\"", "\"id\"", "\"task\"", "\"library\"", "\"tags\"", "\"page\"", "\"notebook\"", "\"markdown\"", "\"examples\"", "\"hub\""]
            .iter()
            .map(|k| text.find(k).unwrap_or_else(|| panic!("{k} missing")))
            .collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]), "keys in a fixed order: {text}");
        let doc: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(doc["examples"]["library"], json!([{"language": "sh", "client": "transformers", "content": "pip install x"}]));
        assert_eq!(doc["examples"]["inference"][0]["streaming"], json!(true));
        assert_eq!(doc["examples"]["inference"][0]["token_env"], json!("HF_TOKEN"));
        assert_eq!(doc["examples"]["local_apps"], json!([]));
        assert_eq!(doc["notebook"], Value::Null);
        assert_eq!(doc["markdown"], json!("/hub/ns/m/index.md"));
        // What parsed of the record's Hub fields; `createdAt` was a number and is left out.
        assert_eq!(
            doc["hub"],
            json!({"gated": "auto", "safetensors": {"parameters": {"BF16": 7}, "total": 7}, "base_models": ["x/base"], "created_at": null,
                "base_relations": [{"id": "x/base", "relation": "finetune"}], "hidden": false})
        );
        assert_eq!(model_api_path("ns/m"), "api/models/ns/m.json");
    }
}
