//! Writing the listing files: a file whose key is the one the manifest
//! recorded for it is kept as it is (a fresh site links it from the previous
//! one); any other is rendered and written, except that a file whose bytes
//! turn out the same keeps its old file; a file the previous build listed
//! and this one does not is removed. So a rebuild after one model changed
//! writes exactly the listing files whose bytes changed.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::file::{ListingError, ListingFile};
use crate::store::io_pool::with_io_threads;
use crate::store::manifest::{ListingKey, ListingKeys};
use crate::store::writer::SiteWriter;

/// How many listing files a build wrote, kept and removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ListingCounts {
    pub written: usize,
    pub kept: usize,
    pub removed: usize,
}

/// Writes `files`; `previous` are the keys of the site being replaced or
/// changed, if this build may reuse its files. Returns the keys to record.
pub fn write_listing_files(
    writer: &SiteWriter,
    files: Vec<ListingFile<'_>>,
    previous: Option<&ListingKeys>,
) -> Result<(ListingKeys, ListingCounts), ListingError> {
    let (written, kept) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let keys: Vec<(String, ListingKey)> = with_io_threads(|| {
        files
            .into_par_iter()
            .map(|file| {
                let old = previous.and_then(|p| p.get(&file.path));
                if old == Some(&file.key) && writer.keep(&file.path) {
                    kept.fetch_add(1, Ordering::Relaxed);
                } else {
                    let bytes = (file.render)()?;
                    // Without a previous key the old file (if any) is not
                    // worth reading: it is a full build.
                    match old {
                        Some(_) => writer.write_listing(&file.path, &bytes)?,
                        None => writer.write(&file.path, &bytes)?,
                    }
                    written.fetch_add(1, Ordering::Relaxed);
                }
                Ok((file.path, file.key))
            })
            .collect::<Result<_, ListingError>>()
    })?;
    let keys: ListingKeys = keys.into_iter().collect();
    let mut removed = 0;
    if let Some(previous) = previous {
        for path in previous.keys().filter(|p| !keys.contains_key(*p)) {
            writer.remove(path);
            removed += 1;
        }
    }
    let counts = ListingCounts { written: written.into_inner(), kept: kept.into_inner(), removed };
    Ok((keys, counts))
}

/// Keeps every listing file of the previous site as it is, when no model's
/// listing row changed; false if one is missing (then they must be made).
pub fn keep_listing_files(writer: &SiteWriter, previous: &ListingKeys) -> bool {
    with_io_threads(|| previous.par_iter().all(|(path, _)| writer.keep(path)))
}
