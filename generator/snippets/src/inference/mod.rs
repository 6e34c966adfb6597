//! Hosted-inference examples: every (provider, language, client) combination
//! that can serve a model, rendered from `templates/inference/<language>/<client>/<kind>`.
//!
//! The engine decides which combinations exist and computes everything an
//! example must get right (URL, model field, token variable, body); templates
//! only lay the code out.

mod body;
mod inputs;
mod providers;
mod tasks;

use serde::Serialize;
use serde_json::{json, Value};

pub use body::{format_body, BodyError, BodyFormat};
pub use providers::{known_providers, provider_key_variable, provider_mappings, ProviderInfo, ProviderMapping, AUTO, FAL_AI, HF_INFERENCE};
pub use tasks::{task_specs, TaskSpec};

use crate::engine::Language;
use modelpages_record::ModelRecord;

/// Site settings the examples depend on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InferenceSettings {
    /// Base of the inference router, without a trailing slash.
    pub router_url: String,
    /// Base of the hub, for file URLs (LoRA weights), without a trailing slash.
    pub hub_url: String,
}

impl Default for InferenceSettings {
    fn default() -> Self {
        InferenceSettings { router_url: "https://router.huggingface.co".into(), hub_url: "https://huggingface.co".into() }
    }
}

/// The options a visitor can set on the examples.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InferenceOptions {
    /// Providers to show; `None` means auto, hf-inference and every mapped provider.
    pub providers: Option<Vec<String>>,
    pub streaming: bool,
    pub temperature: Option<f64>,
    pub max_tokens: Option<u64>,
    pub top_p: Option<f64>,
    /// Organisation billed for the request.
    pub bill_to: Option<String>,
    /// Call the provider's own API with the provider's own key.
    pub direct_request: bool,
    /// Call this URL (a deployed endpoint or a local server) instead.
    pub endpoint_url: Option<String>,
}

/// One ready-to-copy inference example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InferenceSnippet {
    pub provider: String,
    pub language: Language,
    pub client: &'static str,
    pub content: String,
    /// The environment variable the example reads its token from.
    pub token_env: String,
}

/// The examples, and what was left out and why (for the build log).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InferenceExamples {
    pub snippets: Vec<InferenceSnippet>,
    pub notes: Vec<String>,
}

/// Every client style, in the order pages show them.
pub const CLIENTS: &[(Language, &str)] = &[
    (Language::Python, "huggingface_hub"),
    (Language::Python, "requests"),
    (Language::Python, "openai"),
    (Language::Python, "fal_client"),
    (Language::Js, "huggingface.js"),
    (Language::Js, "fetch"),
    (Language::Js, "openai"),
    (Language::Sh, "curl"),
];

/// What kind of request a model gets.
#[derive(Clone, Debug)]
pub enum RequestKind<'a> {
    Chat,
    Task(&'a TaskSpec),
}

/// A text-generation or image-text-to-text model tagged `conversational` is a
/// chat model; vision-language models are served through chat completions
/// even without the tag.
pub fn request_kind<'a>(record: &ModelRecord, specs: &'a [TaskSpec]) -> Option<RequestKind<'a>> {
    let task = record.task()?;
    let chat = (task == "text-generation" && record.has_tag("conversational")) || task == "image-text-to-text";
    if chat {
        return Some(RequestKind::Chat);
    }
    specs.iter().find(|s| s.task == task).map(RequestKind::Task)
}

/// Everything a template reads for one (provider, client) example.
#[derive(Serialize)]
pub(crate) struct InferenceContext<'a> {
    pub id: &'a str,
    pub provider: &'a str,
    /// The provider name for SDK calls (none for a custom endpoint).
    pub sdk_provider: Option<&'a str>,
    /// The `model` field or argument.
    pub model: String,
    pub token_env: String,
    /// `Bearer` or `Key` (fal-ai's own API).
    pub auth_scheme: &'static str,
    pub bill_to: Option<&'a str>,
    /// Where a raw HTTP request goes.
    pub url: String,
    /// Base URL for OpenAI-compatible clients.
    pub base_url: String,
    pub endpoint_url: Option<&'a str>,
    pub direct: bool,
    pub task: &'a str,
    pub python_method: Option<&'a str>,
    pub js_method: Option<&'a str>,
    /// The JSON body for tasks whose body is plain data.
    pub body: Value,
    pub inputs: inputs::SampleInputs,
    pub output: &'a str,
    pub content_type: &'static str,
    pub input_file: &'static str,
    pub output_file: &'static str,
    pub stream: bool,
    /// Chat parameters that were set: temperature, max_tokens, top_p.
    pub chat_parameters: Value,
    pub fal: Option<FalContext>,
}

