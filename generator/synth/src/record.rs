//! `model.json`: the record in the Hub API's shape, from a draft.

use serde_json::{json, Map, Value};

use crate::card::card_tags;
use crate::catalogue::Kind;
use crate::dist::{below, between, chance, pick, several, weighted, SynthRng};
use crate::draft::Draft;
use crate::words;

/// The record of `draft`, whose card is `card_len` bytes long.
pub fn record(rng: &mut SynthRng, draft: &Draft, card_len: usize) -> Value {
    let mut r = listing_fields(rng, draft);
    if let Some(config) = config(rng, draft) {
        r.insert("config".into(), config);
    }
    if draft.kind() == Kind::Transformers {
        r.insert(
            "transformersInfo".into(),
            json!({
                "auto_model": draft.task_info.auto_model,
                "pipeline_tag": draft.task,
                "processor": draft.task_info.processor,
            }),
        );
    }
    if let Some(widget) = widget(rng, draft) {
        r.insert("widgetData".into(), json!([widget]));
    }
    r.insert("cardData".into(), card_data(draft));
    if let Some(mapping) = provider_mapping(rng, draft) {
        r.insert("inferenceProviderMapping".into(), mapping);
    }
    r.insert("siblings".into(), siblings(rng, draft, card_len));
    counts(rng, &mut r);
    Value::Object(r)
}

/// The record of `draft` with only what listings and search use: id, task,
/// library, tags, downloads, likes and date.
pub fn minimal_record(rng: &mut SynthRng, draft: &Draft) -> Value {
    let mut r = listing_fields(rng, draft);
    counts(rng, &mut r);
    Value::Object(r)
}

/// The fields a record starts with: id, task, library and tags.
fn listing_fields(rng: &mut SynthRng, draft: &Draft) -> Map<String, Value> {
    let mut r = Map::new();
    r.insert("id".into(), json!(draft.id));
    if !draft.task.is_empty() {
        r.insert("pipeline_tag".into(), json!(draft.task));
    }
    r.insert("library_name".into(), json!(draft.library.key));
    r.insert("tags".into(), json!(tags(rng, draft)));
    r
}

/// The fields a record ends with: downloads, likes and date.
fn counts(rng: &mut SynthRng, r: &mut Map<String, Value>) {
    let downloads = crate::dist::downloads(rng);
    r.insert("downloads".into(), json!(downloads));
    r.insert("likes".into(), json!(crate::dist::likes(rng, downloads)));
    r.insert("lastModified".into(), json!(crate::dist::last_modified(rng)));
}

fn tags(rng: &mut SynthRng, draft: &Draft) -> Vec<String> {
    let mut tags: Vec<String> = vec![draft.library.key.to_string()];
    let push = |tags: &mut Vec<String>, tag: &str| {
        if !tag.is_empty() && !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_string());
        }
    };
    match draft.kind() {
        Kind::Gguf => push(&mut tags, "gguf"),
        Kind::Mlx => push(&mut tags, "mlx"),
        Kind::Other => {}
        _ => push(&mut tags, if chance(rng, 9, 10) { "safetensors" } else { "pytorch" }),
    }
    if draft.kind() == Kind::Transformers && chance(rng, 1, 8) {
        push(&mut tags, "onnx");
    }
    if matches!(draft.kind(), Kind::Transformers | Kind::Gguf | Kind::Mlx | Kind::SentenceTransformers) {
        push(&mut tags, draft.family.model_type);
    }
    push(&mut tags, draft.task);
    if draft.kind() == Kind::Diffusers {
        if let Some(class) = draft.pipeline_class {
            push(&mut tags, &format!("diffusers:{class}"));
        }
    }
    for tag in card_tags(draft) {
        push(&mut tags, &tag);
    }
    if draft.conversational {
        push(&mut tags, "conversational");
    }
    if draft.kind() == Kind::Transformers && chance(rng, 1, 30) {
        push(&mut tags, "custom_code");
    }
    for lang in &draft.languages {
        push(&mut tags, lang);
    }
    for dataset in &draft.datasets {
        push(&mut tags, &format!("dataset:{dataset}"));
    }
    if let Some(base) = draft.base_model {
        push(&mut tags, &format!("base_model:{base}"));
        push(&mut tags, &format!("base_model:{}:{base}", draft.base_relation));
    }
    push(&mut tags, &format!("license:{}", draft.license));
    if draft.is_llm() && draft.kind() == Kind::Transformers {
        push(&mut tags, "text-generation-inference");
    }
    if draft.kind() == Kind::Transformers && chance(rng, 3, 5) {
        push(&mut tags, "endpoints_compatible");
    }
    push(&mut tags, "region:us");
    tags
}

