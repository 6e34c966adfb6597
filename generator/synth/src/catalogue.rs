//! What the synthetic corpus is made of: libraries in roughly the Hub's
//! proportions, the tasks each one serves, and the model families a task
//! draws its names, architectures and sizes from.

/// How a library lays out its repository and loads its models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Transformers,
    Diffusers,
    SentenceTransformers,
    Timm,
    Peft,
    Gguf,
    Mlx,
    /// Everything else: a config and one weights file.
    Other,
}

/// One library (`library_name`) of the corpus.
pub struct Library {
    pub key: &'static str,
    /// Share of the corpus, in models per 10,000.
    pub weight: u32,
    pub kind: Kind,
    /// Tasks and their weights within the library.
    pub tasks: &'static [(&'static str, u32)],
    /// The main weights file (for [`Kind::Other`]).
    pub weights_file: &'static str,
    /// What `pip install` takes.
    pub pip: &'static str,
}

const fn lib(
    key: &'static str,
    weight: u32,
    kind: Kind,
    tasks: &'static [(&'static str, u32)],
    weights_file: &'static str,
    pip: &'static str,
) -> Library {
    Library { key, weight, kind, tasks, weights_file, pip }
}

const fn other(
    key: &'static str,
    weight: u32,
    tasks: &'static [(&'static str, u32)],
    file: &'static str,
    pip: &'static str,
) -> Library {
    lib(key, weight, Kind::Other, tasks, file, pip)
}

