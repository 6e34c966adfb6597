//! Synthetic model corpora for modelpages: `count` realistic model folders
//! (`<namespace>/<name>/model.json` and `README.md`), the same bytes for a
//! given seed on every run and every machine.
//!
//! Each model draws from its own ChaCha8 stream (the seed, stream = the
//! model's index), so models can be generated in any order and in parallel,
//! and all sampling is integer arithmetic (see [`dist`]).
//!
//! The mix follows the Hub's proportions roughly: transformers about 45%, then
//! diffusers, sentence-transformers, timm, peft, gguf, mlx and a long tail of
//! the catalogue's libraries; tasks fit their library; a third of chat-capable
//! models are conversational; about 5% are served by inference providers.
//!
//! A minimal corpus ([`Shape::Minimal`], `modelpages synth --minimal`) has the
//! same ids, libraries, tasks, tags, downloads and likes, but each record is
//! only those fields and there is no card: what a build of a million models
//! needs to measure the site's listings and search, at a tenth of the disk.
//!
//! [`apply_day`] (`modelpages synth --day D`) applies a day of Hub changes
//! to a corpus: counts moved, cards edited, models added and removed.

mod card;
mod catalogue;
pub mod day;
pub mod dist;
mod draft;
mod record;
mod words;

use std::fs;
use std::io;
use std::path::Path;
use std::time::Instant;

use rand::SeedableRng;
use rayon::prelude::*;

pub use card::{BODY_MAX, BODY_MIN};
pub use day::{apply_day, DayReport};
pub use catalogue::INFERENCE_TASKS;
pub use draft::MODELS_PER_NAMESPACE;

/// The default seed of `modelpages synth`.
pub const DEFAULT_SEED: u64 = 1;

/// One generated model: its id and the bytes of its two files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SynthModel {
    /// `namespace/name`; also the folder path under the corpus root.
    pub id: String,
    pub record_json: String,
    pub card: String,
}

/// What [`write_synthetic_corpus`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct SynthReport {
    pub models: usize,
    pub namespaces: usize,
    /// Bytes of `model.json` and `README.md` files together.
    pub bytes: u64,
    pub seconds: f64,
}

fn model_rng(seed: u64, index: usize) -> dist::SynthRng {
    let mut rng = dist::SynthRng::seed_from_u64(seed);
    rng.set_stream(index as u64);
    rng
}

/// What each generated model holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shape {
    /// A record in the Hub API's full shape and a card.
    #[default]
    Full,
    /// Only id, task, library, tags, downloads, likes and date; no card.
    Minimal,
}

/// Generates model `index` of a corpus of `count` models with `seed`. Pure:
/// the same arguments always give the same model.
pub fn synthetic_model(seed: u64, index: usize, count: usize) -> SynthModel {
    synthetic_model_shaped(seed, index, count, Shape::Full)
}

/// [`synthetic_model`] in the given shape; a minimal model has an empty card
/// (no `README.md` is written for it).
pub fn synthetic_model_shaped(seed: u64, index: usize, count: usize, shape: Shape) -> SynthModel {
    let mut rng = model_rng(seed, index);
    let draft = draft::draft(&mut rng, index, count);
    let (record, card) = match shape {
        Shape::Full => {
            let card = card::card(&mut rng, &draft);
            (record::record(&mut rng, &draft, card.len()), card)
        }
        Shape::Minimal => (record::minimal_record(&mut rng, &draft), String::new()),
    };
    let mut record_json = serde_json::to_string_pretty(&record).expect("records are plain JSON");
    record_json.push('\n');
    SynthModel { id: draft.id, record_json, card }
}

/// Writes `count` synthetic models under `out` (created if missing; it must
/// be empty, so a real corpus is never mixed with or overwritten by synthetic
/// records).
pub fn write_synthetic_corpus(out: &Path, count: usize, seed: u64) -> io::Result<SynthReport> {
    write_shaped_corpus(out, count, seed, Shape::Full)
}

/// [`write_synthetic_corpus`] in the given shape.
pub fn write_shaped_corpus(out: &Path, count: usize, seed: u64, shape: Shape) -> io::Result<SynthReport> {
    let start = Instant::now();
    fs::create_dir_all(out)?;
    if fs::read_dir(out)?.next().is_some() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("{} is not empty; synthetic models are written only to an empty or new folder", out.display()),
        ));
    }
    // Each task writes one namespace folder, which keeps every folder's
    // entries with one thread (much less file-system contention than writing
    // models in index order).
    let mut by_namespace: Vec<Vec<usize>> = vec![Vec::new(); draft::namespace_count(count)];
    for index in 0..count {
        by_namespace[draft::namespace_index(&mut model_rng(seed, index), count)].push(index);
    }
    let bytes = by_namespace
        .par_iter()
        .enumerate()
        .filter(|(_, indices)| !indices.is_empty())
        .map(|(ns, indices)| {
            fs::create_dir(out.join(draft::namespace_name(ns)))?;
            let mut bytes = 0;
            for &index in indices {
                let model = synthetic_model_shaped(seed, index, count, shape);
                let dir = out.join(&model.id);
                fs::create_dir(&dir)?;
                fs::write(dir.join("model.json"), &model.record_json)?;
                if shape == Shape::Full {
                    fs::write(dir.join("README.md"), &model.card)?;
                }
                bytes += (model.record_json.len() + model.card.len()) as u64;
            }
            Ok::<(usize, u64), io::Error>((1, bytes))
        })
        .try_reduce(|| (0, 0), |a, b| Ok((a.0 + b.0, a.1 + b.1)))?;
    let (namespaces, bytes) = bytes;
    Ok(SynthReport { models: count, namespaces, bytes, seconds: start.elapsed().as_secs_f64() })
}
