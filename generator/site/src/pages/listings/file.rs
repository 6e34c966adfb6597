//! A listing file as plain data: its path, its key (a hash of everything
//! it is made from) and how to make its bytes, called only when the key
//! changed. [`KeyHasher`] builds keys; [`row_key`] is a model's listing row
//! without its figures, [`hash_counts`] its figures.
//! The keys themselves are kept between builds by the manifest
//! (`store::manifest`), which is where their type is defined.

use modelpages_render::TemplateError;

use modelpages_record::ModelSummary;

use crate::store::manifest::ListingKey;
use crate::store::output::OutputError;

/// Makes the bytes of a listing file; only called when its key changed.
pub type Render<'a> = Box<dyn Fn() -> Result<Vec<u8>, TemplateError> + Send + Sync + 'a>;

/// One file of the site that lists models.
pub struct ListingFile<'a> {
    /// Relative to the output folder.
    pub path: String,
    pub key: ListingKey,
    pub render: Render<'a>,
}

impl<'a> ListingFile<'a> {
    /// A file made on the spot (small ones): its key is the hash of its bytes.
    pub fn ready(path: String, bytes: Vec<u8>) -> ListingFile<'a> {
        let key = KeyHasher::new("bytes").bytes(&bytes).finish();
        ListingFile { path, key, render: Box::new(move || Ok(bytes.clone())) }
    }

    /// A file made only when `key` changed.
    pub fn lazy(path: String, key: ListingKey, render: impl Fn() -> Result<Vec<u8>, TemplateError> + Send + Sync + 'a) -> ListingFile<'a> {
        ListingFile { path, key, render: Box::new(render) }
    }
}

/// The files made from one part of the site's models alone: a task's, a
/// library's, a namespace's, a facet value's or a tag's listing, or a
/// feed. Its print is a hash of everything those files are made from (the
/// group's models, whole, in order: [`Groups::print`](super::groups::Groups::print)),
/// so a build whose previous one recorded the same print keeps the group's
/// files, keys and all, without making them: an added model costs the
/// groups it joins, not the hundred thousand it does not.
pub struct ListingGroup<'a> {
    /// Unique in the site: what the manifest records its files under.
    pub name: String,
    /// `None`: made every build (files that draw on every model, such as
    /// the home page, whose keys are cheap to make again).
    pub print: Option<ListingKey>,
    pub make: Box<dyn FnOnce() -> Vec<ListingFile<'a>> + Send + 'a>,
}

impl<'a> ListingGroup<'a> {
    /// A group kept while `print` is the one recorded for `name`.
    pub fn printed(name: String, print: ListingKey, make: impl FnOnce() -> Vec<ListingFile<'a>> + Send + 'a) -> ListingGroup<'a> {
        ListingGroup { name, print: Some(print), make: Box::new(make) }
    }

    /// Files made every build. Made (by `make`) while the other groups
    /// are, in parallel with them: the files drawn from every model take
    /// the longest to key.
    pub fn always(name: &str, make: impl FnOnce() -> Vec<ListingFile<'a>> + Send + 'a) -> ListingGroup<'a> {
        ListingGroup { name: name.to_owned(), print: None, make: Box::new(make) }
    }
}

/// A listing file that could not be made or written.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Output(#[from] OutputError),
}

/// Builds a [`ListingKey`]; every value is written with its length, so two
/// different sequences of values never hash alike. Values are gathered in
/// a buffer and handed to BLAKE3 a few kilobytes at a time: most keys are
/// made of a few dozen short strings (two million of them at hub scale),
/// and BLAKE3 costs far more per call than per byte.
pub struct KeyHasher {
    hasher: blake3::Hasher,
    buffer: Vec<u8>,
}

/// How much [`KeyHasher`] gathers before hashing it.
const KEY_BUFFER: usize = 8 * 1024;

impl KeyHasher {
    /// `kind` keeps files of different kinds from sharing keys.
    pub fn new(kind: &str) -> KeyHasher {
        let mut hasher = KeyHasher { hasher: blake3::Hasher::new(), buffer: Vec::with_capacity(256) };
        hasher.str(kind);
        hasher
    }

    #[inline]
    pub fn str(&mut self, s: &str) -> &mut KeyHasher {
        self.bytes(s.as_bytes())
    }

    #[inline]
    pub fn bytes(&mut self, b: &[u8]) -> &mut KeyHasher {
        self.num(b.len() as u64).raw(b)
    }

    #[inline]
    pub fn num(&mut self, n: u64) -> &mut KeyHasher {
        self.raw(&n.to_le_bytes())
    }

    #[inline]
    pub fn opt_num(&mut self, n: Option<u64>) -> &mut KeyHasher {
        match n {
            Some(n) => self.num(1).num(n),
            None => self.num(0),
        }
    }

    #[inline]
    pub fn opt_str(&mut self, s: Option<&str>) -> &mut KeyHasher {
        match s {
            Some(s) => self.num(1).str(s),
            None => self.num(0),
        }
    }