/// Every library key but `gguf` is a key of the snippets catalogue
/// (`generator/snippets/data/libraries.json`); `gguf` is the Hub's own tag for
/// llama.cpp files, which the catalogue has no examples for.
#[rustfmt::skip]
pub static LIBRARIES: &[Library] = &[
    lib("transformers", 4500, Kind::Transformers, &[
        ("text-generation", 3000), ("text-classification", 1300), ("token-classification", 450),
        ("fill-mask", 450), ("feature-extraction", 350), ("question-answering", 280),
        ("summarization", 180), ("translation", 250), ("zero-shot-classification", 90),
        ("image-text-to-text", 600), ("image-classification", 450), ("object-detection", 170),
        ("image-segmentation", 110), ("image-to-text", 100), ("automatic-speech-recognition", 380),
        ("audio-classification", 160), ("text-to-speech", 70), ("text-to-audio", 50),
        ("zero-shot-image-classification", 80), ("document-question-answering", 40),
        ("table-question-answering", 30), ("depth-estimation", 40), ("video-classification", 40),
        ("image-feature-extraction", 50), ("visual-question-answering", 25), ("mask-generation", 15),
        ("zero-shot-object-detection", 25), ("image-to-image", 20),
    ], "model.safetensors", "transformers"),
    lib("diffusers", 800, Kind::Diffusers, &[
        ("text-to-image", 780), ("image-to-image", 70), ("text-to-video", 50), ("image-to-video", 40),
        ("image-text-to-image", 25), ("image-text-to-video", 20), ("unconditional-image-generation", 15),
    ], "diffusion_pytorch_model.safetensors", "diffusers"),
    lib("sentence-transformers", 600, Kind::SentenceTransformers, &[("sentence-similarity", 65), ("feature-extraction", 35)], "model.safetensors", "sentence-transformers"),
    lib("timm", 350, Kind::Timm, &[("image-classification", 85), ("image-feature-extraction", 15)], "model.safetensors", "timm"),
    lib("peft", 700, Kind::Peft, &[
        ("text-generation", 78), ("text-classification", 9), ("token-classification", 4),
        ("summarization", 3), ("translation", 2), ("feature-extraction", 4),
    ], "adapter_model.safetensors", "peft"),
    lib("gguf", 500, Kind::Gguf, &[("text-generation", 86), ("image-text-to-text", 9), ("feature-extraction", 5)], "model.gguf", "llama-cpp-python"),
    lib("mlx", 400, Kind::Mlx, &[("text-generation", 78), ("image-text-to-text", 10), ("automatic-speech-recognition", 8), ("text-to-speech", 4)], "model.safetensors", "mlx-lm"),
    // The long tail.
    other("sklearn", 190, &[("tabular-classification", 50), ("tabular-regression", 35), ("text-classification", 15)], "skops-model.pkl", "scikit-learn skops"),
    other("ultralytics", 170, &[("object-detection", 70), ("image-segmentation", 20), ("image-classification", 10)], "best.pt", "ultralytics"),
    other("speechbrain", 90, &[("automatic-speech-recognition", 40), ("audio-classification", 25), ("audio-to-audio", 20), ("text-to-speech", 15)], "model.ckpt", "speechbrain"),
    other("espnet", 60, &[("text-to-speech", 50), ("automatic-speech-recognition", 50)], "model.pth", "espnet espnet_model_zoo"),
    other("nemo", 70, &[("automatic-speech-recognition", 85), ("text-to-speech", 15)], "model.nemo", "nemo_toolkit[asr]"),
    other("pyannote-audio", 60, &[("voice-activity-detection", 55), ("automatic-speech-recognition", 45)], "pytorch_model.bin", "pyannote.audio"),
    other("open_clip", 60, &[("zero-shot-image-classification", 90), ("zero-shot-classification", 10)], "open_clip_model.safetensors", "open_clip_torch"),
    other("setfit", 90, &[("text-classification", 100)], "model.safetensors", "setfit"),
    other("spacy", 60, &[("token-classification", 80), ("text-classification", 20)], "model.whl", "spacy"),
    other("flair", 45, &[("token-classification", 100)], "pytorch_model.bin", "flair"),
    other("gliner", 60, &[("token-classification", 100)], "pytorch_model.bin", "gliner"),
    other("fastai", 50, &[("image-classification", 100)], "model.pkl", "fastai"),
    other("keras", 70, &[("image-classification", 60), ("text-classification", 25), ("image-segmentation", 15)], "model.keras", "keras"),
    other("tf-keras", 45, &[("image-classification", 60), ("text-classification", 40)], "saved_model.pb", "tf-keras"),
    other("keras-hub", 20, &[("text-generation", 60), ("image-classification", 40)], "model.weights.h5", "keras-hub"),
    other("transformers.js", 150, &[("feature-extraction", 35), ("text-classification", 20), ("image-classification", 15), ("automatic-speech-recognition", 15), ("text-generation", 15)], "onnx/model_quantized.onnx", "@huggingface/transformers"),
    other("model2vec", 50, &[("feature-extraction", 70), ("sentence-similarity", 30)], "model.safetensors", "model2vec"),
    other("stable-baselines3", 170, &[("reinforcement-learning", 100)], "model.zip", "stable-baselines3 huggingface_sb3"),
    other("ml-agents", 90, &[("reinforcement-learning", 100)], "model.onnx", "mlagents"),
    other("sample-factory", 30, &[("reinforcement-learning", 100)], "checkpoint.pth", "sample-factory"),
    other("llama-cpp-python", 100, &[("text-generation", 100)], "model.gguf", "llama-cpp-python"),
    other("adapter-transformers", 45, &[("question-answering", 35), ("text-classification", 40), ("token-classification", 25)], "pytorch_adapter.bin", "adapters"),
    other("span-marker", 15, &[("token-classification", 100)], "model.safetensors", "span_marker"),
    other("fasttext", 15, &[("feature-extraction", 60), ("text-classification", 40)], "model.bin", "fasttext"),
    other("bertopic", 15, &[("text-classification", 100)], "topics.json", "bertopic"),
    other("paddlenlp", 15, &[("fill-mask", 40), ("summarization", 30), ("zero-shot-classification", 30)], "model_state.pdparams", "paddlenlp"),
    other("asteroid", 15, &[("audio-to-audio", 100)], "pytorch_model.bin", "asteroid"),
    other("fairseq", 15, &[("text-to-speech", 40), ("audio-to-audio", 30), ("translation", 30)], "model.pt", "fairseq"),
    other("stanza", 10, &[("token-classification", 100)], "models/default.zip", "stanza"),
    other("unity-sentis", 10, &[("object-detection", 50), ("image-classification", 50)], "model.sentis", "unity-sentis"),
    other("whisperkit", 15, &[("automatic-speech-recognition", 100)], "AudioEncoder.mlmodelc/weights/weight.bin", "whisperkit"),
    other("mlx-image", 10, &[("image-classification", 100)], "model.safetensors", "mlx-image"),
    other("chronos-forecasting", 30, &[("time-series-forecasting", 100)], "model.safetensors", "chronos-forecasting"),
    other("timesfm", 10, &[("time-series-forecasting", 100)], "torch_model.ckpt", "timesfm"),
    other("depth-anything-v2", 10, &[("depth-estimation", 100)], "depth_anything_v2.pth", "depth-anything-v2"),
    other("sam2", 10, &[("mask-generation", 100)], "sam2_hiera.pt", "sam2"),
    other("birefnet", 10, &[("image-segmentation", 100)], "model.safetensors", "birefnet"),
    other("audiocraft", 10, &[("text-to-audio", 100)], "state_dict.bin", "audiocraft"),
    other("stable-audio-tools", 10, &[("text-to-audio", 100)], "model.safetensors", "stable-audio-tools"),
    other("chatterbox", 10, &[("text-to-speech", 100)], "t3_cfg.safetensors", "chatterbox-tts"),
    other("kittentts", 5, &[("text-to-speech", 100)], "model.onnx", "kittentts"),
    other("zonos", 5, &[("text-to-speech", 100)], "model.safetensors", "zonos"),
    other("sana", 10, &[("text-to-image", 100)], "checkpoints/model.pth", "sana"),
    other("ltx", 5, &[("text-to-video", 60), ("image-to-video", 40)], "ltx-video.safetensors", "ltx-video"),
    other("PaddleOCR", 10, &[("image-to-text", 100)], "inference.pdiparams", "paddleocr"),
    other("doctr", 10, &[("image-to-text", 100)], "pytorch_model.bin", "python-doctr"),
    other("lerobot", 50, &[("robotics", 100)], "model.safetensors", "lerobot"),
    other("colpali", 10, &[("visual-document-retrieval", 100)], "adapter_model.safetensors", "colpali-engine"),
    other("tabpfn", 5, &[("tabular-classification", 60), ("tabular-regression", 40)], "model.ckpt", "tabpfn"),
    other("mamba-ssm", 5, &[("text-generation", 100)], "pytorch_model.bin", "mamba-ssm"),
    other("rwkv", 5, &[("text-generation", 100)], "model.pth", "rwkv"),
    other("kernels", 5, &[("", 100)], "build/torch-universal/kernel/__init__.py", "kernels"),
    other("terratorch", 5, &[("image-segmentation", 100)], "model.pt", "terratorch"),
    other("pythae", 5, &[("image-to-image", 100)], "model.pt", "pythae"),
    other("vibevoice", 5, &[("text-to-speech", 100)], "model.safetensors", "vibevoice"),
];

