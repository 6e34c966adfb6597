//! Notes about what a model's record said that its page cannot use: a
//! descriptive Hub field of the wrong shape or a card's front-matter field
//! that cannot be read within bounds (ignored, never a failed model),
//! and a model that gets no usage example at all, with the reason on each
//! side (its library, hosted inference), so that a silent page is never a
//! mystery.
//!
//! Pure: the record and what the build made of it go in, note lines come
//! out. Values from the record are quoted with escapes and cut short: notes
//! go to a terminal.

use modelpages_record::{LoadedModel, ModelRecord, CARD_FILE, RECORD_FILE};
use modelpages_snippets::inference::request_kind;
use modelpages_snippets::SnippetEngine;

/// Characters of a record's value (a library or task name) a note quotes.
const QUOTED_CHARS: usize = 60;

/// `value` quoted for a note: escapes for quotes, control and invisible
/// characters, and at most [`QUOTED_CHARS`] characters of it.
fn quoted(value: &str) -> String {
    let short: String = value.chars().take(QUOTED_CHARS).collect();
    let cut = if short.len() < value.len() { "..." } else { "" };
    format!("{short:?}{cut}")
}

/// One note per descriptive field of `model`'s record, and per front-matter
/// field of its card, that was present but ignored, against the file it came
/// from: a card field the card's front matter wrote (merged into `cardData`)
/// is the card's.
pub fn ignored_field_notes(model: &LoadedModel) -> Vec<String> {
    let front_matter = model.card.as_ref().map_or(&[][..], |card| card.front_matter_fields.as_slice());
    let id = model.id.as_str();
    let card_note = |field: &str, why: &str| format!("{id}: {CARD_FILE}: front matter `{field}` ignored: {why}");
    let from_record = model.record.ignored_fields().into_iter().map(|ignored| {
        match ignored.field.strip_prefix("cardData.").filter(|f| front_matter.iter().any(|k| k == f)) {
            Some(field) => card_note(field, &ignored.why),
            None => format!("{id}: {RECORD_FILE}: `{}` ignored: {}", ignored.field, ignored.why),
        }
    });
    let unread = model.card.iter().flat_map(|card| &card.ignored).map(|ignored| card_note(ignored.field, &ignored.why));
    from_record.chain(unread)
        .collect()
}

/// What the build made for one model, counted.
pub struct ExampleCounts {
    pub library: usize,
    pub inference: usize,
    pub local_apps: usize,
}

/// The note of a model that gets no example at all, saying why on the
/// library's side and on hosted inference's; none when it gets any.
pub fn silent_model_note(id: &str, record: &ModelRecord, engine: &SnippetEngine, made: &ExampleCounts) -> Option<String> {
    if made.library + made.inference + made.local_apps > 0 {
        return None;
    }
    Some(format!("{id}: no usage examples: {}; {}", library_reason(record, engine), hosted_reason(record, engine)))
}

fn library_reason(record: &ModelRecord, engine: &SnippetEngine) -> String {
    let Some(key) = record.library() else {
        return "no library (the record has no library_name)".to_owned();
    };
    let Some(library) = engine.catalogue().get(key) else {
        return format!("library {} is not in the catalogue", quoted(key));
    };
    if !engine.has_snippets(&library.key) {
        return format!("library {} has no usage-example templates", library.key);
    }
    match record.task() {
        Some(task) => format!("library {} has no example for task {}", library.key, quoted(task)),
        None => format!("library {} has no example for a model without a task", library.key),
    }
}

fn hosted_reason(record: &ModelRecord, engine: &SnippetEngine) -> String {
    let Some(task) = record.task() else {
        return "no hosted inference without a task (no pipeline_tag, no provider task)".to_owned();
    };
    if request_kind(record, engine.task_table()).is_none() {
        return format!("hosted inference does not serve task {}", quoted(task));
    }
    // The providers' own reasons are noted one by one.
    "no provider can serve it (see its other notes)".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(json: &str) -> Option<String> {
        let record: ModelRecord = serde_json::from_str(json).unwrap();
        let none = ExampleCounts { library: 0, inference: 0, local_apps: 0 };
        silent_model_note("a/b", &record, &SnippetEngine::new(), &none)
    }

    #[test]
    fn each_reason_is_named() {
        assert_eq!(
            note(r#"{"id": "a/b"}"#).unwrap(),
            "a/b: no usage examples: no library (the record has no library_name); \
             no hosted inference without a task (no pipeline_tag, no provider task)"
        );
        let unknown = note(r#"{"id": "a/b", "library_name": "no-such-lib", "pipeline_tag": "robotics"}"#).unwrap();
        assert!(unknown.contains("library \"no-such-lib\" is not in the catalogue"), "{unknown}");
        assert!(unknown.contains("hosted inference does not serve task \"robotics\""), "{unknown}");
        let untemplated = note(r#"{"id": "a/b", "library_name": "acestep", "pipeline_tag": "text-to-audio"}"#).unwrap();
        assert!(untemplated.contains("library acestep has no usage-example templates"), "{untemplated}");
    }

    #[test]
    fn record_values_are_escaped_and_cut_short() {
        let hostile = format!(r#"{{"id": "a/b", "library_name": "x\u001b[31m\u202e{}"}}"#, "y".repeat(500));
        let text = note(&hostile).unwrap();
        assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'), "{text}");
        assert!(text.len() < 300, "{text}");
    }

    #[test]
    fn a_model_with_any_example_gets_no_note() {
        let record: ModelRecord = serde_json::from_str(r#"{"id": "a/b"}"#).unwrap();
        let one = ExampleCounts { library: 0, inference: 0, local_apps: 1 };
        assert_eq!(silent_model_note("a/b", &record, &SnippetEngine::new(), &one), None);
    }

    fn loaded(record: &str, card: Option<&str>) -> LoadedModel {
        let source = modelpages_record::ModelSource { dir: "models/a/b".into(), folder_id: "a/b".into() };
        let files = modelpages_record::RecordFiles { record: record.as_bytes().to_vec(), card: card.map(|c| c.as_bytes().to_vec()) };
        modelpages_record::parse_model(&source, files).unwrap()
    }

    #[test]
    fn ignored_fields_are_noted_with_the_file() {
        let model = loaded(r#"{"id": "a/b", "gated": "yes", "spaces": [1], "cardData": {"model-index": 5}}"#, None);
        let notes = ignored_field_notes(&model);
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].starts_with("a/b: model.json: `gated` ignored: expected false"), "{notes:?}");
        assert!(notes[1].starts_with("a/b: model.json: `spaces` ignored: "), "{notes:?}");
        assert!(notes[2].starts_with("a/b: model.json: `cardData.model-index` ignored: "), "{notes:?}");
        // A card field of the wrong shape in the front matter is the card's.
        let model = loaded(r#"{"id": "a/b", "cardData": {"base_model": "x/y"}}"#, Some("---\nbase_model: {id: x}\n---\n"));
        let notes = ignored_field_notes(&model);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("a/b: README.md: front matter `base_model` ignored: expected a model id"), "{notes:?}");
        // A field the parser cannot build is the card's too.
        let card = format!("---\ntags: {}{}\n---\n", "[".repeat(500), "]".repeat(500));
        let notes = ignored_field_notes(&loaded(r#"{"id": "a/b"}"#, Some(&card)));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("a/b: README.md: front matter `tags` ignored: recursion limit exceeded"), "{notes:?}");
    }
}
