//! The build manifest: what the site in an output folder was built from, so
//! the next build re-renders only models whose files changed.
//!
//! It lives beside the output (`.dist.manifest` for `dist`), not inside it, so
//! deploying the site does not upload it. It names the output folder it
//! describes by device and inode: a site replaced by other means is not trusted.
//!
//! It also keeps the key of every listing file (see `pages::listings`), so a rebuild
//! renders only the listing pages, search shards and sitemaps whose models
//! changed.
//!
//! The file is a JSON header line, then, in a chunk of its own, what the
//! listings stage keeps for the next build, then the models in
//! length-prefixed chunks, each an index of small rows and the rest of its
//! entries (see `stored_models`), then the listing files likewise, all in bincode
//! (variable-length integers) and decoded in parallel: at 100,000 models,
//! reading and writing it as JSON took most of a one-model rebuild, and at
//! a million decoding every entry did (what the listings keep has a compact
//! form of its own). A file that does not decode is no manifest: the build is a
//! full one. Every part but the last has a length known before it is
//! encoded, so the three are written side by side (see
//! [`Manifest::write_file`]).

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::sync::Arc;

use bincode::Options as _;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

pub use crate::store::model_entry::{InputHash, ModelEntry, ModelMap, ModelRow, StampHash, TreeHash};
use crate::site_sources::SiteSources;
use crate::store::output::OutputFolder;
use crate::store::file_at::{read_at, reserve, write_at};
use crate::store::stored_models::{encode_chunk, options, StoredModels, CHUNK};

/// Version 16: each stored chunk keeps its models' listing rows apart from
/// their files, and what the listings keep comes first.
const VERSION: u32 = 16;
/// Chunks encoded at once, in parallel.
const CHUNKS_AT_ONCE: usize = 16;

/// What a listing file is made from, hashed: equal keys, equal bytes (see
/// `pages::listings`). Kept here, where the keys are stored between builds.
pub type ListingKey = [u8; 16];

/// Every listing file of a site with its key, by the group that made it
/// (see `pages::listings::file::ListingGroup`): what the manifest keeps.
pub type ListingMemo = HashMap<String, GroupFiles, foldhash::fast::RandomState>;

/// One group's files as a build left them: the group's print (`None` for
/// a group made every build) and each file's path and key.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GroupFiles {
    pub print: Option<ListingKey>,
    pub files: Vec<(String, ListingKey)>,
}

/// The paths of every listing file `memo` records, with their number.
pub fn listing_paths(memo: &ListingMemo) -> (impl Iterator<Item = &str>, usize) {
    let count = memo.values().map(|g| g.files.len()).sum();
    (memo.values().flat_map(|g| g.files.iter().map(|(path, _)| path.as_str())), count)
}

#[derive(Debug, Default)]
pub struct Manifest {
    version: u32,
    /// Hash of everything every page depends on: the program, the site
    /// sources and the settings. A change means a full build.
    pub global: String,
    /// When the build that wrote this manifest started (ns since the epoch):
    /// stamps of files changed after that are not trusted.
    pub started_ns: u128,
    /// Device and inode of the output folder this manifest describes.
    pub site: (u64, u64),
    /// The site's identity, also written in its marker (see `site_folder`):
    /// `None` in a manifest written before sites had one.
    pub site_id: Option<String>,
    /// Models whose whole entries are at hand, by id. Boxed: the map's
    /// slots stay small (at a million models a map of whole entries took
    /// more memory for its empty slots than the entries' strings).
    pub models: ModelMap,
    /// Models still as the previous manifest stored them, rows decoded
    /// and the rest not (see `stored_models`). No id is in both.
    pub stored: StoredModels,
    /// Every listing file, with its key, by group.
    pub listings: ListingMemo,
    /// What the listings stage of the build that wrote this manifest keeps
    /// for the next (`pages::listings::carried`, which reads and checks it;
    /// opaque here): the models listed, their keys and the search's word
    /// index. `None`: the next build makes them afresh.
    pub listing_state: Option<Vec<u8>>,
}

