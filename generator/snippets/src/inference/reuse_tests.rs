//! Examples given from kept texts ([`crate::cache::memo`]) are the examples each
//! model gets when every example is made for it alone.

use std::path::Path;

use modelpages_record::ModelRecord;

use super::{InferenceOptions, InferenceSettings};
use crate::cache::memo::ID_MARKER;
use crate::SnippetEngine;

/// Every record of the default corpus, and records made to trip reuse up,
/// as JSON.
fn records() -> Vec<String> {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let mut records = Vec::new();
    for namespace in std::fs::read_dir(&models).unwrap() {
        for model in std::fs::read_dir(namespace.unwrap().path()).unwrap() {
            if let Ok(json) = std::fs::read_to_string(model.unwrap().path().join("model.json")) {
                records.push(json);
            }
        }
    }
    assert!(records.len() > 100, "the default corpus is there");
    records.extend([
        // The id in the widget text and as a provider's own id.
        r#"{"id": "org/chat", "pipeline_tag": "text-generation", "tags": ["conversational"],
            "widgetData": [{"text": "Is org/chat the same as org/chat-2?"}],
            "inferenceProviderMapping": {"together": {"providerId": "org/chat", "status": "live", "task": "conversational"},
                                         "novita": {"providerId": "org/chat-turbo", "status": "live", "task": "conversational"}}}"#
            .to_owned(),
        // An id that is only part of another value.
        r#"{"id": "a/b", "pipeline_tag": "feature-extraction", "widgetData": [{"text": "a/b/c"}]}"#.to_owned(),
        // The marker in a record.
        format!(r#"{{"id": "org/text", "pipeline_tag": "text-classification", "widgetData": [{{"text": "{ID_MARKER}"}}]}}"#),
        // Ids that filters do not write as they are.
        r#"{"id": "org/it's", "pipeline_tag": "text-classification"}"#.to_owned(),
        r#"{"id": "org/a b\u202e", "pipeline_tag": "text-generation", "tags": ["conversational"]}"#.to_owned(),
    ]);
    records
}

/// The record with another id, also where a provider's own id was the id.
fn renamed(json: &str, id: &str) -> ModelRecord {
    let record: ModelRecord = serde_json::from_str(json).unwrap();
    let quoted = |id: &str| serde_json::to_string(id).unwrap();
    serde_json::from_str(&json.replace(&quoted(&record.id), &quoted(id))).unwrap()
}

fn option_sets() -> Vec<(InferenceSettings, InferenceOptions)> {
    let default = InferenceSettings::default();
    let other =
        InferenceSettings {
            router_url: "https://router.example/".into(),
            hub_url: "https://hub.example".into(),
            ..InferenceSettings::default()
        };
    vec![
        (default.clone(), InferenceOptions::default()),
        (default.clone(), InferenceOptions { streaming: true, ..Default::default() }),
        (other.clone(), InferenceOptions { direct_request: true, ..Default::default() }),
        (default, InferenceOptions { endpoint_url: Some("http://localhost:8080/v1/".into()), ..Default::default() }),
        (
            other,
            InferenceOptions {
                temperature: Some(0.5),
                max_tokens: Some(512),
                bill_to: Some("o'rg".into()),
                providers: Some(vec!["together".into(), "hf-inference".into(), "fal-ai".into()]),
                ..Default::default()
            },
        ),
    ]
}

#[test]
fn reused_examples_are_those_made_for_each_model() {
    let reusing = SnippetEngine::new();
    let mut alone = SnippetEngine::new();
    alone.reuse_nothing();
    // Ids of several lengths, one holding part of the marker, one all of it.
    let ids = ["x/y".into(), "some-org/Model.v2_1".into(), format!("q/{}", &ID_MARKER[..8]), format!("z/{ID_MARKER}x")];
    let mut examples = 0;
    for json in records() {
        let own_id = serde_json::from_str::<ModelRecord>(&json).unwrap().id;
        for id in std::iter::once(&own_id).chain(&ids) {
            let record = renamed(&json, id);
            for (settings, options) in option_sets() {
                let reused = reusing.inference_examples(&record, &settings, &options).unwrap();
                let made = alone.inference_examples(&record, &settings, &options).unwrap();
                assert_eq!(reused, made, "{json} as {id}, {options:?}");
                examples += made.snippets.len();
            }
        }
    }
    let kept = reusing.inference.memo.kept_texts();
    assert!(kept > 0 && kept * 4 < examples, "{kept} texts kept for {examples} examples");
    assert_eq!(alone.inference.memo.kept_texts(), 0);
}

/// Every template file, as `(name, source)`, the way templates are given
/// while editing them (`modelpages snippets --templates`).
fn template_files(dir: &Path, prefix: &str, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = format!("{prefix}{}", path.file_name().unwrap().to_str().unwrap());
        if path.is_dir() {
            template_files(&path, &format!("{name}/"), out);
        } else {
            out.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn templates_given_at_run_time_are_reused_too() {
    let mut templates = Vec::new();
    template_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("templates"), "", &mut templates);
    let given = SnippetEngine::with_templates(templates).unwrap();
    let builtin = SnippetEngine::new();
    for json in records().iter().take(40) {
        for id in ["x/y", "x/z"] {
            let record = renamed(json, id);
            let (settings, options) = (InferenceSettings::default(), InferenceOptions::default());
            let from_given = given.inference_examples(&record, &settings, &options).unwrap();
            assert_eq!(from_given, builtin.inference_examples(&record, &settings, &options).unwrap(), "{json}");
        }
    }
    let reusable = |engine: &SnippetEngine| {
        let mut names: Vec<String> = engine.inference.reusable_templates.keys().cloned().collect();
        names.sort();
        names
    };
    assert_eq!(reusable(&given), reusable(&builtin));
    assert!(given.inference.memo.kept_texts() > 0);
}
