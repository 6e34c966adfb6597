//! Evaluation results (`model-index`) as table rows, and the widget's
//! sample inputs (`widgetData`) as "Example inputs".
//!
//! Both come from the record, so both are bounded: at most [`MAX_EVAL_ROWS`]
//! metric rows (the rest counted), [`MAX_INPUTS`] inputs and
//! [`MAX_INPUT_CHARS`] characters a text. A source link is kept only when it
//! is `https:`.

use modelpages_record::{EvalResult, MetricValue, WidgetExample};
use serde::Serialize;

pub const MAX_EVAL_ROWS: usize = 60;
pub const MAX_INPUTS: usize = 8;
const MAX_INPUT_CHARS: usize = 600;
/// Longest name (task, dataset, metric) shown.
const MAX_NAME_CHARS: usize = 120;

/// One measured figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EvalRow {
    pub task: Option<String>,
    pub dataset: String,
    /// Configuration and split, when given (`validation`, `en · test`).
    pub dataset_detail: Option<String>,
    pub metric: String,
    pub value: String,
    pub verified: bool,
    pub source: Option<String>,
    pub source_url: Option<String>,
}

/// The table and how many rows were left off.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct EvalsView {
    pub rows: Vec<EvalRow>,
    pub not_listed: usize,
}

pub(super) fn short(text: &str, max: usize) -> String {
    let mut out: String = text.chars().filter(|c| !c.is_control()).take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

/// A metric's value as written: numbers without float noise (`84.36`, not
/// `84.36000000000001`), text as it is.
fn value_text(value: &MetricValue) -> String {
    match value {
        MetricValue::Number(n) if n.is_finite() => {
            let rounded = format!("{n:.4}");
            rounded.trim_end_matches('0').trim_end_matches('.').to_owned()
        }
        MetricValue::Number(_) => "n/a".to_owned(),
        MetricValue::Text(text) => short(text, 40),
    }
}

/// One row per metric with a value, in the record's order.
pub fn evals_view<'a>(results: impl Iterator<Item = &'a EvalResult>) -> EvalsView {
    let mut view = EvalsView::default();
    for result in results {
        let task = result.task.as_ref().and_then(|t| t.name.as_deref().or(t.kind.as_deref())).map(|t| short(t, MAX_NAME_CHARS));
        let dataset = result.dataset.as_ref();
        let dataset_name = dataset.and_then(|d| d.name.as_deref().or(d.kind.as_deref())).unwrap_or("unnamed dataset");
        let detail: Vec<&str> = dataset.into_iter().flat_map(|d| [d.config.as_deref(), d.split.as_deref()]).flatten().collect();
        let source = result.source.as_ref();
        let source_url = source.and_then(|s| s.url.as_deref()).filter(|u| u.starts_with("https://") && u.len() < 500);
        for metric in &result.metrics {
            let Some(value) = &metric.value else { continue };
            if view.rows.len() >= MAX_EVAL_ROWS {
                view.not_listed += 1;
                continue;
            }
            view.rows.push(EvalRow {
                task: task.clone(),
                dataset: short(dataset_name, MAX_NAME_CHARS),
                dataset_detail: (!detail.is_empty()).then(|| short(&detail.join(" · "), MAX_NAME_CHARS)),
                metric: short(metric.name.as_deref().or(metric.kind.as_deref()).unwrap_or("value"), MAX_NAME_CHARS),
                value: value_text(value),
                verified: metric.verified == Some(true),
                source: source.and_then(|s| s.name.as_deref()).map(|s| short(s, MAX_NAME_CHARS)),
                source_url: source_url.map(str::to_owned),
            });
        }
    }
    view
}

/// One sample input.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct InputView {
    /// The text, or the source sentence of a similarity example.
    pub text: String,
    /// A question's context.
    pub context: Option<String>,
    /// The sentences a source sentence is compared with.
    pub sentences: Vec<String>,
}

/// The widget's inputs that have a text, at most [`MAX_INPUTS`].
pub fn inputs_view(widgets: &[WidgetExample]) -> Vec<InputView> {
    widgets
        .iter()
        .filter_map(|w| {
            let text = w.text.as_deref().or(w.source_sentence.as_deref()).filter(|t| !t.trim().is_empty())?;
            Some(InputView {
                text: short(text, MAX_INPUT_CHARS),
                context: w.context.as_deref().map(|c| short(c, MAX_INPUT_CHARS)),
                sentences: w.sentences.iter().take(MAX_INPUTS).map(|s| short(s, MAX_INPUT_CHARS)).collect(),
            })
        })
        .take(MAX_INPUTS)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(json: &str) -> Vec<EvalResult> {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn one_row_per_metric_with_the_verified_mark() {
        let r = results(
            r#"[{"task": {"type": "text-generation", "name": "Text Generation"},
                 "dataset": {"name": "MMLU (5-Shot)", "type": "cais/mmlu", "config": "all", "split": "test"},
                 "metrics": [{"type": "acc", "value": 66.49000000000001, "name": "accuracy", "verified": true},
                             {"type": "f1", "value": "71.3 ± 0.4"}, {"type": "none"}],
                 "source": {"name": "Open LLM Leaderboard", "url": "javascript:alert(1)"}}]"#,
        );
        let view = evals_view(r.iter());
        assert_eq!(view.rows.len(), 2);
        let row = &view.rows[0];
        assert_eq!((row.task.as_deref(), row.dataset.as_str(), row.dataset_detail.as_deref()), (Some("Text Generation"), "MMLU (5-Shot)", Some("all · test")));
        assert_eq!((row.metric.as_str(), row.value.as_str(), row.verified), ("accuracy", "66.49", true));
        assert_eq!((view.rows[1].metric.as_str(), view.rows[1].value.as_str(), view.rows[1].verified), ("f1", "71.3 ± 0.4", false));
        assert_eq!(row.source_url, None, "only https sources link");
    }

    #[test]
    fn rows_are_capped_and_counted() {
        let metrics: Vec<String> = (0..100).map(|i| format!(r#"{{"type": "m{i}", "value": {i}}}"#)).collect();
        let r = results(&format!(r#"[{{"metrics": [{}]}}]"#, metrics.join(",")));
        let view = evals_view(r.iter());
        assert_eq!((view.rows.len(), view.not_listed), (MAX_EVAL_ROWS, 100 - MAX_EVAL_ROWS));
        assert_eq!(view.rows[0].dataset, "unnamed dataset");
    }

    #[test]
    fn inputs_keep_texts_and_sentences() {
        let widgets: Vec<WidgetExample> = serde_json::from_str(
            r#"[{"text": "Hello"}, {"source_sentence": "A cat", "sentences": ["A dog", "A kitten"]}, {"text": "  "},
                {"text": "Where?", "context": "Here."}]"#,
        )
        .unwrap();
        let inputs = inputs_view(&widgets);
        assert_eq!(inputs.iter().map(|i| i.text.as_str()).collect::<Vec<_>>(), ["Hello", "A cat", "Where?"]);
        assert_eq!(inputs[1].sentences, ["A dog", "A kitten"]);
        assert_eq!(inputs[2].context.as_deref(), Some("Here."));
    }
}
