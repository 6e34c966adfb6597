//! The snippet-generation target: every example the build makes (library,
//! hosted inference with the streamed variants, local apps) for every model
//! of a 10,000-model synthetic corpus, on two threads as the build runs them
//! on the project's 2-core machine, with the build's allocator. Target:
//! 0.5 s.
//!
//! A bench of its own because the allocator is per binary: `stages` keeps the
//! system allocator its earlier figures were measured with.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use modelpages_bench::{all_examples, gguf_listings, synthetic_models};
use modelpages_snippets::{InferenceSettings, SnippetEngine};
use rayon::prelude::*;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const MODELS: usize = 10_000;
const THREADS: usize = 2;

fn snippets_parallel(c: &mut Criterion) {
    let (_dir, models) = synthetic_models(MODELS);
    let listings = gguf_listings(&models);
    let work: Vec<_> = models.iter().zip(&listings).collect();
    let engine = SnippetEngine::new();
    let settings = InferenceSettings::default();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(THREADS).build().expect("thread pool");
    let mut group = c.benchmark_group("snippets");
    group.throughput(Throughput::Elements(MODELS as u64));
    // Each run takes a good part of a second: time runs one by one.
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("all examples, 10000 models, 2 threads", |b| {
        b.iter(|| {
            pool.install(|| {
                work.par_iter().map(|(model, gguf)| all_examples(&engine, &settings, &model.record, gguf)).sum::<usize>()
            })
        })
    });
    group.finish();
}

criterion_group!(benches, snippets_parallel);
criterion_main!(benches);
