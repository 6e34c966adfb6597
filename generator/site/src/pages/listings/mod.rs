//! Stage 8 of a build (listings): every file that lists models, as plain data first
//! ([`ListingFile`], in [`file`]: a path, a key, and how to make its bytes),
//! then written ([`write`]). A key is a hash of everything the file is made from, so a
//! rebuild renders and writes only the files whose key changed, and removes
//! those no longer listed; the manifest keeps the keys between builds.
//!
//! Two rules keep a day of hub changes (every model's downloads moved, a
//! few models added, removed or edited) from rewriting much of the site:
//! - Downloads and likes appear only in files meant to follow them: the
//!   stats files ([`stats`]), the front pages and home page (the most
//!   downloaded), the search's tops and ranked listings. Every other
//!   listing is by name and shows no figure.
//! - Lists by name are cut into pages at content-defined boundaries and
//!   named by their first entry ([`keyed`]), so adding or removing a model
//!   changes a page or two, not every page after it.
//!
//! The files, all cut so that none grows with the hub past a bounded size
//! (see [`ListingSettings`](crate::settings::ListingSettings)):
//! - [`html`]: the home page, the task, library and namespace listings,
//!   the namespace index, the task and library indexes and the 404 page;
//!   [`folders`] says where each listing's pages go and what they link;
//! - [`sitemap`]: `sitemap.xml`, a sitemap index once one file is not
//!   enough, and `robots.txt`, which points to it;
//! - [`api`]: `api/libraries.json`, `api/tasks.json` and their pages of ids;
//! - [`search`]: the search island's files;
//! - [`stats`]: every model's downloads and likes;
//! - [`feeds`]: the change feeds (Atom) of the site, each task and each
//!   namespace, which change only when a model is added or its
//!   `lastModified` moves.
//!
//! Listings take models by name ([`groups::by_name`]); [`Groups`] (in
//! [`groups`]) sorts them into tasks, libraries, namespaces,
//! task-and-library pairs, tags and facet values once for all of them
//! (which model is in which group is [`membership`]). What a build keeps
//! for the next, so that a build which changes a few models of a million
//! need not sort every model into its groups, hash its row or tokenise its
//! words again, is [`carried`] (in the compact form of [`compact`]).
//!
//! This module only gathers the files; the pieces every kind of file shares
//! ([`file`], [`groups`], [`keyed`], [`folders`]) sit below the kinds, so
//! no kind imports another.

pub mod api;
pub mod carried;
pub mod compact;
pub mod feeds;
pub mod file;
pub mod folders;
pub mod groups;
pub mod html;
pub mod keyed;
pub mod membership;
pub mod search;
pub mod sitemap;
pub mod stats;
pub mod write;

use std::sync::Arc;

use modelpages_record::ModelSummary;

pub use file::{KeyHasher, ListingError, ListingFile, ListingGroup};
pub use groups::{by_name, Groups, ListingInput};

/// Every listing file of the site, from its models, in groups (see
/// [`ListingGroup`]), but the sitemaps ([`sitemap_group`]), which list
/// the pages the others made. `with_pages` are every model with a page,
/// hidden ones too (the stats files hold them), by name.
pub fn listing_groups<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    search: &'a search::SearchFiles,
    with_pages: Arc<Vec<&'a ModelSummary>>,
) -> Vec<ListingGroup<'a>> {
    // Side by side: at hub scale there are a hundred thousand groups, each
    // printed and named.
    let ((mut all, api), ((search, stats), feeds)) = rayon::join(
        || rayon::join(|| html::html_files(input, groups), || api::api_groups(input, groups)),
        || rayon::join(|| rayon::join(|| search.files(input, groups), || stats::stats_groups(input, with_pages)), || feeds::feed_files(input, groups)),
    );
    all.extend(api);
    all.extend(search);
    all.extend(stats);
    all.extend(feeds);
    all
}

/// The sitemaps and `robots.txt`, made every build: `listed` are the paths
/// of every other listing file (its pages are those named `index.html`),
/// `models` the model pages' part ([`sitemap::model_sitemaps`]).
pub fn sitemap_group<'a, 'p>(input: &'a ListingInput<'a>, listed: impl Iterator<Item = &'p str>, models: sitemap::ModelSitemaps) -> ListingGroup<'a> {
    let pages: Vec<String> = listed.filter_map(|path| path.strip_suffix("index.html")).map(str::to_owned).collect();
    ListingGroup::always("sitemaps", move || sitemap::sitemap_files(input, pages, models))
}
