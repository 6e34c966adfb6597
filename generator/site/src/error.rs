//! The one error that stops a whole build: a broken template, asset, output
//! folder or base URL, or a models folder that cannot be read. One bad model
//! never does (it is reported and left out; see `build`), so this type has no
//! variant for it.
//!
//! It sits below the pipeline (`build`) and above what the pipeline calls,
//! so each stage's own error (a listing file's, the store's) turns into it
//! with `?` and none of them knows of it.

use modelpages_record::RecordError;
use modelpages_render::TemplateError;

use crate::assets::AssetError;
use crate::base_url::BaseUrlError;
use crate::pages::listings::ListingError;
use crate::store::output::OutputError;

/// A build that could not produce a site at all; the previous output is kept.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("models folder {0}")]
    Models(RecordError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Asset(#[from] AssetError),
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The previous build's manifest, read in part when the build began,
    /// did not decode further on.
    #[error("the previous build's manifest {}: {source} (delete it, or build with --full)", path.display())]
    Manifest { path: std::path::PathBuf, source: std::io::Error },
    #[error(transparent)]
    BaseUrl(#[from] BaseUrlError),
}

impl From<ListingError> for BuildError {
    fn from(err: ListingError) -> BuildError {
        match err {
            ListingError::Template(err) => BuildError::Template(err),
            ListingError::Output(err) => BuildError::Output(err),
        }
    }
}
