//! The list of models a caller says changed (`modelpages build --changed`).
//!
//! At hub scale most of a one-model rebuild goes on looking at every model's
//! files to find the one that changed: three file lookups a model, three
//! million at a million models. A sync job that writes the models folder
//! knows what it wrote, as git's file-system monitor knows what changed; it
//! can name those models, one `namespace/name` a line, and the build then
//! looks only at them and trusts every other model to be as the previous
//! build recorded it.
//!
//! The list only narrows what is looked at, never what is trusted blindly:
//! a model it names that the previous build did not have, or whose folder is
//! gone, makes the build survey the whole folder as it does without a list
//! (see `build`), because adding and removing models need every id at hand.

/// A line of a changed list that names no model folder.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ChangedListError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

/// The model ids a changed list names, in the order given, each once.
/// Blank lines and lines starting with `#` are skipped; a trailing `/` is
/// allowed (paths from `git diff --dirstat` and the like end in one).
pub fn parse_changed_list(text: &str) -> Result<Vec<String>, ChangedListError> {
    let mut ids: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let entry = line.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        let id = entry.strip_suffix('/').unwrap_or(entry);
        check_folder_id(id).map_err(|message| ChangedListError { line: line_no, message })?;
        if seen.insert(id.to_owned()) {
            ids.push(id.to_owned());
        }
    }
    Ok(ids)
}

/// Whether `id` can be the folder id of a model: two path components, as
/// discovery finds them (no hidden or relative components, no separators
/// of other systems). The record's own id is checked when it is read.
fn check_folder_id(id: &str) -> Result<(), String> {
    let shown = format!("{:?}", modelpages_record::printable(id));
    let Some((namespace, name)) = id.split_once('/') else {
        return Err(format!("{shown} is not namespace/name"));
    };
    for part in [namespace, name] {
        if part.is_empty() || part.contains('/') {
            return Err(format!("{shown} is not namespace/name"));
        }
        if part.starts_with('.') {
            return Err(format!("{shown} names a hidden or relative folder"));
        }
        if part.contains(['\\', '\0']) || part.chars().any(char::is_control) {
            return Err(format!("{shown} holds a backslash or a control character"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_once_each_in_order() {
        let ids = parse_changed_list("# synced at 12:00\nb/two\n\na/one/\nb/two\n").unwrap();
        assert_eq!(ids, ["b/two", "a/one"]);
    }

    #[test]
    fn a_line_that_is_no_folder_id_is_refused_with_its_number() {
        for (text, line) in [
            ("a/b\n../etc\n", 2),
            ("a/b/c\n", 1),
            ("x/y\nonly-a-name\n", 2),
            ("a/.hidden\n", 1),
            ("a\\b/c\n", 1),
            ("/abs\n", 1),
            ("a/\u{7}bell\n", 1),
        ] {
            let err = parse_changed_list(text).unwrap_err();
            assert_eq!(err.line, line, "{text:?}: {err}");
        }
    }
}
