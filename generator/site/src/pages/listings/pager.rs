//! Which pages a listing page links to, so that every page of a listing of
//! any length is a few plain links away: the previous and next page, the
//! first and last, and pages 1, 2, 5, 10, 20, 50, ... away in both
//! directions. From page 1 of a 10,000-page listing any page is at most
//! about a dozen clicks away, and a crawler reaches all of them.

use modelpages_render::{Pager, PagerLink};

/// Distances to the pages a page links to besides its neighbours: 1, 2, 5
/// times the powers of ten.
fn jumps(pages: usize) -> impl Iterator<Item = usize> {
    (0..).map(|i| [1, 2, 5][i % 3] * 10usize.pow((i / 3) as u32)).take_while(move |&d| d < pages)
}

/// Page `page` (1-based) of `pages`; `url` gives each page's address.
pub fn pager(page: usize, pages: usize, url: impl Fn(usize) -> String) -> Pager {
    let mut numbers: Vec<usize> = vec![1, pages, page];
    for d in jumps(pages) {
        numbers.extend(page.checked_sub(d).filter(|&p| p >= 1));
        numbers.extend(Some(page + d).filter(|&p| p <= pages));
    }
    numbers.sort_unstable();
    numbers.dedup();
    let mut last = 0;
    let links = numbers
        .into_iter()
        .map(|number| {
            let link = PagerLink { number, url: url(number), current: number == page, gap_before: number > last + 1 };
            last = number;
            link
        })
        .collect();
    Pager {
        page,
        pages,
        previous: (page > 1).then(|| url(page - 1)),
        next: (page < pages).then(|| url(page + 1)),
        links,
    }
}

/// How many pages `count` entries fill at `per_page` each (at least one,
/// so an empty listing still has its first page).
pub fn page_count(count: usize, per_page: usize) -> usize {
    count.div_ceil(per_page).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(pager: &Pager) -> Vec<usize> {
        pager.links.iter().map(|l| l.number).collect()
    }

    #[test]
    fn pages_link_their_neighbours_the_ends_and_jumps() {
        let p = pager(47, 1000, |n| format!("/p/{n}/"));
        assert_eq!(numbers(&p), [1, 27, 37, 42, 45, 46, 47, 48, 49, 52, 57, 67, 97, 147, 247, 547, 1000]);
        assert_eq!((p.previous.as_deref(), p.next.as_deref()), (Some("/p/46/"), Some("/p/48/")));
        assert!(p.links.iter().filter(|l| l.current).map(|l| l.number).eq([47]));
        assert!(p.links[1].gap_before && !p.links[6].gap_before);
        let one = pager(1, 1, |n| n.to_string());
        assert_eq!((numbers(&one), one.previous, one.next), (vec![1], None, None));
    }

    /// Following links only, every page of a long listing is reached from
    /// the first in a few clicks.
    #[test]
    fn every_page_is_a_few_clicks_from_the_first() {
        let pages = 20_000;
        let mut clicks = vec![usize::MAX; pages + 1];
        clicks[1] = 0;
        let mut frontier = std::collections::VecDeque::from([1]);
        while let Some(page) = frontier.pop_front() {
            for link in pager(page, pages, |_| String::new()).links {
                if clicks[link.number] == usize::MAX {
                    clicks[link.number] = clicks[page] + 1;
                    frontier.push_back(link.number);
                }
            }
        }
        let worst = clicks[1..].iter().max().unwrap();
        assert!(*worst <= 14, "a page {worst} clicks away");
        assert_eq!(page_count(0, 100), 1);
        assert_eq!(page_count(100, 100), 1);
        assert_eq!(page_count(101, 100), 2);
    }
}