impl Manifest {
    pub fn new(global: String, started_ns: u128) -> Manifest {
        Manifest { version: VERSION, global, started_ns, ..Manifest::default() }
    }

    /// How many models it holds.
    pub fn len(&self) -> usize {
        self.models.len() + self.stored.len()
    }

    pub fn is_empty(&self) -> bool {
        self.models.is_empty() && self.stored.is_empty()
    }

    /// Every model's id and row, whether its whole entry is at hand or not.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &ModelRow)> + Clone {
        self.models.iter().map(|(id, e)| (id.as_str(), &e.row)).chain(self.stored.rows())
    }

    /// The row of `id`, if it holds the model.
    pub fn row(&self, id: &str) -> Option<&ModelRow> {
        self.models.get(id).map(|e| &e.row).or_else(|| self.stored.row(id))
    }

    /// Takes `id`'s whole entry out, decoding the chunk that stores it
    /// (its other models stay, decoded).
    pub fn take(&mut self, id: &str) -> std::io::Result<Option<Box<ModelEntry>>> {
        if let Some(chunk) = self.stored.chunk_of(id) {
            let decoded = self.stored.take(&[chunk])?;
            self.models.extend(decoded);
        }
        Ok(self.models.remove(id))
    }

    /// Decodes every model's whole entry (the tests' view of a manifest;
    /// a build decodes only what it reads, see `StoredModels::summaries`).
    #[cfg(test)]
    pub fn decode_all(&mut self) -> std::io::Result<()> {
        let decoded = self.stored.take_all()?;
        self.models.extend(decoded);
        Ok(())
    }

    /// The manifest of the site in `out`, if that very folder was built by
    /// this program from the same site sources and settings (`global`).
    /// Chunks are read and decoded in parallel, each on its own: the file is
    /// never held whole, and of the models only the rows are decoded.
    pub fn load_matching(out: &Path, global: &str) -> Option<Manifest> {
        // Opened as records are: a link or a FIFO in its place (a hostile
        // snapshot can ship one) is no manifest, and never waited on.
        let (file, meta) = modelpages_record::open_regular_file(&OutputFolder::new(out).manifest()).ok()?;
        let len = meta.len();
        let mut head = vec![0; len.min(64 * 1024) as usize];
        read_at(&file, &mut head, 0).ok()?;
        let newline = head.iter().position(|b| *b == b'\n')?;
        let header: Header = serde_json::from_slice(&head[..newline]).ok()?;
        let current = folder_identity(out)?;
        if header.version != VERSION || header.global != global || header.site != current {
            return None;
        }
        // Where each chunk is: its length comes before it.
        let mut chunks: Vec<(u64, usize)> = Vec::new();
        let mut offset = newline as u64 + 1;
        while offset < len {
            let mut prefix = [0u8; 8];
            read_at(&file, &mut prefix, offset).ok()?;
            let size = u64::from_le_bytes(prefix);
            let start = offset.checked_add(8)?;
            offset = start.checked_add(size).filter(|end| *end <= len)?;
            chunks.push((start, usize::try_from(size).ok()?));
        }
        let state_chunk = if header.listing_state && !chunks.is_empty() { Some(chunks.remove(0)) } else { None };
        if header.listing_state != state_chunk.is_some() || chunks.len() < header.model_chunks {
            return None;
        }
        let listing_chunks = chunks.split_off(header.model_chunks);
        let file = Arc::new(file);
        let read_chunk = |(start, size): (u64, usize)| {
            let mut bytes = vec![0; size];
            read_at(&file, &mut bytes, start).ok().map(|()| bytes)
        };
        let (stored, (listings, listing_state)) = rayon::join(
            || StoredModels::read(file.clone(), &chunks),
            || {
                rayon::join(
                    || {
                        listing_chunks
                            .par_iter()
                            .map(|&chunk| options().deserialize::<Vec<(String, GroupFiles)>>(&read_chunk(chunk)?).ok())
                            .collect::<Option<Vec<_>>>()
                    },
                    || state_chunk.map(read_chunk),
                )
            },
        );
        let stored = stored?;
        let listings: ListingMemo = listings?.into_iter().flatten().collect();
        let listing_state = match listing_state {
            Some(bytes) => Some(bytes?),
            None => None,
        };
        if stored.len() != header.models || listings.len() != header.listings {
            return None;
        }
        Some(Manifest {
            version: header.version,
            global: header.global,
            started_ns: header.started_ns,
            site: header.site,
            site_id: header.site_id,
            models: ModelMap::default(),
            stored,
            listings,
            listing_state,
        })
    }

    /// The manifest as written: the header line, then what the listings
    /// keep, then the stored chunks as they were, then the models at hand in
    /// id order, then the listing files in path order, so the same manifest
    /// always gives the same bytes.
    #[cfg(test)]
    pub fn to_bytes(&self) -> Vec<u8> {
        use std::io::{Read, Seek};
        let mut file = tempfile::tempfile().expect("a temporary file");
        self.write_file(&file).expect("writing a temporary file succeeds");
        let mut bytes = Vec::new();
        file.rewind().and_then(|()| file.read_to_end(&mut bytes)).expect("reading it back succeeds");
        bytes
    }

    /// Writes [`Manifest::to_bytes`] into `file` (new and empty) in three
    /// parts side by side: the header and what the listings keep; the
    /// stored chunks, copied (in the kernel where it can); and what follows
    /// them, encoded a few chunks at a time in parallel. At hub scale each
    /// is a hundred megabytes or more.
    pub fn write_file(&self, file: &fs::File) -> std::io::Result<()> {
        let mut header = serde_json::to_vec(&self.header()).map_err(std::io::Error::other)?;
        header.push(b'\n');
        let state_len = self.listing_state.as_ref().map_or(0, |state| 8 + state.len() as u64);
        let stored_at = header.len() as u64 + state_len;
        let rest_at = stored_at + self.stored.stored_len();
        let (head, (copied, rest)) = rayon::join(
            || {
                reserve(file, 0, stored_at);
                write_at(file, &header, 0)?;
                match &self.listing_state {
                    Some(state) => {
                        let at = header.len() as u64;
                        write_at(file, &(state.len() as u64).to_le_bytes(), at)?;
                        write_at(file, state, at + 8)
                    }
                    None => Ok(()),
                }
            },
            || {
                rayon::join(
                    || {
                        reserve(file, stored_at, rest_at - stored_at);
                        self.stored.copy_into(file, stored_at)
                    },
                    || {
                        let rest = self.encode_rest();
                        reserve(file, rest_at, rest.len() as u64);
                        write_at(file, &rest, rest_at)
                    },
                )
            },
        );
        head.and(copied).and(rest)
    }

    fn header(&self) -> Header {
        Header {
            version: self.version,
            global: self.global.clone(),
            started_ns: self.started_ns,
            site: self.site,
            site_id: self.site_id.clone(),
            models: self.len(),
            model_chunks: self.stored.chunks().len() + self.models.len().div_ceil(CHUNK),
            listings: self.listings.len(),
            listing_state: self.listing_state.is_some(),
        }
    }

    /// The models at hand in id order, then the listing files in path
    /// order, in chunks after their lengths.
    fn encode_rest(&self) -> Vec<u8> {
        let mut models: Vec<(&String, &Box<ModelEntry>)> = self.models.iter().collect();
        models.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut listings: Vec<(&String, &GroupFiles)> = self.listings.iter().collect();
        listings.par_sort_unstable_by(|a, b| a.0.cmp(b.0));
        let mut out = Vec::new();
        encode_chunks(&mut out, &models, encode_chunk);
        encode_chunks(&mut out, &listings, |chunk| options().serialize(chunk).expect("listing keys serialise"));
        out
    }
}