/// A model family: the first part of a model's name, its transformers
/// architecture (when it has one) and `model_type`.
pub struct Family {
    pub stem: &'static str,
    pub arch: &'static str,
    pub model_type: &'static str,
    pub sizes: &'static [Size],
}

/// A size label in a name (`7b`, `base`) and the parameter count, in millions.
pub struct Size {
    pub label: &'static str,
    pub params_m: u64,
    pub weight: u32,
}

const fn size(label: &'static str, params_m: u64, weight: u32) -> Size {
    Size { label, params_m, weight }
}

#[rustfmt::skip]
pub static LLM: &[Size] = &[
    size("0.5b", 494, 8), size("1b", 1236, 10), size("1.5b", 1544, 8), size("3b", 3086, 12),
    size("7b", 7616, 22), size("8b", 8030, 16), size("13b", 13016, 6), size("14b", 14770, 6),
    size("32b", 32764, 6), size("70b", 70554, 4), size("72b", 72706, 2),
];
#[rustfmt::skip]
pub static ENCODER: &[Size] = &[
    size("tiny", 14, 5), size("mini", 33, 10), size("small", 60, 20), size("base", 110, 45),
    size("large", 335, 18), size("xl", 1500, 2),
];
#[rustfmt::skip]
pub static VISION: &[Size] = &[
    size("tiny", 6, 10), size("small", 22, 25), size("base", 86, 40), size("large", 304, 20), size("huge", 632, 5),
];
#[rustfmt::skip]
pub static AUDIO: &[Size] = &[
    size("tiny", 39, 15), size("base", 74, 25), size("small", 244, 30), size("medium", 769, 18), size("large", 1550, 12),
];
pub static DIFFUSION: &[Size] = &[size("", 0, 1)];
pub static COMPACT: &[Size] = &[size("small", 5, 40), size("medium", 25, 40), size("large", 90, 20)];

