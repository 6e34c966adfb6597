//! What `build` and `check` print about the models besides errors: the
//! notes (capped, with the usual ones summarised) and a warning when the
//! models folder holds no model at all.

use std::path::Path;

use modelpages_snippets::inference::NOT_LIVE_NOTE;

/// Notes printed before the rest are only counted.
const NOTES_SHOWN: usize = 20;

/// Prints the notes: all with `all`, else those about providers that are
/// not live (a record lists every provider it ever had) as one count, and
/// the first [`NOTES_SHOWN`] of the others and a count.
pub fn print_notes(notes: &[String], all: bool) {
    let (not_live, others): (Vec<&String>, Vec<&String>) = if all {
        (Vec::new(), notes.iter().collect())
    } else {
        notes.iter().partition(|note| note.ends_with(NOT_LIVE_NOTE))
    };
    let shown = if all { others.len() } else { NOTES_SHOWN };
    for note in others.iter().take(shown) {
        eprintln!("note: {note}");
    }
    if others.len() > shown {
        eprintln!("note: ... and {} more notes (--all-notes prints them all)", others.len() - shown);
    }
    if !not_live.is_empty() {
        let s = if not_live.len() == 1 { "" } else { "s" };
        eprintln!(
            "note: {} provider mapping{s} not live, so without examples (--all-notes lists them)",
            not_live.len()
        );
    }
}

/// Warns when `models_dir` gave no model at all: a wrong folder, or one level
/// too deep (a namespace's folder, whose subfolders hold `model.json`).
pub fn warn_if_no_models(models_dir: &Path, found: usize) {
    if found > 0 {
        return;
    }
    let shown = models_dir.display();
    if holds_model_folders(models_dir) {
        let parent = models_dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".."));
        eprintln!(
            "warning: no models in {shown}: it looks like one namespace's folder (its subfolders hold model.json); \
             models are read from <namespace>/<name>/model.json, so try --models {}",
            parent.display()
        );
    } else {
        eprintln!("warning: no models in {shown}: models are read from <namespace>/<name>/model.json below it");
    }
}

/// Whether some folder right below `dir` holds a `model.json`.
fn holds_model_folders(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else { return false };
    entries.flatten().any(|entry| entry.path().join(modelpages_record::RECORD_FILE).is_file())
}
