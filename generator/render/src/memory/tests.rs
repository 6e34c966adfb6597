//! The estimate against hand computations for three architectures (grouped
//! KV heads, one KV head per attention head, and a GGUF header's), and
//! what it says when the data lack something.

use std::collections::HashMap;

use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::{parse_header, GgufFiles, GgufHeader, Limits, TensorType};
use modelpages_record::ModelRecord;
use serde_json::json;

use super::*;

fn record(json: serde_json::Value) -> ModelRecord {
    serde_json::from_value(json).unwrap()
}

fn needs(row: &WeightsRow) -> Vec<(u64, Option<u32>)> {
    row.needs.iter().map(|n| (n.bytes, n.fits_gb)).collect()
}

/// Llama-3-8B: 32 layers, 32 attention heads over a hidden size of 4096
/// (head size 128), 8 KV heads (grouped-query attention), 8,192 tokens at
/// most, 8,030,261,248 parameters.
#[test]
fn grouped_query_attention_by_hand_llama_3_8b() {
    let r = record(json!({"id": "meta-llama/Meta-Llama-3-8B-Instruct", "pipeline_tag": "text-generation",
        "safetensors": {"parameters": {"BF16": 8030261248u64}, "total": 8030261248u64},
        "config": {"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
                   "hidden_size": 4096, "max_position_embeddings": 8192}}));
    let e = estimate(&r, &GgufFiles::default()).unwrap();
    // Per token: 2 (K and V) × 32 layers × 8 KV heads × 128 × 2 bytes = 131,072 bytes.
    let KvCache::Known { bytes_per_token, contexts, .. } = &e.kv else { panic!("{:?}", e.kv) };
    assert_eq!(*bytes_per_token, 2 * 32 * 8 * 128 * 2);
    assert_eq!(*bytes_per_token, 131_072);
    // 4K: 131,072 × 4,096 = 536,870,912 (0.5 GiB); the maximum, 8K: 1 GiB.
    assert_eq!(*contexts, [(4096, 536_870_912), (8192, 1_073_741_824)]);
    let bf16 = &e.rows[0];
    assert_eq!((bf16.label.as_str(), bf16.is_default, bf16.bytes), ("BF16 / FP16", true, Some(16_060_522_496)));
    // 16,060,522,496 + 536,870,912 = 16,597,393,408 bytes = 15.46 GiB: 16 GB.
    // 16,060,522,496 + 1,073,741,824 = 17,134,264,320 bytes = 15.96 GiB: 16 GB.
    assert_eq!(needs(bf16), [(16_597_393_408, Some(16)), (17_134_264_320, Some(16))]);
    // 8-bit: 8,030,261,248 + 536,870,912 = 8,567,132,160 bytes = 7.98 GiB: just 8 GB.
    assert_eq!(needs(&e.rows[1])[0], (8_567_132_160, Some(8)));
    // 4-bit: 4,015,130,624 + 536,870,912 = 4,552,001,536.
    assert_eq!(needs(&e.rows[2])[0], (4_552_001_536, Some(8)));
    assert_eq!(e.fits_in_gb(), Some(16));
    // The 4-bit row is the smallest that runs: 8 GB.
    assert_eq!(e.smallest_fit_gb(), Some(8));
}