const fn fam(stem: &'static str, arch: &'static str, model_type: &'static str, sizes: &'static [Size]) -> Family {
    Family { stem, arch, model_type, sizes }
}

/// A task: how transformers loads its models and which families serve it.
pub struct Task {
    pub name: &'static str,
    pub auto_model: &'static str,
    pub processor: &'static str,
    pub families: &'static [Family],
    /// Words that end a name (`sentiment`, `ner`, ...).
    pub flavours: &'static [&'static str],
}

const fn task(
    name: &'static str,
    auto_model: &'static str,
    processor: &'static str,
    families: &'static [Family],
    flavours: &'static [&'static str],
) -> Task {
    Task { name, auto_model, processor, families, flavours }
}

static CAUSAL_LM: &[Family] = &[
    fam("llama-style", "LlamaForCausalLM", "llama", LLM),
    fam("mistral-style", "MistralForCausalLM", "mistral", LLM),
    fam("qwen-style", "Qwen2ForCausalLM", "qwen2", LLM),
    fam("qwen3-style", "Qwen3ForCausalLM", "qwen3", LLM),
    fam("gemma-style", "Gemma2ForCausalLM", "gemma2", LLM),
    fam("phi-style", "Phi3ForCausalLM", "phi3", LLM),
    fam("olmo-style", "OlmoForCausalLM", "olmo", LLM),
    fam("falcon-style", "FalconForCausalLM", "falcon", LLM),
    fam("gpt2-style", "GPT2LMHeadModel", "gpt2", ENCODER),
    fam("neox-style", "GPTNeoXForCausalLM", "gpt_neox", LLM),
    fam("mixtral-style", "MixtralForCausalLM", "mixtral", LLM),
];
static VLM: &[Family] = &[
    fam("qwen-vl-style", "Qwen2VLForConditionalGeneration", "qwen2_vl", LLM),
    fam("llava-style", "LlavaForConditionalGeneration", "llava", LLM),
    fam("idefics-style", "Idefics3ForConditionalGeneration", "idefics3", LLM),
    fam("gemma3-style", "Gemma3ForConditionalGeneration", "gemma3", LLM),
    fam("paligemma-style", "PaliGemmaForConditionalGeneration", "paligemma", LLM),
];

macro_rules! encoder_families {
    ($name:ident, $suffix:literal) => {
        static $name: &[Family] = &[
            fam("bert-style", concat!("Bert", $suffix), "bert", ENCODER),
            fam("roberta-style", concat!("Roberta", $suffix), "roberta", ENCODER),
            fam("deberta-style", concat!("DebertaV2", $suffix), "deberta-v2", ENCODER),
            fam("distilbert-style", concat!("DistilBert", $suffix), "distilbert", ENCODER),
            fam("electra-style", concat!("Electra", $suffix), "electra", ENCODER),
            fam("xlmr-style", concat!("XLMRoberta", $suffix), "xlm-roberta", ENCODER),
            fam("modernbert-style", concat!("ModernBert", $suffix), "modernbert", ENCODER),
        ];
    };
}
encoder_families!(SEQ_CLS, "ForSequenceClassification");
encoder_families!(TOKEN_CLS, "ForTokenClassification");
encoder_families!(MASKED_LM, "ForMaskedLM");
encoder_families!(QA, "ForQuestionAnswering");
encoder_families!(ENCODER_MODEL, "Model");