/// `entries` in chunks of [`CHUNK`] encoded by `encode`, each after its length.
fn encode_chunks<T: Sync>(out: &mut Vec<u8>, entries: &[T], encode: impl Fn(&[T]) -> Vec<u8> + Sync) {
    for batch in entries.chunks(CHUNK * CHUNKS_AT_ONCE) {
        let encoded: Vec<Vec<u8>> = batch.par_chunks(CHUNK).map(&encode).collect();
        for chunk in encoded {
            out.extend_from_slice(&(chunk.len() as u64).to_le_bytes());
            out.extend_from_slice(&chunk);
        }
    }
}

/// What the manifest beside `out` says of that very folder: `None` when
/// there is no manifest there or it names another folder (by device and
/// inode: a copy, or a folder made anew in the place of a site), else the
/// site identity it records (`Some(None)` for a manifest written before
/// sites had one). Reads only the header line.
pub fn site_of_folder(out: &Path) -> Option<Option<String>> {
    use std::io::BufRead;
    #[derive(Deserialize)]
    struct Site {
        site: (u64, u64),
        #[serde(default)]
        site_id: Option<String>,
    }
    let path = OutputFolder::new(out).manifest();
    if !fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let file = fs::File::open(&path).ok()?;
    let mut line = Vec::new();
    // A header is a few hundred bytes; anything longer is no manifest.
    let read = std::io::Read::take(std::io::BufReader::new(file), 64 * 1024).read_until(b'\n', &mut line);
    if read.is_err() || line.last() != Some(&b'\n') {
        return None;
    }
    let header: Site = serde_json::from_slice(&line[..line.len() - 1]).ok()?;
    (Some(header.site) == folder_identity(out)).then_some(header.site_id)
}