/// fal-ai's queue: submit, poll the status, fetch the result.
#[derive(Serialize)]
pub(crate) struct FalContext {
    pub provider_id: String,
    /// Where to submit the request.
    pub submit_url: String,
    /// Whether polling URLs go through the router (rewritten) or to fal itself.
    pub routed: bool,
    /// `{router}/fal-ai`, the prefix routed polling URLs take.
    pub router_prefix: String,
    /// The arguments fal's model takes (`prompt`, `image_url`, `loras`...).
    pub arguments: Value,
}

impl crate::engine::SnippetEngine {
    /// The hosted-inference examples of `record`. Never fails for the record's
    /// sake: a provider that cannot serve the model is noted and skipped.
    pub fn inference_examples(
        &self,
        record: &ModelRecord,
        settings: &InferenceSettings,
        options: &InferenceOptions,
    ) -> Result<InferenceExamples, crate::SnippetError> {
        let mut out = InferenceExamples::default();
        let specs = self.task_specs();
        // A task hosted inference does not serve simply has no examples.
        let Some(kind) = request_kind(record, specs) else { return Ok(out) };
        let mappings = provider_mappings(record.inference_provider_mapping.as_ref());
        let providers: Vec<String> = match (&options.endpoint_url, &options.providers) {
            (Some(_), _) => vec!["endpoint".into()],
            (None, Some(list)) => list.clone(),
            (None, None) => {
                let mut all = vec![AUTO.to_owned(), HF_INFERENCE.to_owned()];
                for m in &mappings {
                    if !all.contains(&m.provider) {
                        all.push(m.provider.clone());
                    }
                }
                all
            }
        };
        let sample = inputs::SampleInputs::of(record, &kind);
        for provider in &providers {
            let mapping = mappings.iter().find(|m| &m.provider == provider);
            match self.route(record, &kind, provider, mapping, settings, options) {
                Err(note) => out.notes.push(format!("{}: {note}", record.id)),
                Ok(route) => {
                    for &(language, client) in CLIENTS {
                        if !route.clients.contains(&client) {
                            continue;
                        }
                        let template = match &kind {
                            RequestKind::Chat if options.streaming => "conversationalStream",
                            RequestKind::Chat => "conversational",
                            RequestKind::Task(spec) => spec.template.as_str(),
                        };
                        let context = route.context(record, &kind, &sample, options, client);
                        let content = self.render_inference(language, client, template, &context)?;
                        let token_env = context.token_env;
                        out.snippets.push(InferenceSnippet { provider: provider.clone(), language, client, content, token_env });
                    }
                }
            }
        }
        Ok(out)
    }
}

/// Where the examples of one provider go and which clients can make them.
pub(crate) struct Route<'a> {
    provider: &'a str,
    clients: Vec<&'static str>,
    model: String,
    token_env: String,
    auth_scheme: &'static str,
    url: String,
    base_url: String,
    endpoint_url: Option<&'a str>,
    direct: bool,
    fal: Option<FalContext>,
}

