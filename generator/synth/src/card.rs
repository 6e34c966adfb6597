//! Model cards: YAML front matter and 1 to 6 KB of Markdown with headings,
//! paragraphs, lists, a table and one to three fenced code blocks.

use std::fmt::Write as _;

use serde_json::json;

use crate::catalogue::Kind;
use crate::dist::{below, between, chance, pick, tenths, weighted, SynthRng};
use crate::draft::Draft;
use crate::words::{self, Context, Modality};

/// Bounds of a card's Markdown body, in bytes.
pub const BODY_MIN: usize = 1024;
pub const BODY_MAX: usize = 6144;

/// The tags a card's front matter lists (the record's `cardData.tags`).
pub fn card_tags(draft: &Draft) -> Vec<String> {
    let mut tags: Vec<String> = Vec::new();
    if draft.conversational {
        tags.push("chat".into());
    }
    match draft.kind() {
        Kind::Diffusers if draft.lora => {
            tags.extend(["text-to-image", "lora", "diffusers", "template:sd-lora"].map(String::from))
        }
        Kind::Gguf => tags.extend(["llama-cpp", "gguf"].map(String::from)),
        Kind::Mlx => tags.push("mlx".into()),
        Kind::Peft => tags.push("lora".into()),
        _ => {}
    }
    if draft.task == "reinforcement-learning" {
        tags.extend(["reinforcement-learning", "deep-reinforcement-learning", draft.library.key].map(String::from));
    }
    if !draft.flavour.is_empty() && !draft.languages.contains(&draft.flavour) && !tags.iter().any(|t| t == draft.flavour) {
        tags.push(draft.flavour.into());
    }
    tags
}

/// The whole `README.md`.
pub fn card(rng: &mut SynthRng, draft: &Draft) -> String {
    let body = body(rng, draft);
    let mut out = String::with_capacity(body.len() + 400);
    out.push_str("---\n");
    front_matter(draft, &mut out);
    out.push_str("---\n\n");
    out.push_str(&body);
    out
}

fn front_matter(draft: &Draft, out: &mut String) {
    let list = |out: &mut String, key: &str, items: &[String]| {
        if !items.is_empty() {
            let _ = writeln!(out, "{key}:");
            for item in items {
                let _ = writeln!(out, "- {item}");
            }
        }
    };
    let _ = writeln!(out, "license: {}", draft.license);
    list(out, "language", &draft.languages.iter().map(|l| l.to_string()).collect::<Vec<_>>());
    let _ = writeln!(out, "library_name: {}", draft.library.key);
    if !draft.task.is_empty() {
        let _ = writeln!(out, "pipeline_tag: {}", draft.task);
    }
    list(out, "tags", &card_tags(draft));
    list(out, "datasets", &draft.datasets);
    if let Some(base) = draft.base_model {
        let _ = writeln!(out, "base_model: {base}");
    }
    if let Some(prompt) = &draft.instance_prompt {
        let _ = writeln!(out, "instance_prompt: \"{prompt}\"");
    }
}

fn body(rng: &mut SynthRng, draft: &Draft) -> String {
    let params = draft.params_label();
    let ctx = Context {
        name: &draft.name,
        namespace: &draft.namespace,
        task: draft.task,
        modality: draft.modality,
        language: draft.languages.first().copied().unwrap_or("en"),
        base: draft.base_model,
        params: &params,
    };
    let target = between(rng, 1100, 5900) as usize;
    let mut out = String::with_capacity(target + 1024);

    let _ = writeln!(out, "# {}\n", draft.name);
    out.push_str(
        "> A synthetic model card written by `modelpages synth`: the model, its scores and its files do not exist.\n\n",
    );
    let lead = pick(rng, words::INTRO_LEAD);
    let lead = words::fill(rng, &ctx, lead);
    let _ = writeln!(out, "{lead} {}\n", words::paragraph(rng, &ctx, words::INTRO, 1..=3));

    out.push_str("## Model details\n\n");
    details(draft, &params, &mut out);
    out.push('\n');

    let heading = pick(rng, &["How to use", "Usage", "Quick start", "Getting started"]);
    let _ = writeln!(out, "## {heading}\n");
    usage(rng, draft, &mut out);

    // Training (for cards that are not meant to be short) and evaluation are
    // always there, so every card has a list and a table; the other sections
    // are added while the card is under its target size.
    if target >= 2000 {
        let _ = write!(
            out,
            "## Training\n\n{}\n\n{}\n",
            words::paragraph(rng, &ctx, words::TRAINING, 2..=4),
            hyperparameters(rng)
        );
    }
    out.push_str(&evaluation(rng, draft, &ctx));
    for heading in crate::dist::several(rng, words::HEADINGS_EXTRA, 3..=9) {
        let section = extra_section(rng, &ctx, heading);
        if out.len() >= target {
            break;
        }
        if out.len() + section.len() + 80 > BODY_MAX - 200 {
            continue;
        }
        out.push('\n');
        out.push_str(&section);
    }
    while out.len() < BODY_MIN {
        let more = format!("\n## Notes\n\n{}\n", words::paragraph(rng, &ctx, words::MISC, 3..=3));
        out.push_str(&more);
    }
    let _ = write!(out, "\n## License\n\nThe weights are released under the `{}` license.\n", draft.license);
    out
}

