//! Model records for modelpages: where they live on disk, how they are parsed
//! and validated, and what a model card's front matter says.
//!
//! This crate reads files but renders nothing; every later stage of a build
//! works on the [`LoadedModel`] values it returns.

mod card;
mod card_meta;
mod counts;
pub mod hub_fields;
mod id;
mod load;
mod record;
mod rows;
mod shown;
mod yaml_fields;

pub use card::{FrontMatterError, ModelCard, EXPANSION_FACTOR, MIN_EXPANSION_LIMIT};
pub use card_meta::{merge_front_matter, scalar_text, AccessRequest, CardMeta};
pub use counts::{split_counts, stable_bytes, CountsSplit};
pub use id::{namespace_of, IdError, ModelId, MAX_ID_LEN, MAX_NAMESPACE_LEN, MAX_NAME_LEN};
pub use load::{
    discover, discover_each, load_model, open_regular_file, parse_model, parse_record, read_record_files, Discovery, LoadedModel, RecordFiles,
    ModelSource, RecordError, CARD_FILE, MAX_CARD_BYTES, MAX_RECORD_BYTES, RECORD_FILE,
};
pub use hub_fields::{EvalResult, Gated, GgufSummary, IgnoredField, Lenient, MetricValue, Safetensors};
pub use rows::{popularity_class, BaseRef, ModelSummary, Relation, SearchFacets, TagList};
pub use record::{ModelRecord, Sibling, TransformersInfo, WidgetExample};
pub use shown::{page_text, printable, reorders_text};
