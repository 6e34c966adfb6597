//! The facts of one synthetic model, drawn before its record and card are
//! written: library, task, family, size, name, license, languages, base model.

use crate::catalogue::{task_info, Family, Kind, Library, Size, Task, INFERENCE_TASKS, LIBRARIES};
use crate::dist::{below, between, chance, pick, several, weighted, SynthRng};
use crate::words::{Modality, LANGUAGES};

/// Models per namespace, on average.
pub const MODELS_PER_NAMESPACE: usize = 20;

/// One model drawn: what its record and card are written from.
pub struct Draft {
    pub index: usize,
    pub namespace: String,
    pub name: String,
    pub id: String,
    pub library: &'static Library,
    /// The pipeline tag; empty for none.
    pub task: &'static str,
    pub task_info: &'static Task,
    pub family: &'static Family,
    pub size: &'static Size,
    /// Parameters, in millions.
    pub params_m: u64,
    pub conversational: bool,
    pub flavour: &'static str,
    pub variant: &'static str,
    pub license: &'static str,
    pub languages: Vec<&'static str>,
    pub datasets: Vec<String>,
    pub base_model: Option<&'static str>,
    /// `finetune`, `quantized`, `adapter` or `merge`: how the model relates to its base.
    pub base_relation: &'static str,
    /// A diffusers LoRA (weights only, loaded on its base pipeline).
    pub lora: bool,
    pub instance_prompt: Option<String>,
    /// diffusers pipeline class, for full pipelines.
    pub pipeline_class: Option<&'static str>,
    /// A gguf repository with many quantizations.
    pub multi_quant: bool,
    pub modality: Modality,
}

impl Draft {
    pub fn kind(&self) -> Kind {
        self.library.kind
    }

    pub fn is_llm(&self) -> bool {
        matches!(self.task, "text-generation" | "image-text-to-text")
            && std::ptr::eq(self.family.sizes, crate::catalogue::LLM)
    }

    /// "7.6B" or "110M" parameters, for cards.
    pub fn params_label(&self) -> String {
        if self.params_m >= 1000 {
            format!("{}.{}B", self.params_m / 1000, self.params_m % 1000 / 100)
        } else {
            format!("{}M", self.params_m.max(1))
        }
    }

    /// The name without the index, title-cased: `Llama-Style-7B-Chat` (gguf files).
    pub fn file_stem(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        for part in self.family.stem.split('-').chain(self.size.label.split('-')).chain(self.variant.split('-')) {
            if part.is_empty() {
                continue;
            }
            let upper = part.ends_with('b') && part[..part.len() - 1].chars().all(|c| c.is_ascii_digit() || c == '.');
            parts.push(if upper { part.to_ascii_uppercase() } else { crate::words::capitalize(part) });
        }
        parts.join("-")
    }
}

/// How many namespaces a corpus of `count` models spreads over.
pub fn namespace_count(count: usize) -> usize {
    (count / MODELS_PER_NAMESPACE).max(1)
}

/// The namespace of a model: the first draw of its stream. Half the models
/// go to the busiest tenth of the namespaces, as on the Hub where a few
/// organisations publish most models.
pub fn namespace_index(rng: &mut SynthRng, count: usize) -> usize {
    let namespaces = namespace_count(count);
    if chance(rng, 1, 2) {
        below(rng, namespaces)
    } else {
        below(rng, (namespaces / 10).max(1))
    }
}

pub fn namespace_name(ns: usize) -> String {
    format!("synth-{}-{ns}", ["org", "lab", "user", "team", "studio"][ns % 5])
}

