//! A provider's API style is data: a provider added to the catalogue with a
//! style gets that style's requests under its own name, and nothing in the
//! code names it.

use modelpages_record::ModelRecord;

use super::{InferenceOptions, InferenceSettings, ProviderApi, ProviderInfo};
use crate::SnippetEngine;

fn engine_with(provider: ProviderInfo) -> SnippetEngine {
    let mut engine = SnippetEngine::new();
    engine.inference.providers.push(provider);
    engine
}

fn record(json: &str) -> ModelRecord {
    serde_json::from_str(json).unwrap()
}

fn curl(engine: &SnippetEngine, record: &ModelRecord, options: &InferenceOptions, provider: &str) -> String {
    let examples = engine.inference_examples(record, &InferenceSettings::default(), options).unwrap();
    let found = examples.snippets.iter().find(|s| s.provider == provider && s.client == "curl");
    found.unwrap_or_else(|| panic!("no curl example of {provider}: {:?}", examples.notes)).content.clone()
}

#[test]
fn a_queue_provider_added_as_data_is_called_through_its_queue() {
    let api = ProviderApi::FalQueue { queue_url: "https://queue.acme.test".into(), direct_auth: "Token".into() };
    let engine = engine_with(ProviderInfo { name: "acme-queue".into(), api: Some(api) });
    let image = record(
        r#"{"id": "org/painter", "pipeline_tag": "text-to-image",
            "inferenceProviderMapping": {"acme-queue": {"providerId": "acme/painter-v1", "status": "live", "task": "text-to-image"}}}"#,
    );
    let routed = curl(&engine, &image, &InferenceOptions::default(), "acme-queue");
    assert!(routed.contains("https://router.huggingface.co/acme-queue/acme/painter-v1?_subdomain=queue"), "{routed}");
    let direct = InferenceOptions { direct_request: true, ..Default::default() };
    let direct = curl(&engine, &image, &direct, "acme-queue");
    assert!(direct.contains("https://queue.acme.test/acme/painter-v1"), "{direct}");
    assert!(direct.contains("Token $ACME_QUEUE_API_KEY"), "{direct}");
}

#[test]
fn an_openai_compatible_provider_added_as_data_is_called_directly() {
    let api = ProviderApi::Openai { base_url: "https://api.acme.test/v1".into() };
    let engine = engine_with(ProviderInfo { name: "acme-chat".into(), api: Some(api) });
    let chat = record(
        r#"{"id": "org/chat", "pipeline_tag": "text-generation", "tags": ["conversational"],
            "inferenceProviderMapping": {"acme-chat": {"providerId": "acme/chat-7b", "status": "live", "task": "conversational"}}}"#,
    );
    let direct = InferenceOptions { direct_request: true, ..Default::default() };
    let example = curl(&engine, &chat, &direct, "acme-chat");
    assert!(example.contains("https://api.acme.test/v1/chat/completions"), "{example}");
    assert!(example.contains("acme/chat-7b") && example.contains("ACME_CHAT_API_KEY"), "{example}");
}
