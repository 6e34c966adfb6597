//! The catalogue and the templates agree, and cover every library the Hub
//! shows usage examples for.

use modelpages_snippets::SnippetEngine;

/// The 125 libraries the public Hub shows usage examples for.
const HUB_LIBRARIES_WITH_SNIPPETS: &str = "adapter-transformers allennlp aneforge anemoi araclip asteroid \
    audiocraft audioseal ben2 bertopic birefnet bm25s cartesia_pytorch cartesia_mlx chatterbox chat_tts \
    chronos-forecasting collectorvision colipri cortiq cxr-foundation depth-anything-v2 depth-pro \
    derm-foundation describe-anything dia-tts dia2 diffusers diffusionkit edsnlp espnet fairseq fastai \
    fasttext flair flexray flextab gaussianformer gliner gliner2 htrflow index-tts jev-style keras tf-keras \
    keras-hub zeromodels kernels kimi-audio kittentts ltx lightning-ir litert-lm lerobot llama-cpp-python \
    mamba-ssm mars5-tts matanyone memra mesh-anything ml-agents mlx mlx-image model2vec mobilint moshi \
    multimolecule nemo nobg open_clip openasr opendde outetts paddlenlp PaddleOCR peft perception-encoder \
    phantom-wan pocket-tts pruna-ai pxia pyannote-audio pythae qwen3_tts relik renderformer routee-powertrain \
    saelens sam2 sam-3d-body sam-3d-objects sample-factory sap-rpt-1-oss sentence-transformers setfit sklearn \
    spacy span-marker speechbrain stable-audio-tools seed-story stable-baselines3 stanza supertonic swarmformer \
    tensorflowtts terratorch timm transformers transformers.js ultralytics univa unity-sentis sana videoprism \
    vfi-mamba lvface voicecraft voxcpm vui vibevoice whisperkit yolov10 zonos 3dtopia-xl";

#[test]
fn every_hub_snippet_library_has_templates() {
    let engine = SnippetEngine::new();
    let keys: Vec<&str> = HUB_LIBRARIES_WITH_SNIPPETS.split_whitespace().collect();
    assert_eq!(keys.len(), 125);
    let missing: Vec<_> = keys.iter().filter(|k| !engine.has_snippets(k)).collect();
    assert!(missing.is_empty(), "libraries without templates: {missing:?}");
    for key in keys {
        assert!(engine.catalogue().get(key).is_some(), "{key} is in the catalogue");
    }
}

#[test]
fn every_template_folder_is_a_catalogue_library() {
    let engine = SnippetEngine::new();
    assert_eq!(engine.templates_without_library(), Vec::<&str>::new());
}

#[test]
fn library_keys_are_safe_path_segments() {
    let engine = SnippetEngine::new();
    for library in engine.catalogue().libraries() {
        let key = &library.key;
        assert!(!key.is_empty() && key != "." && key != "..", "{key}");
        assert!(key.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)), "{key}");
    }
}
