//! What a build writes from the models: every file of a model's own (its
//! API file, notebook, the files its card copies, its GGUF section and
//! notes) and every file that lists models.
//!
//! - Per model: [`model_files`] gathers a model's files beside its page
//!   (the page and its Markdown twin `index.md` come from the render
//!   crate): [`api`] (its JSON API file) and [`notebook`]; [`card_files`] copies what
//!   its card refers to; [`gguf`] reads the GGUF files beside its record for
//!   the local-apps section; [`model_notes`] says what was left out;
//!   [`model_tree`] finds the models whose family tree changed.
//! - Listings: [`listings`] makes every file that lists models (pages,
//!   sitemaps, API listings, the search island's files), with the
//!   catalogues' links ([`libraries`], [`tasks`]).
//! - The site itself: [`llms_txt`], `/llms.txt` for agents.
//!
//! Files are handed to the store (`crate::store`) as paths and bytes.

pub mod api;
pub mod card_files;
pub mod gguf;
pub(crate) mod libraries;
pub mod listings;
pub mod llms_txt;
pub(crate) mod model_files;
pub(crate) mod model_notes;
pub(crate) mod model_tree;
pub mod notebook;
pub mod tasks;
