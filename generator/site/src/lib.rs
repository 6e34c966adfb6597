//! The modelpages build: turns a folder of model records into a static site.
//!
//! [`build_site`] runs the stages in order: [`site_folder`] makes sure the
//! output folder may be written at all, [`corpus`] loads and validates the
//! records, the render crate turns each into HTML, [`listings`] makes every
//! file that lists models (listing pages, sitemaps, API listings and the
//! search files of [`search`]), and [`output`] writes the pages into a
//! staging folder that replaces the old site in one step.
//!
//! The modules stand in layers, each using only those below it: `check`
//! (the build's stages, writing nothing), `build` (the pipeline, a function
//! per stage), `model_renderer` (one model), `site` (what every stage
//! reads, loaded once), `error` ([`BuildError`]), `pages` (what is written
//! from the models), [`settings`], `store` (what is kept on disk and how it
//! is written safely), then [`assets`], [`atomic_file`] (a small file
//! replaced whole, synced), `base_url` ([`BaseUrl`]), [`changed_list`]
//! (`build --changed`),
//! [`content_types`] (the media type of each kind of site file, for `serve`
//! and `deploy`), [`corpus`], [`progress`] and [`site_sources`] (every
//! path into `site-src/`).
//! ARCHITECTURE.md has the map.

mod base_url;
mod build;
mod check;
pub mod changed_list;
pub mod content_types;
mod error;
mod model_renderer;
mod stage_timer;
pub mod assets;
pub mod atomic_file;
pub mod corpus;
mod pages;
pub mod progress;
pub mod settings;
mod site;
pub mod site_sources;
mod store;

// The crate's public paths, as they were before the modules were grouped.
pub use pages::listings::search;
pub use pages::{api, card_files, gguf, listings, notebook, tasks};
pub use store::{changes, deployable, destination_folder, manifest, output, site_folder};

pub use changed_list::{parse_changed_list, read_changed_list, ChangedListError, MAX_LIST_BYTES, MAX_LIST_LINES};
pub use base_url::{BaseUrl, BaseUrlError};
pub use build::{build_site, BuildOptions, BuildReport};
pub use check::{check_models, CheckOptions, CheckReport};
pub use listings::write::ListingCounts;
pub use error::BuildError;
pub use corpus::{load_corpus, Corpus, RESERVED_NAMESPACES};
pub use progress::{NoProgress, Progress};
pub use site_sources::{SiteSources, DEFAULT_SITE_SOURCES};
pub use settings::{CardImages, ListingSettings, SettingsError, SettingsSource, SiteSettings, MAX_LISTING_FILE_BYTES, SETTINGS_FILE};
