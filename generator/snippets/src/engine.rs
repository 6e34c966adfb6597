//! The snippet engine: compiled templates plus the catalogue, turning a model
//! record into usage examples. No I/O: records in, snippets out.
//!
//! The engine owns the parts and hands each kind of example what it needs:
//! library examples are made here, from the record and the library's
//! templates; hosted-inference examples by [`crate::inference`] and
//! local-app examples by [`crate::local_apps`], each given the compiled
//! templates ([`TemplateSet`]) rather than the engine, so neither needs it
//! back.

use std::collections::BTreeMap;

use minijinja::Value as TemplateValue;
use modelpages_gguf::GgufFiles;
use modelpages_record::{ModelRecord, TransformersInfo, WidgetExample};
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{Catalogue, Library};
use crate::inference::{HostedInference, InferenceExamples, InferenceOptions, InferenceSettings};
use crate::language::Language;
use crate::local_apps::{LocalApp, LocalAppExamples};
use crate::sample::{widget_text, SampleTexts};
use crate::template_set::{SnippetError, TemplateSet};

/// One ready-to-copy example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Snippet {
    pub language: Language,
    pub content: String,
}

impl Snippet {
    /// Whether the example only says why there is nothing to run (a spec
    /// fallback such as `# Type of model unknown`): every line a comment.
    pub fn is_fallback(&self) -> bool {
        is_comment_only(self.language, &self.content)
    }
}

/// Whether every non-blank line of `text` is a comment in `language`: code
/// that runs nothing.
pub fn is_comment_only(language: Language, text: &str) -> bool {
    let marker = match language {
        Language::Js => "//",
        Language::Python | Language::Sh => "#",
    };
    text.lines().map(str::trim).filter(|line| !line.is_empty()).all(|line| line.starts_with(marker))
}

/// A model's library and the examples of using the model from it.
#[derive(Clone, Debug, Serialize)]
pub struct LibraryExamples<'a> {
    pub library: &'a Library,
    pub snippets: Vec<Snippet>,
    /// The model's own values the examples quote (the id, a widget text, a
    /// base model the config names...), sorted, each once: whatever
    /// template quoted them ([`crate::substituted`]).
    #[serde(skip)]
    pub values: Vec<String>,
}

/// Compiled templates and the catalogue. Build one per process and share it.
pub struct SnippetEngine {
    templates: TemplateSet,
    catalogue: Catalogue,
    /// Tasks, providers and clients of hosted inference, and its kept texts.
    pub(crate) inference: HostedInference,
    local_apps: Vec<LocalApp>,
    /// Library key to its templates.
    library_templates: BTreeMap<String, LibraryTemplates>,
    /// The sample inputs made so far ([`crate::cache`]).
    sample_inputs: crate::cache::SampleInputsCache,
}

/// The usage-example templates of one library.
struct LibraryTemplates {
    /// Names and languages, in file-name order.
    examples: Vec<(String, Language)>,
    /// Whether any of them reads the sample inputs ([`INPUTS_TEMPLATE`]).
    reads_inputs: bool,
}

/// The sample inputs library templates read as `inputs.<name>`: each
/// variable this template sets, rendered from `sample` alone.
const INPUTS_TEMPLATE: &str = "shared/inputs.jinja";

impl Default for SnippetEngine {
    fn default() -> Self {
        SnippetEngine::new()
    }
}

impl SnippetEngine {
    /// The engine with the templates compiled into the binary.
    pub fn new() -> SnippetEngine {
        SnippetEngine::with_template_set(TemplateSet::builtin())
    }

    /// The engine with templates given as `(name, source)` pairs, e.g. read from
    /// a folder while editing them. Fails on a template that does not compile.
    pub fn with_templates(
        templates: impl IntoIterator<Item = (String, String)>,
    ) -> Result<SnippetEngine, SnippetError> {
        Ok(SnippetEngine::with_template_set(TemplateSet::from_sources(templates)?))
    }

