//! The modelpages build: turns a folder of model records into a static site.
//!
//! [`build_site`] runs the stages in order: [`site_folder`] makes sure the
//! output folder may be written at all, [`corpus`] loads and validates the
//! records, the render crate turns each into HTML, [`listings`] makes every
//! file that lists models (listing pages, sitemaps, API listings and the
//! search files of [`search`]), and [`output`] writes the pages into a
//! staging folder that replaces the old site in one step.

pub mod api;
pub mod assets;
mod build;
pub mod changes;
pub mod deployable;
pub mod card_files;
pub mod corpus;
pub mod gguf;
mod libraries;
pub mod listings;
pub mod progress;
pub mod search;
pub mod settings;
pub mod tasks;
pub mod output;
pub mod manifest;
mod journal;
mod nofollow;
mod plan;
mod read_ahead;
mod writer;
mod model_files;
mod model_notes;
mod model_tree;
pub mod site_folder;
pub mod notebook;

pub use build::{build_site, check_models, BuildError, BuildOptions, BuildReport, CheckOptions, CheckReport};
pub use listings::write::ListingCounts;
pub use corpus::{load_corpus, Corpus, RESERVED_NAMESPACES};
pub use progress::{NoProgress, Progress};
pub use settings::{CardImages, ListingSettings, SettingsError, SiteSettings, MAX_LISTING_FILE_BYTES, SETTINGS_FILE};
