//! How pages link to a library; the library pages are made by
//! `listings::html`.

use modelpages_render::{LibraryLink, SiteInfo};
use modelpages_snippets::Library;

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
