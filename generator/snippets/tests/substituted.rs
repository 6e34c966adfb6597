//! The engine reports, with the examples it makes, the model's own values
//! they quote: every record value a template quoted, whichever field it came
//! from, so the highlighter's shape cache never has to know which fields
//! templates read.

use std::path::Path;

use modelpages_record::ModelRecord;
use modelpages_snippets::escape::{js_str, py_str, sh_str};
use modelpages_snippets::SnippetEngine;
use serde_json::{json, Value};

fn record(value: Value) -> ModelRecord {
    serde_json::from_value(value).unwrap()
}

/// A library template that quotes record fields no template quoted before
/// (nothing in the engine names them): each value is reported, and the
/// template's own literal is not.
#[test]
fn a_template_quoting_a_new_field_has_its_value_reported() {
    let template = "from fixture import load\n\
                    load({{ id | py }}, weights={{ config.fixture.new_field | py }})\n\
                    load({{ card_data.other_field | py }}, {{ 'built-in-literal' | py }})\n";
    let engine = SnippetEngine::with_templates([("library/transformers/1-fixture.py".to_owned(), template.to_owned())]).unwrap();
    let r = record(json!({
        "id": "org/model", "library_name": "transformers",
        "config": {"fixture": {"new_field": "org/base-weights"}},
        "cardData": {"other_field": "value from the card"},
    }));
    let usage = engine.library_examples(&r).unwrap().unwrap();
    let text = &usage.snippets[0].content;
    for value in ["org/model", "org/base-weights", "value from the card"] {
        assert!(text.contains(value), "{text}");
        assert!(usage.values.iter().any(|v| v == value), "{value} reported: {:?}", usage.values);
    }
    assert!(text.contains("built-in-literal"));
    assert!(!usage.values.iter().any(|v| v == "built-in-literal"), "{:?}", usage.values);
}

/// Every string of a JSON value, lists and maps looked into.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// On the whole default corpus: a string of a model's record that one of its
/// library or local-app examples quotes as a literal (in the form the `py`,
/// `js` or `sh` filter gives it) is among the values reported with them,
/// unless the templates of that kind hold it themselves (a template that
/// builds a name equal to a record's is not quoting the record).
#[test]
fn every_record_value_the_examples_quote_is_reported_on_the_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = SnippetEngine::new();
    let mut checked = 0;
    for namespace in std::fs::read_dir(root.join("../../models")).unwrap() {
        for model in std::fs::read_dir(namespace.unwrap().path()).unwrap() {
            let Ok(text) = std::fs::read_to_string(model.unwrap().path().join("model.json")) else { continue };
            let json: Value = serde_json::from_str(&text).unwrap();
            let r: ModelRecord = serde_json::from_value(json.clone()).unwrap();
            // File names (`siblings`) reach no template as values: the GGUF
            // names local apps quote are the render crate's to take out.
            let mut record_strings = Vec::new();
            json.as_object().unwrap().iter().filter(|(k, _)| *k != "siblings").for_each(|(_, v)| strings(v, &mut record_strings));
            record_strings.retain(|s| s.len() >= 3);
            let mut kinds = Vec::new();
            if let Some(usage) = engine.library_examples(&r).unwrap() {
                // The library's templates, and the sample inputs they read.
                let folders = vec![root.join("templates/library").join(&usage.library.key), root.join("templates/shared")];
                let texts = usage.snippets.iter().map(|s| s.content.clone()).collect();
                kinds.push((texts, usage.values, folders));
            }
            let local = engine.local_app_examples(&r, None).unwrap();
            let texts = local.apps.iter().map(|a| a.content.clone()).collect();
            kinds.push((texts, local.values, vec![root.join("templates/local_apps")]));
            for (texts, values, folders) in kinds {
                let own: String = folders.iter().map(|f| template_text(f)).collect();
                for value in &record_strings {
                    let quoted = [py_str(value), js_str(value), sh_str(value)];
                    let texts: &Vec<String> = &texts;
                    if texts.iter().any(|t| quoted.iter().any(|q| t.contains(q.as_str()))) && !own.contains(value.as_str()) {
                        assert!(values.contains(value), "{}: {value:?} is quoted but not reported: {values:?}", r.id);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked} quoted record values checked");
}

/// Every template file under `folder`, as one text.
fn template_text(folder: &Path) -> String {
    let mut text = String::new();
    for entry in walk(folder) {
        text.push_str(&std::fs::read_to_string(entry).unwrap());
    }
    text
}

fn walk(folder: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder).into_iter().flatten() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}
