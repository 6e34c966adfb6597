//! A model's sample inputs: what its examples send it. The widget's own
//! values come first (the Hub shows them in the model's widget), then a
//! default per task, written here once so that a library example and a
//! hosted-inference example of the same model send the same input: the
//! sentence an NER model tags, the question and context a QA model reads,
//! the text a translation model translates, the table a table-QA model
//! reads and the labels a zero-shot model chooses among.
//!
//! Every client of every provider quotes the sample, so widget values are
//! used only up to a size ([`MAX_SAMPLE_BYTES`]): a record's long value
//! would otherwise be copied into the page hundreds of times. What is
//! copied is the value's *literal*, escaped for its language, and on a page
//! each escape is a highlighted token of its own: a value of quotes,
//! backslashes or control characters costs many times its length. So a
//! value is used only if its escapes, too, are few
//! ([`MAX_SAMPLE_ESCAPE_BYTES`]).

use modelpages_record::{scalar_text, ModelRecord, WidgetExample};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::escape::{js_str, py_str, sh_json, sh_str};

/// Longest widget value (text, context, source sentence, all sentences
/// together) an example quotes; real widget texts are a sentence or a
/// paragraph.
pub const MAX_SAMPLE_BYTES: usize = 1024;

/// Most bytes escapes may add to a widget value an example quotes, in each
/// form examples write it in ([`escape_bytes`]). Each escape is a token of
/// its own on a page (some 50 bytes of spans) in each of the hundreds of
/// examples that quote the value, so it is their number, more than the
/// value's length, that makes the page large: 1 KiB of `'\u{1}` made a
/// 13 MB page. Real widget texts escape a few line breaks and quotation
/// marks (the default corpus at most 7 bytes' worth).
pub const MAX_SAMPLE_ESCAPE_BYTES: usize = 64;

/// Spec: the sample image-generation prompt is an astronaut in a jungle.
pub const IMAGE_PROMPT: &str = "Astronaut in a jungle, cold color palette, muted colors, detailed, 8k";

/// The question of table question answering about [`DEFAULT_TABLE`].
pub const TABLE_QUESTION: &str = "How many stars does the transformers repository have?";

/// The table of table question answering when the widget has none, column
/// by column.
pub const DEFAULT_TABLE: &[(&str, &[&str])] = &[
    ("Repository", &["Transformers", "Datasets", "Tokenizers"]),
    ("Stars", &["36542", "4512", "3934"]),
    ("Contributors", &["651", "77", "34"]),
    ("Programming language", &["Python", "Python", "Rust, Python and NodeJS"]),
];

/// Spec: the example candidate labels, of zero-shot text classification.
pub const CANDIDATE_LABELS: [&str; 3] = ["refund", "legal", "faq"];

/// Most columns and rows of a widget's table, and labels of a widget's
/// list, an example quotes; real widgets have a handful.
const MAX_TABLE_COLUMNS: usize = 16;
const MAX_TABLE_ROWS: usize = 32;
const MAX_LABELS: usize = 16;

pub(crate) fn fits(value: &str) -> bool {
    // The length first: it bounds the cost of writing the literals.
    value.len() <= MAX_SAMPLE_BYTES && escape_bytes(value) <= MAX_SAMPLE_ESCAPE_BYTES
}

/// The forms examples write a sample value in: a Python string, a
/// JavaScript (and JSON) string, a shell word, and a JSON request body's
/// string inside a shell word (curl's `-d`).
const LITERAL_FORMS: [fn(&str) -> String; 4] = [py_str, js_str, sh_str, |s| sh_json(&js_str(s))];

/// The bytes escapes add to `value` in the form that escapes it most: its
/// literal's length less its own and the empty literal's.
pub(crate) fn escape_bytes(value: &str) -> usize {
    let added = |form: &fn(&str) -> String| form(value).len().saturating_sub(form("").len() + value.len());
    LITERAL_FORMS.iter().map(added).max().unwrap_or(0)
}

