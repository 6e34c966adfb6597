//! The pages that list models: the home page, the task, library and
//! namespace listings and the indexes of tasks, libraries and namespaces.
//!
//! A listing is cut by name into pages at content-defined boundaries (the
//! site crate's `listings::keyed`), so adding a model changes one page of it,
//! not every page after it. A task's or library's front page shows its most
//! downloaded models, with their downloads, and links its pages by name; a
//! namespace's front page is its first page by name. Pages by name show no
//! downloads: those move every day, and the pages would move with them.
//!
//! A listing page gets only what it shows: its rows, its links, and the
//! listing's model count on its front page alone. The build decides from
//! these values whether a page changed (see the site crate's `listings`),
//! so a template can use anything it is given.

use serde::Serialize;

use crate::pages::{LibraryLink, SiteInfo, TaskLink};
use modelpages_record::ModelSummary;
use crate::templates::{TemplateError, Templates};

/// A link to a page by name (or an index page): where it is, and the first
/// and last entries it holds, which label it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PageLink {
    pub url: String,
    pub first: String,
    pub last: String,
}

/// A page's links to its neighbours and to the page that lists it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pager {
    pub previous: Option<String>,
    pub next: Option<String>,
    /// The index page, or the front page, that links this one.
    pub up: Option<PageLink>,
}

/// The names a listing shows for the task and library keys of its rows
/// (`text-generation` is "Text Generation", `transformers` "Transformers"),
/// as the model pages and the search show them; a key without a name in the
/// catalogues is shown as it is. Holds every key of the page's rows.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RowLabels {
    pub task: std::collections::BTreeMap<String, String>,
    pub library: std::collections::BTreeMap<String, String>,
}

/// One page of a listing of models.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ModelListingPage<'a> {
    /// The listing's most downloaded models, with their downloads: on a
    /// task's or library's front page only.
    pub top: &'a [&'a ModelSummary],
    /// This page's models, by name.
    pub models: &'a [&'a ModelSummary],
    /// The pages by name (or the index pages) this page links.
    pub pages: &'a [PageLink],
    /// How many models the whole listing has: on its front page only, since
    /// a count on every page would change them all whenever a model is added.
    pub model_count: Option<usize>,
    pub pager: &'a Pager,
    /// What the page holds when it is not the front page: "from a/b".
    pub part: Option<&'a str>,
    /// The stats file of a namespace's models, on its pages: an island
    /// shows their downloads and likes from it and sorts by them.
    pub stats: Option<&'a str>,
    /// The listing's change feed (Atom), which its pages' heads link:
    /// tasks' and namespaces' listings have one.
    pub feed: Option<&'a FeedLink>,
    /// The names of the rows' tasks and libraries.
    pub labels: &'a RowLabels,
}

/// A change feed as a page's head links it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FeedLink {
    pub url: String,
    /// The feed's own title, which its link shows too.
    pub title: String,
}

/// One row of the task listing.
#[derive(Clone, Debug, Serialize)]
pub struct TaskListing {
    pub task: TaskLink,
    pub modality: String,
    pub model_count: usize,
}

/// One row of the library listing.
#[derive(Clone, Debug, Serialize)]
pub struct LibraryListing {
    pub library: LibraryLink,
    pub has_snippets: bool,
    /// Models of this library in the corpus.
    pub model_count: usize,
}

/// One row of the namespace index.
#[derive(Clone, Debug, Serialize)]
pub struct NamespaceListing {
    pub name: String,
    pub url: String,
    pub model_count: usize,
}

/// The title of a page of a listing called `name`.
fn listing_title(name: &str, part: Option<&str>) -> String {
    match part {
        None => name.to_owned(),
        Some(part) => format!("{name} · {part}"),
    }
}

/// Renders `libraries/index.html`: every library in the catalogue.
pub fn render_libraries_page(templates: &Templates, site: &SiteInfo, libraries: &[LibraryListing]) -> Result<String, TemplateError> {
    templates.render("libraries.html", minijinja::context! { site, libraries, page_title => "Libraries" })
}

