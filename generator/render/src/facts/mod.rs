//! What a model page knows about the model beyond its examples: the facts a
//! visitor looks for (size, license, dates, popularity), its files, its
//! evaluation results, its tags, its place in the model tree and its
//! widget's sample inputs. One plain value, [`ModelFacts`], handed to the
//! templates as `model.facts` and read by the partials in
//! `site-src/templates/model/` (facts, tags, tree, files, evals, inputs).
//!
//! Everything is computed here from the record (its `cardData` merged with
//! the card's front matter), the GGUF files and the model's [`TreeBlock`]
//! (which the build computes across the corpus); nothing reads files.
//! Record values are untrusted: lists are bounded, paths and links checked,
//! dates validated, and the templates escape every string.

mod evals;
mod files;
mod license;
mod numbers;
mod spaces;
mod tags;

use modelpages_gguf::GgufFiles;
use modelpages_record::{Gated, LoadedModel};
use serde::Serialize;

use crate::tree::{TreeBlock, TOP_DERIVATIVES};

pub use evals::{EvalsView, InputView};
pub use files::{path_problem, resolve_url, FilesView};
pub use license::LicenseView;
pub use tags::language_tags;
pub use numbers::{compact, counted, day_of, popularity_label};
pub(crate) use numbers::{binary_bytes_text, bytes_text, params_text};
pub use spaces::SpacesView;
pub use tags::{filter_tags, search_url, tag_file_name, TagGroup};

/// File rows on the model page; more go to the files page (`<id>/files/`).
pub const FILES_ON_PAGE: usize = 50;

/// What the facts are made from.
pub struct FactsInput<'a> {
    pub model: &'a LoadedModel,
    pub gguf: &'a GgufFiles,
    /// The task's key and display name, the library's key and label.
    pub task: Option<(&'a str, &'a str)>,
    pub library: Option<(&'a str, &'a str)>,
    /// Prefix of site links (`/` or `/hub/`).
    pub base_path: &'a str,
    /// The hub the model lives on, without a trailing slash.
    pub hub_url: &'a str,
    pub tree: &'a TreeBlock,
}

/// Everything the facts partials show; see the module documentation.
#[derive(Clone, Debug, Serialize)]
pub struct ModelFacts {
    /// e.g. `8.03B params`, from `safetensors`, else the GGUF headers the
    /// build read, else what the Hub read from them (the record's `gguf`).
    pub parameters: Option<String>,
    /// A GGUF model's architecture (`llama`) and context length in tokens,
    /// from the same headers.
    pub architecture: Option<String>,
    pub context_length: Option<u64>,
    /// `BF16`, `F32`, ... from `safetensors.parameters`.
    pub tensor_types: Vec<String>,
    /// Total size of the files, e.g. `16.1 GB`; `size_partial` when some
    /// files' sizes are unknown (the total is then a lower bound).
    pub size: Option<String>,
    pub size_partial: bool,
    pub license: Vec<LicenseView>,
    pub languages: Vec<String>,
    /// `auto` or `manual` when downloads need an accepted access request.
    pub gated: Option<&'static str>,
    /// What the access request asks, as the card says (`extra_gated_*`).
    pub access_heading: Option<String>,
    pub access_fields: Vec<String>,
    pub created: Option<String>,
    pub updated: Option<String>,
    /// The model on the hub.
    pub hub_page: String,
    pub files: FilesView,
    /// The files page, when the model page lists only some files.
    pub files_page: Option<String>,
    pub evals: EvalsView,
    pub tags: Vec<TagGroup>,
    pub tree: TreeView,
    pub inputs: Vec<InputView>,
    /// The Spaces that use the model (`spaces`).
    pub spaces: SpacesView,
}

/// A base as a derivative's page links it.
#[derive(Clone, Debug, Serialize)]
pub struct BaseView {
    pub id: String,
    /// "Fine-tuned from".
    pub label: &'static str,
    pub url: String,
    pub in_site: bool,
}

