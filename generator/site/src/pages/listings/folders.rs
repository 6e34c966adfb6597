//! Where a listing's pages by name go, and which pages each links.
//!
//! A listing by name is cut into pages at content-defined boundaries, with
//! index pages above them when there are many ([`Paging`], in `keyed`).
//! Pages are named by their first entry, so their addresses stay while
//! entries come and go:
//!
//! | listing | first page | other pages | index pages (level L) |
//! |---|---|---|---|
//! | task | `tasks/<key>/models/` | `tasks/<key>/models/<id>/` | `tasks/<key>/index/<L>/`, `.../<L>/<id>/` |
//! | library | `libraries/<key>/models/` | likewise | likewise |
//! | facet value | `facets/<kind>/<value>/models/` | likewise | likewise |
//! | namespace | `<ns>/` | `<ns>/-/models/<name>/` | `<ns>/-/index/<L>/`, `.../<L>/<name>/` |
//! | namespace index | `namespaces/` | `namespaces/from/<ns>/` | `namespaces/index/<L>/`, `.../<L>/<ns>/` |
//!
//! (A model may be called `models` or `index`, but never `-`; a task's or
//! library's front page, `tasks/<key>/`, lists its most downloaded models
//! and links the top level.) Each page links its neighbours on its level
//! and the page above it: [`paged_files`] says, for every page, where it
//! goes and what it links, and the writers of HTML pages
//! (`html`) and the sitemap use it.
//!
//! Change feeds ([`FeedScope`]) go beside the listings they follow:
//! `feed.xml` (the whole site), `tasks/<key>/feed.xml` and `<ns>/-/feed.xml`.

use std::ops::Range;

use modelpages_record::namespace_of;
use modelpages_render::{FeedLink, PageLink, Pager};

use super::file::KeyHasher;
use super::keyed::Paging;

/// How many links a front page holds at most, in pages' worth of entries:
/// past twice the page size, index pages (a front page of 100 models
/// links at most 200 pages, 20,000 models or so; longer listings get index
/// pages, each linking about a hundred pages).
pub const ROOT_PAGES: usize = 2;
/// A page holds at most this many times its listing's page size.
pub const PAGE_SPREAD: usize = 3;

/// Where one listing's pages by name go (see the overview's table).
#[derive(Clone, Debug)]
pub struct KeyedFolder {
    /// The first page's folder.
    first: String,
    /// Other pages go in `{pages}{key}/`.
    pages: String,
    /// Index pages of level `L` go in `{index}{L}/` and `{index}{L}/{key}/`.
    index: String,
    /// Keys are model ids whose namespace the folder already names.
    strip_namespace: bool,
}

impl KeyedFolder {
    pub fn task(key: &str) -> KeyedFolder {
        Self::under(&format!("tasks/{key}/"))
    }

    pub fn library(key: &str) -> KeyedFolder {
        Self::under(&format!("libraries/{key}/"))
    }

    /// A search facet's value (`kind` as paths name it, `name` its folder).
    pub fn facet(kind: &str, name: &str) -> KeyedFolder {
        Self::under(&format!("facets/{kind}/{name}/"))
    }

    fn under(front: &str) -> KeyedFolder {
        KeyedFolder {
            first: format!("{front}models/"),
            pages: format!("{front}models/"),
            index: format!("{front}index/"),
            strip_namespace: false,
        }
    }

    pub fn namespace(name: &str) -> KeyedFolder {
        KeyedFolder {
            first: format!("{name}/"),
            pages: format!("{name}/-/models/"),
            index: format!("{name}/-/index/"),
            strip_namespace: true,
        }
    }

    pub fn namespace_index() -> KeyedFolder {
        KeyedFolder {
            first: "namespaces/".into(),
            pages: "namespaces/from/".into(),
            index: "namespaces/index/".into(),
            strip_namespace: false,
        }
    }

    /// The folder of the page of `level` named `key` (`None`: the level's first).
    pub fn folder(&self, level: usize, key: Option<&str>) -> String {
        let key = key.map(|k| if self.strip_namespace { k.split_once('/').map_or(k, |(_, name)| name) } else { k });
        match (level, key) {
            (0, None) => self.first.clone(),
            (0, Some(key)) => format!("{}{key}/", self.pages),
            (level, None) => format!("{}{level}/", self.index),
            (level, Some(key)) => format!("{}{level}/{key}/", self.index),
        }
    }
}

/// One page of a listing by name, or one of its index pages.
#[derive(Clone, Debug)]
pub struct PageFile {
    /// Its folder, relative to the site root.
    pub folder: String,
    /// 0 for a page of entries, else an index page's level.
    pub level: usize,
    /// The entries it holds (level 0) or covers (index pages).
    pub entries: Range<usize>,
    /// The pages it links: an index page's pages of the level below.
    pub links: Vec<PageLink>,
    pub pager: Pager,
    /// What it holds, for its title ("a/b – c/d"); `None` for the first
    /// page of a listing whose first page is its front.
    pub part: Option<String>,
}

