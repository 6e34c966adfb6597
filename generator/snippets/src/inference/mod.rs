//! Hosted-inference examples: every (provider, language, client) combination
//! that can serve a model, rendered from `templates/inference/<language>/<client>/<kind>`.
//!
//! The engine decides which combinations exist and computes everything an
//! example must get right (URL, model field, token variable, body); templates
//! only lay the code out.

pub mod clients;
mod context;
mod inputs;
mod providers;
mod tasks;

use std::collections::HashMap;
use std::sync::Arc;

use minijinja::Value as TemplateValue;
use serde::Serialize;

pub use crate::body::{format_body, BodyError, BodyFormat};
pub use clients::{client, Client, ClientKind, RouteOffer, CHAT_TEMPLATES, CLIENTS};
pub use providers::{
    is_provider_name, known_providers, provider_key_variable, provider_mappings, ProviderApi, ProviderInfo, ProviderMapping, AUTO,
    FAL_AI, HF_INFERENCE,
};
pub use tasks::{task_specs, TaskSpec};

use crate::cache::memo::{Encoder, IdMarker, Part, RenderKey, RenderMemo, ID_MARKER};
use crate::language::Language;
use crate::template_set::{SnippetError, TemplateSet};
use context::ID_NAMES;
use context::{CallValues, ExampleContext, FalContext, RouteParts, RouteValues};
use modelpages_record::ModelRecord;

/// How the note about a provider mapping that is not live ends: records
/// list every provider they ever had, so the command line counts these
/// instead of printing each.
pub const NOT_LIVE_NOTE: &str = ", not live";

/// Site settings the examples depend on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InferenceSettings {
    /// Base of the inference router, without a trailing slash.
    pub router_url: String,
    /// Base of the hub, for file URLs (LoRA weights), without a trailing slash.
    pub hub_url: String,
    /// Providers that get examples besides the catalogue's, `auto` and
    /// `hf-inference` (a private router's own); plain names.
    pub extra_providers: Vec<String>,
}

impl Default for InferenceSettings {
    fn default() -> Self {
        InferenceSettings {
            router_url: "https://router.huggingface.co".into(),
            hub_url: "https://huggingface.co".into(),
            extra_providers: Vec::new(),
        }
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
    /// The model's own values the examples quote: its id, its sample
    /// inputs, the model names and ids its providers take; sorted, each
    /// once ([`crate::substituted`]).
    pub values: Vec<String>,
}

/// What kind of request a model gets.
#[derive(Clone, Debug)]
pub enum RequestKind<'a> {
    Chat,
    Task(&'a TaskSpec),
}

/// A text-generation model that is conversational (tagged so, or served for
/// chat by a provider) is a chat model; vision-language models are served
/// through chat completions even without the tag. The task is the record's
/// own or, without one, its providers' ([`ModelRecord::task`]).
pub fn request_kind<'a>(record: &ModelRecord, specs: &'a [TaskSpec]) -> Option<RequestKind<'a>> {
    let task = record.task()?;
    let chat = (task == "text-generation" && record.is_conversational()) || task == "image-text-to-text";
    if chat {
        return Some(RequestKind::Chat);
    }
    specs.iter().find(|s| s.task == task).map(RequestKind::Task)
}

/// What hosted-inference examples are made from besides the templates:
/// the task table, the providers and clients, and the example texts kept
/// for reuse. The engine holds one and hands it the templates to render.
pub(crate) struct HostedInference {
    task_specs: Vec<TaskSpec>,
    pub(crate) providers: Vec<ProviderInfo>,
    /// The hosted-inference clients ([`clients`]).
    pub(crate) clients: Vec<Client>,
    /// The hosted-inference templates whose text can be given to every model
    /// it fits, with its own id ([`crate::cache::id_text`]), each with a number.
    pub(crate) reusable_templates: HashMap<String, u32>,
    /// Hosted-inference examples kept for reuse ([`crate::cache`]).
    pub(crate) memo: RenderMemo,
}

impl HostedInference {
    /// The built-in tables, and which of `templates`' inference templates
    /// can be reused.
    pub(crate) fn new(templates: &TemplateSet) -> HostedInference {
        let env = templates.environment();
        // Names first: templates given at run time are locked while listed,
        // and the check looks templates up.
        let inference_templates: Vec<String> = env
            .templates()
            .map(|(name, _)| name)
            .filter(|name| name.starts_with("inference/") && !name.rsplit('/').next().unwrap_or("").starts_with('_'))
            .map(str::to_owned)
            .collect();
        let reusable_templates = inference_templates
            .into_iter()
            .filter(|name| crate::cache::id_text::uses_id_only_as_text(env, name, ID_NAMES))
            .zip(0..)
            .collect();
        HostedInference {
            task_specs: task_specs(),
            providers: known_providers(),
            clients: CLIENTS.to_vec(),
            reusable_templates,
            memo: RenderMemo::default(),
        }
    }

