//! The model's files (`siblings`) as the files table shows them: files at
//! the top of the repository first, then one group per top-level folder
//! with its file count and size, each file with its download link
//! (`<hub>/<id>/resolve/main/<path>`, every path segment percent-encoded).
//!
//! Paths come from the record, so each is checked before it becomes a link:
//! no empty, `.` or `..` segment, no leading `/`, no backslash or control
//! character, bounded length. A bad path is skipped and named (printably) in
//! the view's `skipped`, for the build's notes. At most [`MAX_FILES`] files
//! are looked at, so a record with a million siblings costs no more than one
//! with ten thousand.

use modelpages_record::{printable, Sibling};
use serde::Serialize;

use crate::card_links::encode_path;
use super::bytes_text;

/// Files of one record looked at; the rest are counted, not listed.
pub const MAX_FILES: usize = 10_000;
/// Longest path taken from a record.
const MAX_PATH_LEN: usize = 1_000;

/// One file's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileRow {
    /// Path in the repository.
    pub path: String,
    /// The path within its group (after the folder).
    pub name: String,
    pub size: Option<String>,
    pub url: String,
}

/// The files at the top (`folder` is `None`) or in one top-level folder.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileGroup {
    pub folder: Option<String>,
    pub files: Vec<FileRow>,
    /// Files in the group, listed or not.
    pub count: usize,
    /// Sum of the sizes, when every file's size is known.
    pub size: Option<String>,
}

/// The files table.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FilesView {
    pub groups: Vec<FileGroup>,
    /// Files with a valid path.
    pub count: usize,
    /// Rows left off this view (the page shows the first ones).
    pub not_listed: usize,
    /// Paths that were not valid, shown printably.
    pub skipped: Vec<String>,
    /// Files past [`MAX_FILES`], never looked at.
    pub beyond_limit: usize,
}

/// Why a record's file path is not used.
pub fn path_problem(path: &str) -> Option<&'static str> {
    if path.is_empty() {
        Some("empty path")
    } else if path.len() > MAX_PATH_LEN {
        Some("path too long")
    } else if path.starts_with('/') {
        Some("absolute path")
    } else if path.contains('\\') {
        Some("backslash in path")
    } else if path.chars().any(|c| c.is_control()) {
        Some("control character in path")
    } else if path.split('/').any(|s| s.is_empty() || s == "." || s == "..") {
        Some("empty, `.` or `..` segment in path")
    } else {
        None
    }
}

/// `<hub>/<id>/resolve/main/<path>`: where the Hub serves a file.
pub fn resolve_url(hub_url: &str, id: &str, path: &str) -> String {
    format!("{}/{id}/resolve/main/{}", hub_url.trim_end_matches('/'), encode_path(path))
}

/// The files of `siblings`, grouped, with at most `rows` file rows listed
/// (groups past that keep their count and size, with no rows).
pub fn files_view(siblings: &[Sibling], hub_url: &str, id: &str, rows: usize) -> FilesView {
    let mut view = FilesView { beyond_limit: siblings.len().saturating_sub(MAX_FILES), ..FilesView::default() };
    let mut top: Vec<&Sibling> = Vec::new();
    let mut folders: std::collections::BTreeMap<&str, Vec<&Sibling>> = std::collections::BTreeMap::new();
    for sibling in siblings.iter().take(MAX_FILES) {
        let path = sibling.rfilename.as_str();
        if let Some(why) = path_problem(path) {
            view.skipped.push(format!("{} ({why})", printable_path(path)));
            continue;
        }
        match path.split_once('/') {
            Some((folder, _)) => folders.entry(folder).or_default().push(sibling),
            None => top.push(sibling),
        }
    }
    let mut listed = 0;
    let mut group = |folder: Option<&str>, mut files: Vec<&Sibling>| {
        files.sort_by(|a, b| a.rfilename.cmp(&b.rfilename));
        files.dedup_by(|a, b| a.rfilename == b.rfilename);
        let size = files.iter().try_fold(0u64, |sum, f| sum.checked_add(f.size?)).map(bytes_text);
        let count = files.len();
        let take = count.min(rows - listed);
        listed += take;
        view.count += count;
        view.not_listed += count - take;
        let files = files
            .into_iter()
            .take(take)
            .map(|f| FileRow {
                path: f.rfilename.clone(),
                name: folder.map_or(f.rfilename.as_str(), |d| &f.rfilename[d.len() + 1..]).to_owned(),
                size: f.size.map(bytes_text),
                url: resolve_url(hub_url, id, &f.rfilename),
            })
            .collect();
        view.groups.push(FileGroup { folder: folder.map(str::to_owned), files, count, size });
    };
    if !top.is_empty() {
        group(None, top);
    }
    for (folder, files) in folders {
        group(Some(folder), files);
    }
    view
}