    #[inline]
    pub fn key(&mut self, key: &ListingKey) -> &mut KeyHasher {
        self.raw(key)
    }

    /// Bytes as they are: buffered, or hashed at once when large. Inlined,
    /// so that the fixed-size numbers and keys most keys are made of are
    /// copied into the buffer without a call each.
    #[inline]
    fn raw(&mut self, b: &[u8]) -> &mut KeyHasher {
        if self.buffer.len() + b.len() > KEY_BUFFER {
            self.flush_then(b);
            return self;
        }
        self.buffer.extend_from_slice(b);
        self
    }

    /// Hashes what the buffer holds, then `b` at once if it is large, else
    /// buffers it.
    #[cold]
    fn flush_then(&mut self, b: &[u8]) {
        self.hasher.update(&self.buffer);
        self.buffer.clear();
        if b.len() > KEY_BUFFER {
            self.hasher.update(b);
        } else {
            self.buffer.extend_from_slice(b);
        }
    }

    pub fn finish(&mut self) -> ListingKey {
        self.hasher.update(&self.buffer);
        self.buffer.clear();
        let hash = self.hasher.finalize();
        hash.as_bytes()[..16].try_into().expect("16 of 32 bytes")
    }
}

/// The key of a model's listing row as a page by name shows it: every
/// field of its summary but its downloads and likes, which move every day
/// and which such pages do not show.
pub fn row_key(summary: &ModelSummary) -> ListingKey {
    let mut hasher = KeyHasher::new("row");
    hasher.str(&summary.id).str(&summary.url).opt_str(summary.task.as_deref()).opt_str(summary.library.as_deref());
    hasher.str(summary.tags.joined());
    // What the search's rows show of its facets.
    let facets = &summary.facets;
    for values in [&facets.languages, &facets.licenses, &facets.providers] {
        hasher.str(values.joined());
    }
    hasher.opt_num(facets.params.map(u64::from)).opt_num(facets.fits.map(u64::from)).opt_num(updated_day(summary).map(|d| d as u64));
    hasher.finish()
}

/// Everything a listing file can show of a model, hashed: its row (`row`,
/// its [`row_key`]), its figures, its exact dates (the feeds show them)
/// and its filter tags. [`Groups::print`](super::groups::Groups::print)
/// is made of these.
pub fn member_key(summary: &ModelSummary, row: &ListingKey) -> ListingKey {
    let mut hasher = KeyHasher::new("member");
    hasher.key(row).opt_num(summary.downloads).opt_num(summary.likes);
    hasher.opt_num(summary.created.map(|t| t as u64)).opt_num(summary.updated.map(|t| t as u64));
    hasher.str(summary.filters.joined());
    hasher.finish()
}

/// Adds a model's downloads and likes to the key of a file that shows
/// them (streamed into its hasher: a key of its own per model was a fair
/// part of the keys of a million models' stats files).
pub fn hash_counts(hasher: &mut KeyHasher, summary: &ModelSummary) {
    hasher.str(&summary.id).opt_num(summary.downloads).opt_num(summary.likes);
}

/// The day (since the epoch) of a model's `lastModified`, the figure the
/// search's rows show and its order by recency sorts by.
pub fn updated_day(summary: &ModelSummary) -> Option<i64> {
    summary.updated.map(|t| t.div_euclid(86_400))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key is BLAKE3 of every value with its length before it, however
    /// the values are gathered: short ones in the buffer, long ones past
    /// it, many enough to fill it several times.
    #[test]
    fn a_key_is_the_hash_of_its_values_with_their_lengths_however_buffered() {
        let long = "x".repeat(3 * KEY_BUFFER + 7);
        let mut hasher = KeyHasher::new("kind");
        hasher.str("a").num(7).str(&long).opt_str(None).opt_num(Some(3)).key(&[9; 16]);
        for i in 0..2000 {
            hasher.str(&i.to_string());
        }
        let mut stream: Vec<u8> = Vec::new();
        let with_length = |stream: &mut Vec<u8>, b: &[u8]| {
            stream.extend_from_slice(&(b.len() as u64).to_le_bytes());
            stream.extend_from_slice(b);
        };
        with_length(&mut stream, b"kind");
        with_length(&mut stream, b"a");
        stream.extend_from_slice(&7u64.to_le_bytes());
        with_length(&mut stream, long.as_bytes());
        stream.extend_from_slice(&0u64.to_le_bytes());
        stream.extend_from_slice(&1u64.to_le_bytes());
        stream.extend_from_slice(&3u64.to_le_bytes());
        stream.extend_from_slice(&[9; 16]);
        for i in 0..2000 {
            with_length(&mut stream, i.to_string().as_bytes());
        }
        assert_eq!(hasher.finish()[..], blake3::hash(&stream).as_bytes()[..16]);

        let split = KeyHasher::new("kind").str("a").str("b").finish();
        assert_ne!(KeyHasher::new("kind").str("ab").finish(), split, "values are told apart by their lengths");
    }
}
