//! Usage examples for model records.
//!
//! Pure by design: [`SnippetEngine`] takes a [`ModelRecord`] and returns
//! [`Snippet`]s, with templates and the catalogue compiled into the binary.
//! That keeps it fast, easy to test and usable outside the site build.
//!
//! [`ModelRecord`]: modelpages_record::ModelRecord

mod body;
mod cache;
mod catalogue;
mod engine;
pub mod escape;
mod filters;
pub mod inference;
mod language;
pub mod local_apps;
pub mod sample;
mod substituted;
mod template_set;
mod transformers_class;

pub use catalogue::{Catalogue, Library};
pub use engine::{is_comment_only, LibraryExamples, Snippet, SnippetEngine};
pub use language::Language;
pub use template_set::SnippetError;
pub use inference::{InferenceExamples, InferenceOptions, InferenceSettings, InferenceSnippet};
pub use local_apps::{LocalApp, LocalAppExample, LocalAppExamples, LocalAppKind};