    fn with_template_set(templates: TemplateSet) -> SnippetEngine {
        let mut library_templates: BTreeMap<String, LibraryTemplates> = BTreeMap::new();
        for (name, template) in templates.environment().templates() {
            let Some(rest) = name.strip_prefix("library/") else { continue };
            let (key, file) = rest.split_once('/').unwrap_or_else(|| panic!("{name}: expected library/<key>/<file>"));
            let ext = file.rsplit('.').next().unwrap_or("");
            let language =
                Language::from_extension(ext).unwrap_or_else(|| panic!("{name}: extension must be .py, .js or .sh"));
            let templates = library_templates
                .entry(key.to_owned())
                .or_insert_with(|| LibraryTemplates { examples: Vec::new(), reads_inputs: false });
            templates.examples.push((name.to_owned(), language));
            templates.reads_inputs |= template.undeclared_variables(false).contains("inputs");
        }
        for templates in library_templates.values_mut() {
            templates.examples.sort();
        }
        SnippetEngine {
            inference: HostedInference::new(&templates),
            templates,
            catalogue: Catalogue::builtin(),
            local_apps: crate::local_apps::builtin_apps(),
            library_templates,
            sample_inputs: Default::default(),
        }
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The tasks hosted inference serves, with their template kinds.
    pub fn task_table(&self) -> &[crate::inference::TaskSpec] {
        self.inference.task_specs()
    }

    /// The hosted-inference examples of `record`. Never fails for the record's
    /// sake: a provider that cannot serve the model is noted and skipped.
    pub fn inference_examples(
        &self,
        record: &ModelRecord,
        settings: &InferenceSettings,
        options: &InferenceOptions,
    ) -> Result<InferenceExamples, SnippetError> {
        self.inference.examples(&self.templates, record, settings, options)
    }

    /// Makes every example for each model alone, as if no template could be
    /// reused: what reuse must not change.
    #[cfg(test)]
    pub(crate) fn reuse_nothing(&mut self) {
        self.inference.reusable_templates.clear();
    }

    /// The local apps that can run `record`, each with its commands or link.
    /// `gguf` is the model's GGUF files as the build saw them (with files
    /// found beside the record); without it they come from the record's
    /// `siblings`.
    pub fn local_app_examples(
        &self,
        record: &ModelRecord,
        gguf: Option<&GgufFiles>,
    ) -> Result<LocalAppExamples, SnippetError> {
        crate::local_apps::examples(&self.local_apps, &self.templates, record, gguf)
    }

    /// The local apps, in the order pages show them.
    pub fn local_apps(&self) -> &[LocalApp] {
        &self.local_apps
    }

    #[cfg(test)]
    pub(crate) fn has_template(&self, name: &str) -> bool {
        self.templates.has_template(name)
    }

    /// The names of the templates under `folder` (`inference/python/openai/`).
    #[cfg(test)]
    pub(crate) fn template_names_under(&self, folder: &str) -> Vec<String> {
        self.templates.environment().templates().map(|(name, _)| name).filter(|name| name.starts_with(folder)).map(str::to_owned).collect()
    }

    #[cfg(test)]
    pub(crate) fn template_source(&self, name: &str) -> Option<String> {
        self.templates.environment().get_template(name).ok().map(|t| t.source().to_owned())
    }

    /// The inference clients examples are made for, in the order pages
    /// show them ([`crate::inference::CLIENTS`] unless replaced).
    pub fn clients(&self) -> &[crate::inference::Client] {
        &self.inference.clients
    }

    /// This engine with another client table, e.g. the built-in one plus a
    /// client whose templates were given to [`SnippetEngine::with_templates`].
    pub fn with_clients(mut self, clients: Vec<crate::inference::Client>) -> SnippetEngine {
        self.inference.clients = clients;
        self
    }

    /// Whether `key` has usage-example templates.
    pub fn has_snippets(&self, key: &str) -> bool {
        self.library_templates.contains_key(key)
    }

    /// Keys of the libraries with templates that are missing from the catalogue
    /// (a test keeps this empty).
    pub fn templates_without_library(&self) -> Vec<&str> {
        self.library_templates.keys().map(String::as_str).filter(|k| self.catalogue.get(k).is_none()).collect()
    }

    /// The model's library and its examples; `None` when the record names no
    /// library the catalogue knows.
    pub fn library_examples(&self, record: &ModelRecord) -> Result<Option<LibraryExamples<'_>>, SnippetError> {
        let Some(library) = record.library().and_then(|key| self.catalogue.get(key)) else {
            return Ok(None);
        };
        let mut snippets = Vec::new();
        let mut values = Vec::new();
        if let Some(templates) = self.library_templates.get(&library.key) {
            let record_context = RecordContext::of(record);
            let inputs = if templates.reads_inputs { Some(self.sample_inputs(&record_context.sample)?) } else { None };
            if inputs.is_some() {
                // Made once for every model with these texts, so reported here.
                values.extend(record_context.sample.texts().map(str::to_owned));
            }
            let mut context = TemplateValue::from_serialize(record_context);
            if let Some(inputs) = inputs {
                context = minijinja::context! { inputs, ..context };
            }
            for (name, language) in &templates.examples {
                let (content, quoted) = crate::substituted::noting(|| self.templates.render(name, &context));
                let content = content?;
                values.extend(quoted);
                if !content.is_empty() {
                    snippets.push(Snippet { language: *language, content });
                }
            }
            // A fallback says there is nothing to run; beside an example in
            // its language that runs, it only confuses.
            let runnable: Vec<Language> = snippets.iter().filter(|s| !s.is_fallback()).map(|s| s.language).collect();
            snippets.retain(|s| !s.is_fallback() || !runnable.contains(&s.language));
        }
        Ok(Some(LibraryExamples { library, snippets, values: crate::substituted::reported(values) }))
    }

