//! The synthetic corpus: deterministic, valid for the record loader, and in
//! roughly the Hub's proportions.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use modelpages_record::{discover, load_model, parse_record, ModelCard, ModelId, ModelRecord};
use modelpages_synth::{synthetic_model, write_synthetic_corpus, SynthModel, BODY_MAX, BODY_MIN};
use serde_json::Value;

fn data_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../snippets/data").join(name)
}

/// Every file under `root`, by relative path.
fn tree(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(root)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().strip_prefix(root).unwrap().to_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

fn corpus(count: usize, seed: u64) -> Vec<(SynthModel, ModelRecord)> {
    (0..count)
        .map(|i| {
            let model = synthetic_model(seed, i, count);
            let record = parse_record(Path::new("model.json"), model.record_json.as_bytes())
                .unwrap_or_else(|e| panic!("{}: {e}", model.id));
            (model, record)
        })
        .collect()
}

#[test]
fn same_seed_same_bytes_other_seed_other_bytes() {
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (dir, seed) in dirs.iter().zip([7, 7, 8]) {
        let report = write_synthetic_corpus(dir.path(), 300, seed).unwrap();
        assert_eq!(report.models, 300);
        assert_eq!(report.namespaces, 15, "300 models in 300/20 namespaces");
    }
    let (a, b, c) = (tree(dirs[0].path()), tree(dirs[1].path()), tree(dirs[2].path()));
    assert_eq!(a.len(), 600, "a model.json and a README.md per model");
    assert!(a == b, "the same seed gives byte-identical trees");
    assert!(a != c, "another seed gives another corpus");
    // The in-memory model is what is written, whatever the thread order.
    let first = synthetic_model(7, 0, 300);
    let path = PathBuf::from(&first.id);
    assert_eq!(a[&path.join("model.json")], first.record_json.as_bytes());
    assert_eq!(a[&path.join("README.md")], first.card.as_bytes());
}

#[test]
fn refuses_a_folder_that_is_not_empty() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keep.txt"), "x").unwrap();
    let err = write_synthetic_corpus(dir.path(), 3, 1).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn every_record_loads_and_validates() {
    let dir = tempfile::tempdir().unwrap();
    write_synthetic_corpus(dir.path(), 1000, 1).unwrap();
    let found = discover(dir.path()).unwrap();
    assert!(found.errors.is_empty(), "{:?}", found.errors);
    assert_eq!(found.sources.len(), 1000);
    let mut lower_ids = HashSet::new();
    for source in &found.sources {
        let bytes = std::fs::read(source.record_path()).unwrap();
        parse_record(&source.record_path(), &bytes).unwrap();
        let model = load_model(source).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(model.id.as_str(), source.folder_id);
        assert!(model.id.name().len() <= modelpages_record::MAX_NAME_LEN && model.id.namespace().len() <= modelpages_record::MAX_NAMESPACE_LEN);
        assert!(model.id.namespace().starts_with("synth-"), "{}", model.id);
        assert!(lower_ids.insert(model.id.as_str().to_ascii_lowercase()), "duplicate id {}", model.id);
        let card = model.card.expect("every model has a card");
        let licensed = card.front_matter_fields.iter().any(|f| f == "license") && !model.record.card_meta().license.is_empty();
        assert!(licensed, "{}: front matter has a license", model.id);
    }
}

#[test]
fn proportions_hold_on_2000_models() {
    let models = corpus(2000, 1);
    let n = models.len() as f64;
    let share = |pred: &dyn Fn(&ModelRecord) -> bool| models.iter().filter(|(_, r)| pred(r)).count() as f64 / n;

    let transformers = share(&|r| r.library() == Some("transformers"));
    assert!((0.35..=0.55).contains(&transformers), "transformers {transformers}");
    for (library, least) in [
        ("diffusers", 0.04),
        ("sentence-transformers", 0.03),
        ("timm", 0.015),
        ("peft", 0.04),
        ("gguf", 0.025),
        ("mlx", 0.02),
    ] {
        let s = share(&|r| r.library() == Some(library));
        assert!(s >= least && s < 0.15, "{library} {s}");
    }
    let text_generation = share(&|r| r.task() == Some("text-generation"));
    let text_classification = share(&|r| r.task() == Some("text-classification"));
    assert!(text_generation > 0.15 && text_classification > 0.04, "{text_generation} {text_classification}");

    let chat_capable: Vec<&ModelRecord> = models
        .iter()
        .map(|(_, r)| r)
        .filter(|r| matches!(r.task(), Some("text-generation" | "image-text-to-text")))
        .collect();
    let conversational =
        chat_capable.iter().filter(|r| r.has_tag("conversational")).count() as f64 / chat_capable.len() as f64;
    assert!((0.27..=0.40).contains(&conversational), "conversational {conversational}");
    assert!(models.iter().all(|(_, r)| !r.has_tag("conversational") || chat_capable.iter().any(|c| c.id == r.id)));

    let providers = share(&|r| r.inference_provider_mapping.is_some());
    assert!((0.03..=0.08).contains(&providers), "inference providers {providers}");

    // Long tail: many models with few downloads, a few with very many.
    let mut downloads: Vec<u64> = models.iter().map(|(_, r)| r.downloads.unwrap()).collect();
    downloads.sort_unstable();
    assert!(downloads[1000] < 1_000 && downloads[1990] > 100_000, "{} {}", downloads[1000], downloads[1990]);

    let mut namespaces = HashSet::new();
    for (model, record) in &models {
        let id = ModelId::parse(&record.id).unwrap();
        namespaces.insert(id.namespace().to_owned());
        let date = record.last_modified.as_deref().unwrap();
        assert!(("2023".."2027").contains(&&date[..4]), "{date}");

        let card = ModelCard::parse(&model.card).unwrap();
        assert!((BODY_MIN..=BODY_MAX).contains(&card.body.len()), "{}: body of {} bytes", record.id, card.body.len());
        let fences = card.body.lines().filter(|l| l.starts_with("```")).count();
        assert!(fences % 2 == 0 && (1..=3).contains(&(fences / 2)), "{}: {fences} fences", record.id);
        for needle in ["\n## ", "\n| ", "\n- "] {
            assert!(card.body.contains(needle), "{}: no {needle:?}", record.id);
        }
        // The README.md sibling has the card's real size.
        let readme = record.siblings.iter().find(|s| s.rfilename == "README.md").unwrap();
        assert_eq!(readme.size, Some(model.card.len() as u64));

        if record.library() == Some("transformers") {
            let info = record.transformers_info.as_ref().expect("transformers models have transformersInfo");
            assert!(info.auto_model.as_deref().is_some_and(|a| a.starts_with("Auto")), "{}", record.id);
            assert!(info.processor.as_deref().is_some_and(|p| p.starts_with("Auto")), "{}", record.id);
            let archs = &record.config.as_ref().unwrap()["architectures"];
            assert!(archs.as_array().is_some_and(|a| !a[0].as_str().unwrap().is_empty()), "{}", record.id);
        }
    }
    assert!(namespaces.len() > 60, "{} namespaces", namespaces.len());
}

#[test]
fn libraries_come_from_the_catalogue() {
    let catalogue: Value = serde_json::from_slice(&std::fs::read(data_file("libraries.json")).unwrap()).unwrap();
    let keys: HashSet<&str> = catalogue.as_array().unwrap().iter().map(|l| l["key"].as_str().unwrap()).collect();
    let models = corpus(3000, 2);
    let used: HashSet<&str> = models.iter().filter_map(|(_, r)| r.library()).collect();
    assert!(used.len() > 30, "a long tail of libraries: {}", used.len());
    for key in used {
        // gguf is the Hub's own tag for llama.cpp repositories.
        assert!(key == "gguf" || keys.contains(key), "{key} is not in libraries.json");
    }
}

#[test]
fn every_inference_task_is_in_1000_models() {
    let tasks: Value = serde_json::from_slice(&std::fs::read(data_file("inference_tasks.json")).unwrap()).unwrap();
    for seed in [1, 99] {
        let models = corpus(1000, seed);
        let present: HashSet<&str> = models.iter().filter_map(|(_, r)| r.task()).collect();
        for task in tasks.as_array().unwrap() {
            let task = task["task"].as_str().unwrap();
            assert!(present.contains(task), "seed {seed}: no {task} model");
        }
    }
}

#[test]
fn provider_mappings_have_the_hubs_shapes() {
    let models = corpus(4000, 3);
    let (mut object, mut list, mut chat, mut fal, mut lora) = (0, 0, 0, 0, 0);
    for (_, record) in &models {
        let Some(mapping) = &record.inference_provider_mapping else { continue };
        let entries: Vec<&Value> = match mapping {
            Value::Object(map) => {
                object += 1;
                map.values().collect()
            }
            Value::Array(items) => {
                list += 1;
                assert!(items.iter().all(|e| e["provider"].is_string()));
                items.iter().collect()
            }
            other => panic!("{}: {other}", record.id),
        };
        for entry in entries {
            let task = entry["task"].as_str().unwrap();
            let provider_id = entry["providerId"].as_str().unwrap();
            assert!(!provider_id.is_empty() && !provider_id.contains(".."), "{provider_id}");
            if task == "conversational" {
                chat += 1;
                assert!(record.has_tag("conversational"), "{}", record.id);
            }
            if provider_id.starts_with("fal-ai/") {
                fal += 1;
            }
            if entry["adapter"] == "lora" {
                lora += 1;
                let path = entry["adapterWeightsPath"].as_str().unwrap();
                assert!(record.siblings.iter().any(|s| s.rfilename == path), "{}: {path}", record.id);
            }
        }
    }
    assert!(object > 0 && list > 0 && chat > 0 && fal > 0 && lora > 0, "{object} {list} {chat} {fal} {lora}");
}

#[test]
fn some_gguf_repositories_hold_many_quantizations() {
    let models = corpus(4000, 1);
    let mut many = 0;
    let mut sharded = 0;
    for (_, record) in &models {
        let ggufs: Vec<_> = record.siblings.iter().filter(|s| s.rfilename.ends_with(".gguf")).collect();
        if ggufs.len() > 1 {
            many += 1;
            assert!(ggufs.iter().any(|s| s.rfilename.contains("-Q4_K_M")), "{}", record.id);
            assert!(ggufs.iter().all(|s| s.size.is_some_and(|b| b > 10_000_000)), "{}", record.id);
            if ggufs.iter().any(|s| s.rfilename.contains("-00001-of-")) {
                sharded += 1;
            }
        }
    }
    let share = many as f64 / models.len() as f64;
    assert!((0.01..=0.03).contains(&share), "gguf repositories with many files: {share}");
    assert!(sharded > 0, "some quantizations are sharded");
}

#[test]
fn a_minimal_corpus_has_the_same_ids_and_listing_fields_and_no_cards() {
    let (full, minimal) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    write_synthetic_corpus(full.path(), 200, 3).unwrap();
    let report = modelpages_synth::write_shaped_corpus(minimal.path(), 200, 3, modelpages_synth::Shape::Minimal).unwrap();
    assert_eq!(report.models, 200);
    let (full_tree, minimal_tree) = (tree(full.path()), tree(minimal.path()));
    assert_eq!(minimal_tree.len(), 200, "a model.json per model, no README.md");
    assert!(minimal_tree.keys().all(|p| p.ends_with("model.json")));
    let records = |t: &BTreeMap<PathBuf, Vec<u8>>| -> Vec<ModelRecord> {
        t.iter().filter(|(p, _)| p.ends_with("model.json")).map(|(p, b)| parse_record(p, b).unwrap()).collect()
    };
    let (full_records, minimal_records) = (records(&full_tree), records(&minimal_tree));
    assert_eq!(full_records.len(), minimal_records.len());
    let mut smaller = 0;
    for (f, m) in full_records.iter().zip(&minimal_records) {
        assert_eq!((&f.id, f.task(), f.library()), (&m.id, m.task(), m.library()));
        assert!(m.downloads.is_some() && m.likes.is_some() && !m.tags.is_empty(), "{}", m.id);
        assert!(m.siblings.is_empty() && m.card_data.is_none() && m.config.is_none(), "{}", m.id);
        smaller += usize::from(minimal_tree[&PathBuf::from(&m.id).join("model.json")].len() * 2 < full_tree[&PathBuf::from(&f.id).join("model.json")].len());
    }
    assert!(smaller > 150, "minimal records are much smaller: {smaller} of 200");
}
