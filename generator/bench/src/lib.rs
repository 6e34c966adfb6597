//! Shared set-up for the benchmarks: a synthetic corpus loaded once.

use modelpages_record::LoadedModel;
use modelpages_site::load_corpus;

/// Writes `count` synthetic models to a temporary folder and loads them.
pub fn synthetic_models(count: usize) -> (tempfile::TempDir, Vec<LoadedModel>) {
    let dir = tempfile::tempdir().expect("temporary folder");
    modelpages_synth::write_synthetic_corpus(dir.path(), count, modelpages_synth::DEFAULT_SEED)
        .expect("synthetic corpus");
    let corpus = load_corpus(dir.path()).expect("corpus loads");
    assert!(corpus.errors.is_empty(), "{:?}", corpus.errors);
    (dir, corpus.models)
}
