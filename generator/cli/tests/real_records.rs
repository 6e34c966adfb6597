//! Records shaped like real Hub API responses, end to end: the
//! default corpus's real-shaped records (zephyr-7b-beta, t5-small,
//! Meta-Llama-3-8B-Instruct, SDXL-Lightning and Llama-3.3-70B-Instruct as
//! `?expand[]=inferenceProviderMapping` returns them, a long real id, a
//! fixture whose name is 96 characters) plus records written here: one with
//! every descriptive Hub field of the wrong type, a model nothing can make
//! an example for, and a name of 97 characters.
//!
//! One build for every test: its pages, API files, notes and errors.

use std::fs;
use std::process::Command;
use std::sync::OnceLock;

use crate::common::*;
use serde_json::{json, Value};

const ZEPHYR: &str = "HuggingFaceH4/zephyr-7b-beta";
const T5: &str = "google-t5/t5-small";
const LLAMA3: &str = "meta-llama/Meta-Llama-3-8B-Instruct";
const SDXL: &str = "ByteDance/SDXL-Lightning";
const LLAMA33: &str = "meta-llama/Llama-3.3-70B-Instruct";
const SQUAD: &str = "deepset/roberta-base-squad2";
/// A real id of 88 characters.
const LONG_REAL: &str = "gorkaartola/ZS-train_SDG_max_ep_10_5xs_20x10_3xs_40x40_sim_cl_100_bs_16_lr_5e-06_al_0.35";
/// A name of exactly 96 characters: the most the Hub allows.
const NAME_96: &str =
    "modelpages-fixtures/a-fixture-whose-name-has-96-characters-as-many-as-the-hub-allows-after-the-slash-of-a-model-id-1";

/// Written here: every descriptive field of the wrong type.
const ODD: &str = "odd-fields/zephyr-like";
/// Written here: a library the catalogue does not know, a task hosted inference does not serve.
const SILENT: &str = "silent/unknown-library";

fn name_97() -> String {
    format!("ids/{}", "n".repeat(97))
}

fn built() -> &'static BuiltCorpus {
    static BUILT: OnceLock<BuiltCorpus> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = process_folder("real-records");
        let models = root.join("models");
        for id in [ZEPHYR, T5, LLAMA3, SDXL, LLAMA33, SQUAD, LONG_REAL, NAME_96] {
            copy_tree(&repo_root().join("models").join(id), &models.join(id));
        }
        let mut odd: Value = serde_json::from_slice(&fs::read(models.join(ZEPHYR).join("model.json")).unwrap()).unwrap();
        odd["id"] = json!(ODD);
        odd["gated"] = json!("yes");
        odd["safetensors"] = json!({"parameters": {"BF16": "7B"}, "total": 7241732096u64});
        odd["model-index"] = json!({"name": "zephyr-7b-beta"});
        odd["createdAt"] = json!(1698319549);
        odd["usedStorage"] = json!("43 GB");
        odd["spaces"] = json!("HuggingFaceH4/zephyr-chat");
        odd["cardData"]["base_model"] = json!({"id": "mistralai/Mistral-7B-v0.1"});
        write(&models, &format!("{ODD}/model.json"), &serde_json::to_string_pretty(&odd).unwrap());
        write(&models, &format!("{SILENT}/model.json"), &json!({"id": SILENT, "library_name": "not-a-library", "pipeline_tag": "robotics"}).to_string());
        write(&models, &format!("{}/model.json", name_97()), &json!({"id": name_97()}).to_string());
        let dist = root.join("dist");
        let run: Run = modelpages()
            .arg("build")
            .arg("--all-notes")
            .arg("--models").arg(&models)
            .arg("--out").arg(&dist)
            .arg("--site-src").arg(site_src())
            .output()
            .unwrap()
            .into();
        BuiltCorpus { models, dist, run }
    })
}

fn api(id: &str) -> Value {
    let path = built().dist.join(format!("api/models/{id}.json"));
    serde_json::from_slice(&fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

fn notes() -> Vec<&'static str> {
    built().run.stderr.lines().filter_map(|l| l.strip_prefix("note: ")).collect()
}

/// Every (provider, client, streaming) of the model's hosted examples.
fn hosted(doc: &Value) -> Vec<(String, String, bool)> {
    doc["examples"]["inference"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["provider"].as_str().unwrap().to_owned(), e["client"].as_str().unwrap().to_owned(), e["streaming"] == true))
        .collect()
}

/// Runs the examples checker on the models; how many examples passed.
fn check_examples(ids: &[&str]) -> usize {
    crate::common::check_examples(ids.iter().map(|id| built().models.join(id)))
}

