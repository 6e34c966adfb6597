//! `search/facets.json`: the values of every search facet with how many
//! models have each, which the island offers as filters and uses to choose
//! the listing a combination of filters reads first (the value with the
//! fewest models). It names no model; it changes when a model is added,
//! removed or changes its facets, never when downloads move.
//!
//! ```json
//! {"param_bounds": [1000000000, ...], "memory_sizes": [8, 12, ...],
//!  "language": [["en", 120345], ...], "license": [["apache-2.0", 90123], ...],
//!  "provider": [["together", 412], ...], "params": [[0, 5123], [3, 812], ...],
//!  "fits": [[0, 3012], ...], "more": {"language": 12, "license": 0, "provider": 0}}
//! ```
//!
//! Languages, licences and providers are listed most common first, at most
//! [`MOST_VALUES`] of each (`more` counts those left out: the island still
//! filters by one given in its address); classes by index.

use std::collections::BTreeMap;

use modelpages_render::{MEMORY_SIZES_GB, PARAM_BOUNDS};
use serde::Serialize;

use crate::pages::listings::file::ListingFile;
use crate::pages::listings::groups::Groups;
use crate::pages::listings::membership::FacetKind;

/// Most values of a facet the file lists: it stays a few tens of kilobytes
/// whatever the hub's size.
pub const MOST_VALUES: usize = 200;

#[derive(Serialize)]
struct FacetsDoc<'a> {
    param_bounds: &'static [u64],
    memory_sizes: &'static [u32],
    #[serde(flatten)]
    values: BTreeMap<&'static str, Vec<(&'a str, usize)>>,
    params: Vec<(u64, usize)>,
    fits: Vec<(u64, usize)>,
    more: BTreeMap<&'static str, usize>,
}

pub fn facets_file<'a>(groups: &Groups<'_>) -> ListingFile<'a> {
    let mut values: BTreeMap<&'static str, Vec<(&str, usize)>> = BTreeMap::new();
    let mut more = BTreeMap::new();
    let (mut params, mut fits) = (Vec::new(), Vec::new());
    for group in &groups.facets {
        let count = group.ranks.len();
        match group.kind {
            FacetKind::Params => params.push((group.value.parse().expect("a class"), count)),
            FacetKind::Fits => fits.push((group.value.parse().expect("a class"), count)),
            kind => values.entry(kind.name()).or_default().push((&group.value, count)),
        }
    }
    for kind in [FacetKind::Language, FacetKind::License, FacetKind::Provider] {
        let list = values.entry(kind.name()).or_default();
        list.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        more.insert(kind.name(), list.len().saturating_sub(MOST_VALUES));
        list.truncate(MOST_VALUES);
    }
    params.sort_unstable();
    fits.sort_unstable();
    let doc = FacetsDoc { param_bounds: &PARAM_BOUNDS, memory_sizes: &MEMORY_SIZES_GB, values, params, fits, more };
    ListingFile::ready("search/facets.json".into(), serde_json::to_vec(&doc).expect("facets serialise"))
}