impl PageFile {
    /// Hashes everything the page shows besides its entries.
    pub fn key_links(&self, key: &mut KeyHasher) {
        key.str(&self.folder).num(self.level as u64).opt_str(self.part.as_deref());
        hash_links(key, &self.links);
        key.opt_str(self.pager.previous.as_deref()).opt_str(self.pager.next.as_deref());
        hash_links(key, self.pager.up.as_slice());
    }
}

/// Hashes page links: their addresses and labels.
pub fn hash_links(key: &mut KeyHasher, links: &[PageLink]) {
    key.num(links.len() as u64);
    for link in links {
        key.str(&link.url).str(&link.first).str(&link.last);
    }
}

/// Every page by name of a listing of `n` entries (`id(i)` names entry
/// `i`) and every index page, and the links of its front page (`front`,
/// under `base_path`), which the top level's pages link back to. Where the
/// first page is the front (a namespace), the caller gives it those links.
pub fn paged_files<'k>(
    folder: &KeyedFolder,
    n: usize,
    id: &dyn Fn(usize) -> &'k str,
    hash: &dyn Fn(usize) -> u64,
    page_size: usize,
    base_path: &str,
    front: &str,
) -> (Vec<PageFile>, Vec<PageLink>) {
    let paging = Paging::new(n, hash, page_size, PAGE_SPREAD, ROOT_PAGES * page_size);
    let url = |level: usize, run: usize| {
        let first = paging.entries(level, run).start;
        format!("{base_path}{}", folder.folder(level, (run > 0).then(|| id(first))))
    };
    let link = |level: usize, run: usize| {
        let entries = paging.entries(level, run);
        PageLink { url: url(level, run), first: id(entries.start).to_owned(), last: id(entries.end - 1).to_owned() }
    };
    let top = paging.top();
    let front_links: Vec<PageLink> = (0..paging.levels[top].len()).map(|run| link(top, run)).collect();
    let front_link = PageLink { url: format!("{base_path}{front}"), first: String::new(), last: String::new() };
    let mut files = Vec::new();
    for (level, runs) in paging.levels.iter().enumerate() {
        for run in 0..runs.len() {
            let entries = paging.entries(level, run);
            let up = match paging.parent(level, run) {
                Some(parent) => Some(link(level + 1, parent)),
                None => Some(front_link.clone()),
            };
            let links = if level == 0 { Vec::new() } else { runs[run].clone().map(|child| link(level - 1, child)).collect() };
            let range = format!("{} – {}", id(entries.start), id(entries.end - 1));
            files.push(PageFile {
                folder: url(level, run)[base_path.len()..].to_owned(),
                level,
                entries,
                links,
                pager: Pager {
                    previous: (run > 0).then(|| url(level, run - 1)),
                    next: (run + 1 < runs.len()).then(|| url(level, run + 1)),
                    up,
                },
                part: Some(if level == 0 { range } else { format!("pages {range}") }),
            });
        }
    }
    (files, front_links)
}

/// The pages of a listing whose first page by name is its front page (a
/// namespace, the namespace index), as [`paged_files`] makes them, each
/// with whether it is the front: that one links the top level (when there
/// is more than one page) and no page above it. An empty listing has one
/// empty front page.
pub fn pages_from_front<'k>(
    folder: &KeyedFolder,
    n: usize,
    id: &dyn Fn(usize) -> &'k str,
    hash: &dyn Fn(usize) -> u64,
    page_size: usize,
    base_path: &str,
) -> Vec<(PageFile, bool)> {
    let front = folder.folder(0, None);
    let (pages, links) = paged_files(folder, n, id, hash, page_size, base_path, &front);
    if pages.is_empty() {
        let empty = PageFile { folder: front, level: 0, entries: 0..0, links: Vec::new(), pager: Pager::default(), part: None };
        return vec![(empty, true)];
    }
    let front_url = format!("{base_path}{front}");
    let several = pages.len() > 1;
    pages
        .into_iter()
        .map(|mut page| {
            let is_front = page.folder == front;
            if is_front {
                page.part = None;
                if page.pager.up.as_ref().is_some_and(|up| up.url == front_url) {
                    page.pager.up = None;
                }
                if several {
                    page.links = links.clone();
                }
            }
            (page, is_front)
        })
        .collect()
}

/// What a change feed follows: the listing whose pages link it.
#[derive(Clone, Copy, Debug)]
pub enum FeedScope<'a> {
    Site,
    /// A task: its key and its name.
    Task(&'a str, &'a str),
    Namespace(&'a str),
}