fn details(draft: &Draft, params: &str, out: &mut String) {
    let _ = writeln!(out, "- **Developed by:** {}", draft.namespace);
    let model_type = match (draft.kind(), draft.family.arch) {
        (Kind::Transformers | Kind::SentenceTransformers | Kind::Peft | Kind::Gguf | Kind::Mlx, arch)
            if !arch.is_empty() =>
        {
            arch
        }
        _ => draft.family.stem,
    };
    let _ = writeln!(out, "- **Model type:** {model_type}");
    if draft.task.is_empty() {
        let _ = writeln!(out, "- **Task:** none (a kernel repository)");
    } else {
        let _ = writeln!(out, "- **Task:** {}", draft.task);
    }
    let _ = writeln!(out, "- **Library:** {}", draft.library.key);
    let _ = writeln!(out, "- **Parameters:** {params}");
    if !draft.languages.is_empty() {
        let names: Vec<&str> = draft.languages.iter().map(|l| words::language_name(l)).collect();
        let _ = writeln!(out, "- **Language(s):** {}", names.join(", "));
    }
    let _ = writeln!(out, "- **License:** {}", draft.license);
    if let Some(base) = draft.base_model {
        let _ = writeln!(out, "- **Finetuned from:** [{base}](https://huggingface.co/{base})");
    }
}

fn hyperparameters(rng: &mut SynthRng) -> String {
    let lr = pick(rng, &["1e-05", "2e-05", "3e-05", "5e-05", "1e-04", "2e-04", "3e-04"]);
    let batch = pick(rng, &[8, 16, 32, 64, 128, 256]);
    let epochs = 1 + below(rng, 5);
    let scheduler = pick(rng, &["linear", "cosine", "constant_with_warmup", "cosine_with_restarts"]);
    let seed = pick(rng, &[0, 42, 1234, 2024, 7]);
    format!(
        "Hyperparameters:\n\n- learning_rate: {lr}\n- train_batch_size: {batch}\n- seed: {seed}\n- optimizer: AdamW (betas=(0.9, 0.999), epsilon=1e-08)\n- lr_scheduler_type: {scheduler}\n- num_epochs: {epochs}\n"
    )
}

fn extra_section(rng: &mut SynthRng, ctx: &Context<'_>, heading: &str) -> String {
    let mut s = format!("## {heading}\n\n");
    match heading {
        "Intended uses" | "Out-of-scope use" => {
            let _ = writeln!(s, "{}", words::paragraph(rng, ctx, words::USES, 2..=4));
        }
        "Limitations and bias" => {
            let _ = writeln!(s, "{}\n", words::paragraph(rng, ctx, words::LIMITS, 2..=3));
            for caveat in crate::dist::several(rng, words::CAVEATS, 2..=4) {
                let _ = writeln!(s, "- {}", words::capitalize(caveat));
            }
        }
        "Environmental impact" | "Hardware and software" => {
            let _ = writeln!(s, "- **Hardware:** {}", pick(rng, words::HARDWARE));
            let _ = writeln!(s, "- **Training time:** {}", pick(rng, words::DURATIONS));
            let _ = writeln!(s, "- **Carbon emitted:** {} kg CO2eq", between(rng, 1, 900));
            let _ = writeln!(s, "- **Framework:** PyTorch 2.{}, Python 3.{}", between(rng, 1, 7), between(rng, 10, 13));
        }
        "Changelog" => {
            const CHANGES: &[&str] = &[
                "retrained on a cleaner data mix",
                "fixed the tokenizer's special tokens",
                "added safetensors weights",
                "updated the evaluation table",
                "lowered memory use at inference",
                "added an ONNX export",
            ];
            for (minor, change) in crate::dist::several(rng, CHANGES, 1..=4).into_iter().enumerate().rev() {
                let _ = writeln!(s, "- v1.{}: {change}", minor + 1);
            }
            let _ = writeln!(s, "- v1.0: first public release");
        }
        "Frequently asked questions" => {
            let _ = writeln!(
                s,
                "**Does it run on a CPU?** Yes, slowly; {} is the smallest setup we tested.\n",
                pick(rng, words::HARDWARE)
            );
            let _ =
                writeln!(s, "**Can I use it commercially?** Check the license below; this card is not legal advice.\n");
            let _ =
                writeln!(s, "**Why do my scores differ?** {}", words::paragraph(rng, ctx, words::EVAL_NOTES, 1..=1));
        }
        _ => {
            let _ = writeln!(s, "{}", words::paragraph(rng, ctx, words::MISC, 2..=4));
        }
    }
    s
}