/// The text a model of `task` gets when its widget has none.
pub fn default_text(task: &str) -> &'static str {
    match task {
        "text-classification" => "I like you. I love you",
        "token-classification" => "My name is Sarah Jessica Parker but you can call me Jessica",
        "translation" => "My name is Wolfgang and I live in Berlin",
        "summarization" => "The tower is 324 metres (1,063 ft) tall, about the same height as an 81-storey building, and the tallest structure in Paris. Its base is square, measuring 125 metres (410 ft) on each side.",
        "fill-mask" => "The answer to the universe is [MASK].",
        "text-generation" => "Can you please let us know more details about your ",
        "text-to-image" => IMAGE_PROMPT,
        "text-to-video" => "A young man walking on the street",
        "text-to-speech" => "The answer to the universe is 42",
        "text-to-audio" => "liquid drum and bass, atmospheric synths, airy sounds",
        "zero-shot-classification" => "Hi, I recently bought a device from your company but it is not working as advertised and I would like to get reimbursed!",
        "image-to-image" | "image-text-to-image" => "Turn the cat into a tiger.",
        "image-to-video" | "image-text-to-video" => "The cat starts to dance",
        _ => "Today is a sunny day and I will get some ice cream.",
    }
}

/// The message a chat model of `task` gets when its widget has no text.
pub fn default_chat_text(task: &str) -> &'static str {
    match task {
        "image-text-to-text" => "Describe this image in one sentence.",
        _ => "What is the capital of France?",
    }
}

/// The question a model of `task` is asked when its widget has none.
pub fn default_question(task: &str) -> &'static str {
    match task {
        "document-question-answering" => "What is the invoice number?",
        "visual-question-answering" => "What is in this image?",
        "table-question-answering" => TABLE_QUESTION,
        _ => "What is my name?",
    }
}

/// The labels a zero-shot model of `task` chooses among when its widget
/// gives none.
pub fn default_labels(task: &str) -> &'static [&'static str] {
    match task {
        "zero-shot-image-classification" => &["cat", "dog", "llama"],
        "zero-shot-object-detection" => &["cat", "remote control"],
        "zero-shot-audio-classification" => &["speech", "music", "noise"],
        _ => &CANDIDATE_LABELS,
    }
}

/// The context a question-answering model reads when its widget has none.
pub const DEFAULT_CONTEXT: &str = "My name is Clara and I live in Berkeley.";

/// A table as table question answering reads it: its columns in order,
/// each a name and its cells. Written as a mapping of names to cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SampleTable(pub Vec<(String, Vec<String>)>);

impl Serialize for SampleTable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, cells) in &self.0 {
            map.serialize_entry(name, cells)?;
        }
        map.end()
    }
}

impl SampleTable {
    /// [`DEFAULT_TABLE`].
    pub fn default_table() -> SampleTable {
        SampleTable(DEFAULT_TABLE.iter().map(|(name, cells)| (name.to_string(), cells.iter().map(|c| c.to_string()).collect())).collect())
    }

    /// A widget's table, when it is one examples can quote: an object of
    /// columns, each a list of as many scalar cells as the others, within
    /// the bounds on columns and rows, and on bytes and escapes in all
    /// (see [`fits`]).
    fn of_widget(value: &Value) -> Option<SampleTable> {
        let columns = value.as_object()?;
        if columns.is_empty() || columns.len() > MAX_TABLE_COLUMNS {
            return None;
        }
        let mut table = Vec::with_capacity(columns.len());
        for (name, cells) in columns {
            let cells = cells.as_array().filter(|c| c.len() <= MAX_TABLE_ROWS)?;
            // Tables of the Hub's widgets hold text, and sometimes numbers.
            table.push((name.clone(), cells.iter().map(scalar_text).collect::<Option<Vec<String>>>()?));
        }
        let rows = table[0].1.len();
        let texts = || table.iter().flat_map(|(name, cells)| std::iter::once(name).chain(cells));
        let bytes: usize = texts().map(String::len).sum();
        let escapes: usize = texts().map(|t| escape_bytes(t)).sum();
        let fit = rows > 0 && table.iter().all(|(_, cells)| cells.len() == rows) && bytes <= MAX_SAMPLE_BYTES && escapes <= MAX_SAMPLE_ESCAPE_BYTES;
        fit.then_some(SampleTable(table))
    }
}