#[derive(Serialize, Deserialize)]
struct Header {
    version: u32,
    global: String,
    started_ns: u128,
    site: (u64, u64),
    /// Absent from manifests written before sites had an identity.
    #[serde(default)]
    site_id: Option<String>,
    /// How many models follow: a file cut at a chunk boundary still decodes.
    models: usize,
    /// How many of the chunks hold models; the rest hold listing files.
    model_chunks: usize,
    /// How many groups of listing files follow.
    listings: usize,
    /// Whether the last chunk is what the listings keep for the next build.
    #[serde(default)]
    listing_state: bool,
}

/// Device and inode of a folder; `None` when it does not exist.
pub fn folder_identity(dir: &Path) -> Option<(u64, u64)> {
    let meta = fs::metadata(dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        // Without inodes the creation time is the best identity there is.
        let created = meta.created().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some((0, created.as_nanos() as u64))
    }
}

/// What decides whether a model's page must be rendered again: the hash of
/// its input files ([`ModelInput::hash`], with [`with_card_files`]), and the
/// record's downloads and likes, which the hash leaves out.
#[derive(Clone, Debug)]
pub struct ModelInput {
    pub hash: InputHash,
    /// The record's figures, when they could be told apart from the rest of
    /// it (see `modelpages_record::split_counts`); `None`: the hash covers
    /// the whole record.
    pub counts: Option<modelpages_record::CountsSplit>,
}

/// Hashes a model's input files. The record's downloads and likes are left
/// out (no file of the model's own shows them; the listings take them from
/// [`ModelInput::counts`]), so a record whose figures alone moved hashes as
/// before, and nothing of the model is rendered again.
pub fn input_hash(record: &[u8], card: Option<&[u8]>, folder: &Path) -> ModelInput {
    let counts = modelpages_record::split_counts(record);
    let mut hasher = blake3::Hasher::new();
    // GGUF files beside the record shape the page (their headers are read),
    // but hashing gigabytes is out of the question: their names, sizes and
    // modification times stand in for them.
    hasher.update(gguf_stamp(folder).as_bytes());
    // Which of the two the bytes are, so a record written with a `#` where
    // a figure was never hashes like one whose figures were left out.
    let record = match &counts {
        Some(split) => {
            hasher.update(b"figures left out");
            modelpages_record::stable_bytes(record, &split.holes)
        }
        None => {
            hasher.update(b"whole record");
            std::borrow::Cow::Borrowed(record)
        }
    };
    hasher.update(&(record.len() as u64).to_le_bytes());
    hasher.update(&record);
    if let Some(card) = card {
        hasher.update(b"card");
        hasher.update(&(card.len() as u64).to_le_bytes());
        hasher.update(card);
    }
    ModelInput { hash: *hasher.finalize().as_bytes(), counts }
}

