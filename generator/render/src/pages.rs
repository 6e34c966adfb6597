//! The data each page template receives, and one function per page kind.
//!
//! Everything here is plain data: the site stage builds these values from the
//! loaded models and never hands templates a record directly.

use minijinja::Value;
use modelpages_gguf::GgufFiles;
use modelpages_record::LoadedModel;
use serde::Serialize;

use crate::examples::{CodeExample, InferenceExample};
use crate::card_links::CardContext;
use crate::chat_prompt::{chat_view, ChatPrompt, ChatView};
use crate::memory::{memory_view, MemoryEstimate, MemoryView};
use crate::facts::{facts_notes, gguf_facts, model_facts, FactsInput, ModelFacts, FILES_ON_PAGE};
use crate::search_facets::search_facets;
use modelpages_record::{ModelSummary, TagList};
use crate::tree::TreeBlock;
use crate::heading_ids::{card_contents, CardHeading};
use crate::highlight::{Highlighter, ShapeValues};
use crate::local::{gguf_view, local_app_views, GgufView, LocalAppView};
use modelpages_snippets::inference::provider_mappings;
use modelpages_snippets::LocalAppExample;
use crate::markdown::render_card;
use crate::markdown_twin::{markdown_twin, TwinInput};
use crate::quant_picker::{picker_json, quant_commands, quant_picker_view, QuantCommand, QuantPickerView, QuantVariant};
use crate::templates::{TemplateError, Templates};
use crate::timestamp::unix_seconds;

/// Site-wide values every page needs.
#[derive(Clone, Debug, Serialize)]
pub struct SiteInfo {
    pub title: String,
    /// Path prefix of every link, always ending in `/` (e.g. `/` or `/hub/`).
    pub base_path: String,
    /// URL of the hashed stylesheet.
    pub stylesheet: String,
    /// URL of the hashed island bundle, when the islands were built.
    pub script: Option<String>,
}

/// How many tags a listing keeps per model: enough to search by, small enough
/// for an index of every model.
const SUMMARY_TAGS: usize = 12;

/// The listing row of `model`, whose GGUF files are `gguf` and memory
/// estimate `memory`.
pub fn model_summary(model: &LoadedModel, site: &SiteInfo, gguf: &GgufFiles, memory: Option<&MemoryEstimate>) -> ModelSummary {
    let record = &model.record;
    let meta = record.card_meta();
    let filters: TagList = crate::filter_tags(&record.tags, &meta).into_iter().collect();
    ModelSummary {
        facets: search_facets(record, &meta, gguf, memory, &filters.iter().collect::<Vec<_>>()),
        id: model.id.to_string(),
        url: model_url(site, model),
        task: record.task().map(str::to_owned),
        library: record.library().map(str::to_owned),
        downloads: record.downloads,
        likes: record.likes,
        tags: record.tags.iter().filter(|t| !t.is_empty() && !t.contains('\n')).take(SUMMARY_TAGS).collect(),
        created: record.created_at.get().and_then(|t| unix_seconds(t)),
        updated: record.last_modified.as_deref().and_then(unix_seconds),
        filters,
    }
}

/// Link to a model's page.
pub fn model_url(site: &SiteInfo, model: &LoadedModel) -> String {
    format!("{}{}/", site.base_path, model.id)
}

/// A task (pipeline tag) as pages link to it.
#[derive(Clone, Debug, Serialize)]
pub struct TaskLink {
    pub key: String,
    /// Display name, e.g. "Text Classification".
    pub name: String,
    pub page_url: String,
}

/// A library as pages link to it.
#[derive(Clone, Debug, Serialize)]
pub struct LibraryLink {
    pub key: String,
    pub label: String,
    /// This site's page for the library.
    pub page_url: String,
    pub repo_url: String,
    pub docs_url: Option<String>,
}

