//! "Will it run on my machine?": the memory a model needs to run, computed
//! at build time from its record and GGUF headers, and the smallest common
//! memory size it fits in.
//!
//! Memory = weights + KV cache, and nothing else (no allowance for the
//! runtime's buffers, the activations or the operating system; the page
//! says so):
//! - weights: each GGUF quantization's file size; for other models the
//!   parameter count (`safetensors.total`) times 2, 1 and 0.5 bytes (BF16
//!   or FP16, 8-bit, 4-bit). A parameter count of packed tensors (`U8`,
//!   `I32`: 4-bit weights stored several to an integer) counts integers,
//!   not parameters, and gives no estimate.
//! - KV cache = 2 (keys and values) × layers × KV heads × head size ×
//!   context × 2 bytes (an FP16 cache, llama.cpp's and vLLM's default),
//!   with the key and value sizes apart where a header gives them apart and
//!   per-layer head counts summed. Contexts: 4K, 32K and the model's
//!   maximum, those at most the maximum.
//!
//! Where the data lack a part of the shape ([`shape`]), the KV cache is
//! not estimated and the page names what is missing. Models whose task
//! generates no text keep no KV cache worth the name: their figure is the
//! weights alone.

mod shape;
mod view;

use modelpages_gguf::GgufFiles;
use modelpages_record::ModelRecord;

pub use shape::{config_context, config_shape, gguf_shape, KvShape, ShapePart, ShapeSource};
pub use view::{memory_view, MemoryView};

/// The common memory sizes a model is said to fit in, in GiB: GPUs and
/// machines are sold by these ("8 GB" is 8 GiB).
pub const MEMORY_SIZES_GB: [u32; 7] = [8, 12, 16, 24, 48, 80, 141];

const GIB: u64 = 1 << 30;

/// Bytes of one cached key or value element: an FP16 cache.
pub const KV_ELEMENT_BYTES: u64 = 2;

/// The contexts every estimate shows, when the model reaches them.
pub const CONTEXTS: [u64; 2] = [4096, 32768];

/// Most rows a table shows: as many quantizations as the page's picker.
const MAX_ROWS: usize = crate::quant_picker::MAX_QUANTS;

/// Tasks whose models generate text token by token, keeping a KV cache.
const GENERATIVE_TASKS: [&str; 6] =
    ["text-generation", "image-text-to-text", "text2text-generation", "any-to-any", "audio-text-to-text", "visual-question-answering"];

/// Tensor types that pack several quantized weights in one element.
const PACKED_TYPES: [&str; 4] = ["U8", "I32", "U32", "I4"];

/// What a model needs at one context length, with one weights row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Need {
    pub bytes: u64,
    /// The smallest of [`MEMORY_SIZES_GB`] that holds it; `None` past them all.
    pub fits_gb: Option<u32>,
}

impl Need {
    fn of(bytes: u64) -> Need {
        Need { bytes, fits_gb: MEMORY_SIZES_GB.iter().copied().find(|gb| bytes <= u64::from(*gb) * GIB) }
    }
}

/// One way to hold the weights: a quantization's files, or a precision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightsRow {
    pub label: String,
    pub is_default: bool,
    /// `None` when a file's size is unknown.
    pub bytes: Option<u64>,
    /// What it needs at each of the estimate's contexts, or (without a KV
    /// cache) the weights alone as the one entry; empty without `bytes`.
    pub needs: Vec<Need>,
}

/// Where the weights rows come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightsFrom {
    GgufFiles,
    /// `parameters × bytes per parameter`.
    Parameters(u64),
}

/// The KV cache part of an estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KvCache {
    Known {
        shape: KvShape,
        bytes_per_token: u64,
        /// The contexts shown, in tokens, each with its cache's size.
        contexts: Vec<(u64, u64)>,
    },
    /// A text generator whose data lack a part of the shape.
    Unknown(Vec<ShapePart>),
    /// A model that generates no text.
    NotApplicable,
}

/// A model's memory estimate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryEstimate {
    pub weights_from: WeightsFrom,
    pub rows: Vec<WeightsRow>,
    /// Rows left out past [`MAX_ROWS`].
    pub more_rows: usize,
    pub kv: KvCache,
    /// The model's longest context, when its data give one.
    pub max_context: Option<u64>,
}

impl MemoryEstimate {
    /// The smallest memory size the default row fits in at the first
    /// context shown (4K, or the maximum when shorter), or by its weights
    /// alone for a model without a KV cache. `None` when the KV cache is
    /// unknown, the default row's size is, or nothing fits.
    pub fn fits_in_gb(&self) -> Option<u32> {
        if matches!(self.kv, KvCache::Unknown(_)) {
            return None;
        }
        self.rows.iter().find(|r| r.is_default)?.needs.first()?.fits_gb
    }

