//! The parts of a model page about running it on one's own machine: its GGUF
//! files by quantization (with what their headers say) and the local apps
//! that can run it.

use minijinja::Value;
use modelpages_gguf::{file_type_name, GgufFile, GgufFiles, HeaderFacts};
use modelpages_snippets::{LocalAppExample, LocalAppKind};
use serde::Serialize;

use crate::facts::{bytes_text, params_text, GgufHeaderFacts};
use crate::highlight::{Highlighter, ShapeValues};

#[derive(Serialize)]
pub(crate) struct GgufView {
    facts: Option<FactsView>,
    groups: Vec<QuantRowView>,
    /// Whether any row has tensor types (the table then has that column).
    has_tensor_types: bool,
    /// The default quantization's label.
    default_label: Option<String>,
    unlabelled: Vec<FileView>,
    projectors: Vec<FileView>,
}

#[derive(Serialize)]
struct FactsView {
    architecture: Option<String>,
    context_length: Option<u64>,
    /// e.g. `8.03B params`.
    parameters: Option<String>,
    /// Whether the build read them from the model's own files (else they
    /// are what the Hub read, from the record).
    read_here: bool,
}

#[derive(Serialize)]
struct QuantRowView {
    label: String,
    is_default: bool,
    size: Option<String>,
    files: Vec<FileView>,
    /// e.g. `Q4_K 62.5%, Q6_K 31.3%, F32 6.3%`, from the headers.
    tensor_types: Option<String>,
    /// The file type the header names when it is not the label's (`Q4_K_M`
    /// for a `Q4_K_L` file, or a mislabelled file).
    header_type: Option<&'static str>,
    /// The element the row's "Use" link leads to, when it has one.
    use_target: Option<String>,
}

#[derive(Serialize)]
struct FileView {
    name: String,
    size: Option<String>,
    /// `3 parts`, or `2 of 3 parts listed` when shards are missing.
    parts: Option<String>,
}

/// The GGUF section of a page, with what the files' headers say
/// (`header`); `None` for a model without GGUF files.
pub(crate) fn gguf_view(gguf: &GgufFiles, header: GgufHeaderFacts) -> Option<GgufView> {
    if !gguf.has_model_files() && gguf.projectors.is_empty() {
        return None;
    }
    let groups: Vec<QuantRowView> = gguf
        .groups
        .iter()
        .enumerate()
        .map(|(i, group)| QuantRowView {
            label: group.label.to_string(),
            is_default: gguf.default == Some(i),
            size: group.size.map(bytes_text),
            files: group.files.iter().map(file_view).collect(),
            tensor_types: group.facts().map(tensor_types_text),
            header_type: group
                .facts()
                .and_then(|f| f.file_type)
                .and_then(file_type_name)
                .filter(|name| *name != group.label.file_type()),
            use_target: None,
        })
        .collect();
    Some(GgufView {
        facts: (header.parameters.is_some() || header.architecture.is_some() || header.context_length.is_some()).then(|| {
            FactsView {
                architecture: header.architecture,
                context_length: header.context_length,
                parameters: header.parameters.map(params_text),
                read_here: header.read_here,
            }
        }),
        has_tensor_types: groups.iter().any(|g| g.tensor_types.is_some()),
        groups,
        default_label: gguf.default_group().map(|g| g.label.to_string()),
        unlabelled: gguf.unlabelled.iter().map(file_view).collect(),
        projectors: gguf.projectors.iter().map(file_view).collect(),
    })
}

impl GgufView {
    /// Gives the rows, in order, the targets of their "Use" links.
    pub(crate) fn set_use_targets(&mut self, targets: Vec<Option<String>>) {
        for (row, target) in self.groups.iter_mut().zip(targets) {
            row.use_target = target;
        }
    }
}

fn file_view(file: &GgufFile) -> FileView {
    let parts = match (file.parts.len(), file.parts_total) {
        (_, 1) => None,
        (listed, total) if file.is_incomplete() => Some(format!("{listed} of {total} parts listed")),
        (_, total) => Some(format!("{total} parts")),
    };
    FileView { name: file.name.clone(), size: file.size.map(bytes_text), parts }
}

fn tensor_types_text(facts: &HeaderFacts) -> String {
    let shares: Vec<String> = facts
        .shares()
        .into_iter()
        .map(|(ty, percent)| if percent < 0.1 { format!("{ty} <0.1%") } else { format!("{ty} {percent:.1}%") })
        .collect();
    shares.join(", ")
}

/// One app and its examples.
#[derive(Serialize)]
pub(crate) struct LocalAppView<'a> {
    key: &'a str,
    label: &'a str,
    docs_url: &'a str,
    macos_only: bool,
    examples: Vec<LocalExampleView<'a>>,
}

#[derive(Serialize)]
struct LocalExampleView<'a> {
    /// Element id, which the quantization picker rewrites by.
    id: String,
    title: &'a str,
    /// The highlighted command.
    html: Option<Value>,
    link: Option<&'a str>,
}

/// Examples grouped by app, in the order given, commands highlighted.
pub(crate) fn local_app_views<'a>(
    examples: &'a [LocalAppExample],
    highlighter: &Highlighter,
    values: &ShapeValues<'_>,
) -> Vec<LocalAppView<'a>> {
    let mut apps: Vec<LocalAppView<'a>> = Vec::new();
    for example in examples {
        let new_app = apps.last().is_none_or(|app| app.key != example.app);
        let app_index = apps.len() + usize::from(new_app);
        let index = if new_app { 1 } else { apps.last().map_or(0, |app| app.examples.len()) + 1 };
        let id = crate::quant_picker::local_example_id(app_index, index);
        let view = match example.kind {
            LocalAppKind::Command => LocalExampleView {
                id,
                title: &example.title,
                html: Some(Value::from_safe_string(highlighter.highlight_example(&example.content, "sh", values))),
                link: None,
            },
            LocalAppKind::DeepLink => LocalExampleView { id, title: &example.title, html: None, link: Some(example.content.as_str()) },
        };
        match apps.last_mut() {
            Some(app) if app.key == example.app => app.examples.push(view),
            _ => apps.push(LocalAppView {
                key: &example.app,
                label: &example.label,
                docs_url: &example.docs_url,
                macos_only: example.macos_only,
                examples: vec![view],
            }),
        }
    }
    apps
}
