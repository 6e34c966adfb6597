//! "What the model sees": a chat model's template rendered at build time on
//! a short sample conversation, so a visitor reads the exact text the model
//! is given, special tokens and all.
//!
//! The template is the record's `config.tokenizer_config.chat_template` (a
//! string, or a list of `{name, template}` of which `default` or else the
//! first is taken), else the GGUF header's `tokenizer.chat_template`, else
//! the record's `gguf.chat_template`. Special tokens (`bos_token`,
//! `eos_token`, ...) come from the same place as the template where it
//! names them.
//!
//! The conversation ([`sample`]) is a system message, a question, an
//! answer and a follow-up; a template that reads `tools` gets one with a
//! tool call and its result. A template that refuses it
//! (`raise_exception`) is tried on the conversation without a tool call,
//! then without the system message, and the page says what was dropped
//! and why. A template that cannot be rendered (a construct this dialect
//! lacks, past the bounds of [`engine`]) is named with the reason.

mod engine;
mod sample;
mod view;

use chat_jinja::Value;
use modelpages_gguf::{GgufFiles, HeaderText};
use modelpages_record::ModelRecord;
use serde_json::Value as Json;

pub use engine::{RenderFailure, FUEL, MAX_OUTPUT, MAX_TEMPLATE_BYTES};
pub use sample::Conversation;
pub use view::{chat_view, ChatView, PromptView};

/// Where a model's chat template was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TemplateSource {
    TokenizerConfig,
    GgufHeader,
    RecordGguf,
}

impl TemplateSource {
    /// Where it was found, in words.
    pub fn words(self) -> &'static str {
        match self {
            TemplateSource::TokenizerConfig => "the tokenizer configuration (tokenizer_config.json)",
            TemplateSource::GgufHeader => "the GGUF file's header",
            TemplateSource::RecordGguf => "the GGUF metadata the Hub lists for the model",
        }
    }
}

/// A model's chat template rendered on the sample conversation, or why not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatPrompt {
    pub source: TemplateSource,
    pub outcome: Result<RenderedPrompt, String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderedPrompt {
    /// Exactly what the template made.
    pub text: String,
    pub conversation: Conversation,
    /// Why a richer conversation was not used, one line each.
    pub fallbacks: Vec<String>,
    /// Special tokens the template reads that the model's data do not give
    /// (shown as empty).
    pub unknown_tokens: Vec<&'static str>,
}

/// The special tokens transformers hands a template, by name.
const TOKEN_NAMES: [&str; 4] = ["bos_token", "eos_token", "unk_token", "pad_token"];