impl FeedScope<'_> {
    /// The feed's file, relative to the site root.
    pub fn path(self) -> String {
        match self {
            FeedScope::Site => "feed.xml".to_owned(),
            FeedScope::Task(key, _) => format!("tasks/{key}/feed.xml"),
            FeedScope::Namespace(ns) => format!("{ns}/-/feed.xml"),
        }
    }

    /// The listing the feed follows, relative to the site root.
    pub fn listing(self) -> String {
        match self {
            FeedScope::Site => String::new(),
            FeedScope::Task(key, _) => format!("tasks/{key}/"),
            FeedScope::Namespace(ns) => KeyedFolder::namespace(ns).folder(0, None),
        }
    }

    /// The feed's title, as the feed and the links to it show it.
    pub fn title(self, site_title: &str) -> String {
        match self {
            FeedScope::Site => format!("Models added and updated · {site_title}"),
            FeedScope::Task(_, name) => format!("{name}: models added and updated · {site_title}"),
            FeedScope::Namespace(ns) => format!("{ns}: models added and updated · {site_title}"),
        }
    }

    /// How a page under `base_path` links the feed.
    pub fn link(self, base_path: &str, site_title: &str) -> FeedLink {
        FeedLink { url: format!("{base_path}{}", self.path()), title: self.title(site_title) }
    }
}

/// The stats file of the models of `namespace`, relative to the site root
/// (see `stats`): a hash of the name, so that a page finds it from its id.
pub fn stats_path(namespace: &str, files: usize) -> String {
    format!("stats/{}.json", namespace_bucket(namespace, files))
}

/// The number of the stats file of `namespace`, out of `files`.
fn namespace_bucket(namespace: &str, files: usize) -> usize {
    let hash = blake3::Hasher::new().update(b"stats\0").update(namespace.as_bytes()).finalize();
    (u64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 of 32 bytes")) % files.max(1) as u64) as usize
}

/// The number of the stats file of the model `id` (`stats/<n>.json`).
pub fn stats_bucket(id: &str, files: usize) -> usize {
    namespace_bucket(namespace_of(id), files)
}

/// The stats file of the model `id`.
pub fn model_stats_path(id: &str, files: usize) -> String {
    format!("stats/{}.json", stats_bucket(id, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_are_named_by_their_first_entry() {
        let task = KeyedFolder::task("text-generation");
        assert_eq!(task.folder(0, None), "tasks/text-generation/models/");
        assert_eq!(task.folder(0, Some("a/b")), "tasks/text-generation/models/a/b/");
        assert_eq!(task.folder(2, Some("a/b")), "tasks/text-generation/index/2/a/b/");
        let ns = KeyedFolder::namespace("org");
        assert_eq!(ns.folder(0, None), "org/");
        assert_eq!(ns.folder(0, Some("org/m")), "org/-/models/m/");
        assert_eq!(ns.folder(1, None), "org/-/index/1/");
        assert_eq!(KeyedFolder::namespace_index().folder(0, Some("org")), "namespaces/from/org/");
    }

    #[test]
    fn pages_link_their_neighbours_and_the_page_above() {
        let ids: Vec<String> = (0..3000).map(|i| format!("org/m{i:05}")).collect();
        let (files, front) = paged_files(&KeyedFolder::task("t"), ids.len(), &|i| &ids[i], &|i| crate::pages::listings::keyed::boundary_hash(&ids[i]), 5, "/", "tasks/t/");
        assert!(!front.is_empty() && front.len() <= ROOT_PAGES * 5);
        assert!(files.iter().any(|f| f.level > 0), "index pages");
        let pages: Vec<&PageFile> = files.iter().filter(|f| f.level == 0).collect();
        assert_eq!(pages.iter().map(|p| p.entries.len()).sum::<usize>(), ids.len());
        assert_eq!(pages[0].folder, "tasks/t/models/");
        assert!(pages[0].pager.previous.is_none() && pages.last().unwrap().pager.next.is_none());
        for w in pages.windows(2) {
            assert_eq!(w[0].pager.next.as_deref(), Some(format!("/{}", w[1].folder).as_str()));
            assert_eq!(w[1].pager.previous.as_deref(), Some(format!("/{}", w[0].folder).as_str()));
            assert_eq!(w[1].folder, format!("tasks/t/models/{}/", ids[w[1].entries.start]));
        }
        // Following links down from the front reaches every page.
        let by_url: std::collections::HashMap<String, &PageFile> = files.iter().map(|f| (format!("/{}", f.folder), f)).collect();
        let mut seen = std::collections::HashSet::new();
        let mut stack: Vec<String> = front.iter().map(|l| l.url.clone()).collect();
        while let Some(url) = stack.pop() {
            if seen.insert(url.clone()) {
                stack.extend(by_url[&url].links.iter().map(|l| l.url.clone()));
            }
        }
        assert_eq!(seen.len(), files.len());
    }
}
