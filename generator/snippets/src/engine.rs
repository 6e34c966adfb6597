//! The snippet engine: compiled templates plus the catalogue, turning a model
//! record into usage examples. No I/O: records in, snippets out.

use std::collections::{BTreeMap, HashMap};

use minijinja::{Environment, UndefinedBehavior, Value as TemplateValue};
use modelpages_record::{ModelRecord, TransformersInfo, WidgetExample};
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{Catalogue, Library};
use crate::sample::SampleTexts;

/// The language of an example, as shown to users and used for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Js,
    Sh,
}

impl Language {
    /// The language a template's file extension stands for.
    pub fn from_extension(ext: &str) -> Option<Language> {
        match ext {
            "py" => Some(Language::Python),
            "js" => Some(Language::Js),
            "sh" => Some(Language::Sh),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Js => "js",
            Language::Sh => "sh",
        }
    }
}

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
}

/// A template that is missing or failed to render: a bug in the templates,
/// never the record's fault.
#[derive(Debug, thiserror::Error)]
pub enum SnippetError {
    #[error("snippet template {name}: {source:#}")]
    Render {
        name: String,
        #[source]
        source: minijinja::Error,
    },
    #[error("no inference template for language {language}, client {client}, template {template}")]
    TemplateNotFound { language: &'static str, client: String, template: String },
}

/// Compiled templates and the catalogue. Build one per process and share it.
pub struct SnippetEngine {
    env: Environment<'static>,
    catalogue: Catalogue,
    task_specs: Vec<crate::inference::TaskSpec>,
    providers: Vec<crate::inference::ProviderInfo>,
    local_apps: Vec<crate::local_apps::LocalApp>,
    /// The hosted-inference clients ([`crate::inference::clients`]).
    clients: Vec<crate::inference::Client>,
    /// Library key to its templates.
    library_templates: BTreeMap<String, LibraryTemplates>,
    /// The sample inputs made so far ([`crate::cache`]).
    sample_inputs: crate::cache::SampleInputsCache,
    /// The hosted-inference templates whose text can be given to every model
    /// it fits, with its own id ([`crate::cache::id_text`]), each with a number.
    pub(crate) reusable_inference_templates: HashMap<String, u32>,
    /// Hosted-inference examples kept for reuse ([`crate::cache`]).
    pub(crate) memo: crate::cache::memo::RenderMemo,
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
        let mut env = base_environment();
        minijinja_embed::load_templates!(env);
        SnippetEngine::with_environment(env)
    }

    /// The engine with templates given as `(name, source)` pairs, e.g. read from
    /// a folder while editing them. Fails on a template that does not compile.
    pub fn with_templates(
        templates: impl IntoIterator<Item = (String, String)>,
    ) -> Result<SnippetEngine, SnippetError> {
        let mut env = base_environment();
        for (name, source) in templates {
            env.add_template_owned(name.clone(), source).map_err(|source| SnippetError::Render { name, source })?;
        }
        Ok(SnippetEngine::with_environment(env))
    }

