//! Where a listing's pages go. Page 1 of a listing is its folder
//! (`tasks/text-generation/`), page n is `page/n/` inside it; a namespace's
//! pages are `<namespace>/-/page/n/`, since a model may be called `page` but
//! never `-`. The listing pages (`html`) are written there and the sitemap
//! lists them, both from [`PagedFolder`].

use super::groups::{Groups, ListingInput};
use super::pager::page_count;

/// A listing's pages: where page 1 is, and where the others go.
#[derive(Clone, Debug)]
pub struct PagedFolder {
    /// Page 1's folder, relative to the site root, ending in `/`.
    pub first: String,
    /// Inside `first`, where page `n` (2 and up) goes: `{pages}{n}/`.
    pub pages: &'static str,
}

impl PagedFolder {
    pub fn task(key: &str) -> PagedFolder {
        PagedFolder { first: format!("tasks/{key}/"), pages: "page/" }
    }

    pub fn library(key: &str) -> PagedFolder {
        PagedFolder { first: format!("libraries/{key}/"), pages: "page/" }
    }

    pub fn namespace(name: &str) -> PagedFolder {
        PagedFolder { first: format!("{name}/"), pages: "-/page/" }
    }

    pub fn namespace_index() -> PagedFolder {
        PagedFolder { first: "namespaces/".to_owned(), pages: "page/" }
    }

    /// Page `n`'s folder, relative to the site root.
    pub fn folder(&self, n: usize) -> String {
        if n == 1 {
            self.first.clone()
        } else {
            format!("{}{}{n}/", self.first, self.pages)
        }
    }
}

/// Every listing page's folder with its page count, in the order the
/// sitemap lists them: indexes first, then tasks, libraries, namespaces.
pub fn listing_folders(input: &ListingInput<'_>, groups: &Groups<'_>) -> Vec<(PagedFolder, usize)> {
    let per_page = input.settings.page_size;
    let mut folders = vec![
        (PagedFolder { first: "tasks/".into(), pages: "page/" }, 1),
        (PagedFolder { first: "libraries/".into(), pages: "page/" }, 1),
        (PagedFolder::namespace_index(), page_count(groups.namespaces.len(), per_page)),
    ];
    folders.extend(groups.tasks.iter().map(|(t, ranks)| (PagedFolder::task(&t.key), page_count(ranks.len(), per_page))));
    folders.extend(groups.libraries.iter().map(|(l, ranks)| (PagedFolder::library(&l.key), page_count(ranks.len(), per_page))));
    folders.extend(groups.namespaces.iter().map(|(ns, ranks)| (PagedFolder::namespace(ns), page_count(ranks.len(), per_page))));
    folders
}
