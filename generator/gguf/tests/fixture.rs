//! The tiny GGUF files of the corpus fixture `models/modelpages-fixtures/tiny-llama-GGUF`
//! are written by this test's writer, so they can be made again and cannot
//! drift: the test fails when the committed bytes differ from what it writes.
//! Run it with `MODELPAGES_WRITE_FIXTURES=1` to write them.

use std::path::PathBuf;

use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::{read_header, HeadCount, HeaderText, TensorType};

const F32: TensorType = TensorType(0);
const Q8_0: TensorType = TensorType(8);
const Q4_K: TensorType = TensorType(12);
const Q6_K: TensorType = TensorType(14);

/// A chat template of the tagged shape (`<|user|>` ... `</s>`), written
/// for this fixture: the page shows the prompt it makes.
const CHAT_TEMPLATE: &str = "{% for message in messages %}\n\
{% if message['role'] == 'system' %}{{ '<|system|>\\n' + message['content'] + eos_token + '\\n' }}\n\
{% elif message['role'] == 'user' %}{{ '<|user|>\\n' + message['content'] + eos_token + '\\n' }}\n\
{% elif message['role'] == 'assistant' %}{{ '<|assistant|>\\n' + message['content'] + eos_token + '\\n' }}\n\
{% endif %}\n\
{% endfor %}\n\
{% if add_generation_prompt %}{{ '<|assistant|>\\n' }}{% endif %}";

/// A one-block llama with an embedding size of 256 (the K-quant block), a
/// 16-token vocabulary and the metadata real conversions carry.
fn tiny_llama(file_type: u32, embedding: TensorType, attention: TensorType, ffn: TensorType) -> GgufWriter {
    let tokens: Vec<MetaValue> =
        ["<unk>", "<s>", "</s>", "▁the", "▁a", "▁model", "▁runs", "▁locally", "▁on", "▁your", "▁own", "▁machine", ".", ",", "!", "?"]
            .iter()
            .map(|t| MetaValue::Str((*t).into()))
            .collect();
    GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("general.name", MetaValue::Str("Tiny Llama".into()))
        .meta("general.file_type", MetaValue::U32(file_type))
        .meta("general.quantization_version", MetaValue::U32(2))
        .meta("llama.context_length", MetaValue::U32(2048))
        .meta("llama.embedding_length", MetaValue::U32(256))
        .meta("llama.block_count", MetaValue::U32(1))
        .meta("llama.attention.head_count", MetaValue::U32(4))
        .meta("llama.attention.head_count_kv", MetaValue::U32(2))
        .meta("llama.rope.freq_base", MetaValue::F32(10000.0))
        .meta("tokenizer.ggml.model", MetaValue::Str("llama".into()))
        .meta("tokenizer.ggml.scores", MetaValue::Array((0..16).map(|i| MetaValue::F32(-(i as f32))).collect()))
        .meta("tokenizer.ggml.token_type", MetaValue::Array((0..16).map(|i| MetaValue::I32(if i < 3 { 3 } else { 1 })).collect()))
        .meta("tokenizer.ggml.tokens", MetaValue::Array(tokens))
        .meta("tokenizer.ggml.bos_token_id", MetaValue::U32(1))
        .meta("tokenizer.ggml.eos_token_id", MetaValue::U32(2))
        .meta("tokenizer.chat_template", MetaValue::Str(CHAT_TEMPLATE.into()))
        .tensor("token_embd.weight", &[256, 4], embedding)
        .tensor("blk.0.attn_norm.weight", &[256], F32)
        .tensor("blk.0.attn_q.weight", &[256, 2], attention)
        .tensor("blk.0.ffn_down.weight", &[256, 2], ffn)
        .tensor("output_norm.weight", &[256], F32)
        .tensor("output.weight", &[256, 4], ffn)
}

fn fixtures() -> Vec<(&'static str, GgufWriter)> {
    vec![
        ("tiny-llama-Q8_0.gguf", tiny_llama(7, Q8_0, Q8_0, Q8_0)),
        ("tiny-llama-Q4_K_M.gguf", tiny_llama(15, Q4_K, Q4_K, Q6_K)),
    ]
}

fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../models/modelpages-fixtures/tiny-llama-GGUF")
}

#[test]
fn corpus_fixture_files_are_what_the_writer_writes() {
    let write = std::env::var_os("MODELPAGES_WRITE_FIXTURES").is_some();
    for (name, writer) in fixtures() {
        let path = fixture_dir().join(name);
        let bytes = writer.to_bytes();
        if write {
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e} (write it with MODELPAGES_WRITE_FIXTURES=1)", path.display()));
        assert!(committed == bytes, "{} differs from the writer's output; rewrite it with MODELPAGES_WRITE_FIXTURES=1", path.display());
        assert!(bytes.len() < 16 << 10, "{name} stays a few KB ({} bytes)", bytes.len());
        let header = read_header(std::fs::File::open(&path).unwrap(), &path).unwrap();
        assert_eq!((header.architecture.as_deref(), header.context_length, header.parameter_count), (Some("llama"), Some(2048), 3584));
        let shape = &header.attention;
        assert_eq!((shape.block_count, shape.head_count, shape.embedding_length), (Some(1), Some(4), Some(256)));
        assert_eq!(shape.head_count_kv, Some(HeadCount::Same(2)));
        assert_eq!(header.chat_template, Some(HeaderText::Kept(CHAT_TEMPLATE.into())));
    }
}