/// Draws model `index` of a corpus of `count`.
pub fn draft(rng: &mut SynthRng, index: usize, count: usize) -> Draft {
    let namespace = namespace_name(namespace_index(rng, count));

    // Each block of 1,000 models opens with one model of each inference task,
    // so a corpus of 1,000 has every task the inference examples know.
    let forced = INFERENCE_TASKS.get(index % 1000).copied();
    let (library, task) = match forced {
        Some(task) => {
            let candidates: Vec<(&'static Library, u32)> =
                LIBRARIES.iter().filter(|l| l.tasks.iter().any(|(t, _)| *t == task)).map(|l| (l, l.weight)).collect();
            (weighted(rng, &candidates), task)
        }
        None => {
            let all: Vec<(&'static Library, u32)> = LIBRARIES.iter().map(|l| (l, l.weight)).collect();
            let library = weighted(rng, &all);
            (library, weighted(rng, library.tasks))
        }
    };
    let info = task_info(task);
    let family = pick_family(rng, library, info);
    let sizes: Vec<(&'static Size, u32)> = family.sizes.iter().map(|s| (s, s.weight)).collect();
    let size = weighted(rng, &sizes);
    let conversational = matches!(task, "text-generation" | "image-text-to-text") && chance(rng, 1, 3);
    let lora = library.kind == Kind::Diffusers
        && task == "text-to-image"
        && matches!(family.stem, "flux-style" | "sdxl-style" | "sd15-style")
        && chance(rng, 2, 5);
    let pipeline_class = (library.kind == Kind::Diffusers && !lora).then(|| pipeline_class(family.stem, task));
    let params_m = match size.params_m {
        0 => diffusion_params(family.stem),
        p => p + between(rng, 0, p / 50),
    };
    let params_m = if lora { between(rng, 10, 600) } else { params_m };

    let llm = std::ptr::eq(family.sizes, crate::catalogue::LLM);
    let variant: &'static str = if llm && conversational {
        weighted(rng, &[("chat", 35), ("instruct", 40), ("it", 15), ("assistant", 10)])
    } else if llm {
        weighted(
            rng,
            &[
                ("base", 30),
                ("pt", 10),
                ("code", 12),
                ("math", 8),
                ("sft", 10),
                ("dpo", 6),
                ("long-context", 6),
                ("ft", 18),
            ],
        )
    } else {
        ""
    };
    let flavour: &'static str = if info.flavours.is_empty() { "" } else { pick(rng, info.flavours) };
    let suffix: &'static str = match library.kind {
        Kind::Gguf => "gguf",
        Kind::Mlx => weighted(rng, &[("4bit", 50), ("8bit", 25), ("bf16", 10), ("mlx", 15)]),
        Kind::Peft => weighted(rng, &[("lora", 60), ("qlora", 25), ("adapter", 15)]),
        Kind::Diffusers if lora => "lora",
        _ if library.key == "transformers.js" => "onnx",
        _ => "",
    };
    let size_label = match task {
        "" | "reinforcement-learning" | "robotics" | "tabular-classification" | "tabular-regression" => "",
        _ => size.label,
    };
    let name = [family.stem, size_label, variant, flavour, suffix]
        .iter()
        .filter(|p| !p.is_empty())
        .copied()
        .chain(std::iter::once(index.to_string().as_str()))
        .collect::<Vec<_>>()
        .join("-");
    let id = format!("{namespace}/{name}");
    let modality = Modality::of(task);

    let multi_quant = library.kind == Kind::Gguf && chance(rng, 2, 5);
    let base_model = base_model(rng, library.kind, family, lora);
    let base_relation = match (library.kind, base_model) {
        (_, None) => "",
        (Kind::Gguf | Kind::Mlx, _) => "quantized",
        (Kind::Peft, _) => "adapter",
        (Kind::Diffusers, _) if lora => "adapter",
        _ if chance(rng, 1, 25) => "merge",
        _ => "finetune",
    };
    let instance_prompt = lora.then(|| {
        let trigger = pick(rng, &["TOK", "sks", "ohwx", "zxq", "styl3"]);
        format!("{} {trigger} style", flavour.replace('-', " "))
    });
    Draft {
        index,
        namespace,
        name,
        id,
        library,
        task,
        task_info: info,
        family,
        size,
        params_m,
        conversational,
        flavour,
        variant,
        license: license(rng, family, library.kind),
        languages: languages(rng, modality, flavour),
        datasets: datasets(rng, modality),
        base_model,
        base_relation,
        lora,
        instance_prompt,
        pipeline_class,
        multi_quant,
        modality,
    }
}

/// transformers (and the libraries built on it) only get families with an
/// architecture; diffusers only diffusion families.
fn pick_family(rng: &mut SynthRng, library: &Library, info: &'static Task) -> &'static Family {
    let fits = |f: &&'static Family| match library.kind {
        Kind::Transformers | Kind::Peft | Kind::Mlx | Kind::SentenceTransformers => !f.arch.is_empty(),
        Kind::Diffusers => f.model_type.is_empty() && std::ptr::eq(f.sizes, crate::catalogue::DIFFUSION),
        _ => true,
    };
    let families: Vec<&'static Family> = info.families.iter().filter(fits).collect();
    match families.len() {
        0 => &info.families[below(rng, info.families.len())],
        n => families[below(rng, n)],
    }
}

fn pipeline_class(stem: &str, task: &str) -> &'static str {
    match (stem, task) {
        ("sdxl-style", "image-to-image") => "StableDiffusionXLImg2ImgPipeline",
        ("flux-style", "image-to-image") => "FluxImg2ImgPipeline",
        ("sdxl-style", _) => "StableDiffusionXLPipeline",
        ("flux-style", _) => "FluxPipeline",
        ("sd15-style", _) => "StableDiffusionPipeline",
        ("sd3-style", _) => "StableDiffusion3Pipeline",
        ("pixart-style", _) => "PixArtSigmaPipeline",
        ("wan-style", _) => "WanPipeline",
        ("ltx-style", "text-to-video") => "LTXPipeline",
        ("ltx-style", _) => "LTXImageToVideoPipeline",
        ("cogvideo-style", _) => "CogVideoXPipeline",
        ("hunyuan-video-style", _) => "HunyuanVideoPipeline",
        ("svd-style", _) => "StableVideoDiffusionPipeline",
        ("wan-i2v-style", _) => "WanImageToVideoPipeline",
        ("kontext-style", _) => "FluxKontextPipeline",
        ("qwen-edit-style", _) => "QwenImageEditPipeline",
        _ => "DDPMPipeline",
    }
}

