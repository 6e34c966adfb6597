//! Where the size of a model's attention comes from: the GGUF header's
//! `<arch>.*` keys when a header was read, else the record's `config`
//! (transformers names, with GPT-2's older ones; a multimodal model's
//! `text_config` when the top level has none).
//!
//! Values are untrusted: each must be a whole number within a bound no
//! real model comes near, or it counts as missing. Nothing is guessed but
//! what the runtimes themselves assume: a model that names no KV head
//! count has one per attention head (llama.cpp and transformers both read
//! it so), and the head size is the hidden size over the heads unless
//! given.

use modelpages_gguf::{AttentionShape, HeadCount};
use serde_json::{Map, Value};

/// What the KV cache of one token is made of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KvShape {
    pub layers: u64,
    /// KV heads of one layer, when every layer has the same number.
    pub kv_heads: Option<u64>,
    /// KV heads of all layers together.
    pub kv_heads_total: u64,
    /// Elements of one head's key and of its value.
    pub key_size: u64,
    pub value_size: u64,
    pub source: ShapeSource,
}

/// Where a shape was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapeSource {
    GgufHeader,
    Config,
}

/// A part of the shape the model's data does not give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShapePart {
    Layers,
    Heads,
    HeadSize,
}

impl ShapePart {
    pub fn words(self) -> &'static str {
        match self {
            ShapePart::Layers => "the number of layers",
            ShapePart::Heads => "the number of attention heads",
            ShapePart::HeadSize => "the head size",
        }
    }
}

/// Bounds past which a value is taken for a mistake, not a model.
const MAX_LAYERS: u64 = 4096;
const MAX_HEADS: u64 = 1 << 16;
const MAX_HEAD_SIZE: u64 = 1 << 16;
const MAX_HIDDEN: u64 = 1 << 22;
/// Longest context believed: a billion tokens.
pub(crate) const MAX_CONTEXT: u64 = 1 << 30;

fn within(n: Option<u64>, max: u64) -> Option<u64> {
    n.filter(|n| (1..=max).contains(n))
}

/// The shape a GGUF header gives, or what it lacks.
pub fn gguf_shape(keys: &AttentionShape) -> Result<KvShape, Vec<ShapePart>> {
    let layers = within(keys.block_count, MAX_LAYERS);
    let heads = within(keys.head_count, MAX_HEADS);
    // Per-layer counts are kept as their sum over the layers they list.
    let (kv_heads, kv_total) = match &keys.head_count_kv {
        Some(HeadCount::Same(n)) => (within(Some(*n), MAX_HEADS), None),
        Some(HeadCount::PerLayer { total, layers }) => {
            let fits = *layers <= MAX_LAYERS && *total <= MAX_HEADS.saturating_mul(*layers);
            (None, fits.then_some(*total))
        }
        None => (heads, None),
    };
    let from_embedding = match (within(keys.embedding_length, MAX_HIDDEN), heads) {
        (Some(width), Some(heads)) => within(Some(width / heads), MAX_HEAD_SIZE),
        _ => None,
    };
    let key_size = within(keys.key_length, MAX_HEAD_SIZE).or(from_embedding);
    let value_size = within(keys.value_length, MAX_HEAD_SIZE).or(key_size);
    assemble(layers, kv_heads, kv_total, key_size, value_size, ShapeSource::GgufHeader)
}

/// The part of `config` that describes the language model: the top level,
/// or `text_config` when the top level has no layer count.
fn text_part(config: &Map<String, Value>) -> &Map<String, Value> {
    let has_layers = LAYER_KEYS.iter().any(|k| config.contains_key(*k));
    match config.get("text_config") {
        Some(Value::Object(text)) if !has_layers => text,
        _ => config,
    }
}

const LAYER_KEYS: [&str; 3] = ["num_hidden_layers", "n_layer", "num_layers"];
const HEAD_KEYS: [&str; 2] = ["num_attention_heads", "n_head"];
const HIDDEN_KEYS: [&str; 3] = ["hidden_size", "n_embd", "d_model"];
const CONTEXT_KEYS: [&str; 4] = ["max_position_embeddings", "n_positions", "max_sequence_length", "seq_length"];

/// The first of `keys` that `config` has as a whole number.
fn number(config: &Map<String, Value>, keys: &[&str]) -> Option<u64> {
    keys.iter().find_map(|k| config.get(*k)).and_then(Value::as_u64)
}

