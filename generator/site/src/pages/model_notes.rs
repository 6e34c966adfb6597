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

use modelpages_record::{ModelCard, ModelRecord, CARD_FILE, RECORD_FILE};
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

/// One note per descriptive field of `record`, and per front-matter field
/// of `card`, that was present but ignored.
pub fn ignored_field_notes(id: &str, record: &ModelRecord, card: Option<&ModelCard>) -> Vec<String> {
    let from_record = record.ignored_fields().into_iter().map(|ignored| (RECORD_FILE, ignored));
    let from_card = card.into_iter().flat_map(|card| card.ignored.iter().cloned()).map(|ignored| (CARD_FILE, ignored));
    from_record
        .chain(from_card)
        .map(|(file, ignored)| format!("{id}: {file}: `{}` ignored: {}", ignored.field, ignored.why))
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

    #[test]
    fn ignored_fields_are_noted_with_the_file() {
        let record: ModelRecord = serde_json::from_str(r#"{"id": "a/b", "gated": "yes", "spaces": [1]}"#).unwrap();
        let card = ModelCard::parse(&format!("---\ntags: {}{}\n---\n", "[".repeat(500), "]".repeat(500))).unwrap();
        let notes = ignored_field_notes("a/b", &record, Some(&card));
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0].starts_with("a/b: model.json: `gated` ignored: expected false"), "{notes:?}");
        assert!(notes[1].starts_with("a/b: model.json: `spaces` ignored: "), "{notes:?}");
        assert!(notes[2].starts_with("a/b: README.md: `tags` ignored: recursion limit exceeded"), "{notes:?}");
    }
}