fn evaluation(rng: &mut SynthRng, draft: &Draft, ctx: &Context<'_>) -> String {
    let metrics: &[(&str, bool)] = match draft.task {
        "text-generation" | "image-text-to-text" => &[
            ("reasoning-mix (5-shot)", true),
            ("math-word-problems", true),
            ("code-completion pass@1", true),
            ("reading-comprehension", true),
            ("instruction-following", true),
            ("commonsense", true),
        ],
        "automatic-speech-recognition" => &[("WER (lower is better)", false), ("CER (lower is better)", false)],
        "text-to-image" | "image-to-image" | "image-text-to-image" | "unconditional-image-generation" => {
            &[("FID (lower is better)", false), ("CLIP score", true), ("preference win rate", true)]
        }
        "object-detection" | "zero-shot-object-detection" => &[("mAP@50", true), ("mAP@50-95", true)],
        "image-segmentation" | "mask-generation" => &[("mIoU", true), ("pixel accuracy", true)],
        "token-classification" => &[("entity F1", true), ("precision", true), ("recall", true)],
        "translation" => &[("BLEU", true), ("chrF", true)],
        "summarization" => &[("ROUGE-1", true), ("ROUGE-L", true)],
        "reinforcement-learning" => &[("mean reward", true)],
        "tabular-regression" | "time-series-forecasting" => &[("MAE (lower is better)", false), ("R2 x100", true)],
        _ => &[("accuracy", true), ("macro F1", true), ("precision", true)],
    };
    let splits = ["validation", "test", "out-of-domain test", "noisy subset", "long-input subset"];
    let rows = 2 + below(rng, 5);
    let mut s = String::from("## Evaluation\n\n");
    let _ = writeln!(s, "{}\n", words::paragraph(rng, ctx, words::EVAL_NOTES, 1..=2));
    s.push_str("| Split | Metric | This model | Baseline |\n|---|---|---:|---:|\n");
    for row in 0..rows {
        let (metric, higher_better) = metrics[row % metrics.len()];
        let split = splits[(row / metrics.len() + row) % splits.len()];
        let ours = between(rng, 150, 960);
        let delta = between(rng, 0, 60);
        let base = if higher_better { ours.saturating_sub(delta) } else { ours + delta };
        let _ = writeln!(s, "| {split} | {metric} | {} | {} |", tenths(ours), tenths(base));
    }
    s
}

/// One to three fenced code blocks: install (bash), load and run (python),
/// settings (json).
fn usage(rng: &mut SynthRng, draft: &Draft, out: &mut String) {
    let (bash, json) = match weighted(rng, &[(1u8, 30), (2, 45), (3, 25)]) {
        1 => (false, false),
        2 if chance(rng, 7, 10) => (true, false),
        2 => (false, true),
        _ => (true, true),
    };
    if bash {
        out.push_str("Install the library and fetch the files:\n\n```bash\n");
        out.push_str(&bash_block(draft));
        out.push_str("```\n\n");
    }
    out.push_str("Load the model and run it:\n\n```python\n");
    out.push_str(&python_block(rng, draft));
    out.push_str("```\n\n");
    if json {
        out.push_str("The settings that matter, from the repository's configuration:\n\n```json\n");
        out.push_str(&json_block(rng, draft));
        out.push_str("\n```\n\n");
    }
}

