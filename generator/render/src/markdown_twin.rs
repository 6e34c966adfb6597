//! A model page's Markdown twin, `<namespace>/<name>/index.md`, for agents
//! and scripts that read a model without parsing HTML: the title, the
//! facts, what running it takes, the prompt its chat template makes, the
//! default example of each way to use it, and last the card's own
//! Markdown (front matter left out).
//!
//! Record values go in as code spans, which Markdown shows as they are, so
//! a value cannot add a link, a heading or markup. Code goes in fences
//! longer than any run of backticks in it. The card comes last, so that
//! whatever it leaves open (a fence, an HTML block) closes nothing of the
//! twin's own. Downloads and likes change daily and are left out, like the
//! model tree's derivatives: the twin changes when the model does.

use std::fmt::Write;

use modelpages_snippets::{LocalAppExample, LocalAppKind};

use crate::chat_prompt::ChatView;
use crate::facts::ModelFacts;
use crate::memory::MemoryView;
use crate::examples::{CodeExample, InferenceExample};

/// The twin's file name beside the page's `index.html`.
pub const MARKDOWN_FILE: &str = "index.md";

/// What the twin is made of: the page's own views and examples.
pub struct TwinInput<'a> {
    pub id: &'a str,
    /// The task's display name and the library's label, when known.
    pub task: Option<&'a str>,
    pub library: Option<&'a str>,
    /// Site paths of the page, the API file and the notebook.
    pub page: &'a str,
    pub api: &'a str,
    pub notebook: Option<&'a str>,
    pub facts: &'a ModelFacts,
    pub memory: Option<&'a MemoryView>,
    pub chat: Option<&'a ChatView>,
    pub library_examples: &'a [CodeExample],
    pub inference: &'a [InferenceExample],
    pub local_apps: &'a [LocalAppExample],
    /// The card's Markdown, without its front matter.
    pub card: Option<&'a str>,
}

