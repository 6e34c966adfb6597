//! The inference clients as data: one row per client, and the one rule
//! that picks the clients a route can use.
//!
//! A client is a way to call hosted inference from one language: an SDK
//! that knows every provider (`huggingface_hub`, `huggingface.js`), a raw
//! HTTP request (`requests`, `fetch`, `curl`), an OpenAI-compatible client
//! (`openai`), or fal's own queue client (`fal_client`). What a client can
//! call follows from its [`ClientKind`] alone (see [`Client::serves`]), so
//! a new client is one row in [`CLIENTS`] plus its templates in
//! `templates/inference/<language>/<name>/<template>.jinja`; a new
//! OpenAI-compatible client needs only the two chat templates
//! (`conversational`, `conversationalStream`). The API schema's client enum
//! (`site-src/schema/api-model.schema.json`) is checked against this table
//! by a test.
//!
//! Selection is pure: [`RouteOffer`] says what one provider's route offers
//! for one request (it is made by `route()` from the record, the settings
//! and the options), and [`clients_for`] returns the rows that serve it, in
//! table order (the order pages show them).

use crate::body::BodyFormat;
use crate::language::Language;
use crate::inference::providers::{provider_key_variable, FAL_AI};

/// How a client takes the model, the URL and the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientKind {
    /// A Hugging Face SDK: the plain id and the provider's name; the SDK
    /// knows each provider's URL and model id itself. Serves chat, and a task
    /// when the SDK has a method for it.
    Sdk,
    /// A raw HTTP request to the route's URL, with the route's model field.
    Raw,
    /// An OpenAI-compatible client: chat completions at the route's base URL.
    OpenAi,
    /// fal's own queue client: fal-ai only, always fal's own API and key.
    Fal,
}

/// One client, as the examples and the API name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    pub language: Language,
    /// The client's key: the folder of its templates and the API's `client`.
    pub name: &'static str,
    pub kind: ClientKind,
    /// The form its templates write request bodies in (`format_body`;
    /// Python clients may also pass keyword arguments, `python_kwargs`).
    pub body: BodyFormat,
    /// The templates it has (`conversational`, `textToImage`...): `None`
    /// for every template of the requests its kind serves.
    pub templates: Option<&'static [&'static str]>,
}

/// The chat templates: all an OpenAI-compatible client needs.
pub const CHAT_TEMPLATES: &[&str] = &["conversational", "conversationalStream"];

/// Every client, in the order pages show them.
pub const CLIENTS: &[Client] = &[
    client(Language::Python, "huggingface_hub", ClientKind::Sdk, BodyFormat::Python, None),
    client(Language::Python, "requests", ClientKind::Raw, BodyFormat::Python, None),
    client(Language::Python, "openai", ClientKind::OpenAi, BodyFormat::Python, Some(CHAT_TEMPLATES)),
    client(Language::Python, "fal_client", ClientKind::Fal, BodyFormat::Python, Some(&["textToImage", "imageToImage", "imageToVideo"])),
    client(Language::Js, "huggingface.js", ClientKind::Sdk, BodyFormat::JsObject, None),
    client(Language::Js, "fetch", ClientKind::Raw, BodyFormat::JsObject, None),
    client(Language::Js, "openai", ClientKind::OpenAi, BodyFormat::JsObject, Some(CHAT_TEMPLATES)),
    client(Language::Sh, "curl", ClientKind::Raw, BodyFormat::CurlData, None),
];

/// One row of a client table.
pub const fn client(
    language: Language,
    name: &'static str,
    kind: ClientKind,
    body: BodyFormat,
    templates: Option<&'static [&'static str]>,
) -> Client {
    Client { language, name, kind, body, templates }
}

/// What one provider's route offers one request; made by `route()`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RouteOffer {
    /// A chat request (chat completions), not a task.
    pub chat: bool,
    /// The route has a URL raw requests can call (and, for chat, an
    /// OpenAI-compatible base URL).
    pub raw_url: bool,
    /// The SDKs can make this call: chat, or a task whose SDK method exists
    /// (`python_sdk`, `js_sdk`) and, on a custom endpoint, one that
    /// hf-inference serves.
    pub python_sdk: bool,
    pub js_sdk: bool,
    /// fal-ai's queue.
    pub fal_queue: bool,
}

impl Client {
    /// Whether this client can make the request `offer` describes, whose
    /// template is `template`.
    pub fn serves(&self, offer: &RouteOffer, template: &str) -> bool {
        let can_call = match self.kind {
            ClientKind::Sdk => match self.language {
                Language::Python => offer.python_sdk,
                Language::Js => offer.js_sdk,
                Language::Sh => false,
            },
            ClientKind::Raw => offer.raw_url,
            ClientKind::OpenAi => offer.chat && offer.raw_url,
            ClientKind::Fal => offer.fal_queue,
        };
        can_call && self.templates.is_none_or(|names| names.contains(&template))
    }