/// `input` (an [`input_hash`]) with what the card's files were found to be
/// (see `card_files::card_files_state`), when it has any.
pub fn with_card_files(input: &InputHash, card_files: &str) -> InputHash {
    if card_files.is_empty() {
        return *input;
    }
    let mut hasher = blake3::Hasher::new();
    hasher.update(input);
    hasher.update(b"\n");
    hasher.update(card_files.as_bytes());
    *hasher.finalize().as_bytes()
}

/// Name, size and modification time of every `*.gguf` entry in `folder`.
fn gguf_stamp(folder: &Path) -> String {
    let Ok(entries) = fs::read_dir(folder) else { return String::new() };
    let mut found: Vec<String> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().to_ascii_lowercase().ends_with(".gguf"))
        .map(|e| {
            let meta = e.metadata().ok();
            let modified = meta.as_ref().and_then(|m| m.modified().ok());
            format!("{:?} {:?} {:?}\n", e.file_name(), meta.map(|m| (m.len(), m.file_type().is_symlink())), modified)
        })
        .collect();
    found.sort_unstable();
    found.concat()
}

/// Hash of what every page depends on: this program (templates
/// and catalogue are compiled in), every file of the site sources used, and
/// the settings.
pub fn global_hash(site_src: &Path, settings: &impl Serialize) -> std::io::Result<String> {
    let mut hasher = blake3::Hasher::new();
    // The program by its file stamp rather than its 40 MB of bytes: a new
    // build of it is a new file (new inode and times).
    // A program replaced while it runs (`serve` across a rebuild) has no
    // file to stamp; then the hash differs and the next build is a full one.
    if let Ok(meta) = std::env::current_exe().and_then(fs::metadata) {
        hasher.update(format!("{} {:?}", meta.len(), meta.modified()?).as_bytes());
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            hasher.update(format!(" {} {} {}", meta.ino(), meta.ctime(), meta.ctime_nsec()).as_bytes());
        }
    }
    for root in SiteSources::new(site_src).read_by_build() {
        if !root.exists() {
            continue;
        }
        let mut files: Vec<_> = walkdir::WalkDir::new(&root).into_iter().filter_map(Result::ok).filter(|e| e.file_type().is_file()).collect();
        files.sort_by(|a, b| a.path().cmp(b.path()));
        for file in files {
            hasher.update(file.path().to_string_lossy().as_bytes());
            hasher.update(&fs::read(file.path())?);
        }
    }
    hasher.update(serde_json::to_string(settings).unwrap_or_default().as_bytes());
    Ok(hasher.finalize().to_hex().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use modelpages_record::ModelSummary;

    fn entry(i: usize) -> ModelEntry {
        let row = ModelRow {
            stamp: [(i / 256) as u8; 16],
            card_files: if i % 3 == 0 { vec![format!("assets/{i}.png")] } else { Vec::new() },
            bases: Vec::new(),
            hidden: false,
            popularity: 0,
            tree: [0; 16],
            notes: vec![format!("note {i}")],
        };
        let summary = ModelSummary {
                id: format!("ns/m{i}"),
                url: format!("/ns/m{i}/"),
                task: i.is_multiple_of(2).then(|| "fill-mask".to_owned()),
                library: None,
                downloads: Some(i as u64 * 1000),
                likes: None,
                tags: ["a", "b é"].into_iter().collect(),
                created: Some(i as i64),
                updated: None,
                filters: ["license:mit", "en"].into_iter().collect(),
                facets: modelpages_record::SearchFacets {
                    languages: ["en"].into_iter().collect(),
                    licenses: ["mit"].into_iter().collect(),
                    params: Some(3),
                    fits: Some(1),
                    ..Default::default()
                },
        };
        ModelEntry::new(row, [i as u8; 32], summary, vec![format!("ns/m{i}/index.html"), format!("api/models/ns/m{i}.json")])
    }

    #[test]
    fn manifests_round_trip_and_damaged_ones_are_ignored() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        let mut manifest = Manifest::new("g".into(), 7);
        manifest.site = folder_identity(&out).unwrap();
        // More than one chunk, so chunk boundaries are crossed.
        manifest.models = (0..CHUNK * 2 + 5).map(|i| (format!("ns/m{i}"), Box::new(entry(i)))).collect();
        manifest.listings = (0..CHUNK + 3)
            .map(|i| {
                let files = (0..i % 3).map(|f| (format!("search/words/a/a{i}-{f}.json"), [i as u8; 16])).collect();
                (format!("group {i}"), GroupFiles { print: (i % 2 == 0).then_some([i as u8; 16]), files })
            })
            .collect();
        manifest.listing_state = Some(b"what the listings keep".repeat(50));
        let bytes = manifest.to_bytes();
        assert_eq!(bytes, manifest.to_bytes(), "the same manifest gives the same bytes");
        fs::write(OutputFolder::new(&out).manifest(), &bytes).unwrap();
        let mut read = Manifest::load_matching(&out, "g").expect("a manifest of this site");
        assert!(read.models.is_empty(), "loading decodes the rows only");
        assert_eq!(read.len(), manifest.len());
        assert_eq!(read.row("ns/m7"), Some(&manifest.models["ns/m7"].row));
        assert_eq!(read.rows().count(), manifest.len());
        read.decode_all().unwrap();
        assert_eq!(read.models, manifest.models);
        assert_eq!(read.listings, manifest.listings);
        assert_eq!(read.listing_state, manifest.listing_state);
        assert_eq!(read.started_ns, 7);
        assert!(Manifest::load_matching(&out, "other").is_none(), "other sources or settings");
        // The end of the first chunk, a cut inside a chunk, one inside a length.
        let header_end = bytes.iter().position(|b| *b == b'\n').unwrap() + 1;
        let first_chunk = u64::from_le_bytes(bytes[header_end..header_end + 8].try_into().unwrap()) as usize;
        for cut in [header_end + 8 + first_chunk, bytes.len() - 1, bytes.len() / 2, header_end + 3] {
            fs::write(OutputFolder::new(&out).manifest(), &bytes[..cut]).unwrap();
            assert!(Manifest::load_matching(&out, "g").is_none(), "cut at {cut}");
        }
        let mut huge = bytes[..=bytes.iter().position(|b| *b == b'\n').unwrap()].to_vec();
        huge.extend_from_slice(&u64::MAX.to_le_bytes());
        fs::write(OutputFolder::new(&out).manifest(), &huge).unwrap();
        assert!(Manifest::load_matching(&out, "g").is_none(), "a length past the end");
    }

    #[test]
    fn chunks_no_model_of_which_changed_are_copied_as_they_are() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        let mut expected = Manifest::new("g".into(), 7);
        expected.site = folder_identity(&out).unwrap();
        expected.models = (0..CHUNK * 3).map(|i| (format!("ns/m{i:05}"), Box::new(entry(i)))).collect();
        fs::write(OutputFolder::new(&out).manifest(), expected.to_bytes()).unwrap();
        let mut read = Manifest::load_matching(&out, "g").unwrap();
        // One model changed, one removed, one added: two chunks are decoded,
        // the third stays stored.
        let mut changed = read.take("ns/m00005").unwrap().unwrap();
        changed.row.notes.push("changed".into());
        read.models.insert("ns/m00005".into(), changed.clone());
        assert!(read.take(&format!("ns/m{:05}", CHUNK + 1)).unwrap().is_some());
        read.models.insert("ns/added".into(), Box::new(entry(99_999)));
        assert_eq!(read.stored.chunks().len(), 1, "the untouched chunk is not decoded");
        assert_eq!(read.models.len(), 2 * CHUNK);
        fs::write(OutputFolder::new(&out).manifest(), read.to_bytes()).unwrap();
        let mut again = Manifest::load_matching(&out, "g").unwrap();
        again.decode_all().unwrap();
        expected.models.insert("ns/m00005".into(), changed);
        expected.models.remove(&format!("ns/m{:05}", CHUNK + 1));
        expected.models.insert("ns/added".into(), Box::new(entry(99_999)));
        assert_eq!(again.models, expected.models);
        // The middle chunk of three taken: the two others are copied apart.
        fs::write(OutputFolder::new(&out).manifest(), expected.to_bytes()).unwrap();
        let mut read = Manifest::load_matching(&out, "g").unwrap();
        let middle = read.stored.chunks()[1].index.rows[0].0.clone();
        let mut taken = read.take(&middle).unwrap().unwrap();
        taken.row.notes.push("taken".into());
        read.models.insert(middle.clone(), taken.clone());
        assert_eq!(read.stored.chunks().len(), 2);
        fs::write(OutputFolder::new(&out).manifest(), read.to_bytes()).unwrap();
        let mut again = Manifest::load_matching(&out, "g").unwrap();
        again.decode_all().unwrap();
        expected.models.insert(middle, taken);
        assert_eq!(again.models, expected.models);
        // A chunk whose rows decode but whose files do not (they end the
        // chunk): loading uses the rows, and the listing rows decode
        // without the files, but decoding the entries is an error.
        let good = fs::read(OutputFolder::new(&out).manifest()).unwrap();
        let at = good.iter().position(|b| *b == b'\n').unwrap() + 1;
        let length = |at: usize| u64::from_le_bytes(good[at..at + 8].try_into().unwrap()) as usize;
        let (chunk_len, index_len) = (length(at), length(at + 8));
        let mut bytes = good.clone();
        bytes[at + 8 + chunk_len - 40..at + 8 + chunk_len].fill(0xff);
        fs::write(OutputFolder::new(&out).manifest(), &bytes).unwrap();
        let mut damaged = Manifest::load_matching(&out, "g").unwrap();
        let mut summaries: Vec<ModelSummary> = damaged.stored.summaries().unwrap().into_iter().flatten().map(|(s, _)| s).collect();
        summaries.sort_by(|a, b| a.id.cmp(&b.id));
        let mut expected_summaries: Vec<&ModelSummary> = expected.models.values().map(|e| &e.summary).collect();
        expected_summaries.sort_by(|a, b| a.id.cmp(&b.id));
        assert!(summaries.iter().eq(expected_summaries), "every listing row, without the files");
        assert!(damaged.decode_all().is_err());
        // Its listing rows damaged instead (they follow the index and their
        // length): neither decodes.
        let mut bytes = good;
        let summaries_at = at + 8 + 8 + index_len + 8;
        bytes[summaries_at + 4..summaries_at + 44].fill(0xff);
        fs::write(OutputFolder::new(&out).manifest(), &bytes).unwrap();
        let mut damaged = Manifest::load_matching(&out, "g").unwrap();
        assert!(damaged.stored.summaries().is_err());
        assert!(damaged.decode_all().is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_or_a_link_in_place_of_the_manifest_is_no_manifest() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        let fifo = std::ffi::CString::new(OutputFolder::new(&out).manifest().to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
        // Reading a FIFO with no writer would wait forever: this must return.
        assert!(Manifest::load_matching(&out, "g").is_none());
        fs::remove_file(OutputFolder::new(&out).manifest()).unwrap();
        let mut manifest = Manifest::new("g".into(), 7);
        manifest.site = folder_identity(&out).unwrap();
        fs::write(tmp.path().join("real"), manifest.to_bytes()).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("real"), OutputFolder::new(&out).manifest()).unwrap();
        assert!(Manifest::load_matching(&out, "g").is_none(), "links are not followed");
    }
}
