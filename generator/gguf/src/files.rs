//! A model's GGUF files grouped by quantization, largest first, with sizes,
//! the default choice, and what their headers say when they were read.
//!
//! Shards of one file (`model-Q4_K_M-00001-of-00003.gguf`) count as one file;
//! vision projectors (`mmproj-*.gguf`) are companions of the model files, not
//! quantizations of the model, so they are listed apart.

use std::collections::{BTreeMap, HashMap};

use crate::arch_keys::AttentionShape;
use crate::header::{GgufHeader, HeaderText};
use crate::label::{default_label, parse_quant_label, QuantLabel};
use crate::types::TensorType;

/// One GGUF file, or the shards of one.
#[derive(Clone, Debug, PartialEq)]
pub struct GgufFile {
    /// The path in the repository of the file or of its first listed shard.
    pub name: String,
    /// Every listed path, in shard order.
    pub parts: Vec<String>,
    /// How many shards the names say there are (1 for a whole file).
    pub parts_total: u32,
    /// Total bytes, when every part's size is known.
    pub size: Option<u64>,
    /// What the headers of the parts that were read say.
    pub facts: Option<HeaderFacts>,
}

impl GgufFile {
    /// Whether shards are missing from the list of files.
    pub fn is_incomplete(&self) -> bool {
        (self.parts.len() as u64) < u64::from(self.parts_total)
    }
}

/// The files of one quantization.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantGroup {
    pub label: QuantLabel,
    pub files: Vec<GgufFile>,
    /// Total bytes, when every file's size is known.
    pub size: Option<u64>,
}

impl QuantGroup {
    /// Header facts of the group's first file that has any.
    pub fn facts(&self) -> Option<&HeaderFacts> {
        self.files.iter().find_map(|f| f.facts.as_ref())
    }
}

/// One listed part of a file: shard index, path and size.
type Part<'a> = (u32, &'a str, Option<u64>);

/// Every GGUF file of a model, sorted out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GgufFiles {
    /// Largest quantization first.
    pub groups: Vec<QuantGroup>,
    /// Index in `groups` of the quantization to suggest first.
    pub default: Option<usize>,
    /// Model files whose names carry no quantization label.
    pub unlabelled: Vec<GgufFile>,
    /// Vision projectors (`mmproj`), which apps load beside a model file.
    pub projectors: Vec<GgufFile>,
}

impl GgufFiles {
    /// Sorts out `files` (paths in the repository with their sizes, e.g. a
    /// record's `siblings`); paths that are not `.gguf` files are ignored.
    /// `headers` holds the headers that were read, by path.
    pub fn new<'a>(files: impl IntoIterator<Item = (&'a str, Option<u64>)>, headers: &HashMap<String, GgufHeader>) -> GgufFiles {
        // Shards of a file share the name before `-NNNNN-of-NNNNN.gguf`.
        let mut by_file: BTreeMap<(&'a str, u32), Vec<Part<'a>>> = BTreeMap::new();
        for (path, size) in files.into_iter().filter(|(p, _)| is_gguf(p)) {
            let (key, index) = match shard_of(path) {
                Some((stem, index, total)) => ((stem, total), index),
                None => ((path, 1), 1),
            };
            by_file.entry(key).or_default().push((index, path, size));
        }
        let mut sorted = GgufFiles::default();
        let mut labelled: Vec<(QuantLabel, GgufFile)> = Vec::new();
        for ((_, total), mut parts) in by_file {
            parts.sort();
            parts.dedup_by_key(|p| p.0);
            let file = GgufFile {
                name: parts[0].1.to_owned(),
                size: total_size(parts.iter().map(|p| p.2)),
                facts: HeaderFacts::from_headers(parts.iter().filter_map(|p| headers.get(p.1))),
                parts: parts.iter().map(|p| p.1.to_owned()).collect(),
                parts_total: total,
            };
            if is_projector(&file.name) {
                sorted.projectors.push(file);
            } else if let Some(label) = parse_quant_label(&file.name) {
                labelled.push((label, file));
            } else {
                sorted.unlabelled.push(file);
            }
        }
        labelled.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.name.cmp(&b.1.name)));
        for (label, file) in labelled {
            match sorted.groups.last_mut() {
                Some(group) if group.label == label => {
                    group.size = total_size([group.size, file.size]);
                    group.files.push(file);
                }
                _ => sorted.groups.push(QuantGroup { size: file.size, label, files: vec![file] }),
            }
        }
        let chosen = default_label(sorted.groups.iter().map(|g| &g.label)).cloned();
        sorted.default = chosen.and_then(|label| sorted.groups.iter().position(|g| g.label == label));
        sorted
    }

    /// Whether there is a model file to run (projectors alone are not one).
    pub fn has_model_files(&self) -> bool {
        !self.groups.is_empty() || !self.unlabelled.is_empty()
    }

    pub fn default_group(&self) -> Option<&QuantGroup> {
        self.default.map(|i| &self.groups[i])
    }

    /// The file to name where an app takes one file: the default
    /// quantization's first, else the first file without a label.
    pub fn default_file(&self) -> Option<&GgufFile> {
        self.default_group().map(|g| &g.files[0]).or(self.unlabelled.first())
    }

    /// Facts about the model: from the default file's headers, else from any
    /// model file that was read.
    pub fn header_facts(&self) -> Option<&HeaderFacts> {
        self.default_file()
            .and_then(|f| f.facts.as_ref())
            .or_else(|| self.groups.iter().flat_map(|g| &g.files).chain(&self.unlabelled).find_map(|f| f.facts.as_ref()))
    }
}