fn bash_block(draft: &Draft) -> String {
    let id = &draft.id;
    match draft.kind() {
        Kind::Gguf => format!(
            "pip install -U llama-cpp-python huggingface_hub\nhuggingface-cli download {id} --include \"*Q4_K_M*\" --local-dir {name}\n# or let llama.cpp fetch it\nllama-cli -hf {id}:Q4_K_M -p \"Hello\"\n",
            name = draft.name
        ),
        Kind::Mlx => format!("pip install -U mlx-lm\nmlx_lm.generate --model {id} --prompt \"Hello\" --max-tokens 128\n"),
        _ => format!("pip install -U {}\nhuggingface-cli download {id} --local-dir {}\n", draft.library.pip, draft.name),
    }
}

fn python_block(rng: &mut SynthRng, draft: &Draft) -> String {
    let id = &draft.id;
    match draft.kind() {
        Kind::Transformers => transformers_block(rng, draft),
        Kind::Diffusers => diffusers_block(rng, draft),
        Kind::SentenceTransformers => {
            let (query, docs) = pick(rng, words::SIMILARITY);
            format!(
                "from sentence_transformers import SentenceTransformer\n\nmodel = SentenceTransformer(\"{id}\")\nsentences = [\n    \"{query}\",\n    \"{}\",\n    \"{}\",\n    \"{}\",\n]\nembeddings = model.encode(sentences)\nprint(embeddings.shape)\nprint(model.similarity(embeddings[:1], embeddings[1:]))\n",
                docs[0], docs[1], docs[2]
            )
        }
        Kind::Timm => format!(
            "import timm\nimport torch\nfrom PIL import Image\n\nmodel = timm.create_model(\"hf-hub:{id}\", pretrained=True).eval()\nconfig = timm.data.resolve_model_data_config(model)\ntransform = timm.data.create_transform(**config, is_training=False)\n\nimage = Image.open(\"photo.jpg\").convert(\"RGB\")\nwith torch.no_grad():\n    probabilities = model(transform(image).unsqueeze(0)).softmax(dim=-1)\nprint(probabilities.topk(5))\n"
        ),
        Kind::Peft => {
            let base = draft.base_model.unwrap_or("meta-llama/Llama-3.1-8B");
            let prompt = pick(rng, words::CHAT_PROMPTS);
            format!(
                "from peft import PeftModel\nfrom transformers import AutoModelForCausalLM, AutoTokenizer\n\nbase = AutoModelForCausalLM.from_pretrained(\"{base}\", device_map=\"auto\")\nmodel = PeftModel.from_pretrained(base, \"{id}\")\ntokenizer = AutoTokenizer.from_pretrained(\"{base}\")\n\ninputs = tokenizer(\"{prompt}\", return_tensors=\"pt\").to(model.device)\noutputs = model.generate(**inputs, max_new_tokens=128)\nprint(tokenizer.decode(outputs[0], skip_special_tokens=True))\n"
            )
        }
        Kind::Gguf => {
            let prompt = pick(rng, words::CHAT_PROMPTS);
            format!(
                "from llama_cpp import Llama\n\nllm = Llama.from_pretrained(\n    repo_id=\"{id}\",\n    filename=\"*Q4_K_M.gguf\",\n    n_ctx=8192,\n)\nanswer = llm.create_chat_completion(\n    messages=[{{\"role\": \"user\", \"content\": \"{prompt}\"}}],\n    max_tokens=256,\n)\nprint(answer[\"choices\"][0][\"message\"][\"content\"])\n"
            )
        }
        Kind::Mlx => {
            let prompt = pick(rng, words::CHAT_PROMPTS);
            format!(
                "from mlx_lm import generate, load\n\nmodel, tokenizer = load(\"{id}\")\nmessages = [{{\"role\": \"user\", \"content\": \"{prompt}\"}}]\nprompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True)\nprint(generate(model, tokenizer, prompt=prompt, max_tokens=256))\n"
            )
        }
        Kind::Other => {
            let module = draft.library.key.replace(['-', '.'], "_").to_ascii_lowercase();
            format!(
                "from huggingface_hub import snapshot_download\n\n# Fetch every file of the repository, then load it with {key}.\nlocal_dir = snapshot_download(repo_id=\"{id}\")\nprint(local_dir)\n\n# See the {key} documentation for loading `{file}`:\n# import {module}\n",
                key = draft.library.key,
                file = draft.library.weights_file,
            )
        }
    }
}