static SEQ2SEQ: &[Family] = &[
    fam("t5-style", "T5ForConditionalGeneration", "t5", ENCODER),
    fam("bart-style", "BartForConditionalGeneration", "bart", ENCODER),
    fam("pegasus-style", "PegasusForConditionalGeneration", "pegasus", ENCODER),
    fam("mt5-style", "MT5ForConditionalGeneration", "mt5", ENCODER),
];
static TRANSLATION: &[Family] = &[
    fam("marian-style", "MarianMTModel", "marian", COMPACT),
    fam("t5-style", "T5ForConditionalGeneration", "t5", ENCODER),
    fam("m2m-style", "M2M100ForConditionalGeneration", "m2m_100", ENCODER),
    fam("nllb-style", "M2M100ForConditionalGeneration", "m2m_100", ENCODER),
];
static ZERO_SHOT: &[Family] = &[
    fam("bart-style", "BartForSequenceClassification", "bart", ENCODER),
    fam("deberta-style", "DebertaV2ForSequenceClassification", "deberta-v2", ENCODER),
    fam("xlmr-style", "XLMRobertaForSequenceClassification", "xlm-roberta", ENCODER),
];
static IMAGE_CLS: &[Family] = &[
    fam("vit-style", "ViTForImageClassification", "vit", VISION),
    fam("convnext-style", "ConvNextForImageClassification", "convnext", VISION),
    fam("swin-style", "SwinForImageClassification", "swin", VISION),
    fam("resnet-style", "ResNetForImageClassification", "resnet", VISION),
    fam("efficientnet-style", "EfficientNetForImageClassification", "efficientnet", VISION),
    fam("beit-style", "BeitForImageClassification", "beit", VISION),
];
static DETECTION: &[Family] = &[
    fam("detr-style", "DetrForObjectDetection", "detr", VISION),
    fam("rtdetr-style", "RTDetrForObjectDetection", "rt_detr", VISION),
    fam("yolos-style", "YolosForObjectDetection", "yolos", VISION),
    fam("yolo-style", "", "yolo", VISION),
];
static SEGMENTATION: &[Family] = &[
    fam("segformer-style", "SegformerForSemanticSegmentation", "segformer", VISION),
    fam("mask2former-style", "Mask2FormerForUniversalSegmentation", "mask2former", VISION),
    fam("unet-style", "", "unet", VISION),
];
static IMAGE_TO_TEXT: &[Family] = &[
    fam("blip-style", "BlipForConditionalGeneration", "blip", VISION),
    fam("trocr-style", "VisionEncoderDecoderModel", "vision-encoder-decoder", VISION),
    fam("git-style", "GitForCausalLM", "git", VISION),
];
static ASR: &[Family] = &[
    fam("whisper-style", "WhisperForConditionalGeneration", "whisper", AUDIO),
    fam("wav2vec2-style", "Wav2Vec2ForCTC", "wav2vec2", AUDIO),
    fam("hubert-style", "HubertForCTC", "hubert", AUDIO),
    fam("parakeet-style", "", "parakeet", AUDIO),
];
static AUDIO_CLS: &[Family] = &[
    fam("ast-style", "ASTForAudioClassification", "audio-spectrogram-transformer", AUDIO),
    fam("wav2vec2-style", "Wav2Vec2ForSequenceClassification", "wav2vec2", AUDIO),
    fam("beats-style", "", "beats", AUDIO),
];
static TTS: &[Family] = &[
    fam("vits-style", "VitsModel", "vits", COMPACT),
    fam("speecht5-style", "SpeechT5ForTextToSpeech", "speecht5", AUDIO),
    fam("kokoro-style", "", "kokoro", COMPACT),
];
static TEXT_TO_AUDIO: &[Family] = &[
    fam("musicgen-style", "MusicgenForConditionalGeneration", "musicgen", AUDIO),
    fam("audioldm-style", "", "audioldm", AUDIO),
];
static AUDIO_TO_AUDIO: &[Family] = &[
    fam("sepformer-style", "", "sepformer", COMPACT),
    fam("demucs-style", "", "demucs", COMPACT),
    fam("metricgan-style", "", "metricgan", COMPACT),
];
static ZERO_SHOT_IMAGE: &[Family] =
    &[fam("clip-style", "CLIPModel", "clip", VISION), fam("siglip-style", "SiglipModel", "siglip", VISION)];
static DOC_QA: &[Family] = &[
    fam("layoutlm-style", "LayoutLMForQuestionAnswering", "layoutlm", ENCODER),
    fam("donut-style", "VisionEncoderDecoderModel", "vision-encoder-decoder", VISION),
];
static TABLE_QA: &[Family] = &[fam("tapas-style", "TapasForQuestionAnswering", "tapas", ENCODER)];
static DEPTH: &[Family] = &[
    fam("dpt-style", "DPTForDepthEstimation", "dpt", VISION),
    fam("depth-anything-style", "DepthAnythingForDepthEstimation", "depth_anything", VISION),
];
static VIDEO_CLS: &[Family] = &[
    fam("videomae-style", "VideoMAEForVideoClassification", "videomae", VISION),
    fam("timesformer-style", "TimesformerForVideoClassification", "timesformer", VISION),
];
static IMAGE_FEATURES: &[Family] =
    &[fam("dinov2-style", "Dinov2Model", "dinov2", VISION), fam("vit-style", "ViTModel", "vit", VISION)];
