//! Which local apps show for which models, and what their commands and links
//! hold.

use std::collections::HashMap;

use modelpages_gguf::GgufFiles;
use modelpages_record::ModelRecord;
use modelpages_snippets::{LocalAppExample, LocalAppKind, SnippetEngine};
use serde_json::json;

fn record(value: serde_json::Value) -> ModelRecord {
    serde_json::from_value(value).unwrap()
}

fn examples(record: &ModelRecord) -> Vec<LocalAppExample> {
    SnippetEngine::new().local_app_examples(record, None).unwrap().apps
}

fn apps(record: &ModelRecord) -> Vec<String> {
    let mut keys: Vec<String> = examples(record).into_iter().map(|e| e.app).collect();
    keys.dedup();
    keys
}

fn gguf_record() -> ModelRecord {
    record(json!({
        "id": "bartowski/Llama-3.2-1B-Instruct-GGUF",
        "pipeline_tag": "text-generation",
        "library_name": "gguf",
        "tags": ["gguf", "conversational"],
        "siblings": [
            {"rfilename": "Llama-3.2-1B-Instruct-f16.gguf", "size": 2479595648u64},
            {"rfilename": "Llama-3.2-1B-Instruct-Q5_K_M.gguf"},
            {"rfilename": "Llama-3.2-1B-Instruct-Q4_K_M.gguf"},
            {"rfilename": "Llama-3.2-1B-Instruct-IQ4_XS.gguf"}
        ]
    }))
}

#[test]
fn gguf_models_get_the_llama_cpp_family() {
    let keys = apps(&gguf_record());
    for wanted in ["llama.cpp", "ollama", "lmstudio", "jan", "docker-model-runner", "node-llama-cpp", "localai", "lemonade", "msty"] {
        assert!(keys.iter().any(|k| k == wanted), "{wanted} in {keys:?}");
    }
    for unwanted in ["vllm", "sglang", "tgi", "mlx-lm", "drawthings", "diffusionbee"] {
        assert!(!keys.iter().any(|k| k == unwanted), "{unwanted} not in {keys:?}");
    }
    let all = examples(&gguf_record());
    let command = |app: &str| all.iter().find(|e| e.app == app).unwrap().content.clone();
    assert!(command("llama.cpp").contains("llama-server -hf 'bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M'"), "{}", command("llama.cpp"));
    assert!(command("llama.cpp").contains("replace Q4_K_M with one of: F16, Q5_K_M, IQ4_XS"));
    assert_eq!(command("ollama").lines().next().unwrap(), "ollama run 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M'");
    assert_eq!(command("docker-model-runner").lines().next().unwrap(), "docker model run 'hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M'");
    assert!(command("localai").contains("'huggingface://bartowski/Llama-3.2-1B-Instruct-GGUF/Llama-3.2-1B-Instruct-Q4_K_M.gguf'"));
    assert!(command("lemonade").contains("lemonade run 'user.Llama-3.2-1B-Instruct-GGUF-Q4_K_M'"));
    let lmstudio = all.iter().find(|e| e.app == "lmstudio").unwrap();
    assert_eq!((lmstudio.kind, lmstudio.language, lmstudio.content.as_str()), (LocalAppKind::DeepLink, None, "lmstudio://open_from_hf?model=bartowski/Llama-3.2-1B-Instruct-GGUF"));
    assert!(all.iter().filter(|e| e.kind == LocalAppKind::Command).all(|e| e.language.is_some_and(|l| l.as_str() == "sh")));
    assert!(all.iter().all(|e| e.docs_url.starts_with("https://")));
    assert!(all.iter().find(|e| e.app == "recursechat").unwrap().macos_only);
}

#[test]
fn files_without_a_label_are_named_by_file() {
    let r = record(json!({"id": "a/b", "pipeline_tag": "text-generation", "siblings": [{"rfilename": "model.gguf"}, {"rfilename": "mmproj-f16.gguf"}]}));
    let all = examples(&r);
    let llama = &all.iter().find(|e| e.app == "llama.cpp").unwrap().content;
    assert!(llama.contains("llama-server --hf-repo 'a/b' --hf-file 'model.gguf'"), "{llama}");
    assert!(!llama.contains("another quantization"));
    assert_eq!(all.iter().find(|e| e.app == "ollama").unwrap().content, "ollama run 'hf.co/a/b'");
    // A projector alone is no model to run.
    let projector = record(json!({"id": "a/b", "siblings": [{"rfilename": "mmproj-f16.gguf"}]}));
    assert!(apps(&projector).is_empty());
}