/// Everything a model page shows, gathered by the earlier stages.
pub struct ModelPage<'a> {
    pub model: &'a LoadedModel,
    /// The task's page, when the task is a known one.
    pub task: Option<TaskLink>,
    pub library: Option<LibraryLink>,
    pub examples: Vec<CodeExample>,
    /// In provider order, then language and client.
    pub inference: Vec<InferenceExample>,
    /// The model's GGUF files (from its record and its folder).
    pub gguf: GgufFiles,
    /// Local apps that can run the model, each app's examples together.
    pub local_apps: Vec<LocalAppExample>,
    /// Link to the model's notebook, when it has one.
    pub notebook_url: Option<String>,
    /// Where the card's references lead, whether remote images are shown.
    pub card_context: CardContext,
    /// The model's own values its examples quote, as the snippet engine
    /// reported them with the examples (`LibraryExamples::values` and the
    /// like), for the highlighter's shape cache.
    pub example_values: Vec<String>,
    /// Every quantization of a GGUF model with the
    /// local-app examples for it, in `gguf.groups` order, for the picker.
    pub quant_variants: Vec<QuantVariant>,
    /// The model's place in the corpus's model tree.
    pub tree: &'a TreeBlock,
    /// The hub the model lives on (links to it and its files).
    pub hub_url: &'a str,
    /// The site's stats file holding the model's downloads and likes: the
    /// page shows them from it (the counts island), never from the record,
    /// so that figures moving do not change the page.
    pub stats_url: String,
    /// What running the model takes (see `memory`).
    pub memory: Option<&'a MemoryEstimate>,
    /// Its chat template on the sample conversation (see `chat_prompt`).
    pub chat_prompt: Option<&'a ChatPrompt>,
}

#[derive(Serialize)]
struct ModelView<'a> {
    id: &'a str,
    namespace: &'a str,
    name: &'a str,
    task: Option<&'a str>,
    task_link: Option<&'a TaskLink>,
    /// The record's `library_name`, shown even when the catalogue does not know it.
    library_name: Option<&'a str>,
    library: Option<&'a LibraryLink>,
    tags: &'a [String],
    stats_url: &'a str,
    last_modified: Option<&'a str>,
    /// Sanitised card HTML, marked safe so the template does not escape it again.
    card_html: Option<Value>,
    /// The card's headings with their ids.
    card_headings: Vec<CardHeading>,
    /// The headings the card's contents list ([`card_contents`]).
    toc: Vec<CardHeading>,
    examples: Vec<ExampleView<'a>>,
    inference: Vec<ProviderView<'a>>,
    gguf: Option<GgufView>,
    local_apps: Vec<LocalAppView<'a>>,
    notebook_url: Option<&'a str>,
    /// The quantization picker's data, for GGUF models.
    quant_picker: Option<QuantPickerView>,
    /// The same as JSON for the page's data block (HTML-safe).
    quant_picker_json: Option<Value>,
    /// Each quantization's command, for the quantization table's links.
    quant_commands: Vec<QuantCommand>,
    /// The choice of "Use this model" the page opens on: `library`,
    /// `inference` or `local` (the first local app).
    opening: &'static str,
    /// Whether a hosted-inference provider serves the model: a live entry
    /// in the record's provider mapping.
    hosted_served: bool,
    /// Size, license, dates, files, evaluations, tags, tree, inputs.
    facts: ModelFacts,
    memory: Option<MemoryView>,
    chat: Option<ChatView>,
}

/// A provider and its examples.
#[derive(Serialize)]
struct ProviderView<'a> {
    provider: &'a str,
    examples: Vec<InferenceView<'a>>,
}

#[derive(Serialize)]
struct InferenceView<'a> {
    /// Element id, so an example can be linked (`#ex-auto-python-openai-stream`).
    anchor: String,
    language: &'a str,
    label: &'static str,
    client: &'a str,
    streaming: bool,
    token_env: &'a str,
    html: Value,
}

#[derive(Serialize)]
struct ExampleView<'a> {
    language: &'a str,
    /// Shown above the code, e.g. "Python".
    label: &'static str,
    /// Highlighted HTML (our own output, safe).
    html: Value,
}

fn language_label(language: &str) -> &'static str {
    match language {
        "python" => "Python",
        "js" => "JavaScript",
        "sh" => "Shell",
        _ => "Code",
    }
}

/// The values the code on `model`'s page differs by from other pages'
/// code (see [`Highlighter::highlight_example`]): the model's id and name
/// (cards quote them too), the values the snippet engine reported its
/// examples quote (`reported`: the render crate does not know which fields
/// of a record templates quote), and the GGUF file names and quantization
/// labels local-app commands name.
pub fn page_values<'a>(model: &'a LoadedModel, gguf: &'a GgufFiles, reported: &'a [String]) -> Vec<&'a str> {
    let mut values = vec![model.id.as_str(), model.id.name()];
    values.extend(reported.iter().map(String::as_str));
    for group in &gguf.groups {
        values.push(group.label.as_str());
        values.extend(group.files.iter().map(|f| f.name.as_str()));
    }
    values.extend(gguf.unlabelled.iter().chain(&gguf.projectors).map(|f| f.name.as_str()));
    values
}

