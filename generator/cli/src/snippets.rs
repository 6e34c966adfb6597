//! `modelpages snippets` and `modelpages libraries`: the snippet engine's
//! output as JSON, for editors, scripts and tests.

use std::fs;
use std::path::Path;

use anyhow::{bail, Context};
use modelpages_record::{parse_record, ModelId, RECORD_FILE};
use modelpages_snippets::inference::{known_providers, AUTO};
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};
use serde_json::{json, Value};

/// The inference options of `modelpages snippets`.
#[derive(clap::Args, Debug, Default)]
pub struct InferenceArgs {
    /// Show this provider (repeat for more); default: auto, hf-inference and
    /// every provider in the record's mapping.
    #[arg(long = "provider")]
    providers: Vec<String>,
    /// Stream chat answers.
    #[arg(long)]
    streaming: bool,
    /// Sampling temperature of chat examples, from 0 to 2 (lower is more
    /// predictable); default: the provider's.
    #[arg(long, value_parser = number_in(0.0, 2.0))]
    temperature: Option<f64>,
    /// Most tokens a chat answer may have, at least 1; default: the provider's.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    max_tokens: Option<u64>,
    /// Nucleus sampling of chat examples: the share of probability mass
    /// sampled from, above 0 and at most 1; default: the provider's.
    #[arg(long, value_parser = number_in(f64::MIN_POSITIVE, 1.0))]
    top_p: Option<f64>,
    /// Bill the requests to this organisation.
    #[arg(long)]
    bill_to: Option<String>,
    /// Call the provider's own API with the provider's own key.
    #[arg(long)]
    direct_request: bool,
    /// Call this endpoint instead of the router (e.g. http://localhost:8080/v1).
    #[arg(long)]
    endpoint_url: Option<String>,
}

/// A parser of a number from `low` to `high` (both included).
fn number_in(low: f64, high: f64) -> impl Fn(&str) -> Result<f64, String> + Clone {
    move |text: &str| {
        let value: f64 = text.trim().parse().map_err(|_| format!("{text:?} is not a number"))?;
        if value.is_finite() && (low..=high).contains(&value) {
            Ok(value)
        } else if low == f64::MIN_POSITIVE {
            Err(format!("{value} is not above 0 and at most {high}"))
        } else {
            Err(format!("{value} is not from {low} to {high}"))
        }
    }
}

impl InferenceArgs {
    /// Refuses a `--provider` the site does not know, naming those it knows.
    pub fn check_providers(&self, settings: &InferenceSettings) -> anyhow::Result<()> {
        // The catalogue holds hf-inference, the router's own.
        let mut known: Vec<String> = vec![AUTO.to_owned()];
        known.extend(known_providers().into_iter().map(|p| p.name));
        known.extend(settings.extra_providers.iter().cloned());
        let unknown: Vec<&str> =
            self.providers.iter().map(String::as_str).filter(|p| !known.iter().any(|k| k == p)).collect();
        if !unknown.is_empty() {
            bail!("unknown provider {}; known providers: {}", quoted(&unknown), known.join(", "));
        }
        Ok(())
    }

    pub fn options(&self) -> InferenceOptions {
        InferenceOptions {
            providers: (!self.providers.is_empty()).then(|| self.providers.clone()),
            streaming: self.streaming,
            temperature: self.temperature,
            max_tokens: self.max_tokens,
            top_p: self.top_p,
            bill_to: self.bill_to.clone(),
            direct_request: self.direct_request,
            endpoint_url: self.endpoint_url.clone(),
        }
    }
}

/// `{"id", "library": {"key", "label", "snippets": [...]} | null, "inference": [...],
/// "local_apps": [...]}`
pub fn model_snippets_json(
    engine: &SnippetEngine,
    path: &Path,
    settings: &InferenceSettings,
    options: &InferenceOptions,
) -> anyhow::Result<Value> {
    let file = if path.is_dir() { path.join(RECORD_FILE) } else { path.to_owned() };
    let bytes = fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
    let record = parse_record(&file, &bytes)?;
    if let Err(e) = ModelId::parse(&record.id) {
        bail!("{}: invalid id {:?}: {e}", file.display(), record.id);
    }
    let library = engine.library_examples(&record)?.map(|examples| {
        json!({
            "key": examples.library.key,
            "label": examples.library.pretty_label,
            "snippets": examples.snippets,
        })
    });
    let inference = engine.inference_examples(&record, settings, options)?;
    for note in &inference.notes {
        eprintln!("note: {note}");
    }
    // GGUF files beside the record count too, as in a build.
    let folder = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let gguf = modelpages_site::gguf::model_gguf(folder, &record);
    for err in &gguf.errors {
        eprintln!("note: GGUF header not read: {err}");
    }
    let local_apps = engine.local_app_examples(&record, Some(&gguf.files))?.apps;
    Ok(json!({ "id": record.id, "library": library, "inference": inference.snippets, "local_apps": local_apps }))
}

/// The built-in engine, or one with the templates under `dir`.
pub fn engine(dir: Option<&Path>) -> anyhow::Result<SnippetEngine> {
    let Some(dir) = dir else { return Ok(SnippetEngine::new()) };
    let mut templates = Vec::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry?;
        if entry.file_type().is_file() {
            let name = entry.path().strip_prefix(dir)?.to_string_lossy().replace('\\', "/");
            let source = fs::read_to_string(entry.path())
                .with_context(|| format!("cannot read {}", entry.path().display()))?;
            templates.push((name, source));
        }
    }
    Ok(SnippetEngine::with_templates(templates)?)
}

/// `"a", "b"` for a list of names.
fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
}

/// The catalogue, one object per library, with `has_snippets`. Keys are
/// snake_case, as in every other JSON this tool writes (the catalogue's
/// data keeps the Hub's camelCase).
pub fn catalogue_json() -> Value {
    let engine = SnippetEngine::new();
    let libraries = engine.catalogue().libraries().iter().map(|library| {
        let Value::Object(fields) = serde_json::to_value(library).expect("a library serialises") else {
            unreachable!("a library is an object")
        };
        let mut entry: serde_json::Map<String, Value> =
            fields.into_iter().map(|(key, value)| (snake_case(&key), value)).collect();
        entry.insert("has_snippets".into(), Value::Bool(engine.has_snippets(&library.key)));
        Value::Object(entry)
    });
    Value::Array(libraries.collect())
}

/// `prettyLabel` is `pretty_label`.
fn snake_case(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