static VQA: &[Family] = &[
    fam("vilt-style", "ViltForQuestionAnswering", "vilt", VISION),
    fam("blip-style", "BlipForQuestionAnswering", "blip", VISION),
];
static MASK_GEN: &[Family] = &[fam("sam-style", "SamModel", "sam", VISION)];
static ZERO_SHOT_DET: &[Family] = &[
    fam("owlvit-style", "OwlViTForObjectDetection", "owlvit", VISION),
    fam("grounding-dino-style", "GroundingDinoForObjectDetection", "grounding-dino", VISION),
];
static IMAGE_TO_IMAGE: &[Family] = &[
    fam("swin2sr-style", "Swin2SRForImageSuperResolution", "swin2sr", VISION),
    fam("sdxl-style", "", "", DIFFUSION),
    fam("flux-style", "", "", DIFFUSION),
];
static TEXT_TO_IMAGE: &[Family] = &[
    fam("sdxl-style", "", "", DIFFUSION),
    fam("flux-style", "", "", DIFFUSION),
    fam("sd15-style", "", "", DIFFUSION),
    fam("sd3-style", "", "", DIFFUSION),
    fam("pixart-style", "", "", DIFFUSION),
];
static TEXT_TO_VIDEO: &[Family] = &[
    fam("wan-style", "", "", DIFFUSION),
    fam("ltx-style", "", "", DIFFUSION),
    fam("cogvideo-style", "", "", DIFFUSION),
    fam("hunyuan-video-style", "", "", DIFFUSION),
];
static IMAGE_TO_VIDEO: &[Family] = &[
    fam("svd-style", "", "", DIFFUSION),
    fam("wan-i2v-style", "", "", DIFFUSION),
    fam("ltx-style", "", "", DIFFUSION),
];
static IMAGE_EDIT: &[Family] = &[fam("kontext-style", "", "", DIFFUSION), fam("qwen-edit-style", "", "", DIFFUSION)];
static UNCONDITIONAL: &[Family] = &[fam("ddpm-style", "", "", DIFFUSION)];
static TABULAR: &[Family] = &[
    fam("gbdt-style", "", "", COMPACT),
    fam("random-forest-style", "", "", COMPACT),
    fam("logreg-style", "", "", COMPACT),
];
static RL: &[Family] = &[
    fam("ppo", "", "", COMPACT),
    fam("dqn", "", "", COMPACT),
    fam("sac", "", "", COMPACT),
    fam("a2c", "", "", COMPACT),
];
static FORECAST: &[Family] = &[fam("chronos-style", "", "t5", ENCODER), fam("patchtst-style", "", "patchtst", COMPACT)];
static ROBOTICS: &[Family] = &[fam("act-style", "", "", COMPACT), fam("diffusion-policy-style", "", "", COMPACT)];
static RETRIEVAL: &[Family] = &[fam("colpali-style", "", "", LLM)];
static VAD: &[Family] = &[fam("segmentation-style", "", "", COMPACT)];
static KERNEL: &[Family] = &[fam("kernel", "", "", COMPACT)];