    /// The tasks hosted inference serves, with their template kinds.
    pub(crate) fn task_specs(&self) -> &[TaskSpec] {
        &self.task_specs
    }

    /// The hosted-inference examples of `record`. Never fails for the record's
    /// sake: a provider that cannot serve the model is noted and skipped.
    pub(crate) fn examples(
        &self,
        templates: &TemplateSet,
        record: &ModelRecord,
        settings: &InferenceSettings,
        options: &InferenceOptions,
    ) -> Result<InferenceExamples, SnippetError> {
        let mut out = InferenceExamples::default();
        let specs = &self.task_specs;
        // A task hosted inference does not serve simply has no examples.
        let Some(kind) = request_kind(record, specs) else { return Ok(out) };
        let mut unknown_note = None;
        let mappings = provider_mappings(record.inference_provider_mapping.as_ref());
        let providers: Vec<String> = match (&options.endpoint_url, &options.providers) {
            (Some(_), _) => vec!["endpoint".into()],
            (None, asked) => {
                let wanted: Vec<&str> = match asked {
                    Some(list) => list.iter().map(String::as_str).collect(),
                    None => [AUTO, HF_INFERENCE].into_iter().chain(mappings.iter().map(|m| m.provider.as_str())).collect(),
                };
                let (known, unknown) = self.known_providers_of(wanted, settings);
                if !unknown.is_empty() {
                    unknown_note = Some(providers::unknown_providers_note(&record.id, &unknown));
                }
                known.into_iter().map(str::to_owned).collect()
            }
        };
        out.notes.extend(unknown_note);
        if inputs::has_oversized_widget_values(record) {
            out.notes.push(format!(
                "{}: widget example values over {} bytes (or with over {} bytes of escapes), or over {} sentences, are not used in \
                 hosted-inference examples",
                record.id,
                inputs::MAX_SAMPLE_BYTES,
                inputs::MAX_SAMPLE_ESCAPE_BYTES,
                inputs::MAX_SAMPLE_SENTENCES
            ));
        }
        let sample = inputs::SampleInputs::of(record, &kind);
        // Computed here, not noted by the filters: example texts are reused
        // across models without rendering them again.
        let mut values: Vec<String> = vec![record.id.clone()];
        values.extend(sample.texts().map(str::to_owned));
        values.extend(sample.sentences.iter().cloned());
        let call = Arc::new(CallValues::of(record, &kind, &sample, options));
        let id = record.id.as_str();
        let marker = IdMarker::new(id);
        let marked_call = marker
            .as_ref()
            .and_then(|marker| call.with_id_marker(marker))
            .and_then(|marked| self.memo_part(marked, CallValues::encode));
        let template = match &kind {
            RequestKind::Chat if options.streaming => "conversationalStream",
            RequestKind::Chat => "conversational",
            RequestKind::Task(spec) => spec.template.as_str(),
        };
        for provider in &providers {
            let mapping = mappings.iter().find(|m| &m.provider == provider);
            match self.route(record, &kind, provider, mapping, settings, options) {
                Err(note) => out.notes.push(format!("{}: {note}", record.id)),
                Ok(route) => {
                    values.push(route.model.clone());
                    values.extend(mapping.map(|m| m.provider_id.clone()));
                    let clients: Vec<Client> = clients::clients_for(&self.clients, &route.offer, template).copied().collect();
                    if let (true, RequestKind::Task(spec)) = (clients.is_empty(), &kind) {
                        let note = format!("no client can call task {:?} through provider {provider:?}", spec.task);
                        out.notes.push(format!("{}: {note}", record.id));
                        continue;
                    }
                    let values = Arc::new(route.values(options));
                    let marked_route = marker
                        .as_ref()
                        .filter(|_| marked_call.is_some())
                        .and_then(|marker| values.with_id_marker(marker))
                        .and_then(|marked| self.memo_part(marked, RouteValues::encode));
                    for client in clients {
                        let context = ExampleContext { call: call.clone(), route: values.clone(), client };
                        let marked = marked_call.as_ref().zip(marked_route.as_ref()).map(|(call, route)| {
                            let parts = [call.1, route.1];
                            (ExampleContext { call: call.0.clone(), route: route.0.clone(), client }, parts)
                        });
                        let content = self.inference_example(templates, (client.language, client.name, template), id, context, marked)?;
                        let token_env = client.own_token_env().unwrap_or_else(|| route.token_env.clone());
                        out.snippets.push(InferenceSnippet {
                            provider: provider.clone(),
                            language: client.language,
                            client: client.name,
                            content,
                            token_env,
                        });
                    }
                }
            }
        }
        out.values = crate::substituted::reported(values);
        Ok(out)
    }