    /// The sample inputs for a model whose sample texts are `sample`: the
    /// template reads nothing else, so the texts are the key.
    fn sample_inputs(&self, sample: &SampleTexts) -> Result<TemplateValue, SnippetError> {
        self.sample_inputs.get_or_make(sample, || self.templates.shared_values(INPUTS_TEMPLATE, &minijinja::context! { sample }))
    }
}

/// What a library template can read. Field names follow the record, so a
/// template reads like the Hub API documentation.
#[derive(Serialize)]
struct RecordContext<'a> {
    id: &'a str,
    tags: &'a [String],
    pipeline_tag: Option<&'a str>,
    /// A chat model: tagged `conversational`, of that `pipeline_tag`, or
    /// served for chat by a provider ([`ModelRecord::is_conversational`]).
    conversational: bool,
    library_name: Option<&'a str>,
    config: &'a Value,
    /// The record's `transformersInfo`, or the classes its architecture
    /// gives ([`crate::transformers_class`]).
    transformers_info: Option<TransformersInfo>,
    widget_data: &'a [WidgetExample],
    /// The first widget example that has a `text`.
    widget_text: Option<&'a str>,
    /// The first widget example that has a `source_sentence`.
    source_sentence: Option<&'a str>,
    sentences: &'a [String],
    card_data: &'a Value,
    /// `cardData.base_model`, or its first item when it is a list.
    base_model: Option<&'a str>,
    instance_prompt: Option<&'a str>,
    /// What the model's examples send it (texts, table, candidate labels),
    /// the same as hosted inference sends ([`crate::sample`]).
    sample: SampleTexts,
}

static NULL: Value = Value::Null;

impl<'a> RecordContext<'a> {
    fn of(record: &'a ModelRecord) -> RecordContext<'a> {
        let card_data = record.card_data.as_ref().unwrap_or(&NULL);
        let similarity = record.widget_data.iter().find(|w| w.source_sentence.is_some());
        let task = record.task();
        RecordContext {
            id: &record.id,
            tags: &record.tags,
            pipeline_tag: task,
            conversational: record.is_conversational(),
            library_name: record.library(),
            config: record.config.as_ref().unwrap_or(&NULL),
            transformers_info: crate::transformers_class::transformers_info(record),
            widget_data: &record.widget_data,
            widget_text: widget_text(record),
            source_sentence: similarity.and_then(|w| w.source_sentence.as_deref()),
            sentences: similarity.map_or(&[], |w| &w.sentences),
            card_data,
            base_model: record.base_models().first().copied(),
            instance_prompt: first_string(card_data.get("instance_prompt")),
            sample: SampleTexts::of(record, task.unwrap_or_default()),
        }
    }
}

fn first_string(value: Option<&Value>) -> Option<&str> {
    match value? {
        Value::String(s) => Some(s),
        Value::Array(items) => items.iter().find_map(Value::as_str),
        _ => None,
    }
}