#[test]
fn files_found_beside_the_record_count_when_given() {
    let r = record(json!({"id": "a/b", "pipeline_tag": "text-generation"}));
    assert!(apps(&r).is_empty(), "no siblings, no GGUF files given: nothing to run");
    let files = GgufFiles::new([("b-Q8_0.gguf", Some(10)), ("b-Q3_K_M.gguf", Some(4))], &HashMap::new());
    let all = SnippetEngine::new().local_app_examples(&r, Some(&files)).unwrap().apps;
    let llama = &all.iter().find(|e| e.app == "llama.cpp").unwrap().content;
    assert!(llama.contains("-hf 'a/b:Q3_K_M'"), "the nearest at or below Q4_K_M: {llama}");
}

#[test]
fn transformers_text_models_get_servers() {
    let r = record(json!({
        "id": "meta-llama/Llama-3.1-8B-Instruct",
        "pipeline_tag": "text-generation",
        "library_name": "transformers",
        "tags": ["transformers", "safetensors", "text-generation-inference", "conversational"],
        "siblings": [{"rfilename": "model-00001-of-00004.safetensors"}]
    }));
    assert_eq!(apps(&r), ["docker-model-runner", "vllm", "sglang", "tgi"]);
    let all = examples(&r);
    let vllm = &all.iter().find(|e| e.app == "vllm").unwrap().content;
    assert!(vllm.contains("vllm serve 'meta-llama/Llama-3.1-8B-Instruct'") && vllm.contains("/v1/chat/completions"), "{vllm}");
    assert_eq!(all.iter().find(|e| e.app == "docker-model-runner").unwrap().content, "docker model run 'hf.co/meta-llama/Llama-3.1-8B-Instruct'");
    // Without the chat tag, a plain completion; without the TGI tag, no TGI.
    let base = record(json!({"id": "a/b", "pipeline_tag": "text-generation", "library_name": "transformers"}));
    assert_eq!(apps(&base), ["docker-model-runner", "vllm", "sglang"]);
    let sglang = examples(&base).into_iter().find(|e| e.app == "sglang").unwrap().content;
    assert!(sglang.contains("/v1/completions") && sglang.contains("\"prompt\": \"Once upon a time,\""), "{sglang}");
    // A GGUF repository that carries the transformers tags still gets the GGUF apps only.
    let mut gguf = gguf_record();
    gguf.tags.extend(["transformers".to_owned(), "text-generation-inference".to_owned()]);
    let keys = apps(&gguf);
    assert!(keys.contains(&"llama.cpp".to_owned()) && !keys.iter().any(|k| ["vllm", "sglang", "tgi"].contains(&k.as_str())), "{keys:?}");
}

#[test]
fn mlx_image_and_other_models() {
    let mlx = record(json!({"id": "mlx-community/Mistral-7B-Instruct-v0.3-4bit", "pipeline_tag": "text-generation", "library_name": "mlx", "tags": ["mlx", "conversational"]}));
    assert_eq!(apps(&mlx), ["lmstudio", "mlx-lm"]);
    assert!(examples(&mlx).iter().any(|e| e.content.contains("mlx_lm.chat --model 'mlx-community/Mistral-7B-Instruct-v0.3-4bit'")));

    let flux = record(json!({"id": "black-forest-labs/FLUX.1-dev", "pipeline_tag": "text-to-image", "library_name": "diffusers", "tags": ["diffusers", "safetensors"]}));
    assert_eq!(apps(&flux), ["jellybox", "drawthings", "diffusionbee"]);
    let lora = record(json!({"id": "a/lora", "pipeline_tag": "text-to-image", "library_name": "diffusers", "tags": ["lora", "safetensors"]}));
    let links: Vec<String> = examples(&lora).into_iter().map(|e| e.content).collect();
    assert!(links.contains(&"https://drawthings.ai/import/diffusers/pipeline.load_lora_weights?repo_id=a/lora".to_owned()), "{links:?}");
    assert!(links.contains(&"jellybox://image/models/huggingface/ImageLora/a/lora".to_owned()), "{links:?}");

    for other in [
        json!({"id": "google/vit-base-patch16-224", "pipeline_tag": "image-classification", "library_name": "transformers", "tags": ["transformers"]}),
        json!({"id": "a/b"}),
        json!({"id": "a/embed", "pipeline_tag": "feature-extraction", "library_name": "sentence-transformers", "tags": ["transformers"]}),
    ] {
        assert_eq!(apps(&record(other.clone())), Vec::<String>::new(), "{other}");
    }
}
