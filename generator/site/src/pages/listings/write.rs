//! Writing the listing files, group by group (see [`ListingGroup`]):
//! - a group whose print is the one the previous build recorded keeps its
//!   files as they are, without making them (a fresh site links them from
//!   the previous one);
//! - in any other group, a file whose key is the one recorded for it is
//!   kept; any other is rendered and written, except that a file whose
//!   bytes turn out the same keeps its old file;
//! - a file the previous build listed and this one does not is removed.
//!
//! So a rebuild after one model changed makes the files of the groups that
//! model is in, and writes exactly the listing files whose bytes changed.

// Hundreds of thousands of paths a build at hub scale: foldhash, seeded
// per process as std's maps are, hashes them several times quicker.
use foldhash::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::file::{ListingError, ListingFile, ListingGroup};
use crate::store::io_pool::with_io_threads;
use crate::store::manifest::{listing_paths, GroupFiles, ListingKey, ListingMemo};
use crate::store::writer::SiteWriter;

/// How many listing files a build wrote, kept and removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListingCounts {
    pub written: usize,
    pub kept: usize,
    pub removed: usize,
}

/// Listing files written so far, by group, and what the previous build
/// recorded of the groups not yet written.
pub struct ListingWrites<'p> {
    writer: &'p SiteWriter,
    /// `None`: the previous site's files may not be reused (a full build).
    previous: Option<ListingMemo>,
    memo: ListingMemo,
    /// Files of the groups written that they no longer make.
    gone: Vec<String>,
    counts: ListingCounts,
}

