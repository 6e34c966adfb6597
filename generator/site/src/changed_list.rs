//! The list of models a caller says changed (`modelpages build --changed`).
//!
//! At hub scale most of a one-model rebuild goes on looking at every model's
//! files to find the one that changed: three file lookups a model, three
//! million at a million models. A sync job that writes the models folder
//! knows what it wrote, as git's file-system monitor knows what changed; it
//! can name those models, one `namespace/name` (or a path inside one) a
//! line, and the build then
//! looks only at them and trusts every other model to be as the previous
//! build recorded it.
//!
//! The list only narrows what is looked at, never what is trusted blindly:
//! a named model whose folder is gone is removed; a named folder the
//! previous build did not have is added once its id is checked against
//! every id the previous build had (`plan::survey_listed`); a model that
//! would break a layout rule, or a name that is neither, makes the build
//! survey the whole folder as it does without a list (see `build`).
//!
//! The list is read from a file or a pipe that anyone may fill, so it is
//! read only up to [`MAX_LIST_BYTES`] and [`MAX_LIST_LINES`]; a longer one
//! is refused, as a bad line is, and nothing is built.

use std::io::Read;

/// The longest changed list read, in bytes and in lines. A list names the
/// models one sync wrote, and past a thousand of them the build looks at
/// every model anyway; these leave room for many paths inside each. A list
/// read from a pipe is read only this far, so an endless one (`/dev/zero`)
/// costs no more.
pub const MAX_LIST_BYTES: usize = 16 << 20;
pub const MAX_LIST_LINES: usize = 250_000;

/// A changed list that cannot be used: nothing is built.
#[derive(Debug, thiserror::Error)]
pub enum ChangedListError {
    /// A line that names no model folder.
    #[error("line {line}: {message}")]
    Line {
        /// 1-based.
        line: usize,
        message: String,
    },
    #[error("longer than {} MiB; build without --changed to look at every model", MAX_LIST_BYTES >> 20)]
    TooLong,
    #[error("more than {MAX_LIST_LINES} lines; build without --changed to look at every model")]
    TooManyLines,
    #[error("not UTF-8 text")]
    NotText,
    #[error("cannot be read: {0}")]
    Read(#[from] std::io::Error),
}

/// Reads a changed list from `reader` (a file, standard input) and parses
/// it (see [`parse_changed_list`]), refusing one over [`MAX_LIST_BYTES`] or
/// [`MAX_LIST_LINES`] without reading further.
pub fn read_changed_list(reader: impl Read) -> Result<Vec<String>, ChangedListError> {
    let mut bytes = Vec::new();
    reader.take(MAX_LIST_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > MAX_LIST_BYTES {
        return Err(ChangedListError::TooLong);
    }
    let text = String::from_utf8(bytes).map_err(|_| ChangedListError::NotText)?;
    parse_changed_list(&text)
}

/// The model ids a changed list names, in the order given, each once.
/// A line is a model folder (`namespace/name`) or a path inside one
/// (`namespace/name/README.md`), relative to the models folder, as
/// `git -C models diff --name-only --relative` prints them; a trailing `/` is allowed.
/// Blank lines and lines starting with `#` are skipped. A list of more than
/// [`MAX_LIST_LINES`] lines is refused.
pub fn parse_changed_list(text: &str) -> Result<Vec<String>, ChangedListError> {
    let mut ids: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        if i == MAX_LIST_LINES {
            return Err(ChangedListError::TooManyLines);
        }
        let entry = line.trim();
        if entry.is_empty() || entry.starts_with('#') {
            continue;
        }
        let id = folder_id_of(entry.strip_suffix('/').unwrap_or(entry))
            .map_err(|message| ChangedListError::Line { line: i + 1, message })?;
        if seen.insert(id) {
            ids.push(id.to_owned());
        }
    }
    Ok(ids)
}

/// The folder id (`namespace/name`) of a model folder or of a path inside
/// one, if `path` is such a path: relative, without empty, `.` or `..`
/// parts, whose first two parts are not hidden (discovery skips hidden
/// folders), with no backslash or control character. The record's own id
/// is checked when it is read.
fn folder_id_of(path: &str) -> Result<&str, String> {
    let shown = format!("{:?}", modelpages_record::printable(path));
    if path.contains(['\\', '\0']) || path.chars().any(char::is_control) {
        return Err(format!("{shown} holds a backslash or a control character"));
    }
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty() || *p == "." || *p == "..") {
        return Err(format!("{shown} is not namespace/name or a path inside a model folder"));
    }
    if parts[..2].iter().any(|p| p.starts_with('.')) {
        return Err(format!("{shown} names a hidden folder"));
    }
    Ok(&path[..parts[0].len() + 1 + parts[1].len()])
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
    fn paths_inside_model_folders_name_their_model() {
        let text = "a/one/README.md\na/one/model.json\nb/two/.gitattributes\nc/three/images/x.png\na/one\n";
        assert_eq!(parse_changed_list(text).unwrap(), ["a/one", "b/two", "c/three"]);
    }

    #[test]
    fn a_line_that_is_no_folder_id_is_refused_with_its_number() {
        for (text, line) in [
            ("a/b\n../etc\n", 2),
            ("a/b/../../c\n", 1),
            ("a//b\n", 1),
            ("x/y\nonly-a-name\n", 2),
            ("a/.hidden\n", 1),
            (".git/b/c\n", 1),
            ("a\\b/c\n", 1),
            ("/abs\n", 1),
            ("a/\u{7}bell\n", 1),
        ] {
            let err = parse_changed_list(text).unwrap_err();
            assert!(matches!(err, ChangedListError::Line { line: at, .. } if at == line), "{text:?}: {err}");
        }
    }

    #[test]
    fn a_list_past_its_bounds_is_refused_without_reading_on() {
        // An endless source: reading stops one byte past the limit.
        let endless = std::io::repeat(b'a');
        assert!(matches!(read_changed_list(endless), Err(ChangedListError::TooLong)));
        let zeros = std::io::repeat(0);
        assert!(matches!(read_changed_list(zeros), Err(ChangedListError::TooLong)));
        let lines = "a/b\n".repeat(MAX_LIST_LINES + 1);
        assert!(lines.len() <= MAX_LIST_BYTES);
        let err = read_changed_list(lines.as_bytes()).unwrap_err();
        assert!(matches!(err, ChangedListError::TooManyLines), "{err}");
        assert!(err.to_string().contains("build without --changed"), "{err}");
        assert_eq!(read_changed_list("a/b\n".repeat(MAX_LIST_LINES).as_bytes()).unwrap(), ["a/b"]);
        assert!(matches!(read_changed_list(&b"a/b\n\xff\n"[..]), Err(ChangedListError::NotText)));
    }
}
