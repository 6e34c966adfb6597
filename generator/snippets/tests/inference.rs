//! Hosted-inference examples: the facts each example must get right, per
//! provider and option, and the error cases.

use modelpages_record::ModelRecord;
use modelpages_snippets::{InferenceOptions, InferenceSettings, InferenceSnippet, Language, SnippetEngine, SnippetError};

fn record(json: &str) -> ModelRecord {
    serde_json::from_str(json).unwrap()
}

const CHAT: &str = r#"{"id": "meta-llama/Llama-3.1-8B-Instruct", "pipeline_tag": "text-generation", "tags": ["conversational"],
    "inferenceProviderMapping": {"together": {"providerId": "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo", "status": "live", "task": "conversational"},
                                 "groq": {"providerId": "llama-3.1-8b-instant", "status": "staging", "task": "conversational"}}}"#;
const TEXT_TO_IMAGE: &str = r#"{"id": "black-forest-labs/FLUX.1-dev", "pipeline_tag": "text-to-image",
    "inferenceProviderMapping": [{"provider": "fal-ai", "providerId": "fal-ai/flux/dev", "status": "live", "task": "text-to-image"}]}"#;
const LORA: &str = r#"{"id": "openfree/flux-chatgpt-ghibli-lora", "pipeline_tag": "text-to-image",
    "inferenceProviderMapping": [{"provider": "fal-ai", "providerId": "fal-ai/flux-lora", "status": "live", "task": "text-to-image",
                                  "adapter": "lora", "adapterWeightsPath": "ghibli.safetensors"}]}"#;

fn examples(json: &str, options: InferenceOptions) -> Vec<InferenceSnippet> {
    let engine = SnippetEngine::new();
    engine.inference_examples(&record(json), &InferenceSettings::default(), &options).unwrap().snippets
}

fn find<'a>(all: &'a [InferenceSnippet], provider: &str, client: &str) -> &'a InferenceSnippet {
    all.iter()
        .find(|s| s.provider == provider && s.client == client)
        .unwrap_or_else(|| panic!("no {provider}/{client} example among {:?}", all.iter().map(|s| (&s.provider, s.client)).collect::<Vec<_>>()))
}

fn has(all: &[InferenceSnippet], provider: &str, client: &str) -> bool {
    all.iter().any(|s| s.provider == provider && s.client == client)
}

