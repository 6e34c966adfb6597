//! The data each page template receives, and one function per page kind.
//!
//! Everything here is plain data: the site stage builds these values from the
//! loaded models and never hands templates a record directly.

use minijinja::Value;
use modelpages_record::{CardMeta, LoadedModel};
use serde::Serialize;

use crate::highlight::Highlighter;
use crate::markdown::render_card;
use crate::templates::{TemplateError, Templates};

/// Site-wide values every page needs.
#[derive(Clone, Debug, Serialize)]
pub struct SiteInfo {
    pub title: String,
    /// Path prefix of every link, always ending in `/` (e.g. `/` or `/hub/`).
    pub base_path: String,
    /// URL of the hashed stylesheet.
    pub stylesheet: String,
    /// URL of the hashed island bundle, when the islands were built.
    pub script: Option<String>,
}

/// One row of the model listing.
#[derive(Clone, Debug, Serialize)]
pub struct ModelSummary {
    pub id: String,
    pub url: String,
    pub task: Option<String>,
    pub library: Option<String>,
    pub downloads: Option<u64>,
    pub likes: Option<u64>,
}

impl ModelSummary {
    pub fn of(model: &LoadedModel, site: &SiteInfo) -> ModelSummary {
        let record = &model.record;
        ModelSummary {
            id: model.id.to_string(),
            url: model_url(site, model),
            task: record.task().map(str::to_owned),
            library: record.library().map(str::to_owned),
            downloads: record.downloads,
            likes: record.likes,
        }
    }
}

/// Link to a model's page.
pub fn model_url(site: &SiteInfo, model: &LoadedModel) -> String {
    format!("{}{}/", site.base_path, model.id)
}

#[derive(Serialize)]
struct ModelView<'a> {
    id: &'a str,
    namespace: &'a str,
    name: &'a str,
    task: Option<&'a str>,
    library: Option<&'a str>,
    tags: &'a [String],
    downloads: Option<u64>,
    likes: Option<u64>,
    last_modified: Option<&'a str>,
    meta: Option<&'a CardMetaView>,
    /// Sanitised card HTML, marked safe so the template does not escape it again.
    card_html: Option<Value>,
}

#[derive(Serialize)]
struct CardMetaView {
    license: Vec<String>,
    language: Vec<String>,
    datasets: Vec<String>,
    base_model: Vec<String>,
    tags: Vec<String>,
}

impl From<&CardMeta> for CardMetaView {
    fn from(meta: &CardMeta) -> Self {
        CardMetaView {
            license: meta.license.clone(),
            language: meta.language.clone(),
            datasets: meta.datasets.clone(),
            base_model: meta.base_model.clone(),
            tags: meta.tags.clone(),
        }
    }
}

/// Renders a model's page.
pub fn render_model_page(
    templates: &Templates,
    highlighter: &Highlighter,
    site: &SiteInfo,
    model: &LoadedModel,
) -> Result<String, TemplateError> {
    let record = &model.record;
    let meta = model.card.as_ref().map(|c| &c.meta).filter(|m| !m.is_empty()).map(CardMetaView::from);
    let card_html = model
        .card
        .as_ref()
        .filter(|card| !card.body.trim().is_empty())
        .map(|card| Value::from_safe_string(render_card(&card.body, highlighter)));
    let view = ModelView {
        id: model.id.as_str(),
        namespace: model.id.namespace(),
        name: model.id.name(),
        task: record.task(),
        library: record.library(),
        tags: &record.tags,
        downloads: record.downloads,
        likes: record.likes,
        last_modified: record.last_modified.as_deref(),
        meta: meta.as_ref(),
        card_html,
    };
    templates.render("model.html", minijinja::context! { site, model => view, page_title => model.id.as_str() })
}

/// Renders the home page listing every model.
pub fn render_index_page(
    templates: &Templates,
    site: &SiteInfo,
    models: &[ModelSummary],
) -> Result<String, TemplateError> {
    templates.render("index.html", minijinja::context! { site, models, page_title => &site.title })
}

/// Renders the page static hosts serve for unknown paths.
pub fn render_not_found_page(templates: &Templates, site: &SiteInfo) -> Result<String, TemplateError> {
    templates.render("404.html", minijinja::context! { site, page_title => "Page not found" })
}