/// Llama-2-7B: multi-head attention, one KV head per attention head (32
/// layers, 32 heads of 128), 4,096 tokens at most, 6,738,415,616
/// parameters. The config names no KV head count, as GPT-style configs
/// do: one per attention head.
#[test]
fn multi_head_attention_by_hand_llama_2_7b() {
    let r = record(json!({"id": "meta-llama/Llama-2-7b-hf", "pipeline_tag": "text-generation",
        "safetensors": {"parameters": {"F16": 6738415616u64}, "total": 6738415616u64},
        "config": {"num_hidden_layers": 32, "num_attention_heads": 32, "hidden_size": 4096, "max_position_embeddings": 4096}}));
    let e = estimate(&r, &GgufFiles::default()).unwrap();
    // Per token: 2 × 32 × 32 × 128 × 2 = 524,288 bytes; 4K (the maximum) = 2 GiB.
    let KvCache::Known { bytes_per_token, contexts, shape } = &e.kv else { panic!("{:?}", e.kv) };
    assert_eq!((*bytes_per_token, shape.kv_heads), (524_288, Some(32)));
    assert_eq!(*contexts, [(4096, 2_147_483_648)]);
    // FP16: 13,476,831,232 + 2,147,483,648 = 15,624,314,880 bytes = 14.55 GiB: 16 GB.
    assert_eq!(needs(&e.rows[0]), [(15_624_314_880, Some(16))]);
    // 4-bit: 3,369,207,808 + 2,147,483,648 = 5,516,691,456: 8 GB.
    assert_eq!(needs(&e.rows[2]), [(5_516_691_456, Some(8))]);
}

/// A header as a GGUF conversion of Qwen2.5-7B-Instruct writes it: 28
/// layers, 28 heads over an embedding of 3,584 (head size 128), 4 KV
/// heads, 32,768 tokens at most.
fn qwen_header() -> GgufHeader {
    let bytes = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("qwen2".into()))
        .meta("qwen2.block_count", MetaValue::U32(28))
        .meta("qwen2.context_length", MetaValue::U32(32768))
        .meta("qwen2.embedding_length", MetaValue::U32(3584))
        .meta("qwen2.attention.head_count", MetaValue::U32(28))
        .meta("qwen2.attention.head_count_kv", MetaValue::U32(4))
        .tensor("w", &[32], TensorType(0))
        .to_bytes();
    parse_header(&bytes[..], std::path::Path::new("q.gguf"), None, &Limits::default()).unwrap()
}

#[test]
fn a_gguf_header_by_hand_qwen_2_5_7b() {
    let files = [("qwen2.5-7b-instruct-q4_k_m.gguf", Some(4_683_073_952)), ("qwen2.5-7b-instruct-q8_0.gguf", Some(8_098_525_888))];
    let headers: HashMap<String, GgufHeader> = [(files[0].0.to_owned(), qwen_header())].into();
    let gguf = GgufFiles::new(files, &headers);
    // A record with no config at all: the header is enough.
    let r = record(json!({"id": "Qwen/Qwen2.5-7B-Instruct-GGUF", "pipeline_tag": "text-generation"}));
    let e = estimate(&r, &gguf).unwrap();
    // Per token: 2 × 28 × 4 × 128 × 2 = 57,344 bytes; 4K: 234,881,024; 32K (the maximum): 1,879,048,192.
    let KvCache::Known { bytes_per_token, contexts, shape } = &e.kv else { panic!("{:?}", e.kv) };
    assert_eq!((*bytes_per_token, shape.source), (57_344, ShapeSource::GgufHeader));
    assert_eq!(*contexts, [(4096, 234_881_024), (32768, 1_879_048_192)]);
    let labels: Vec<(&str, bool)> = e.rows.iter().map(|r| (r.label.as_str(), r.is_default)).collect();
    assert_eq!(labels, [("Q8_0", false), ("Q4_K_M", true)]);
    // Q8_0: 8,098,525,888 + 1,879,048,192 = 9,977,574,080 = 9.29 GiB at 32K: 12 GB.
    assert_eq!(needs(&e.rows[0]), [(8_333_406_912, Some(8)), (9_977_574_080, Some(12))]);
    // Q4_K_M: 4,683,073,952 + 234,881,024 = 4,917,954,976 = 4.58 GiB: 8 GB.
    assert_eq!(needs(&e.rows[1]), [(4_917_954_976, Some(8)), (6_562_122_144, Some(8))]);
    assert_eq!(e.fits_in_gb(), Some(8));
}

