//! The model tree: which models a model was made from (its bases, with how:
//! fine-tuned, adapter, quantized, merged) and, across the whole corpus,
//! which models were made from it.
//!
//! A model's bases come from its own record: the Hub's
//! `base_model:<relation>:<id>` tags (the relation said) and
//! `base_model:<id>` tags, which are the Hub's resolved answer (a base
//! renamed since the card was written is named by its new id there); only a
//! record without such tags falls back on the card's `base_model` (string
//! or list) with its `base_model_relation`. When nothing says the relation
//! it is inferred as the Hub does (several bases: a merge; GGUF files:
//! quantized; a PEFT library: an adapter; else a fine-tune). Ids are checked
//! like record ids and bounded in number.
//!
//! Derivatives need every model: the build gathers each model's bases
//! ([`TreeMember`]) into a [`TreeIndex`] after its render stage, and asks it
//! for each model's [`TreeBlock`]: everything the model's page shows of the
//! tree. A page is rendered again when its block differs from the one it
//! was rendered with, so incremental builds keep bases' pages right.

use std::collections::{BTreeMap, HashMap, HashSet};

use modelpages_record::{BaseRef, ModelId, ModelRecord, Relation};
use serde::Serialize;

/// Bases one model names at most.
const MAX_BASES: usize = 16;
/// Derivatives per relation a base's block lists (the full-list page);
/// the count covers them all.
pub const MAX_LISTED_DERIVATIVES: usize = 1000;
/// Derivatives per relation on the model page itself.
pub const TOP_DERIVATIVES: usize = 5;

/// The relation a record implies when it does not say one.
fn inferred_relation(record: &ModelRecord, base_count: usize) -> Relation {
    let library = record.library().unwrap_or_default();
    if base_count > 1 {
        Relation::Merge
    } else if library == "gguf" || record.has_tag("gguf") || record.siblings.iter().any(|s| s.rfilename.ends_with(".gguf")) {
        Relation::Quantized
    } else if library == "peft" || record.has_tag("peft") || record.has_tag("lora") {
        Relation::Adapter
    } else {
        Relation::Finetune
    }
}

/// The bases `record` names, each once (an explicit relation first), valid
/// ids only, never the model itself: those of its `base_model:` tags, or,
/// when no tag names a valid one, those of its card.
pub fn base_refs(record: &ModelRecord) -> Vec<BaseRef> {
    let mut from_tags: Vec<(&str, Option<Relation>)> = Vec::new();
    for tag in &record.tags {
        let Some(rest) = tag.strip_prefix("base_model:") else { continue };
        match rest.split_once(':') {
            Some((relation, id)) => from_tags.push((id, Relation::parse(relation))),
            None => from_tags.push((rest, None)),
        }
    }
    let mut valid = valid_bases(record, from_tags);
    if valid.is_empty() {
        let card_relation = record
            .card_data
            .as_ref()
            .and_then(|c| c.get("base_model_relation"))
            .and_then(|r| r.as_str())
            .and_then(Relation::parse);
        valid = valid_bases(record, record.base_models().into_iter().map(|id| (id, card_relation)).collect());
    }
    let inferred = inferred_relation(record, valid.len());
    let mut bases: Vec<BaseRef> =
        valid.into_iter().map(|(id, relation)| BaseRef { id: id.to_owned(), relation: relation.unwrap_or(inferred) }).collect();
    bases.sort_by(|a, b| a.id.cmp(&b.id));
    bases
}

/// The ids of `said` that can be bases, each once with its explicit
/// relation if any said one, at most [`MAX_BASES`].
fn valid_bases<'r>(record: &ModelRecord, mut said: Vec<(&'r str, Option<Relation>)>) -> Vec<(&'r str, Option<Relation>)> {
    // Explicit relations win over inferred ones for the same id.
    said.sort_by_key(|(_, relation)| relation.is_none());
    let mut seen = HashSet::new();
    said.into_iter().filter(|(id, _)| *id != record.id && ModelId::parse(id).is_ok() && seen.insert(*id)).take(MAX_BASES).collect()
}

/// One model as the tree sees it.
pub struct TreeMember<'a> {
    pub id: &'a str,
    /// Its popularity class (see `popularity_class`): derivatives are ranked
    /// by it, not by downloads, which move every day.
    pub popularity: u8,
    pub bases: &'a [BaseRef],
    /// Hidden models are in no other model's list.
    pub listed: bool,
}

/// A base as its derivative's page shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BaseInBlock {
    pub id: String,
    pub relation: Relation,
    /// Whether the base has a page on this site (else it links the hub).
    pub in_site: bool,
}