    /// `wanted` without repeats, split into the providers the site knows
    /// (the catalogue, `auto`, `hf-inference`, the settings' extra ones) and
    /// the others, each in the order given.
    fn known_providers_of<'a>(&self, wanted: Vec<&'a str>, settings: &InferenceSettings) -> (Vec<&'a str>, Vec<&'a str>) {
        let is_known = |name: &str| {
            name == AUTO
                || name == HF_INFERENCE
                || self.providers.iter().any(|p| p.name == name)
                || settings.extra_providers.iter().any(|p| p == name)
        };
        let mut seen = std::collections::HashSet::new();
        wanted.into_iter().filter(|name| seen.insert(*name)).partition(|name| is_known(name))
    }

    /// Values with the id marked, shared, and the number of their encoding;
    /// none if they are not plain data.
    fn memo_part<T>(&self, marked: T, encode: fn(&T, &mut Encoder) -> bool) -> Option<(Arc<T>, Part)> {
        let mut encoder = Encoder::with_constants(&inputs::constants());
        encode(&marked, &mut encoder).then(|| (Arc::new(marked), self.memo.part(encoder.into_bytes())))
    }

    /// One example: the text kept for its template and values, with this
    /// model's id, or else rendered (and kept when `marked`, the context with
    /// the id marked and its key's parts, allows).
    fn inference_example(
        &self,
        templates: &TemplateSet,
        (language, client, template): (Language, &'static str, &str),
        id: &str,
        context: ExampleContext,
        marked: Option<(ExampleContext, [Part; 2])>,
    ) -> Result<String, SnippetError> {
        let name = ["inference/", language.as_str(), "/", client, "/", template, ".jinja"].concat();
        let which = (language, client, template);
        let reusable = marked.zip(self.reusable_templates.get(&name).copied());
        let Some(((marked_context, parts), number)) = reusable else {
            return render_inference(templates, &name, which, &TemplateValue::from_object(context));
        };
        let key = RenderKey::new(number, parts);
        if let Some(text) = self.memo.text(&key, id) {
            return Ok(text);
        }
        let text = render_inference(templates, &name, which, &TemplateValue::from_object(context))?;
        let marked_text = render_inference(templates, &name, which, &TemplateValue::from_object(marked_context));
        // Kept only if every marker stands for the id, as then it gives this
        // model's text back.
        if let Some(marked_text) = marked_text.ok().filter(|marked_text| marked_text.replace(ID_MARKER, id) == text) {
            self.memo.keep(key, &marked_text);
        }
        Ok(text)
    }
}

/// Renders `inference/<language>/<client>/<template>` (named `name`); a
/// missing template is an error naming all three.
fn render_inference(
    templates: &TemplateSet,
    name: &str,
    (language, client, template): (Language, &str, &str),
    context: &TemplateValue,
) -> Result<String, SnippetError> {
    templates.render_if_found(name, context).unwrap_or_else(|| {
        Err(SnippetError::TemplateNotFound {
            language: language.as_str(),
            client: client.to_owned(),
            template: template.to_owned(),
        })
    })
}

/// Where the examples of one provider go and what kind of call clients can
/// make there.
pub(crate) struct Route<'a> {
    provider: &'a str,
    offer: RouteOffer,
    model: String,
    token_env: String,
    auth_scheme: &'a str,
    url: String,
    base_url: String,
    endpoint_url: Option<&'a str>,
    direct: bool,
    /// Sent with the provider's own key: a direct request to a provider
    /// that is not the router's own.
    own_key: bool,
    /// The [`FalContext`] as a template value: made once per provider.
    fal: Option<TemplateValue>,
}

