//! The snippet engine: compiled templates plus the catalogue, turning a model
//! record into usage examples. No I/O: records in, snippets out.

use std::collections::BTreeMap;

use minijinja::{Environment, UndefinedBehavior, Value as TemplateValue};
use modelpages_record::{ModelRecord, TransformersInfo, WidgetExample};
use serde::Serialize;
use serde_json::Value;

use crate::catalogue::{Catalogue, Library};
use crate::escape::{comment_text, identifier, js_str, py_str, py_value, sh_str};

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
    /// Library key to its templates, in file-name order.
    library_templates: BTreeMap<String, Vec<(String, Language)>>,
}

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
        register_filters(&mut env);
        let mut library_templates: BTreeMap<String, Vec<(String, Language)>> = BTreeMap::new();
        for (name, _) in env.templates() {
            let Some(rest) = name.strip_prefix("library/") else { continue };
            let (key, file) = rest.split_once('/').unwrap_or_else(|| panic!("{name}: expected library/<key>/<file>"));
            let ext = file.rsplit('.').next().unwrap_or("");
            let language =
                Language::from_extension(ext).unwrap_or_else(|| panic!("{name}: extension must be .py, .js or .sh"));
            library_templates.entry(key.to_owned()).or_default().push((name.to_owned(), language));
        }
        for templates in library_templates.values_mut() {
            templates.sort();
        }
        SnippetEngine {
            env,
            catalogue: Catalogue::builtin(),
            task_specs: crate::inference::task_specs(),
            providers: crate::inference::known_providers(),
            local_apps: crate::local_apps::builtin_apps(),
            library_templates,
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

    /// Renders `inference/<language>/<client>/<template>`; a missing template
    /// is an error naming all three.
    pub(crate) fn render_inference(
        &self,
        language: Language,
        client: &str,
        template: &str,
        context: &impl Serialize,
    ) -> Result<String, SnippetError> {
        let name = format!("inference/{}/{client}/{template}.jinja", language.as_str());
        if self.env.get_template(&name).is_err() {
            return Err(SnippetError::TemplateNotFound {
                language: language.as_str(),
                client: client.to_owned(),
                template: template.to_owned(),
            });
        }
        self.render(&name, &TemplateValue::from_serialize(context))
    }

    /// The local apps, in the order pages show them.
    pub fn local_apps(&self) -> &[crate::local_apps::LocalApp] {
        &self.local_apps
    }

    #[cfg(test)]
    pub(crate) fn has_template(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
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
            let context = TemplateValue::from_serialize(RecordContext::of(record));
            for (name, language) in templates {
                let content = self.render(name, &context)?;
                if !content.is_empty() {
                    snippets.push(Snippet { language: *language, content });
                }
            }
        }
        Ok(Some(LibraryExamples { library, snippets }))
    }

    pub(crate) fn render(&self, name: &str, context: &TemplateValue) -> Result<String, SnippetError> {
        let error = |source| SnippetError::Render { name: name.to_owned(), source };
        let template = self.env.get_template(name).map_err(error)?;
        let text = template.render(context).map_err(error)?;
        Ok(tidy(&text))
    }
}

fn base_environment() -> Environment<'static> {
    let mut env = Environment::new();
    // Whitespace control is applied when a template compiles, so set it first.
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    // Included pieces end with a newline like any file; keep it so the next
    // line of the including template starts on a line of its own.
    env.set_keep_trailing_newline(true);
    env
}

/// Strips trailing spaces from every line and blank lines at both ends, so
/// templates can be laid out for reading.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.trim_matches('\n').lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
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
    transformers_info: Option<&'a TransformersInfo>,
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
}

static NULL: Value = Value::Null;

impl<'a> RecordContext<'a> {
    fn of(record: &'a ModelRecord) -> RecordContext<'a> {
        let card_data = record.card_data.as_ref().unwrap_or(&NULL);
        let similarity = record.widget_data.iter().find(|w| w.source_sentence.is_some());
        RecordContext {
            id: &record.id,
            tags: &record.tags,
            pipeline_tag: record.task(),
            library_name: record.library(),
            config: record.config.as_ref().unwrap_or(&NULL),
            transformers_info: record.transformers_info.as_ref(),
            widget_data: &record.widget_data,
            widget_text: record.widget_data.iter().find_map(|w| w.text.as_deref()),
            source_sentence: similarity.and_then(|w| w.source_sentence.as_deref()),
            sentences: similarity.map_or(&[], |w| &w.sentences),
            card_data,
            base_model: first_string(card_data.get("base_model")),
            instance_prompt: first_string(card_data.get("instance_prompt")),
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

/// Filters every template may use. Each takes what a template holds and
/// returns code in one language.
fn register_filters(env: &mut Environment<'static>) {
    // String literals; non-strings (numbers) are written in their text form.
    env.add_filter("py", |v: TemplateValue| py_str(&text_of(&v)));
    env.add_filter("js", |v: TemplateValue| js_str(&text_of(&v)));
    env.add_filter("sh", |v: TemplateValue| sh_str(&text_of(&v)));
    env.add_filter("comment", |v: TemplateValue| comment_text(&text_of(&v)));
    // A class or function name from the record, or none when it is not one.
    env.add_filter("ident", |v: TemplateValue| {
        v.as_str().and_then(identifier).map(TemplateValue::from).unwrap_or(TemplateValue::from(()))
    });
    // Any record value as a Python literal (dicts, lists, True/None...).
    env.add_filter("pyval", |v: TemplateValue| {
        let json: Value = serde_json::to_value(&v).unwrap_or(Value::Null);
        py_value(&json)
    });
    // `body | format_body("python", 1)`: one JSON value as json, python,
    // python_kwargs, js or curl, indented for the line it starts on.
    env.add_filter("format_body", |v: TemplateValue, format: String, level: Option<usize>| {
        let json: Value = serde_json::to_value(&v).unwrap_or(Value::Null);
        let format = crate::inference::BodyFormat::parse(&format)
            .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string()))?;
        crate::inference::format_body(&json, format, level.unwrap_or(0))
            .map_err(|e| minijinja::Error::new(minijinja::ErrorKind::InvalidOperation, e.to_string()))
    });
    // `token_env | js_env`: `process.env.HF_TOKEN` (bracketed if not an identifier).
    env.add_filter("js_env", |v: TemplateValue| {
        let name = text_of(&v);
        match identifier(&name) {
            Some(id) => format!("process.env.{id}"),
            None => format!("process.env[{}]", js_str(&name)),
        }
    });
    // `a | merge_dict(b)`: a new mapping with b's entries after a's.
    env.add_filter("merge_dict", |a: TemplateValue, b: TemplateValue| {
        let mut merged: serde_json::Map<String, Value> = match serde_json::to_value(&a) {
            Ok(Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        if let Ok(Value::Object(extra)) = serde_json::to_value(&b) {
            merged.extend(extra);
        }
        TemplateValue::from_serialize(Value::Object(merged))
    });
    // `tags | digits_after("yolov")`: "8" for a tag "yolov8", none without one.
    env.add_filter("digits_after", |list: TemplateValue, prefix: String| {
        let found = list.try_iter().ok().and_then(|mut items| {
            items.find_map(|item| {
                let digits = item.as_str()?.strip_prefix(prefix.as_str())?;
                (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.to_owned())
            })
        });
        found.map(TemplateValue::from).unwrap_or(TemplateValue::from(()))
    });
}

fn text_of(value: &TemplateValue) -> String {
    match value.as_str() {
        Some(s) => s.to_owned(),
        None if value.is_undefined() || value.is_none() => String::new(),
        None => value.to_string(),
    }
}
