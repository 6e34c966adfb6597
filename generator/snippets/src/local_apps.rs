//! Local apps: programs that run a model on the visitor's own machine
//! (llama.cpp, Ollama, LM Studio, vLLM, MLX LM, ...), each with its command or
//! deep link for a model.
//!
//! The apps and the rules for which models each can run are data
//! (`data/local_apps.json`); commands are templates in
//! `templates/local_apps/<key>/`, deep links URL patterns in the data. Records
//! are untrusted: ids and file names reach shell code only through the `sh`
//! filter and URLs only percent-encoded.

use modelpages_gguf::GgufFiles;
use modelpages_record::ModelRecord;
use serde::{Deserialize, Serialize};

use crate::language::Language;
use crate::template_set::{SnippetError, TemplateSet};

/// One local app as the catalogue describes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocalApp {
    pub key: String,
    pub label: String,
    pub docs_url: String,
    pub kind: LocalAppKind,
    #[serde(default)]
    pub macos_only: bool,
    /// The app shows for a model that matches any of these.
    when: Vec<Rule>,
    /// Command apps: one example per entry, in order.
    #[serde(default)]
    commands: Vec<Command>,
}

/// Whether an app is used through shell commands or opened by a link.
/// Named `command` and `deeplink` in the catalogue and in `modelpages
/// snippets`; the JSON API names them its own way (`site::api`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LocalAppKind {
    /// A shell command to paste into a terminal.
    Command,
    /// A link that opens the app with the model selected.
    DeepLink,
}

/// Conditions a model must all meet; a list condition is met by any of its items.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Rule {
    /// Whether the model must (or must not) have GGUF model files.
    gguf: Option<bool>,
    #[serde(default)]
    tasks: Vec<String>,
    #[serde(default)]
    libraries: Vec<String>,
    /// Tags the model must all have.
    #[serde(default)]
    tags_all: Vec<String>,
    /// Deep-link apps: the link for models this rule matches, `{id}` standing
    /// for the percent-encoded model id.
    url: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Command {
    title: String,
    /// Path under `templates/local_apps/`.
    template: String,
}

/// One way to run a model in one app: a command to copy, or a link to open.
/// The one type for it: the page (render), the API file (site) and
/// `modelpages snippets` all take it as it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalAppExample {
    /// The app's key, e.g. `llama.cpp`.
    pub app: String,
    pub label: String,
    pub docs_url: String,
    pub kind: LocalAppKind,
    pub macos_only: bool,
    /// What the example does, e.g. "Install with Homebrew".
    pub title: String,
    /// `sh` for commands; none for links.
    pub language: Option<Language>,
    /// The command, or the link.
    pub content: String,
}

/// The local apps that can run a model, and the model's own values their
/// commands quote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LocalAppExamples {
    /// Each app's examples together, in the order pages show the apps.
    pub apps: Vec<LocalAppExample>,
    /// The model's own values the commands quote (its id, a file name, a
    /// widget text...), sorted, each once ([`crate::substituted`]).
    pub values: Vec<String>,
}

/// The local-app catalogue built into the binary, in the order pages show it.
pub(crate) fn builtin_apps() -> Vec<LocalApp> {
    serde_json::from_str(include_str!("../data/local_apps.json")).expect("data/local_apps.json is valid (tested)")
}

/// How llama.cpp and the apps built on it name a model with GGUF files:
/// templates read each variable this one sets as `llama.<name>`.
const LLAMA_TEMPLATE: &str = "local_apps/_llama.jinja";

/// What a local-app template can read.
#[derive(Serialize)]
struct LocalAppContext<'a> {
    id: &'a str,
    /// The part of the id after the namespace.
    name: &'a str,
    tags: &'a [String],
    pipeline_tag: Option<&'a str>,
    /// A chat model ([`ModelRecord::is_conversational`]).
    conversational: bool,
    widget_text: Option<&'a str>,
    /// Whether the model has GGUF model files.
    gguf: bool,
    /// The default quantization label, e.g. `Q4_K_M`.
    quant: Option<&'a str>,
    /// Every quantization label, largest first.
    quants: Vec<&'a str>,
    /// The GGUF file to name where an app takes a file (its first shard).
    file: Option<&'a str>,
    /// `<id>:<quant>` with a default quantization, else the id: how
    /// llama.cpp, Ollama and friends name a model on the Hub.
    model_ref: String,
}

