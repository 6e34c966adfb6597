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

use super::clients::Client;
use super::{inputs, InferenceOptions, RequestKind};
use crate::cache::memo::{Encoder, IdMarker};

/// A struct of template values, defined once: its fields are the names
/// templates read, and [`encode`](CallValues::encode) (the memo key),
/// [`NAMES`](CallValues::NAMES) and the lookup by name are made from that one
/// list, so they cannot disagree.
macro_rules! template_values {
    ($(#[$meta:meta])* struct $name:ident { $($(#[$field_meta:meta])* $field:ident,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        pub(crate) struct $name {
            $($(#[$field_meta])* $field: TemplateValue,)*
        }

        impl $name {
            /// The names templates read these values by, in field order.
            pub(crate) const NAMES: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Adds every value to `encoder`; false if one is not plain data.
            pub(crate) fn encode(&self, encoder: &mut Encoder) -> bool {
                $(encoder.add(&self.$field))&&*
            }

            /// The value templates read as `name`.
            fn get(&self, name: &str) -> Option<&TemplateValue> {
                match name {
                    $(stringify!($field) => Some(&self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

/// The names whose values can hold the model id: [`CallValues::id`],
/// [`RouteValues::url`] and [`RouteValues::model`] (and `model` as a client
/// reads it, which can be the id).
pub(crate) const ID_NAMES: &[&str] = &["id", "model", "url"];

template_values! {
    /// What a template reads that is the same for every example of one call.
    struct CallValues {
        id,
        task,
        python_method,
        js_method,
        /// The JSON body for tasks whose body is plain data.
        body,
        /// The sample inputs ([`inputs::SampleInputs`]).
        inputs,
        /// `json`, `image`, `audio` or `video`.
        output,
        content_type,
        input_file,
        output_file,
        stream,
        /// Chat parameters that were set: temperature, max_tokens, top_p.
        chat_parameters,
    }
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
    /// These values with [`crate::cache::memo::ID_MARKER`] for the model id; none
    /// when the marker could not be told from the rest.
    pub(crate) fn with_id_marker(&self, marker: &IdMarker<'_>) -> Option<CallValues> {
        Some(CallValues { id: marker.mark(&self.id)?, ..self.clone() })
    }
}

template_values! {
    /// What a template reads that is the same for every client of one provider.
    struct RouteValues {
        provider,
        /// The provider name for SDK calls (none for a custom endpoint).
        sdk_provider,
        /// Where a raw HTTP request goes.
        url,
        /// Base URL for OpenAI-compatible clients.
        base_url,
        endpoint_url,
        direct,
        /// The [`FalContext`], for fal-ai's queue; none for other providers.
        fal,
        /// The `model` field of raw requests (SDKs take the plain id).
        model,
        token_env,
        /// `Bearer` or `Key` (fal-ai's own API).
        auth_scheme,
        /// The organisation billed, for requests through the router.
        bill_to,
    }
}

/// One route's settings, as [`super::Route`] holds them.
pub(crate) struct RouteParts<'a> {
    pub provider: &'a str,
    pub model: &'a str,
    pub token_env: &'a str,
    pub auth_scheme: &'a str,
    pub url: &'a str,
    pub base_url: &'a str,
    pub endpoint_url: Option<&'a str>,
    pub direct: bool,
    /// A direct request with the provider's own key, not the router's token.
    pub own_key: bool,
    pub fal: Option<&'a TemplateValue>,
}

impl RouteValues {
    pub(crate) fn of(route: RouteParts<'_>, options: &InferenceOptions) -> RouteValues {
        // Billing an organisation is the router's feature: a request made
        // with a provider's own key has no bill-to.
        let own_key = route.own_key;
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
    /// These values with [`crate::cache::memo::ID_MARKER`] for the model id in the
    /// URL and the model; none when the marker could not be told from the
    /// rest.
    pub(crate) fn with_id_marker(&self, marker: &IdMarker<'_>) -> Option<RouteValues> {
        Some(RouteValues { url: marker.mark(&self.url)?, model: marker.mark(&self.model)?, ..self.clone() })
    }
}

/// The context of one example: its call's and its provider's values, and the
/// client's own.
#[derive(Debug)]
pub(crate) struct ExampleContext {
    pub call: Arc<CallValues>,
    pub route: Arc<RouteValues>,
    pub client: Client,
}

impl Object for ExampleContext {
    fn get_value(self: &Arc<Self>, key: &TemplateValue) -> Option<TemplateValue> {
        self.get_value_by_str(key.as_str()?)
    }

    fn get_value_by_str(self: &Arc<Self>, key: &str) -> Option<TemplateValue> {
        let (call, route, client) = (&*self.call, &*self.route, &self.client);
        // Where the client's own rules override the route's values.
        let value = match key {
            "model" if client.takes_plain_id() => &call.id,
            "token_env" => match client.own_token_env() {
                Some(own) => return Some(TemplateValue::from(own)),
                None => &route.token_env,
            },
            "auth_scheme" if client.talks_to_fal_itself() => return Some(TemplateValue::from("Key")),
            "bill_to" if client.talks_to_fal_itself() => return Some(TemplateValue::from(())),
            _ => call.get(key).or_else(|| route.get(key))?,
        };
        Some(value.clone())
    }

    fn enumerate(self: &Arc<Self>) -> Enumerator {
        Enumerator::Values(CallValues::NAMES.iter().chain(RouteValues::NAMES).map(|name| TemplateValue::from(*name)).collect())
    }
}

/// A string, or none.
fn optional(value: Option<&str>) -> TemplateValue {
    value.map_or(TemplateValue::from(()), TemplateValue::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every name a template can read is a value of the call or the route,
    /// and each is read from the values the memo key encodes.
    #[test]
    fn the_names_templates_read_are_the_values_encoded() {
        let names: Vec<&str> = CallValues::NAMES.iter().chain(RouteValues::NAMES).copied().collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "no name is both a call's and a route's");
        for id_name in ID_NAMES {
            assert!(names.contains(id_name), "{id_name} is a template variable");
        }
        assert_eq!(names.len(), 23);
        let record: ModelRecord = serde_json::from_str(r#"{"id": "org/chat", "pipeline_tag": "text-generation"}"#).unwrap();
        let sample = inputs::SampleInputs::of(&record, &RequestKind::Chat);
        let call = CallValues::of(&record, &RequestKind::Chat, &sample, &InferenceOptions::default());
        for name in CallValues::NAMES {
            assert!(call.get(name).is_some(), "{name} is looked up");
        }
        assert!(call.get("url").is_none() && call.get("nothing").is_none());
        let mut encoder = Encoder::with_constants(&inputs::constants());
        assert!(call.encode(&mut encoder), "a chat call's values are plain data");
    }
}
