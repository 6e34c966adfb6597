//! Library examples send a model the same sample inputs as its
//! hosted-inference examples: the widget's values, else the task's defaults
//! (`src/sample.rs`), never one sentence for every text task.

use modelpages_record::ModelRecord;
use modelpages_snippets::escape::py_str;
use modelpages_snippets::sample::{default_text, DEFAULT_CONTEXT};
use modelpages_snippets::{InferenceOptions, InferenceSettings, Language, SnippetEngine};

fn record(json: &str) -> ModelRecord {
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// The Python library examples of `record`, joined.
fn library_python(engine: &SnippetEngine, record: &ModelRecord) -> String {
    let usage = engine.library_examples(record).unwrap().expect("a catalogue library");
    usage.snippets.iter().filter(|s| s.language == Language::Python).map(|s| s.content.as_str()).collect::<Vec<_>>().join("\n")
}

/// The hosted-inference huggingface_hub example of `record` (provider auto).
fn hosted_python(engine: &SnippetEngine, record: &ModelRecord) -> String {
    let hosted = engine.inference_examples(record, &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    hosted
        .snippets
        .into_iter()
        .find(|s| s.provider == "auto" && s.client == "huggingface_hub")
        .expect("an auto huggingface_hub example")
        .content
}

#[test]
fn question_answering_reads_the_widgets_context() {
    let engine = SnippetEngine::new();
    let qa = record(
        r#"{"id": "deepset/roberta-base-squad2", "library_name": "transformers", "pipeline_tag": "question-answering",
            "transformersInfo": {"auto_model": "AutoModelForQuestionAnswering", "processor": "AutoTokenizer"},
            "widgetData": [{"text": "Where do I live?", "context": "My name is Wolfgang and I live in Berlin"},
                           {"text": "What does the keeper collect?", "context": "The keeper collects sea glass."}]}"#,
    );
    let library = library_python(&engine, &qa);
    let want = "print(pipe(question=\"Where do I live?\", context=\"My name is Wolfgang and I live in Berlin\"))";
    assert!(library.contains(want), "{library}");
    // The question is asked once, not passed as its own context.
    assert_eq!(library.matches("Where do I live?").count(), 1, "{library}");
    let hosted = hosted_python(&engine, &qa);
    assert!(hosted.contains("My name is Wolfgang and I live in Berlin"), "{hosted}");
    // Without a widget, both use the task's default context.
    let bare = record(r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "question-answering"}"#);
    assert!(library_python(&engine, &bare).contains(&py_str(DEFAULT_CONTEXT)));
    assert!(hosted_python(&engine, &bare).contains(DEFAULT_CONTEXT));
}

#[test]
fn each_text_task_gets_its_own_default_in_both_kinds_of_example() {
    let engine = SnippetEngine::new();
    for task in ["token-classification", "text-classification", "fill-mask", "zero-shot-classification", "text-generation"] {
        let r = record(&format!(r#"{{"id": "a/b", "library_name": "transformers", "pipeline_tag": "{task}"}}"#));
        let text = default_text(task);
        let library = library_python(&engine, &r);
        assert!(library.contains(&py_str(text)), "{task}: library example lacks {text:?}:\n{library}");
        let hosted = hosted_python(&engine, &r);
        assert!(hosted.contains(text), "{task}: hosted example lacks {text:?}:\n{hosted}");
    }
    assert_ne!(default_text("token-classification"), default_text("text-classification"));
}

#[test]
fn the_sample_cache_tells_tasks_apart() {
    // One engine, records that differ only in task, each read through
    // `inputs.text` (the sample inputs the engine keeps): what it kept for
    // one must not be given to another.
    let engine = SnippetEngine::new();
    let tasks = ["text-classification", "token-classification", "text-classification", "feature-extraction"];
    for task in tasks {
        let r = record(&format!(r#"{{"id": "a/b", "library_name": "transformers", "pipeline_tag": "{task}"}}"#));
        let library = library_python(&engine, &r);
        let want = format!("print(pipe({}))", py_str(default_text(task)));
        assert!(library.contains(&want), "{task}: {library}");
    }
    // And records that differ only in widget text.
    for text in ["first text", "second text", "first text"] {
        let r = record(&format!(
            r#"{{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-classification", "widgetData": [{{"text": "{text}"}}]}}"#
        ));
        assert!(library_python(&engine, &r).contains(&format!("print(pipe(\"{text}\"))")), "{text}");
    }
}

#[test]
fn chat_examples_send_the_same_message() {
    let engine = SnippetEngine::new();
    let chat = record(
        r#"{"id": "a/b", "library_name": "transformers", "pipeline_tag": "text-generation", "tags": ["conversational"],
            "config": {"architectures": ["LlamaForCausalLM"]}}"#,
    );
    let library = library_python(&engine, &chat);
    let hosted = hosted_python(&engine, &chat);
    let message = "What is the capital of France?";
    assert_eq!(library.matches(message).count(), 2, "pipeline and direct examples:\n{library}");
    assert!(hosted.contains(message), "{hosted}");
}