/// What the headers of one file (all its shards that were read) say.
#[derive(Clone, Debug, PartialEq)]
pub struct HeaderFacts {
    pub architecture: Option<String>,
    pub context_length: Option<u64>,
    /// The file quantization type the header names (`general.file_type`).
    pub file_type: Option<u32>,
    pub parameter_count: u64,
    /// Elements per tensor element type, most first.
    pub tensor_types: Vec<(TensorType, u64)>,
    /// How many parts' headers were read.
    pub parts_read: usize,
    /// The attention's size, from the first part that gives it (shards
    /// after the first carry no model metadata).
    pub attention: AttentionShape,
    /// `tokenizer.chat_template`, from the first part that has one.
    pub chat_template: Option<HeaderText>,
}

impl HeaderFacts {
    /// The facts of the given headers together; `None` without any. Shards
    /// split the tensors, and only the first carries the model's metadata.
    pub fn from_headers<'a>(headers: impl IntoIterator<Item = &'a GgufHeader>) -> Option<HeaderFacts> {
        let mut facts: Option<HeaderFacts> = None;
        let mut counts: BTreeMap<TensorType, u64> = BTreeMap::new();
        for header in headers {
            let f = facts.get_or_insert(HeaderFacts {
                architecture: None,
                context_length: None,
                file_type: None,
                parameter_count: 0,
                tensor_types: Vec::new(),
                parts_read: 0,
                attention: AttentionShape::default(),
                chat_template: None,
            });
            if f.attention.is_empty() {
                f.attention = header.attention.clone();
            }
            f.chat_template = f.chat_template.take().or_else(|| header.chat_template.clone());
            f.architecture = f.architecture.take().or_else(|| header.architecture.clone());
            f.context_length = f.context_length.or(header.context_length);
            f.file_type = f.file_type.or(header.file_type);
            f.parameter_count = f.parameter_count.saturating_add(header.parameter_count);
            f.parts_read += 1;
            for (ty, n) in &header.tensor_types {
                let total = counts.entry(*ty).or_insert(0);
                *total = total.saturating_add(*n);
            }
        }
        let mut facts = facts?;
        facts.tensor_types = counts.into_iter().collect();
        facts.tensor_types.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        Some(facts)
    }

    /// Each tensor element type's share of the parameters, in percent.
    pub fn shares(&self) -> Vec<(TensorType, f64)> {
        let total = self.parameter_count.max(1) as f64;
        self.tensor_types.iter().map(|(ty, n)| (*ty, *n as f64 * 100.0 / total)).collect()
    }
}

/// The sum of sizes, when all are known (and it fits: records are untrusted).
fn total_size(sizes: impl IntoIterator<Item = Option<u64>>) -> Option<u64> {
    sizes.into_iter().try_fold(0u64, |sum, size| sum.checked_add(size?))
}

fn is_gguf(path: &str) -> bool {
    let bytes = path.as_bytes();
    bytes.len() > 5 && bytes[bytes.len() - 5..].eq_ignore_ascii_case(b".gguf")
}

fn is_projector(path: &str) -> bool {
    path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase().contains("mmproj")
}

/// `(stem, index, total)` of a shard name `<stem>-00001-of-00003.gguf`.
pub fn shard_of(path: &str) -> Option<(&str, u32, u32)> {
    if !is_gguf(path) {
        return None;
    }
    // The last five bytes are ASCII `.gguf`, so this cut is on a character boundary.
    let stem = &path[..path.len() - 5];
    let (before, total) = stem.rsplit_once("-of-")?;
    let (stem, index) = before.rsplit_once('-')?;
    let number = |s: &str| (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok()).flatten();
    let (index, total) = (number(index)?, number(total)?);
    (index >= 1 && index <= total).then_some((stem, index, total))
}