fn diffusion_params(stem: &str) -> u64 {
    match stem {
        "flux-style" | "kontext-style" => 11_901,
        "sdxl-style" => 3_468,
        "sd15-style" => 1_066,
        "sd3-style" => 2_028,
        "pixart-style" => 611,
        "wan-style" | "wan-i2v-style" => 14_288,
        "ltx-style" => 1_924,
        "cogvideo-style" => 5_570,
        "hunyuan-video-style" => 12_821,
        "svd-style" => 1_524,
        "qwen-edit-style" => 20_430,
        _ => 114,
    }
}

fn base_model(rng: &mut SynthRng, kind: Kind, family: &Family, lora: bool) -> Option<&'static str> {
    let candidates: &[&'static str] = if lora {
        match family.stem {
            "flux-style" => &["black-forest-labs/FLUX.1-dev"],
            "sd15-style" => &["stable-diffusion-v1-5/stable-diffusion-v1-5"],
            _ => &["stabilityai/stable-diffusion-xl-base-1.0"],
        }
    } else {
        match family.model_type {
            "llama" => &["meta-llama/Llama-3.1-8B", "meta-llama/Llama-3.2-3B", "meta-llama/Llama-3.1-8B-Instruct"],
            "mistral" => &["mistralai/Mistral-7B-v0.3", "mistralai/Mistral-7B-Instruct-v0.3"],
            "qwen2" => &["Qwen/Qwen2.5-7B", "Qwen/Qwen2.5-1.5B-Instruct", "Qwen/Qwen2.5-7B-Instruct"],
            "qwen3" => &["Qwen/Qwen3-8B", "Qwen/Qwen3-4B", "Qwen/Qwen3-0.6B"],
            "gemma2" => &["google/gemma-2-9b", "google/gemma-2-2b-it"],
            "gemma3" => &["google/gemma-3-4b-it", "google/gemma-3-12b-it"],
            "phi3" => &["microsoft/Phi-3-mini-4k-instruct", "microsoft/Phi-3.5-mini-instruct"],
            "mixtral" => &["mistralai/Mixtral-8x7B-v0.1"],
            "gpt2" => &["openai-community/gpt2"],
            "qwen2_vl" => &["Qwen/Qwen2-VL-7B-Instruct", "Qwen/Qwen2-VL-2B-Instruct"],
            "llava" => &["llava-hf/llava-1.5-7b-hf"],
            "bert" => &["google-bert/bert-base-uncased", "google-bert/bert-base-cased"],
            "roberta" => &["FacebookAI/roberta-base", "FacebookAI/roberta-large"],
            "deberta-v2" => &["microsoft/deberta-v3-base", "microsoft/deberta-v3-small"],
            "distilbert" => &["distilbert/distilbert-base-uncased"],
            "xlm-roberta" => &["FacebookAI/xlm-roberta-base"],
            "modernbert" => &["answerdotai/ModernBERT-base"],
            "t5" => &["google-t5/t5-base", "google/flan-t5-base"],
            "bart" => &["facebook/bart-large", "facebook/bart-base"],
            "vit" => &["google/vit-base-patch16-224-in21k"],
            "whisper" => &["openai/whisper-small", "openai/whisper-large-v3"],
            "wav2vec2" => &["facebook/wav2vec2-base", "facebook/wav2vec2-xls-r-300m"],
            "clip" => &["openai/clip-vit-base-patch32"],
            _ => &[],
        }
    };
    if candidates.is_empty() {
        return None;
    }
    let likely = match kind {
        Kind::Peft => true,
        _ if lora => true,
        Kind::Gguf | Kind::Mlx => chance(rng, 4, 5),
        Kind::Transformers | Kind::SentenceTransformers => chance(rng, 3, 5),
        _ => chance(rng, 1, 5),
    };
    likely.then(|| pick(rng, candidates))
}