/// Total bytes of `siblings` when at least one size is known, and whether
/// every size was.
pub fn total_size(siblings: &[Sibling]) -> Option<(u64, bool)> {
    let known: Vec<u64> = siblings.iter().take(MAX_FILES).filter_map(|s| s.size).collect();
    if known.is_empty() {
        return None;
    }
    let sum = known.iter().fold(0u64, |sum, n| sum.saturating_add(*n));
    Some((sum, known.len() == siblings.len()))
}

/// A path for a note: bounded, control and bidi characters escaped.
fn printable_path(path: &str) -> String {
    let short: String = path.chars().take(80).collect();
    let more = if short.len() < path.len() { "..." } else { "" };
    format!("{}{more}", printable(&short))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sib(path: &str, size: Option<u64>) -> Sibling {
        Sibling { rfilename: path.into(), size, size_ignored: None }
    }

    #[test]
    fn paths_are_checked_before_they_become_links() {
        for good in ["config.json", "onnx/model.onnx", "a b/ü.txt", ".gitattributes"] {
            assert_eq!(path_problem(good), None, "{good}");
        }
        for bad in ["", "/etc/passwd", "../x", "a/../b", "a//b", "a/./b", "a\\b", "a\u{7}b", "x/"] {
            assert!(path_problem(bad).is_some(), "{bad:?}");
        }
        assert!(path_problem(&"a".repeat(1001)).is_some());
    }

    #[test]
    fn each_segment_is_encoded_in_the_resolve_url() {
        assert_eq!(
            resolve_url("https://huggingface.co/", "ns/m", "sub dir/a#b?.bin"),
            "https://huggingface.co/ns/m/resolve/main/sub%20dir/a%23b%3F.bin"
        );
    }

    #[test]
    fn folders_are_grouped_with_counts_and_sizes() {
        let siblings = [
            sib("onnx/model.onnx", Some(2_000_000)),
            sib("README.md", Some(5_000)),
            sib("onnx/tokenizer.json", Some(1_000_000)),
            sib("config.json", Some(700)),
            sib("../evil", Some(1)),
            sib("tf/model.h5", None),
        ];
        let view = files_view(&siblings, "https://hub.test", "ns/m", 50);
        let names: Vec<(Option<&str>, Vec<&str>, usize, Option<&str>)> = view
            .groups
            .iter()
            .map(|g| (g.folder.as_deref(), g.files.iter().map(|f| f.name.as_str()).collect(), g.count, g.size.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                (None, vec!["README.md", "config.json"], 2, Some("5.70 kB")),
                (Some("onnx"), vec!["model.onnx", "tokenizer.json"], 2, Some("3.00 MB")),
                (Some("tf"), vec!["model.h5"], 1, None),
            ]
        );
        assert_eq!(view.count, 5);
        assert_eq!(view.skipped, ["../evil (empty, `.` or `..` segment in path)"]);
        assert_eq!(view.groups[1].files[0].url, "https://hub.test/ns/m/resolve/main/onnx/model.onnx");
        assert_eq!(total_size(&siblings), Some((3_005_701, false)));
    }

    #[test]
    fn rows_are_capped_but_counted() {
        let siblings: Vec<Sibling> = (0..120).map(|i| sib(&format!("shards/part-{i:03}.bin"), Some(10))).collect();
        let view = files_view(&siblings, "https://hub.test", "ns/m", 50);
        assert_eq!(view.groups[0].files.len(), 50);
        assert_eq!((view.count, view.not_listed, view.groups[0].count), (120, 70, 120));
        assert_eq!(view.groups[0].size.as_deref(), Some("1.20 kB"));
        let all = files_view(&siblings, "https://hub.test", "ns/m", usize::MAX);
        assert_eq!((all.groups[0].files.len(), all.not_listed), (120, 0));
    }
}