#[test]
fn the_build_keeps_every_model_but_the_97_character_name() {
    let run = &built().run;
    assert_eq!(run.code, 1, "one model failed: {}", run.stderr);
    assert!(run.stderr.contains("built 10 models, 1 failed in"), "{}", run.stderr);
    let errors: Vec<&str> = run.stderr.lines().filter(|l| l.starts_with("error: ")).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains(&format!("{}/model.json", name_97())), "{}", errors[0]);
    assert!(errors[0].ends_with("model name (after the `/`) is 97 characters long; at most 96 are allowed"), "{}", errors[0]);
    // The name at 96 characters (116 in all) and the long real id have pages.
    for id in [NAME_96, LONG_REAL] {
        assert!(built().dist.join(id).join("index.html").is_file(), "{id}");
        assert_eq!(api(id)["id"], json!(id));
    }
    assert_eq!(NAME_96.split_once('/').unwrap().1.len(), 96);
}

#[test]
fn provider_tasks_give_hosted_examples_that_pass_the_checkers() {
    let sdxl = api(SDXL);
    assert_eq!(sdxl["task"], json!("text-to-image"), "the mapping's task: the record has no pipeline_tag");
    let examples = hosted(&sdxl);
    for (provider, client) in [("fal-ai", "fal_client"), ("fal-ai", "requests"), ("replicate", "huggingface_hub"), ("auto", "huggingface.js")] {
        assert!(examples.iter().any(|(p, c, _)| p == provider && c == client), "{provider} {client}: {examples:?}");
    }
    let fal = sdxl["examples"]["inference"].as_array().unwrap().iter().find(|e| e["provider"] == "fal-ai" && e["client"] == "requests").unwrap();
    assert!(fal["content"].as_str().unwrap().contains("fal-ai/lightning-models"), "the provider's own id: {fal}");

    let llama = api(LLAMA33);
    assert_eq!(llama["task"], json!("text-generation"), "`conversational` is text generation");
    let examples = hosted(&llama);
    for provider in ["together", "fireworks-ai", "groq", "cerebras"] {
        assert!(examples.iter().any(|(p, c, s)| p == provider && c == "openai" && !s), "{provider}: {examples:?}");
        assert!(examples.iter().any(|(p, _, s)| p == provider && *s), "{provider} streams: {examples:?}");
    }
    let chat = llama["examples"]["inference"].as_array().unwrap().iter().find(|e| e["provider"] == "groq" && e["client"] == "requests").unwrap();
    assert!(chat["content"].as_str().unwrap().contains("/v1/chat/completions"), "{chat}");
    assert!(chat["content"].as_str().unwrap().contains("meta-llama/Llama-3.3-70B-Instruct:groq"), "{chat}");

    let checked = check_examples(&[SDXL, LLAMA33]);
    assert!(checked >= examples.len() / 2, "{checked} examples checked");
}

