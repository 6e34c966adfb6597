//! Three chat template shapes written for these tests (the tagged ChatML
//! shape, a header-token shape with tools, and one that refuses a system
//! message), rendered on the sample conversations and compared with the
//! prompt written out by hand; then where templates are found, and what a
//! page is told when one cannot be rendered.

use std::collections::HashMap;

use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::{parse_header, GgufFiles, GgufHeader, Limits, TensorType};
use modelpages_record::ModelRecord;
use serde_json::json;

use super::*;

/// ChatML-like: each message between `<|im_start|>` and `<|im_end|>`, a
/// system message of its own when the conversation has none.
const CHATML: &str = "{%- if messages[0]['role'] != 'system' %}
{{- '<|im_start|>system\\nYou are a careful assistant.<|im_end|>\\n' }}
{%- endif %}
{%- for message in messages %}
{{- '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>\\n' }}
{%- endfor %}
{%- if add_generation_prompt %}
{{- '<|im_start|>assistant\\n' }}
{%- endif %}";

/// Header tokens around each role, the tools as indented JSON in the system
/// turn, a call as one JSON object, the tool's result as `ipython`.
const HEADERS_WITH_TOOLS: &str = "{{- bos_token }}
{%- if messages[0].role == 'system' %}
    {%- set system = messages[0].content %}
    {%- set rest = messages[1:] %}
{%- else %}
    {%- set system = '' %}
    {%- set rest = messages %}
{%- endif %}
{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' }}
{%- if tools %}
    {{- 'Call a function by answering with JSON: {\"name\": ..., \"parameters\": {...}}.\\n\\n' }}
    {%- for tool in tools %}
        {{- tool.function | tojson(indent=2) }}
        {{- '\\n\\n' }}
    {%- endfor %}
{%- endif %}
{{- system | trim }}
{{- '<|eot_id|>' }}
{%- for message in rest %}
    {%- if message.tool_calls is defined %}
        {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
        {%- for call in message.tool_calls %}
            {{- {'name': call.function.name, 'parameters': call.function.arguments} | tojson }}
        {%- endfor %}
        {{- '<|eot_id|>' }}
    {%- elif message.role == 'tool' %}
        {{- '<|start_header_id|>ipython<|end_header_id|>\\n\\n' + message.content + '<|eot_id|>' }}
    {%- else %}
        {{- '<|start_header_id|>' + message.role + '<|end_header_id|>\\n\\n' + message.content | trim + '<|eot_id|>' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
{%- endif %}";

/// `[INST]` turns that must alternate from the user, and no system role.
const NO_SYSTEM: &str = "{{ bos_token }}{% for message in messages %}
{% if message['role'] == 'system' %}{{ raise_exception('System messages are not supported.') }}{% endif %}
{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Roles must alternate user/assistant.') }}{% endif %}
{% if message['role'] == 'user' %}{{ '[INST] ' + message['content'].strip() + ' [/INST]' }}{% else %}{{ ' ' + message['content'].strip() + eos_token }}{% endif %}
{% endfor %}";

fn with_tokenizer(template: serde_json::Value) -> ModelRecord {
    serde_json::from_value(json!({"id": "a/chat", "config": {"tokenizer_config": {
        "bos_token": "<s>", "eos_token": {"content": "</s>", "lstrip": false}, "chat_template": template}}}))
    .unwrap()
}

fn rendered(record: &ModelRecord, gguf: &GgufFiles) -> RenderedPrompt {
    let prompt = chat_prompt(record, gguf).expect("a template is found");
    prompt.outcome.unwrap_or_else(|why| panic!("not rendered: {why}"))
}

#[test]
fn chatml_shape() {
    let prompt = rendered(&with_tokenizer(json!(CHATML)), &GgufFiles::default());
    assert_eq!(prompt.conversation, Conversation::Plain, "the template reads no tools");
    assert_eq!(
        prompt.text,
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n\
         <|im_start|>user\nWhat is the tallest mountain in the Alps?<|im_end|>\n\
         <|im_start|>assistant\nMont Blanc, at 4,806 metres.<|im_end|>\n\
         <|im_start|>user\nHow long does it take to climb it?<|im_end|>\n\
         <|im_start|>assistant\n"
    );
    assert!(prompt.fallbacks.is_empty() && prompt.unknown_tokens.is_empty());
}

#[test]
fn header_tokens_with_tools_shape() {
    // A named list of templates: `default` is taken.
    let record = with_tokenizer(json!([{"name": "rag", "template": "RAG"}, {"name": "default", "template": HEADERS_WITH_TOOLS}]));
    let prompt = rendered(&record, &GgufFiles::default());
    assert_eq!(prompt.conversation, Conversation::WithToolCall);
    let tool = "{\n  \"name\": \"get_current_weather\",\n  \"description\": \"Get the current weather in a city.\",\n  \"parameters\": {\n    \
                \"type\": \"object\",\n    \"properties\": {\n      \"city\": {\n        \"type\": \"string\",\n        \
                \"description\": \"The name of the city.\"\n      }\n    },\n    \"required\": [\n      \"city\"\n    ]\n  }\n}";
    let expected = format!(
        "<s><|start_header_id|>system<|end_header_id|>\n\n\
         Call a function by answering with JSON: {{\"name\": ..., \"parameters\": {{...}}}}.\n\n{tool}\n\n\
         You are a helpful assistant.<|eot_id|>\
         <|start_header_id|>user<|end_header_id|>\n\nWhat is the weather like in Paris right now?<|eot_id|>\
         <|start_header_id|>assistant<|end_header_id|>\n\n{{\"name\": \"get_current_weather\", \"parameters\": {{\"city\": \"Paris\"}}}}<|eot_id|>\
         <|start_header_id|>ipython<|end_header_id|>\n\n{{\"temperature_c\": 18, \"sky\": \"sunny\"}}<|eot_id|>\
         <|start_header_id|>assistant<|end_header_id|>\n\nIt is 18 °C and sunny in Paris.<|eot_id|>\
         <|start_header_id|>user<|end_header_id|>\n\nAnd in Lyon?<|eot_id|>\
         <|start_header_id|>assistant<|end_header_id|>\n\n"
    );
    assert_eq!(prompt.text, expected);
}

#[test]
fn a_template_refusing_the_system_message_gets_the_conversation_without() {
    let prompt = rendered(&with_tokenizer(json!(NO_SYSTEM)), &GgufFiles::default());
    assert_eq!(prompt.conversation, Conversation::WithoutSystem);
    assert_eq!(
        prompt.text,
        "<s>[INST] What is the tallest mountain in the Alps? [/INST] Mont Blanc, at 4,806 metres.</s>[INST] How long does it take to climb it? [/INST]"
    );
    assert_eq!(
        prompt.fallbacks,
        ["a conversation with a system message: the template refused it: “System messages are not supported.”"]
    );
}

fn header_with_template(template: &str) -> GgufHeader {
    let bytes = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("tokenizer.chat_template", MetaValue::Str(template.into()))
        .tensor("w", &[32], TensorType(0))
        .to_bytes();
    parse_header(&bytes[..], std::path::Path::new("m.gguf"), None, &Limits::default()).unwrap()
}

#[test]
fn templates_are_found_in_the_tokenizer_config_the_gguf_header_or_the_records_gguf() {
    let headers: HashMap<String, GgufHeader> = [("m-Q4_K_M.gguf".to_owned(), header_with_template(NO_SYSTEM))].into();
    let gguf = GgufFiles::new([("m-Q4_K_M.gguf", Some(1))], &headers);
    // The header's template, with the tokens the record's `gguf` names.
    let record: ModelRecord = serde_json::from_value(json!({"id": "a/m-GGUF",
        "gguf": {"chat_template": CHATML, "bos_token": "<s>", "eos_token": "</s>"}})).unwrap();
    let prompt = chat_prompt(&record, &gguf).unwrap();
    assert_eq!(prompt.source, TemplateSource::GgufHeader);
    assert!(prompt.outcome.unwrap().text.starts_with("<s>[INST] What is"));
    // Without a header read, the record's `gguf`.
    let prompt = chat_prompt(&record, &GgufFiles::default()).unwrap();
    assert_eq!(prompt.source, TemplateSource::RecordGguf);
    // The tokenizer config first; a token the data do not give is said.
    let bare: ModelRecord = serde_json::from_value(json!({"id": "a/m", "config": {"tokenizer_config": {"chat_template": NO_SYSTEM}}})).unwrap();
    let prompt = chat_prompt(&bare, &gguf).unwrap();
    assert_eq!(prompt.source, TemplateSource::TokenizerConfig);
    assert_eq!(prompt.outcome.unwrap().unknown_tokens, ["bos_token", "eos_token"]);
    // No template anywhere, or one of another type: nothing to show.
    let none: ModelRecord = serde_json::from_value(json!({"id": "a/m", "config": {"tokenizer_config": {"chat_template": 5}}})).unwrap();
    assert_eq!(chat_prompt(&none, &GgufFiles::default()), None);
}

#[test]
fn templates_that_cannot_be_rendered_say_why() {
    let reason = |template: serde_json::Value| chat_prompt(&with_tokenizer(template), &GgufFiles::default()).unwrap().outcome.unwrap_err();
    assert!(reason(json!("{% for m in messages %}{{ m.content | frobnicate }}{% endfor %}")).contains("cannot render"), "an unknown filter");
    assert!(reason(json!("{% generation %}x{% endgeneration %}")).contains("cannot render"));
    assert!(reason(json!("{{ raise_exception('never') }}")).starts_with("the template refused every sample conversation"));
    let costly = reason(json!("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"));
    assert!(costly.contains("more than the 200000 steps"), "{costly}");
    let long = "x".repeat(MAX_TEMPLATE_BYTES + 1);
    assert!(reason(json!(long)).contains("longer than the 128 KiB"));
    // A header's template too long to read is said likewise.
    let limits = Limits { max_chat_template: 4, ..Limits::default() };
    let bytes = GgufWriter::new().meta("tokenizer.chat_template", MetaValue::Str(CHATML.into())).tensor("w", &[32], TensorType(0)).to_bytes();
    let header = parse_header(&bytes[..], std::path::Path::new("m.gguf"), None, &limits).unwrap();
    let gguf = GgufFiles::new([("m.gguf", Some(1))], &[("m.gguf".to_owned(), header)].into());
    let record: ModelRecord = serde_json::from_value(json!({"id": "a/m"})).unwrap();
    let why = chat_prompt(&record, &gguf).unwrap().outcome.unwrap_err();
    assert!(why.starts_with("the template is 0 KiB, longer than"), "{why}");
}