    fn with_environment(mut env: Environment<'static>) -> SnippetEngine {
        // Records may lack any field: a missing one reads as undefined, never an error.
        env.set_undefined_behavior(UndefinedBehavior::Chainable);
        crate::filters::register_filters(&mut env);
        let mut library_templates: BTreeMap<String, LibraryTemplates> = BTreeMap::new();
        for (name, template) in env.templates() {
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
        // Names first: templates given at run time are locked while listed,
        // and the check looks templates up.
        let inference_templates: Vec<String> = env
            .templates()
            .map(|(name, _)| name)
            .filter(|name| name.starts_with("inference/") && !name.rsplit('/').next().unwrap_or("").starts_with('_'))
            .map(str::to_owned)
            .collect();
        let reusable_inference_templates = inference_templates
            .into_iter()
            .filter(|name| crate::cache::id_text::uses_id_only_as_text(&env, name, crate::inference::ID_NAMES))
            .zip(0..)
            .collect();
        SnippetEngine {
            env,
            catalogue: Catalogue::builtin(),
            task_specs: crate::inference::task_specs(),
            providers: crate::inference::known_providers(),
            local_apps: crate::local_apps::builtin_apps(),
            clients: crate::inference::CLIENTS.to_vec(),
            library_templates,
            sample_inputs: Default::default(),
            reusable_inference_templates,
            memo: crate::cache::memo::RenderMemo::default(),
        }
    }

    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// The tasks hosted inference serves, with their template kinds.
    pub fn task_table(&self) -> &[crate::inference::TaskSpec] {
        &self.task_specs
    }

    pub(crate) fn task_specs(&self) -> &[crate::inference::TaskSpec] {
        &self.task_specs
    }

    pub(crate) fn providers(&self) -> &[crate::inference::ProviderInfo] {
        &self.providers
    }

    /// Renders `inference/<language>/<client>/<template>` (named `name`); a
    /// missing template is an error naming all three.
    pub(crate) fn render_inference(
        &self,
        name: &str,
        (language, client, template): (Language, &str, &str),
        context: &TemplateValue,
    ) -> Result<String, SnippetError> {
        let Ok(compiled) = self.env.get_template(name) else {
            return Err(SnippetError::TemplateNotFound {
                language: language.as_str(),
                client: client.to_owned(),
                template: template.to_owned(),
            });
        };
        render_template(&compiled, context)
    }

    /// Makes every example for each model alone, as if no template could be
    /// reused: what reuse must not change.
    #[cfg(test)]
    pub(crate) fn reuse_nothing(&mut self) {
        self.reusable_inference_templates.clear();
    }

    /// The number of the hosted-inference template `name` if its text can be
    /// given to every model it fits, with its own id.
    pub(crate) fn reusable_inference_template(&self, name: &str) -> Option<u32> {
        self.reusable_inference_templates.get(name).copied()
    }

    /// The local apps, in the order pages show them.
    pub fn local_apps(&self) -> &[crate::local_apps::LocalApp] {
        &self.local_apps
    }

    #[cfg(test)]
    pub(crate) fn has_template(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
    }

    /// The names of the templates under `folder` (`inference/python/openai/`).
    #[cfg(test)]
    pub(crate) fn template_names_under(&self, folder: &str) -> Vec<String> {
        self.env.templates().map(|(name, _)| name).filter(|name| name.starts_with(folder)).map(str::to_owned).collect()
    }

    #[cfg(test)]
    pub(crate) fn template_source(&self, name: &str) -> Option<String> {
        self.env.get_template(name).ok().map(|t| t.source().to_owned())
    }

    /// The inference clients examples are made for, in the order pages
    /// show them ([`crate::inference::CLIENTS`] unless replaced).
    pub fn clients(&self) -> &[crate::inference::Client] {
        &self.clients
    }

    /// This engine with another client table, e.g. the built-in one plus a
    /// client whose templates were given to [`SnippetEngine::with_templates`].
    pub fn with_clients(mut self, clients: Vec<crate::inference::Client>) -> SnippetEngine {
        self.clients = clients;
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
        if let Some(templates) = self.library_templates.get(&library.key) {
            let record_context = RecordContext::of(record);
            let inputs = if templates.reads_inputs { Some(self.sample_inputs(&record_context.sample)?) } else { None };
            let mut context = TemplateValue::from_serialize(record_context);
            if let Some(inputs) = inputs {
                context = minijinja::context! { inputs, ..context };
            }
            for (name, language) in &templates.examples {
                let content = self.render(name, &context)?;
                if !content.is_empty() {
                    snippets.push(Snippet { language: *language, content });
                }
            }
            // A fallback says there is nothing to run; beside an example in
            // its language that runs, it only confuses.
            let runnable: Vec<Language> = snippets.iter().filter(|s| !s.is_fallback()).map(|s| s.language).collect();
            snippets.retain(|s| !s.is_fallback() || !runnable.contains(&s.language));
        }
        Ok(Some(LibraryExamples { library, snippets }))
    }

    pub(crate) fn render(&self, name: &str, context: &TemplateValue) -> Result<String, SnippetError> {
        let error = |source| SnippetError::Render { name: name.to_owned(), source };
        render_template(&self.env.get_template(name).map_err(error)?, context)
    }

    /// The sample inputs for a model whose sample texts are `sample`: the
    /// template reads nothing else, so the texts are the key.
    fn sample_inputs(&self, sample: &SampleTexts) -> Result<TemplateValue, SnippetError> {
        self.sample_inputs.get_or_make(sample, || self.shared_values(INPUTS_TEMPLATE, &minijinja::context! { sample }))
    }

    /// The variables the template `name` sets at its top level, rendered with
    /// `context`, as one map: values that several templates of a model read,
    /// made once per model. (Macros imported by each template would be built
    /// again on every render: minijinja cannot share them between renders.)
    pub(crate) fn shared_values(&self, name: &str, context: &TemplateValue) -> Result<TemplateValue, SnippetError> {
        let error = |source| SnippetError::Render { name: name.to_owned(), source };
        let captured = self.env.get_template(name).and_then(|t| t.render_captured(context)).map_err(error)?;
        let state = captured.state();
        Ok(state.exports().into_iter().map(|var| (var, state.lookup(var).unwrap_or_default())).collect())
    }
}

/// Renders a template and tidies the text.
fn render_template(template: &minijinja::Template<'_, '_>, context: &TemplateValue) -> Result<String, SnippetError> {
    let error = |source| SnippetError::Render { name: template.name().to_owned(), source };
    Ok(tidy(template.render(context).map_err(error)?))
}

fn base_environment() -> Environment<'static> {
    let mut env = Environment::new();
    // Whitespace control is applied when a template compiles, so set it first.
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    // Included pieces end with a newline like any file; keep it so the next
    // line of the including template starts on a line of its own.
    env.set_keep_trailing_newline(true);
    env.set_formatter(write_value);
    env
}

