//! Property test: however a record is built (many providers, known and not,
//! thousands of tags and files, long and hostile values), its model's page,
//! API file and notebook grow at most linearly with the record and card:
//! `size <= PER_BYTE * (record + card bytes) + FIXED`. A value repeated in
//! every example of every provider, or a list that multiplies another,
//! breaks the bound once the values are long. A card's own share of its
//! page (the page less that of the same record without the card) is held
//! to a smaller multiple of the card: tables padded to a wide header and
//! quotes opened and closed per paragraph made hundreds of times the card.

use std::fs;
use std::path::Path;

use modelpages_site::{build_site, BuildOptions, NoProgress};
use modelpages_snippets::inference::known_providers;
use modelpages_snippets::sample::{MAX_SAMPLE_BYTES, MAX_SAMPLE_ESCAPE_BYTES};
use modelpages_snippets::SnippetEngine;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestError, TestRunner};
use serde_json::{json, Map, Value};

/// Bytes of a model's files per byte of its record: a short tag costs a
/// page its link (about twice its bytes), a LoRA weights path is quoted,
/// percent-encoded, in every fal-ai example (about nine times).
const PER_BYTE: usize = 16;
/// Bytes of a model's files whatever its record: the page's frame and the
/// examples of every provider the site knows, each quoting a sample input
/// of at most `MAX_SAMPLE_BYTES` with at most `MAX_SAMPLE_ESCAPE_BYTES` of
/// escapes (each escape is a highlighted token of its own). The most costly
/// input found (see `escape_heavy_sample_inputs_stay_within_the_bound`) is
/// a chat model's text of 64 backslashes, each before a `&`, then `%s&` to
/// 1 KiB (Python's highlighter makes each `%s` a placeholder token, and
/// `&` is `&amp;`) on all the catalogue's providers: about 5.0 MB of page.
/// Before escapes were bounded, 1 KiB of `'\u{1}` made 12.9 MB.
const FIXED: usize = 6 << 20;

/// Bytes of a model's page per byte of its card, beyond the same record's
/// page without it: the card's HTML is at most four times the card and
/// 1 MiB, or its source escaped (at most six times), and the headings of
/// its table of contents are shown twice (see `card_limits` in the render
/// crate).
const CARD_PER_BYTE: usize = 8;
const CARD_FIXED: usize = 2 << 20;

/// Builds per run, and records per build.
const BUILDS: u32 = 4;
const RECORDS: usize = 6;

/// Characters that end, escape or interpolate literals, or that a page or
/// an example writes as an escape.
const NASTY: &[&str] = &["\"", "'", "\\", "\n", "\t", "`", "$", "{", "<", ">", "&", "\u{1}", "\u{7f}", "\u{202e}", "\u{2028}", "é", "😀"];

/// A count up to `max`, as often small as large, so that one part of a
/// record can be long while the rest is short.
fn count(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![Just(0), 1..10usize, 10..max]
}

/// A value of a few pieces repeated `times`.
fn repeated(times: impl Strategy<Value = usize>) -> impl Strategy<Value = String> {
    let piece = prop_oneof![proptest::sample::select(NASTY).prop_map(String::from), "[a-z ]{1,8}"];
    (proptest::collection::vec(piece, 1..4), times).prop_map(|(pieces, times)| pieces.concat().repeat(times))
}

/// A value of up to some tens of kilobytes, often short.
fn long_value() -> impl Strategy<Value = String> {
    repeated(count(3_000))
}

fn short_value() -> impl Strategy<Value = String> {
    prop_oneof![3 => "[a-z0-9-]{1,12}", 1 => proptest::sample::select(NASTY).prop_map(String::from)]
}

fn engine() -> &'static SnippetEngine {
    static ENGINE: std::sync::OnceLock<SnippetEngine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(SnippetEngine::new)
}

/// Every provider the site knows without settings, besides `auto`.
fn every_known_provider() -> Vec<String> {
    known_providers().into_iter().map(|p| p.name).collect()
}

fn widget_example() -> impl Strategy<Value = Value> {
    (long_value(), long_value(), count(200).prop_flat_map(|n| proptest::collection::vec(short_value(), n)))
        .prop_map(|(text, context, sentences)| json!({"text": text, "context": context, "source_sentence": context, "sentences": sentences}))
}

/// The parts of a record that vary, before they are put together.
#[derive(Clone, Debug)]
struct Parts {
    library: String,
    task: &'static str,
    chat: bool,
    tags: Vec<String>,
    widgets: Vec<Value>,
    providers: Vec<String>,
    unknown_providers: usize,
    provider_id: String,
    value: String,
    weights_path: String,
    files: usize,
    /// The card, `README.md`; none when empty.
    card: String,
}