/// The template found for a model, with its special tokens.
struct Found {
    source: TemplateSource,
    template: Result<String, String>,
    tokens: Vec<(&'static str, String)>,
}

/// A token as tokenizer configs write it: a string, or `{"content": ...}`.
fn token_text(value: &Json) -> Option<String> {
    match value {
        Json::String(s) => Some(s.clone()),
        Json::Object(o) => o.get("content")?.as_str().map(str::to_owned),
        _ => None,
    }
}

fn tokens_of(object: Option<&serde_json::Map<String, Json>>) -> Vec<(&'static str, String)> {
    let Some(object) = object else { return Vec::new() };
    TOKEN_NAMES.iter().filter_map(|name| Some((*name, token_text(object.get(*name)?)?))).collect()
}

/// `chat_template` as tokenizer configs write it: a string, or named templates.
fn template_of(value: &Json) -> Option<String> {
    match value {
        Json::String(s) => Some(s.clone()),
        Json::Array(named) => {
            let template = |entry: &Json| entry.get("template").and_then(Json::as_str).map(str::to_owned);
            let by_name = named.iter().find(|e| e.get("name").and_then(Json::as_str) == Some("default"));
            by_name.or_else(|| named.first()).and_then(template)
        }
        _ => None,
    }
}

fn find_template(record: &ModelRecord, gguf: &GgufFiles) -> Option<Found> {
    let tokenizer = record.config.as_ref().and_then(|c| c.get("tokenizer_config")).and_then(Json::as_object);
    let record_gguf = record.gguf.get().map(|summary| &summary.other);
    if let Some(template) = tokenizer.and_then(|t| t.get("chat_template")).and_then(template_of) {
        return Some(Found { source: TemplateSource::TokenizerConfig, template: Ok(template), tokens: tokens_of(tokenizer) });
    }
    if let Some(text) = gguf.header_facts().and_then(|f| f.chat_template.as_ref()) {
        let template = match text {
            HeaderText::Kept(template) => Ok(template.clone()),
            HeaderText::TooLong(bytes) => Err(format!("the template is {} KiB, longer than the {} KiB read", bytes >> 10, MAX_TEMPLATE_BYTES >> 10)),
            HeaderText::NotUtf8 => Err("the template is not valid UTF-8".to_owned()),
        };
        return Some(Found { source: TemplateSource::GgufHeader, template, tokens: tokens_of(record_gguf) });
    }
    let template = record_gguf.and_then(|g| g.get("chat_template")).and_then(template_of)?;
    Some(Found { source: TemplateSource::RecordGguf, template: Ok(template), tokens: tokens_of(record_gguf) })
}

/// The model's chat template rendered on the sample conversation; `None`
/// for a model without one.
pub fn chat_prompt(record: &ModelRecord, gguf: &GgufFiles) -> Option<ChatPrompt> {
    let found = find_template(record, gguf)?;
    let outcome = found.template.and_then(|template| render_sample(&template, &found.tokens));
    Some(ChatPrompt { source: found.source, outcome })
}

/// The richest sample conversation `template` renders, or why none does.
fn render_sample(template: &str, tokens: &[(&'static str, String)]) -> Result<RenderedPrompt, String> {
    if template.len() > MAX_TEMPLATE_BYTES {
        return Err(format!("the template is {} KiB, longer than the {} KiB rendered", template.len() >> 10, MAX_TEMPLATE_BYTES >> 10));
    }
    let mut tries = vec![Conversation::Plain, Conversation::WithoutSystem];
    if engine::reads_variable(template, "tools") {
        tries.insert(0, Conversation::WithToolCall);
    }
    let unknown_tokens: Vec<&'static str> = TOKEN_NAMES
        .iter()
        .copied()
        .filter(|name| !tokens.iter().any(|(n, _)| n == name) && engine::reads_variable(template, name))
        .collect();
    let mut fallbacks = Vec::new();
    for conversation in tries {
        let context = context(conversation, tokens);
        match engine::render(template, context) {
            Ok(text) => return Ok(RenderedPrompt { text, conversation, fallbacks, unknown_tokens }),
            // Only a refusal is worth another conversation: anything else
            // fails the same way on any.
            Err(RenderFailure::Raised(message)) => {
                fallbacks.push(format!("{}: the template refused it: “{}”", conversation.words(), message.trim()));
            }
            Err(RenderFailure::TooCostly) => {
                return Err(format!(
                    "rendering it would take more than the {FUEL} steps or {} KiB of text a template is given",
                    MAX_OUTPUT >> 10
                ))
            }
            Err(RenderFailure::Unsupported(why)) => return Err(format!("it uses what this site's template engine cannot render ({why})")),
        }
    }
    Err(format!("the template refused every sample conversation ({})", fallbacks.join("; ")))
}

/// What the template is given: the conversation, `add_generation_prompt`,
/// the special tokens, and `tools` (none unless the conversation calls one).
fn context(conversation: Conversation, tokens: &[(&'static str, String)]) -> Value {
    let mut map: indexmap::IndexMap<Value, Value> = indexmap::IndexMap::new();
    map.insert(Value::from("messages"), conversation.messages());
    map.insert(Value::from("tools"), conversation.tools());
    map.insert(Value::from("add_generation_prompt"), Value::from(true));
    for name in TOKEN_NAMES {
        let token = tokens.iter().find(|(n, _)| *n == name).map_or("", |(_, t)| t.as_str());
        map.insert(Value::from(name), Value::from(token));
    }
    Value::from_object(map)
}

#[cfg(test)]
mod tests;