    /// The smallest memory size any row fits in at the first context shown
    /// (the smallest quantization or precision that runs): what the
    /// search's "fits in" filter asks. `None` as for [`Self::fits_in_gb`].
    pub fn smallest_fit_gb(&self) -> Option<u32> {
        if matches!(self.kv, KvCache::Unknown(_)) {
            return None;
        }
        self.rows.iter().filter_map(|r| r.needs.first()?.fits_gb).min()
    }
}

/// The memory estimate of the model `record` describes, with its GGUF
/// files; `None` when neither file sizes nor a parameter count say what
/// its weights take.
pub fn estimate(record: &ModelRecord, gguf: &GgufFiles) -> Option<MemoryEstimate> {
    let facts = gguf.header_facts();
    let (weights_from, mut rows) = weights_rows(record, gguf)?;
    let more_rows = rows.len().saturating_sub(MAX_ROWS);
    rows.truncate(MAX_ROWS);
    // The header's shape when it is whole, else the config's when that is,
    // else what each lacks (the header's first: it is what the file holds).
    let header = facts.map(|f| gguf_shape(&f.attention));
    let shape = match header {
        Some(Ok(shape)) => Some(Ok(shape)),
        header => match config_shape(record.config.as_ref()) {
            Some(Ok(shape)) => Some(Ok(shape)),
            config => header.or(config),
        },
    };
    let max_context = facts
        .and_then(|f| f.context_length)
        .filter(|n| (1..=shape::MAX_CONTEXT).contains(n))
        .or_else(|| config_context(record.config.as_ref()));
    let generative = record.task().is_some_and(|t| GENERATIVE_TASKS.contains(&t));
    let kv = match shape {
        Some(Ok(shape)) => {
            let bytes_per_token = shape.kv_heads_total * (shape.key_size + shape.value_size) * KV_ELEMENT_BYTES;
            let contexts = contexts(max_context).into_iter().map(|n| (n, bytes_per_token.saturating_mul(n))).collect();
            KvCache::Known { shape, bytes_per_token, contexts }
        }
        Some(Err(missing)) if generative => KvCache::Unknown(missing),
        None if generative => KvCache::Unknown(vec![ShapePart::Layers, ShapePart::Heads, ShapePart::HeadSize]),
        _ => KvCache::NotApplicable,
    };
    for row in &mut rows {
        let Some(weights) = row.bytes else { continue };
        row.needs = match &kv {
            KvCache::Known { contexts, .. } => contexts.iter().map(|(_, kv)| Need::of(weights.saturating_add(*kv))).collect(),
            _ => vec![Need::of(weights)],
        };
    }
    Some(MemoryEstimate { weights_from, rows, more_rows, kv, max_context })
}

/// The contexts to show: 4K and 32K when the model reaches them, and its
/// maximum; 4K and 32K when the maximum is unknown.
fn contexts(max: Option<u64>) -> Vec<u64> {
    let Some(max) = max else { return CONTEXTS.to_vec() };
    let mut shown: Vec<u64> = CONTEXTS.iter().copied().filter(|n| *n < max).collect();
    shown.push(max);
    shown
}

/// The weights rows: the GGUF quantizations when the model has GGUF files
/// of known size, else the precisions of its parameter count.
fn weights_rows(record: &ModelRecord, gguf: &GgufFiles) -> Option<(WeightsFrom, Vec<WeightsRow>)> {
    if gguf.groups.iter().any(|g| g.size.is_some()) {
        let rows = gguf
            .groups
            .iter()
            .enumerate()
            .map(|(i, group)| WeightsRow {
                label: group.label.to_string(),
                is_default: gguf.default == Some(i),
                bytes: group.size,
                needs: Vec::new(),
            })
            .collect();
        return Some((WeightsFrom::GgufFiles, rows));
    }
    let safetensors = record.safetensors.get()?;
    if safetensors.total == 0 || safetensors.parameters.keys().any(|ty| PACKED_TYPES.contains(&ty.as_str())) {
        return None;
    }
    let params = safetensors.total;
    // Bytes per parameter in halves: 4-bit is half a byte.
    let precisions = [("BF16 / FP16", 4u64), ("8-bit", 2), ("4-bit", 1)];
    let rows = precisions
        .iter()
        .map(|(label, halves)| WeightsRow {
            label: (*label).to_owned(),
            is_default: *halves == 4,
            bytes: Some(params.saturating_mul(*halves) / 2),
            needs: Vec::new(),
        })
        .collect();
    Some((WeightsFrom::Parameters(params), rows))
}

#[cfg(test)]
mod tests;