impl Parts {
    fn record(self) -> Value {
        let mut tags = self.tags;
        if self.chat {
            tags.push("conversational".into());
        }
        let provider_task = if self.chat && self.task == "text-generation" { "conversational" } else { self.task };
        let entry = json!({"providerId": self.provider_id, "status": "live", "task": provider_task});
        let mut mapping = Map::new();
        for provider in self.providers {
            let mut entry = entry.clone();
            if provider == "fal-ai" {
                entry["adapter"] = json!("lora");
                entry["adapterWeightsPath"] = json!(self.weights_path);
            }
            mapping.insert(provider, entry);
        }
        for n in 0..self.unknown_providers {
            mapping.insert(format!("made-up-{n}"), entry.clone());
        }
        let siblings: Vec<Value> =
            (0..self.files).map(|n| json!({"rfilename": format!("model-{n}-Q4_K_M.gguf"), "size": 1_000_000 + n})).collect();
        let value = self.value;
        json!({
            "library_name": self.library,
            "pipeline_tag": self.task,
            "tags": tags,
            "widgetData": self.widgets,
            "inferenceProviderMapping": mapping,
            "siblings": siblings,
            "cardData": {"base_model": value, "instance_prompt": value},
            "transformersInfo": {"auto_model": value, "processor": value},
            "config": {"architectures": [value], "model_type": value},
        })
    }
}

/// A record of any shape: each part as often empty as long.
fn any_record() -> impl Strategy<Value = Parts> {
    let libraries: Vec<String> =
        engine().catalogue().libraries().iter().map(|l| l.key.clone()).filter(|k| engine().has_snippets(k)).collect();
    let tasks: &'static [&str] = &[
        "text-generation", "image-text-to-text", "text-to-image", "sentence-similarity", "feature-extraction",
        "text-classification", "automatic-speech-recognition", "question-answering", "zero-shot-classification",
    ];
    let providers = every_known_provider();
    let n_providers = providers.len();
    (
        (proptest::sample::select(libraries), proptest::sample::select(tasks), any::<bool>()),
        count(3_000).prop_flat_map(|n| proptest::collection::vec(short_value(), n)),
        proptest::collection::vec(widget_example(), 0..3),
        (
            prop_oneof![proptest::sample::subsequence(providers.clone(), 0..=n_providers), Just(providers)],
            count(3_000),
            ("[a-z0-9]{1,12}", count(200)).prop_map(|(piece, times)| format!("org/{}", piece.repeat(times.max(1)))),
        ),
        (long_value(), long_value(), count(400)),
        card(),
    )
        .prop_map(|((library, task, chat), tags, widgets, (providers, unknown_providers, provider_id), (value, weights_path, files), card)| {
            Parts { library, task, chat, tags, widgets, providers, unknown_providers, provider_id, value, weights_path, files, card }
        })
}

/// A card of the shapes whose markup outgrows their text: tables whose
/// rows are padded to a wide header, quotes opened and closed by every
/// paragraph (up to past the depth that is kept), between hostile prose.
fn card() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        long_value().prop_map(|text| format!("{text}\n\n")),
        (1usize..600, count(600), 1usize..8).prop_map(|(columns, rows, tables)| {
            format!("|{}\n|{}\n{}\n", "a|".repeat(columns), "-|".repeat(columns), "x\n".repeat(rows)).repeat(tables)
        }),
        (prop_oneof![1usize..10, 55usize..70], count(4_000))
            .prop_map(|(depth, paragraphs)| format!("{} x\n\n", ">".repeat(depth)).repeat(paragraphs)),
    ];
    prop_oneof![Just(String::new()), proptest::collection::vec(piece, 1..4).prop_map(|pieces| pieces.concat())]
}

/// The shape with the most examples: a chat model served by every provider
/// the site knows, whose widget text every one of them quotes.
fn chat_everywhere() -> impl Strategy<Value = Parts> {
    (repeated(100..3_000usize), any_record()).prop_map(|(text, parts)| Parts {
        library: "transformers".into(),
        task: "text-generation",
        chat: true,
        widgets: vec![json!({"text": text})],
        providers: every_known_provider(),
        ..parts
    })
}

/// The size of the file `path` of the site `out`, if it was written.
fn size_of(out: &Path, path: &str) -> Option<usize> {
    fs::metadata(out.join(path)).ok().map(|meta| meta.len() as usize)
}