/// A chat template of the family its end token belongs to (written for the
/// synthetic corpus, in the shapes real ones take): chosen by the token, so
/// no random draw is added and the rest of the corpus stays as it was.
fn chat_template(eos: &str) -> &'static str {
    match eos {
        "<|im_end|>" => "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}",
        "<|eot_id|>" => "{{ bos_token }}{% if tools %}{{ '<|start_header_id|>system<|end_header_id|>\n\n' }}{% for tool in tools %}{{ tool | tojson(indent=4) }}{% endfor %}{{ '<|eot_id|>' }}{% endif %}{% for message in messages %}{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\n\n' }}{% if message.tool_calls is defined %}{{ message.tool_calls[0].function | tojson }}{% else %}{{ message['content'] | trim }}{% endif %}{{ '<|eot_id|>' }}{% endfor %}{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\n\n' }}{% endif %}",
        "<end_of_turn>" => "{{ bos_token }}{% for message in messages %}{% if message['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{{ '<start_of_turn>' + ('model' if message['role'] == 'assistant' else message['role']) + '\n' + message['content'] | trim + '<end_of_turn>\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<start_of_turn>model\n' }}{% endif %}",
        _ => "{% for message in messages %}{{ '<|' + message['role'] + '|>\n' + message['content'] + eos_token + '\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% endif %}",
    }
}

fn config(rng: &mut SynthRng, draft: &Draft) -> Option<Value> {
    let arch = draft.family.arch;
    match draft.kind() {
        Kind::Transformers | Kind::SentenceTransformers => {
            let mut c = json!({"architectures": [arch], "model_type": draft.family.model_type});
            if draft.conversational {
                let eos = pick(rng, &["</s>", "<|im_end|>", "<|eot_id|>", "<end_of_turn>"]);
                c["tokenizer_config"] = json!({
                    "bos_token": "<s>",
                    "eos_token": eos,
                    "pad_token": null,
                    "chat_template": chat_template(eos),
                });
            }
            Some(c)
        }
        Kind::Peft => {
            let task_type = match draft.task {
                "text-generation" => "CAUSAL_LM",
                "text-classification" => "SEQ_CLS",
                "token-classification" => "TOKEN_CLS",
                "summarization" | "translation" => "SEQ_2_SEQ_LM",
                _ => "FEATURE_EXTRACTION",
            };
            let base = draft.base_model.unwrap_or("meta-llama/Llama-3.1-8B");
            Some(json!({"peft": {"base_model_name_or_path": base, "task_type": task_type}}))
        }
        Kind::Diffusers => draft.pipeline_class.map(|class| json!({"diffusers": {"_class_name": class}})),
        Kind::Timm => Some(json!({
            "architecture": format!("{}_{}_patch16_224", draft.family.model_type, draft.size.label),
            "num_classes": pick(rng, &[10, 100, 200, 1000, 11821]),
            "num_features": pick(rng, &[384, 768, 1024, 1280]),
        })),
        Kind::Gguf => Some(json!({"model_type": draft.family.model_type})),
        Kind::Mlx => {
            let bits = match draft.name.contains("8bit") {
                true => 8,
                false => 4,
            };
            Some(json!({
                "architectures": [arch],
                "model_type": draft.family.model_type,
                "quantization": {"group_size": 64, "bits": bits},
            }))
        }
        Kind::Other => None,
    }
}