fn transformers_block(rng: &mut SynthRng, draft: &Draft) -> String {
    let id = &draft.id;
    let task = draft.task;
    let head = format!("from transformers import pipeline\n\npipe = pipeline(\"{task}\", model=\"{id}\")\n");
    let call = match (task, draft.modality) {
        ("text-generation", _) if draft.conversational => format!(
            "messages = [\n    {{\"role\": \"user\", \"content\": \"{}\"}},\n]\nresult = pipe(messages, max_new_tokens=256)\nprint(result[0][\"generated_text\"][-1][\"content\"])\n",
            pick(rng, words::CHAT_PROMPTS)
        ),
        ("text-generation", _) => format!(
            "result = pipe(\"{}\", max_new_tokens=64, do_sample=True, temperature=0.7)\nprint(result[0][\"generated_text\"])\n",
            pick(rng, words::COMPLETIONS)
        ),
        ("image-text-to-text", _) => "messages = [\n    {\n        \"role\": \"user\",\n        \"content\": [\n            {\"type\": \"image\", \"url\": \"photo.jpg\"},\n            {\"type\": \"text\", \"text\": \"Describe this picture in one sentence.\"},\n        ],\n    },\n]\nprint(pipe(text=messages, max_new_tokens=64))\n".into(),
        ("fill-mask", _) => {
            let text = pick(rng, words::MASKED);
            let text = if matches!(draft.family.model_type, "roberta" | "xlm-roberta") { text.replace("[MASK]", "<mask>") } else { text.to_string() };
            format!("print(pipe(\"{text}\"))\n")
        }
        ("question-answering", _) => {
            let (q, c) = pick(rng, words::QUESTIONS);
            format!("result = pipe(question=\"{q}\", context=\"{c}\")\nprint(result[\"answer\"], result[\"score\"])\n")
        }
        ("zero-shot-classification", _) => {
            let labels = pick(rng, words::LABEL_SETS);
            format!("labels = [{}]\nprint(pipe(\"{}\", candidate_labels=labels))\n", quoted(labels), pick(rng, words::REVIEWS))
        }
        ("zero-shot-image-classification", _) => "print(pipe(\"photo.jpg\", candidate_labels=[\"cat\", \"dog\", \"bird\"]))\n".into(),
        ("zero-shot-object-detection", _) => "print(pipe(\"photo.jpg\", candidate_labels=[\"helmet\", \"person\", \"ladder\"]))\n".into(),
        ("table-question-answering", _) => "table = {\n    \"City\": [\"Lyon\", \"Porto\", \"Graz\"],\n    \"Population\": [\"522000\", \"232000\", \"291000\"],\n}\nprint(pipe(table=table, query=\"Which city has the most people?\"))\n".into(),
        ("document-question-answering", _) => "print(pipe(\"invoice.png\", question=\"What is the invoice total?\"))\n".into(),
        ("visual-question-answering", _) => "print(pipe(\"photo.jpg\", question=\"How many people are in the picture?\"))\n".into(),
        ("summarization", _) | ("translation", _) => format!("print(pipe(\"{}\", max_length=96))\n", pick(rng, words::PASSAGES)),
        ("token-classification", _) => format!("for entity in pipe(\"{}\", aggregation_strategy=\"simple\"):\n    print(entity)\n", pick(rng, words::ENTITIES)),
        ("text-to-speech", _) | ("text-to-audio", _) => {
            let text = if task == "text-to-audio" { pick(rng, words::MUSIC_PROMPTS) } else { pick(rng, words::SPEECH_LINES) };
            format!("output = pipe(\"{text}\")\nprint(output[\"sampling_rate\"], output[\"audio\"].shape)\n")
        }
        (_, Modality::Image) | (_, Modality::Video) => {
            let file = if draft.modality == Modality::Video { "clip.mp4" } else { "photo.jpg" };
            format!("print(pipe(\"{file}\"))\n")
        }
        (_, Modality::Audio) => "print(pipe(\"sample.flac\"))\n".into(),
        _ => format!("print(pipe(\"{}\"))\n", pick(rng, words::REVIEWS)),
    };
    format!("{head}{call}")
}

