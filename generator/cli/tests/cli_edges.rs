//! The command line's rough edges: a closed pipe, out-of-range chat
//! options, unknown providers, empty or too-deep models folders, YAML
//! errors placed in the card file, the `libraries` JSON keys, the count of
//! provider mappings that are not live, and `check` rendering what `build`
//! renders.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::*;

const CHAT_MODEL: &str = "models/meta-llama/Llama-3.1-8B-Instruct";

fn run(args: &[&str]) -> (i32, String, String) {
    let out = modelpages().args(args).current_dir(repo_root()).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn check(models: &Path) -> Run {
    modelpages().arg("check").arg("--models").arg(models).arg("--site-src").arg(site_src()).output().unwrap().into()
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    let mut child = modelpages()
        .args(["snippets", CHAT_MODEL])
        .current_dir(repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader goes away before a byte is written: as `| head -0` would.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked") && !stderr.contains("error"), "{stderr}");
}

#[test]
fn chat_options_have_help_and_ranges() {
    let (code, help, _) = run(&["snippets", "--help"]);
    assert_eq!(code, 0);
    for text in ["Sampling temperature", "from 0 to 2", "at least 1", "at most 1"] {
        assert!(help.contains(text), "{text:?} in\n{help}");
    }
    for (option, value, says) in [
        ("--temperature", "2.5", "not from 0 to 2"),
        ("--temperature", "-1", "not from 0 to 2"),
        ("--temperature", "NaN", "not from 0 to 2"),
        ("--top-p", "0", "not above 0 and at most 1"),
        ("--top-p", "1.01", "not above 0 and at most 1"),
        ("--max-tokens", "0", "0 is not in 1.."),
    ] {
        // `--option=value`: a negative number would read as an option.
        let (code, _, stderr) = run(&["snippets", CHAT_MODEL, &format!("{option}={value}")]);
        assert_eq!(code, 2, "{option} {value}: {stderr}");
        assert!(stderr.contains(says), "{option} {value}: {says:?} in {stderr}");
    }
    let (code, stdout, stderr) =
        run(&["snippets", CHAT_MODEL, "--temperature", "0", "--top-p", "1", "--max-tokens", "1", "--provider", "auto"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("max_tokens"), "{stdout}");
}

#[test]
fn an_unknown_provider_is_an_error_naming_the_known_ones() {
    let (code, stdout, stderr) = run(&["snippets", CHAT_MODEL, "--provider", "auto", "--provider", "nope"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(stderr.contains("unknown provider \"nope\"; known providers: auto, hf-inference, "), "{stderr}");
    assert!(stderr.contains("fal-ai") && stderr.contains("together"), "{stderr}");
    let (code, _, stderr) = run(&["snippets", CHAT_MODEL, "--provider", "together"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn an_empty_or_too_deep_models_folder_warns() {
    let tmp = tempfile::tempdir().unwrap();
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty).unwrap();
    let run = check(&empty);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("warning: no models in {}: models are read from <namespace>/<name>/model.json", empty.display())), "{}", run.stderr);
    let run = build(&empty, &tmp.path().join("dist"), &site_src());
    assert!(run.stderr.contains("warning: no models in "), "{}", run.stderr);

    let models = tmp.path().join("models");
    write(&models, "org/one/model.json", r#"{"id": "org/one"}"#);
    let too_deep = models.join("org");
    let run = check(&too_deep);
    let hint = format!("it looks like one namespace's folder (its subfolders hold model.json); models are read from <namespace>/<name>/model.json, so try --models {}", models.display());
    assert!(run.stderr.contains(&hint), "{}", run.stderr);
    let run = check(&models);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);
}

#[test]
fn yaml_errors_name_the_card_line_and_column() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "org/card/model.json", r#"{"id": "org/card"}"#);
    // Line 4 of the file, where the flow list is broken off by a mapping.
    write(&models, "org/card/README.md", "---\nlicense: mit\ntags: [a, b\n  c: d\n---\n# Card\n");
    let run = check(&models);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let card = models.join("org/card/README.md");
    assert!(run.stderr.contains(&format!("error: {}:4:4: front matter is not valid YAML: ", card.display())), "{}", run.stderr);
    assert!(!run.stderr.contains(" at line "), "{}", run.stderr);
}

#[test]
fn libraries_json_keys_are_snake_case() {
    let (code, stdout, stderr) = run(&["libraries"]);
    assert_eq!(code, 0, "{stderr}");
    let libraries: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let libraries = libraries.as_array().unwrap();
    assert!(libraries.len() > 100);
    for library in libraries {
        for key in library.as_object().unwrap().keys() {
            assert!(key.chars().all(|c| c.is_ascii_lowercase() || c == '_'), "{key} in {library}");
        }
    }
    let diffusers = libraries.iter().find(|l| l["key"] == "diffusers").unwrap();
    assert_eq!((diffusers["pretty_label"].as_str(), diffusers["has_snippets"].as_bool()), (Some("Diffusers"), Some(true)));
}

#[test]
fn provider_mappings_that_are_not_live_are_counted_unless_all_notes_are_asked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    for (i, status) in ["staging", "error", "live"].iter().enumerate() {
        write(&models, &format!("org/chat-{i}/model.json"), &format!(
            r#"{{"id": "org/chat-{i}", "pipeline_tag": "text-generation", "tags": ["conversational"],
                "inferenceProviderMapping": {{"together": {{"providerId": "org/chat-{i}", "status": "{status}", "task": "conversational"}}}}}}"#
        ));
    }
    let run = build(&models, &tmp.path().join("dist"), &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(!run.stderr.contains("not live\n"), "{}", run.stderr);
    assert!(run.stderr.contains("note: 2 provider mappings not live, so without examples (--all-notes lists them)"), "{}", run.stderr);
    let all = build_with(&["--all-notes".as_ref()], &models, &tmp.path().join("dist"), &site_src());
    assert_eq!(all.code, 0, "{}", all.stderr);
    assert!(all.stderr.contains("note: org/chat-0: provider \"together\" is \"staging\", not live"), "{}", all.stderr);
    assert!(all.stderr.contains("note: org/chat-1: provider \"together\" is \"error\", not live"), "{}", all.stderr);
    assert!(!all.stderr.contains("provider mappings not live"), "{}", all.stderr);
    let checked = check(&models);
    assert!(checked.stderr.contains("note: 2 provider mappings not live"), "check prints the notes a build prints:\n{}", checked.stderr);
}

/// The site sources (templates and styles) copied under `tmp`, with
/// `inserted` put after `anchor` in the template `name`. Gives the copy, the
/// template's path and its text before the change.
fn site_src_with_broken_template(tmp: &Path, name: &str, anchor: &str, inserted: &str) -> (PathBuf, PathBuf, String) {
    let src = tmp.join("site-src");
    copy_tree(&site_src().join("templates"), &src.join("templates"));
    copy_tree(&site_src().join("static"), &src.join("static"));
    let path = src.join("templates").join(name);
    let template = fs::read_to_string(&path).unwrap();
    assert!(template.contains(anchor), "{name} has no {anchor:?}");
    fs::write(&path, template.replacen(anchor, &format!("{anchor}{inserted}"), 1)).unwrap();
    (src, path, template)
}

/// Builds `models` with the site sources `src` (the build must fail), then
/// checks them: what `check` said.
fn build_and_check(models: &Path, tmp: &Path, src: &Path) -> Run {
    let built = build(models, &tmp.join("dist"), src);
    assert_eq!(built.code, 1, "{}", built.stderr);
    modelpages().arg("check").arg("--models").arg(models).arg("--site-src").arg(src).output().unwrap().into()
}

#[test]
fn check_renders_the_pages_a_build_renders() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "org/fine/model.json", r#"{"id": "org/fine", "library_name": "transformers", "pipeline_tag": "text-classification"}"#);
    write(&models, "org/broken/model.json", r#"{"id": "org/broken"}"#);
    // A page template that fails for one model only, as a template bug that
    // only some records reach would.
    let (src, page, template) =
        site_src_with_broken_template(tmp.path(), "model.html", "{% block meta %}", "{% if model.id == \"org/broken\" %}{{ model.no_such_field }}{% endif %}");

    let checked = build_and_check(&models, tmp.path(), &src);
    assert_eq!(checked.code, 1, "a clean check promises a clean build:\n{}", checked.stderr);
    assert!(checked.stderr.contains("model.html") && checked.stderr.contains("no_such_field"), "{}", checked.stderr);
    // With the page template whole, both pass.
    fs::write(&page, template).unwrap();
    let checked = check(&models);
    assert_eq!(checked.code, 0, "{}", checked.stderr);
    assert!(checked.stderr.contains("checked 2 models, 0 failed"), "{}", checked.stderr);
}

#[test]
fn check_renders_the_model_tree_a_build_renders() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    write(&models, "org/base/model.json", r#"{"id": "org/base", "library_name": "transformers", "pipeline_tag": "text-generation"}"#);
    write(&models, "org/tuned/model.json", r#"{"id": "org/tuned", "library_name": "transformers", "pipeline_tag": "text-generation", "tags": ["base_model:org/base"]}"#);
    // A tree template that fails only on a page listing derivatives: only
    // the pass that renders pages with the whole corpus's tree reaches it.
    let (src, ..) = site_src_with_broken_template(
        tmp.path(),
        "model/tree.html",
        "{%- set tree = model.facts.tree %}",
        "{% if tree.derivatives %}{{ model.no_such_field }}{% endif %}",
    );

    let checked = build_and_check(&models, tmp.path(), &src);
    assert_eq!(checked.code, 1, "check renders pages with the model tree, as the build does:\n{}", checked.stderr);
    assert!(checked.stderr.contains("model/tree.html"), "{}", checked.stderr);
}
