//! The memory estimate as the page shows it (`site-src/templates/model/
//! memory.html`) and the Markdown twin writes it: sizes in binary units
//! (memory is sold in GiB and called GB), contexts in K tokens, and the
//! formula with the model's own numbers.

use serde::Serialize;

use super::{KvCache, MemoryEstimate, ShapePart, ShapeSource, WeightsFrom, KV_ELEMENT_BYTES, MEMORY_SIZES_GB};
use crate::facts::{binary_bytes_text, params_text};

#[derive(Clone, Debug, Serialize)]
pub struct MemoryView {
    /// `parameters` (weights from the parameter count) or `files`.
    pub weights_from: &'static str,
    /// The parameter count, e.g. `8.03B params`, when the weights come from it.
    pub parameters: Option<String>,
    /// One per column after the weights: a context, or the weights alone.
    pub columns: Vec<String>,
    pub rows: Vec<RowView>,
    pub more_rows: usize,
    pub kv: Option<KvView>,
    /// What the data lack for the KV cache, in words, for a text generator.
    pub missing: Option<String>,
    pub max_context: Option<String>,
    /// The memory sizes, in words: `8, 12, ... and 141 GB`.
    pub sizes: String,
    /// The smallest size the default row fits in at the first column.
    pub fits_in_gb: Option<u32>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RowView {
    pub label: String,
    pub is_default: bool,
    pub weights: Option<String>,
    pub cells: Vec<CellView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct CellView {
    pub total: String,
    /// `8 GB`, or `None` past the largest size.
    pub fits: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct KvView {
    /// `GGUF header` or `config`.
    pub source: &'static str,
    pub layers: u64,
    /// KV heads of each layer, when all layers have the same number.
    pub kv_heads: Option<u64>,
    pub kv_heads_total: u64,
    pub key_size: u64,
    pub value_size: u64,
    pub element_bytes: u64,
    pub per_token: String,
    /// Each context shown with the cache's size there.
    pub contexts: Vec<(String, String)>,
}

/// A context length in tokens: `4K`, `128K` for whole multiples of 1024,
/// else the number with thousands separators.
pub fn context_text(tokens: u64) -> String {
    if tokens >= 1024 && tokens.is_multiple_of(1024) {
        return format!("{}K", tokens / 1024);
    }
    let digits = tokens.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Words joined as a list: `a, b and c`.
fn listed(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_owned(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

pub fn memory_view(estimate: &MemoryEstimate) -> MemoryView {
    let max = estimate.max_context;
    let columns: Vec<String> = match &estimate.kv {
        KvCache::Known { contexts, .. } => contexts
            .iter()
            .map(|(n, _)| if Some(*n) == max { format!("{} context (maximum)", context_text(*n)) } else { format!("{} context", context_text(*n)) })
            .collect(),
        _ => vec!["Weights alone".to_owned()],
    };
    let rows = estimate
        .rows
        .iter()
        .map(|row| RowView {
            label: row.label.clone(),
            is_default: row.is_default,
            weights: row.bytes.map(binary_bytes_text),
            cells: row
                .needs
                .iter()
                .map(|need| CellView { total: binary_bytes_text(need.bytes), fits: need.fits_gb.map(|gb| format!("{gb} GB")) })
                .collect(),
        })
        .collect();
    let kv = match &estimate.kv {
        KvCache::Known { shape, bytes_per_token, contexts } => Some(KvView {
            source: match shape.source {
                ShapeSource::GgufHeader => "GGUF header",
                ShapeSource::Config => "config",
            },
            layers: shape.layers,
            kv_heads: shape.kv_heads,
            kv_heads_total: shape.kv_heads_total,
            key_size: shape.key_size,
            value_size: shape.value_size,
            element_bytes: KV_ELEMENT_BYTES,
            per_token: binary_bytes_text(*bytes_per_token),
            contexts: contexts.iter().map(|(n, bytes)| (context_text(*n), binary_bytes_text(*bytes))).collect(),
        }),
        _ => None,
    };
    let missing = match &estimate.kv {
        KvCache::Unknown(parts) => Some(listed(&parts.iter().map(|p| ShapePart::words(*p)).collect::<Vec<_>>())),
        _ => None,
    };
    let sizes: Vec<String> = MEMORY_SIZES_GB.iter().map(u32::to_string).collect();
    MemoryView {
        weights_from: match estimate.weights_from {
            WeightsFrom::GgufFiles => "files",
            WeightsFrom::Parameters(_) => "parameters",
        },
        parameters: match estimate.weights_from {
            WeightsFrom::Parameters(n) => Some(params_text(n)),
            WeightsFrom::GgufFiles => None,
        },
        columns,
        rows,
        more_rows: estimate.more_rows,
        kv,
        missing,
        max_context: max.map(context_text),
        sizes: format!("{} GB", listed(&sizes.iter().map(String::as_str).collect::<Vec<_>>())),
        fits_in_gb: estimate.fits_in_gb(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_contexts_in_words() {
        assert_eq!(binary_bytes_text(512), "512 B");
        assert_eq!(binary_bytes_text(536_870_912), "512 MiB");
        assert_eq!(binary_bytes_text(4_917_954_976), "4.58 GiB");
        assert_eq!(binary_bytes_text(16_597_393_408), "15.5 GiB");
        assert_eq!(binary_bytes_text(150 << 30), "150 GiB");
        assert_eq!(binary_bytes_text(1023 << 20), "1023 MiB");
        assert_eq!(binary_bytes_text(1024 << 20), "1.00 GiB");
        assert_eq!((context_text(4096), context_text(131_072), context_text(2000), context_text(40_000)), ("4K".into(), "128K".into(), "2,000".into(), "40,000".into()));
        assert_eq!(listed(&["a", "b", "c"]), "a, b and c");
    }
}
