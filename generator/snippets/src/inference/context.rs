//! What an inference template reads: the context of one (provider, client)
//! example.
//!
//! Most of it is the same for every example of a call (the model, the task,
//! the sample inputs and body) or of a provider (URLs, token variable), so
//! each part is made into template values once, at its level, and an example
//! only points at them. Templates look names up in the context as they read
//! them; nothing is converted for a name a template never reads.

use std::sync::Arc;

use minijinja::value::{Enumerator, Object};
use minijinja::Value as TemplateValue;
use modelpages_record::ModelRecord;
use serde::Serialize;
use serde_json::{json, Value};

use super::providers::{provider_key_variable, FAL_AI, HF_INFERENCE};
use super::{inputs, InferenceOptions, RequestKind};
use crate::memo::{Encoder, IdMarker};

/// The names whose values can hold the model id: [`CallValues::id`],
/// [`RouteValues::url`] and [`RouteValues::model`] (and `model` as a client
/// reads it, which can be the id).
pub(crate) const ID_NAMES: &[&str] = &["id", "model", "url"];

/// What a template reads that is the same for every example of one call.
#[derive(Clone, Debug)]
pub(crate) struct CallValues {
    id: TemplateValue,
    task: TemplateValue,
    python_method: TemplateValue,
    js_method: TemplateValue,
    /// The JSON body for tasks whose body is plain data.
    body: TemplateValue,
    /// The sample inputs ([`inputs::SampleInputs`]).
    inputs: TemplateValue,
    /// `json`, `image`, `audio` or `video`.
    output: TemplateValue,
    content_type: TemplateValue,
    input_file: TemplateValue,
    output_file: TemplateValue,
    stream: TemplateValue,
    /// Chat parameters that were set: temperature, max_tokens, top_p.
    chat_parameters: TemplateValue,
}

impl CallValues {
    pub(crate) fn of(
        record: &ModelRecord,
        kind: &RequestKind<'_>,
        sample: &inputs::SampleInputs,
        options: &InferenceOptions,
    ) -> CallValues {
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
        let (content_type, input_file) = match spec.map(|s| s.input.as_str()) {
            Some("audio") => ("audio/flac", "sample.flac"),
            Some("image" | "image_prompt" | "image_labels" | "image_question") => ("image/jpeg", "cat.jpg"),
            _ => ("application/json", ""),
        };
        CallValues {
            id: TemplateValue::from(record.id.as_str()),
            task: TemplateValue::from(spec.map_or("conversational", |s| s.task.as_str())),
            python_method: optional(spec.and_then(|s| s.python_method.as_deref())),
            js_method: optional(spec.and_then(|s| s.js_method.as_deref())),
            body: TemplateValue::from_serialize(spec.map(|s| inputs::json_body(s, sample)).unwrap_or(Value::Null)),
            inputs: TemplateValue::from_serialize(sample),
            output: TemplateValue::from(output),
            content_type: TemplateValue::from(content_type),
            input_file: TemplateValue::from(input_file),
            output_file: TemplateValue::from(match output {
                "image" => "output.png",
                "video" => "output.mp4",
                "audio" => "output.flac",
                _ => "",
            }),
            stream: TemplateValue::from(options.streaming),
            chat_parameters: TemplateValue::from_serialize(Value::Object(chat_parameters)),
        }
    }
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

impl CallValues {
    /// These values with [`crate::memo::ID_MARKER`] for the model id; none
    /// when the marker could not be told from the rest.
    pub(crate) fn with_id_marker(&self, marker: &IdMarker<'_>) -> Option<CallValues> {
        Some(CallValues { id: marker.mark(&self.id)?, ..self.clone() })
    }

    /// Adds every value to `encoder`; false if one is not plain data.
    pub(crate) fn encode(&self, encoder: &mut Encoder) -> bool {
        // Every field, by name: a field added later must be added here.
        let CallValues {
            id,
            task,
            python_method,
            js_method,
            body,
            inputs,
            output,
            content_type,
            input_file,
            output_file,
            stream,
            chat_parameters,
        } = self;
        let call = [id, task, python_method, js_method, body, inputs, output, content_type];
        let files = [input_file, output_file, stream, chat_parameters];
        call.into_iter().chain(files).all(|value| encoder.add(value))
    }
}

/// What a template reads that is the same for every client of one provider.
#[derive(Clone, Debug)]
pub(crate) struct RouteValues {
    provider: TemplateValue,
    /// The provider name for SDK calls (none for a custom endpoint).
    sdk_provider: TemplateValue,
    /// Where a raw HTTP request goes.
    url: TemplateValue,
    /// Base URL for OpenAI-compatible clients.
    base_url: TemplateValue,
    endpoint_url: TemplateValue,
    direct: TemplateValue,
    /// The [`FalContext`], for fal-ai's queue; none for other providers.
    fal: TemplateValue,
    /// The `model` field of raw requests (SDKs take the plain id).
    model: TemplateValue,
    token_env: TemplateValue,
    /// `Bearer` or `Key` (fal-ai's own API).
    auth_scheme: TemplateValue,
    /// The organisation billed, for requests through the router.
    bill_to: TemplateValue,
}

/// One route's settings, as [`super::Route`] holds them.
pub(crate) struct RouteParts<'a> {
    pub provider: &'a str,
    pub model: &'a str,
    pub token_env: &'a str,
    pub auth_scheme: &'static str,
    pub url: &'a str,
    pub base_url: &'a str,
    pub endpoint_url: Option<&'a str>,
    pub direct: bool,
    pub fal: Option<&'a TemplateValue>,
}