fn widget(rng: &mut SynthRng, draft: &Draft) -> Option<Value> {
    if !chance(rng, 3, 5) {
        return None;
    }
    let text = |s: &str| Some(json!({"text": s}));
    match draft.task {
        "text-generation" if draft.conversational => text(pick(rng, words::CHAT_PROMPTS)),
        "text-generation" => text(pick(rng, words::COMPLETIONS)),
        "text-classification" | "zero-shot-classification" => text(pick(rng, words::REVIEWS)),
        "token-classification" => text(pick(rng, words::ENTITIES)),
        "fill-mask" if !matches!(draft.family.model_type, "roberta" | "xlm-roberta") => text(pick(rng, words::MASKED)),
        "summarization" | "translation" => text(pick(rng, words::PASSAGES)),
        "question-answering" => {
            let (q, c) = pick(rng, words::QUESTIONS);
            Some(json!({"text": q, "context": c}))
        }
        "sentence-similarity" => {
            let (source, sentences) = pick(rng, words::SIMILARITY);
            Some(json!({"source_sentence": source, "sentences": sentences}))
        }
        "text-to-image" => match &draft.instance_prompt {
            Some(trigger) => text(&format!("{trigger}, {}", pick(rng, words::IMAGE_PROMPTS))),
            None => text(pick(rng, words::IMAGE_PROMPTS)),
        },
        "text-to-video" => text(pick(rng, words::VIDEO_PROMPTS)),
        "text-to-speech" => text(pick(rng, words::SPEECH_LINES)),
        "text-to-audio" => text(pick(rng, words::MUSIC_PROMPTS)),
        _ => None,
    }
}

fn card_data(draft: &Draft) -> Value {
    let mut c = Map::new();
    c.insert("license".into(), json!(draft.license));
    if !draft.languages.is_empty() {
        c.insert("language".into(), json!(draft.languages));
    }
    c.insert("library_name".into(), json!(draft.library.key));
    if !draft.task.is_empty() {
        c.insert("pipeline_tag".into(), json!(draft.task));
    }
    let tags = card_tags(draft);
    if !tags.is_empty() {
        c.insert("tags".into(), json!(tags));
    }
    if !draft.datasets.is_empty() {
        c.insert("datasets".into(), json!(draft.datasets));
    }
    if let Some(base) = draft.base_model {
        c.insert("base_model".into(), json!(base));
    }
    if let Some(prompt) = &draft.instance_prompt {
        c.insert("instance_prompt".into(), json!(prompt));
    }
    Value::Object(c)
}

/// Chat providers with an OpenAI-compatible API, and how each spells model ids.
const CHAT_PROVIDERS: &[&str] = &[
    "together",
    "groq",
    "nebius",
    "fireworks-ai",
    "novita",
    "sambanova",
    "featherless-ai",
    "hyperbolic",
    "cerebras",
    "nscale",
];

