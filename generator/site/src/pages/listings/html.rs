//! The listing pages: the home page, every task, library, namespace and
//! facet listing (a search facet's value: `facets/<kind>/<value>/`, and
//! `facets/`, which links them all), the namespace index, the task and
//! library indexes and the 404 page.
//!
//! A task's or library's front page (`tasks/<key>/`) shows its
//! `page_size` most downloaded models with their downloads (it changes
//! with them, as the home page does) and, past that many models, links the
//! listing by name: pages cut at content-defined boundaries and named by
//! their first model (see [`folders`](super::folders)), which show no
//! downloads and so change only when a model on them is added, removed or
//! edited. A namespace's front page is its first page by name. So every
//! model is a few plain links from the home page (home, a task, library or
//! namespace, an index page or two, a page of models, the model).
//!
//! The home page and every page of a task's or namespace's listing link
//! that listing's change feed from their heads (see `feeds`; where each
//! feed goes is [`FeedScope`]'s).

use modelpages_render::{render_facet_page, render_facets_page, search_url, FacetIndexGroup, FacetLink, MEMORY_SIZES_GB, PARAM_BOUNDS, render_index_page, render_libraries_page, render_library_page, render_namespace_page, render_namespaces_page, render_not_found_page, render_task_page, render_tasks_page, FeedLink, LibraryListing, ModelListingPage, NamespaceListing, NamespacesPage, Pager, TaskListing};

use modelpages_record::ModelSummary;

use super::file::{KeyHasher, ListingFile, ListingGroup};
use super::folders::{hash_links, paged_files, pages_from_front, stats_path, FeedScope, KeyedFolder, PageFile};
use super::groups::{top_by, FacetGroup, Groups, ListingInput, Ranking};
use super::membership::FacetKind;
use super::keyed::boundary_hash;
use crate::pages::libraries::library_link;

/// What a model listing is of.
#[derive(Clone)]
enum Subject {
    Task(modelpages_render::TaskLink),
    Library(modelpages_render::LibraryLink),
    Namespace(String),
    Facet(FacetLink),
}

impl Subject {
    fn name(&self) -> String {
        match self {
            Subject::Task(t) => format!("task {}", t.key),
            Subject::Library(l) => format!("library {}", l.key),
            Subject::Namespace(ns) => format!("namespace {ns}"),
            Subject::Facet(f) => format!("facet {} {}", f.page_url, f.label),
        }
    }

    /// The change feed its pages link: tasks and namespaces have one.
    fn feed(&self, site: &modelpages_render::SiteInfo) -> Option<FeedLink> {
        let scope = match self {
            Subject::Task(t) => FeedScope::Task(&t.key, &t.name),
            Subject::Library(_) | Subject::Facet(_) => return None,
            Subject::Namespace(ns) => FeedScope::Namespace(ns),
        };
        Some(scope.link(&site.base_path, &site.title))
    }

    fn render(&self, input: &ListingInput<'_>, page: &ModelListingPage<'_>) -> Result<String, modelpages_render::TemplateError> {
        let ListingInput { templates, site, .. } = *input;
        match self {
            Subject::Task(task) => render_task_page(templates, site, task, page),
            Subject::Library(library) => render_library_page(templates, site, library, page),
            Subject::Namespace(ns) => render_namespace_page(templates, site, ns, page),
            Subject::Facet(facet) => render_facet_page(templates, site, facet, page),
        }
    }
}

/// The pages of every listing, a group each, and the site's other small
/// pages, one group made every build.
pub fn html_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingGroup<'a>> {
    let site = input.site;
    let mut listings = vec![ListingGroup::always("site pages", move || site_pages(input, groups))];
    for (task, ranks) in &groups.tasks {
        let link = input.tasks.link(&task.key, site).expect("a catalogue task");
        let front = format!("tasks/{}/", task.key);
        listings.push(ListingGroup::printed(front.clone(), groups.print(ranks), move || {
            ranked_listing(input, groups, Subject::Task(link), ranks, KeyedFolder::task(&task.key), front)
        }));
    }
    for (library, ranks) in &groups.libraries {
        let front = format!("libraries/{}/", library.key);
        let subject = Subject::Library(library_link(library, site));
        listings.push(ListingGroup::printed(front.clone(), groups.print(ranks), move || {
            ranked_listing(input, groups, subject, ranks, KeyedFolder::library(&library.key), front)
        }));
    }
    for (namespace, ranks) in &groups.namespaces {
        let name = format!("namespace listing {namespace}");
        listings.push(ListingGroup::printed(name, groups.print(ranks), move || namespace_listing(input, groups, namespace, ranks)));
    }
    for group in &groups.facets {
        let front = format!("facets/{}/{}/", group.kind.name(), group.file_name());
        let folder = KeyedFolder::facet(group.kind.name(), &group.file_name());
        let link = facet_link(site, group);
        listings.push(ListingGroup::printed(front.clone(), groups.print(&group.ranks), move || {
            ranked_listing(input, groups, Subject::Facet(link), &group.ranks, folder, front)
        }));
    }
    listings
}

