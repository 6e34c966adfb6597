//! The pages that list models: the home page, the task, library and
//! namespace listings (each cut into numbered pages) and the indexes of
//! tasks, libraries and namespaces.
//!
//! A listing page gets only what it shows: its rows, its place among the
//! listing's pages, and the listing's model count on its first page alone.
//! The build decides from these values whether a page changed (see the site
//! crate's `listings`), so a template can use anything it is given.

use serde::Serialize;

use crate::pages::{LibraryLink, ModelSummary, SiteInfo, TaskLink};
use crate::templates::{TemplateError, Templates};

/// Where a listing page stands among its listing's pages, and its links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pager {
    /// 1-based.
    pub page: usize,
    pub pages: usize,
    pub previous: Option<String>,
    pub next: Option<String>,
    /// The pages linked, in order (the current one included).
    pub links: Vec<PagerLink>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PagerLink {
    pub number: usize,
    pub url: String,
    pub current: bool,
    /// Pages are left out between this link and the one before.
    pub gap_before: bool,
}

/// One page of a listing of models.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ModelListingPage<'a> {
    /// This page's rows, most downloaded first.
    pub models: &'a [&'a ModelSummary],
    /// How many models the whole listing has: on its first page only, since
    /// a count on every page would change them all whenever a model is added.
    pub model_count: Option<usize>,
    pub pager: &'a Pager,
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

/// The title of page `pager.page` of a listing called `name`.
fn listing_title(name: &str, pager: &Pager) -> String {
    if pager.page == 1 {
        name.to_owned()
    } else {
        format!("{name} · page {}", pager.page)
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
    let title = listing_title(&library.label, page.pager);
    templates.render(
        "library.html",
        minijinja::context! { site, library, models => page.models, model_count => page.model_count, pager => page.pager, page_title => title },
    )
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
    let title = listing_title(&task.name, page.pager);
    templates.render(
        "task.html",
        minijinja::context! { site, task, models => page.models, model_count => page.model_count, pager => page.pager, page_title => title },
    )
}

/// Renders a page of `<namespace>/`: an author's or organisation's models.
pub fn render_namespace_page(
    templates: &Templates,
    site: &SiteInfo,
    namespace: &str,
    page: &ModelListingPage<'_>,
) -> Result<String, TemplateError> {
    let title = listing_title(namespace, page.pager);
    templates.render(
        "namespace.html",
        minijinja::context! { site, namespace, models => page.models, model_count => page.model_count, pager => page.pager, page_title => title },
    )
}

/// Renders a page of `namespaces/`: namespaces by name with their model
/// counts; `namespace_count` on the first page only.
pub fn render_namespaces_page(
    templates: &Templates,
    site: &SiteInfo,
    namespaces: &[NamespaceListing],
    namespace_count: Option<usize>,
    pager: &Pager,
) -> Result<String, TemplateError> {
    let title = listing_title("Namespaces", pager);
    templates.render("namespaces.html", minijinja::context! { site, namespaces, namespace_count, pager, page_title => title })
}

/// Renders the home page: the most downloaded models (what visitors see
/// without JavaScript) and the search island.
pub fn render_index_page(
    templates: &Templates,
    site: &SiteInfo,
    top_models: &[&ModelSummary],
    model_count: usize,
) -> Result<String, TemplateError> {
    templates.render("index.html", minijinja::context! { site, models => top_models, model_count, page_title => &site.title })
}
