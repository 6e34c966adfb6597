//! The quantization facts, as data (`data/quant_types.json`): file
//! quantization types and their order, the names file names use for them, and
//! the tensor element types with their block sizes.

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use serde::Deserialize;

#[derive(Deserialize)]
struct QuantData {
    /// File quantization type name to its numeric id (`general.file_type`).
    file_types: HashMap<String, u32>,
    order_largest_first: Vec<String>,
    /// Names file names use for a type that has another name in the list.
    aliases: HashMap<String, String>,
    /// K-quant bases that only appear with a size suffix (`Q4_K_L`), mapped to
    /// the type whose place in the order they take.
    suffix_bases: HashMap<String, String>,
    /// Size suffixes (`_XL`, `_M`, ...), largest first; `""` marks where a
    /// label without a suffix sits.
    size_suffixes_largest_first: Vec<String>,
    default_at_or_below: String,
    tensor_types: Vec<TensorTypeData>,
}

#[derive(Deserialize)]
struct TensorTypeData {
    name: String,
    id: u32,
    block_elements: u64,
    block_bytes: u64,
}

/// The parsed data with the lookups the rest of the crate needs.
pub(crate) struct Tables {
    /// Every name a label can start from, with the file type whose place in the
    /// order it takes and whether it needs a size suffix.
    pub bases: Vec<Base>,
    /// File type name to its index in the largest-first order.
    pub rank: HashMap<String, usize>,
    pub suffixes: Vec<String>,
    pub default_rank: usize,
    file_type_names: HashMap<u32, String>,
    tensor_types: HashMap<u32, TensorTypeData>,
}

/// A name a quantization label is built on (`Q4_K_M`, `MXFP4`, `Q4_K`).
pub(crate) struct Base {
    pub name: String,
    /// The file quantization type it stands for, or whose place it takes.
    pub ranked_as: String,
    /// `Q4_K` alone is a tensor type, not a file quantization: only
    /// `Q4_K_L` and friends are labels.
    pub needs_suffix: bool,
}

pub(crate) static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let data: QuantData =
        serde_json::from_str(include_str!("../data/quant_types.json")).expect("data/quant_types.json is valid (tested)");
    let rank: HashMap<String, usize> =
        data.order_largest_first.iter().enumerate().map(|(i, name)| (name.clone(), i)).collect();
    let mut bases: Vec<Base> = data
        .file_types
        .keys()
        .map(|name| Base { name: name.clone(), ranked_as: name.clone(), needs_suffix: false })
        .collect();
    bases.extend(data.aliases.iter().map(|(alias, to)| Base { name: alias.clone(), ranked_as: to.clone(), needs_suffix: false }));
    bases.extend(
        data.suffix_bases.iter().map(|(base, as_)| Base { name: base.clone(), ranked_as: as_.clone(), needs_suffix: true }),
    );
    // Longest first, so `Q4_0_4_4` wins over `Q4_0` and `IQ2_XXS` over `IQ2_XS`;
    // the name breaks ties so matching never depends on hash order.
    bases.sort_by(|a, b| b.name.len().cmp(&a.name.len()).then_with(|| a.name.cmp(&b.name)));
    let default_rank = rank[&data.default_at_or_below];
    Tables {
        bases,
        rank,
        suffixes: data.size_suffixes_largest_first,
        default_rank,
        file_type_names: data.file_types.into_iter().map(|(name, id)| (id, name)).collect(),
        tensor_types: data.tensor_types.into_iter().map(|t| (t.id, t)).collect(),
    }
});

/// The name of a file quantization type id (`general.file_type`), e.g. 15 is `Q4_K_M`.
pub fn file_type_name(id: u32) -> Option<&'static str> {
    TABLES.file_type_names.get(&id).map(String::as_str)
}

/// Every file quantization type, largest first.
pub fn quant_order() -> Vec<&'static str> {
    let mut names: Vec<(&'static str, usize)> = TABLES.rank.iter().map(|(n, r)| (n.as_str(), *r)).collect();
    names.sort_by_key(|(_, r)| *r);
    names.into_iter().map(|(n, _)| n).collect()
}

/// A tensor element type (`ggml_type` id): how a tensor's numbers are stored.
/// An id this program does not know (a newer writer) is kept, not an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TensorType(pub u32);

impl TensorType {
    fn data(&self) -> Option<&'static TensorTypeData> {
        TABLES.tensor_types.get(&self.0)
    }

    /// `Q4_K`, `F32`, ...; `None` for an unknown id.
    pub fn name(&self) -> Option<&'static str> {
        self.data().map(|d| d.name.as_str())
    }

    /// Every known tensor element type, by id.
    pub fn all() -> Vec<TensorType> {
        let mut types: Vec<TensorType> = TABLES.tensor_types.keys().copied().map(TensorType).collect();
        types.sort();
        types
    }

    /// Elements per block (1 for plain numbers, 32 or 256 for quantized kinds).
    pub fn block_elements(&self) -> Option<u64> {
        self.data().map(|d| d.block_elements)
    }

    /// Bytes `elements` numbers of this type take, when the type is known and
    /// `elements` fills whole blocks.
    pub fn bytes_for(&self, elements: u64) -> Option<u64> {
        let data = self.data()?;
        if !elements.is_multiple_of(data.block_elements) {
            return None;
        }
        (elements / data.block_elements).checked_mul(data.block_bytes)
    }
}

impl fmt::Display for TensorType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => f.write_str(name),
            None => write!(f, "type {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_is_consistent() {
        let t = &*TABLES;
        assert_eq!(t.rank.len(), t.file_type_names.len(), "every file type is in the order exactly once");
        for base in &t.bases {
            assert!(t.rank.contains_key(&base.ranked_as), "{} ranks as a known type", base.name);
        }
        assert!(t.suffixes.iter().any(String::is_empty), "the no-suffix place is marked");
        assert_eq!(file_type_name(15), Some("Q4_K_M"));
        assert_eq!(file_type_name(1002), Some("Q4_K_XL"));
        assert_eq!(quant_order().first(), Some(&"F32"));
        assert_eq!(quant_order().len(), 48);
    }

    #[test]
    fn tensor_types_and_sizes() {
        let all = TensorType::all();
        assert_eq!(all.len(), 35);
        let names: Vec<&str> = all.iter().filter_map(|t| t.name()).collect();
        for wanted in ["F32", "F16", "BF16", "I8", "I16", "I32", "I64", "F64", "Q4_K", "IQ2_XXS", "TQ1_0", "MXFP4"] {
            assert!(names.contains(&wanted), "{wanted}");
        }
        let q8 = TensorType(8);
        assert_eq!((q8.name(), q8.bytes_for(64)), (Some("Q8_0"), Some(68)));
        assert_eq!(TensorType(12).bytes_for(512), Some(288), "Q4_K: 144 bytes per 256");
        assert_eq!(TensorType(0).bytes_for(3), Some(12));
        assert_eq!(q8.bytes_for(33), None, "not whole blocks");
        let unknown = TensorType(9999);
        assert_eq!(unknown.name(), None);
        assert_eq!(unknown.to_string(), "type 9999");
        assert_eq!(unknown.bytes_for(10), None);
    }
}
