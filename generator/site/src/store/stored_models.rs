//! The models of the previous build's manifest, left as they are stored
//! until a build needs more than their rows.
//!
//! The manifest keeps its models in chunks of [`CHUNK`], sorted by id
//! within each chunk. A chunk is stored as its index (every model's id and
//! [`ModelRow`], the top-level names its files live under, and the files
//! of its first model as a sample) followed by the rest of its entries in
//! two parts: every model's listing row ([`ModelSummary`]), then every
//! model's input hash and files:
//!
//! ```text
//! [u64 chunk length] [u64 index length] [index] [u64 summaries length] [summaries] [hashes and files]
//! ```
//!
//! The three parts are compressed (LZ4, their size before it first): the
//! paths and ids in them repeat a great deal, and at hub scale every build
//! copies the chunks it leaves alone into the next manifest. The listing
//! rows are apart because a build that lists its models anew reads every
//! model's row, and no file of theirs.
//!
//! Loading a manifest decodes only the indexes ([`StoredModels::read`]). A
//! build takes out, decoded whole, the chunks that hold a model it reads or
//! removes ([`StoredModels::take`]); every other chunk is written into the
//! next manifest byte for byte ([`StoredModels::copy_to`]). So a one-model
//! rebuild at hub scale neither decodes nor encodes a million entries.

use std::fs;
use std::io;
use std::sync::Arc;

use bincode::Options as _;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use modelpages_record::ModelSummary;

use crate::store::file_at::{copy_range, read_at};
use crate::store::model_entry::{InputHash, ModelEntry, ModelRow};

/// Models per chunk, as a build writes them.
pub const CHUNK: usize = 64;

/// What a chunk's index holds.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct ChunkIndex {
    /// Every model of the chunk, sorted by id.
    pub rows: Vec<(String, ModelRow)>,
    /// The top-level names (in the output folder) its models' files are
    /// under, sorted: `site_folder::site_is_whole` looks for each.
    pub tops: Vec<String>,
    /// The files of its first model: the sample that
    /// `site_folder::site_is_whole` looks for.
    pub sample: Vec<String>,
}

/// One chunk of the previous manifest: its index, and where its bytes are.
#[derive(Debug)]
pub struct StoredChunk {
    pub index: ChunkIndex,
    /// Offset of its length prefix in the file, and its length, prefix included.
    at: u64,
    len: u64,
    /// Where its models' summaries are, and their length.
    summaries: (u64, usize),
    /// Where its models' input hashes and files are, and their length.
    files: (u64, usize),
}

impl StoredChunk {
    /// Much smaller than a chunk a build writes: models added one at a time
    /// make such chunks, and a build that touches them merges them again.
    pub fn is_small(&self) -> bool {
        self.index.rows.len() < CHUNK / 4
    }

    /// Where the chunk holds `id`.
    fn position(&self, id: &str) -> Option<usize> {
        self.index.rows.binary_search_by(|(row_id, _)| row_id.as_str().cmp(id)).ok()
    }

    /// The row of `id`, if the chunk holds it.
    pub fn row(&self, id: &str) -> Option<&ModelRow> {
        self.position(id).map(|i| &self.index.rows[i].1)
    }
}

/// Chunks of the previous manifest, read up to their indexes.
#[derive(Debug, Default)]
pub struct StoredModels {
    file: Option<Arc<fs::File>>,
    chunks: Vec<StoredChunk>,
}

