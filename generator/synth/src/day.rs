//! A day of Hub changes applied to a synthetic corpus, as a daily sync job
//! would write them: every model's downloads move (by -10% to +15%), a
//! tenth of the models' likes move, one model in a thousand gets its card
//! edited, one in a thousand is added and one in five thousand is removed.
//!
//! Day `d` of a corpus written with `seed` is the same set of changes on
//! every run and machine: each model's changes are drawn from a stream of
//! its own, named by a hash of its id, and added models are synthetic
//! models with indices of their own (see [`added_index`]). Days are meant
//! to be applied in order (1, 2, ...), each to the corpus the day before
//! left; a day applied twice moves the counts twice.
//!
//! Only files whose bytes change are written, so a build after a day looks
//! at exactly what a sync job touched.

use std::fs;
use std::io;
use std::path::Path;
use std::time::Instant;

use rand::SeedableRng;
use rayon::prelude::*;
use serde_json::Value;

use crate::dist::{between, chance, SynthRng};
use crate::{synthetic_model_shaped, Shape};

/// Out of every [`PER`] models, how many a day adds, removes and whose card it edits.
const ADDED: u32 = 10;
const REMOVED: u32 = 2;
const CARDS_EDITED: u32 = 10;
const PER: u32 = 10_000;

/// What one day changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DayReport {
    /// Models in the corpus before the day.
    pub before: usize,
    /// Records rewritten because their downloads or likes moved.
    pub counts_moved: usize,
    pub likes_moved: usize,
    pub cards_edited: usize,
    /// Ids of the models added and removed, sorted.
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub seconds: f64,
}

/// The index model `i` added on `day` gets: past every index the corpus was
/// written with, and past those of every other day.
fn added_index(count: usize, day: u32, i: usize) -> usize {
    count + (day as usize) * (count.max(PER as usize)) + i
}

/// The stream of `id`'s changes on `day`.
fn day_rng(seed: u64, day: u32, id: &str) -> SynthRng {
    let mut rng = SynthRng::seed_from_u64(seed ^ (u64::from(day) << 32) ^ 0x5eed_da7a);
    // FNV-1a: any stable hash names the stream.
    let stream = id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
    rng.set_stream(stream);
    rng
}

/// Downloads after a day: -10% to +15%, in whole downloads.
fn moved_downloads(rng: &mut SynthRng, downloads: u64) -> u64 {
    let per_mille = between(rng, 900, 1150);
    (u128::from(downloads) * u128::from(per_mille) / 1000).min(u128::from(u64::MAX)) as u64
}

/// Likes after a day, for the tenth of models whose likes move: up by one
/// to a twentieth, or now and then down.
fn moved_likes(rng: &mut SynthRng, likes: u64) -> u64 {
    let step = between(rng, 1, (likes / 20).max(1));
    if chance(rng, 1, 4) {
        likes.saturating_sub(step)
    } else {
        likes + step
    }
}

/// Applies day `day` to the corpus in `dir`, written by
/// `write_shaped_corpus(dir, count, seed, shape)` and the days before.
pub fn apply_day(dir: &Path, count: usize, seed: u64, day: u32, shape: Shape) -> io::Result<DayReport> {
    let start = Instant::now();
    let mut ids: Vec<String> = Vec::new();
    for ns in sorted_dirs(dir)? {
        for name in sorted_dirs(&dir.join(&ns))? {
            ids.push(format!("{ns}/{name}"));
        }
    }
    let outcomes: Vec<(String, Outcome)> = ids
        .par_iter()
        .map(|id| change_model(&dir.join(id), seed, day, id).map(|o| (id.clone(), o)))
        .collect::<io::Result<_>>()?;
    let mut report = DayReport { before: ids.len(), ..DayReport::default() };
    for (id, outcome) in outcomes {
        report.counts_moved += usize::from(outcome.counts_moved);
        report.likes_moved += usize::from(outcome.likes_moved);
        report.cards_edited += usize::from(outcome.card_edited);
        if outcome.removed {
            report.removed.push(id);
        }
    }
    let adds = (ids.len() * ADDED as usize).div_ceil(PER as usize);
    for i in 0..adds {
        let model = synthetic_model_shaped(seed, added_index(count, day, i), count, shape);
        let folder = dir.join(&model.id);
        fs::create_dir_all(&folder)?;
        fs::write(folder.join("model.json"), &model.record_json)?;
        if shape == Shape::Full {
            fs::write(folder.join("README.md"), &model.card)?;
        }
        report.added.push(model.id);
    }
    report.added.sort();
    report.seconds = start.elapsed().as_secs_f64();
    Ok(report)
}

#[derive(Default)]
struct Outcome {
    counts_moved: bool,
    likes_moved: bool,
    card_edited: bool,
    removed: bool,
}

/// One model's changes on `day`.
fn change_model(folder: &Path, seed: u64, day: u32, id: &str) -> io::Result<Outcome> {
    let mut rng = day_rng(seed, day, id);
    // Every draw is made whatever the outcome, so one model's changes never
    // depend on another's.
    let remove = between(&mut rng, 0, u64::from(PER) - 1) < u64::from(REMOVED);
    let edit_card = between(&mut rng, 0, u64::from(PER) - 1) < u64::from(CARDS_EDITED);
    let likes_move = chance(&mut rng, 1, 10);
    let mut outcome = Outcome::default();
    if remove {
        fs::remove_dir_all(folder)?;
        outcome.removed = true;
        return Ok(outcome);
    }
    let path = folder.join("model.json");
    let text = fs::read_to_string(&path)?;
    let mut record: Value = serde_json::from_str(&text).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {e}", path.display())))?;
    if let Some(fields) = record.as_object_mut() {
        if let Some(downloads) = fields.get("downloads").and_then(Value::as_u64) {
            fields.insert("downloads".into(), Value::from(moved_downloads(&mut rng, downloads)));
        }
        if likes_move {
            if let Some(likes) = fields.get("likes").and_then(Value::as_u64) {
                let moved = moved_likes(&mut rng, likes);
                outcome.likes_moved = moved != likes;
                fields.insert("likes".into(), Value::from(moved));
            }
        }
    }
    let mut changed = serde_json::to_string_pretty(&record).expect("records are plain JSON");
    changed.push('\n');
    if changed != text {
        fs::write(&path, changed)?;
        outcome.counts_moved = true;
    }
    if edit_card {
        let card = folder.join("README.md");
        let mut body = fs::read_to_string(&card).or_else(|e| if e.kind() == io::ErrorKind::NotFound { Ok(String::new()) } else { Err(e) })?;
        body.push_str(&format!("\nRevised on day {day} of the synthetic hub.\n"));
        fs::write(&card, body)?;
        outcome.card_edited = true;
    }
    Ok(outcome)
}

/// The names of the folders in `dir`, sorted.
fn sorted_dirs(dir: &Path) -> io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            names.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn downloads_move_within_the_band_and_likes_stay_counts() {
        let mut rng = day_rng(1, 1, "a/b");
        for _ in 0..1000 {
            let d = moved_downloads(&mut rng, 10_000);
            assert!((9_000..=11_500).contains(&d), "{d}");
            assert!(moved_likes(&mut rng, 0) <= 1);
        }
        assert_ne!(added_index(1000, 1, 0), added_index(1000, 2, 0));
        assert!(added_index(1000, 1, 999) < added_index(1000, 2, 0));
    }
}