impl RouteValues {
    pub(crate) fn of(route: RouteParts<'_>, options: &InferenceOptions) -> RouteValues {
        // Billing an organisation is the router's feature: a request made
        // with a provider's own key has no bill-to.
        let own_key = route.direct && route.provider != HF_INFERENCE;
        RouteValues {
            provider: TemplateValue::from(route.provider),
            sdk_provider: optional(route.endpoint_url.is_none().then_some(route.provider)),
            url: TemplateValue::from(route.url),
            base_url: TemplateValue::from(route.base_url),
            endpoint_url: optional(route.endpoint_url),
            direct: TemplateValue::from(route.direct),
            fal: route.fal.cloned().unwrap_or(TemplateValue::from(())),
            model: TemplateValue::from(route.model),
            token_env: TemplateValue::from(route.token_env),
            auth_scheme: TemplateValue::from(route.auth_scheme),
            bill_to: optional(options.bill_to.as_deref().filter(|_| !own_key)),
        }
    }
}

impl RouteValues {
    /// These values with [`crate::memo::ID_MARKER`] for the model id in the
    /// URL and the model; none when the marker could not be told from the
    /// rest.
    pub(crate) fn with_id_marker(&self, marker: &IdMarker<'_>) -> Option<RouteValues> {
        Some(RouteValues { url: marker.mark(&self.url)?, model: marker.mark(&self.model)?, ..self.clone() })
    }

    /// Adds every value to `encoder`; false if one is not plain data.
    pub(crate) fn encode(&self, encoder: &mut Encoder) -> bool {
        // Every field, by name: a field added later must be added here.
        let RouteValues {
            provider,
            sdk_provider,
            url,
            base_url,
            endpoint_url,
            direct,
            fal,
            model,
            token_env,
            auth_scheme,
            bill_to,
        } = self;
        [provider, sdk_provider, url, base_url, endpoint_url, direct, fal, model, token_env, auth_scheme, bill_to]
            .into_iter()
            .all(|value| encoder.add(value))
    }
}

/// How a client takes the model and the key, where clients differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ClientKind {
    /// huggingface_hub and huggingface.js: the plain id; the SDK maps it to
    /// the provider's own id itself.
    Sdk,
    /// fal_client: always fal's own API, with fal's own key (so no bill-to).
    FalClient,
    /// Raw HTTP requests and OpenAI clients.
    Raw,
}

impl ClientKind {
    pub(crate) fn of(client: &str) -> ClientKind {
        match client {
            "huggingface_hub" | "huggingface.js" => ClientKind::Sdk,
            "fal_client" => ClientKind::FalClient,
            _ => ClientKind::Raw,
        }
    }
}

/// The context of one example: its call's and its provider's values, and the
/// client's own.
#[derive(Debug)]
pub(crate) struct ExampleContext {
    pub call: Arc<CallValues>,
    pub route: Arc<RouteValues>,
    pub client: ClientKind,
}

/// The names a template can read, as it lists the context.
const NAMES: &[&str] = &[
    "id",
    "provider",
    "sdk_provider",
    "model",
    "token_env",
    "auth_scheme",
    "bill_to",
    "url",
    "base_url",
    "endpoint_url",
    "direct",
    "task",
    "python_method",
    "js_method",
    "body",
    "inputs",
    "output",
    "content_type",
    "input_file",
    "output_file",
    "stream",
    "chat_parameters",
    "fal",
];

impl Object for ExampleContext {
    fn get_value(self: &Arc<Self>, key: &TemplateValue) -> Option<TemplateValue> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<TemplateValue> {
        let (call, route, client) = (&*self.call, &*self.route, self.client);
        let value = match key {
            "id" => &call.id,
            "provider" => &route.provider,
            "sdk_provider" => &route.sdk_provider,
            "model" if client == ClientKind::Sdk => &call.id,
            "model" => &route.model,
            "token_env" if client == ClientKind::FalClient => {
                return Some(TemplateValue::from(provider_key_variable(FAL_AI)));
            }
            "token_env" => &route.token_env,
            "auth_scheme" if client == ClientKind::FalClient => return Some(TemplateValue::from("Key")),
            "auth_scheme" => &route.auth_scheme,
            "bill_to" if client == ClientKind::FalClient => return Some(TemplateValue::from(())),
            "bill_to" => &route.bill_to,
            "url" => &route.url,
            "base_url" => &route.base_url,
            "endpoint_url" => &route.endpoint_url,
            "direct" => &route.direct,
            "task" => &call.task,
            "python_method" => &call.python_method,
            "js_method" => &call.js_method,
            "body" => &call.body,
            "inputs" => &call.inputs,
            "output" => &call.output,
            "content_type" => &call.content_type,
            "input_file" => &call.input_file,
            "output_file" => &call.output_file,
            "stream" => &call.stream,
            "chat_parameters" => &call.chat_parameters,
            "fal" => &route.fal,
            _ => return None,
        };
        Some(value.clone())
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Str(NAMES)
    }
}

/// A string, or none.
fn optional(value: Option<&str>) -> TemplateValue {
    value.map_or(TemplateValue::from(()), TemplateValue::from)
}