/// Renders a page of `libraries/<key>/`: the library and its models.
pub fn render_library_page(
    templates: &Templates,
    site: &SiteInfo,
    library: &LibraryLink,
    page: &ModelListingPage<'_>,
) -> Result<String, TemplateError> {
    let title = listing_title(&library.label, page.part);
    templates.render("library.html", minijinja::context! { site, library, listing => page, page_title => title })
}

/// Renders `tasks/index.html`: every task that has models.
pub fn render_tasks_page(templates: &Templates, site: &SiteInfo, tasks: &[TaskListing]) -> Result<String, TemplateError> {
    templates.render("tasks.html", minijinja::context! { site, tasks, page_title => "Tasks" })
}

/// Renders a page of `tasks/<key>/`: the task and its models.
pub fn render_task_page(
    templates: &Templates,
    site: &SiteInfo,
    task: &TaskLink,
    page: &ModelListingPage<'_>,
) -> Result<String, TemplateError> {
    let title = listing_title(&task.name, page.part);
    templates.render("task.html", minijinja::context! { site, task, listing => page, feed => page.feed, page_title => title })
}

/// Renders a page of `<namespace>/`: an author's or organisation's models.
pub fn render_namespace_page(
    templates: &Templates,
    site: &SiteInfo,
    namespace: &str,
    page: &ModelListingPage<'_>,
) -> Result<String, TemplateError> {
    let title = listing_title(namespace, page.part);
    templates.render("namespace.html", minijinja::context! { site, namespace, listing => page, feed => page.feed, page_title => title })
}

/// One page of the namespace index.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct NamespacesPage<'a> {
    pub namespaces: &'a [NamespaceListing],
    pub pages: &'a [PageLink],
    /// How many namespaces there are: on the front page only.
    pub namespace_count: Option<usize>,
    pub pager: &'a Pager,
    pub part: Option<&'a str>,
}

/// Renders a page of `namespaces/`: namespaces by name with their model counts.
pub fn render_namespaces_page(templates: &Templates, site: &SiteInfo, page: &NamespacesPage<'_>) -> Result<String, TemplateError> {
    let title = listing_title("Namespaces", page.part);
    templates.render("namespaces.html", minijinja::context! { site, listing => page, page_title => title })
}

/// Renders the home page: the most downloaded models (what visitors see
/// without JavaScript), the search island, and in its head the site's
/// change feed.
pub fn render_index_page(
    templates: &Templates,
    site: &SiteInfo,
    top_models: &[&ModelSummary],
    labels: &RowLabels,
    model_count: usize,
    feed: &FeedLink,
) -> Result<String, TemplateError> {
    templates.render("index.html", minijinja::context! { site, models => top_models, labels, model_count, feed, page_title => &site.title })
}

/// A value of a search facet as its listing pages show it (a language, a
/// licence, a provider, a parameter class, a memory class).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FacetLink {
    /// What the facet is: "Language", "Licence", "Provider", "Parameters", "Memory".
    pub kind: String,
    /// The value as shown: `de`, `apache-2.0`, "6B to 9B", "fits in 24 GB, not in 16 GB".
    pub label: String,
    /// Its listing's front page.
    pub page_url: String,
    /// The search filtered by it.
    pub search_url: String,
}

/// The facets' values and their model counts, for `facets/`.
#[derive(Clone, Debug, Serialize)]
pub struct FacetIndexGroup {
    pub kind: String,
    pub values: Vec<(FacetLink, usize)>,
}

/// Renders a page of `facets/<kind>/<value>/`: the value and its models.
pub fn render_facet_page(templates: &Templates, site: &SiteInfo, facet: &FacetLink, page: &ModelListingPage<'_>) -> Result<String, TemplateError> {
    let title = listing_title(&format!("{}: {}", facet.kind, facet.label), page.part);
    templates.render("facet.html", minijinja::context! { site, facet, listing => page, page_title => title })
}

/// Renders `facets/index.html`: every value of every facet, with counts.
pub fn render_facets_page(templates: &Templates, site: &SiteInfo, groups: &[FacetIndexGroup]) -> Result<String, TemplateError> {
    templates.render("facets.html", minijinja::context! { site, groups, page_title => "Languages, licences, providers, sizes and memory" })
}