/// Builds `records` as one site and checks each model's files against its
/// record and card. A record with a card is built twice, with and without
/// it, under ids of the same length.
fn check(records: Vec<Parts>, site_src: &Path) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let models = dir.path().join("models");
    let mut lengths = Vec::new();
    let mut cards = Vec::new();
    for (n, parts) in records.into_iter().enumerate() {
        let card = parts.card.clone();
        let mut record = parts.record();
        let ids = if card.is_empty() { vec![format!("size/m{n}")] } else { vec![format!("size/c{n}"), format!("size/b{n}")] };
        for (i, id) in ids.iter().enumerate() {
            record["id"] = json!(id);
            let text = serde_json::to_string(&record).unwrap();
            fs::create_dir_all(models.join(id)).unwrap();
            fs::write(models.join(id).join("model.json"), &text).unwrap();
            let with_card = i == 0 && !card.is_empty();
            if with_card {
                fs::write(models.join(id).join("README.md"), &card).unwrap();
            }
            lengths.push((id.clone(), text.len() + if with_card { card.len() } else { 0 }));
        }
        if !card.is_empty() {
            cards.push((ids[0].clone(), ids[1].clone(), card.len()));
        }
    }
    let out = dir.path().join("site");
    let options = BuildOptions {
        models_dir: models,
        out_dir: out.clone(),
        site_src: site_src.to_owned(),
        incremental: false,
        ..BuildOptions::default()
    };
    let report = build_site(&options, &NoProgress).unwrap();
    prop_assert!(report.errors.is_empty(), "{:?}", report.errors);
    for (id, length) in lengths {
        for file in [format!("{id}/index.html"), format!("api/models/{id}.json"), format!("{id}/notebook.ipynb")] {
            let Some(size) = size_of(&out, &file) else { continue };
            println!("{file}: {size} bytes from a {length}-byte record");
            prop_assert!(
                size <= PER_BYTE * length + FIXED,
                "{file} is {size} bytes from a record of {length}: over {PER_BYTE} x {length} + {FIXED}"
            );
        }
    }
    for (with, without, length) in cards {
        let page = |id: &str| size_of(&out, &format!("{id}/index.html")).unwrap();
        let share = page(&with).saturating_sub(page(&without));
        println!("{with}: the card's share of its page is {share} bytes from a {length}-byte card");
        prop_assert!(
            share <= CARD_PER_BYTE * length + CARD_FIXED,
            "{with}: a {length}-byte card adds {share} bytes to its page: over {CARD_PER_BYTE} x {length} + {CARD_FIXED}"
        );
    }
    Ok(())
}

#[test]
fn a_models_files_grow_at_most_linearly_with_its_record() {
    let site_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../site-src");
    let config = Config {
        cases: BUILDS,
        // A failing build can take long, and the inputs are large: a few
        // steps of shrinking, and the reason alone is reported.
        max_shrink_iters: 4,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let records = proptest::collection::vec(prop_oneof![any_record(), chat_everywhere()], RECORDS);
    match runner.run(&records, |records| check(records, &site_src)) {
        Ok(()) => {}
        Err(TestError::Fail(reason, _)) => panic!("{reason}"),
        Err(TestError::Abort(reason)) => panic!("{reason}"),
    }
}

/// A record of `task` served by every provider the site knows, whose widget
/// example is `widget`, and nothing else long.
fn served_everywhere(task: &'static str, chat: bool, widget: Value) -> Parts {
    Parts {
        library: "transformers".into(),
        task,
        chat,
        tags: Vec::new(),
        widgets: vec![widget],
        providers: every_known_provider(),
        unknown_providers: 0,
        provider_id: "org/model".into(),
        value: "value".into(),
        weights_path: "lora.safetensors".into(),
        files: 0,
        card: String::new(),
    }
}

/// `piece` repeated to `MAX_SAMPLE_BYTES`, after `prefix`.
fn filled(prefix: &str, piece: &str) -> String {
    let mut value = prefix.to_owned();
    while value.len() + piece.len() <= MAX_SAMPLE_BYTES {
        value.push_str(piece);
    }
    value
}

/// The worst cases, built on purpose rather than found by chance: widget
/// values of `MAX_SAMPLE_BYTES` whose literals are costliest on a page,
/// quoted by every client of every provider. `'\u{1}` is the case the
/// property test found (each character an escape in every language, each
/// escape highlighted as a token of its own): 12.9 MB of page before widget
/// values were bounded by their escapes too. The other two are the costliest
/// that are still used: as many escapes as are allowed among `&`s (each
/// written `&amp;`) or Python format placeholders (`%s`, each a token).
#[test]
fn escape_heavy_sample_inputs_stay_within_the_bound() {
    let site_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../site-src");
    let escapes = "\\&".repeat(MAX_SAMPLE_ESCAPE_BYTES);
    let values = [filled("", "'\u{1}"), filled("", "'"), filled(&escapes, "&"), filled(&escapes, "%s&")];
    let mut records = Vec::new();
    for value in values {
        records.push(served_everywhere("text-generation", true, json!({"text": value})));
        records.push(served_everywhere("question-answering", false, json!({"text": value, "context": value})));
    }
    if let Err(failure) = check(records, &site_src) {
        panic!("{failure}");
    }
}

/// The cards the property test looks for, built on purpose: tables of a
/// 512-column header over one-cell rows, each row padded to the header
/// (21 KB of them made a 17 MB page), and 64 quotes opened and closed by
/// every paragraph (204 KB made 5.2 MB).
#[test]
fn cards_of_padded_tables_and_deep_quotes_stay_within_the_bound() {
    let site_src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../site-src");
    let table = format!("|{}\n|{}\n{}\n", "a|".repeat(512), "-|".repeat(512), "x\n".repeat(512));
    let quotes = format!("{} x\n\n", ">".repeat(64));
    let records = [table.repeat(7), quotes.repeat(3_000)]
        .map(|card| Parts { card, ..served_everywhere("text-classification", false, json!({"text": "x"})) })
        .map(|parts| Parts { providers: Vec::new(), ..parts });
    if let Err(failure) = check(records.to_vec(), &site_src) {
        panic!("{failure}");
    }
}