/// A derivative as its base's page links it.
#[derive(Clone, Debug, Serialize)]
pub struct DerivativeView {
    pub id: String,
    pub url: String,
    /// Its popularity class, "1k+ downloads" (see `popularity_label`).
    pub downloads: String,
}

/// A base's derivatives of one relation: "3 fine-tunes" and the top ones.
#[derive(Clone, Debug, Serialize)]
pub struct DerivativeGroupView {
    pub relation: modelpages_record::Relation,
    /// "3 fine-tunes", "1 adapter".
    pub heading: String,
    pub top: Vec<DerivativeView>,
    pub all: Vec<DerivativeView>,
    /// Models counted but not in `all` (past the listing bound).
    pub not_listed: usize,
}

/// The tree as the partial and the derivatives page show it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TreeView {
    pub bases: Vec<BaseView>,
    pub derivatives: Vec<DerivativeGroupView>,
    /// The page listing every derivative, when the top ones are not all.
    pub derivatives_page: Option<String>,
}

/// A model's page on this site.
fn page_url(base_path: &str, id: &str) -> String {
    format!("{base_path}{id}/")
}

fn tree_view(tree: &TreeBlock, base_path: &str, hub_url: &str, id: &str) -> TreeView {
    let bases = tree
        .bases
        .iter()
        .map(|b| BaseView {
            id: b.id.clone(),
            label: b.relation.base_label(),
            url: if b.in_site { page_url(base_path, &b.id) } else { format!("{hub_url}/{}", b.id) },
            in_site: b.in_site,
        })
        .collect();
    let view = |d: &crate::tree::Derivative| DerivativeView {
        id: d.id.clone(),
        url: page_url(base_path, &d.id),
        downloads: popularity_label(d.popularity),
    };
    let derivatives: Vec<DerivativeGroupView> = tree
        .derivatives
        .iter()
        .map(|g| {
            let (one, many) = g.relation.derivative_label();
            DerivativeGroupView {
                relation: g.relation,
                heading: format!("{} {}", compact(g.count as u64), if g.count == 1 { one } else { many }),
                top: g.models.iter().take(TOP_DERIVATIVES).map(view).collect(),
                all: g.models.iter().map(view).collect(),
                not_listed: g.count - g.models.len(),
            }
        })
        .collect();
    let more = tree.derivatives.iter().any(|g| g.count > TOP_DERIVATIVES);
    TreeView { bases, derivatives, derivatives_page: more.then(|| format!("{}derivatives/", page_url(base_path, id))) }
}

