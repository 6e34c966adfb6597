//! Shared set-up for the benchmarks: a synthetic corpus loaded once, and the
//! snippet work the build does for one model.

use modelpages_record::{LoadedModel, ModelRecord};
use modelpages_site::gguf::ModelGguf;
use modelpages_site::load_corpus;
use modelpages_snippets::inference::{request_kind, RequestKind};
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};

/// Writes `count` synthetic models to a temporary folder and loads them.
pub fn synthetic_models(count: usize) -> (tempfile::TempDir, Vec<LoadedModel>) {
    let dir = tempfile::tempdir().expect("temporary folder");
    modelpages_synth::write_synthetic_corpus(dir.path(), count, modelpages_synth::DEFAULT_SEED)
        .expect("synthetic corpus");
    let corpus = load_corpus(dir.path()).expect("corpus loads");
    assert!(corpus.errors.is_empty(), "{:?}", corpus.errors);
    (dir, corpus.models)
}

/// Each model's GGUF files as the build sees them. Reading the folder is
/// I/O, not snippet generation, so benchmarks do it once up front.
pub fn gguf_listings(models: &[LoadedModel]) -> Vec<ModelGguf> {
    models.iter().map(|m| modelpages_site::gguf::model_gguf(&m.source.dir, &m.record)).collect()
}

/// Every example the build generates for one model (`RenderStage::render`
/// in `modelpages-site`): the library's, the hosted-inference ones (plain,
/// plus streamed for chat models) and the local apps'. Returns how many, so
/// the work cannot be optimised away.
pub fn all_examples(engine: &SnippetEngine, settings: &InferenceSettings, record: &ModelRecord, gguf: &ModelGguf) -> usize {
    let mut count = 0;
    if let Some(usage) = engine.library_examples(record).expect("library examples") {
        count += usage.snippets.len();
    }
    count += engine.inference_examples(record, settings, &InferenceOptions::default()).expect("inference").snippets.len();
    if matches!(request_kind(record, engine.task_table()), Some(RequestKind::Chat)) {
        let streaming = InferenceOptions { streaming: true, ..InferenceOptions::default() };
        count += engine.inference_examples(record, settings, &streaming).expect("inference").snippets.len();
    }
    count += engine.local_app_examples(record, Some(&gguf.files)).expect("local apps").apps.len();
    count
}