    /// The environment variable this client's example reads its key from,
    /// when it is always the same: fal's own client always talks to fal,
    /// with fal's own key, not the route's.
    pub fn own_token_env(&self) -> Option<String> {
        (self.kind == ClientKind::Fal).then(|| provider_key_variable(FAL_AI))
    }

    /// The auth scheme and bill-to of fal's own client, which never goes
    /// through the router: fal's `Key`, and no organisation billed.
    pub fn talks_to_fal_itself(&self) -> bool {
        self.kind == ClientKind::Fal
    }

    /// Whether the client's `model` is the plain id (the SDKs map it to the
    /// provider's own id themselves) rather than the route's model field.
    pub fn takes_plain_id(&self) -> bool {
        self.kind == ClientKind::Sdk
    }
}

/// The clients of `table` that serve `offer` with `template`, in table order.
pub fn clients_for<'a>(table: &'a [Client], offer: &RouteOffer, template: &'a str) -> impl Iterator<Item = &'a Client> + 'a {
    let offer = *offer;
    table.iter().filter(move |client| client.serves(&offer, template))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_per_language() {
        let mut seen = std::collections::HashSet::new();
        for client in CLIENTS {
            assert!(seen.insert((client.language, client.name)), "{} twice", client.name);
        }
    }

    #[test]
    fn the_schema_lists_exactly_the_table_s_clients() {
        let schema: serde_json::Value =
            serde_json::from_str(include_str!("../../../../site-src/schema/api-model.schema.json")).unwrap();
        let listed = schema
            .pointer("/$defs/inferenceExample/properties/client/enum")
            .expect("the schema has an enum of inference clients");
        let listed: Vec<&str> = listed.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect();
        let mut names: Vec<&str> = Vec::new();
        for client in CLIENTS {
            if !names.contains(&client.name) {
                names.push(client.name);
            }
        }
        assert_eq!(listed, names);
    }

    #[test]
    fn each_kind_serves_what_it_can_call() {
        let names = |offer: &RouteOffer, template| clients_for(CLIENTS, offer, template).map(|c| c.name).collect::<Vec<_>>();
        let chat_router = RouteOffer { chat: true, raw_url: true, python_sdk: true, js_sdk: true, fal_queue: false };
        let all_but_fal = ["huggingface_hub", "requests", "openai", "huggingface.js", "fetch", "openai", "curl"];
        assert_eq!(names(&chat_router, "conversational"), all_but_fal);
        let sdk_only = RouteOffer { chat: true, python_sdk: true, js_sdk: true, ..RouteOffer::default() };
        assert_eq!(names(&sdk_only, "conversational"), ["huggingface_hub", "huggingface.js"]);
        let fal = RouteOffer { raw_url: true, fal_queue: true, ..RouteOffer::default() };
        assert_eq!(names(&fal, "textToImage"), ["requests", "fal_client", "fetch", "curl"]);
        assert_eq!(names(&fal, "textToVideo"), ["requests", "fetch", "curl"], "fal_client has no video template");
        let fal_client = CLIENTS.iter().find(|c| c.kind == ClientKind::Fal).unwrap();
        assert_eq!(fal_client.own_token_env().as_deref(), Some("FAL_AI_API_KEY"));
        assert!(CLIENTS.iter().filter(|c| c.kind != ClientKind::Fal).all(|c| c.own_token_env().is_none()));
    }

    #[test]
    fn templates_exist_and_write_bodies_in_the_client_s_form() {
        let engine = crate::SnippetEngine::new();
        for client in CLIENTS {
            let folder = format!("inference/{}/{}/", client.language.as_str(), client.name);
            let names = engine.template_names_under(&folder);
            assert!(!names.is_empty(), "{folder} has templates");
            if let Some(listed) = client.templates {
                for template in listed {
                    assert!(names.iter().any(|n| n == &format!("{folder}{template}.jinja")), "{folder}{template}.jinja");
                }
            }
            let allowed: &[&str] = match client.body {
                BodyFormat::Python => &["python", "python_kwargs"],
                other => &[other.name()],
            };
            for name in names {
                let source = engine.template_source(&name).unwrap();
                for used in source.split("format_body(\"").skip(1) {
                    let form = used.split('"').next().unwrap();
                    assert!(allowed.contains(&form), "{name} writes a {form} body; {} writes {allowed:?}", client.name);
                }
            }
        }
    }
}