#[rustfmt::skip]
pub static TASKS: &[Task] = &[
    task("text-generation", "AutoModelForCausalLM", "AutoTokenizer", CAUSAL_LM, &[]),
    task("image-text-to-text", "AutoModelForImageTextToText", "AutoProcessor", VLM, &[]),
    task("text-classification", "AutoModelForSequenceClassification", "AutoTokenizer", SEQ_CLS,
        &["sentiment", "emotion", "toxicity", "topic", "spam", "intent", "news", "review", "stance", "language-id", "formality", "sarcasm"]),
    task("token-classification", "AutoModelForTokenClassification", "AutoTokenizer", TOKEN_CLS,
        &["ner", "pos", "pii", "chunking", "keyphrase", "address-parser", "biomed-ner", "skills"]),
    task("fill-mask", "AutoModelForMaskedLM", "AutoTokenizer", MASKED_LM,
        &["cased", "uncased", "legal", "biomed", "code", "social", "finance", "historic"]),
    task("feature-extraction", "AutoModel", "AutoTokenizer", ENCODER_MODEL,
        &["embed", "retrieval", "code-embed", "multilingual-embed", "sparse", "passage"]),
    task("sentence-similarity", "AutoModel", "AutoTokenizer", ENCODER_MODEL,
        &["embed", "retrieval", "paraphrase", "qa-embed", "multilingual", "matryoshka"]),
    task("question-answering", "AutoModelForQuestionAnswering", "AutoTokenizer", QA,
        &["extractive-qa", "squad-like", "faq-qa", "long-qa", "biomed-qa"]),
    task("summarization", "AutoModelForSeq2SeqLM", "AutoTokenizer", SEQ2SEQ,
        &["news-sum", "dialog-sum", "tldr", "meeting-sum", "paper-sum"]),
    task("translation", "AutoModelForSeq2SeqLM", "AutoTokenizer", TRANSLATION,
        &["en-de", "en-fr", "fr-en", "de-en", "en-es", "zh-en", "en-ja", "multi"]),
    task("zero-shot-classification", "AutoModelForSequenceClassification", "AutoTokenizer", ZERO_SHOT,
        &["nli", "zeroshot", "mnli", "xnli"]),
    task("image-classification", "AutoModelForImageClassification", "AutoImageProcessor", IMAGE_CLS,
        &["food", "plants", "birds", "xray", "satellite", "fashion", "artwork", "defects", "in1k"]),
    task("object-detection", "AutoModelForObjectDetection", "AutoImageProcessor", DETECTION,
        &["coco", "traffic", "retail", "ppe", "documents", "aerial", "pets"]),
    task("image-segmentation", "AutoModelForSemanticSegmentation", "AutoImageProcessor", SEGMENTATION,
        &["ade", "cityscapes", "matting", "background-removal", "cells", "floods", "crops"]),
    task("image-to-text", "AutoModelForVision2Seq", "AutoProcessor", IMAGE_TO_TEXT,
        &["captions", "ocr", "handwriting", "receipts", "latex-ocr"]),
    task("automatic-speech-recognition", "AutoModelForSpeechSeq2Seq", "AutoProcessor", ASR,
        &["en", "multilingual", "fr", "de", "es", "hi", "sw", "call-center", "medical-dictation"]),
    task("audio-classification", "AutoModelForAudioClassification", "AutoFeatureExtractor", AUDIO_CLS,
        &["audioset", "keyword-spotting", "emotion", "speaker-id", "birdsong", "genre"]),
    task("text-to-speech", "AutoModelForTextToWaveform", "AutoTokenizer", TTS,
        &["en", "fr", "de", "es", "ja", "expressive", "multispeaker"]),
    task("text-to-audio", "AutoModelForTextToWaveform", "AutoProcessor", TEXT_TO_AUDIO,
        &["music", "sfx", "ambient", "loops"]),
    task("audio-to-audio", "", "", AUDIO_TO_AUDIO, &["enhancement", "separation", "denoise", "dereverb"]),
    task("zero-shot-image-classification", "AutoModelForZeroShotImageClassification", "AutoProcessor", ZERO_SHOT_IMAGE,
        &["laion", "webli", "datacomp", "medical", "remote-sensing"]),
    task("document-question-answering", "AutoModelForDocumentQuestionAnswering", "AutoProcessor", DOC_QA,
        &["invoices", "docvqa", "forms", "receipts"]),
    task("table-question-answering", "AutoModelForTableQuestionAnswering", "AutoTokenizer", TABLE_QA,
        &["wtq", "sqa", "wikisql", "finance-tables"]),
    task("depth-estimation", "AutoModelForDepthEstimation", "AutoImageProcessor", DEPTH, &["indoor", "outdoor", "metric", "relative"]),
    task("video-classification", "AutoModelForVideoClassification", "AutoImageProcessor", VIDEO_CLS,
        &["kinetics", "gestures", "sports", "actions"]),
    task("image-feature-extraction", "AutoModel", "AutoImageProcessor", IMAGE_FEATURES, &["features", "patch", "retrieval"]),
    task("visual-question-answering", "AutoModelForVisualQuestionAnswering", "AutoProcessor", VQA, &["vqa", "charts", "scenes"]),
    task("mask-generation", "AutoModelForMaskGeneration", "AutoProcessor", MASK_GEN, &["hq", "medical", "fast"]),
    task("zero-shot-object-detection", "AutoModelForZeroShotObjectDetection", "AutoProcessor", ZERO_SHOT_DET,
        &["open-vocab", "grounding", "lvis"]),
    task("image-to-image", "AutoModelForImageToImage", "AutoImageProcessor", IMAGE_TO_IMAGE,
        &["upscale", "restore", "colorize", "sketch2img", "inpaint"]),
    task("text-to-image", "", "", TEXT_TO_IMAGE,
        &["anime", "watercolor", "pixel-art", "photoreal", "sketch", "isometric", "claymation", "ink", "vaporwave", "papercut", "retro-poster"]),
    task("text-to-video", "", "", TEXT_TO_VIDEO, &["cinematic", "anime", "timelapse", "product-shots", "drone"]),
    task("image-to-video", "", "", IMAGE_TO_VIDEO, &["animate", "motion", "loop", "parallax"]),
    task("image-text-to-image", "", "", IMAGE_EDIT, &["edit", "relight", "restyle", "object-removal"]),
    task("image-text-to-video", "", "", IMAGE_TO_VIDEO, &["animate", "story", "motion-prompt"]),
    task("unconditional-image-generation", "", "", UNCONDITIONAL, &["butterflies", "faces", "churches", "textures"]),
    task("tabular-classification", "", "", TABULAR, &["churn", "credit-risk", "wine-quality", "fraud", "titanic", "heart-disease"]),
    task("tabular-regression", "", "", TABULAR, &["house-prices", "energy-load", "demand", "fuel-use", "delivery-time"]),
    task("reinforcement-learning", "", "", RL,
        &["LunarLander-v2", "CartPole-v1", "PandaReach-v3", "SpaceInvadersNoFrameskip-v4", "Huggy", "SnowballTarget", "doom-health"]),
    task("time-series-forecasting", "", "", FORECAST, &["energy", "traffic", "retail", "weather"]),
    task("robotics", "", "", ROBOTICS, &["aloha-pick", "so100-stack", "pusht", "drawer-open"]),
    task("visual-document-retrieval", "", "", RETRIEVAL, &["docs", "slides", "multilingual"]),
    task("voice-activity-detection", "", "", VAD, &["diarization", "vad", "overlap"]),
    task("", "", "", KERNEL, &["activation", "layer-norm", "rotary", "flash-attn", "moe"]),
];