#[test]
fn per_layer_heads_and_apart_key_and_value_sizes() {
    // Four layers, two with 8 KV heads and two without attention; keys of
    // 192 and values of 128 elements: 16 × (192 + 128) × 2 = 10,240 bytes a token.
    let bytes = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("hybrid".into()))
        .meta("hybrid.block_count", MetaValue::U32(4))
        .meta("hybrid.attention.head_count_kv", MetaValue::Array([0, 8, 0, 8].map(MetaValue::I32).to_vec()))
        .meta("hybrid.attention.key_length", MetaValue::U32(192))
        .meta("hybrid.attention.value_length", MetaValue::U32(128))
        .tensor("w", &[32], TensorType(0))
        .to_bytes();
    let header = parse_header(&bytes[..], std::path::Path::new("h.gguf"), None, &Limits::default()).unwrap();
    let headers: HashMap<String, GgufHeader> = [("h-Q4_K_M.gguf".to_owned(), header)].into();
    let gguf = GgufFiles::new([("h-Q4_K_M.gguf", Some(1 << 30))], &headers);
    let e = estimate(&record(json!({"id": "a/h", "pipeline_tag": "text-generation"})), &gguf).unwrap();
    let KvCache::Known { bytes_per_token, contexts, shape } = &e.kv else { panic!("{:?}", e.kv) };
    assert_eq!((*bytes_per_token, shape.kv_heads, shape.kv_heads_total), (10_240, None, 16));
    assert_eq!(contexts.len(), 2, "no maximum known: 4K and 32K");
    assert_eq!(e.max_context, None);
}

#[test]
fn what_is_missing_is_said_not_guessed() {
    // A chat model whose record (as the Hub API gives it) has no layer counts.
    let r = record(json!({"id": "a/chat", "pipeline_tag": "text-generation",
        "safetensors": {"parameters": {"BF16": 1000000000u64}, "total": 1000000000u64},
        "config": {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_attention_heads": 16}}));
    let e = estimate(&r, &GgufFiles::default()).unwrap();
    assert_eq!(e.kv, KvCache::Unknown(vec![ShapePart::Layers, ShapePart::HeadSize]));
    assert_eq!(needs(&e.rows[0]), [(2_000_000_000, Some(8))], "the weights alone");
    assert_eq!(e.fits_in_gb(), None, "no size is claimed without the KV cache");
    assert_eq!(e.smallest_fit_gb(), None);
    let view = memory_view(&e);
    assert_eq!(view.missing.as_deref(), Some("the number of layers and the head size"));
    assert_eq!(view.columns, ["Weights alone"]);
    // A classifier keeps no KV cache: its weights are its figure.
    let classifier = record(json!({"id": "a/cls", "pipeline_tag": "text-classification",
        "safetensors": {"parameters": {"F32": 66955010u64}, "total": 66955010u64}}));
    let e = estimate(&classifier, &GgufFiles::default()).unwrap();
    assert_eq!((&e.kv, e.fits_in_gb()), (&KvCache::NotApplicable, Some(8)));
    // Packed 4-bit tensors count integers, not parameters: no estimate.
    let packed = record(json!({"id": "a/gptq", "safetensors": {"parameters": {"I32": 900000000u64, "F16": 300000000u64}, "total": 1200000000u64}}));
    assert_eq!(estimate(&packed, &GgufFiles::default()), None);
    // Nothing to say what the weights take.
    assert_eq!(estimate(&record(json!({"id": "a/none"})), &GgufFiles::default()), None);
}

#[test]
fn sizes_past_the_largest_fit_none() {
    // DeepSeek-V3's 671B parameters in BF16: 1.34 TB, past 141 GB.
    let r = record(json!({"id": "a/big", "pipeline_tag": "text-classification",
        "safetensors": {"parameters": {"BF16": 671000000000u64}, "total": 671000000000u64}}));
    let e = estimate(&r, &GgufFiles::default()).unwrap();
    assert_eq!(e.rows[0].needs[0].fits_gb, None);
    assert_eq!(e.fits_in_gb(), None);
    assert_eq!(Need::of(141 << 30).fits_gb, Some(141), "a size holds exactly its own bytes");
    assert_eq!(Need::of((8 << 30) + 1).fits_gb, Some(12));
}
