//! The sample conversations chat templates are rendered on: the site's own
//! fixed text, in the message shapes transformers documents (`role` and
//! `content`; an assistant's `tool_calls` of `{type, id, function: {name,
//! arguments}}` with the arguments as a mapping; a `tool` message with the
//! call's `tool_call_id` and `name`; `tools` as JSON-Schema functions).

use chat_jinja::Value;
use indexmap::IndexMap;

const SYSTEM: &str = "You are a helpful assistant.";
const QUESTION: &str = "What is the tallest mountain in the Alps?";
const ANSWER: &str = "Mont Blanc, at 4,806 metres.";
const FOLLOW_UP: &str = "How long does it take to climb it?";

const WEATHER_QUESTION: &str = "What is the weather like in Paris right now?";
const TOOL_NAME: &str = "get_current_weather";
/// Nine characters: some templates insist on ids of that length.
const CALL_ID: &str = "call00001";
const TOOL_RESULT: &str = r#"{"temperature_c": 18, "sky": "sunny"}"#;
const WEATHER_ANSWER: &str = "It is 18 °C and sunny in Paris.";
const WEATHER_FOLLOW_UP: &str = "And in Lyon?";

/// Which sample conversation a prompt shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conversation {
    /// System, user, an assistant's tool call, the tool's result, the
    /// assistant's answer, user; with one tool.
    WithToolCall,
    /// System, user, assistant, user.
    Plain,
    /// User, assistant, user.
    WithoutSystem,
}

fn map<const N: usize>(entries: [(&str, Value); N]) -> Value {
    // Keys keep their order, as Python's dicts do (templates loop over them).
    Value::from_object(entries.into_iter().map(|(k, v)| (Value::from(k), v)).collect::<IndexMap<Value, Value>>())
}

fn message(role: &str, content: &str) -> Value {
    map([("role", Value::from(role)), ("content", Value::from(content))])
}

impl Conversation {
    /// The conversation as the page describes it.
    pub fn words(self) -> &'static str {
        match self {
            Conversation::WithToolCall => "a conversation with a tool call",
            Conversation::Plain => "a conversation with a system message",
            Conversation::WithoutSystem => "a conversation without a system message",
        }
    }

    /// The conversation's messages as `(role, text)`, for the page; a tool
    /// call is shown as the call it is.
    pub fn shown(self) -> Vec<(&'static str, String)> {
        match self {
            Conversation::WithToolCall => vec![
                ("system", SYSTEM.into()),
                ("user", WEATHER_QUESTION.into()),
                ("assistant", format!("calls {TOOL_NAME}(city=\"Paris\")")),
                ("tool", TOOL_RESULT.into()),
                ("assistant", WEATHER_ANSWER.into()),
                ("user", WEATHER_FOLLOW_UP.into()),
            ],
            Conversation::Plain => vec![("system", SYSTEM.into()), ("user", QUESTION.into()), ("assistant", ANSWER.into()), ("user", FOLLOW_UP.into())],
            Conversation::WithoutSystem => vec![("user", QUESTION.into()), ("assistant", ANSWER.into()), ("user", FOLLOW_UP.into())],
        }
    }

    pub(crate) fn messages(self) -> Value {
        match self {
            Conversation::WithToolCall => {
                let call = map([
                    ("type", Value::from("function")),
                    ("id", Value::from(CALL_ID)),
                    ("function", map([("name", Value::from(TOOL_NAME)), ("arguments", map([("city", Value::from("Paris"))]))])),
                ]);
                let calling = map([("role", Value::from("assistant")), ("tool_calls", Value::from(vec![call]))]);
                let result = map([
                    ("role", Value::from("tool")),
                    ("tool_call_id", Value::from(CALL_ID)),
                    ("name", Value::from(TOOL_NAME)),
                    ("content", Value::from(TOOL_RESULT)),
                ]);
                Value::from(vec![
                    message("system", SYSTEM),
                    message("user", WEATHER_QUESTION),
                    calling,
                    result,
                    message("assistant", WEATHER_ANSWER),
                    message("user", WEATHER_FOLLOW_UP),
                ])
            }
            Conversation::Plain => {
                Value::from(vec![message("system", SYSTEM), message("user", QUESTION), message("assistant", ANSWER), message("user", FOLLOW_UP)])
            }
            Conversation::WithoutSystem => Value::from(vec![message("user", QUESTION), message("assistant", ANSWER), message("user", FOLLOW_UP)]),
        }
    }

    /// `tools`: the one tool for the conversation that calls it, else none.
    pub(crate) fn tools(self) -> Value {
        if self != Conversation::WithToolCall {
            return Value::from(());
        }
        let city = map([("type", Value::from("string")), ("description", Value::from("The name of the city."))]);
        let parameters = map([
            ("type", Value::from("object")),
            ("properties", map([("city", city)])),
            ("required", Value::from(vec![Value::from("city")])),
        ]);
        let function = map([
            ("name", Value::from(TOOL_NAME)),
            ("description", Value::from("Get the current weather in a city.")),
            ("parameters", parameters),
        ]);
        Value::from(vec![map([("type", Value::from("function")), ("function", function)])])
    }
}
