//! The static JSON API and the notebooks, end to end: every file of the
//! default corpus validates (JSON Schema, nbformat), the checker catches
//! broken files, and a model without Python examples gets no notebook.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::*;
use serde_json::Value;

/// Runs `check_site_files.py` on a built site: (exit ok, stdout).
fn check_site_files(dist: &Path) -> (bool, String) {
    let out = Command::new("python3")
        .arg(repo_root().join("tests/checkers/check_site_files.py"))
        .arg("--dist")
        .arg(dist)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.stderr.is_empty() || out.status.success(), "checker crashed:\n{}", String::from_utf8_lossy(&out.stderr));
    (out.status.success(), stdout)
}

fn model_count(models: &Path) -> usize {
    walkdir::WalkDir::new(models).min_depth(3).max_depth(3).into_iter().filter(|e| e.as_ref().unwrap().file_name() == "model.json").count()
}

#[test]
fn every_api_file_and_notebook_of_the_default_corpus_validates() {
    let models = repo_root().join("models");
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    let run = build(&models, &dist, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (ok, report) = check_site_files(&dist);
    assert!(ok, "{report}");
    let count = model_count(&models);
    assert!(report.contains(&format!("checked {count} API files and ")), "an API file per model: {report}");
    let notebooks: usize = report.split("API files and ").nth(1).and_then(|r| r.split(' ').next()).unwrap().parse().unwrap();
    assert!(notebooks * 10 >= count * 8, "most corpus models have Python examples: {notebooks} notebooks for {count} models");
    // A check per API file, notebook and page of ids, then the two listings and the cross-checks.
    let id_pages = walkdir::WalkDir::new(dist.join("api")).min_depth(3).into_iter().filter(|e| {
        let e = e.as_ref().unwrap();
        e.file_type().is_file() && !e.path().starts_with(dist.join("api/models"))
    });
    let id_pages = id_pages.count();
    assert!(id_pages > 30, "{id_pages} pages of ids");
    assert!(report.trim_end().ends_with(&format!("{} passed, 0 failed", count + notebooks + id_pages + 3)), "{report}");

    // The checker is not a rubber stamp: break a notebook, an API file and a
    // listing and it names each.
    let notebook = dist.join("openai-community/gpt2/notebook.ipynb");
    let mut nb: Value = serde_json::from_slice(&fs::read(&notebook).unwrap()).unwrap();
    nb.as_object_mut().unwrap().remove("nbformat_minor");
    fs::write(&notebook, serde_json::to_vec(&nb).unwrap()).unwrap();
    let api = dist.join("api/models/FacebookAI/roberta-base.json");
    let mut doc: Value = serde_json::from_slice(&fs::read(&api).unwrap()).unwrap();
    doc["examples"]["inference"][0]["token_env"] = Value::from("hf_abc");
    fs::write(&api, serde_json::to_vec(&doc).unwrap()).unwrap();
    fs::remove_file(dist.join("api/models/microsoft/phi-2.json")).unwrap();
    let (ok, report) = check_site_files(&dist);
    assert!(!ok, "{report}");
    for expected in [
        "openai-community/gpt2/notebook.ipynb: not a valid notebook: 'nbformat_minor' is a required property",
        "roberta-base.json: examples/inference/0/token_env: 'hf_abc' does not match",
        "cross-checks: microsoft/phi-2: listed but has no API file",
    ] {
        assert!(report.contains(expected), "missing {expected:?} in:\n{report}");
    }
}

#[test]
fn only_models_with_python_examples_get_a_notebook_and_its_link() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    // transformers.js without a task: JavaScript and npm only, no hosted inference.
    write(&models, "js/only/model.json", r#"{"id": "js/only", "library_name": "transformers.js"}"#);
    write(&models, "py/classifier/model.json",
        r#"{"id": "py/classifier", "library_name": "transformers", "pipeline_tag": "text-classification", "tags": ["x"]}"#);
    let dist = tmp.path().join("dist");
    let run = build_with(&["--base-url".as_ref(), "/hub/".as_ref()], &models, &dist, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);

    let js_page = fs::read_to_string(dist.join("js/only/index.html")).unwrap();
    assert!(!dist.join("js/only/notebook.ipynb").exists());
    assert!(!js_page.contains("Download notebook") && !js_page.contains("notebook.ipynb"), "no link without a notebook");
    let js_api: Value = serde_json::from_slice(&fs::read(dist.join("api/models/js/only.json")).unwrap()).unwrap();
    assert_eq!(js_api["notebook"], Value::Null);
    assert!(js_api["examples"]["library"].as_array().unwrap().iter().all(|e| e["language"] != "python"), "{js_api}");
    assert_eq!(js_api["page"], "/hub/js/only/");

    let py_page = fs::read_to_string(dist.join("py/classifier/index.html")).unwrap();
    assert!(py_page.contains(r#"<a href="/hub/py/classifier/notebook.ipynb" download>Download notebook</a>"#), "{py_page}");
    let py_api: Value = serde_json::from_slice(&fs::read(dist.join("api/models/py/classifier.json")).unwrap()).unwrap();
    assert_eq!(py_api["notebook"], "/hub/py/classifier/notebook.ipynb");
    assert_eq!(py_api["task"], "text-classification");
    let notebook: Value = serde_json::from_slice(&fs::read(dist.join("py/classifier/notebook.ipynb")).unwrap()).unwrap();
    let sources: Vec<String> = notebook["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect())
        .collect();
    assert!(sources.iter().any(|s| s.contains("%pip install -U transformers")), "{sources:?}");
    assert!(sources.iter().any(|s| s.contains("os.environ[\"HF_TOKEN\"]")), "{sources:?}");
    let (ok, report) = check_site_files(&dist);
    assert!(ok, "{report}");
}

#[cfg(unix)]
#[test]
fn unchanged_models_keep_their_notebook_and_api_file_across_incremental_builds() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 6, "first");
    let dist = tmp.path().join("dist");
    assert_eq!(build(&models, &dist, &site_src()).code, 0);
    let kept = [dist.join("ns1/model-1/notebook.ipynb"), dist.join("api/models/ns1/model-1.json")];
    let before: Vec<u64> = kept.iter().map(|p| inode(p)).collect();

    write(&models, "ns2/model-2/model.json", r#"{"id": "ns2/model-2", "library_name": "transformers.js"}"#);
    let run = build(&models, &dist, &site_src());
    assert!(run.stderr.contains("(1 rendered, 5 unchanged)"), "{}", run.stderr);
    let after: Vec<u64> = kept.iter().map(|p| inode(p)).collect();
    assert_eq!(before, after, "unchanged models' files are linked, not rewritten");
    assert!(!dist.join("ns2/model-2/notebook.ipynb").exists(), "a model that lost its Python examples loses its notebook");

    let full = tmp.path().join("full");
    let run = full_build(&models, &full, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(snapshot(&dist), snapshot(&full), "incremental output equals a full build");
}
