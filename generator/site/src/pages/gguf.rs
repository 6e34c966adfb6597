//! GGUF files of a model: those its record lists (`siblings`) and those lying
//! in its folder, whose headers are read (only the headers). A file that
//! cannot be read is reported by name and left without header facts, and a
//! link or anything but a regular file is reported and never read; the
//! model still builds.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io;
use std::path::Path;

use modelpages_gguf::{read_header, GgufHeader, GgufFiles};
use modelpages_record::{open_regular_file, LoadedModel, ModelRecord, RecordError};
use modelpages_render::QuantVariant;
use modelpages_snippets::{LocalAppExample, SnippetEngine, SnippetError};

/// A model's GGUF files, and the problems met reading those in its folder.
#[derive(Debug, Default)]
pub struct ModelGguf {
    pub files: GgufFiles,
    /// One per entry that is a link or not a regular file, or whose header
    /// could not be read.
    pub errors: Vec<RecordError>,
}

/// A GGUF file in a model's folder: its size, and its header or why that
/// was not read.
struct LocalGguf {
    size: u64,
    header: Result<GgufHeader, RecordError>,
}

/// The `.gguf` files directly in `dir` by name, and the entries that could
/// not be used: a link, anything but a regular file (which is not opened:
/// opening a device can do things), an entry that could not be read.
fn local_gguf_files(dir: &Path) -> (BTreeMap<String, LocalGguf>, Vec<RecordError>) {
    let mut files = BTreeMap::new();
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
        let invalid = |message: &str| RecordError::Invalid { path: path.clone(), message: message.into() };
        let found = match entry.file_type() {
            Ok(kind) if kind.is_symlink() => Err(invalid("is a symbolic link; links are not followed")),
            Ok(kind) if kind.is_file() => local_gguf_file(&path),
            Ok(_) => Err(invalid("is not a regular file")),
            Err(source) => Err(RecordError::Io { path: path.clone(), source }),
        };
        match found {
            Ok(file) => {
                files.insert(name, file);
            }
            Err(err) => errors.push(err),
        }
    }
    (files, errors)
}

/// The GGUF file at `path`, opened as a record is: a link or a FIFO swapped
/// in since the folder was listed is refused, without waiting for a writer.
fn local_gguf_file(path: &Path) -> Result<LocalGguf, RecordError> {
    let (file, meta) = open_regular_file(path)?;
    let header = read_header(file, path)
        .map_err(|err| RecordError::Invalid { path: err.path, message: err.kind.to_string() });
    Ok(LocalGguf { size: meta.len(), header })
}

/// The GGUF files of the model in `dir` described by `record`: the record's
/// siblings, plus files in the folder the record does not list, with the
/// headers of the files in the folder.
pub fn model_gguf(dir: &Path, record: &ModelRecord) -> ModelGguf {
    let (local, mut errors) = local_gguf_files(dir);
    let mut headers: HashMap<String, GgufHeader> = HashMap::new();
    let mut sizes: Vec<(String, u64)> = Vec::with_capacity(local.len());
    for (name, file) in local {
        match file.header {
            Ok(header) => {
                headers.insert(name.clone(), header);
            }
            Err(err) => errors.push(err),
        }
        sizes.push((name, file.size));
    }
    let mut files: Vec<(&str, Option<u64>)> = record.siblings.iter().map(|s| (s.rfilename.as_str(), s.size)).collect();
    for (name, size) in &sizes {
        match files.iter_mut().find(|(listed, _)| listed == name) {
            Some(listed) => listed.1 = listed.1.or(Some(*size)),
            None => files.push((name, Some(*size))),
        }
    }
    ModelGguf { files: GgufFiles::new(files, &headers), errors }
}

/// What a model page shows about running the model locally.
pub struct LocalSection {
    pub files: GgufFiles,
    pub apps: Vec<LocalAppExample>,
    /// The model's own values the apps' commands quote, as the snippet
    /// engine reported them.
    pub values: Vec<String>,
    /// Every quantization with the examples for it, for the page's
    /// quantization picker; empty unless there are two or more.
    pub variants: Vec<QuantVariant>,
    /// GGUF files that could not be read, for the build log.
    pub notes: Vec<String>,
}