impl crate::engine::SnippetEngine {
    fn route<'a>(
        &self,
        record: &'a ModelRecord,
        kind: &RequestKind<'_>,
        provider: &'a str,
        mapping: Option<&ProviderMapping>,
        settings: &InferenceSettings,
        options: &'a InferenceOptions,
    ) -> Result<Route<'a>, String> {
        let id = record.id.as_str();
        let router = settings.router_url.trim_end_matches('/');
        let mut route = Route {
            provider,
            clients: Vec::new(),
            model: id.to_owned(),
            token_env: "HF_TOKEN".into(),
            auth_scheme: "Bearer",
            url: String::new(),
            base_url: String::new(),
            endpoint_url: None,
            direct: false,
            fal: None,
        };
        if let Some(endpoint) = options.endpoint_url.as_deref() {
            let endpoint = endpoint.trim_end_matches('/');
            route.token_env = "API_TOKEN".into();
            route.endpoint_url = options.endpoint_url.as_deref().map(|e| e.trim_end_matches('/'));
            route.base_url = endpoint.to_owned();
            return match kind {
                RequestKind::Chat => {
                    route.url = format!("{endpoint}/chat/completions");
                    route.clients = vec!["huggingface_hub", "requests", "openai", "huggingface.js", "fetch", "curl"];
                    Ok(route)
                }
                RequestKind::Task(spec) => {
                    route.url = endpoint.to_owned();
                    route.clients = vec!["requests", "fetch", "curl"];
                    // The SDKs call an endpoint the way they call hf-inference.
                    if spec.hf_inference && spec.python_method.is_some() {
                        route.clients.push("huggingface_hub");
                    }
                    if spec.hf_inference && spec.js_method.is_some() {
                        route.clients.push("huggingface.js");
                    }
                    Ok(route)
                }
            };
        }
        let named = provider != AUTO && provider != HF_INFERENCE;
        if named {
            if !providers::is_provider_name(provider) {
                return Err(format!("provider name {provider:?} is not a plain lowercase name"));
            }
            let Some(mapping) = mapping else {
                return Err(format!("provider {provider:?} has no mapping for this model"));
            };
            if !providers::is_provider_id(&mapping.provider_id) {
                return Err(format!("provider {provider:?} has an unusable model id {:?}", mapping.provider_id));
            }
            if mapping.status != "live" {
                return Err(format!("provider {provider:?} is {:?}, not live", mapping.status));
            }
            let wanted = match kind {
                RequestKind::Chat => "conversational",
                RequestKind::Task(spec) => spec.task.as_str(),
            };
            if mapping.task != wanted {
                return Err(format!("provider {provider:?} serves task {:?}, not {wanted:?}", mapping.task));
            }
        }
        if options.direct_request {
            if provider == AUTO {
                return Err("direct requests need a named provider, not auto".into());
            }
            route.direct = true;
            if provider != HF_INFERENCE {
                route.token_env = provider_key_variable(provider);
            }
        }
        match kind {
            RequestKind::Chat => {
                route.clients = vec!["huggingface_hub", "huggingface.js"];
                let direct_base = self.providers().iter().find(|p| p.name == provider).and_then(|p| p.openai_base_url.clone());
                if route.direct && provider != HF_INFERENCE {
                    let Some(base) = direct_base else {
                        // The SDKs know the provider's API; raw clients would need its URL.
                        route.model = id.to_owned();
                        return Ok(route);
                    };
                    route.model = mapping.map(|m| m.provider_id.clone()).unwrap_or_default();
                    route.url = format!("{base}/chat/completions");
                    route.base_url = base;
                } else {
                    route.base_url = format!("{router}/v1");
                    route.url = format!("{router}/v1/chat/completions");
                    if provider != AUTO {
                        route.model = format!("{id}:{provider}");
                    }
                }
                route.clients.extend(["requests", "openai", "fetch", "curl"]);
                // The SDKs take the plain id and the provider separately.
                Ok(route)
            }
            RequestKind::Task(spec) => {
                if provider == HF_INFERENCE && !spec.hf_inference {
                    return Err(format!("hf-inference does not serve task {:?}", spec.task));
                }
                if spec.python_method.is_some() {
                    route.clients.push("huggingface_hub");
                }
                if spec.js_method.is_some() {
                    route.clients.push("huggingface.js");
                }
                if provider == HF_INFERENCE {
                    let pipeline = matches!(spec.task.as_str(), "feature-extraction" | "sentence-similarity");
                    route.url = format!("{router}/hf-inference/models/{id}");
                    if pipeline {
                        route.url.push_str(&format!("/pipeline/{}", spec.task));
                    }
                    route.clients.extend(["requests", "fetch", "curl"]);
                } else if provider == FAL_AI && spec.fal {
                    let mapping = mapping.expect("named providers have a mapping");
                    let provider_id = mapping.provider_id.clone();
                    let (submit_url, auth) = if route.direct {
                        (format!("https://queue.fal.run/{provider_id}"), "Key")
                    } else {
                        (format!("{router}/fal-ai/{provider_id}?_subdomain=queue"), "Bearer")
                    };
                    route.auth_scheme = auth;
                    route.url = submit_url.clone();
                    route.fal = Some(FalContext {
                        arguments: inputs::fal_arguments(record, spec, mapping, &settings.hub_url),
                        provider_id,
                        submit_url,
                        routed: !route.direct,
                        router_prefix: format!("{router}/fal-ai"),
                    });
                    route.clients.extend(["requests", "fetch", "curl"]);
                    if matches!(spec.template.as_str(), "textToImage" | "imageToImage" | "imageToVideo") {
                        route.clients.push("fal_client");
                    }
                }
                if route.clients.is_empty() {
                    return Err(format!("no client can call task {:?} through provider {provider:?}", spec.task));
                }
                Ok(route)
            }
        }
    }
}

