//! Usage examples, end to end: every example the corpus produces passes its
//! language's real checker, hostile record values stay data, and the
//! catalogue and library pages are complete.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;
use modelpages_testkit::records::{record_json, RecordParts, MEANINGFUL_TAGS};
use serde_json::{json, Value};

/// Quotes, backslashes, newlines, triple quotes, template and command
/// substitution, a script end tag and a line separator.
const HOSTILE: &str = "MPHOSTILE\"'\\\n\"\"\"${x}`$(y)</script>\u{2028} # end";

fn checker() -> Command {
    let mut cmd = Command::new("python3");
    cmd.arg(repo_root().join("tests/checkers/check_snippets.py"));
    cmd
}

/// Runs the checker over model folders; returns how many examples passed.
fn check_models(dirs: &[PathBuf], literal: Option<&str>) -> usize {
    check_models_with(dirs, literal, "")
}

/// Like `check_models`, with `options` added to every `modelpages snippets` call.
fn check_models_with(dirs: &[PathBuf], literal: Option<&str>, options: &str) -> usize {
    let mut cmd = checker();
    // `--args=...` in one word: argparse would read a value starting with `--` as an option.
    cmd.arg("--bin").arg(env!("CARGO_BIN_EXE_modelpages")).arg(format!("--args={options}"));
    if let Some(literal) = literal {
        cmd.arg("--literal").arg(literal);
    }
    let out = cmd.args(dirs).output().expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().last().unwrap_or("");
    assert!(out.status.success(), "checker failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let (passed, failed) = last.split_once(" passed, ").expect("closing line");
    assert_eq!(failed, "0 failed");
    passed.parse().unwrap()
}

fn corpus_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for ns in fs::read_dir(repo_root().join("models")).unwrap() {
        for model in fs::read_dir(ns.unwrap().path()).unwrap() {
            let path = model.unwrap().path();
            if path.join("model.json").is_file() {
                dirs.push(path);
            }
        }
    }
    dirs.sort();
    dirs
}

fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn libraries() -> Vec<Value> {
    json_of(modelpages().arg("libraries")).as_array().unwrap().clone()
}

#[test]
fn every_corpus_example_passes_its_checker() {
    let dirs = corpus_dirs();
    let with_examples = dirs
        .iter()
        .filter(|d| {
            let v = json_of(modelpages().arg("snippets").arg(d));
            v["library"]["snippets"].as_array().is_some_and(|s| !s.is_empty())
        })
        .count();
    let passed = check_models(&dirs, None);
    assert!(passed >= with_examples, "{passed} examples checked for {with_examples} models with examples");
}

#[test]
fn every_library_with_examples_has_a_corpus_model() {
    let mut used = std::collections::BTreeSet::new();
    for dir in corpus_dirs() {
        let record: Value = serde_json::from_slice(&fs::read(dir.join("model.json")).unwrap()).unwrap();
        if let Some(lib) = record["library_name"].as_str() {
            used.insert(lib.to_owned());
        }
    }
    let missing: Vec<String> = libraries()
        .iter()
        .filter(|l| l["has_snippets"] == json!(true))
        .map(|l| l["key"].as_str().unwrap().to_owned())
        .filter(|k| !used.contains(k))
        .collect();
    assert!(missing.is_empty(), "libraries with examples but no model in models/: {missing:?}");
}

