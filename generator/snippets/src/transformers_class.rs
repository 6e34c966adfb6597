//! The transformers classes that load a model whose record has no
//! `transformersInfo`: derived from the architecture its config names
//! (`config.architectures`), as the Hub derives `transformersInfo` itself.
//!
//! An architecture name says what head the model has: `LlamaForCausalLM`
//! loads with `AutoModelForCausalLM`, `BertForSequenceClassification` with
//! `AutoModelForSequenceClassification`, a bare `BertModel` with `AutoModel`.
//! A few heads serve several tasks (`...ForConditionalGeneration` is a
//! translation model, a speech recogniser or a vision-language model), so a
//! rule may also name the tasks it holds for. The rules are data
//! (`data/transformers_classes.json`); what prepares the inputs (tokenizer or
//! processor) follows from the rule or else from the task's modality.
//!
//! Only a plain identifier is taken for an architecture: the class names end
//! up in code.

use std::sync::OnceLock;

use modelpages_record::{ModelRecord, TransformersInfo};
use serde::Deserialize;

#[derive(Deserialize)]
struct Classes {
    /// Tasks whose inputs are text: their models take a tokenizer.
    text_tasks: Vec<String>,
    rules: Vec<Rule>,
}

#[derive(Deserialize)]
struct Rule {
    /// The whole architecture name.
    #[serde(default)]
    name: Option<String>,
    /// The end of the architecture name.
    #[serde(default)]
    suffix: Option<String>,
    /// The tasks the rule holds for; any task when none are given.
    #[serde(default)]
    tasks: Vec<String>,
    auto_model: String,
    #[serde(default)]
    processor: Option<String>,
}

impl Rule {
    fn matches(&self, architecture: &str, task: Option<&str>) -> bool {
        let named = match (&self.name, &self.suffix) {
            (Some(name), _) => architecture == name,
            // A suffix with nothing before it is no model's name.
            (None, Some(suffix)) => architecture.len() > suffix.len() && architecture.ends_with(suffix.as_str()),
            (None, None) => false,
        };
        named && (self.tasks.is_empty() || task.is_some_and(|t| self.tasks.iter().any(|k| k == t)))
    }
}

fn classes() -> &'static Classes {
    static CLASSES: OnceLock<Classes> = OnceLock::new();
    CLASSES.get_or_init(|| {
        serde_json::from_str(include_str!("../data/transformers_classes.json"))
            .expect("data/transformers_classes.json is valid")
    })
}

/// Whether `name` can be a Python class name.
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How transformers loads `record`: its own `transformersInfo` when it names
/// an auto class, else the classes its first architecture gives, else what
/// it has (possibly nothing: the template then says the type is unknown).
pub(crate) fn transformers_info(record: &ModelRecord) -> Option<TransformersInfo> {
    let own = record.transformers_info.as_ref();
    if own.is_some_and(|info| info.auto_model.as_deref().is_some_and(|m| !m.is_empty())) {
        return own.cloned();
    }
    derived(record).or_else(|| own.cloned())
}

fn derived(record: &ModelRecord) -> Option<TransformersInfo> {
    let architecture = record.config.as_ref()?.get("architectures")?.as_array()?.first()?.as_str()?;
    if !is_identifier(architecture) {
        return None;
    }
    let task = record.task();
    let classes = classes();
    let rule = classes.rules.iter().find(|rule| rule.matches(architecture, task))?;
    let processor = rule.processor.clone().unwrap_or_else(|| {
        let text = task.is_none_or(|t| classes.text_tasks.iter().any(|k| k == t));
        if text { "AutoTokenizer" } else { "AutoProcessor" }.to_owned()
    });
    Some(TransformersInfo {
        auto_model: Some(rule.auto_model.clone()),
        processor: Some(processor),
        pipeline_tag: task.map(str::to_owned),
        custom_class: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(json: &str) -> Option<(String, String)> {
        let record: ModelRecord = serde_json::from_str(json).unwrap();
        transformers_info(&record).map(|i| (i.auto_model.unwrap_or_default(), i.processor.unwrap_or_default()))
    }

    fn with(architecture: &str, task: &str) -> Option<(String, String)> {
        info(&format!(r#"{{"id": "a/b", "pipeline_tag": "{task}", "config": {{"architectures": ["{architecture}"]}}}}"#))
    }

    #[test]
    fn heads_give_their_auto_classes() {
        let pair = |a: &str, p: &str| Some((a.to_owned(), p.to_owned()));
        assert_eq!(with("LlamaForCausalLM", "text-generation"), pair("AutoModelForCausalLM", "AutoTokenizer"));
        assert_eq!(with("GPT2LMHeadModel", "text-generation"), pair("AutoModelForCausalLM", "AutoTokenizer"));
        assert_eq!(with("BartForSequenceClassification", "zero-shot-classification"), pair("AutoModelForSequenceClassification", "AutoTokenizer"));
        assert_eq!(with("RobertaForQuestionAnswering", "question-answering"), pair("AutoModelForQuestionAnswering", "AutoTokenizer"));
        assert_eq!(with("ViTForImageClassification", "image-classification"), pair("AutoModelForImageClassification", "AutoImageProcessor"));
        assert_eq!(with("T5ForConditionalGeneration", "translation"), pair("AutoModelForSeq2SeqLM", "AutoTokenizer"));
        assert_eq!(with("WhisperForConditionalGeneration", "automatic-speech-recognition"), pair("AutoModelForSpeechSeq2Seq", "AutoProcessor"));
        assert_eq!(with("LlavaForConditionalGeneration", "image-text-to-text"), pair("AutoModelForImageTextToText", "AutoProcessor"));
        // A bare model: the processor follows the task's modality.
        assert_eq!(with("BertModel", "feature-extraction"), pair("AutoModel", "AutoTokenizer"));
        assert_eq!(with("CLIPModel", "zero-shot-image-classification"), pair("AutoModel", "AutoProcessor"));
    }

    #[test]
    fn unknown_or_unsafe_architectures_give_nothing() {
        assert_eq!(with("SomethingElse", "text-generation"), None);
        // A conditional-generation head of an unknown task is not guessed.
        assert_eq!(with("FooForConditionalGeneration", "other"), None);
        assert_eq!(with("Model", "feature-extraction"), None);
        assert_eq!(with("x; import os ForCausalLM", "text-generation"), None);
        assert_eq!(info(r#"{"id": "a/b", "config": {"architectures": "LlamaForCausalLM"}}"#), None);
        assert_eq!(info(r#"{"id": "a/b", "config": {"architectures": [5]}}"#), None);
    }

    #[test]
    fn the_records_own_info_wins() {
        let own = info(
            r#"{"id": "a/b", "config": {"architectures": ["LlamaForCausalLM"]},
                "transformersInfo": {"auto_model": "AutoModelForSeq2SeqLM", "processor": "AutoTokenizer"}}"#,
        );
        assert_eq!(own.unwrap().0, "AutoModelForSeq2SeqLM");
        // An info without an auto class is completed from the architecture.
        let partial = info(
            r#"{"id": "a/b", "config": {"architectures": ["LlamaForCausalLM"]}, "transformersInfo": {"processor": "AutoTokenizer"}}"#,
        );
        assert_eq!(partial.unwrap().0, "AutoModelForCausalLM");
    }
}
