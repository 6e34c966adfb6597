//! Records full of arbitrary strings through both example generators, with
//! arbitrary visitor options. Properties: generation never fails for a
//! record that loads (a failure is a template bug), and every example keeps
//! the layout rules: four-space indents and no raw invisible character.
#![no_main]

use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use modelpages_record::ModelRecord;
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};
use modelpages_testkit::code::layout_problems;
use modelpages_testkit::records::{record_json, RecordParts, MEANINGFUL_TAGS};

#[derive(Arbitrary, Debug)]
struct Input {
    library: u16,
    task: u8,
    tags: Vec<String>,
    meaningful_tags: u8,
    texts: Vec<String>,
    config_value: String,
    provider_id: String,
    provider_name: String,
    card_value: String,
    streaming: bool,
    direct_request: bool,
    bill_to: Option<String>,
    endpoint_url: Option<String>,
}

struct Setup {
    engine: SnippetEngine,
    libraries: Vec<String>,
    tasks: Vec<String>,
}

fn setup() -> &'static Setup {
    static SETUP: OnceLock<Setup> = OnceLock::new();
    SETUP.get_or_init(|| {
        let engine = SnippetEngine::new();
        let libraries = engine.catalogue().libraries().iter().map(|l| l.key.clone()).filter(|k| engine.has_snippets(k)).collect();
        let mut tasks: Vec<String> = engine.task_table().iter().map(|t| t.task.clone()).collect();
        tasks.extend(["text-generation", "image-text-to-text", "no-such-task"].map(String::from));
        Setup { engine, libraries, tasks }
    })
}

fuzz_target!(|input: Input| {
    let setup = setup();
    let mut tags = input.tags;
    for (i, tag) in MEANINGFUL_TAGS.iter().enumerate() {
        if input.meaningful_tags & (1 << i) != 0 {
            tags.push((*tag).to_owned());
        }
    }
    let parts = RecordParts {
        library: setup.libraries[input.library as usize % setup.libraries.len()].clone(),
        task: setup.tasks.get(input.task as usize).cloned(),
        tags,
        texts: input.texts,
        config_value: input.config_value,
        provider_id: input.provider_id,
        provider_name: input.provider_name,
        card_value: input.card_value,
    };
    let record: ModelRecord = serde_json::from_value(record_json(&parts)).expect("built records load");
    let options = InferenceOptions {
        streaming: input.streaming,
        direct_request: input.direct_request,
        bill_to: input.bill_to,
        endpoint_url: input.endpoint_url,
        ..InferenceOptions::default()
    };
    let engine = &setup.engine;
    let library = engine.library_examples(&record).unwrap_or_else(|e| panic!("{}: {e}", parts.library));
    let hosted = engine
        .inference_examples(&record, &InferenceSettings::default(), &options)
        .unwrap_or_else(|e| panic!("{}: {e}", parts.library));
    let texts = library.iter().flat_map(|l| l.snippets.iter().map(|s| &s.content)).chain(hosted.snippets.iter().map(|s| &s.content));
    for text in texts {
        let problems = layout_problems(text);
        assert!(problems.is_empty(), "{problems:?} in\n{text}");
    }
});