/// One hostile record per library with examples and per task it may see.
fn write_hostile_corpus(root: &Path) -> Vec<PathBuf> {
    let tasks = [
        "", "text-generation", "text-classification", "automatic-speech-recognition", "text-to-speech",
        "text-to-image", "image-classification", "feature-extraction", "sentence-similarity", "token-classification",
    ];
    let mut dirs = Vec::new();
    for library in libraries().iter().filter(|l| l["has_snippets"] == json!(true)) {
        let key = library["key"].as_str().unwrap();
        let mut own_tasks: Vec<&str> = library["tasks"].as_array().map(|t| t.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
        own_tasks.extend(tasks);
        own_tasks.dedup();
        for (i, task) in own_tasks.iter().enumerate() {
            let id = format!("hostile/{key}-{i}");
            let tags = MEANINGFUL_TAGS.iter().map(|t| (*t).to_owned()).collect();
            let parts = RecordParts::filled(key, (!task.is_empty()).then_some(*task), tags, HOSTILE);
            let mut record = record_json(&parts);
            record["id"] = json!(id);
            let dir = root.join(&id);
            fs::create_dir_all(&dir).unwrap();
            fs::write(dir.join("model.json"), serde_json::to_vec_pretty(&record).unwrap()).unwrap();
            dirs.push(dir);
        }
    }
    dirs
}

#[test]
fn hostile_record_values_stay_data() {
    let tmp = tempfile::tempdir().unwrap();
    let dirs = write_hostile_corpus(tmp.path());
    assert!(dirs.len() > 125 * 5, "{} hostile records", dirs.len());
    let passed = check_models(&dirs, Some(HOSTILE));
    assert!(passed >= dirs.len(), "{passed} examples for {} records", dirs.len());
}

#[test]
fn every_inference_example_passes_its_checker_with_every_option_set() {
    // Only models hosted inference serves: the library examples are checked above.
    let dirs: Vec<PathBuf> = corpus_dirs()
        .into_iter()
        .filter(|d| !json_of(modelpages().arg("snippets").arg(d))["inference"].as_array().unwrap().is_empty())
        .collect();
    assert!(dirs.len() >= 60, "{} corpus models have inference examples", dirs.len());
    for options in [
        "",
        "--streaming",
        "--bill-to acme-org --temperature 0.5 --max-tokens 256 --top-p 0.9",
        "--direct-request",
        "--endpoint-url http://localhost:8080/v1",
    ] {
        let passed = check_models_with(&dirs, None, options);
        assert!(passed > dirs.len(), "options {options:?}: {passed} examples");
    }
}

#[test]
fn libraries_command_prints_the_catalogue() {
    let libs = libraries();
    assert_eq!(libs.len(), 257);
    for lib in &libs {
        for field in ["key", "pretty_label", "repo_name", "repo_url", "filter", "has_snippets"] {
            assert!(lib.get(field).is_some(), "{field} missing in {lib}");
        }
    }
    let with = libs.iter().filter(|l| l["has_snippets"] == json!(true)).count();
    assert!(with >= 125, "{with} libraries have examples");
    let diffusers = libs.iter().find(|l| l["key"] == "diffusers").unwrap();
    assert_eq!(diffusers["pretty_label"], "Diffusers");
    assert!(diffusers["docs_url"].as_str().unwrap().starts_with("https://"));
}

#[test]
fn snippets_command_prints_library_and_inference() {
    let dir = repo_root().join("models/meta-llama/Llama-3.1-8B-Instruct");
    for path in [dir.clone(), dir.join("model.json")] {
        let v = json_of(modelpages().arg("snippets").arg(&path));
        assert_eq!(v["id"], "meta-llama/Llama-3.1-8B-Instruct");
        assert_eq!(v["library"]["key"], "transformers");
        assert_eq!(v["library"]["label"], "Transformers");
        let snippets = v["library"]["snippets"].as_array().unwrap();
        assert_eq!(snippets[0]["language"], "sh");
        assert!(snippets.iter().any(|s| s["language"] == "python" && s["content"].as_str().unwrap().contains("from transformers import")));
        assert!(v["inference"].is_array());
    }
    let out = modelpages().arg("snippets").arg("/no/such/model").output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("/no/such/model"));
}

#[test]
fn library_pages_list_libraries_and_their_models() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("dist");
    let run = build(&repo_root().join("models"), &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let listing = fs::read_to_string(out.join("libraries/index.html")).unwrap();
    for lib in libraries() {
        let key = lib["key"].as_str().unwrap();
        assert!(listing.contains(&format!("href=\"/libraries/{key}/\"")), "{key} listed");
        assert!(out.join("libraries").join(key).join("index.html").is_file(), "{key} page");
    }
    let transformers = fs::read_to_string(out.join("libraries/transformers/index.html")).unwrap();
    assert!(transformers.contains("href=\"/meta-llama/Llama-3.1-8B-Instruct/\""));
    assert!(transformers.contains("https://github.com/huggingface/transformers"));
    let page = fs::read_to_string(out.join("meta-llama/Llama-3.1-8B-Instruct/index.html")).unwrap();
    assert!(page.contains("href=\"/libraries/transformers/\""), "model page links its library page");
    assert!(page.contains("href=\"https://github.com/huggingface/transformers\""), "and its repository");
    assert!(page.contains("<span class=\"use-choice-name\">Transformers</span>"), "the library is a choice of the Use panel");
    assert!(page.contains("<span class=\"l"), "examples are highlighted");
    assert!(fs::read_to_string(out.join("sitemap.xml")).unwrap().contains("<loc>/libraries/transformers/</loc>"));
}