impl HostedInference {
    fn route<'a>(
        &'a self,
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
            offer: RouteOffer { chat: matches!(kind, RequestKind::Chat), ..RouteOffer::default() },
            model: id.to_owned(),
            token_env: "HF_TOKEN".into(),
            auth_scheme: "Bearer",
            url: String::new(),
            base_url: String::new(),
            endpoint_url: None,
            direct: false,
            own_key: false,
            fal: None,
        };
        if let Some(endpoint) = options.endpoint_url.as_deref() {
            let endpoint = endpoint.trim_end_matches('/');
            route.token_env = "API_TOKEN".into();
            route.endpoint_url = options.endpoint_url.as_deref().map(|e| e.trim_end_matches('/'));
            route.base_url = endpoint.to_owned();
            route.offer.raw_url = true;
            match kind {
                RequestKind::Chat => {
                    route.url = format!("{endpoint}/chat/completions");
                    route.offer.python_sdk = true;
                    route.offer.js_sdk = true;
                }
                RequestKind::Task(spec) => {
                    route.url = endpoint.to_owned();
                    // The SDKs call an endpoint the way they call hf-inference.
                    route.offer.python_sdk = spec.hf_inference && spec.python_method.is_some();
                    route.offer.js_sdk = spec.hf_inference && spec.js_method.is_some();
                }
            }
            return Ok(route);
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
            // The path lands in a file URL of this model's repository; one
            // that leaves it would load another repository's weights.
            if let Some(path) = mapping.adapter_weights_path.as_deref().filter(|p| !providers::is_repository_path(p)) {
                let shown: String = path.chars().take(200).collect();
                return Err(format!("provider {provider:?} has an unusable adapter weights path {shown:?}"));
            }
            if mapping.status != "live" {
                return Err(format!("provider {provider:?} is {:?}{NOT_LIVE_NOTE}", mapping.status));
            }
            let wanted = match kind {
                RequestKind::Chat => "conversational",
                RequestKind::Task(spec) => spec.task.as_str(),
            };
            if mapping.task != wanted {
                return Err(format!("provider {provider:?} serves task {:?}, not {wanted:?}", mapping.task));
            }
        }
        // The provider's API style, where the catalogue knows it
        // (`data/providers.json`): what a direct request and a task call.
        let api = self.providers.iter().find(|p| p.name == provider).and_then(|p| p.api.as_ref());
        let router_own = matches!(api, Some(ProviderApi::HfInference { .. }));
        if options.direct_request {
            if provider == AUTO {
                return Err("direct requests need a named provider, not auto".into());
            }
            route.direct = true;
            route.own_key = !router_own;
            if route.own_key {
                route.token_env = provider_key_variable(provider);
            }
        }
        match kind {
            RequestKind::Chat => {
                // The SDKs take the plain id and the provider separately.
                route.offer.python_sdk = true;
                route.offer.js_sdk = true;
                match api {
                    Some(ProviderApi::Openai { base_url }) if route.own_key => {
                        route.model = mapping.map(|m| m.provider_id.clone()).unwrap_or_default();
                        route.url = format!("{base_url}/chat/completions");
                        route.base_url = base_url.clone();
                    }
                    // The SDKs know the provider's API; raw clients would need its URL.
                    _ if route.own_key => return Ok(route),
                    _ => {
                        route.base_url = format!("{router}/v1");
                        route.url = format!("{router}/v1/chat/completions");
                        if provider != AUTO {
                            route.model = format!("{id}:{provider}");
                        }
                    }
                }
                route.offer.raw_url = true;
                Ok(route)
            }
            RequestKind::Task(spec) => {
                if router_own && !spec.hf_inference {
                    return Err(format!("{provider} does not serve task {:?}", spec.task));
                }
                route.offer.python_sdk = spec.python_method.is_some();
                route.offer.js_sdk = spec.js_method.is_some();
                match api {
                    Some(ProviderApi::HfInference { pipeline_tasks }) => {
                        route.url = format!("{router}/{provider}/models/{id}");
                        if pipeline_tasks.contains(&spec.task) {
                            route.url.push_str(&format!("/pipeline/{}", spec.task));
                        }
                        route.offer.raw_url = true;
                    }
                    Some(ProviderApi::FalQueue { queue_url, direct_auth }) if spec.fal => {
                        let mapping = mapping.expect("named providers have a mapping");
                        let provider_id = mapping.provider_id.clone();
                        let (submit_url, auth) = if route.direct {
                            (format!("{queue_url}/{provider_id}"), direct_auth.as_str())
                        } else {
                            (format!("{router}/{provider}/{provider_id}?_subdomain=queue"), "Bearer")
                        };
                        route.auth_scheme = auth;
                        route.url = submit_url.clone();
                        route.fal = Some(TemplateValue::from_serialize(FalContext {
                            arguments: inputs::fal_arguments(record, spec, mapping, &settings.hub_url),
                            provider_id,
                            submit_url,
                            routed: !route.direct,
                            router_prefix: format!("{router}/{provider}"),
                        }));
                        route.offer.raw_url = true;
                        route.offer.fal_queue = true;
                    }
                    _ => {}
                }
                Ok(route)
            }
        }
    }
}

impl Route<'_> {
    /// The template values of this route, for every client's examples.
    fn values(&self, options: &InferenceOptions) -> RouteValues {
        let parts = RouteParts {
            provider: self.provider,
            model: &self.model,
            token_env: &self.token_env,
            auth_scheme: self.auth_scheme,
            url: &self.url,
            base_url: &self.base_url,
            endpoint_url: self.endpoint_url,
            direct: self.direct,
            own_key: self.own_key,
            fal: self.fal.as_ref(),
        };
        RouteValues::of(parts, options)
    }
}

#[cfg(test)]
mod reuse_tests;
#[cfg(test)]
mod route_tests;