/// A derivative in a base's block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Derivative {
    pub id: String,
    pub popularity: u8,
}

/// A base's derivatives of one relation, most popular first (by class, then id).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DerivativeGroup {
    pub relation: Relation,
    pub count: usize,
    /// At most [`MAX_LISTED_DERIVATIVES`].
    pub models: Vec<Derivative>,
}

/// Everything one model's pages show of the tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TreeBlock {
    pub bases: Vec<BaseInBlock>,
    pub derivatives: Vec<DerivativeGroup>,
}

impl TreeBlock {
    pub fn is_empty(&self) -> bool {
        self.bases.is_empty() && self.derivatives.is_empty()
    }
}

/// The corpus's derivatives by base, and which bases have pages.
#[derive(Debug, Default)]
pub struct TreeIndex {
    derivatives: HashMap<String, BTreeMap<Relation, Vec<Derivative>>>,
    /// Ids named as a base that are listed models of the site. A hidden
    /// model's page is built, but no other page may say so: a derivative
    /// naming it links it on the hub, as it would any base the site lacks.
    present: HashSet<String>,
}

impl TreeIndex {
    /// Gathers the derivatives of every base named by `members`.
    pub fn build(members: &[TreeMember<'_>]) -> TreeIndex {
        let mut index = TreeIndex::default();
        for member in members.iter().filter(|m| m.listed) {
            for base in member.bases {
                let groups = index.derivatives.entry(base.id.clone()).or_default();
                groups.entry(base.relation).or_default().push(Derivative { id: member.id.to_owned(), popularity: member.popularity });
            }
        }
        let named: HashSet<&str> = members.iter().flat_map(|m| m.bases.iter().map(|b| b.id.as_str())).collect();
        index.present = members.iter().filter(|m| m.listed && named.contains(m.id)).map(|m| m.id.to_owned()).collect();
        for groups in index.derivatives.values_mut() {
            for models in groups.values_mut() {
                models.sort_by(|a, b| b.popularity.cmp(&a.popularity).then_with(|| a.id.cmp(&b.id)));
            }
        }
        index
    }

    /// The block of the model `id` whose own bases are `bases`.
    pub fn block(&self, id: &str, bases: &[BaseRef]) -> TreeBlock {
        let bases = bases
            .iter()
            .map(|b| BaseInBlock { id: b.id.clone(), relation: b.relation, in_site: self.present.contains(&b.id) })
            .collect();
        let derivatives = self
            .derivatives
            .get(id)
            .into_iter()
            .flatten()
            .map(|(relation, models)| DerivativeGroup {
                relation: *relation,
                count: models.len(),
                models: models.iter().take(MAX_LISTED_DERIVATIVES).cloned().collect(),
            })
            .collect();
        TreeBlock { bases, derivatives }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(json: &str) -> ModelRecord {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn relations_come_from_tags_then_card_then_inference() {
        let r = record(
            r#"{"id": "me/ft", "tags": ["base_model:finetune:meta-llama/Llama-3.1-8B", "base_model:meta-llama/Llama-3.1-8B"],
                "cardData": {"base_model": "meta-llama/Llama-3.1-8B"}}"#,
        );
        assert_eq!(base_refs(&r), [BaseRef { id: "meta-llama/Llama-3.1-8B".into(), relation: Relation::Finetune }]);
        let gguf = record(r#"{"id": "me/q", "library_name": "gguf", "cardData": {"base_model": "a/b"}}"#);
        assert_eq!(base_refs(&gguf)[0].relation, Relation::Quantized);
        let adapter = record(r#"{"id": "me/l", "library_name": "peft", "tags": ["base_model:a/b"]}"#);
        assert_eq!(base_refs(&adapter)[0].relation, Relation::Adapter);
        let merge = record(r#"{"id": "me/m", "cardData": {"base_model": ["a/b", "c/d"]}}"#);
        assert!(base_refs(&merge).iter().all(|b| b.relation == Relation::Merge));
        let said = record(r#"{"id": "me/s", "library_name": "gguf", "cardData": {"base_model": "a/b", "base_model_relation": "adapter"}}"#);
        assert_eq!(base_refs(&said)[0].relation, Relation::Adapter);
    }

    /// Llama-3.1-8B-Instruct's card still names its base by the id it had
    /// before the rename; the Hub's tags name the base as it is now. One
    /// base, fine-tuned: not a merge of two.
    #[test]
    fn the_hubs_tags_decide_over_a_card_naming_a_renamed_base() {
        let instruct = record(
            r#"{"id": "meta-llama/Llama-3.1-8B-Instruct",
                "tags": ["base_model:meta-llama/Llama-3.1-8B", "base_model:finetune:meta-llama/Llama-3.1-8B"],
                "cardData": {"base_model": "meta-llama/Meta-Llama-3.1-8B"}}"#,
        );
        assert_eq!(base_refs(&instruct), [BaseRef { id: "meta-llama/Llama-3.1-8B".into(), relation: Relation::Finetune }]);
        let gguf = record(
            r#"{"id": "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "library_name": "gguf",
                "tags": ["base_model:meta-llama/Llama-3.1-8B-Instruct", "base_model:quantized:meta-llama/Llama-3.1-8B-Instruct"],
                "cardData": {"base_model": "meta-llama/Meta-Llama-3.1-8B-Instruct"}}"#,
        );
        assert_eq!(base_refs(&gguf), [BaseRef { id: "meta-llama/Llama-3.1-8B-Instruct".into(), relation: Relation::Quantized }]);
        // Without a tag the card decides, its relation with it.
        let card_only = record(r#"{"id": "me/x", "cardData": {"base_model": "meta-llama/Meta-Llama-3.1-8B"}}"#);
        assert_eq!(base_refs(&card_only), [BaseRef { id: "meta-llama/Meta-Llama-3.1-8B".into(), relation: Relation::Finetune }]);
    }

    #[test]
    fn bad_ids_and_the_model_itself_are_not_bases() {
        let r = record(
            r#"{"id": "me/x", "tags": ["base_model:finetune:../../etc", "base_model:me/x", "base_model:quantized:<b>/c", "base_model:weird:a/b"],
                "cardData": {"base_model": ["javascript:alert(1)", "ok/fine"]}}"#,
        );
        let ids = |r: &ModelRecord| base_refs(r).into_iter().map(|b| b.id).collect::<Vec<String>>();
        assert_eq!(ids(&r), ["a/b"], "the tags name a valid base: the card is not read");
        let no_valid_tag = record(
            r#"{"id": "me/x", "tags": ["base_model:finetune:../../etc", "base_model:me/x"],
                "cardData": {"base_model": ["javascript:alert(1)", "ok/fine"]}}"#,
        );
        assert_eq!(ids(&no_valid_tag), ["ok/fine"]);
    }

    #[test]
    fn a_base_lists_its_derivatives_by_relation_most_popular_first() {
        let ft = |id: &str| vec![BaseRef { id: id.into(), relation: Relation::Finetune }];
        let q = vec![BaseRef { id: "org/base".into(), relation: Relation::Quantized }];
        let (a, b, c, d) = (ft("org/base"), ft("org/base"), ft("org/base"), ft("elsewhere/base"));
        let members = [
            TreeMember { id: "org/base", popularity: 4, bases: &[], listed: true },
            TreeMember { id: "x/a", popularity: 1, bases: &a, listed: true },
            TreeMember { id: "x/b", popularity: 2, bases: &b, listed: true },
            TreeMember { id: "x/hidden", popularity: 3, bases: &c, listed: false },
            TreeMember { id: "x/q", popularity: 1, bases: &q, listed: true },
            TreeMember { id: "x/d", popularity: 1, bases: &d, listed: true },
        ];
        let index = TreeIndex::build(&members);
        let base = index.block("org/base", &[]);
        let groups: Vec<(Relation, usize, Vec<&str>)> =
            base.derivatives.iter().map(|g| (g.relation, g.count, g.models.iter().map(|m| m.id.as_str()).collect())).collect();
        assert_eq!(groups, [(Relation::Finetune, 2, vec!["x/b", "x/a"]), (Relation::Quantized, 1, vec!["x/q"])]);
        // Back from the derivative: its base is on the site; the other is not.
        assert_eq!(index.block("x/a", &a).bases, [BaseInBlock { id: "org/base".into(), relation: Relation::Finetune, in_site: true }]);
        assert!(!index.block("x/d", &d).bases[0].in_site);
        assert!(index.block("x/q", &[]).is_empty());
    }

    #[test]
    fn a_hidden_base_is_not_linked_as_on_the_site() {
        let named = vec![BaseRef { id: "acme/secret".into(), relation: Relation::Finetune }];
        let members = [
            TreeMember { id: "acme/secret", popularity: 0, bases: &[], listed: false },
            TreeMember { id: "x/public", popularity: 1, bases: &named, listed: true },
        ];
        let index = TreeIndex::build(&members);
        let block = index.block("x/public", &named);
        assert_eq!(block.bases, [BaseInBlock { id: "acme/secret".into(), relation: Relation::Finetune, in_site: false }]);
        // Its own page still lists what names it.
        assert_eq!(index.block("acme/secret", &[]).derivatives[0].models[0].id, "x/public");
    }
}