/// The shape a record's `config` gives, or what it lacks; `None` when the
/// config is not an object.
pub fn config_shape(config: Option<&Value>) -> Option<Result<KvShape, Vec<ShapePart>>> {
    let config = text_part(config?.as_object()?);
    let layers = within(number(config, &LAYER_KEYS), MAX_LAYERS);
    let heads = within(number(config, &HEAD_KEYS), MAX_HEADS);
    // `multi_query` (Falcon, StarCoder) is one KV head for all.
    let multi_query = config.get("multi_query").and_then(Value::as_bool) == Some(true);
    let kv_heads = if multi_query { Some(1) } else { within(number(config, &["num_key_value_heads"]), MAX_HEADS).or(heads) };
    let from_hidden = match (within(number(config, &HIDDEN_KEYS), MAX_HIDDEN), heads) {
        (Some(width), Some(heads)) => within(Some(width / heads), MAX_HEAD_SIZE),
        _ => None,
    };
    let head_size = within(number(config, &["head_dim"]), MAX_HEAD_SIZE).or(from_hidden);
    Some(assemble(layers, kv_heads, None, head_size, head_size, ShapeSource::Config))
}

/// The longest context `config` names.
pub fn config_context(config: Option<&Value>) -> Option<u64> {
    within(number(text_part(config?.as_object()?), &CONTEXT_KEYS), MAX_CONTEXT)
}

fn assemble(
    layers: Option<u64>,
    kv_heads: Option<u64>,
    kv_total: Option<u64>,
    key_size: Option<u64>,
    value_size: Option<u64>,
    source: ShapeSource,
) -> Result<KvShape, Vec<ShapePart>> {
    let total = kv_total.or_else(|| Some(layers? * kv_heads?));
    match (layers, total, key_size, value_size) {
        (Some(layers), Some(kv_heads_total), Some(key_size), Some(value_size)) => {
            Ok(KvShape { layers, kv_heads: kv_heads.filter(|_| kv_total.is_none()), kv_heads_total, key_size, value_size, source })
        }
        _ => {
            let mut missing = Vec::new();
            if layers.is_none() {
                missing.push(ShapePart::Layers);
            }
            if kv_total.is_none() && kv_heads.is_none() {
                missing.push(ShapePart::Heads);
            }
            if key_size.is_none() {
                missing.push(ShapePart::HeadSize);
            }
            Err(missing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_names_and_their_defaults() {
        // GPT-2's names, no KV head count: one per head, head size 768 / 12.
        let gpt2 = json!({"n_layer": 12, "n_head": 12, "n_embd": 768, "n_positions": 1024});
        let shape = config_shape(Some(&gpt2)).unwrap().unwrap();
        assert_eq!((shape.layers, shape.kv_heads, shape.kv_heads_total, shape.key_size), (12, Some(12), 144, 64));
        assert_eq!(config_context(Some(&gpt2)), Some(1024));
        // A multimodal model's language part.
        let vlm = json!({"model_type": "x", "text_config": {"num_hidden_layers": 4, "num_attention_heads": 8,
            "num_key_value_heads": 2, "hidden_size": 512, "head_dim": 256, "max_position_embeddings": 8192}});
        let shape = config_shape(Some(&vlm)).unwrap().unwrap();
        assert_eq!((shape.kv_heads_total, shape.key_size, shape.value_size), (8, 256, 256));
        assert_eq!(config_context(Some(&vlm)), Some(8192));
        let falcon = json!({"num_hidden_layers": 32, "num_attention_heads": 71, "hidden_size": 4544, "multi_query": true});
        assert_eq!(config_shape(Some(&falcon)).unwrap().unwrap().kv_heads_total, 32);
    }

    #[test]
    fn missing_and_implausible_values_are_named_not_guessed() {
        let none = json!({"architectures": ["LlamaForCausalLM"], "model_type": "llama"});
        assert_eq!(config_shape(Some(&none)).unwrap(), Err(vec![ShapePart::Layers, ShapePart::Heads, ShapePart::HeadSize]));
        let odd = json!({"num_hidden_layers": -3, "num_attention_heads": "32", "hidden_size": 4096.5, "head_dim": 1e12});
        assert_eq!(config_shape(Some(&odd)).unwrap(), Err(vec![ShapePart::Layers, ShapePart::Heads, ShapePart::HeadSize]));
        assert_eq!(config_shape(Some(&json!("llama"))), None);
        assert_eq!(config_context(Some(&json!({"max_position_embeddings": u64::MAX}))), None);
        let header = AttentionShape { block_count: Some(32), head_count: Some(0), ..AttentionShape::default() };
        assert_eq!(gguf_shape(&header), Err(vec![ShapePart::Heads, ShapePart::HeadSize]));
    }
}
