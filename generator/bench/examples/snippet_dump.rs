//! Prints every example the snippet engine makes for a corpus, in a fixed
//! order, so two versions of the engine can be compared byte for byte:
//!
//! ```sh
//! cargo run --release -p modelpages-bench --example snippet_dump -- models > before.txt
//! # change the engine
//! cargo run --release -p modelpages-bench --example snippet_dump -- models > after.txt
//! cmp before.txt after.txt
//! ```
//!
//! Each model's examples are printed for the options the build uses (plain
//! and streaming) and for every other option that changes the code paths:
//! direct requests, a custom endpoint, chat parameters with bill-to, and an
//! explicit provider list.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use modelpages_site::gguf::model_gguf;
use modelpages_site::load_corpus;
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};

fn variants() -> Vec<(&'static str, InferenceSettings, InferenceOptions)> {
    let default = InferenceSettings::default();
    let slashed = InferenceSettings {
        router_url: "https://router.example/".into(),
        hub_url: "https://hub.example/".into(),
        ..InferenceSettings::default()
    };
    vec![
        ("default", default.clone(), InferenceOptions::default()),
        ("streaming", default.clone(), InferenceOptions { streaming: true, ..Default::default() }),
        ("direct", default.clone(), InferenceOptions { direct_request: true, ..Default::default() }),
        ("direct+streaming", slashed.clone(), InferenceOptions { direct_request: true, streaming: true, ..Default::default() }),
        ("endpoint", default.clone(), InferenceOptions { endpoint_url: Some("http://localhost:8080/v1/".into()), ..Default::default() }),
        (
            "parameters",
            slashed,
            InferenceOptions {
                streaming: true,
                temperature: Some(0.5),
                max_tokens: Some(512),
                top_p: Some(0.9),
                bill_to: Some("my-org".into()),
                ..Default::default()
            },
        ),
        (
            "providers",
            default,
            InferenceOptions {
                providers: Some(vec!["fal-ai".into(), "together".into(), "hf-inference".into(), "Bad Name".into(), "auto".into()]),
                bill_to: Some("o'rg".into()),
                ..Default::default()
            },
        ),
    ]
}

fn main() {
    let dir: PathBuf = std::env::args_os().nth(1).expect("usage: snippet_dump MODELS_DIR").into();
    let corpus = load_corpus(&dir).expect("corpus loads");
    let engine = SnippetEngine::new();
    let out = std::io::stdout().lock();
    let mut out = BufWriter::new(out);
    for err in &corpus.errors {
        writeln!(out, "load error: {err}").unwrap();
    }
    for model in &corpus.models {
        let record = &model.record;
        writeln!(out, "=== {}", record.id).unwrap();
        match engine.library_examples(record) {
            Ok(None) => writeln!(out, "library: none").unwrap(),
            Ok(Some(usage)) => {
                writeln!(out, "library: {}", json(&usage.library)).unwrap();
                for snippet in &usage.snippets {
                    writeln!(out, "  {}", json(snippet)).unwrap();
                }
            }
            Err(err) => writeln!(out, "library error: {err}").unwrap(),
        }
        for (name, settings, options) in variants() {
            match engine.inference_examples(record, &settings, &options) {
                Ok(examples) => {
                    writeln!(out, "inference {name}: {} snippets, {} notes", examples.snippets.len(), examples.notes.len()).unwrap();
                    for snippet in &examples.snippets {
                        writeln!(out, "  {}", json(snippet)).unwrap();
                    }
                    for note in &examples.notes {
                        writeln!(out, "  note: {note}").unwrap();
                    }
                }
                Err(err) => writeln!(out, "inference {name} error: {err}").unwrap(),
            }
        }
        // As the build calls it (GGUF files beside the record count), and
        // from the record's siblings alone.
        let gguf = model_gguf(&model.source.dir, record);
        for (name, files) in [("build", Some(&gguf.files)), ("siblings", None)] {
            match engine.local_app_examples(record, files).map(|examples| examples.apps) {
                Ok(apps) => {
                    writeln!(out, "local apps {name}: {}", apps.len()).unwrap();
                    for app in &apps {
                        writeln!(out, "  {}", json(app)).unwrap();
                    }
                }
                Err(err) => writeln!(out, "local apps {name} error: {err}").unwrap(),
            }
        }
    }
    out.flush().unwrap();
}

/// One line of JSON.
fn json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value).expect("serialises")
}
