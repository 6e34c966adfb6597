//! Missing data never fails: each fallback of the spec is emitted exactly, as
//! a comment in the example's language.

use modelpages_record::ModelRecord;
use modelpages_snippets::{Language, SnippetEngine};

fn record(json: &str) -> ModelRecord {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The examples of `json`'s library, as (language, content).
fn examples(engine: &SnippetEngine, json: &str) -> Vec<(Language, String)> {
    let usage = engine.library_examples(&record(json)).unwrap().expect("library is in the catalogue");
    usage.snippets.into_iter().map(|s| (s.language, s.content)).collect()
}

fn assert_has(engine: &SnippetEngine, json: &str, language: Language, text: &str) {
    let all = examples(engine, json);
    assert!(all.iter().any(|(l, c)| *l == language && c.trim() == text), "no {language:?} example {text:?} for {json}: {all:#?}");
}

#[test]
fn spec_fallbacks_are_exact() {
    let engine = SnippetEngine::new();
    use Language::*;
    let cases: &[(&str, Language, &str)] = &[
        (r#"{"id": "a/b", "library_name": "transformers"}"#, Python, "# Type of model unknown"),
        (r#"{"id": "a/b", "library_name": "transformers", "config": {"architectures": ["NoKnownHead"]}}"#, Python, "# Type of model unknown"),
        (r#"{"id": "a/b", "library_name": "audiocraft", "tags": ["audio"]}"#, Python, "# Type of model unknown"),
        (r#"{"id": "a/b", "library_name": "sklearn", "config": {"sklearn": {"model_format": "skops"}}}"#, Python, "# Model filename not specified in config.json"),
        (r#"{"id": "a/b", "library_name": "sklearn", "tags": ["skops"]}"#, Python, "# Model filename not specified in config.json"),
        (r#"{"id": "a/b", "library_name": "sklearn", "tags": ["skops"], "config": {"sklearn": {"model_format": "pickle"}}}"#, Python, "# Model filename not specified in config.json"),
        (r#"{"id": "a/b", "library_name": "speechbrain", "config": {}}"#, Python, "# interface not specified in config.json"),
        (r#"{"id": "a/b", "library_name": "speechbrain", "config": {"speechbrain": {"speechbrain_interface": "NoSuchInterface"}}}"#, Python, "# interface in config.json invalid"),
        (r#"{"id": "a/b", "library_name": "peft", "config": {"peft": {"base_model_name_or_path": "x/y", "task_type": "NOPE"}}}"#, Python, "# Task type is invalid."),
        (r#"{"id": "a/b", "library_name": "peft", "config": {"peft": {"task_type": "CAUSAL_LM"}}}"#, Python, "# Base model is not found."),
        (r#"{"id": "a/b", "library_name": "nemo", "pipeline_tag": "image-classification"}"#, Python, "# tag did not correspond to a valid NeMo domain."),
        (r#"{"id": "a/b", "library_name": "espnet", "pipeline_tag": "audio-classification"}"#, Python, "# unknown model type (must be text-to-speech or automatic-speech-recognition)"),
        (r#"{"id": "a/b", "library_name": "transformers.js", "pipeline_tag": "no-such-task"}"#, Js, "// Unknown pipeline tag"),
    ];
    for (json, language, text) in cases {
        assert_has(&engine, json, *language, text);
    }
}

#[test]
fn fallbacks_do_not_appear_when_data_is_there() {
    let engine = SnippetEngine::new();
    let ok = [
        r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-classification", "transformersInfo": {"auto_model": "AutoModelForSequenceClassification", "processor": "AutoTokenizer"}}"#,
        r#"{"id": "a/b", "library_name": "audiocraft", "tags": ["musicgen"]}"#,
        r#"{"id": "a/b", "library_name": "sklearn", "config": {"sklearn": {"model_format": "skops", "model": {"file": "m.pkl"}}}}"#,
        r#"{"id": "a/b", "library_name": "speechbrain", "config": {"speechbrain": {"speechbrain_interface": "EncoderClassifier"}}}"#,
        r#"{"id": "a/b", "library_name": "peft", "config": {"peft": {"base_model_name_or_path": "x/y", "task_type": "CAUSAL_LM"}}}"#,
        r#"{"id": "a/b", "library_name": "nemo", "pipeline_tag": "automatic-speech-recognition"}"#,
        r#"{"id": "a/b", "library_name": "espnet", "pipeline_tag": "text-to-speech"}"#,
        r#"{"id": "a/b", "library_name": "transformers.js", "pipeline_tag": "text-classification"}"#,
    ];
    for json in ok {
        let all = examples(&engine, json);
        assert!(!all.is_empty(), "{json}");
        for (_, content) in &all {
            for fallback in ["unknown", "not specified", "invalid", "not found", "did not correspond", "Unknown pipeline tag"] {
                assert!(!content.contains(fallback), "{json} gave fallback text:\n{content}");
            }
        }
    }
}

#[test]
fn peft_task_types_map_to_model_classes() {
    let engine = SnippetEngine::new();
    for (task, class) in [
        ("CAUSAL_LM", "AutoModelForCausalLM"),
        ("SEQ_2_SEQ_LM", "AutoModelForSeq2SeqLM"),
        ("TOKEN_CLS", "AutoModelForTokenClassification"),
        ("SEQ_CLS", "AutoModelForSequenceClassification"),
    ] {
        let json = format!(r#"{{"id": "a/b", "library_name": "peft", "config": {{"peft": {{"base_model_name_or_path": "x/y", "task_type": "{task}"}}}}}}"#);
        let all = examples(&engine, &json);
        assert!(all.iter().any(|(_, c)| c.contains(class) && c.contains("PeftModel")), "{task}: {all:#?}");
    }
}

#[test]
fn yolo_version_comes_from_the_tag() {
    let engine = SnippetEngine::new();
    let with = examples(&engine, r#"{"id": "a/b", "library_name": "ultralytics", "tags": ["x", "yolov8"]}"#);
    assert!(with.iter().any(|(_, c)| c.contains("YOLOv8")), "{with:#?}");
    let without = examples(&engine, r#"{"id": "a/b", "library_name": "ultralytics", "tags": ["x"]}"#);
    let text: String = without.iter().map(|(_, c)| c.as_str()).collect();
    assert!(text.contains("YOLOvXX"), "placeholder used: {text}");
    assert!(text.to_lowercase().contains("version"), "a note says the version is missing: {text}");
}

#[test]
fn transformers_variants() {
    let engine = SnippetEngine::new();
    let custom = examples(&engine, r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-generation", "tags": ["custom_code"],
        "transformersInfo": {"auto_model": "AutoModelForCausalLM", "processor": "AutoTokenizer"}}"#);
    let python: Vec<_> = custom.iter().filter(|(l, _)| *l == Language::Python).collect();
    assert_eq!(python.len(), 2, "pipeline and direct load: {custom:#?}");
    assert!(python.iter().all(|(_, c)| c.contains("trust_remote_code=True")));
    let chat = examples(&engine, r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-generation", "tags": ["conversational"],
        "transformersInfo": {"auto_model": "AutoModelForCausalLM", "processor": "AutoTokenizer"}}"#);
    assert!(chat.iter().all(|(_, c)| !c.contains("trust_remote_code")));
    assert!(chat.iter().filter(|(_, c)| c.contains("\"role\": \"user\"")).count() == 2, "{chat:#?}");
    // A hostile auto_model is not code: it is treated as unknown.
    let hostile = examples(&engine, r#"{"id": "a/b", "library_name": "transformers", "transformersInfo": {"auto_model": "x; import os"}}"#);
    assert!(hostile.iter().any(|(_, c)| c == "# Type of model unknown"), "{hostile:#?}");
    assert!(hostile.iter().all(|(_, c)| !c.contains("import os")));
}

#[test]
fn unknown_or_missing_library_has_no_examples() {
    let engine = SnippetEngine::new();
    assert!(engine.library_examples(&record(r#"{"id": "a/b"}"#)).unwrap().is_none());
    assert!(engine.library_examples(&record(r#"{"id": "a/b", "library_name": "not-a-library"}"#)).unwrap().is_none());
    // A catalogue library without templates is known but has no examples.
    let usage = engine.library_examples(&record(r#"{"id": "a/b", "library_name": "acestep"}"#)).unwrap().unwrap();
    assert!(usage.snippets.is_empty());
}

#[test]
fn a_fallback_is_not_shown_beside_an_example_that_runs() {
    let engine = SnippetEngine::new();
    // The pipeline example runs; the direct one would only say the class is unknown.
    let all = examples(&engine, r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-classification"}"#);
    let python: Vec<&String> = all.iter().filter(|(l, _)| *l == Language::Python).map(|(_, c)| c).collect();
    assert_eq!(python.len(), 1, "{all:#?}");
    assert!(python[0].contains("pipeline(\"text-classification\""), "{all:#?}");
    assert!(all.iter().all(|(_, c)| !c.contains("Type of model unknown")), "{all:#?}");
}

#[test]
fn transformers_classes_come_from_the_architecture() {
    let engine = SnippetEngine::new();
    let all = examples(
        &engine,
        r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-generation", "tags": ["conversational"],
            "config": {"architectures": ["LlamaForCausalLM"]}}"#,
    );
    let direct = all.iter().find(|(_, c)| c.contains("# Load model directly")).expect("a direct example");
    assert!(direct.1.contains("from transformers import AutoTokenizer, AutoModelForCausalLM"), "{}", direct.1);
    assert!(direct.1.contains("apply_chat_template"), "{}", direct.1);
    let vision = examples(
        &engine,
        r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "image-classification", "config": {"architectures": ["ViTForImageClassification"]}}"#,
    );
    assert!(vision.iter().any(|(_, c)| c.contains("AutoImageProcessor, AutoModelForImageClassification")), "{vision:#?}");
}

#[test]
fn skops_models_load_the_file_their_config_names() {
    let engine = SnippetEngine::new();
    let skops = examples(
        &engine,
        r#"{"id": "a/b", "library_name": "sklearn", "tags": ["skops"], "config": {"sklearn": {"model": {"file": "model.skops"}}}}"#,
    );
    let load = skops.iter().find(|(l, _)| *l == Language::Python).unwrap();
    assert!(load.1.contains("filename=\"model.skops\"") && load.1.contains("from skops.io import"), "{}", load.1);
    assert!(skops.iter().any(|(l, c)| *l == Language::Sh && c.contains("skops")), "{skops:#?}");
    let pickled = examples(
        &engine,
        r#"{"id": "a/b", "library_name": "sklearn", "tags": ["skops"], "config": {"sklearn": {"model_format": "pickle", "model": {"file": "m.pkl"}}}}"#,
    );
    let load = pickled.iter().find(|(l, _)| *l == Language::Python).unwrap();
    assert!(load.1.contains("joblib.load") && !load.1.contains("skops"), "{}", load.1);
    // Without the tag, the file has a conventional name.
    let plain = examples(&engine, r#"{"id": "a/b", "library_name": "sklearn"}"#);
    assert!(plain.iter().any(|(_, c)| c.contains("sklearn_model.joblib")), "{plain:#?}");
}
