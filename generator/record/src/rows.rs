//! What a build keeps of each model between builds, beside the files it
//! wrote: its listing row ([`ModelSummary`]: what every file that lists
//! models shows of it, with its [`SearchFacets`]) and the bases it names
//! ([`BaseRef`]), which the model tree is made from. The site's manifest
//! stores them, so they live in this lowest crate: the manifest's format
//! depends on no renderer. The render crate makes them from a record
//! (`render::model_summary`, `render::base_refs`, `render::search_facets`).

use serde::{Deserialize, Serialize};

/// One row of the model listing.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ModelSummary {
    pub id: String,
    pub url: String,
    pub task: Option<String>,
    pub library: Option<String>,
    pub downloads: Option<u64>,
    pub likes: Option<u64>,
    /// The first tags, for text search.
    pub tags: TagList,
    /// The record's `createdAt`, in seconds since the epoch, when it is a
    /// timestamp (`timestamp`); the change feeds say from it whether a
    /// change added the model.
    pub created: Option<i64>,
    /// The record's `lastModified`, likewise: when the model last changed,
    /// which orders the change feeds.
    pub updated: Option<i64>,
    /// Every tag the model is listed under as a filter (see
    /// `render::filter_tags`): its page's `?tag=` links.
    pub filters: TagList,
    /// What the search's facets filter it by.
    pub facets: SearchFacets,
}

/// A model's first tags in one string, one a line: a hub's build holds a
/// million of these, and one allocation instead of a dozen is half the
/// memory. A tag with a line break of its own is left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct TagList(String);

impl TagList {
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.0.split('\n').filter(|t| !t.is_empty())
    }

    /// The tags as kept, one a line: tells two lists apart as the tags
    /// themselves do (no tag is empty or holds a line break), so a key can
    /// hash it whole, a million times a build, rather than tag by tag.
    pub fn joined(&self) -> &str {
        &self.0
    }
}

impl<S: AsRef<str>> FromIterator<S> for TagList {
    fn from_iter<I: IntoIterator<Item = S>>(tags: I) -> TagList {
        let mut joined = String::new();
        for tag in tags {
            let tag = tag.as_ref();
            if tag.is_empty() || tag.contains('\n') {
                continue;
            }
            if !joined.is_empty() {
                joined.push('\n');
            }
            joined.push_str(tag);
        }
        TagList(joined)
    }
}

/// What the search filters a model by besides its task and library
/// (`render::search_facets` makes them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchFacets {
    /// Language tags, as written (`en`, `de`).
    pub languages: TagList,
    /// Licence ids, without the `license:` of their tags (`mit`).
    pub licenses: TagList,
    /// Providers serving it live (`together`).
    pub providers: TagList,
    /// Its parameter class (index into `render::PARAM_BOUNDS`, or past its end).
    pub params: Option<u8>,
    /// The index in `render::MEMORY_SIZES_GB` of the smallest size its smallest
    /// estimate fits in.
    pub fits: Option<u8>,
}

/// How a model was made from its base.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Relation {
    Finetune,
    Adapter,
    Quantized,
    Merge,
}

impl Relation {
    /// A relation as the Hub's tags and cards spell it.
    pub fn parse(text: &str) -> Option<Relation> {
        match text {
            "finetune" => Some(Relation::Finetune),
            "adapter" => Some(Relation::Adapter),
            "quantized" => Some(Relation::Quantized),
            "merge" => Some(Relation::Merge),
            _ => None,
        }
    }

    /// How a derivative's page names its base ("Fine-tuned from").
    pub fn base_label(self) -> &'static str {
        match self {
            Relation::Finetune => "Fine-tuned from",
            Relation::Adapter => "Adapter for",
            Relation::Quantized => "Quantized from",
            Relation::Merge => "Merged from",
        }
    }

    /// A base's heading for these derivatives: (one, many).
    pub fn derivative_label(self) -> (&'static str, &'static str) {
        match self {
            Relation::Finetune => ("fine-tune", "fine-tunes"),
            Relation::Adapter => ("adapter", "adapters"),
            Relation::Quantized => ("quantized model", "quantized models"),
            Relation::Merge => ("merge", "merges"),
        }
    }
}

/// One base a model names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseRef {
    pub id: String,
    pub relation: Relation,
}

/// A model's popularity class: 0 for no downloads, else one more than the
/// decade of its downloads (1 to 9 downloads is class 1, 10 to 99 class 2).
/// Derivatives are ranked by it rather than by their downloads, which move
/// every day: a base's page changes only when a derivative crosses a decade.
pub fn popularity_class(downloads: u64) -> u8 {
    if downloads == 0 {
        0
    } else {
        downloads.ilog10() as u8 + 1
    }
}