fn diffusers_block(rng: &mut SynthRng, draft: &Draft) -> String {
    let id = &draft.id;
    if draft.lora {
        let base = draft.base_model.unwrap_or("stabilityai/stable-diffusion-xl-base-1.0");
        let prompt = draft.instance_prompt.as_deref().unwrap_or("a watercolor fox");
        return format!(
            "import torch\nfrom diffusers import DiffusionPipeline\n\npipe = DiffusionPipeline.from_pretrained(\"{base}\", torch_dtype=torch.bfloat16).to(\"cuda\")\npipe.load_lora_weights(\"{id}\")\n\nimage = pipe(\"{prompt}, {}\").images[0]\nimage.save(\"output.png\")\n",
            pick(rng, words::IMAGE_PROMPTS)
        );
    }
    let class = draft.pipeline_class.unwrap_or("DiffusionPipeline");
    let load = format!("import torch\nfrom diffusers import {class}\nfrom diffusers.utils import export_to_video, load_image\n\npipe = {class}.from_pretrained(\"{id}\", torch_dtype=torch.bfloat16).to(\"cuda\")\n");
    let run = match draft.task {
        "text-to-video" => format!("frames = pipe(\"{}\", num_frames=49).frames[0]\nexport_to_video(frames, \"output.mp4\", fps=16)\n", pick(rng, words::VIDEO_PROMPTS)),
        "image-to-video" | "image-text-to-video" => format!("image = load_image(\"first_frame.png\")\nframes = pipe(image=image, prompt=\"{}\").frames[0]\nexport_to_video(frames, \"output.mp4\", fps=16)\n", pick(rng, words::VIDEO_PROMPTS)),
        "image-to-image" | "image-text-to-image" => format!("image = load_image(\"photo.png\")\nedited = pipe(image=image, prompt=\"{}\").images[0]\nedited.save(\"output.png\")\n", pick(rng, words::EDIT_PROMPTS)),
        "unconditional-image-generation" => "image = pipe().images[0]\nimage.save(\"output.png\")\n".into(),
        _ => format!("image = pipe(\"{}\", num_inference_steps=28).images[0]\nimage.save(\"output.png\")\n", pick(rng, words::IMAGE_PROMPTS)),
    };
    format!("{load}{run}")
}

fn json_block(rng: &mut SynthRng, draft: &Draft) -> String {
    let value = match draft.kind() {
        Kind::Diffusers if draft.lora => json!({
            "base_model": draft.base_model,
            "rank": pick(rng, &[4, 8, 16, 32, 64]),
            "network_alpha": pick(rng, &[4, 8, 16, 32]),
            "instance_prompt": draft.instance_prompt,
            "train_steps": pick(rng, &[500, 1000, 1500, 2000, 3000]),
        }),
        Kind::Diffusers => json!({
            "_class_name": draft.pipeline_class.unwrap_or("StableDiffusionXLPipeline"),
            "_diffusers_version": format!("0.3{}.0", below(rng, 6)),
            "num_inference_steps": pick(rng, &[4, 20, 28, 30, 50]),
            "guidance_scale": pick(rng, &[0.0, 3.5, 5.0, 7.5]),
        }),
        Kind::Gguf | Kind::Mlx => json!({
            "temperature": pick(rng, &[0.6, 0.7, 0.8, 1.0]),
            "top_p": pick(rng, &[0.8, 0.9, 0.95]),
            "repeat_penalty": 1.1,
            "context_length": pick(rng, &[4096, 8192, 32768, 131072]),
        }),
        Kind::Transformers | Kind::SentenceTransformers | Kind::Peft if !draft.family.arch.is_empty() => json!({
            "architectures": [draft.family.arch],
            "model_type": draft.family.model_type,
            "hidden_size": pick(rng, &[384, 768, 1024, 2048, 3584, 4096]),
            "num_hidden_layers": pick(rng, &[6, 12, 24, 28, 32, 40]),
            "torch_dtype": pick(rng, &["float32", "bfloat16", "float16"]),
            "transformers_version": format!("4.{}.0", between(rng, 40, 57)),
        }),
        _ => json!({
            "library": draft.library.key,
            "task": draft.task,
            "weights": draft.library.weights_file,
            "seed": between(rng, 0, 9999),
        }),
    };
    serde_json::to_string_pretty(&value).expect("plain JSON")
}

fn quoted(items: &[&str]) -> String {
    items.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", ")
}
