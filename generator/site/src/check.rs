//! `modelpages check`: everything a full build does but write. It runs the
//! build's own stages ([`crate::build`]) on the same inputs, with a writer
//! that keeps nothing: the same survey and layout checks, reading and
//! parsing, every model's examples, page (model tree included), API file
//! and notebook, and every listing file, made in memory and dropped. So a
//! model a build would leave out is reported here too, with the same error,
//! and a clean check promises a clean build.

use std::path::PathBuf;

use modelpages_record::RecordError;

use crate::build::{render_models, write_listings, Models};
use crate::error::BuildError;
use crate::pages::model_tree::TreeScope;
use crate::progress::NoProgress;
use crate::settings::SiteSettings;
use crate::site::Site;
use crate::stage_timer::StageTimer;
use crate::store::manifest::Manifest;
use crate::store::plan::{plan_build, survey_models, BuildPlan};
use crate::store::writer::SiteWriter;

/// What `modelpages check` reads: a build's inputs, without an output.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub models_dir: PathBuf,
    pub site_src: PathBuf,
    pub settings: SiteSettings,
}

/// What a check found: as a build of the same inputs would report it.
#[derive(Debug, Default)]
pub struct CheckReport {
    /// Models that would be built.
    pub built: usize,
    /// One error per model that would be left out, sorted by path.
    pub errors: Vec<RecordError>,
    /// The notes a build would print, sorted.
    pub notes: Vec<String>,
}

/// Checks the models of `options` as a full build of them would.
pub fn check_models(options: &CheckOptions) -> Result<CheckReport, BuildError> {
    let timer = StageTimer::from_env();
    let site = Site::load(&options.site_src, &options.settings)?;
    let survey = survey_models(&options.models_dir).map_err(BuildError::Models)?;
    let BuildPlan { read, errors, .. } = plan_build(survey, None).expect("no manifest, nothing to decode");
    let writer = SiteWriter::nowhere();
    let manifest = Manifest::new(String::new(), 0);
    let mut models = Models { manifest, errors, rendered: 0, rows_changed: true, manifest_path: PathBuf::new() };
    render_models(&site, &writer, read, &TreeScope::Whole, &mut models, &options.models_dir, &NoProgress, &timer)?;
    let notes = models.notes();
    write_listings(&site, &writer, &mut models, None, &timer)?;
    let Models { manifest, mut errors, .. } = models;
    errors.sort_by(|a, b| a.path().cmp(b.path()));
    Ok(CheckReport { built: manifest.len(), errors, notes })
}