/// The pages drawn from every model: the home page, the 404 page, the task
/// and library indexes, `facets/` and the namespace index.
fn site_pages<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingFile<'a>> {
    let ListingInput { templates, site, models, .. } = *input;
    let mut files = Vec::new();
    // The 404 page depends on nothing but the templates and settings (a
    // change to those renders everything anyway).
    files.push(ListingFile::lazy("404.html".into(), KeyHasher::new("404").finish(), move || {
        Ok(render_not_found_page(templates, site)?.into_bytes())
    }));

    let all: Vec<u32> = (0..models.len() as u32).collect();
    let top = top_by(models, &all, Ranking::Downloads, input.settings.page_size);
    let mut key = KeyHasher::new("home");
    key.num(models.len() as u64);
    groups.ranked_key(&mut key, models, &top);
    let feed = FeedScope::Site.link(&site.base_path, &site.title);
    files.push(ListingFile::lazy("index.html".into(), key.finish(), move || {
        let labels = input.labels(&top);
        let top: Vec<&ModelSummary> = top.iter().map(|&r| models[r as usize]).collect();
        Ok(render_index_page(templates, site, &top, &labels, models.len(), &feed)?.into_bytes())
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

    files.push(facets_index(input, groups));
    namespace_index(input, groups, &mut files);
    files
}

/// Parameters as a size is written: 500M, 1B, 12B.
fn params_text(n: u64) -> String {
    if n >= 1_000_000_000 {
        format!("{}B", n / 1_000_000_000)
    } else {
        format!("{}M", n / 1_000_000)
    }
}

/// A facet value's link: what it is called, its pages, its search.
fn facet_link(site: &modelpages_render::SiteInfo, group: &FacetGroup<'_>) -> FacetLink {
    let index = |c: &str| c.parse::<usize>().expect("a class");
    let (kind, label, filter) = match group.kind {
        FacetKind::Language => ("Language", group.value.to_string(), ("language", group.value.to_string())),
        FacetKind::License => ("Licence", group.value.to_string(), ("license", group.value.to_string())),
        FacetKind::Provider => ("Provider", group.value.to_string(), ("provider", group.value.to_string())),
        FacetKind::Params => {
            let c = index(&group.value);
            let label = match (c.checked_sub(1).map(|b| PARAM_BOUNDS[b]), PARAM_BOUNDS.get(c)) {
                (None, Some(high)) => format!("below {}", params_text(*high)),
                (Some(low), Some(high)) => format!("{} to {}", params_text(low), params_text(*high)),
                (Some(low), None) => format!("{} and more", params_text(low)),
                (None, None) => unreachable!("the classes have bounds"),
            };
            ("Parameters", label, ("params", format!("{c}-{c}")))
        }
        FacetKind::Fits => {
            let c = index(&group.value);
            let label = match c.checked_sub(1) {
                None => format!("fits in {} GB", MEMORY_SIZES_GB[c]),
                Some(below) => format!("fits in {} GB, not in {} GB", MEMORY_SIZES_GB[c], MEMORY_SIZES_GB[below]),
            };
            ("Memory", label, ("fits", MEMORY_SIZES_GB[c].to_string()))
        }
    };
    FacetLink {
        kind: kind.into(),
        label,
        page_url: format!("{}facets/{}/{}/", site.base_path, group.kind.name(), group.file_name()),
        search_url: search_url(&site.base_path, filter.0, &filter.1),
    }
}

/// `facets/`, which links every facet value's pages (made as a library's:
/// its most downloaded, then its pages by name).
fn facets_index<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> ListingFile<'a> {
    let site = input.site;
    let mut index: Vec<FacetIndexGroup> = Vec::new();
    let mut key = KeyHasher::new("facets");
    for group in &groups.facets {
        let link = facet_link(site, group);
        key.str(&link.page_url).str(&link.label).num(group.ranks.len() as u64);
        match index.last_mut() {
            Some(last) if last.kind == link.kind => last.values.push((link, group.ranks.len())),
            _ => index.push(FacetIndexGroup { kind: link.kind.clone(), values: vec![(link, group.ranks.len())] }),
        }
    }
    // Most common first within each facet but the classes, which go by size.
    for group in &mut index {
        if group.kind != "Parameters" && group.kind != "Memory" {
            group.values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.label.cmp(&b.0.label)));
        }
    }
    let templates = input.templates;
    ListingFile::lazy("facets/index.html".into(), key.finish(), move || Ok(render_facets_page(templates, site, &index)?.into_bytes()))
}