/// About 5% of the models are served by inference providers: chat models
/// most often, then image and video generation through fal-ai.
fn provider_mapping(rng: &mut SynthRng, draft: &Draft) -> Option<Value> {
    let fal_task = matches!(
        draft.task,
        "text-to-image"
            | "image-to-image"
            | "text-to-video"
            | "image-to-video"
            | "image-text-to-image"
            | "image-text-to-video"
    );
    let served = crate::catalogue::INFERENCE_TASKS.contains(&draft.task);
    // Providers serve full models of the big libraries; chat adapters and
    // quantized files are left out.
    let full_model =
        matches!(draft.kind(), Kind::Transformers | Kind::SentenceTransformers | Kind::Diffusers | Kind::Timm);
    let chat = draft.conversational && draft.kind() == Kind::Transformers;
    let per_mille = match () {
        _ if !full_model => 0,
        _ if chat => 220,
        _ if fal_task => 160,
        _ if served && !draft.conversational => 55,
        _ => 0,
    };
    if per_mille == 0 || !chance(rng, per_mille, 1000) {
        return None;
    }
    let status = |rng: &mut SynthRng| weighted(rng, &[("live", 90), ("staging", 8), ("error", 2)]);
    let mut entries: Vec<(String, Value)> = Vec::new();
    if chat {
        let lower = draft.name.to_ascii_lowercase();
        for provider in several(rng, CHAT_PROVIDERS, 1..=4) {
            let provider_id = match *provider {
                "together" => format!("{}-Turbo", draft.id),
                "fireworks-ai" => format!("accounts/fireworks/models/{lower}"),
                "groq" | "cerebras" => lower.clone(),
                "novita" => format!("{}/{lower}", draft.namespace),
                "nebius" if chance(rng, 1, 2) => format!("{}-fast", draft.id),
                _ => draft.id.clone(),
            };
            entries.push((
                provider.to_string(),
                json!({"providerId": provider_id, "status": status(rng), "task": "conversational"}),
            ));
        }
    } else if draft.lora {
        let file = lora_file(draft);
        entries.push((
            "fal-ai".into(),
            json!({
                "providerId": "fal-ai/flux-lora",
                "status": status(rng),
                "task": "text-to-image",
                "adapter": "lora",
                "adapterWeightsPath": file,
            }),
        ));
    } else if fal_task {
        let fal_ids: &[&str] = match draft.task {
            "text-to-image" => match draft.family.stem {
                "flux-style" => &["fal-ai/flux/dev", "fal-ai/flux/schnell", "fal-ai/flux/dev"],
                "sdxl-style" | "sd15-style" => &["fal-ai/fast-sdxl", "fal-ai/fast-lightning-sdxl"],
                "sd3-style" => &["fal-ai/stable-diffusion-v35-large", "fal-ai/stable-diffusion-v35-medium"],
                _ => &["fal-ai/flux/dev", "fal-ai/qwen-image", "fal-ai/hidream-i1-full"],
            },
            "image-to-image" => {
                &["fal-ai/flux-kontext/dev", "fal-ai/flux/dev/image-to-image", "fal-ai/fast-sdxl/image-to-image"]
            }
            "image-text-to-image" => &["fal-ai/qwen-image-edit", "fal-ai/flux-kontext/dev"],
            "text-to-video" => &["fal-ai/wan-t2v", "fal-ai/ltx-video", "fal-ai/hunyuan-video", "fal-ai/mochi-v1"],
            "image-to-video" => &["fal-ai/stable-video", "fal-ai/wan-i2v", "fal-ai/ltx-video/image-to-video"],
            _ => &["fal-ai/ltx-video/image-to-video", "fal-ai/wan-i2v"],
        };
        entries.push((
            "fal-ai".into(),
            json!({"providerId": pick(rng, fal_ids), "status": status(rng), "task": draft.task}),
        ));
        if chance(rng, 1, 3) {
            let provider_id = format!("{}/{}", draft.namespace, draft.name.to_ascii_lowercase());
            entries.push((
                "replicate".into(),
                json!({"providerId": provider_id, "status": status(rng), "task": draft.task}),
            ));
        }
        if draft.task == "text-to-image" && chance(rng, 1, 3) {
            let provider = pick(rng, &["together", "nebius", "hf-inference", "nscale"]);
            entries
                .push((provider.to_string(), json!({"providerId": draft.id, "status": status(rng), "task": draft.task})));
        }
    } else {
        entries.push(("hf-inference".into(), json!({"providerId": draft.id, "status": status(rng), "task": draft.task})));
        if draft.task == "automatic-speech-recognition" && chance(rng, 1, 2) {
            entries.insert(
                0,
                ("fal-ai".into(), json!({"providerId": "fal-ai/whisper", "status": status(rng), "task": draft.task})),
            );
        }
        if matches!(draft.task, "feature-extraction" | "sentence-similarity") && chance(rng, 1, 3) {
            entries.push((
                "nebius".into(),
                json!({"providerId": draft.id, "status": status(rng), "task": "feature-extraction"}),
            ));
        }
    }
    // The Hub has served both forms: an object keyed by provider, or a list.
    if chance(rng, 1, 2) {
        Some(Value::Object(entries.into_iter().collect()))
    } else {
        Some(Value::Array(
            entries
                .into_iter()
                .map(|(provider, mut entry)| {
                    let mut with_provider = Map::new();
                    with_provider.insert("provider".into(), json!(provider));
                    with_provider.append(entry.as_object_mut().expect("entries are objects"));
                    Value::Object(with_provider)
                })
                .collect(),
        ))
    }
}

/// The weights file of a diffusers LoRA: diffusers' default name for a
/// third of them, the repository's name for the rest.
fn lora_file(draft: &Draft) -> String {
    match draft.index % 3 {
        0 => "pytorch_lora_weights.safetensors".into(),
        _ => format!("{}.safetensors", draft.name),
    }
}

