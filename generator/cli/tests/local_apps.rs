//! Model pages, end to end: GGUF files by quantization with what their headers
//! say, the right local apps for the right models, and GGUF files that cannot
//! be read reported by name while the build goes on.

use std::fs;
use std::path::Path;

use crate::common::*;
use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::TensorType;

/// Copies corpus models (with every file of their folder) into `models`.
fn copy_models(models: &Path, ids: &[&str]) {
    for id in ids {
        let from = repo_root().join("models").join(id);
        fs::create_dir_all(models.join(id)).unwrap();
        for entry in fs::read_dir(&from).unwrap() {
            let entry = entry.unwrap();
            fs::copy(entry.path(), models.join(id).join(entry.file_name())).unwrap();
        }
    }
}

/// The ids of the app sections a page shows, in order.
fn app_sections(page: &str) -> Vec<&str> {
    // Each app is one choice of the page's "Use this model" panel.
    page.match_indices("<details class=\"use-choice local-app\" id=\"local-")
        .map(|(at, needle)| {
            let rest = &page[at + needle.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect()
}

#[test]
fn pages_show_quantizations_header_facts_and_the_right_apps() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    copy_models(
        &models,
        &[
            "bartowski/Llama-3.2-1B-Instruct-GGUF",
            "meta-llama/Llama-3.1-8B-Instruct",
            "mlx-community/Mistral-7B-Instruct-v0.3-4bit",
            "google/vit-base-patch16-224",
            "black-forest-labs/FLUX.1-dev",
            "modelpages-fixtures/tiny-llama-GGUF",
        ],
    );
    // A model folder with a good GGUF file, a truncated one and one that is no GGUF at all.
    let broken = models.join("broken/gguf-model");
    write(&models, "broken/gguf-model/model.json", r#"{"id": "broken/gguf-model", "pipeline_tag": "text-generation"}"#);
    let good = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("qwen2".into()))
        .meta("qwen2.context_length", MetaValue::U32(32768))
        .meta("general.file_type", MetaValue::U32(7))
        .tensor("token_embd.weight", &[32, 8], TensorType(1));
    fs::write(broken.join("model-F16.gguf"), good.to_bytes()).unwrap();
    fs::write(broken.join("model-Q4_K_M.gguf"), &good.to_bytes()[..40]).unwrap();
    fs::write(broken.join("model-Q8_0.gguf"), b"<html>not found</html>").unwrap();

    let out = tmp.path().join("dist");
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "unreadable GGUF files fail no model: {}", run.stderr);
    assert!(run.stderr.contains("built 7 models, 0 failed"), "{}", run.stderr);
    let truncated = broken.join("model-Q4_K_M.gguf");
    assert!(run.stderr.contains(&format!("{}: truncated: the file ends at byte 40", truncated.display())), "{}", run.stderr);
    assert!(run.stderr.contains(&format!("{}: not a GGUF file", broken.join("model-Q8_0.gguf").display())), "{}", run.stderr);
    let page = |id: &str| fs::read_to_string(out.join(id).join("index.html")).unwrap();

    let gguf = page("bartowski/Llama-3.2-1B-Instruct-GGUF");
    let sections = app_sections(&gguf);
    for app in ["llama.cpp", "ollama", "lmstudio", "jan", "docker-model-runner", "node-llama-cpp", "localai"] {
        assert!(sections.contains(&app), "{app} in {sections:?}");
    }
    assert!(!sections.iter().any(|s| ["vllm", "sglang", "tgi", "mlx-lm"].contains(s)), "{sections:?}");
    assert!(gguf.contains("href=\"lmstudio://open_from_hf?model=bartowski/Llama-3.2-1B-Instruct-GGUF\""));
    // The GGUF section's table (the memory table has a row per quantization too).
    let gguf_section = &gguf[gguf.find("id=\"gguf-heading\"").expect("a GGUF section")..];
    let gguf_section = &gguf_section[..gguf_section.find("</section>").unwrap()];
    let rows: Vec<&str> = gguf_section.match_indices("<th scope=\"row\"><code>").map(|(at, n)| &gguf_section[at + n.len()..][..6]).collect();
    assert_eq!(rows.iter().map(|r| r.split('<').next().unwrap()).collect::<Vec<_>>(), ["F16", "Q8_0", "Q6_K", "Q5_K_M", "Q4_K_M", "IQ4_XS"]);
    assert!(gguf.contains("<th scope=\"row\"><code>Q4_K_M</code> <span class=\"pill\">default</span>"));
    assert!(gguf.contains("<td class=\"num\">808 MB</td>"));
    let llama = &gguf[gguf.find("id=\"local-llama.cpp\"").expect("a llama.cpp section")..];
    assert!(llama.contains("data-island=\"copy\" data-label=\"Copy llama.cpp command\""), "commands have copy buttons");
    assert!(gguf.contains("<span class=\"l"), "and are highlighted");

    let transformers = page("meta-llama/Llama-3.1-8B-Instruct");
    assert_eq!(app_sections(&transformers), ["docker-model-runner", "vllm", "sglang", "tgi"]);
    assert!(!transformers.contains("id=\"gguf-heading\""));
    assert_eq!(app_sections(&page("mlx-community/Mistral-7B-Instruct-v0.3-4bit")), ["lmstudio", "mlx-lm"]);
    assert_eq!(app_sections(&page("black-forest-labs/FLUX.1-dev")), ["jellybox", "drawthings", "diffusionbee"]);
    let image = page("google/vit-base-patch16-224");
    assert!(app_sections(&image).is_empty() && !image.contains("Run it locally"));

    let fixture = page("modelpages-fixtures/tiny-llama-GGUF");
    for fact in ["<dt>Architecture</dt><dd><code>llama</code></dd>", "2,048 tokens", "<dt>Model size</dt><dd>3.58K params</dd>", "Q4_K 42.9%, Q6_K 42.9%, F32 14.3%", "Q8_0 85.7%, F32 14.3%", "7.14 kB"] {
        assert!(fixture.contains(fact), "{fact}");
    }
    let broken_page = page("broken/gguf-model");
    assert!(broken_page.contains("<code>qwen2</code>") && broken_page.contains("32,768 tokens"), "the good file was read");
    assert!(broken_page.contains("<code>F16</code> <span class=\"file-note\">(header: Q8_0)</span>"), "a mislabelled file is told apart");
    assert!(broken_page.contains("model-Q4_K_M.gguf") && broken_page.contains("model-Q8_0.gguf"), "the others are still listed");
}