impl StoredModels {
    /// The chunks of `file` at `spans` (offset of each chunk's body, after
    /// its length prefix, and the body's length), their indexes decoded in
    /// parallel. `None` when one does not decode.
    pub(crate) fn read(file: Arc<fs::File>, spans: &[(u64, usize)]) -> Option<StoredModels> {
        let chunks = spans
            .par_iter()
            .map(|&(start, size)| {
                let length = |bytes: &[u8]| usize::try_from(u64::from_le_bytes(bytes.try_into().ok()?)).ok();
                let mut prefix = [0u8; 8];
                read_at(&file, &mut prefix, start).ok()?;
                let index_len = length(&prefix)?;
                let rest_len = size.checked_sub(16)?.checked_sub(index_len)?;
                // The index, and the length of the summaries after it.
                let mut bytes = vec![0; index_len + 8];
                read_at(&file, &mut bytes, start + 8).ok()?;
                let summaries_len = length(&bytes[index_len..])?;
                let files_len = rest_len.checked_sub(summaries_len)?;
                let index: ChunkIndex = options().deserialize(&decompress(&bytes[..index_len]).ok()?).ok()?;
                let summaries_at = start + 16 + index_len as u64;
                let files_at = summaries_at + summaries_len as u64;
                Some(StoredChunk { index, at: start - 8, len: size as u64 + 8, summaries: (summaries_at, summaries_len), files: (files_at, files_len) })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(StoredModels { file: Some(file), chunks })
    }

    /// How many models the chunks hold.
    pub fn len(&self) -> usize {
        self.chunks.iter().map(|c| c.index.rows.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.chunks.iter().all(|c| c.index.rows.is_empty())
    }

    pub fn chunks(&self) -> &[StoredChunk] {
        &self.chunks
    }

    /// Every model's id and row, chunk by chunk.
    pub fn rows(&self) -> impl Iterator<Item = (&str, &ModelRow)> + Clone {
        self.chunks.iter().flat_map(|c| c.index.rows.iter().map(|(id, row)| (id.as_str(), row)))
    }

    /// The row of `id`, if a chunk holds it.
    pub fn row(&self, id: &str) -> Option<&ModelRow> {
        self.chunks.iter().find_map(|c| c.row(id))
    }

    /// Which chunk holds `id`.
    pub fn chunk_of(&self, id: &str) -> Option<usize> {
        self.chunks.iter().position(|c| c.position(id).is_some())
    }

    /// Takes out the chunks whose numbers `which` holds, their entries
    /// decoded (in parallel), by id.
    pub fn take(&mut self, which: &[usize]) -> io::Result<Vec<(String, Box<ModelEntry>)>> {
        let mut chosen = vec![false; self.chunks.len()];
        for &i in which {
            if let Some(chosen) = chosen.get_mut(i) {
                *chosen = true;
            }
        }
        let (taken, kept): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.chunks).into_iter().zip(chosen).partition(|(_, chosen)| *chosen);
        let taken: Vec<StoredChunk> = taken.into_iter().map(|(chunk, _)| chunk).collect();
        let kept = kept.into_iter().map(|(chunk, _)| chunk).collect();
        self.chunks = kept;
        let Some(file) = &self.file else { return Ok(Vec::new()) };
        let decoded: Vec<Vec<(String, Box<ModelEntry>)>> = taken.into_par_iter().map(|chunk| decode_rest(file, chunk)).collect::<io::Result<_>>()?;
        Ok(decoded.into_iter().flatten().collect())
    }

    /// Takes out every chunk, decoded.
    pub fn take_all(&mut self) -> io::Result<Vec<(String, Box<ModelEntry>)>> {
        let all: Vec<usize> = (0..self.chunks.len()).collect();
        self.take(&all)
    }

    /// Every stored model's listing row, with whether it is hidden, decoded
    /// (in parallel) from each chunk's summaries while the chunk stays
    /// stored: the next manifest copies it byte for byte instead of
    /// encoding its entries again. Chunk by chunk: a million rows are not
    /// moved once more into one list.
    pub fn summaries(&self) -> io::Result<Vec<Vec<(ModelSummary, bool)>>> {
        let Some(file) = &self.file else { return Ok(Vec::new()) };
        let decoded: Vec<Vec<(ModelSummary, bool)>> = self
            .chunks
            .par_iter()
            .map(|chunk| {
                let summaries = decode_part::<ModelSummary>(file, chunk, chunk.summaries)?;
                Ok(summaries.into_iter().zip(&chunk.index.rows).map(|(summary, (_, row))| (summary, row.hidden)).collect())
            })
            .collect::<io::Result<_>>()?;
        Ok(decoded)
    }

    /// How many bytes the chunks take, length prefixes included.
    pub(crate) fn stored_len(&self) -> u64 {
        self.chunks.iter().map(|c| c.len).sum()
    }

    /// Copies every chunk as it is stored, length prefix included, into
    /// `to` at `at`: chunks that lie one after the other in one copy.
    pub(crate) fn copy_into(&self, to: &fs::File, mut at: u64) -> io::Result<()> {
        let Some(file) = &self.file else { return Ok(()) };
        let mut run: Option<(u64, u64)> = None;
        for chunk in &self.chunks {
            run = match run {
                Some((start, len)) if start + len == chunk.at => Some((start, len + chunk.len)),
                Some((start, len)) => {
                    copy_range(file, start, to, at, len)?;
                    at += len;
                    Some((chunk.at, chunk.len))
                }
                None => Some((chunk.at, chunk.len)),
            };
        }
        if let Some((start, len)) = run {
            copy_range(file, start, to, at, len)?;
        }
        Ok(())
    }
}

/// The entries of `chunk`: its rows with the rest of each entry, read and
/// decoded from `file`.
fn decode_rest(file: &fs::File, chunk: StoredChunk) -> io::Result<Vec<(String, Box<ModelEntry>)>> {
    let summaries = decode_part::<ModelSummary>(file, &chunk, chunk.summaries)?;
    let files = decode_part::<(InputHash, Vec<String>)>(file, &chunk, chunk.files)?;
    Ok(chunk
        .index
        .rows
        .into_iter()
        .zip(summaries.into_iter().zip(files))
        .map(|((id, row), (summary, (input, files)))| (id, Box::new(ModelEntry { row, input, summary, files })))
        .collect())
}

/// The part of `chunk`'s entries `len` bytes long at `at` in `file`, read
/// and decoded: one item per model of the chunk.
fn decode_part<T: serde::de::DeserializeOwned>(file: &fs::File, chunk: &StoredChunk, (at, len): (u64, usize)) -> io::Result<Vec<T>> {
    let mut bytes = vec![0; len];
    read_at(file, &mut bytes, at)?;
    let items: Vec<T> = options().deserialize(&decompress(&bytes)?).map_err(invalid_entries)?;
    if items.len() != chunk.index.rows.len() {
        return Err(mismatched());
    }
    Ok(items)
}

fn invalid_entries(e: bincode::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

fn mismatched() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a manifest chunk's entries do not match its index")
}

/// A chunk's body (what follows its length prefix) for `models`, sorted by id.
pub(crate) fn encode_chunk(models: &[(&String, &Box<ModelEntry>)]) -> Vec<u8> {
    let mut tops: Vec<String> = models.iter().flat_map(|(_, e)| e.files.iter().map(|f| top_level(f).to_owned())).collect();
    tops.sort_unstable();
    tops.dedup();
    let index = ChunkIndex {
        rows: models.iter().map(|(id, e)| ((*id).clone(), e.row.clone())).collect(),
        tops,
        sample: models.first().map(|(_, e)| e.files.clone()).unwrap_or_default(),
    };
    let summaries: Vec<&ModelSummary> = models.iter().map(|(_, e)| &e.summary).collect();
    let files: Vec<(&InputHash, &Vec<String>)> = models.iter().map(|(_, e)| (&e.input, &e.files)).collect();
    let (index, summaries, files) = (compressed(&index), compressed(&summaries), compressed(&files));
    let mut body = Vec::with_capacity(16 + index.len() + summaries.len() + files.len());
    body.extend_from_slice(&(index.len() as u64).to_le_bytes());
    body.extend_from_slice(&index);
    body.extend_from_slice(&(summaries.len() as u64).to_le_bytes());
    body.extend_from_slice(&summaries);
    body.extend_from_slice(&files);
    body
}

/// One part of a chunk, encoded and compressed.
fn compressed<T: Serialize>(part: &T) -> Vec<u8> {
    lz4_flex::compress_prepend_size(&options().serialize(part).expect("chunk parts serialise"))
}

/// Chunk parts as [`encode_chunk`] compressed them. A part says how long it
/// was before; a damaged file claiming more than any chunk can hold is refused
/// before anything that size is made.
fn decompress(bytes: &[u8]) -> io::Result<Vec<u8>> {
    /// Far more than 64 entries ever take.
    const MAX_PART: u32 = 1 << 30;
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidData, message);
    let claimed = bytes.get(..4).map(|b| u32::from_le_bytes(b.try_into().expect("four bytes")));
    match claimed {
        Some(size) if size <= MAX_PART => {}
        _ => return Err(invalid("a manifest chunk has no valid size".into())),
    }
    lz4_flex::decompress_size_prepended(bytes).map_err(|e| invalid(format!("a manifest chunk does not decompress: {e}")))
}

/// The first component of a path in the output folder.
pub fn top_level(file: &str) -> &str {
    file.split('/').next().unwrap_or(file)
}

/// The encoding of everything in the manifest after its header line:
/// bincode with variable-length integers.
pub(crate) fn options() -> impl bincode::Options {
    bincode::DefaultOptions::new()
}
