//! The metadata keys of a GGUF header that say how large the model's
//! attention is, which is what its KV cache takes per token of context:
//! `<arch>.block_count`, `<arch>.attention.head_count`,
//! `<arch>.attention.head_count_kv` (one number, or one per layer),
//! `<arch>.embedding_length`, `<arch>.attention.key_length` and
//! `<arch>.attention.value_length`, with `<arch>.context_length`.
//!
//! Keys are named after the architecture, which the header may give after
//! them: every key with one of these endings is kept (a few, bounded) and
//! the architecture picks its own at the end.

/// The key endings kept, each after `<arch>.`.
const SUFFIXES: [&str; 7] = [
    "context_length",
    "block_count",
    "embedding_length",
    "attention.head_count",
    "attention.head_count_kv",
    "attention.key_length",
    "attention.value_length",
];

/// How many such keys are kept before the architecture is known: a real
/// header has one of each.
const MAX_KEPT: usize = 64;

/// Most layers a per-layer array may list to be read (the largest models
/// have a few hundred); a longer one is skipped.
pub(crate) const MAX_LAYERS: u64 = 4096;

/// A head count: one for every layer, or one per layer (hybrid models give
/// the layers without attention 0 KV heads).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeadCount {
    Same(u64),
    /// The sum over the layers, and how many layers were listed.
    PerLayer { total: u64, layers: u64 },
}

/// What the header says of the model's attention, for its architecture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttentionShape {
    pub block_count: Option<u64>,
    pub head_count: Option<u64>,
    pub head_count_kv: Option<HeadCount>,
    pub embedding_length: Option<u64>,
    pub key_length: Option<u64>,
    pub value_length: Option<u64>,
}

impl AttentionShape {
    pub fn is_empty(&self) -> bool {
        *self == AttentionShape::default()
    }
}

/// The architecture keys met while reading, before the architecture picks.
#[derive(Default)]
pub(crate) struct ArchKeys {
    kept: Vec<(String, HeadCount)>,
}

impl ArchKeys {
    /// Whether `key` is one to keep (and there is room for it).
    pub(crate) fn wants(&self, key: &str) -> bool {
        self.kept.len() < MAX_KEPT && SUFFIXES.iter().any(|suffix| key.strip_suffix(suffix).is_some_and(|k| k.ends_with('.')))
    }

    pub(crate) fn keep(&mut self, key: String, value: HeadCount) {
        self.kept.push((key, value));
    }

    /// The value of `<arch>.<suffix>` (the first, if a header repeats it).
    fn get(&self, arch: &str, suffix: &str) -> Option<&HeadCount> {
        self.kept
            .iter()
            .find(|(key, _)| key.strip_prefix(arch).and_then(|k| k.strip_prefix('.')) == Some(suffix))
            .map(|(_, value)| value)
    }

    /// A single number: a per-layer array is no answer where one is wanted.
    fn number(&self, arch: &str, suffix: &str) -> Option<u64> {
        match self.get(arch, suffix)? {
            HeadCount::Same(n) => Some(*n),
            HeadCount::PerLayer { .. } => None,
        }
    }

    pub(crate) fn context_length(&self, arch: Option<&str>) -> Option<u64> {
        self.number(arch?, "context_length")
    }

    pub(crate) fn shape(&self, arch: Option<&str>) -> AttentionShape {
        let Some(arch) = arch else { return AttentionShape::default() };
        AttentionShape {
            block_count: self.number(arch, "block_count"),
            head_count: self.number(arch, "attention.head_count"),
            head_count_kv: self.get(arch, "attention.head_count_kv").cloned(),
            embedding_length: self.number(arch, "embedding_length"),
            key_length: self.number(arch, "attention.key_length"),
            value_length: self.number(arch, "attention.value_length"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_architectures_own_keys_count() {
        let mut keys = ArchKeys::default();
        for (key, n) in [("qwen2.block_count", 28), ("llama.block_count", 32), ("qwen2.attention.head_count_kv", 4)] {
            assert!(keys.wants(key));
            keys.keep(key.into(), HeadCount::Same(n));
        }
        assert!(!keys.wants("qwen2.rope.freq_base") && !keys.wants("xblock_count") && !keys.wants("general.name"));
        let shape = keys.shape(Some("qwen2"));
        assert_eq!((shape.block_count, shape.head_count_kv), (Some(28), Some(HeadCount::Same(4))));
        assert!(keys.shape(Some("qwen")).is_empty(), "a prefix of another architecture's name is not it");
        assert!(keys.shape(None).is_empty());
    }
}