/// The model's facts; `file_rows` bounds the files listed (the page lists
/// [`FILES_ON_PAGE`], the files page all).
pub fn model_facts(input: &FactsInput<'_>, file_rows: usize) -> ModelFacts {
    let model = input.model;
    let record = &model.record;
    let id = model.id.as_str();
    let hub = input.hub_url.trim_end_matches('/');
    let meta = record.card_meta();
    let safetensors = record.safetensors.get();
    let gguf = gguf_facts(input.gguf, record.gguf.get());
    let parameters = parameter_count(record, input.gguf).map(params_text);
    let sibling_size = files::total_size(&record.siblings);
    let gguf_size = {
        let files = input.gguf.groups.iter().flat_map(|g| &g.files).chain(&input.gguf.unlabelled).chain(&input.gguf.projectors);
        let sizes: Vec<Option<u64>> = files.map(|f| f.size).collect();
        (!sizes.is_empty() && sizes.iter().any(Option::is_some))
            .then(|| (sizes.iter().flatten().fold(0u64, |s, n| s.saturating_add(*n)), sizes.iter().all(Option::is_some)))
    };
    let size = sibling_size.or(gguf_size);
    let license = license::license_views(&meta, &record.tags, hub, id);
    let files = files::files_view(&record.siblings, hub, id, file_rows);
    let files_page = (files.not_listed > 0).then(|| format!("{}files/", page_url(input.base_path, id)));
    ModelFacts {
        parameters,
        architecture: gguf.architecture.map(|a| evals::short(&a, MAX_ACCESS_TEXT_CHARS)),
        context_length: gguf.context_length,
        tensor_types: safetensors.map(|s| s.parameters.keys().take(12).cloned().collect()).unwrap_or_default(),
        size: size.map(|(bytes, _)| bytes_text(bytes)),
        size_partial: size.is_some_and(|(_, whole)| !whole),
        license,
        languages: meta.language.iter().take(40).cloned().collect(),
        gated: match record.gated.get() {
            Some(Gated::Auto) => Some("auto"),
            Some(Gated::Manual) => Some("manual"),
            _ => None,
        },
        access_heading: meta.access_request.heading.as_deref().map(|h| evals::short(h, MAX_ACCESS_TEXT_CHARS)),
        access_fields: meta.access_request.fields.iter().map(|f| evals::short(f, MAX_ACCESS_TEXT_CHARS)).collect(),
        created: record.created_at.get().and_then(|t| day_of(t)),
        updated: record.last_modified.as_deref().and_then(day_of),
        hub_page: format!("{hub}/{id}"),
        files,
        files_page,
        evals: evals::evals_view(record.evaluation_results().iter()),
        tags: tags::tag_groups(&tags::TagInput {
            tags: &record.tags,
            task: input.task,
            library: input.library,
            meta: Some(&meta),
            index_url: input.base_path,
        }),
        tree: tree_view(input.tree, input.base_path, hub, id),
        inputs: evals::inputs_view(&record.widget_data),
        spaces: spaces::spaces_view(record.spaces.get().map_or(&[], Vec::as_slice), hub),
    }
}

/// The model's parameter count: the safetensors total, else the GGUF
/// header's (the model's own files first, else the record's `gguf`).
pub fn parameter_count(record: &modelpages_record::ModelRecord, gguf: &GgufFiles) -> Option<u64> {
    record.safetensors.get().map(|s| s.total).filter(|n| *n > 0).or_else(|| gguf_facts(gguf, record.gguf.get()).parameters)
}

/// What a GGUF model's headers say: those the build read from the model's
/// own files first, else what the Hub read from them (the record's `gguf`).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct GgufHeaderFacts {
    pub(crate) parameters: Option<u64>,
    pub(crate) architecture: Option<String>,
    pub(crate) context_length: Option<u64>,
    /// Whether they come from the files the build read (else the record).
    pub(crate) read_here: bool,
}

pub(crate) fn gguf_facts(files: &GgufFiles, hub: Option<&modelpages_record::GgufSummary>) -> GgufHeaderFacts {
    if let Some(f) = files.header_facts() {
        return GgufHeaderFacts {
            parameters: Some(f.parameter_count).filter(|n| *n > 0),
            architecture: f.architecture.clone(),
            context_length: f.context_length,
            read_here: true,
        };
    }
    hub.map_or_else(GgufHeaderFacts::default, |h| GgufHeaderFacts {
        parameters: h.total.filter(|n| *n > 0),
        architecture: h.architecture.clone().filter(|a| !a.is_empty()),
        context_length: h.context_length.filter(|n| *n > 0),
        read_here: false,
    })
}

/// Longest heading or field name of an access request shown.
const MAX_ACCESS_TEXT_CHARS: usize = 80;

/// The notes a model's facts leave: file paths that were not used.
pub fn facts_notes(facts: &ModelFacts, id: &str) -> Vec<String> {
    let mut notes: Vec<String> = facts.files.skipped.iter().map(|p| format!("{id}: file {p} skipped")).collect();
    if facts.files.beyond_limit > 0 {
        notes.push(format!("{id}: {} files past the first {} not listed", facts.files.beyond_limit, files::MAX_FILES));
    }
    notes
}
