//! The listing pages: the home page, every task, library and namespace
//! listing cut into numbered pages, the namespace index (namespaces by name,
//! in pages too), the task and library indexes and the 404 page.
//!
//! Page 1 of a listing is its folder (`tasks/text-generation/`), page n is
//! `page/n/` inside it; a namespace's pages are `<namespace>/-/page/n/`,
//! since a model may be called `page` but never `-`. Each page links the
//! others through [`pager`], so every model is a few plain links from the
//! home page (home, namespaces, a page of them, a namespace, the model).

use modelpages_render::{
    render_index_page, render_libraries_page, render_library_page, render_namespace_page, render_namespaces_page,
    render_not_found_page, render_task_page, render_tasks_page, LibraryListing, ModelListingPage, ModelSummary,
    NamespaceListing, TaskListing,
};

use super::file::{KeyHasher, ListingFile};
use super::folders::PagedFolder;
use super::groups::{Groups, ListingInput};
use super::pager::{page_count, pager};
use crate::pages::libraries::library_link;

/// What a model listing is of.
#[derive(Clone)]
enum Subject {
    Task(modelpages_render::TaskLink),
    Library(modelpages_render::LibraryLink),
    Namespace(String),
}

impl Subject {
    fn name(&self) -> String {
        match self {
            Subject::Task(t) => format!("task {}", t.key),
            Subject::Library(l) => format!("library {}", l.key),
            Subject::Namespace(ns) => format!("namespace {ns}"),
        }
    }
}

/// The pages of every listing, and the site's other small pages.
pub fn html_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingFile<'a>> {
    let ListingInput { templates, site, models, .. } = *input;
    let mut files = Vec::new();
    // The 404 page depends on nothing but the templates and settings (a
    // change to those renders everything anyway).
    files.push(ListingFile::lazy("404.html".into(), KeyHasher::new("404").finish(), move || {
        Ok(render_not_found_page(templates, site)?.into_bytes())
    }));

    let top = (0..models.len().min(input.settings.page_size) as u32).collect::<Vec<_>>();
    let mut key = KeyHasher::new("home");
    key.num(models.len() as u64);
    groups.rows_key(&mut key, &top);
    files.push(ListingFile::lazy("index.html".into(), key.finish(), move || {
        let top: Vec<&ModelSummary> = top.iter().map(|&r| models[r as usize]).collect();
        Ok(render_index_page(templates, site, &top, models.len())?.into_bytes())
    }));

    let tasks: Vec<TaskListing> = groups
        .tasks
        .iter()
        .map(|(task, ranks)| TaskListing {
            task: input.tasks.link(&task.key, site).expect("a catalogue task"),
            modality: task.modality.clone(),
            model_count: ranks.len(),
        })
        .collect();
    let libraries: Vec<LibraryListing> = groups
        .libraries
        .iter()
        .map(|(library, ranks)| LibraryListing {
            library: library_link(library, site),
            has_snippets: input.snippets.has_snippets(&library.key),
            model_count: ranks.len(),
        })
        .collect();
    let mut tasks_key = KeyHasher::new("tasks");
    for t in &tasks {
        tasks_key.str(&t.task.key).num(t.model_count as u64);
    }
    let mut libraries_key = KeyHasher::new("libraries");
    for l in &libraries {
        libraries_key.str(&l.library.key).num(l.model_count as u64);
    }
    files.push(ListingFile::lazy("tasks/index.html".into(), tasks_key.finish(), move || {
        Ok(render_tasks_page(templates, site, &tasks)?.into_bytes())
    }));
    files.push(ListingFile::lazy("libraries/index.html".into(), libraries_key.finish(), move || {
        Ok(render_libraries_page(templates, site, &libraries)?.into_bytes())
    }));

    for (task, ranks) in &groups.tasks {
        let link = input.tasks.link(&task.key, site).expect("a catalogue task");
        model_listing(input, groups, Subject::Task(link), ranks, PagedFolder::task(&task.key), &mut files);
    }
    for (library, ranks) in &groups.libraries {
        model_listing(input, groups, Subject::Library(library_link(library, site)), ranks, PagedFolder::library(&library.key), &mut files);
    }
    for (namespace, ranks) in &groups.namespaces {
        model_listing(input, groups, Subject::Namespace((*namespace).to_owned()), ranks, PagedFolder::namespace(namespace), &mut files);
    }
    namespace_index(input, groups, &mut files);
    files
}

/// The pages of one model listing.
fn model_listing<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    subject: Subject,
    ranks: &'a [u32],
    folder: PagedFolder,
    files: &mut Vec<ListingFile<'a>>,
) {
    let per_page = input.settings.page_size;
    let pages = page_count(ranks.len(), per_page);
    for page in 1..=pages {
        let rows = &ranks[((page - 1) * per_page).min(ranks.len())..(page * per_page).min(ranks.len())];
        let model_count = (page == 1).then_some(ranks.len());
        let mut key = KeyHasher::new("model listing page");
        key.str(&subject.name()).num(page as u64).num(pages as u64).opt_num(model_count.map(|c| c as u64));
        groups.rows_key(&mut key, rows);
        let (subject, folder) = (subject.clone(), folder.clone());
        let path = format!("{}index.html", folder.folder(page));
        files.push(ListingFile::lazy(path, key.finish(), move || {
            let ListingInput { templates, site, models, .. } = *input;
            let models: Vec<&ModelSummary> = rows.iter().map(|&r| models[r as usize]).collect();
            let pager = pager(page, pages, |n| format!("{}{}", site.base_path, folder.folder(n)));
            let listing = ModelListingPage { models: &models, model_count, pager: &pager };
            let html = match &subject {
                Subject::Task(task) => render_task_page(templates, site, task, &listing)?,
                Subject::Library(library) => render_library_page(templates, site, library, &listing)?,
                Subject::Namespace(ns) => render_namespace_page(templates, site, ns, &listing)?,
            };
            Ok(html.into_bytes())
        }));
    }
}

/// `namespaces/`: every namespace by name with its model count, in pages.
fn namespace_index<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, files: &mut Vec<ListingFile<'a>>) {
    let per_page = input.settings.page_size;
    let all = &groups.namespaces;
    let pages = page_count(all.len(), per_page);
    let folder = PagedFolder::namespace_index();
    for page in 1..=pages {
        let rows = &all[((page - 1) * per_page).min(all.len())..(page * per_page).min(all.len())];
        let namespace_count = (page == 1).then_some(all.len());
        let mut key = KeyHasher::new("namespace index page");
        key.num(page as u64).num(pages as u64).opt_num(namespace_count.map(|c| c as u64));
        for (name, ranks) in rows {
            key.str(name).num(ranks.len() as u64);
        }
        let folder = folder.clone();
        files.push(ListingFile::lazy(format!("{}index.html", folder.folder(page)), key.finish(), move || {
            let ListingInput { templates, site, .. } = *input;
            let rows: Vec<NamespaceListing> = rows
                .iter()
                .map(|(name, ranks)| NamespaceListing {
                    name: (*name).to_owned(),
                    url: format!("{}{}", site.base_path, PagedFolder::namespace(name).first),
                    model_count: ranks.len(),
                })
                .collect();
            let pager = pager(page, pages, |n| format!("{}{}", site.base_path, folder.folder(n)));
            Ok(render_namespaces_page(templates, site, &rows, namespace_count, &pager)?.into_bytes())
        }));
    }
}
