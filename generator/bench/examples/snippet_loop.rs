//! Runs the build's snippet work over a corpus in a loop, for profilers and
//! instruction counts:
//!
//! ```sh
//! modelpages synth --count 10000 --out /tmp/snip10k
//! perf stat -e instructions:u target/release/examples/snippet_loop /tmp/snip10k 3
//! ```
//!
//! Arguments: the models folder, the number of rounds (default 1) and
//! `--parallel` to spread models over rayon's threads as the build does.

use std::path::PathBuf;
use std::time::Instant;

use modelpages_bench::{all_examples, gguf_listings};
use modelpages_site::load_corpus;
use modelpages_snippets::{InferenceSettings, SnippetEngine};
use rayon::prelude::*;

// The allocator the build uses (`modelpages` sets it too).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir: PathBuf = args.first().expect("usage: snippet_loop MODELS_DIR [ROUNDS] [--parallel]").into();
    let rounds: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    let parallel = args.iter().any(|a| a == "--parallel");
    let corpus = load_corpus(&dir).expect("corpus loads");
    let listings = gguf_listings(&corpus.models);
    let engine = SnippetEngine::new();
    let settings = InferenceSettings::default();
    let work: Vec<_> = corpus.models.iter().zip(&listings).collect();
    let start = Instant::now();
    let mut total = 0;
    for _ in 0..rounds {
        total += if parallel {
            work.par_iter().map(|(m, g)| all_examples(&engine, &settings, &m.record, g)).sum::<usize>()
        } else {
            work.iter().map(|(m, g)| all_examples(&engine, &settings, &m.record, g)).sum::<usize>()
        };
    }
    let per_round = start.elapsed().as_secs_f64() / rounds as f64;
    eprintln!("{} models, {total} examples in {rounds} rounds: {per_round:.3} s per round", work.len());
}