/// A task's or library's pages: its front page, with its most downloaded
/// models and (past `page_size` of them) links to its pages by name, and
/// those pages.
fn ranked_listing<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    subject: Subject,
    ranks: &'a [u32],
    folder: KeyedFolder,
    front: String,
) -> Vec<ListingFile<'a>> {
    let mut files = Vec::new();
    let models = input.models;
    let page_size = input.settings.page_size;
    let top = top_by(models, ranks, Ranking::Downloads, page_size);
    // Up to a page of models, the front page shows them all.
    let (pages, front_links) = if ranks.len() > page_size {
        let id = |i: usize| models[ranks[i] as usize].id.as_str();
        paged_files(&folder, ranks.len(), &id, &|i| groups.boundary(ranks[i]), page_size, &input.site.base_path, &front)
    } else {
        (Vec::new(), Vec::new())
    };
    let mut key = KeyHasher::new("listing front");
    key.str(&subject.name()).num(ranks.len() as u64);
    groups.ranked_key(&mut key, models, &top);
    hash_links(&mut key, &front_links);
    let front_subject = subject.clone();
    files.push(ListingFile::lazy(format!("{front}index.html"), key.finish(), move || {
        let labels = input.labels(&top);
        let top: Vec<&ModelSummary> = top.iter().map(|&r| models[r as usize]).collect();
        let pager = Pager::default();
        let feed = front_subject.feed(input.site);
        let page = ModelListingPage {
            top: &top,
            models: &[],
            pages: &front_links,
            model_count: Some(ranks.len()),
            pager: &pager,
            part: None,
            stats: None,
            feed: feed.as_ref(),
            labels: &labels,
        };
        Ok(front_subject.render(input, &page)?.into_bytes())
    }));
    for page in pages {
        files.push(model_page(input, groups, &subject, ranks, page, None, None));
    }
    files
}

/// A namespace's pages: the first by name is its front page, with its
/// model count and links to the others.
fn namespace_listing<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    namespace: &'a str,
    ranks: &'a [u32],
) -> Vec<ListingFile<'a>> {
    let models = input.models;
    let id = |i: usize| models[ranks[i] as usize].id.as_str();
    let folder = KeyedFolder::namespace(namespace);
    let subject = Subject::Namespace(namespace.to_owned());
    let stats = format!("{}{}", input.site.base_path, stats_path(namespace, input.settings.stats_files));
    pages_from_front(&folder, ranks.len(), &id, &|i| groups.boundary(ranks[i]), input.settings.page_size, &input.site.base_path)
        .into_iter()
        .map(|(page, is_front)| model_page(input, groups, &subject, ranks, page, is_front.then_some(ranks.len()), Some(stats.clone())))
        .collect()
}

/// One page by name of a model listing (or one of its index pages).
fn model_page<'a>(
    input: &'a ListingInput<'a>,
    groups: &'a Groups<'a>,
    subject: &Subject,
    ranks: &'a [u32],
    page: PageFile,
    model_count: Option<usize>,
    stats: Option<String>,
) -> ListingFile<'a> {
    let rows: &'a [u32] = if page.level == 0 { &ranks[page.entries.clone()] } else { &[] };
    let mut key = KeyHasher::new("model listing page");
    key.str(&subject.name()).opt_num(model_count.map(|c| c as u64)).opt_str(stats.as_deref());
    page.key_links(&mut key);
    groups.rows_key(&mut key, rows);
    let subject = subject.clone();
    ListingFile::lazy(format!("{}index.html", page.folder), key.finish(), move || {
        let labels = input.labels(rows);
        let models: Vec<&ModelSummary> = rows.iter().map(|&r| input.models[r as usize]).collect();
        let feed = subject.feed(input.site);
        let listing = ModelListingPage {
            top: &[],
            models: &models,
            pages: &page.links,
            model_count,
            pager: &page.pager,
            part: page.part.as_deref(),
            stats: stats.as_deref(),
            feed: feed.as_ref(),
            labels: &labels,
        };
        Ok(subject.render(input, &listing)?.into_bytes())
    })
}

/// `namespaces/`: every namespace by name with its model count, in pages
/// cut like the model listings.
fn namespace_index<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>, files: &mut Vec<ListingFile<'a>>) {
    let all = &groups.namespaces;
    let name = |i: usize| all[i].0;
    let folder = KeyedFolder::namespace_index();
    for (page, is_front) in pages_from_front(&folder, all.len(), &name, &|i| boundary_hash(name(i)), input.settings.page_size, &input.site.base_path) {
        let rows = if page.level == 0 { &all[page.entries.clone()] } else { &all[0..0] };
        let namespace_count = is_front.then_some(all.len());
        let mut key = KeyHasher::new("namespace index page");
        key.opt_num(namespace_count.map(|c| c as u64));
        page.key_links(&mut key);
        for (name, ranks) in rows {
            key.str(name).num(ranks.len() as u64);
        }
        files.push(ListingFile::lazy(format!("{}index.html", page.folder), key.finish(), move || {
            let ListingInput { templates, site, .. } = *input;
            let namespaces: Vec<NamespaceListing> = rows
                .iter()
                .map(|(name, ranks)| NamespaceListing {
                    name: (*name).to_owned(),
                    url: format!("{}{}", site.base_path, KeyedFolder::namespace(name).folder(0, None)),
                    model_count: ranks.len(),
                })
                .collect();
            let listing = NamespacesPage {
                namespaces: &namespaces,
                pages: &page.links,
                namespace_count,
                pager: &page.pager,
                part: page.part.as_deref(),
            };
            Ok(render_namespaces_page(templates, site, &listing)?.into_bytes())
        }));
    }
}
