//! Stage 3 of a build: every file that lists models, as plain data first
//! ([`ListingFile`], in [`file`]: a path, a key, and how to make its bytes),
//! then written ([`write`]). A key is a hash of everything the file is made from, so a
//! rebuild renders and writes only the files whose key changed, and removes
//! those no longer listed; the manifest keeps the keys between builds.
//!
//! The files, all cut so that none grows with the hub past a bounded size
//! (see [`ListingSettings`]):
//! - [`html`]: the home page, the task, library and namespace listings in
//!   numbered pages (`tasks/<key>/`, `tasks/<key>/page/2/`, `<namespace>/`,
//!   `<namespace>/-/page/2/`), the namespace index and the task and library
//!   indexes and the 404 page; [`folders`] says where each listing's pages
//!   go, [`pager`] which pages each page links to;
//! - [`sitemap`]: `sitemap.xml`, a sitemap index once one file is not
//!   enough, and `robots.txt`, which points to it;
//! - [`api`]: `api/libraries.json`, `api/tasks.json` and their paged id lists;
//! - [`search`]: the search island's files.
//!
//! Every listing takes models in listing order: most downloaded first, the
//! id breaking ties. [`Groups`] (in [`groups`]) sorts them into tasks,
//! libraries, namespaces and task-and-library pairs once for all of them.
//!
//! This module only gathers the files; the pieces every kind of file shares
//! ([`file`], [`groups`], [`folders`], [`pager`]) sit below the kinds, so
//! no kind imports another.

pub mod api;
pub mod file;
pub mod folders;
pub mod groups;
pub mod html;
pub mod pager;
pub mod search;
pub mod sitemap;
pub mod write;

pub use file::{KeyHasher, ListingError, ListingFile};
pub use groups::{Groups, ListingInput};

/// Every listing file of the site, from its models.
pub fn listing_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, search: &'a search::SearchFiles) -> Vec<ListingFile<'a>> {
    let mut files = html::html_files(input, groups);
    files.extend(sitemap::sitemap_files(input, groups));
    files.extend(api::api_files(input, groups));
    files.extend(search.files(input, groups));
    files
}