/// A model's page and what it left out of the model's card and why.
pub struct ModelPageHtml {
    pub html: String,
    /// The page's Markdown twin (`index.md`).
    pub markdown: String,
    /// Subpages (`files/index.html`, `derivatives/index.html`), relative to
    /// the model's folder.
    pub subpages: Vec<(&'static str, String)>,
    /// Each starts with the model's id.
    pub notes: Vec<String>,
}

/// Renders a model's page.
pub fn render_model_page(
    templates: &Templates,
    highlighter: &Highlighter,
    site: &SiteInfo,
    page: &ModelPage<'_>,
) -> Result<ModelPageHtml, TemplateError> {
    let model = page.model;
    let record = &model.record;
    let values = ShapeValues::new(&page_values(model, &page.gguf, &page.example_values));
    let card = model.card.as_ref().filter(|card| !card.body.trim().is_empty());
    let card = card.map(|card| render_card(&card.body, highlighter, &values, &page.card_context));
    let mut notes: Vec<String> = card.iter().flat_map(|card| &card.notes).map(|note| format!("{}: card: {note}", model.id)).collect();
    let remote_images = card.as_ref().is_some_and(|card| card.remote_images);
    let (card_html, card_headings) = match card {
        Some(card) => (Some(Value::from_safe_string(card.html)), card.headings),
        None => (None, Vec::new()),
    };
    let facts_input = FactsInput {
        model,
        gguf: &page.gguf,
        task: page.task.as_ref().map(|t| (t.key.as_str(), t.name.as_str())),
        library: page.library.as_ref().map(|l| (l.key.as_str(), l.label.as_str())),
        base_path: &site.base_path,
        hub_url: page.hub_url,
        tree: page.tree,
    };
    let examples = page
        .examples
        .iter()
        .map(|example| ExampleView {
            language: example.language,
            label: language_label(example.language),
            html: Value::from_safe_string(highlighter.highlight_example(&example.text, example.language, &values)),
        })
        .collect();
    let mut inference: Vec<ProviderView<'_>> = Vec::new();
    for example in &page.inference {
        let view = InferenceView {
            anchor: format!(
                "ex-{}-{}-{}{}",
                example.provider,
                example.language,
                example.client,
                if example.streaming { "-stream" } else { "" }
            ),
            language: example.language,
            label: language_label(example.language),
            client: example.client,
            streaming: example.streaming,
            token_env: &example.token_env,
            html: Value::from_safe_string(highlighter.highlight_example(&example.text, example.language, &values)),
        };
        match inference.last_mut() {
            Some(group) if group.provider == example.provider => group.examples.push(view),
            _ => inference.push(ProviderView { provider: &example.provider, examples: vec![view] }),
        }
    }
    let hosted_served = provider_mappings(record.inference_provider_mapping.as_ref()).iter().any(|m| m.status == "live");
    let opening = opening_choice(page, hosted_served);
    let mut gguf = gguf_view(&page.gguf, gguf_facts(&page.gguf, record.gguf.get()));
    let (quant_commands, use_targets) = match page.gguf.default {
        Some(default) if page.quant_variants.len() >= 2 => quant_commands(&page.local_apps, &page.quant_variants, default),
        _ => (Vec::new(), Vec::new()),
    };
    if let Some(gguf) = gguf.as_mut() {
        gguf.set_use_targets(use_targets);
    }
    let view = ModelView {
        id: model.id.as_str(),
        namespace: model.id.namespace(),
        name: model.id.name(),
        task: record.task(),
        task_link: page.task.as_ref(),
        library_name: record.library(),
        library: page.library.as_ref(),
        tags: &record.tags,
        stats_url: &page.stats_url,
        last_modified: record.last_modified.as_deref(),
        card_html,
        toc: card_contents(&card_headings),
        card_headings,
        examples,
        inference,
        gguf,
        local_apps: local_app_views(&page.local_apps, highlighter, &values),
        notebook_url: page.notebook_url.as_deref(),
        quant_picker: None,
        quant_picker_json: None,
        quant_commands,
        opening,
        hosted_served,
        facts: model_facts(&facts_input, FILES_ON_PAGE),
        memory: page.memory.map(memory_view),
        chat: page.chat_prompt.map(chat_view),
    };
    let quant_picker = quant_picker_of(page);
    let view = ModelView {
        quant_picker_json: quant_picker.as_ref().map(|p| Value::from_safe_string(picker_json(p))),
        quant_picker,
        ..view
    };
    let html_len = |v: &Value| v.as_str().map_or(0, str::len);
    let size = view.card_html.as_ref().map_or(0, html_len)
        + view.examples.iter().map(|e| html_len(&e.html)).sum::<usize>()
        + view.inference.iter().flat_map(|g| &g.examples).map(|e| html_len(&e.html) + 1024).sum::<usize>()
        + view.chat.as_ref().and_then(|c| c.prompt.as_ref()).map_or(0, |p| p.text.len() * 2)
        + 16 * 1024;
    // Only a page that shows images from other hosts allows them.
    notes.extend(facts_notes(&view.facts, model.id.as_str()));
    let subpages = render_subpages(templates, site, &view.facts, &facts_input)?;
    let page_path = model_url(site, model);
    let api_path = format!("{}api/models/{}.json", site.base_path, model.id);
    let markdown = markdown_twin(&TwinInput {
        id: model.id.as_str(),
        task: page.task.as_ref().map(|t| t.name.as_str()),
        library: page.library.as_ref().map(|l| l.label.as_str()).or(record.library()),
        page: &page_path,
        api: &api_path,
        notebook: page.notebook_url.as_deref(),
        facts: &view.facts,
        memory: view.memory.as_ref(),
        chat: view.chat.as_ref(),
        library_examples: &page.examples,
        inference: &page.inference,
        local_apps: &page.local_apps,
        card: model.card.as_ref().map(|c| c.body.as_str()),
    });
    let context = minijinja::context! { site, model => view, page_title => model.id.as_str(), remote_images };
    Ok(ModelPageHtml { html: templates.render_sized("model.html", context, size)?, markdown, subpages, notes })
}

/// The model's files page (every file, when the page lists only some) and
/// derivatives page (every derivative, when the page shows only the top ones).
fn render_subpages(
    templates: &Templates,
    site: &SiteInfo,
    facts: &ModelFacts,
    input: &FactsInput<'_>,
) -> Result<Vec<(&'static str, String)>, TemplateError> {
    let model = input.model;
    let mut pages = Vec::new();
    let head = |title: String| (model.id.as_str(), model.id.namespace(), model.id.name(), title);
    if facts.files_page.is_some() {
        let all = model_facts(input, usize::MAX);
        let (id, namespace, name, title) = head(format!("Files of {}", model.id));
        let context = minijinja::context! { site, page_title => title, subpage => "files",
            model => minijinja::context! { id, namespace, name, facts => all } };
        pages.push(("files/index.html", templates.render("model-subpage.html", context)?));
    }
    if facts.tree.derivatives_page.is_some() {
        let (id, namespace, name, title) = head(format!("Models made from {}", model.id));
        let context = minijinja::context! { site, page_title => title, subpage => "derivatives",
            model => minijinja::context! { id, namespace, name, facts } };
        pages.push(("derivatives/index.html", templates.render("model-subpage.html", context)?));
    }
    Ok(pages)
}

/// The choice "Use this model" opens on, decided here so the page opens on
/// it without JavaScript: a GGUF repository's first local app (with the
/// default quantization, which the table and picker then rewrite); else the
/// model's library; else hosted inference when a provider serves the model;
/// else the first local app; else hosted inference, the only choice left.
fn opening_choice(page: &ModelPage<'_>, hosted_served: bool) -> &'static str {
    let has_local = !page.local_apps.is_empty();
    if has_local && page.gguf.has_model_files() {
        "local"
    } else if page.library.is_some() {
        "library"
    } else if hosted_served && !page.inference.is_empty() {
        "inference"
    } else if has_local {
        "local"
    } else {
        "inference"
    }
}

/// The quantization picker of a GGUF model's page.
fn quant_picker_of(page: &ModelPage<'_>) -> Option<QuantPickerView> {
    let default = page.gguf.default?;
    let context = &page.card_context;
    quant_picker_view(&page.local_apps, &page.quant_variants, default, &context.hub_url, &context.model_id)
}

/// Renders the page static hosts serve for unknown paths.
pub fn render_not_found_page(templates: &Templates, site: &SiteInfo) -> Result<String, TemplateError> {
    templates.render("404.html", minijinja::context! { site, page_title => "Page not found" })
}