/// The examples again for each quantization (the GGUF files with another
/// default): what the page's quantization picker rewrites the commands to.
/// At most `MAX_QUANTS` of them; none when there is only one to pick.
fn quant_variants(
    snippets: &SnippetEngine,
    model: &LoadedModel,
    gguf: &GgufFiles,
    shown: &[LocalAppExample],
) -> Result<Vec<QuantVariant>, SnippetError> {
    if gguf.groups.len() < 2 || gguf.default.is_none() || shown.is_empty() {
        return Ok(Vec::new());
    }
    let mut variants = Vec::new();
    for (index, group) in gguf.groups.iter().enumerate().take(modelpages_render::MAX_QUANTS) {
        let apps = if gguf.default == Some(index) {
            shown.to_vec()
        } else {
            let gguf = GgufFiles { default: Some(index), ..gguf.clone() };
            snippets.local_app_examples(&model.record, Some(&gguf))?.apps
        };
        let file = group.files.first().map(|f| f.name.clone());
        variants.push(QuantVariant { label: group.label.to_string(), size: group.size, file, apps });
    }
    Ok(variants)
}

/// The GGUF files and local-app examples of `model`.
pub fn local_section(snippets: &SnippetEngine, model: &LoadedModel) -> Result<LocalSection, SnippetError> {
    let gguf = model_gguf(&model.source.dir, &model.record);
    let local = snippets.local_app_examples(&model.record, Some(&gguf.files))?;
    let variants = quant_variants(snippets, model, &gguf.files, &local.apps)?;
    let notes = gguf.errors.iter().map(|e| format!("GGUF header not read: {e}")).collect();
    Ok(LocalSection { files: gguf.files, apps: local.apps, values: local.values, variants, notes })
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
            gguf.files.groups.iter().map(|g| (g.label.as_str(), g.size, g.facts().is_some())).collect();
        let len = Some(bytes.len() as u64);
        assert_eq!(rows, [("Q8_0", len, true), ("Q4_K_M", len, true), ("Q2_K", Some(3), false)]);
        #[cfg(unix)]
        {
            assert_eq!(gguf.errors.len(), 1);
            assert!(gguf.errors[0].to_string().contains("m-F16.gguf: is a symbolic link"), "{}", gguf.errors[0]);
        }
        assert!(model_gguf(&dir.path().join("missing"), &record).errors.is_empty(), "no folder, no files");
    }

    /// Runs `f` on another thread and fails if it does not return within
    /// seconds: a read that waits on a FIFO would wait forever.
    fn within_seconds<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (done, result) = std::sync::mpsc::channel();
        std::thread::spawn(move || done.send(f()));
        result.recv_timeout(std::time::Duration::from_secs(10)).expect("returned within 10 s, not waiting on a FIFO")
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        use std::os::unix::ffi::OsStrExt;
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0, "mkfifo {}", path.display());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_swapped_for_a_fifo_or_a_link_after_listing_is_refused_without_waiting() {
        // What the folder listing saw as a regular file is now a FIFO with
        // no writer, or a link: reading the header refuses both at once.
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("m-Q4_K_M.gguf");
        mkfifo(&fifo);
        let err = within_seconds(move || local_gguf_file(&fifo).err().map(|e| e.to_string()));
        assert!(err.as_deref().is_some_and(|e| e.ends_with("m-Q4_K_M.gguf: is not a regular file")), "{err:?}");
        let bytes = GgufWriter::new().tensor("w", &[32], TensorType(0)).to_bytes();
        std::fs::write(dir.path().join("real.bin"), bytes).unwrap();
        let link = dir.path().join("m-Q8_0.gguf");
        std::os::unix::fs::symlink("real.bin", &link).unwrap();
        let err = local_gguf_file(&link).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.ends_with("m-Q8_0.gguf: is a symbolic link; links are not followed")), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_in_the_folder_is_noted_and_the_other_files_read() {
        let dir = tempfile::tempdir().unwrap();
        let bytes = GgufWriter::new().tensor("w", &[32], TensorType(0)).to_bytes();
        std::fs::write(dir.path().join("m-Q8_0.gguf"), &bytes).unwrap();
        mkfifo(&dir.path().join("m-Q4_K_M.gguf"));
        std::fs::create_dir(dir.path().join("m-F16.gguf")).unwrap();
        let record: ModelRecord = serde_json::from_str(r#"{"id": "a/m"}"#).unwrap();
        let path = dir.path().to_owned();
        let gguf = within_seconds(move || model_gguf(&path, &record));
        let rows: Vec<(&str, bool)> = gguf.files.groups.iter().map(|g| (g.label.as_str(), g.facts().is_some())).collect();
        assert_eq!(rows, [("Q8_0", true)]);
        let mut errors: Vec<String> = gguf.errors.iter().map(|e| e.to_string()).collect();
        errors.sort();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(errors[0].ends_with("m-F16.gguf: is not a regular file"), "{errors:?}");
        assert!(errors[1].ends_with("m-Q4_K_M.gguf: is not a regular file"), "{errors:?}");
    }
}
