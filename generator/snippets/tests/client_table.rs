//! Adding an OpenAI-compatible client is one row in the client table and
//! its template: here a litellm-style Python client, added from a fixture,
//! gets an example wherever chat completions can be called, and each one
//! passes python3's parser and pyflakes.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use modelpages_record::ModelRecord;
use modelpages_snippets::inference::{client, ClientKind, BodyFormat, CLIENTS};
use modelpages_snippets::{InferenceOptions, InferenceSettings, Language, SnippetEngine};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The built-in templates, as `(name, source)`, read from the crate.
fn builtin_templates() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let mut templates = Vec::new();
    let mut folders = vec![dir.clone()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let name = path.strip_prefix(&dir).unwrap().to_string_lossy().replace('\\', "/");
                templates.push((name, fs::read_to_string(&path).unwrap()));
            }
        }
    }
    templates
}

/// The one template of the new client.
const LITELLM: &str = include_str!("fixtures/litellm/conversational.jinja");

fn engine_with_litellm() -> SnippetEngine {
    let mut templates = builtin_templates();
    templates.push(("inference/python/litellm/conversational.jinja".into(), LITELLM.into()));
    let mut clients = CLIENTS.to_vec();
    // The whole of adding the client: one row.
    clients.push(client(Language::Python, "litellm", ClientKind::OpenAi, BodyFormat::Python, Some(&["conversational"])));
    SnippetEngine::with_templates(templates).unwrap().with_clients(clients)
}

fn chat_record() -> ModelRecord {
    serde_json::from_value(serde_json::json!({
        "id": "meta-llama/Llama-3.1-8B-Instruct",
        "pipeline_tag": "text-generation",
        "tags": ["conversational"],
        "inferenceProviderMapping": {
            "together": {"providerId": "meta-llama/Meta-Llama-3.1-8B-Instruct-Turbo", "status": "live", "task": "conversational"}
        }
    }))
    .unwrap()
}

/// Runs the examples checker over `dir`: (passed, failed).
fn check_dir(dir: &Path) -> (usize, usize, String) {
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_snippets.py"))
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let last = stdout.lines().last().unwrap_or("").to_owned();
    let (passed, failed) = last.split_once(" passed, ").unwrap_or_else(|| panic!("no closing line in\n{stdout}"));
    (passed.parse().unwrap(), failed.trim_end_matches(" failed").parse().unwrap(), stdout)
}

#[test]
fn a_new_openai_compatible_client_is_one_row_and_one_template() {
    let engine = engine_with_litellm();
    let settings = InferenceSettings::default();
    let options = InferenceOptions { temperature: Some(0.5), bill_to: Some("acme".into()), ..InferenceOptions::default() };
    let examples = engine.inference_examples(&chat_record(), &settings, &options).unwrap();
    let litellm: Vec<_> = examples.snippets.iter().filter(|s| s.client == "litellm").collect();
    let providers: Vec<&str> = litellm.iter().map(|s| s.provider.as_str()).collect();
    assert_eq!(providers, ["auto", "hf-inference", "together"], "every route with an OpenAI-compatible URL");
    let together = litellm[2];
    assert!(together.content.contains(r#"model="openai/" + "meta-llama/Llama-3.1-8B-Instruct:together""#), "{}", together.content);
    assert!(together.content.contains(r#"api_base="https://router.huggingface.co/v1""#), "{}", together.content);
    assert_eq!(together.token_env, "HF_TOKEN");
    // The built-in clients are unchanged by the new row.
    let builtin = SnippetEngine::new().inference_examples(&chat_record(), &settings, &options).unwrap();
    let others: Vec<_> = examples.snippets.iter().filter(|s| s.client != "litellm").cloned().collect();
    assert_eq!(others, builtin.snippets);

    let dir = tempfile::tempdir().unwrap();
    for (i, example) in litellm.iter().enumerate() {
        fs::write(dir.path().join(format!("litellm-{i}.py")), &example.content).unwrap();
    }
    let (passed, failed, report) = check_dir(dir.path());
    assert_eq!((passed, failed), (3, 0), "{report}");
}

#[test]
fn the_checker_fails_a_broken_client_template() {
    // The same check, on a template with an undefined name: it must fail,
    // or the test above proves nothing.
    let dir = tempfile::tempdir().unwrap();
    let engine = engine_with_litellm();
    let examples = engine.inference_examples(&chat_record(), &InferenceSettings::default(), &InferenceOptions::default()).unwrap();
    let example = examples.snippets.iter().find(|s| s.client == "litellm").unwrap();
    fs::write(dir.path().join("broken.py"), example.content.replace("print(response", "print(respons")).unwrap();
    let (passed, failed, report) = check_dir(dir.path());
    assert_eq!((passed, failed), (0, 1), "{report}");
}

#[test]
fn a_client_without_a_template_for_the_request_is_left_out() {
    // litellm has no streaming template: streaming chat gets no litellm example.
    let engine = engine_with_litellm();
    let options = InferenceOptions { streaming: true, ..InferenceOptions::default() };
    let examples = engine.inference_examples(&chat_record(), &InferenceSettings::default(), &options).unwrap();
    assert!(!examples.snippets.is_empty());
    assert!(examples.snippets.iter().all(|s| s.client != "litellm"));
}