/// `text` as a code span: shown as it is, on one line.
pub fn code_span(text: &str) -> String {
    let text = text.replace(['\n', '\r'], " ");
    let fence = "`".repeat(longest_run(&text, '`') + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') || text.is_empty() { " " } else { "" };
    format!("{fence}{pad}{text}{pad}{fence}")
}

fn longest_run(text: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for ch in text.chars() {
        run = if ch == c { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// `code` in a fenced block tagged `language`.
fn fenced(out: &mut String, language: &str, code: &str) {
    let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
    let _ = writeln!(out, "{fence}{language}\n{}\n{fence}\n", code.trim_end_matches('\n'));
}

/// A link to `url`, shown as it is. `<url>` alone is a link only with a
/// scheme, and the site's own paths have none; the destination goes in
/// angle brackets so that no character of it ends the link.
fn link(url: &str) -> String {
    let url = url.replace(['<', '>', '\n', '\r'], "");
    format!("[{}](<{url}>)", code_span(&url))
}

fn fact(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "- {name}: {value}");
}

fn spans<'a>(values: impl IntoIterator<Item = &'a String>) -> String {
    values.into_iter().map(|v| code_span(v)).collect::<Vec<_>>().join(", ")
}

fn facts(out: &mut String, input: &TwinInput<'_>) {
    let f = input.facts;
    out.push_str("## Facts\n\n");
    fact(out, "Id", &code_span(input.id));
    if let Some(task) = input.task {
        fact(out, "Task", &code_span(task));
    }
    if let Some(library) = input.library {
        fact(out, "Library", &code_span(library));
    }
    if let Some(parameters) = &f.parameters {
        fact(out, "Parameters", parameters);
    }
    if !f.tensor_types.is_empty() {
        fact(out, "Tensor types", &spans(&f.tensor_types));
    }
    if let Some(size) = &f.size {
        fact(out, "Files size", &format!("{}{size}", if f.size_partial { "at least " } else { "" }));
    }
    if !f.license.is_empty() {
        fact(out, "License", &spans(f.license.iter().map(|l| &l.name)));
    }
    if !f.languages.is_empty() {
        fact(out, "Languages", &spans(&f.languages));
    }
    if let Some(gated) = f.gated {
        fact(out, "Gated", &format!("yes ({gated} approval): files download after an access request on the Hub"));
    }
    for (name, day) in [("Created", &f.created), ("Updated", &f.updated)] {
        if let Some(day) = day {
            fact(out, name, day);
        }
    }
    for base in &f.tree.bases {
        fact(out, base.label, &code_span(&base.id));
    }
    fact(out, "Page", &link(input.page));
    fact(out, "JSON", &link(input.api));
    if let Some(notebook) = input.notebook {
        fact(out, "Notebook", &link(notebook));
    }
    fact(out, "On the Hub", &link(&f.hub_page));
    out.push('\n');
}

fn memory(out: &mut String, view: &MemoryView) {
    out.push_str("## Memory to run it\n\n");
    let mut head = vec!["Weights".to_owned(), "Size".to_owned()];
    head.extend(view.columns.iter().cloned());
    let _ = writeln!(out, "| {} |", head.join(" | "));
    let _ = writeln!(out, "|{}", " --- |".repeat(head.len()));
    for row in &view.rows {
        let mut cells = vec![format!("{}{}", row.label, if row.is_default { " (default)" } else { "" })];
        cells.push(row.weights.clone().unwrap_or_else(|| "unknown".into()));
        cells.extend(row.cells.iter().map(|c| match &c.fits {
            Some(fits) => format!("{} (fits {fits})", c.total),
            None => format!("{} (over {})", c.total, crate::memory::MEMORY_SIZES_GB[crate::memory::MEMORY_SIZES_GB.len() - 1]),
        }));
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
    if let Some(kv) = &view.kv {
        let heads = match kv.kv_heads {
            Some(n) => format!("{} layers × {n} KV heads", kv.layers),
            None => format!("{} KV heads over {} layers", kv.kv_heads_total, kv.layers),
        };
        let _ = writeln!(
            out,
            "Memory = weights + KV cache. KV cache = {heads} × ({} + {}) key and value elements × {} bytes (FP16) = {} a token of context (from the model's {}). No allowance for the runtime's buffers or the system.\n",
            kv.key_size, kv.value_size, kv.element_bytes, kv.per_token, kv.source
        );
    } else if let Some(missing) = &view.missing {
        let _ = writeln!(out, "The KV cache is not estimated: the model's data do not give {missing}. The figures are the weights alone.\n");
    }
}

fn chat(out: &mut String, view: &ChatView) {
    out.push_str("## What the model sees\n\n");
    match (&view.prompt, &view.not_rendered) {
        (Some(prompt), _) => {
            let _ = writeln!(out, "The chat template from {} on {}, exactly:\n", view.source, prompt.conversation);
            fenced(out, "text", &prompt.text);
            for fallback in &prompt.fallbacks {
                let _ = writeln!(out, "- Not {fallback}");
            }
            if !prompt.fallbacks.is_empty() {
                out.push('\n');
            }
        }
        (None, Some(why)) => {
            let _ = writeln!(out, "The chat template from {} is not rendered: {why}.\n", view.source);
        }
        (None, None) => {}
    }
}

fn examples(out: &mut String, input: &TwinInput<'_>) {
    if input.library_examples.is_empty() && input.inference.is_empty() && input.local_apps.is_empty() {
        return;
    }
    out.push_str("## Use this model\n\n");
    if !input.library_examples.is_empty() {
        let _ = writeln!(out, "### {} (library)\n", input.library.unwrap_or("Library"));
        for example in input.library_examples {
            fenced(out, example.language, &example.text);
        }
    }
    if let Some(first) = input.inference.iter().find(|e| !e.streaming).or(input.inference.first()) {
        let _ = writeln!(out, "### Hosted inference ({}, {})\n", first.provider, first.client);
        let _ = writeln!(out, "Reads its token from `{}`.\n", first.token_env);
        fenced(out, first.language, &first.text);
    }
    let mut apps = input.local_apps.iter().peekable();
    while let Some(example) = apps.next() {
        let _ = writeln!(out, "### {} (local app)\n", example.label);
        let mut app_examples = vec![example];
        while let Some(next) = apps.next_if(|e| e.app == example.app) {
            app_examples.push(next);
        }
        for e in app_examples {
            match e.kind {
                LocalAppKind::Command => {
                    let _ = writeln!(out, "{}:\n", e.title.trim_end_matches(':'));
                    fenced(out, "sh", &e.content);
                }
                LocalAppKind::DeepLink => {
                    let _ = writeln!(out, "- {}: {}\n", e.title, link(&e.content));
                }
            }
        }
    }
}

/// The twin's text.
pub fn markdown_twin(input: &TwinInput<'_>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", input.id);
    let summary = match (input.task, input.library) {
        (Some(task), Some(library)) => format!("{task} model for {library}."),
        (Some(task), None) => format!("{task} model."),
        (None, Some(library)) => format!("A model for {library}."),
        (None, None) => "A model.".to_owned(),
    };
    let _ = writeln!(out, "> {summary} This is the Markdown twin of its page: facts, memory, prompt, examples, then the model card.\n");
    facts(&mut out, input);
    if let Some(view) = input.memory {
        memory(&mut out, view);
    }
    if let Some(view) = input.chat {
        chat(&mut out, view);
    }
    examples(&mut out, input);
    out.push_str("## Model card\n\n");
    match input.card.map(str::trim).filter(|c| !c.is_empty()) {
        Some(card) => {
            out.push_str(card);
            out.push('\n');
        }
        None => out.push_str("This model has no model card yet.\n"),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_hold_any_value() {
        assert_eq!(code_span("mit"), "`mit`");
        assert_eq!(code_span("a`b"), "``a`b``");
        assert_eq!(code_span("`x"), "`` `x ``");
        assert_eq!(code_span("[x](javascript:y)\n# h"), "`[x](javascript:y) # h`");
        let mut out = String::new();
        fenced(&mut out, "sh", "echo ```\n");
        assert_eq!(out, "````sh\necho ```\n````\n\n");
        assert_eq!(link("/ns/m/"), "[`/ns/m/`](</ns/m/>)");
        assert_eq!(link("/a<b>\n(c)"), "[`/ab(c)`](</ab(c)>)");
    }
}