/// Writes a value a template prints, as minijinja's default formatter does,
/// but a string without escaping straight into the output rather than
/// through `Display`: examples are code, and nearly every value printed is a
/// string a filter made.
fn write_value(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &TemplateValue,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.auto_escape() == minijinja::AutoEscape::None => Ok(out.write_str(text)?),
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Strips trailing spaces from every line and blank lines at both ends, so
/// templates can be laid out for reading.
fn tidy(text: String) -> String {
    if is_tidy(&text) {
        return text;
    }
    let text = text.trim_matches('\n');
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push_str(text[start..at].trim_end());
        out.push('\n');
        start = at + 1;
    }
    out.push_str(text[start..].trim_end());
    out.truncate(out.trim_end().len());
    out
}

/// Whether [`tidy`] would leave `text` as it is, which it nearly always
/// does: then the text is kept rather than copied. Only the end of each line
/// is looked at; a line ending in a character outside ASCII is left to
/// `tidy` to judge.
fn is_tidy(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Branch-free, so that the compiler checks many bytes at once.
    let ends_line = |byte: u8| (byte < 0x80) & !matches!(byte, b' ' | b'\t'..=b'\r');
    // A blank line inside the text is kept; one at either end is not.
    let untidy_end = |before: u8, byte: u8| (byte == b'\n') & (before != b'\n') & !ends_line(before);
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else { return false };
    if first == b'\n' || !ends_line(last) {
        return false;
    }
    // Each byte with the one before it, 32 pairs at a time.
    let (befores, bytes) = (&bytes[..bytes.len() - 1], &bytes[1..]);
    !befores.chunks(32).zip(bytes.chunks(32)).any(|(befores, bytes)| {
        befores.iter().zip(bytes).fold(false, |untidy, (&before, &byte)| untidy | untidy_end(before, byte))
    })
}

/// What a library template can read. Field names follow the record, so a
/// template reads like the Hub API documentation.
#[derive(Serialize)]
struct RecordContext<'a> {
    id: &'a str,
    tags: &'a [String],
    pipeline_tag: Option<&'a str>,
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
    /// What the model's examples send it, the same as hosted inference
    /// sends ([`crate::sample`]).
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

/// The first widget example's text: the sample text of examples.
pub(crate) fn widget_text(record: &ModelRecord) -> Option<&str> {
    record.widget_data.iter().find_map(|w| w.text.as_deref())
}

fn first_string(value: Option<&Value>) -> Option<&str> {
    match value? {
        Value::String(s) => Some(s),
        Value::Array(items) => items.iter().find_map(Value::as_str),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `tidy` as it was first written, line by line: the fast one must agree.
    fn reference_tidy(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for line in text.trim_matches('\n').lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }

    proptest! {
        #[test]
        fn tidy_gives_the_reference_text(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "é", " ", "\t", "\r", "\n", "\n\n", "\u{a0}", "\u{2028}", "\u{b}", "\u{1c}", "x y",
                ]),
                0..16,
            )
        ) {
            let text = pieces.concat();
            prop_assert_eq!(tidy(text.clone()), reference_tidy(&text), "{:?}", text);
        }
    }

    #[test]
    fn tidy_examples() {
        assert_eq!(tidy("\n\nimport os  \n\n\nprint(1)\t\r\n \n".into()), "import os\n\n\nprint(1)");
        assert_eq!(tidy("a\nb".into()), "a\nb");
        assert_eq!(tidy("".into()), "");
        assert_eq!(tidy("\n".into()), "");
    }
}