/// A widget's candidate labels: a text of labels separated by commas (as
/// the Hub's widgets write them) or a list of texts; `None` unless there
/// are some, at most [`MAX_LABELS`], fitting as one value does.
fn widget_labels(value: &Value) -> Option<Vec<String>> {
    let labels: Vec<String> = match value {
        Value::String(text) => text.split(',').map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect(),
        Value::Array(items) => items.iter().map(|i| i.as_str().map(|s| s.trim().to_owned())).collect::<Option<Vec<String>>>()?,
        _ => return None,
    };
    let fit = !labels.is_empty()
        && labels.len() <= MAX_LABELS
        && labels.iter().all(|l| !l.is_empty())
        && labels.iter().map(String::len).sum::<usize>() <= MAX_SAMPLE_BYTES
        && labels.iter().map(|l| escape_bytes(l)).sum::<usize>() <= MAX_SAMPLE_ESCAPE_BYTES;
    fit.then_some(labels)
}

/// The sample inputs of one model for one task.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct SampleTexts {
    /// The main text (or prompt).
    pub text: String,
    /// The user's message to a chat model.
    pub chat_text: String,
    pub question: String,
    /// The passage a question-answering model finds the answer in.
    pub context: String,
    /// The table a table question-answering model reads: the widget's with
    /// its question, else [`DEFAULT_TABLE`] with [`TABLE_QUESTION`].
    pub table: SampleTable,
    /// The labels a zero-shot model chooses among.
    pub candidate_labels: Vec<String>,
}

impl SampleTexts {
    /// The samples of `record` as a model of `task` (its own task, or the
    /// one an example calls it for).
    pub fn of(record: &ModelRecord, task: &str) -> SampleTexts {
        let widget_text = first_fitting(&record.widget_data, |w| w.text.as_deref());
        // A question and its context belong together: the first widget
        // example that has both, else each on its own.
        let pair = record.widget_data.iter().find_map(|w| match (w.text.as_deref(), w.context.as_deref()) {
            (Some(q), Some(c)) if fits(q) && fits(c) => Some((q, c)),
            _ => None,
        });
        let widget_context = first_fitting(&record.widget_data, |w| w.context.as_deref());
        // A table and its question belong together too: the first widget
        // example with a table examples can quote and a question.
        let table = record.widget_data.iter().find_map(|w| match (w.text.as_deref(), w.table.as_ref()) {
            (Some(q), Some(t)) if fits(q) => Some((q, SampleTable::of_widget(t)?)),
            _ => None,
        });
        let question = match (task, &table) {
            ("table-question-answering", Some((q, _))) => q,
            // The question is about the sample table.
            ("table-question-answering", None) => TABLE_QUESTION,
            _ => pair.map(|(q, _)| q).or(widget_text).unwrap_or_else(|| default_question(task)),
        };
        let labels = record.widget_data.iter().find_map(|w| widget_labels(w.candidate_labels.as_ref()?));
        SampleTexts {
            text: widget_text.unwrap_or_else(|| default_text(task)).to_owned(),
            chat_text: widget_text.unwrap_or_else(|| default_chat_text(task)).to_owned(),
            question: question.to_owned(),
            context: pair.map(|(_, c)| c).or(widget_context).unwrap_or(DEFAULT_CONTEXT).to_owned(),
            table: table.map_or_else(SampleTable::default_table, |(_, t)| t),
            candidate_labels: labels.unwrap_or_else(|| default_labels(task).iter().map(|l| l.to_string()).collect()),
        }
    }

