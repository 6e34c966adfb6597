//! GGUF files of a model: those its record lists (`siblings`) and those lying
//! in its folder, whose headers are read (only the headers). A file that
//! cannot be read is reported by name and left without header facts; the
//! model still builds.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

use modelpages_gguf::{read_header, GgufHeader, GgufListing};
use modelpages_record::{LoadedModel, ModelRecord, RecordError};
use modelpages_render::{LocalAppAction, LocalAppExample};
use modelpages_snippets::{LocalAppKind, SnippetEngine, SnippetError};

/// A model's GGUF files, and the problems met reading those in its folder.
#[derive(Debug, Default)]
pub struct ModelGguf {
    pub listing: GgufListing,
    /// One per file that is a link or whose header could not be read.
    pub errors: Vec<RecordError>,
}

/// The `.gguf` files directly in `dir` (links are reported, not followed),
/// with their sizes.
fn local_gguf_files(dir: &Path) -> (Vec<(String, u64)>, Vec<RecordError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return (files, errors),
        Err(source) => return (files, vec![RecordError::Io { path: dir.to_owned(), source }]),
    };
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(source) => {
                errors.push(RecordError::Io { path: dir.to_owned(), source });
                continue;
            }
        };
        let path = entry.path();
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else { continue };
        if !name.to_ascii_lowercase().ends_with(".gguf") {
            continue;
        }
        match entry.file_type() {
            Ok(kind) if kind.is_symlink() => errors.push(RecordError::Invalid {
                path,
                message: "is a symbolic link; links are not followed".into(),
            }),
            Ok(kind) if kind.is_file() => match entry.metadata() {
                Ok(meta) => files.push((name, meta.len())),
                Err(source) => errors.push(RecordError::Io { path, source }),
            },
            Ok(_) => {}
            Err(source) => errors.push(RecordError::Io { path, source }),
        }
    }
    files.sort();
    (files, errors)
}

/// The GGUF files of the model in `dir` described by `record`: the record's
/// siblings, plus files in the folder the record does not list, with the
/// headers of the files in the folder.
pub fn model_gguf(dir: &Path, record: &ModelRecord) -> ModelGguf {
    let (local, mut errors) = local_gguf_files(dir);
    let mut headers: HashMap<String, GgufHeader> = HashMap::new();
    for (name, _) in &local {
        match read_header(&dir.join(name)) {
            Ok(header) => {
                headers.insert(name.clone(), header);
            }
            Err(err) => errors.push(RecordError::Invalid { path: err.path, message: err.kind.to_string() }),
        }
    }
    let mut files: Vec<(&str, Option<u64>)> = record.siblings.iter().map(|s| (s.rfilename.as_str(), s.size)).collect();
    for (name, size) in &local {
        match files.iter_mut().find(|(listed, _)| listed == name) {
            Some(listed) => listed.1 = listed.1.or(Some(*size)),
            None => files.push((name, Some(*size))),
        }
    }
    ModelGguf { listing: GgufListing::new(files, &headers), errors }
}

/// What a model page shows about running the model locally.
pub struct LocalSection {
    pub listing: GgufListing,
    pub apps: Vec<LocalAppExample>,
    /// GGUF files that could not be read, for the build log.
    pub notes: Vec<String>,
}

/// The GGUF files and local-app examples of `model`.
pub fn local_section(snippets: &SnippetEngine, model: &LoadedModel) -> Result<LocalSection, SnippetError> {
    let gguf = model_gguf(&model.source.dir, &model.record);
    let apps = snippets
        .local_app_examples(&model.record, Some(&gguf.listing))?
        .into_iter()
        .map(|e| LocalAppExample {
            action: match e.kind {
                LocalAppKind::Command => LocalAppAction::Command(e.content),
                LocalAppKind::Deeplink => LocalAppAction::Link(e.content),
            },
            app: e.app,
            label: e.label,
            docs_url: e.docs_url,
            macos_only: e.macos_only,
            title: e.title,
        })
        .collect();
    let notes = gguf.errors.iter().map(|e| format!("GGUF header not read: {e}")).collect();
    Ok(LocalSection { listing: gguf.listing, apps, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use modelpages_gguf::write::GgufWriter;
    use modelpages_gguf::TensorType;

    #[test]
    fn folder_files_join_the_siblings_and_links_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = GgufWriter::new().tensor("w", &[32], TensorType(0)).to_bytes();
        std::fs::write(dir.path().join("m-Q8_0.gguf"), &bytes).unwrap();
        std::fs::write(dir.path().join("m-Q4_K_M.GGUF"), &bytes).unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("m-F16.gguf")).unwrap();
        let record: ModelRecord = serde_json::from_str(
            r#"{"id": "a/m", "siblings": [{"rfilename": "m-Q8_0.gguf"}, {"rfilename": "m-Q2_K.gguf", "size": 3}]}"#,
        )
        .unwrap();
        let gguf = model_gguf(dir.path(), &record);
        let rows: Vec<(&str, Option<u64>, bool)> =
            gguf.listing.groups.iter().map(|g| (g.label.as_str(), g.size, g.facts().is_some())).collect();
        let len = Some(bytes.len() as u64);
        assert_eq!(rows, [("Q8_0", len, true), ("Q4_K_M", len, true), ("Q2_K", Some(3), false)]);
        #[cfg(unix)]
        {
            assert_eq!(gguf.errors.len(), 1);
            assert!(gguf.errors[0].to_string().contains("m-F16.gguf: is a symbolic link"), "{}", gguf.errors[0]);
        }
        assert!(model_gguf(&dir.path().join("missing"), &record).errors.is_empty(), "no folder, no files");
    }
}