/// The task table entry for `name` (every task a library lists has one).
pub fn task_info(name: &str) -> &'static Task {
    TASKS.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no task entry for {name:?}"))
}

/// The tasks of `generator/snippets/data/inference_tasks.json`: the corpus
/// holds each of them in every block of 1,000 models.
#[rustfmt::skip]
pub static INFERENCE_TASKS: &[&str] = &[
    "audio-classification", "audio-to-audio", "automatic-speech-recognition", "document-question-answering",
    "feature-extraction", "fill-mask", "image-classification", "image-segmentation", "image-text-to-image",
    "image-text-to-video", "image-to-image", "image-to-text", "image-to-video", "object-detection",
    "question-answering", "sentence-similarity", "summarization", "table-question-answering",
    "tabular-classification", "tabular-regression", "text-classification", "text-generation", "text-to-audio",
    "text-to-image", "text-to-speech", "text-to-video", "token-classification", "translation",
    "zero-shot-classification", "zero-shot-image-classification",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_library_task_has_an_entry_and_families() {
        for lib in LIBRARIES {
            for (task, _) in lib.tasks {
                assert!(!task_info(task).families.is_empty(), "{} {task}", lib.key);
            }
        }
        for t in TASKS {
            for f in t.families {
                assert!(!f.sizes.is_empty(), "{}", f.stem);
            }
        }
    }

    #[test]
    fn every_inference_task_has_a_library() {
        for task in INFERENCE_TASKS {
            assert!(LIBRARIES.iter().any(|l| l.tasks.iter().any(|(t, _)| t == task)), "{task}");
        }
    }

    #[test]
    fn transformers_share_is_about_45_percent() {
        let total: u32 = LIBRARIES.iter().map(|l| l.weight).sum();
        assert_eq!(total, 10_000, "weights are per 10,000 models");
        assert_eq!(LIBRARIES[0].key, "transformers");
        let keys: std::collections::HashSet<_> = LIBRARIES.iter().map(|l| l.key).collect();
        assert_eq!(keys.len(), LIBRARIES.len(), "keys are unique");
    }
}