impl Rule {
    fn matches(&self, record: &ModelRecord, has_gguf: bool) -> bool {
        let any = |wanted: &[String], have: Option<&str>| wanted.is_empty() || have.is_some_and(|h| wanted.iter().any(|w| w == h));
        self.gguf.is_none_or(|g| g == has_gguf)
            && any(&self.tasks, record.task())
            && any(&self.libraries, record.library())
            && self.tags_all.iter().all(|t| record.has_tag(t))
    }
}

/// The apps of `apps` that can run `record`, each with its commands or
/// link, rendered from `templates`. `gguf` is the model's GGUF files as the
/// build saw them (with files found beside the record); without it they
/// come from the record's `siblings`.
pub(crate) fn examples(
    apps: &[LocalApp],
    templates: &TemplateSet,
    record: &ModelRecord,
    gguf: Option<&GgufFiles>,
) -> Result<LocalAppExamples, SnippetError> {
    let (apps, values) = crate::substituted::noting(|| app_examples(apps, templates, record, gguf));
    Ok(LocalAppExamples { apps: apps?, values: crate::substituted::reported(values) })
}

/// [`examples`] without the values.
fn app_examples(
    apps: &[LocalApp],
    templates: &TemplateSet,
    record: &ModelRecord,
    gguf: Option<&GgufFiles>,
) -> Result<Vec<LocalAppExample>, SnippetError> {
    let from_siblings;
    let gguf = match gguf {
        Some(gguf) => gguf,
        None => {
            from_siblings = GgufFiles::new(record.siblings.iter().map(|s| (s.rfilename.as_str(), s.size)), &Default::default());
            &from_siblings
        }
    };
    let has_gguf = gguf.has_model_files();
    let quant = gguf.default_group().map(|g| g.label.as_str());
    let context = LocalAppContext {
        id: &record.id,
        name: record.id.split_once('/').map_or(record.id.as_str(), |(_, name)| name),
        tags: &record.tags,
        pipeline_tag: record.task(),
        conversational: record.is_conversational(),
        widget_text: crate::sample::widget_text(record),
        gguf: has_gguf,
        quant,
        quants: gguf.groups.iter().map(|g| g.label.as_str()).collect(),
        file: gguf.default_file().map(|f| f.name.as_str()),
        model_ref: match quant {
            Some(quant) => format!("{}:{quant}", record.id),
            None => record.id.clone(),
        },
    };
    let mut context = minijinja::Value::from_serialize(&context);
    if has_gguf {
        let llama = templates.shared_values(LLAMA_TEMPLATE, &context)?;
        context = minijinja::context! { llama, ..context };
    }
    let mut examples = Vec::new();
    for app in apps {
        let Some(rule) = app.when.iter().find(|r| r.matches(record, has_gguf)) else { continue };
        let example = |title: &str, language, content| LocalAppExample {
            app: app.key.clone(),
            label: app.label.clone(),
            docs_url: app.docs_url.clone(),
            kind: app.kind,
            macos_only: app.macos_only,
            title: title.to_owned(),
            language,
            content,
        };
        match (app.kind, &rule.url) {
            (LocalAppKind::DeepLink, Some(url)) => {
                examples.push(example(&format!("Open in {}", app.label), None, url.replace("{id}", &crate::escape::percent_encode_path(&record.id))));
            }
            _ => {
                for command in &app.commands {
                    let content = templates.render(&format!("local_apps/{}", command.template), &context)?;
                    if !content.is_empty() {
                        examples.push(example(&command.title, Some(Language::Sh), content));
                    }
                }
            }
        }
    }
    Ok(examples)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SnippetEngine;

    #[test]
    fn catalogue_is_consistent() {
        let engine = SnippetEngine::new();
        let apps = engine.local_apps();
        assert!(apps.len() >= 20);
        let mut keys: Vec<&str> = apps.iter().map(|a| a.key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), apps.len(), "keys are unique");
        for app in apps {
            assert!(app.docs_url.starts_with("https://"), "{}", app.key);
            assert!(!app.when.is_empty(), "{} shows for some models", app.key);
            match app.kind {
                LocalAppKind::DeepLink => {
                    assert!(app.commands.is_empty(), "{}", app.key);
                    assert!(app.when.iter().all(|r| r.url.as_deref().is_some_and(|u| u.contains("{id}"))), "{}", app.key);
                }
                LocalAppKind::Command => {
                    assert!(!app.commands.is_empty() && app.when.iter().all(|r| r.url.is_none()), "{}", app.key);
                    for command in &app.commands {
                        let name = format!("local_apps/{}", command.template);
                        assert!(engine.has_template(&name), "{name} exists");
                    }
                }
            }
        }
    }

}
