//! Lists cut into pages at content-defined boundaries, so that adding or
//! removing one entry changes O(1) pages, never every page after it.
//!
//! Entries are in a fixed order (by name) and each has a key (its id). A
//! page ends before an entry whose key's hash is divisible by the page's
//! target size (a boundary), as the leaves of a prolly tree or a Merkle
//! search tree are cut; the boundaries are a function of the current keys
//! alone, so a rebuild cuts exactly as a full build does. Pages average the
//! target size; one that reaches `most` entries without a boundary is cut
//! there (a forced cut: within such a long run an added entry shifts the
//! forced cuts up to the next boundary, rarely more than a page or two).
//! A list of at most `target` entries is one page.
//!
//! A page is named by its first entry's key, the first page by nothing
//! (its first entry changes whenever one sorts before it), so a page keeps
//! its name, and its address, while entries come and go around it.
//!
//! Long lists get index pages ([`Paging`]): level 1 groups the pages at
//! boundaries whose hash is divisible by the target squared, level 2 by its
//! cube, and so on, until the top level has at most `root_links` entries
//! (which the listing's front page links). A page's neighbours and its
//! index page are the only pages that link to it, so a page split, added or
//! removed changes those alone.

use std::ops::Range;

/// The hash deciding whether a key starts a page, the same on every
/// machine: FNV-1a over its bytes, then SplitMix64's finaliser, so that its
/// low digits (a page ends where the hash is divisible by its target size)
/// are as well mixed as its high ones. Every model is in about a dozen
/// lists: its id is hashed once a build (`Groups::boundary`) and the lists
/// take the hash. A cryptographic hash here was a fair part of a one-model
/// rebuild at hub scale, and nothing needs one (ids chosen so that none
/// starts a page only meet the forced cuts).
pub fn boundary_hash(key: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in key.bytes() {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash = (hash ^ (hash >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash = (hash ^ (hash >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

/// How a list is cut: the average page size (`target`), the most entries a
/// page holds, and optionally the most bytes (with each entry's size).
pub struct Cut<'a> {
    pub target: usize,
    pub most: usize,
    pub bytes: Option<(&'a dyn Fn(usize) -> usize, usize)>,
}

impl Cut<'_> {
    /// A list cut at `target` on average and at most `spread` times it.
    pub fn around(target: usize, spread: usize) -> Cut<'static> {
        Cut { target: target.max(1), most: target.max(1).saturating_mul(spread), bytes: None }
    }

    /// A list whose pages hold at most `most` entries (a limit set from
    /// outside, as sitemaps and the API's pages have), a quarter on average.
    pub fn at_most(most: usize) -> Cut<'static> {
        Cut { target: (most / 4).max(1), most: most.max(1), bytes: None }
    }
}

/// Cuts `n` entries (entry `i` has the [`boundary_hash`] of its key
/// `hash(i)`) into runs, where a hash divisible by `divisor` starts a run
/// (see the overview).
fn runs(n: usize, hash: &impl Fn(usize) -> u64, divisor: u64, cut: &Cut<'_>) -> Vec<Range<usize>> {
    let mut runs = Vec::new();
    let (mut start, mut size) = (0, 0);
    for i in 0..n {
        let entry_bytes = cut.bytes.as_ref().map_or(0, |(bytes, _)| bytes(i));
        if i > start {
            let natural = hash(i).is_multiple_of(divisor);
            let full = i - start >= cut.most || cut.bytes.as_ref().is_some_and(|(_, most)| size + entry_bytes > *most);
            if natural || full {
                runs.push(start..i);
                (start, size) = (i, 0);
            }
        }
        size += entry_bytes;
    }
    if n > 0 {
        runs.push(start..n);
    }
    runs
}

/// Cuts `n` entries into pages (see the overview): one page when they are
/// at most `cut.target` and fit its byte limit. `hash(i)` is the
/// [`boundary_hash`] of entry `i`'s key: a model's is hashed once a build
/// (`Groups::boundary`) for the dozen lists it is in.
pub fn pages(n: usize, hash: impl Fn(usize) -> u64, cut: &Cut<'_>) -> Vec<Range<usize>> {
    let fits = cut.bytes.as_ref().is_none_or(|(bytes, most)| (0..n).map(bytes).sum::<usize>() <= *most);
    if n <= cut.target && fits {
        return std::iter::once(0..n).filter(|all| !all.is_empty()).collect();
    }
    runs(n, &hash, cut.target as u64, cut)
}

/// A list's pages and the levels of index pages above them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Paging {
    /// `levels[0]`: the pages, as ranges of entries; `levels[l]`: the index
    /// pages of level `l`, as ranges of the pages (or index pages) of level
    /// `l - 1`. The last level has at most `root_links` runs.
    pub levels: Vec<Vec<Range<usize>>>,
    /// `parents[l][r]`: the run of level `l + 1` holding run `r` of level `l`.
    parents: Vec<Vec<usize>>,
}

impl Paging {
    /// Cuts `n` entries (hashed as [`pages`] takes them) into pages of
    /// `target` entries on average (at most `spread` times that), with
    /// index levels until the top level has at most `root_links` runs.
    pub fn new(n: usize, hash: impl Fn(usize) -> u64, target: usize, spread: usize, root_links: usize) -> Paging {
        let cut = Cut::around(target, spread);
        let mut levels = vec![pages(n, &hash, &cut)];
        let mut parents = Vec::new();
        let mut divisor = cut.target as u64;
        while levels.last().expect("a level").len() > root_links.max(2) {
            let below = levels.last().expect("a level");
            divisor = divisor.saturating_mul(cut.target as u64).max(2);
            let first_hash = |r: usize| hash(below[r].start);
            let level = runs(below.len(), &first_hash, divisor, &cut);
            let mut parent = vec![0; below.len()];
            for (p, run) in level.iter().enumerate() {
                parent[run.clone()].fill(p);
            }
            parents.push(parent);
            levels.push(level);
        }
        Paging { levels, parents }
    }

    /// The entries run `run` of level `level` covers.
    pub fn entries(&self, level: usize, run: usize) -> Range<usize> {
        let mut range = self.levels[level][run].clone();
        for below in (0..level).rev() {
            let runs = &self.levels[below];
            range = runs[range.start].start..runs[range.end - 1].end;
        }
        range
    }

    /// The index run (of level `level + 1`) holding run `run` of `level`;
    /// `None` on the top level, which the front page links.
    pub fn parent(&self, level: usize, run: usize) -> Option<usize> {
        self.parents.get(level).map(|p| p[run])
    }

    /// The top level: the runs the front page links.
    pub fn top(&self) -> usize {
        self.levels.len() - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(n: usize) -> Vec<String> {
        let mut ids: Vec<String> = (0..n).map(|i| format!("ns{}/model-{i}", i % 37)).collect();
        ids.sort();
        ids
    }

    #[test]
    fn pages_hold_every_entry_once_and_respect_the_limits() {
        let keys = ids(5000);
        let pages = pages(keys.len(), |i| boundary_hash(&keys[i]), &Cut::around(50, 3));
        assert_eq!(pages.first().unwrap().start, 0);
        assert_eq!(pages.last().unwrap().end, keys.len());
        assert!(pages.windows(2).all(|w| w[0].end == w[1].start));
        assert!(pages.iter().all(|p| !p.is_empty() && p.len() <= 150));
        let mean = keys.len() / pages.len();
        assert!((25..=80).contains(&mean), "{} pages, {mean} a page", pages.len());
        // Byte limits cut too.
        let size = |_: usize| 10;
        let cut = Cut { target: 50, most: 1000, bytes: Some((&size, 95)) };
        assert!(super::pages(keys.len(), |i| boundary_hash(&keys[i]), &cut).iter().all(|p| p.len() <= 9));
        assert_eq!(super::pages(40, |i| boundary_hash(&keys[i]), &Cut::around(50, 3)), std::iter::once(0..40).collect::<Vec<_>>(), "a short list is one page");
        assert!(super::pages(0, |i| boundary_hash(&keys[i]), &Cut::around(50, 3)).is_empty());
    }

    /// Adding or removing one entry changes at most a few pages (as sets of
    /// keys), wherever it goes: the cut depends on the keys alone.
    #[test]
    fn one_entry_more_or_less_moves_few_pages() {
        let keys = ids(20_000);
        let cut = Cut::around(50, 3);
        let named = |keys: &[String]| -> std::collections::BTreeSet<Vec<String>> {
            pages(keys.len(), |i| boundary_hash(&keys[i]), &cut).into_iter().map(|r| keys[r].to_vec()).collect()
        };
        let before = named(&keys);
        let mut worst = 0;
        for step in (0..keys.len()).step_by(397) {
            let mut fewer = keys.clone();
            fewer.remove(step);
            let after = named(&fewer);
            worst = worst.max(before.symmetric_difference(&after).count());
            let mut more = keys.clone();
            more.insert(step, format!("{}-x", keys[step]));
            let after = named(&more);
            worst = worst.max(before.symmetric_difference(&after).count());
        }
        assert!(worst <= 8, "one entry changed {worst} pages");
    }

    #[test]
    fn index_levels_cover_the_pages_and_stop_at_the_root_bound() {
        let keys = ids(30_000);
        let paging = Paging::new(keys.len(), |i| boundary_hash(&keys[i]), 10, 3, 20);
        assert!(paging.levels.len() >= 3, "{} levels", paging.levels.len());
        assert!(paging.levels[paging.top()].len() <= 20);
        for level in 1..paging.levels.len() {
            let runs = &paging.levels[level];
            assert_eq!((runs[0].start, runs.last().unwrap().end), (0, paging.levels[level - 1].len()));
            for (r, run) in runs.iter().enumerate() {
                for child in run.clone() {
                    assert_eq!(paging.parent(level - 1, child), Some(r));
                }
            }
        }
        assert_eq!(paging.entries(paging.top(), 0).start, 0);
        assert_eq!(paging.entries(paging.top(), paging.levels[paging.top()].len() - 1).end, keys.len());
        assert_eq!(paging.parent(paging.top(), 0), None);
        let small = Paging::new(5, |i| boundary_hash(&keys[i]), 10, 3, 20);
        assert_eq!(small.levels, [std::iter::once(0..5).collect::<Vec<_>>()]);
    }
}