/// gguf quantizations: name and bits per weight, in hundredths.
#[rustfmt::skip]
const QUANTS: &[(&str, u64)] = &[
    ("IQ1_S", 178), ("IQ2_XS", 261), ("IQ2_M", 293), ("Q2_K", 317), ("IQ3_XXS", 326), ("Q3_K_M", 400),
    ("Q3_K_L", 430), ("IQ4_XS", 443), ("Q4_0", 464), ("Q4_K_S", 467), ("Q4_K_M", 490), ("UD-Q4_K_XL", 512),
    ("Q5_K_S", 557), ("Q5_K_M", 571), ("Q6_K", 656), ("Q8_0", 850), ("BF16", 1600), ("F16", 1602),
];

/// Files larger than this are split into `-00001-of-0000N` shards.
const SHARD_BYTES: u64 = 40_000_000_000;

fn siblings(rng: &mut SynthRng, draft: &Draft, card_len: usize) -> Value {
    let mut files: Vec<(String, u64)> = vec![(".gitattributes".into(), 1519), ("README.md".into(), card_len as u64)];
    let params = draft.params_m * 1_000_000;
    let add = |files: &mut Vec<(String, u64)>, name: &str, size: u64| files.push((name.to_string(), size));
    let small = |rng: &mut SynthRng| between(rng, 200, 4_000);
    match draft.kind() {
        Kind::Transformers | Kind::Mlx => {
            add(&mut files, "config.json", small(rng));
            if draft.is_llm() {
                add(&mut files, "generation_config.json", between(rng, 120, 300));
            }
            let bytes_per_param = match draft.kind() {
                Kind::Mlx if draft.name.contains("4bit") => 0,
                Kind::Mlx if draft.name.contains("8bit") => 1,
                _ if draft.params_m < 1000 && chance(rng, 1, 2) => 4,
                _ => 2,
            };
            let weights = if bytes_per_param == 0 { params * 9 / 16 } else { params * bytes_per_param };
            safetensors(&mut files, "model", weights);
            text_files(rng, draft, &mut files);
        }
        Kind::SentenceTransformers => {
            for (name, size) in [
                ("1_Pooling/config.json", 297),
                ("config_sentence_transformers.json", 205),
                ("modules.json", 349),
                ("sentence_bert_config.json", 53),
                ("config.json", 650),
            ] {
                add(&mut files, name, size);
            }
            add(&mut files, "model.safetensors", params * 4);
            if chance(rng, 1, 3) {
                add(&mut files, "onnx/model.onnx", params * 4 + 1_337_000);
            }
            text_files(rng, draft, &mut files);
        }
        Kind::Timm => {
            add(&mut files, "config.json", small(rng));
            add(&mut files, "model.safetensors", params * 4);
            if chance(rng, 1, 2) {
                add(&mut files, "pytorch_model.bin", params * 4 + 8_911);
            }
        }
        Kind::Peft => {
            add(&mut files, "adapter_config.json", between(rng, 600, 1_100));
            add(&mut files, "adapter_model.safetensors", between(rng, 3_000_000, 700_000_000));
            if chance(rng, 1, 2) {
                text_files(rng, draft, &mut files);
            }
            if chance(rng, 1, 3) {
                add(&mut files, "training_args.bin", between(rng, 5_000, 7_500));
            }
        }
        Kind::Diffusers if draft.lora => {
            add(&mut files, &lora_file(draft), params * 2);
            for n in 0..below(rng, 4) {
                add(&mut files, &format!("images/example_{n}.png"), between(rng, 400_000, 2_500_000));
            }
        }
        Kind::Diffusers => {
            add(&mut files, "model_index.json", between(rng, 400, 900));
            add(&mut files, "scheduler/scheduler_config.json", between(rng, 400, 700));
            add(&mut files, "text_encoder/config.json", between(rng, 500, 800));
            add(&mut files, "text_encoder/model.safetensors", 492_265_168);
            add(&mut files, "tokenizer/tokenizer_config.json", between(rng, 700, 900));
            add(&mut files, "tokenizer/vocab.json", 1_059_962);
            let denoiser = if draft.family.stem.starts_with("sd") { "unet" } else { "transformer" };
            add(&mut files, &format!("{denoiser}/config.json"), between(rng, 600, 1_800));
            add(&mut files, &format!("{denoiser}/diffusion_pytorch_model.safetensors"), params * 2);
            add(&mut files, "vae/config.json", between(rng, 600, 900));
            add(&mut files, "vae/diffusion_pytorch_model.safetensors", 167_666_902);
        }
        Kind::Gguf => gguf_files(rng, draft, &mut files),
        Kind::Other => {
            if chance(rng, 2, 3) {
                add(&mut files, "config.json", small(rng));
            }
            let size = match params {
                0 => between(rng, 10_000, 5_000_000),
                p => p * 4 / 5 + between(rng, 0, p / 5),
            };
            add(&mut files, draft.library.weights_file, size);
        }
    }
    let list: Vec<Value> = files.into_iter().map(|(name, size)| json!({"rfilename": name, "size": size})).collect();
    Value::Array(list)
}

