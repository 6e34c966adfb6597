//! What the search filters a model by besides its task and library: its
//! languages and licences (from its filter tags, grouped as its page groups
//! them), the providers serving it (live entries of its
//! `inferenceProviderMapping`), its parameter count's class and the
//! smallest common memory size its smallest estimate fits in (see
//! `memory`). All come from the record and GGUF files alone, never from
//! downloads or likes, so a model's facets change only when it does.

use modelpages_gguf::GgufFiles;
use modelpages_record::{CardMeta, ModelRecord, SearchFacets};
use modelpages_snippets::inference::provider_mappings;

use crate::facts::{language_tags, parameter_count, tag_file_name};
use crate::memory::{MemoryEstimate, MEMORY_SIZES_GB};

/// The upper bounds of the parameter classes, in parameters: class `i`
/// holds counts below `PARAM_BOUNDS[i]` and at least the bound before it;
/// the last class holds the rest. The Hub's parameter filter stops at
/// these sizes too.
pub const PARAM_BOUNDS: [u64; 10] = [
    1_000_000_000,
    3_000_000_000,
    6_000_000_000,
    9_000_000_000,
    12_000_000_000,
    24_000_000_000,
    32_000_000_000,
    64_000_000_000,
    128_000_000_000,
    500_000_000_000,
];

/// Most languages, licences or providers a model is filtered by: a record
/// naming thousands weighs no more on the search's rows than one naming 32.
pub const MAX_FACET_VALUES: usize = 32;

/// The class of `parameters` (see [`PARAM_BOUNDS`]).
pub fn param_class(parameters: u64) -> u8 {
    PARAM_BOUNDS.iter().take_while(|bound| parameters >= **bound).count() as u8
}

/// Whether a facet value can name a listing: one with a file name (see
/// `tag_file_name`) and a line of its own in a [`TagList`].
fn listable(value: &str) -> bool {
    !value.contains('\n') && tag_file_name(value).is_some()
}

/// The facets of the model `record` describes; `meta` is its card metadata
/// (`record.card_meta()`, which the caller has already made), `filters` its
/// filter tags (`filter_tags`), `memory` its estimate.
pub fn search_facets(record: &ModelRecord, meta: &CardMeta, gguf: &GgufFiles, memory: Option<&MemoryEstimate>, filters: &[&str]) -> SearchFacets {
    let languages = language_tags(filters.iter().copied(), &meta.language);
    let licenses = filters.iter().filter_map(|t| t.strip_prefix("license:")).filter(|l| listable(l));
    let mut providers: Vec<String> =
        provider_mappings(record.inference_provider_mapping.as_ref()).into_iter().filter(|m| m.status == "live").map(|m| m.provider).collect();
    providers.retain(|p| listable(p));
    providers.dedup();
    let fits = memory.and_then(MemoryEstimate::smallest_fit_gb).and_then(|gb| MEMORY_SIZES_GB.iter().position(|s| *s == gb));
    SearchFacets {
        languages: languages.into_iter().take(MAX_FACET_VALUES).collect(),
        licenses: licenses.take(MAX_FACET_VALUES).collect(),
        providers: providers.into_iter().take(MAX_FACET_VALUES).collect(),
        params: parameter_count(record, gguf).map(param_class),
        fits: fits.map(|i| i as u8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn record(value: serde_json::Value) -> ModelRecord {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn classes_split_at_the_bounds() {
        let classes: Vec<u8> =
            [0, 999_999_999, 1_000_000_000, 8_030_261_248, 70_000_000_000, 499_999_999_999, 671_000_000_000].into_iter().map(param_class).collect();
        assert_eq!(classes, [0, 0, 1, 3, 8, 9, 10]);
    }

    #[test]
    fn facets_come_from_tags_mapping_parameters_and_memory() {
        let r = record(json!({"id": "a/b", "pipeline_tag": "text-generation",
            "tags": ["en", "tf", "de", "license:apache-2.0", "dataset:x"],
            "safetensors": {"parameters": {"BF16": 8030261248u64}, "total": 8030261248u64},
            "config": {"num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "hidden_size": 4096},
            "inferenceProviderMapping": {"together": {"status": "live", "providerId": "x"}, "groq": {"status": "staging", "providerId": "y"}}}));
        let filters = ["license:apache-2.0", "en", "tf", "de", "dataset:x"];
        let memory = crate::memory::estimate(&r, &GgufFiles::default());
        let f = search_facets(&r, &r.card_meta(), &GgufFiles::default(), memory.as_ref(), &filters);
        assert_eq!(f.languages.iter().collect::<Vec<_>>(), ["en", "de"], "tf is TensorFlow, no language");
        assert_eq!(f.licenses.iter().collect::<Vec<_>>(), ["apache-2.0"]);
        assert_eq!(f.providers.iter().collect::<Vec<_>>(), ["together"], "a staging provider serves nobody yet");
        assert_eq!(f.params, Some(3));
        // 4-bit weights (4,015,130,624 bytes) and a 4K cache fit in 8 GB.
        assert_eq!(f.fits, Some(0));
        let bare_record = record(json!({"id": "a/c"}));
        let bare = search_facets(&bare_record, &bare_record.card_meta(), &GgufFiles::default(), None, &[]);
        assert_eq!(bare, SearchFacets::default());
    }
}