#[test]
fn corpus_covers_every_hosted_inference_task() {
    let table: Vec<Value> = serde_json::from_str(
        &fs::read_to_string(repo_root().join("generator/snippets/data/inference_tasks.json")).unwrap(),
    )
    .unwrap();
    let records: Vec<Value> = corpus_dirs()
        .iter()
        .map(|d| serde_json::from_slice(&fs::read(d.join("model.json")).unwrap()).unwrap())
        .collect();
    let tasks: Vec<&str> = records.iter().filter_map(|r| r["pipeline_tag"].as_str()).collect();
    for spec in &table {
        let task = spec["task"].as_str().unwrap();
        assert!(tasks.contains(&task), "no corpus model for task {task}");
    }
    let chat = |r: &&Value| {
        r["pipeline_tag"] == "image-text-to-text"
            || (r["pipeline_tag"] == "text-generation" && r["tags"].as_array().is_some_and(|t| t.contains(&json!("conversational"))))
    };
    let mapped = |r: &&Value| r["inferenceProviderMapping"].as_object().is_some_and(|m| !m.is_empty())
        || r["inferenceProviderMapping"].as_array().is_some_and(|m| !m.is_empty());
    assert!(records.iter().filter(chat).any(|r| mapped(&r)), "a chat model with providers");
    assert!(records.iter().filter(chat).any(|r| !mapped(&r)), "a chat model with none");
    let mappings: String = records.iter().map(|r| r["inferenceProviderMapping"].to_string()).collect();
    for task in ["text-to-image", "image-to-image", "image-to-video", "text-to-video"] {
        assert!(records.iter().any(|r| r["pipeline_tag"] == task && r["inferenceProviderMapping"].to_string().contains("fal-ai")), "fal-ai for {task}");
    }
    assert!(mappings.contains("\"adapter\":\"lora\""), "a fal-ai LoRA");
}

/// Records that get local apps (GGUF files, a transformers chat model, an MLX
/// model, a diffusers LoRA) with hostile ids of files, tags and texts.
#[test]
fn hostile_values_stay_data_in_local_app_commands_and_links() {
    let tmp = tempfile::tempdir().unwrap();
    let records = [
        json!({"id": "hostile/gguf", "pipeline_tag": "text-generation", "tags": [HOSTILE, "conversational"],
               "widgetData": [{"text": HOSTILE}],
               "siblings": [{"rfilename": format!("{HOSTILE}-Q4_K_M.gguf")}, {"rfilename": format!("{HOSTILE}/m-UD-Q2_K_XL-00001-of-00002.gguf")},
                            {"rfilename": format!("{HOSTILE}.gguf"), "size": 5}]}),
        json!({"id": "hostile/unlabelled", "pipeline_tag": "text-generation", "siblings": [{"rfilename": format!("{HOSTILE}.gguf")}]}),
        json!({"id": "hostile/chat", "pipeline_tag": "text-generation", "library_name": "transformers",
               "tags": [HOSTILE, "transformers", "text-generation-inference", "conversational"], "widgetData": [{"text": HOSTILE}]}),
        json!({"id": "hostile/base", "pipeline_tag": "text-generation", "library_name": "transformers", "widgetData": [{"text": HOSTILE}]}),
        json!({"id": "hostile/mlx", "pipeline_tag": "text-generation", "library_name": "mlx", "tags": ["mlx", HOSTILE], "widgetData": [{"text": HOSTILE}]}),
        json!({"id": "hostile/lora", "pipeline_tag": "text-to-image", "library_name": "diffusers", "tags": ["lora", "safetensors", HOSTILE]}),
    ];
    let mut dirs = Vec::new();
    for record in records {
        let dir = tmp.path().join(record["id"].as_str().unwrap());
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("model.json"), serde_json::to_vec(&record).unwrap()).unwrap();
        let apps = json_of(modelpages().arg("snippets").arg(&dir))["local_apps"].as_array().unwrap().len();
        assert!(apps > 0, "{} gets local apps", record["id"]);
        dirs.push(dir);
    }
    let passed = check_models(&dirs, Some(HOSTILE));
    assert!(passed > 40, "{passed} examples");
}

#[test]
fn snippets_command_prints_local_apps_with_files_beside_the_record() {
    let v = json_of(modelpages().arg("snippets").arg(repo_root().join("models/modelpages-fixtures/tiny-llama-GGUF")));
    let apps = v["local_apps"].as_array().unwrap();
    let llama = apps.iter().find(|a| a["app"] == "llama.cpp").unwrap();
    assert_eq!((&llama["kind"], &llama["language"], &llama["label"]), (&json!("command"), &json!("sh"), &json!("llama.cpp")));
    assert!(llama["content"].as_str().unwrap().contains("llama-server -hf 'modelpages-fixtures/tiny-llama-GGUF:Q4_K_M'"));
    let lmstudio = apps.iter().find(|a| a["app"] == "lmstudio").unwrap();
    assert_eq!((&lmstudio["kind"], &lmstudio["language"]), (&json!("deeplink"), &json!(null)));
    assert_eq!(lmstudio["content"], "lmstudio://open_from_hf?model=modelpages-fixtures/tiny-llama-GGUF");
    assert!(json_of(modelpages().arg("snippets").arg(repo_root().join("models/google/vit-base-patch16-224")))["local_apps"]
        .as_array()
        .unwrap()
        .is_empty());
}