fn text_files(rng: &mut SynthRng, draft: &Draft, files: &mut Vec<(String, u64)>) {
    match draft.modality {
        crate::words::Modality::Image | crate::words::Modality::Video => {
            files.push(("preprocessor_config.json".into(), between(rng, 300, 700)));
        }
        crate::words::Modality::Audio => {
            files.push(("preprocessor_config.json".into(), between(rng, 200, 400)));
            files.push(("tokenizer.json".into(), between(rng, 1_000_000, 3_000_000)));
        }
        _ => {
            files.push(("special_tokens_map.json".into(), between(rng, 300, 700)));
            files.push(("tokenizer.json".into(), between(rng, 700_000, 17_000_000)));
            files.push(("tokenizer_config.json".into(), between(rng, 1_000, 55_000)));
            if draft.family.model_type == "bert" {
                files.push(("vocab.txt".into(), 231_508));
            }
        }
    }
}

/// `model.safetensors`, or shards of at most 5 GB with their index.
fn safetensors(files: &mut Vec<(String, u64)>, stem: &str, bytes: u64) {
    const SHARD: u64 = 4_995_000_000;
    if bytes <= SHARD {
        files.push((format!("{stem}.safetensors"), bytes));
        return;
    }
    let n = bytes.div_ceil(SHARD);
    for i in 1..=n {
        let size = if i < n { SHARD } else { bytes - SHARD * (n - 1) };
        files.push((format!("{stem}-{i:05}-of-{n:05}.safetensors"), size));
    }
    files.push((format!("{stem}.safetensors.index.json"), 20_000 + n * 1_200));
}

fn gguf_files(rng: &mut SynthRng, draft: &Draft, files: &mut Vec<(String, u64)>) {
    let params = draft.params_m * 1_000_000;
    let size_of = |bits: u64, rng: &mut SynthRng| params * bits / 800 + between(rng, 5_000_000, 60_000_000);
    if !draft.multi_quant {
        let (quant, bits) = pick(rng, &QUANTS[8..16]);
        let name = format!("{}-{}.gguf", draft.file_stem().to_ascii_lowercase(), quant.to_ascii_lowercase());
        files.push((name, size_of(bits, rng)));
        return;
    }
    let stem = draft.file_stem();
    // Q4_K_M and Q8_0 are in every repository; four to nine others join them.
    let mut quants: Vec<(&str, u64)> = several(rng, QUANTS, 4..=9).into_iter().copied().collect();
    for must in ["Q4_K_M", "Q8_0"] {
        if !quants.iter().any(|(q, _)| *q == must) {
            quants.push(*QUANTS.iter().find(|(q, _)| *q == must).expect("listed"));
        }
    }
    quants.sort_by_key(|(_, bits)| *bits);
    for (quant, bits) in quants {
        let size = size_of(bits, rng);
        if size > SHARD_BYTES {
            let n = size.div_ceil(SHARD_BYTES);
            for i in 1..=n {
                let part = if i < n { size / n } else { size - size / n * (n - 1) };
                files.push((format!("{stem}-{quant}-{i:05}-of-{n:05}.gguf"), part));
            }
        } else {
            files.push((format!("{stem}-{quant}.gguf"), size));
        }
    }
    if chance(rng, 1, 2) {
        files.push((format!("{stem}.imatrix"), between(rng, 4_000_000, 12_000_000)));
    }
    if draft.task == "image-text-to-text" {
        files.push((format!("mmproj-{stem}-F16.gguf"), between(rng, 600_000_000, 1_400_000_000)));
    }
}