    /// Every text, as examples quote them (the table's and the labels'
    /// included).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let table = self.table.0.iter().flat_map(|(name, cells)| std::iter::once(name).chain(cells));
        [&self.text, &self.chat_text, &self.question, &self.context]
            .into_iter()
            .chain(table)
            .chain(&self.candidate_labels)
            .map(String::as_str)
    }
}

/// The first value `field` gives of the widget examples that fits.
fn first_fitting<'a>(widget: &'a [WidgetExample], field: impl Fn(&'a WidgetExample) -> Option<&'a str>) -> Option<&'a str> {
    widget.iter().filter_map(field).find(|v| fits(v))
}

/// The first widget example's text: the sample text of examples.
pub(crate) fn widget_text(record: &ModelRecord) -> Option<&str> {
    record.widget_data.iter().find_map(|w| w.text.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(json: &str) -> ModelRecord {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn widget_values_come_first_then_the_tasks_defaults() {
        let ner = SampleTexts::of(&record(r#"{"id": "a/b"}"#), "token-classification");
        assert_eq!(ner.text, default_text("token-classification"));
        let own = SampleTexts::of(&record(r#"{"id": "a/b", "widgetData": [{"text": "Hallo"}]}"#), "translation");
        assert_eq!((own.text.as_str(), own.chat_text.as_str()), ("Hallo", "Hallo"));
        let long = format!(r#"{{"id": "a/b", "widgetData": [{{"text": "{}"}}, {{"text": "short"}}]}}"#, "x".repeat(2000));
        assert_eq!(SampleTexts::of(&record(&long), "translation").text, "short");
    }

    #[test]
    fn a_value_of_many_escapes_is_not_used() {
        // Each form's escapes count: a backslash in Python and JavaScript,
        // a control character in JavaScript (`\u0001`), a quote in a shell.
        assert_eq!(escape_bytes("plain text"), 0);
        assert_eq!(escape_bytes("a \\ b"), 1);
        assert_eq!(escape_bytes("\u{1}"), 5);
        assert_eq!(escape_bytes("it's"), 3);
        assert!(fits(&"\\".repeat(MAX_SAMPLE_ESCAPE_BYTES)));
        assert!(!fits(&"\\".repeat(MAX_SAMPLE_ESCAPE_BYTES + 1)));
        // Ordinary prose with its line breaks and quotation marks is used.
        let prose = "She said \"it's fine\".\nThen she left.\n".repeat(4);
        assert!(fits(&prose), "{}", escape_bytes(&prose));
        // The case the page-size test found: 1 KiB of quotes and controls,
        // short enough but many times longer as a literal, gives way to
        // the next widget text, or the task's own.
        let hostile = "'\u{1}".repeat(MAX_SAMPLE_BYTES / 2);
        let json = serde_json::json!({"id": "a/b", "widgetData": [{"text": hostile}, {"text": "short"}]});
        assert_eq!(SampleTexts::of(&serde_json::from_value(json).unwrap(), "translation").text, "short");
        let json = serde_json::json!({"id": "a/b", "widgetData": [{"text": hostile}]});
        assert_eq!(SampleTexts::of(&serde_json::from_value(json).unwrap(), "translation").text, default_text("translation"));
    }

    #[test]
    fn a_question_keeps_its_own_context() {
        let qa = record(
            r#"{"id": "a/b", "widgetData": [{"text": "Just text"}, {"text": "Where do I live?", "context": "I live in Berlin"}]}"#,
        );
        let sample = SampleTexts::of(&qa, "question-answering");
        assert_eq!((sample.question.as_str(), sample.context.as_str()), ("Where do I live?", "I live in Berlin"));
        let none = SampleTexts::of(&record(r#"{"id": "a/b"}"#), "question-answering");
        assert_eq!((none.question.as_str(), none.context.as_str()), ("What is my name?", DEFAULT_CONTEXT));
        let table = SampleTexts::of(&record(r#"{"id": "a/b", "widgetData": [{"text": "Who?"}]}"#), "table-question-answering");
        assert_eq!(table.question, TABLE_QUESTION);
        assert_eq!(table.table, SampleTable::default_table());
    }

    /// google/tapas-base-finetuned-wtq's widget: its table and its question.
    #[test]
    fn a_widgets_table_comes_with_its_question() {
        let tapas = record(
            r#"{"id": "google/tapas-base-finetuned-wtq", "widgetData": [{"text": "Which city has the largest population?",
                "table": {"City": ["Lyon", "Marseille", "Toulouse"], "Population": ["522250", 873076, "504078"]}}]}"#,
        );
        let sample = SampleTexts::of(&tapas, "table-question-answering");
        assert_eq!(sample.question, "Which city has the largest population?");
        assert_eq!(
            serde_json::to_value(&sample.table).unwrap(),
            serde_json::json!({"City": ["Lyon", "Marseille", "Toulouse"], "Population": ["522250", "873076", "504078"]})
        );
        assert!(sample.texts().any(|t| t == "Marseille"), "the cells are quoted texts");
        // Tables examples cannot quote: the sample table and its question.
        for odd in [
            r#"{"City": ["Lyon", "Marseille"], "Population": ["1"]}"#,
            r#"{"City": [["nested"]]}"#,
            r#"{"City": []}"#,
            r#"["a list"]"#,
            r#"{}"#,
        ] {
            let json = format!(r#"{{"id": "a/b", "widgetData": [{{"text": "Q?", "table": {odd}}}]}}"#);
            let sample = SampleTexts::of(&record(&json), "table-question-answering");
            assert_eq!((sample.question.as_str(), &sample.table), (TABLE_QUESTION, &SampleTable::default_table()), "{odd}");
        }
        let wide: serde_json::Map<String, Value> = (0..MAX_TABLE_COLUMNS + 1).map(|i| (format!("c{i}"), serde_json::json!(["x"]))).collect();
        assert_eq!(SampleTable::of_widget(&Value::Object(wide)), None);
        let long = serde_json::json!({"c": vec!["y".repeat(100); 20]});
        assert_eq!(SampleTable::of_widget(&long), None, "more bytes than a sample holds");
    }

    /// openai/clip-vit-large-patch14's widget gives its labels as one text.
    #[test]
    fn a_widgets_labels_come_first_then_the_tasks() {
        let clip = record(
            r#"{"id": "openai/clip-vit-large-patch14", "widgetData": [{"src": "https://x.example/cat-dog-music.png",
                "candidate_labels": "playing music, playing sports", "example_title": "Cat & Dog"}]}"#,
        );
        assert_eq!(SampleTexts::of(&clip, "zero-shot-image-classification").candidate_labels, ["playing music", "playing sports"]);
        let listed = record(r#"{"id": "a/b", "widgetData": [{"candidate_labels": ["urgent", "not urgent"]}]}"#);
        assert_eq!(SampleTexts::of(&listed, "zero-shot-classification").candidate_labels, ["urgent", "not urgent"]);
        let none = record(r#"{"id": "a/b", "widgetData": [{"candidate_labels": " , "}, {"candidate_labels": 5}]}"#);
        assert_eq!(SampleTexts::of(&none, "zero-shot-image-classification").candidate_labels, ["cat", "dog", "llama"]);
        assert_eq!(SampleTexts::of(&none, "zero-shot-classification").candidate_labels, CANDIDATE_LABELS);
        let many = format!(r#"{{"id": "a/b", "widgetData": [{{"candidate_labels": "{}"}}]}}"#, vec!["l"; MAX_LABELS + 1].join(","));
        assert_eq!(SampleTexts::of(&record(&many), "zero-shot-classification").candidate_labels, CANDIDATE_LABELS);
    }
}