fn license(rng: &mut SynthRng, family: &Family, kind: Kind) -> &'static str {
    match family.model_type {
        "llama" if chance(rng, 7, 10) => return pick(rng, &["llama3.1", "llama3.2", "llama3"]),
        "gemma2" | "gemma3" if chance(rng, 7, 10) => return "gemma",
        _ => {}
    }
    if kind == Kind::Diffusers {
        return weighted(
            rng,
            &[("openrail++", 30), ("creativeml-openrail-m", 20), ("apache-2.0", 25), ("other", 15), ("mit", 10)],
        );
    }
    weighted(
        rng,
        &[
            ("apache-2.0", 40),
            ("mit", 22),
            ("cc-by-4.0", 6),
            ("cc-by-nc-4.0", 6),
            ("other", 6),
            ("openrail", 3),
            ("bsd-3-clause", 3),
            ("cc-by-sa-4.0", 3),
            ("gpl-3.0", 3),
            ("agpl-3.0", 1),
            ("afl-3.0", 1),
            ("unknown", 1),
            ("cc-by-nc-sa-4.0", 2),
            ("artistic-2.0", 1),
        ],
    )
}

fn languages(rng: &mut SynthRng, modality: Modality, flavour: &str) -> Vec<&'static str> {
    if let Some((code, _)) = LANGUAGES.iter().find(|(c, _)| *c == flavour) {
        return vec![code];
    }
    if modality != Modality::Text && modality != Modality::Audio {
        return if chance(rng, 1, 4) { vec!["en"] } else { Vec::new() };
    }
    if chance(rng, 1, 10) {
        return Vec::new();
    }
    let codes: Vec<&'static str> = LANGUAGES.iter().map(|(c, _)| *c).collect();
    match weighted(rng, &[(1, 70), (2, 12), (3, 8), (4, 10)]) {
        1 if chance(rng, 5, 7) => vec!["en"],
        1 => vec![pick(rng, &codes)],
        2 => vec!["en", pick(rng, &codes[1..])],
        3 => several(rng, &codes, 3..=3).into_iter().copied().collect(),
        _ => several(rng, &codes, 4..=9).into_iter().copied().collect(),
    }
}

fn datasets(rng: &mut SynthRng, modality: Modality) -> Vec<String> {
    if !chance(rng, 11, 20) {
        return Vec::new();
    }
    let (topics, public): (&[&str], &[&str]) = match modality {
        Modality::Text => (
            &[
                "web-text",
                "forum-threads",
                "reviews",
                "news-corpus",
                "instructions",
                "chat-logs",
                "code-snippets",
                "qa-pairs",
            ],
            &[
                "wikitext",
                "imdb",
                "squad",
                "glue",
                "conll2003",
                "HuggingFaceFW/fineweb-edu",
                "openai/gsm8k",
                "tatsu-lab/alpaca",
            ],
        ),
        Modality::Image | Modality::Video => (
            &["photos", "product-images", "street-scenes", "xray-scans", "captions", "clips"],
            &["ILSVRC/imagenet-1k", "detection-datasets/coco", "nateraw/pascal-voc-2012", "cifar10"],
        ),
        Modality::Audio => (
            &["read-speech", "podcasts", "call-recordings", "birdsong", "music-loops"],
            &["openslr/librispeech_asr", "mozilla-foundation/common_voice_17_0", "google/fleurs"],
        ),
        Modality::Tabular => {
            (&["sensor-logs", "ledgers", "survey-answers"], &["scikit-learn/iris", "inria-soda/tabular-benchmark"])
        }
        Modality::Control => {
            (&["episodes", "demonstrations", "rollouts"], &["lerobot/pusht", "lerobot/aloha_sim_insertion_human"])
        }
    };
    let n = 1 + below(rng, 3);
    let mut out: Vec<String> = Vec::with_capacity(n);
    for _ in 0..n {
        let dataset = if chance(rng, 1, 3) {
            pick(rng, public).to_string()
        } else {
            format!("synth-data/{}-{}", pick(rng, topics), between(rng, 1, 300))
        };
        if !out.contains(&dataset) {
            out.push(dataset);
        }
    }
    out
}
