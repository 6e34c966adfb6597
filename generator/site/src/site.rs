//! The site a build makes, loaded once before any model is read: its
//! settings (checked), what its sources give (page templates, hashed
//! assets), and the engines every stage shares (examples, highlighting,
//! the task catalogue).
//!
//! Every stage of `build` and of `check` takes a [`Site`]; none loads a
//! template or reads a setting of its own, so the two commands cannot
//! differ in what they make of the same inputs.

use std::path::Path;

use modelpages_render::{Highlighter, SiteInfo, Templates};

use modelpages_record::ModelSummary;
use modelpages_snippets::{InferenceSettings, SnippetEngine};

use crate::assets::{collect_assets, Assets};
use crate::base_url::BaseUrl;
use crate::error::BuildError;
use crate::pages::listings::ListingInput;
use crate::pages::tasks::TaskCatalogue;
use crate::site_sources::SiteSources;
use crate::settings::{CardImages, ListingSettings, SiteSettings};

/// What every stage of a build reads (see the module's overview).
pub(crate) struct Site {
    pub(crate) base_url: BaseUrl,
    /// The site's title and paths, as every page shows them.
    pub(crate) info: SiteInfo,
    pub(crate) templates: Templates,
    pub(crate) assets: Assets,
    pub(crate) snippets: SnippetEngine,
    pub(crate) tasks: TaskCatalogue,
    pub(crate) highlighter: Highlighter,
    /// Where hosted-inference examples send requests, and which providers
    /// they name.
    pub(crate) inference: InferenceSettings,
    /// Whether cards show `https:` images (`card_images`).
    pub(crate) remote_images: bool,
    /// How listings, search files, sitemaps and stats files are cut.
    pub(crate) listings: ListingSettings,
}

impl Site {
    /// Checks `settings` and loads the templates and assets of `site_src`:
    /// an error here stops the build before anything is written.
    pub(crate) fn load(site_src: &Path, settings: &SiteSettings) -> Result<Site, BuildError> {
        let base_url = BaseUrl::parse(&settings.base_url)?;
        let templates = Templates::load(&SiteSources::new(site_src).templates())?;
        let assets = collect_assets(site_src)?;
        let info = SiteInfo {
            title: settings.title.clone(),
            stylesheet: format!("{}{}", base_url.path(), assets.stylesheet),
            script: assets.script.as_ref().map(|s| format!("{}{s}", base_url.path())),
            base_path: base_url.path().to_owned(),
        };
        Ok(Site {
            base_url,
            info,
            templates,
            assets,
            snippets: SnippetEngine::new(),
            tasks: TaskCatalogue::builtin(),
            highlighter: Highlighter::new(),
            inference: settings.inference(),
            remote_images: settings.card_images == CardImages::Remote,
            listings: settings.listings.clone(),
        })
    }

    /// What the listings of `models` (listed ones, by name) are made from.
    pub(crate) fn listing_input<'a>(&'a self, models: &'a [&'a ModelSummary]) -> ListingInput<'a> {
        ListingInput {
            models,
            templates: &self.templates,
            site: &self.info,
            base_url: self.base_url.as_str(),
            settings: &self.listings,
            tasks: &self.tasks,
            snippets: &self.snippets,
        }
    }
}