#[test]
fn chat_goes_through_the_router_with_the_right_model_field() {
    let all = examples(CHAT, InferenceOptions::default());
    // auto, hf-inference and together; groq is staging, so it is left out.
    for provider in ["auto", "hf-inference", "together"] {
        for client in ["huggingface_hub", "requests", "openai", "huggingface.js", "fetch", "curl"] {
            assert!(has(&all, provider, client), "{provider}/{client}");
        }
        assert!(!has(&all, provider, "fal_client"));
    }
    assert!(!all.iter().any(|s| s.provider == "groq"));
    let openai = find(&all, "auto", "openai");
    assert!(openai.content.contains(r#"base_url="https://router.huggingface.co/v1""#), "{}", openai.content);
    assert!(openai.content.contains(r#"model="meta-llama/Llama-3.1-8B-Instruct","#));
    let curl = find(&all, "together", "curl");
    assert!(curl.content.contains("'https://router.huggingface.co/v1/chat/completions'"), "{}", curl.content);
    assert!(curl.content.contains(r#""model": "meta-llama/Llama-3.1-8B-Instruct:together""#), "{}", curl.content);
    let sdk = find(&all, "together", "huggingface_hub");
    assert!(sdk.content.contains(r#"provider="together""#) && sdk.content.contains(r#"model="meta-llama/Llama-3.1-8B-Instruct","#));
    let js = find(&all, "hf-inference", "huggingface.js");
    assert!(js.content.contains(r#"provider: "hf-inference""#) && js.content.contains("client.chatCompletion("), "{}", js.content);
    for s in &all {
        assert_eq!(s.token_env, "HF_TOKEN");
    }
    assert!(find(&all, "auto", "requests").content.contains(r#"print(response.json()["choices"][0]["message"])"#));
}

#[test]
fn streaming_and_chat_parameters() {
    let options = InferenceOptions { streaming: true, temperature: Some(0.5), max_tokens: Some(512), top_p: Some(0.9), ..Default::default() };
    let all = examples(CHAT, options);
    let py = find(&all, "auto", "openai");
    for part in ["stream=True", "temperature=0.5", "max_tokens=512", "top_p=0.9", "chunk.choices[0].delta.content"] {
        assert!(py.content.contains(part), "{part} in {}", py.content);
    }
    let fetch = find(&all, "auto", "fetch");
    for part in ["stream: true", "temperature: 0.5", "max_tokens: 512", "top_p: 0.9", "delta?.content", "[DONE]"] {
        assert!(fetch.content.contains(part), "{part} in {}", fetch.content);
    }
    let js = find(&all, "together", "huggingface.js");
    assert!(js.content.contains("client.chatCompletionStream("), "{}", js.content);
    let curl = find(&all, "auto", "curl");
    assert!(curl.content.contains(r#""stream": true"#) && curl.content.contains("--no-buffer"), "{}", curl.content);
}

#[test]
fn bill_to_in_every_client_style() {
    let all = examples(CHAT, InferenceOptions { bill_to: Some("acme-org".into()), ..Default::default() });
    assert!(find(&all, "auto", "huggingface_hub").content.contains(r#"bill_to="acme-org""#));
    assert!(find(&all, "auto", "huggingface.js").content.contains(r#"billTo: "acme-org""#));
    assert!(find(&all, "auto", "requests").content.contains(r#""X-HF-Bill-To": "acme-org""#));
    assert!(find(&all, "auto", "openai").content.contains(r#"default_headers={"X-HF-Bill-To": "acme-org"}"#));
    assert!(find(&all, "auto", "fetch").content.contains(r#""X-HF-Bill-To": "acme-org""#));
    assert!(find(&all, "auto", "curl").content.contains("-H 'X-HF-Bill-To: acme-org'"));
}

#[test]
fn direct_requests_use_the_providers_own_url_id_and_key() {
    let all = examples(CHAT, InferenceOptions { direct_request: true, ..Default::default() });
    assert!(!all.iter().any(|s| s.provider == "auto"), "auto has no direct request");
    let curl = find(&all, "together", "curl");
    assert!(curl.content.contains("'https://api.together.xyz/v1/chat/completions'"), "{}", curl.content);
    assert!(curl.content.contains("$TOGETHER_API_KEY"), "{}", curl.content);
    assert!(curl.content.contains(r#""model": "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo""#), "{}", curl.content);
    assert_eq!(curl.token_env, "TOGETHER_API_KEY");
    let sdk = find(&all, "together", "huggingface_hub");
    assert!(sdk.content.contains(r#"os.environ["TOGETHER_API_KEY"]"#), "{}", sdk.content);
    let hf = find(&all, "hf-inference", "requests");
    assert_eq!(hf.token_env, "HF_TOKEN", "hf-inference's own key is the HF token");
}

#[test]
fn a_custom_endpoint_takes_the_place_of_the_router() {
    let options = InferenceOptions { endpoint_url: Some("http://localhost:8080/v1/".into()), ..Default::default() };
    let all = examples(CHAT, options);
    assert!(all.iter().all(|s| s.provider == "endpoint" && s.token_env == "API_TOKEN"));
    let openai = find(&all, "endpoint", "openai");
    assert!(openai.content.contains(r#"base_url="http://localhost:8080/v1""#), "{}", openai.content);
    assert!(openai.content.contains(r#"model="meta-llama/Llama-3.1-8B-Instruct","#));
    assert!(find(&all, "endpoint", "curl").content.contains("'http://localhost:8080/v1/chat/completions'"));
    assert!(find(&all, "endpoint", "huggingface.js").content.contains(r#".endpoint("http://localhost:8080/v1")"#));
    assert!(find(&all, "endpoint", "huggingface_hub").content.contains(r#"base_url="http://localhost:8080/v1""#));
}

#[test]
fn non_chat_tasks_auto_only_through_the_sdks() {
    let all = examples(r#"{"id": "distilbert/sst2", "pipeline_tag": "text-classification"}"#, InferenceOptions::default());
    let auto: Vec<_> = all.iter().filter(|s| s.provider == "auto").map(|s| s.client).collect();
    assert_eq!(auto, ["huggingface_hub", "huggingface.js"]);
    for client in ["huggingface_hub", "requests", "huggingface.js", "fetch", "curl"] {
        assert!(has(&all, "hf-inference", client), "{client}");
    }
    assert!(!all.iter().any(|s| s.client == "openai" || s.client == "fal_client"));
    let curl = find(&all, "hf-inference", "curl");
    assert!(curl.content.contains("https://router.huggingface.co/hf-inference/models/distilbert/sst2"), "{}", curl.content);
    let features = examples(r#"{"id": "a/b", "pipeline_tag": "feature-extraction"}"#, InferenceOptions::default());
    assert!(find(&features, "hf-inference", "requests").content.contains("/hf-inference/models/a/b/pipeline/feature-extraction"));
}

#[test]
fn zero_shot_uses_the_spec_labels() {
    let all = examples(r#"{"id": "facebook/bart-large-mnli", "pipeline_tag": "zero-shot-classification"}"#, InferenceOptions::default());
    for s in all.iter().filter(|s| s.provider == "hf-inference") {
        for label in ["refund", "legal", "faq"] {
            assert!(s.content.contains(label), "{} lacks {label}:\n{}", s.client, s.content);
        }
        assert!(s.content.contains("candidate_labels"), "{}", s.content);
    }
}

#[test]
fn fal_ai_queue_routed_and_direct() {
    let all = examples(TEXT_TO_IMAGE, InferenceOptions::default());
    for client in ["huggingface_hub", "requests", "fal_client", "huggingface.js", "fetch", "curl"] {
        assert!(has(&all, "fal-ai", client), "{client}");
    }
    let requests = find(&all, "fal-ai", "requests");
    assert!(requests.content.contains("https://router.huggingface.co/fal-ai/fal-ai/flux/dev?_subdomain=queue"), "{}", requests.content);
    assert_eq!(requests.token_env, "HF_TOKEN");
    let fal_client = find(&all, "fal-ai", "fal_client");
    assert!(fal_client.content.contains(r#"subscribe("fal-ai/flux/dev""#) || fal_client.content.contains(r#"subscribe(
    "fal-ai/flux/dev""#), "{}", fal_client.content);
    assert_eq!(fal_client.token_env, "FAL_AI_API_KEY");

    let direct = examples(TEXT_TO_IMAGE, InferenceOptions { direct_request: true, ..Default::default() });
    let curl = find(&direct, "fal-ai", "curl");
    assert!(curl.content.contains("https://queue.fal.run/fal-ai/flux/dev"), "{}", curl.content);
    assert!(curl.content.contains("Key $FAL_AI_API_KEY"), "{}", curl.content);
    assert_eq!(curl.token_env, "FAL_AI_API_KEY");
}

#[test]
fn lora_adapters_send_their_weights_url() {
    let all = examples(LORA, InferenceOptions::default());
    let url = "https://huggingface.co/openfree/flux-chatgpt-ghibli-lora/resolve/main/ghibli.safetensors";
    assert!(find(&all, "fal-ai", "requests").content.contains(url));
    assert!(find(&all, "fal-ai", "fetch").content.contains(url));
    // The hub URL is a site setting.
    let engine = SnippetEngine::new();
    let settings = InferenceSettings {
        router_url: "https://router.hub.example".into(),
        hub_url: "https://hub.example".into(),
        ..InferenceSettings::default()
    };
    let own = engine.inference_examples(&record(LORA), &settings, &InferenceOptions::default()).unwrap().snippets;
    let requests = find(&own, "fal-ai", "requests");
    assert!(requests.content.contains("https://hub.example/openfree/flux-chatgpt-ghibli-lora/resolve/main/ghibli.safetensors"));
    assert!(requests.content.contains("https://router.hub.example/fal-ai/fal-ai/flux-lora?_subdomain=queue"), "{}", requests.content);
}

#[test]
fn a_provider_that_cannot_serve_the_task_is_noted_and_skipped() {
    let engine = SnippetEngine::new();
    let r = record(r#"{"id": "a/b", "pipeline_tag": "text-classification",
        "inferenceProviderMapping": {"together": {"providerId": "x", "status": "live", "task": "conversational"}}}"#);
    let out = engine.inference_examples(&r, &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    assert!(!out.snippets.iter().any(|s| s.provider == "together"));
    assert!(out.notes.iter().any(|n| n.contains("\"together\" serves task \"conversational\", not \"text-classification\"")), "{:?}", out.notes);
    let asked = InferenceOptions { providers: Some(vec!["groq".into()]), ..Default::default() };
    let out = engine.inference_examples(&r, &InferenceSettings::default(), &asked).unwrap();
    assert!(out.snippets.is_empty());
    assert!(out.notes[0].contains("\"groq\" has no mapping"), "{:?}", out.notes);
}

#[test]
fn tokens_are_always_environment_variables() {
    let mut all = examples(CHAT, InferenceOptions::default());
    all.extend(examples(TEXT_TO_IMAGE, InferenceOptions { direct_request: true, ..Default::default() }));
    all.extend(examples(CHAT, InferenceOptions { endpoint_url: Some("http://localhost:8080/v1".into()), ..Default::default() }));
    for s in &all {
        let reads = match s.language {
            Language::Python => format!(r#"os.environ["{}"]"#, s.token_env),
            Language::Js => format!("process.env.{}", s.token_env),
            Language::Sh => format!("${}", s.token_env),
        };
        assert!(s.content.contains(&reads), "{} {} does not read {reads}:\n{}", s.provider, s.client, s.content);
        assert!(!s.content.contains("hf_"), "a token-like value in:\n{}", s.content);
    }
}

#[test]
fn missing_template_and_bad_body_format_are_errors() {
    let engine = SnippetEngine::with_templates(Vec::new()).unwrap();
    let err = engine.inference_examples(&record(CHAT), &InferenceSettings::default(), &InferenceOptions::default()).unwrap_err();
    assert!(matches!(&err, SnippetError::TemplateNotFound { .. }));
    assert_eq!(err.to_string(), "no inference template for language python, client huggingface_hub, template conversational");

    let templates = ["huggingface_hub", "requests", "openai"].map(|client| {
        (format!("inference/python/{client}/conversational.jinja"), "{{ inputs.messages | format_body(\"yaml\") }}".to_owned())
    });
    let engine = SnippetEngine::with_templates(templates).unwrap();
    let err = engine.inference_examples(&record(CHAT), &InferenceSettings::default(), &InferenceOptions::default()).unwrap_err();
    assert!(err.to_string().contains("unsupported body format \"yaml\""), "{err}");
}

#[test]
fn every_task_hf_inference_serves_has_raw_http_examples() {
    let engine = SnippetEngine::new();
    for spec in engine.task_table() {
        let json = format!(r#"{{"id": "a/b", "pipeline_tag": "{}"}}"#, spec.task);
        let out = engine.inference_examples(&record(&json), &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
        for client in ["requests", "fetch", "curl"] {
            assert_eq!(has(&out.snippets, "hf-inference", client), spec.hf_inference, "{} {client}", spec.task);
        }
        if !spec.hf_inference {
            assert!(out.notes.iter().any(|n| n.contains("hf-inference does not serve task")), "{:?}", out.notes);
        }
    }
}

#[test]
fn bill_to_is_dropped_with_a_providers_own_key() {
    let options = InferenceOptions { bill_to: Some("acme-org".into()), direct_request: true, ..Default::default() };
    let all = examples(CHAT, options);
    assert!(!find(&all, "together", "curl").content.contains("X-HF-Bill-To"));
    assert!(find(&all, "hf-inference", "curl").content.contains("X-HF-Bill-To: acme-org"), "hf-inference uses the HF token");
}

/// A chat record served by `providers`, each live for chat, plus together.
fn chat_served_by(providers: impl IntoIterator<Item = String>) -> ModelRecord {
    let mut mapping = serde_json::Map::new();
    mapping.insert("together".into(), serde_json::json!({"providerId": "x/y", "status": "live", "task": "conversational"}));
    for provider in providers {
        mapping.insert(provider, serde_json::json!({"providerId": "x/y", "status": "live", "task": "conversational"}));
    }
    serde_json::from_value(serde_json::json!({"id": "a/chat", "pipeline_tag": "text-generation", "tags": ["conversational"],
                                              "inferenceProviderMapping": mapping}))
    .unwrap()
}

#[test]
fn unknown_providers_get_no_examples_and_one_note() {
    let engine = SnippetEngine::new();
    let unknown: Vec<String> = (0..4_000).map(|n| format!("made-up-{n}")).collect();
    let out = engine.inference_examples(&chat_served_by(unknown), &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    let mut providers: Vec<&str> = out.snippets.iter().map(|s| s.provider.as_str()).collect();
    providers.dedup();
    assert!(providers == ["auto", "hf-inference", "together"], "{} providers got examples", providers.len());
    assert_eq!(out.notes.len(), 1, "{:?}", &out.notes[..out.notes.len().min(3)]);
    let note = &out.notes[0];
    assert!(note.starts_with("a/chat: 4000 providers are not known here and get no examples: \"made-up-0\", "), "{note}");
    assert!(note.contains(" and 3995 more") && note.len() < 400, "{note}");
}

#[test]
fn providers_the_settings_add_get_examples() {
    let engine = SnippetEngine::new();
    let record = chat_served_by(["acme-gpu".to_owned(), "made-up".to_owned()]);
    let settings = InferenceSettings { extra_providers: vec!["acme-gpu".into()], ..InferenceSettings::default() };
    let out = engine.inference_examples(&record, &settings, &InferenceOptions::default()).unwrap();
    let curl = find(&out.snippets, "acme-gpu", "curl");
    assert!(curl.content.contains(r#""model": "a/chat:acme-gpu""#), "{}", curl.content);
    assert!(!has(&out.snippets, "made-up", "curl"));
    assert_eq!(out.notes.len(), 1);
    assert!(out.notes[0].contains("1 provider is not known here and gets no examples: \"made-up\""), "{:?}", out.notes);
}

#[test]
fn the_hubs_providers_are_known() {
    // Providers that serve models on the public Hub: their records keep their examples.
    let hub = [
        "black-forest-labs", "cerebras", "cohere", "fal-ai", "featherless-ai", "fireworks-ai", "groq", "hyperbolic",
        "nebius", "novita", "nscale", "ovhcloud", "publicai", "replicate", "sambanova", "scaleway", "together",
        "wavespeed", "zai-org",
    ];
    let engine = SnippetEngine::new();
    let record = chat_served_by(hub.iter().map(|p| p.to_string()));
    let out = engine.inference_examples(&record, &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    for provider in hub {
        assert!(has(&out.snippets, provider, "curl"), "{provider}: {:?}", out.notes);
    }
    assert!(out.notes.is_empty(), "{:?}", out.notes);
}

#[test]
fn adapter_weights_paths_that_leave_the_repository_are_refused() {
    let engine = SnippetEngine::new();
    let lora_with = |path: &str| {
        let mut json: serde_json::Value = serde_json::from_str(LORA).unwrap();
        json["inferenceProviderMapping"][0]["adapterWeightsPath"] = serde_json::json!(path);
        serde_json::from_value::<ModelRecord>(json).unwrap()
    };
    let refused = [
        "../../../../attacker/repo/resolve/main/w.safetensors",
        "weights/../../other/w.safetensors",
        "/etc/w.safetensors",
        "https://evil.example/w.safetensors",
        "w.safetensors#x",
        "w.safetensors?download=1",
        "a\\..\\w.safetensors",
        "a//w.safetensors",
        "./w.safetensors",
        "w.safetensors/",
        "w\u{0}.safetensors",
        "w\n.safetensors",
        "",
    ];
    for path in refused {
        let out = engine.inference_examples(&lora_with(path), &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
        assert!(!out.snippets.iter().any(|s| s.provider == "fal-ai"), "{path:?} gave fal-ai examples");
        assert!(out.notes.iter().any(|n| n.contains("provider \"fal-ai\" has an unusable adapter weights path")), "{path:?}: {:?}", out.notes);
    }
    // A path in a folder, with a space and a colon after the first `/`: kept, and encoded in the URL.
    let out = engine
        .inference_examples(&lora_with("lora v2/style:1 (final).safetensors"), &InferenceSettings::default(), &InferenceOptions::default())
        .unwrap();
    let url = "https://huggingface.co/openfree/flux-chatgpt-ghibli-lora/resolve/main/lora%20v2/style%3A1%20%28final%29.safetensors";
    assert!(find(&out.snippets, "fal-ai", "requests").content.contains(url), "{}", find(&out.snippets, "fal-ai", "requests").content);
}

#[test]
fn a_long_widget_text_is_not_repeated_in_every_example() {
    // Every client of every provider quotes the sample input: a long one
    // would be copied hundreds of times into the page.
    let engine = SnippetEngine::new();
    let long = "word ".repeat(1_000);
    let mut chat = chat_served_by(["groq".to_owned(), "nebius".to_owned()]);
    chat.widget_data = vec![
        modelpages_record::WidgetExample { text: Some(long.clone()), ..Default::default() },
        modelpages_record::WidgetExample { text: Some("A short question?".into()), ..Default::default() },
    ];
    let out = engine.inference_examples(&chat, &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    assert!(!out.snippets.iter().any(|s| s.content.contains(&long)), "the long text is quoted");
    assert!(find(&out.snippets, "groq", "curl").content.contains("A short question?"), "the next widget text that fits is used");
    assert!(out.notes.iter().any(|n| n == "a/chat: widget example values over 1024 bytes (or with over 64 bytes of escapes), or over 16 sentences, are not used in \
                                          hosted-inference examples"), "{:?}", out.notes);
    // Sentence lists count whole.
    let mut similarity = record(r#"{"id": "a/sim", "pipeline_tag": "sentence-similarity"}"#);
    similarity.widget_data = vec![modelpages_record::WidgetExample {
        source_sentence: Some("That is a happy person".into()),
        sentences: vec!["x".into(); 17],
        ..Default::default()
    }];
    let out = engine.inference_examples(&similarity, &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    let curl = find(&out.snippets, "hf-inference", "curl");
    assert!(curl.content.contains("That is a happy dog") && !curl.content.contains(r#""x""#), "{}", curl.content);
}