impl<'a> Route<'a> {
    fn context(
        &self,
        record: &'a ModelRecord,
        kind: &RequestKind<'a>,
        sample: &inputs::SampleInputs,
        options: &'a InferenceOptions,
        client: &str,
    ) -> InferenceContext<'a> {
        let spec = match kind {
            RequestKind::Task(spec) => Some(*spec),
            RequestKind::Chat => None,
        };
        let mut chat_parameters = serde_json::Map::new();
        if let Some(t) = options.temperature {
            chat_parameters.insert("temperature".into(), json!(t));
        }
        if let Some(m) = options.max_tokens {
            chat_parameters.insert("max_tokens".into(), json!(m));
        }
        if let Some(p) = options.top_p {
            chat_parameters.insert("top_p".into(), json!(p));
        }
        let output = spec.map_or("json", |s| s.output.as_str());
        let sdk = client == "huggingface_hub" || client == "huggingface.js";
        let (content_type, input_file) = match spec.map(|s| s.input.as_str()) {
            Some("audio") => ("audio/flac", "sample.flac"),
            Some("image" | "image_prompt" | "image_labels" | "image_question") => ("image/jpeg", "cat.jpg"),
            _ => ("application/json", ""),
        };
        InferenceContext {
            id: &record.id,
            provider: self.provider,
            sdk_provider: (self.endpoint_url.is_none()).then_some(self.provider),
            // SDKs take the plain id and map it to the provider's own id themselves.
            model: if sdk { record.id.clone() } else { self.model.clone() },
            // fal_client always talks to fal itself, with fal's own key.
            token_env: if client == "fal_client" { provider_key_variable(FAL_AI) } else { self.token_env.clone() },
            auth_scheme: if client == "fal_client" { "Key" } else { self.auth_scheme },
            // Billing an organisation is the router's feature: a request made
            // with a provider's own key (fal_client always is one) has no bill-to.
            bill_to: options.bill_to.as_deref().filter(|_| {
                let own_key = (self.direct && self.provider != HF_INFERENCE) || client == "fal_client";
                !own_key
            }),
            url: self.url.clone(),
            base_url: self.base_url.clone(),
            endpoint_url: self.endpoint_url,
            direct: self.direct,
            task: spec.map_or("conversational", |s| s.task.as_str()),
            python_method: spec.and_then(|s| s.python_method.as_deref()),
            js_method: spec.and_then(|s| s.js_method.as_deref()),
            body: spec.map(|s| inputs::json_body(s, sample)).unwrap_or(Value::Null),
            inputs: sample.clone(),
            output,
            content_type,
            input_file,
            output_file: match output {
                "image" => "output.png",
                "video" => "output.mp4",
                "audio" => "output.flac",
                _ => "",
            },
            stream: options.streaming,
            chat_parameters: Value::Object(chat_parameters),
            fal: self.fal.as_ref().map(|f| FalContext {
                provider_id: f.provider_id.clone(),
                submit_url: f.submit_url.clone(),
                routed: f.routed,
                router_prefix: f.router_prefix.clone(),
                arguments: f.arguments.clone(),
            }),
        }
    }
}
