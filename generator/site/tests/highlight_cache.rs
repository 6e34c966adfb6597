//! The highlight caches (a shape highlighted once, the model id filled in;
//! each line parsed once per parser state) give exactly the bytes that
//! highlighting the final text line by line afresh gives, for every example
//! of the default corpus, on cold caches and on warm ones.

use std::path::Path;

use modelpages_render::{page_values, Highlighter, ShapeValues};
use modelpages_site::gguf::local_section;
use modelpages_site::load_corpus;
use modelpages_snippets::{InferenceOptions, InferenceSettings, LocalAppKind, SnippetEngine};

#[test]
fn cached_highlighting_is_byte_identical_on_the_whole_corpus() {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    assert_cache_is_exact(&models, 100);
}

#[test]
fn cached_highlighting_is_byte_identical_on_a_synthetic_corpus() {
    let dir = tempfile::tempdir().unwrap();
    modelpages_synth::write_synthetic_corpus(dir.path(), 300, 7).unwrap();
    assert_cache_is_exact(dir.path(), 300);
}

/// Every library, inference and local-app example of every model, and every
/// code block of every card, highlights the same through the cache as
/// without it.
fn assert_cache_is_exact(models: &Path, at_least: usize) {
    let corpus = load_corpus(models).unwrap();
    assert!(corpus.models.len() >= at_least, "{} models", corpus.models.len());
    let engine = SnippetEngine::new();
    let settings = InferenceSettings::default();
    let mut examples: Vec<(Vec<String>, &'static str, String)> = Vec::new();
    let mut local_commands = 0;
    for model in &corpus.models {
        let local = local_section(&engine, model).unwrap();
        let usage = engine.library_examples(&model.record).unwrap();
        let hosted: Vec<_> = [InferenceOptions::default(), InferenceOptions { streaming: true, ..Default::default() }]
            .into_iter()
            .map(|options| engine.inference_examples(&model.record, &settings, &options).unwrap())
            .collect();
        // The very values the model's page fills into cached shapes: those
        // the engine reported, as the build gathers them.
        let reported = [usage.as_ref().map_or(&[][..], |u| &u.values), &hosted[0].values, &local.values].concat();
        let values: Vec<String> = page_values(model, &local.files, &reported).into_iter().map(str::to_owned).collect();
        for app in &local.apps {
            if app.kind == LocalAppKind::Command {
                examples.push((values.clone(), "sh", app.content.clone()));
                local_commands += 1;
            }
        }
        if let Some(usage) = usage {
            for s in usage.snippets {
                examples.push((values.clone(), s.language.as_str(), s.content));
            }
        }
        if let Some(card) = &model.card {
            for block in card.body.split("```").skip(1).step_by(2) {
                let (lang, code) = block.split_once('\n').unwrap_or(("", block));
                let lang = match lang.trim() {
                    "python" => "python",
                    "bash" | "sh" => "sh",
                    "json" => "json",
                    _ => "js",
                };
                examples.push((values.clone(), lang, code.to_owned()));
            }
        }
        for s in hosted.into_iter().flat_map(|examples| examples.snippets) {
            examples.push((values.clone(), s.language.as_str(), s.content));
        }
    }
    assert!(examples.len() > at_least * 5, "{} examples", examples.len());
    assert!(local_commands > 0, "GGUF models' local-app commands are covered too");
    let cached = Highlighter::new();
    let plain = Highlighter::new();
    for (values, lang, text) in &examples {
        let values: Vec<&str> = values.iter().map(String::as_str).collect();
        let shape_values = ShapeValues::new(&values);
        let want = plain.highlight_uncached(text, lang);
        // Cold (or filled by an earlier model with the same shape), then surely warm.
        assert_eq!(cached.highlight_example(text, lang, &shape_values), want, "{values:?}, {lang}:\n{text}");
        assert_eq!(cached.highlight_example(text, lang, &shape_values), want, "warm: {values:?}, {lang}:\n{text}");
    }
}