impl<'p> ListingWrites<'p> {
    pub fn new(writer: &'p SiteWriter, previous: Option<ListingMemo>) -> ListingWrites<'p> {
        ListingWrites { writer, previous, memo: ListingMemo::default(), gone: Vec::new(), counts: ListingCounts::default() }
    }

    /// Makes and writes `groups` (or keeps them, see the overview).
    pub fn write(&mut self, groups: Vec<ListingGroup<'_>>) -> Result<(), ListingError> {
        let paired: Vec<(ListingGroup<'_>, Option<GroupFiles>)> = groups
            .into_iter()
            .map(|group| {
                let old = self.previous.as_mut().and_then(|p| p.remove(&group.name));
                (group, old)
            })
            .collect();
        let writer = self.writer;
        let (written, kept) = (AtomicUsize::new(0), AtomicUsize::new(0));
        let made: Vec<(String, GroupFiles, Vec<String>)> = with_io_threads(|| {
            paired
                .into_par_iter()
                .map(|(group, old)| {
                    let unchanged = |old: &GroupFiles| group.print.is_some() && old.print == group.print && old.files.iter().all(|(path, _)| writer.keep(path));
                    let old = match old {
                        Some(old) if unchanged(&old) => {
                            kept.fetch_add(old.files.len(), Ordering::Relaxed);
                            return Ok((group.name, old, Vec::new()));
                        }
                        old => old,
                    };
                    let old_keys: HashMap<&str, &ListingKey> =
                        old.iter().flat_map(|o| o.files.iter().map(|(path, key)| (path.as_str(), key))).collect();
                    let files = (group.make)();
                    let keys = files
                        .into_par_iter()
                        .map(|file| {
                            let old = old_keys.get(file.path.as_str()).copied();
                            write_file(writer, file, old, &written, &kept)
                        })
                        .collect::<Result<Vec<_>, ListingError>>()?;
                    // Files of the group it no longer makes.
                    let now: HashSet<&str> = keys.iter().map(|(path, _)| path.as_str()).collect();
                    let gone = old_keys.keys().filter(|path| !now.contains(*path)).map(|path| (*path).to_owned()).collect();
                    Ok((group.name, GroupFiles { print: group.print, files: keys }, gone))
                })
                .collect::<Result<_, ListingError>>()
        })?;
        for (name, files, gone) in made {
            self.memo.insert(name, files);
            self.gone.extend(gone);
        }
        self.counts.written += written.into_inner();
        self.counts.kept += kept.into_inner();
        Ok(())
    }

    /// Every listing file written or kept so far.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        listing_paths(&self.memo).0
    }

    /// Removes the files of the previous build that no group made this
    /// time; returns the keys to record and what was done.
    pub fn finish(mut self) -> (ListingMemo, ListingCounts) {
        let left = self.previous.take().into_iter().flat_map(|p| p.into_values()).flat_map(|g| g.files.into_iter().map(|(path, _)| path));
        let gone: Vec<String> = std::mem::take(&mut self.gone).into_iter().chain(left).collect();
        if !gone.is_empty() {
            // A path another group made now stays (paths belong to one
            // group each, but a file is only removed when nothing made it).
            // The few gone are looked up, not the half million made.
            let mut unmade: HashSet<&str> = gone.iter().map(String::as_str).collect();
            for path in listing_paths(&self.memo).0 {
                unmade.remove(path);
            }
            for path in &gone {
                if unmade.remove(path.as_str()) {
                    self.writer.remove(path);
                    self.counts.removed += 1;
                }
            }
        }
        (self.memo, self.counts)
    }
}

/// Writes one file unless `old` (its recorded key) is its key and the
/// previous file can be kept.
fn write_file(writer: &SiteWriter, file: ListingFile<'_>, old: Option<&ListingKey>, written: &AtomicUsize, kept: &AtomicUsize) -> Result<(String, ListingKey), ListingError> {
    if old == Some(&file.key) && writer.keep(&file.path) {
        kept.fetch_add(1, Ordering::Relaxed);
    } else {
        let bytes = (file.render)()?;
        // Without a previous key the old file (if any) is not worth
        // reading: it is new, or the build is a full one.
        match old {
            Some(_) => writer.write_listing(&file.path, &bytes)?,
            None => writer.write(&file.path, &bytes)?,
        }
        written.fetch_add(1, Ordering::Relaxed);
    }
    Ok((file.path, file.key))
}

/// Keeps every listing file of the previous site as it is, when no model's
/// listing row changed; false if one is missing (then they must be made).
pub fn keep_listing_files(writer: &SiteWriter, previous: &ListingMemo) -> bool {
    with_io_threads(|| previous.par_iter().all(|(_, group)| group.files.iter().all(|(path, _)| writer.keep(path))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::changes::ChangeLog;
    use crate::store::journal::Transaction;
    use crate::store::output::lock_output;

    /// A group of files named `paths`, counting how often it is made.
    fn group<'a>(name: &str, print: u8, paths: &'a [&'a str], made: &'a AtomicUsize) -> ListingGroup<'a> {
        ListingGroup::printed(name.into(), [print; 16], move || {
            made.fetch_add(1, Ordering::Relaxed);
            paths.iter().map(|p| ListingFile::ready((*p).into(), p.as_bytes().to_vec())).collect()
        })
    }

    #[test]
    fn a_group_whose_print_holds_is_kept_unmade_and_only_files_nothing_made_go() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        std::fs::create_dir(&out).unwrap();
        let lock = lock_output(&out).unwrap();
        let writer = SiteWriter::in_place(Transaction::begin(&out, &lock).unwrap(), ChangeLog::new(&out, false));
        let made = AtomicUsize::new(0);

        let mut first = ListingWrites::new(&writer, None);
        first
            .write(vec![
                group("a", 1, &["a/1.json", "a/2.json"], &made),
                group("b", 1, &["b/1.json"], &made),
                group("c", 1, &["c/1.json"], &made),
            ])
            .unwrap();
        let (memo, counts) = first.finish();
        assert_eq!(made.load(Ordering::Relaxed), 3);
        assert_eq!(counts, ListingCounts { written: 4, kept: 0, removed: 0 });
        let a = memo["a"].clone();

        // `a` as it was; `b` changed and makes another file; `c` gone, its
        // file now made by `d`; and one group made every build.
        let mut second = ListingWrites::new(&writer, Some(memo));
        second
            .write(vec![
                group("a", 1, &["a/1.json", "a/2.json"], &made),
                group("b", 2, &["b/2.json"], &made),
                group("d", 1, &["c/1.json"], &made),
                ListingGroup::always("e", || vec![ListingFile::ready("e.json".into(), b"e".to_vec())]),
            ])
            .unwrap();
        let (memo, counts) = second.finish();
        assert_eq!(made.load(Ordering::Relaxed), 5, "a is not made again");
        assert_eq!(memo["a"], a, "its files and keys are carried over");
        assert_eq!(memo["d"].files, [("c/1.json".to_owned(), ListingFile::ready(String::new(), b"c/1.json".to_vec()).key)]);
        assert_eq!(memo.len(), 4);
        // b/1.json goes; c/1.json, c's no longer, stays: d made it.
        assert_eq!(counts, ListingCounts { written: 3, kept: 2, removed: 1 });
    }
}
