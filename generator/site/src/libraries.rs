//! The library pages: `libraries/index.html` and one page per library.

use std::collections::BTreeMap;

use modelpages_render::{render_libraries_page, render_library_page, LibraryLink, LibraryListing, ModelSummary, SiteInfo, Templates};
use modelpages_snippets::{Catalogue, Library, SnippetEngine};

use crate::build::BuildError;
use crate::writer::SiteWriter;

/// Models a library or task page lists (the most downloaded); a page listing
/// the 45,000 transformers models of a large hub would be megabytes, and the
/// search, linked from the page, covers them all.
pub const LISTING_PAGE_MODELS: usize = 100;

/// How pages link to `library`.
pub fn library_link(library: &Library, site: &SiteInfo) -> LibraryLink {
    LibraryLink {
        key: library.key.clone(),
        label: library.pretty_label.clone(),
        page_url: format!("{}libraries/{}/", site.base_path, library.key),
        repo_url: library.repo_url.clone(),
        docs_url: library.docs_url.clone(),
    }
}

/// Writes the listing of every catalogue library and a page for each, listing
/// its models (`summaries` are in index order, so each page is too).
pub fn write_library_pages(
    out: &SiteWriter,
    templates: &Templates,
    site: &SiteInfo,
    catalogue: &Catalogue,
    snippets: &SnippetEngine,
    summaries: &[&ModelSummary],
) -> Result<(), BuildError> {
    let mut by_library: BTreeMap<&str, Vec<&ModelSummary>> = BTreeMap::new();
    for summary in summaries {
        if let Some(key) = summary.library.as_deref() {
            by_library.entry(key).or_default().push(summary);
        }
    }
    let mut listings = Vec::with_capacity(catalogue.libraries().len());
    for library in catalogue.libraries() {
        let link = library_link(library, site);
        let models = by_library.get(library.key.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let html = render_library_page(templates, site, &link, &models[..models.len().min(LISTING_PAGE_MODELS)], models.len())?;
        out.write_listing(&format!("libraries/{}/index.html", library.key), html.as_bytes())?;
        listings.push(LibraryListing { library: link, has_snippets: snippets.has_snippets(&library.key), model_count: models.len() });
    }
    out.write_listing("libraries/index.html", render_libraries_page(templates, site, &listings)?.as_bytes())?;
    Ok(())
}