#[test]
fn hub_fields_are_read_and_shown_in_the_api() {
    let llama3 = api(LLAMA3);
    assert_eq!(llama3["hub"]["gated"], json!("manual"));
    assert_eq!(llama3["hub"]["safetensors"], json!({"parameters": {"BF16": 8030261248u64}, "total": 8030261248u64}));
    assert_eq!(llama3["hub"]["created_at"], json!("2024-04-17T09:35:12.000Z"));
    let zephyr = api(ZEPHYR);
    assert_eq!(zephyr["hub"]["gated"], json!(false));
    assert_eq!(zephyr["hub"]["base_models"], json!(["mistralai/Mistral-7B-v0.1"]));
    assert_eq!(
        api(SDXL)["hub"],
        json!({"gated": null, "safetensors": null, "base_models": [], "created_at": null, "base_relations": [], "hidden": false})
    );
    // The zephyr record names its base by tag only: the relation is a fine-tune.
    assert_eq!(zephyr["hub"]["base_relations"], json!([{"id": "mistralai/Mistral-7B-v0.1", "relation": "finetune"}]));
    // Evaluation results and the rest, as the record crate reads them.
    let source = modelpages_record::ModelSource { dir: built().models.join(ZEPHYR), folder_id: ZEPHYR.into() };
    let record = modelpages_record::load_model(&source).unwrap().record;
    let results = record.evaluation_results();
    assert_eq!(results.len(), 4, "the corpus keeps four of the leaderboard's results");
    let drop = results.iter().find(|r| r.dataset.as_ref().and_then(|d| d.kind.as_deref()) == Some("drop")).unwrap();
    assert_eq!(drop.metrics[0].kind.as_deref(), Some("f1"));
    assert_eq!(record.used_storage.get(), Some(&43_587_527_997));
    assert!(!record.spaces.get().unwrap().is_empty());
    assert!(record.is_conversational());
    // No real record has a field the parser ignores.
    let ignored: Vec<&str> = notes().into_iter().filter(|n| n.contains("` ignored: ") && !n.starts_with(ODD)).collect();
    assert!(ignored.is_empty(), "{ignored:?}");
    // The checker validates the `hub` object against the schema.
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_site_files.py"))
        .arg("--dist")
        .arg(&built().dist)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn fields_of_the_wrong_type_are_notes_not_failures() {
    assert!(built().dist.join(ODD).join("index.html").is_file(), "the model still has its page");
    let odd_notes: Vec<&str> = notes().into_iter().filter(|n| n.starts_with(&format!("{ODD}: model.json: `"))).collect();
    for field in ["safetensors", "gated", "model-index", "createdAt", "usedStorage", "spaces", "cardData.base_model"] {
        let found = odd_notes.iter().filter(|n| n.starts_with(&format!("{ODD}: model.json: `{field}` ignored: "))).count();
        assert_eq!(found, 1, "{field}: {odd_notes:#?}");
    }
    assert_eq!(odd_notes.len(), 7, "{odd_notes:#?}");
    assert!(
        odd_notes.iter().any(|n| n.ends_with("`gated` ignored: expected false, \"auto\" or \"manual\", found another string")),
        "{odd_notes:#?}"
    );
    let doc = api(ODD);
    // `cardData.base_model` was ignored; the base its tags name is still a base.
    assert_eq!(
        doc["hub"],
        json!({"gated": null, "safetensors": null, "base_models": [], "created_at": null,
            "base_relations": [{"id": "mistralai/Mistral-7B-v0.1", "relation": "finetune"}], "hidden": false})
    );
    // Its examples are a zephyr's: nothing else of the record was lost.
    assert_eq!(doc["examples"]["library"].as_array().unwrap().len(), api(ZEPHYR)["examples"]["library"].as_array().unwrap().len());
}

#[test]
fn question_answering_reads_the_widgets_context() {
    let doc = api(SQUAD);
    let pipeline = doc["examples"]["library"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["content"].as_str().unwrap())
        .find(|c| c.contains("pipeline("))
        .unwrap();
    assert!(
        pipeline.contains("pipe(question=\"Where do I live?\", context=\"My name is Wolfgang and I live in Berlin\")"),
        "{pipeline}"
    );
    assert_eq!(pipeline.matches("Where do I live?").count(), 1, "{pipeline}");
}

#[test]
fn translation_and_chat_records_send_their_own_samples() {
    // t5-small's widget text, to translate, in the direct example.
    let t5 = api(T5);
    let direct = t5["examples"]["library"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap()).find(|c| c.contains("AutoModelForSeq2SeqLM")).unwrap();
    assert!(direct.contains("tokenizer(\"My name is Wolfgang and I live in Berlin\""), "{direct}");
    // A transformers record without transformersInfo: the class from its architecture.
    let fixture = api(NAME_96);
    let library: Vec<&str> = fixture["examples"]["library"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap()).collect();
    assert!(library.iter().any(|c| c.contains("AutoModelForSequenceClassification.from_pretrained")), "{library:#?}");
    assert!(library.iter().all(|c| !c.contains("Type of model unknown")), "{library:#?}");
    assert!(check_examples(&[T5, NAME_96, SQUAD, ZEPHYR, LLAMA3]) > 0);
}

#[test]
fn models_without_any_example_are_named_with_the_reason() {
    let silent: Vec<&str> = notes().into_iter().filter(|n| n.contains(": no usage examples: ")).collect();
    assert_eq!(silent.len(), 2, "{silent:#?}");
    let long = silent.iter().find(|n| n.starts_with(LONG_REAL)).expect("the record with only an id");
    assert!(long.ends_with("no library (the record has no library_name); no hosted inference without a task (no pipeline_tag, no provider task)"), "{long}");
    let unknown = silent.iter().find(|n| n.starts_with(SILENT)).expect("the unknown library");
    assert!(unknown.contains("library \"not-a-library\" is not in the catalogue"), "{unknown}");
    assert!(unknown.contains("hosted inference does not serve task \"robotics\""), "{unknown}");
    // Their pages still build, and show no example.
    let doc = api(SILENT);
    assert!(doc["examples"]["library"].as_array().unwrap().is_empty() && doc["examples"]["inference"].as_array().unwrap().is_empty());
    assert_eq!(doc["notebook"], Value::Null);
}
