//! What a build adds beyond the Hub's page, end to end: the memory table,
//! the chat prompt, each model's Markdown twin (read back with a CommonMark
//! parser) and `/llms.txt`, on records with hostile values and templates.

use std::fs;
use std::path::Path;

use crate::common::*;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};
use serde_json::{json, Value};

/// A chat model shaped like a Hub record, with its config's architecture
/// numbers (Llama-3-8B's), a chat template that calls tools, and values
/// that would be markup or links if they were not kept as text.
fn chat_record() -> Value {
    json!({
        "id": "org/chat-8b",
        "pipeline_tag": "text-generation",
        "library_name": "transformers",
        "tags": ["transformers", "conversational", "license:[x](javascript:alert(1))"],
        "downloads": 123456, "likes": 789,
        "safetensors": {"parameters": {"BF16": 8030261248u64}, "total": 8030261248u64},
        "config": {
            "architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
            "hidden_size": 4096, "max_position_embeddings": 8192,
            "tokenizer_config": {"bos_token": "<|begin|>", "eos_token": "<|end|>",
                "chat_template": "{{ bos_token }}{% if tools %}[TOOLS]{{ tools | tojson }}[/TOOLS]{% endif %}{% for m in messages %}<|{{ m.role }}|>{% if m.tool_calls is defined %}{{ m.tool_calls[0].function | tojson }}{% else %}{{ m.content }}{% endif %}{{ eos_token }}{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}"}
        }
    })
}

const CARD: &str = "---\nlanguage: en\n---\n# Chat 8B\n\nA card with its own H1, and ```` `backticks` ````.\n\n[twin](index.md)\n\n```python\nprint('a fence the card never closes')\n";

fn write_corpus(models: &Path) {
    let dir = models.join("org/chat-8b");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("model.json"), serde_json::to_vec_pretty(&chat_record()).unwrap()).unwrap();
    fs::write(dir.join("README.md"), CARD).unwrap();
    fs::write(dir.join("index.md"), "# a file of the repository, not the twin\n").unwrap();
    // A template made to exhaust memory, and one that does not compile.
    for (name, template) in [
        ("doubling", "{% set ns = namespace(l=[0]) %}{% for i in range(64) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}"),
        ("broken", "{% for m in messages %}"),
    ] {
        let dir = models.join("org").join(name);
        fs::create_dir_all(&dir).unwrap();
        let record = json!({"id": format!("org/{name}"), "pipeline_tag": "text-generation",
            "config": {"tokenizer_config": {"chat_template": template}}});
        fs::write(dir.join("model.json"), serde_json::to_vec(&record).unwrap()).unwrap();
    }
}

/// The twin's outline: its headings (`#` per level) and, for each code
/// block, `code:<info>` with the block's text.
fn outline(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for event in Parser::new(markdown) {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let hashes = match level {
                    HeadingLevel::H1 => "#",
                    HeadingLevel::H2 => "##",
                    HeadingLevel::H3 => "###",
                    _ => "####",
                };
                current = Some((hashes.to_owned(), String::new()));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let info = match kind {
                    CodeBlockKind::Fenced(info) => info.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                current = Some((format!("code:{info}"), String::new()));
            }
            Event::Text(text) | Event::Code(text) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&text);
                }
            }
            Event::End(TagEnd::Heading(_) | TagEnd::CodeBlock) => out.extend(current.take()),
            _ => {}
        }
    }
    out
}

/// Every link destination in `markdown`, as a CommonMark parser reads it.
fn links(markdown: &str) -> Vec<String> {
    Parser::new(markdown)
        .filter_map(|event| match event {
            Event::Start(Tag::Link { dest_url, .. }) => Some(dest_url.to_string()),
            _ => None,
        })
        .collect()
}

/// Whether `url`, under the site's `base`, names a file the build wrote (a
/// folder's `index.html` for a path ending in `/`).
fn built_file(dist: &Path, url: &str, base: &str) -> bool {
    let Some(path) = url.strip_prefix(base) else { return false };
    let path = if path.is_empty() || path.ends_with('/') { format!("{path}index.html") } else { path.to_owned() };
    dist.join(path).is_file()
}

#[test]
fn memory_prompt_markdown_twin_and_llms_txt() {
    let tmp = tempfile::tempdir().unwrap();
    let (models, dist) = (tmp.path().join("models"), tmp.path().join("dist"));
    write_corpus(&models);
    let run = build_with(&["--base-url".as_ref(), "https://hub.example/".as_ref()], &models, &dist, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    for name in ["doubling", "broken"] {
        assert!(run.stderr.contains(&format!("org/{name}: chat template not rendered: ")), "{name}: {}", run.stderr);
    }

    // The page: the memory table with Llama-3-8B's figures (checked by hand
    // in the render crate's tests), the prompt collapsed, the twin linked.
    let page = fs::read_to_string(dist.join("org/chat-8b/index.html")).unwrap();
    assert!(page.contains(r#"<link rel="alternate" type="text/markdown" href="index.md""#));
    for figure in ["15.5 GiB<br><span class=\"memory-fits\">fits 16 GB", "7.98 GiB<br><span class=\"memory-fits\">fits 8 GB", "8K context (maximum)", "128 KiB for each token"] {
        assert!(page.contains(figure), "{figure}");
    }
    assert!(page.contains(r#"<details class="prompt-details">"#), "collapsed: no open attribute");
    assert!(page.contains("&lt;|begin|&gt;[TOOLS]"), "the prompt, escaped, special tokens shown");
    let doubling = fs::read_to_string(dist.join("org/doubling/index.html")).unwrap();
    assert!(doubling.contains("is not shown: rendering it would take more than"), "the page says why");

    // The twin: title, facts, memory, prompt, examples, then the card, as
    // a CommonMark parser reads it; record values stay text.
    let twin = fs::read_to_string(dist.join("org/chat-8b/index.md")).unwrap();
    let outline = outline(&twin);
    let headings: Vec<String> = outline.iter().filter(|(k, _)| k.starts_with('#')).map(|(k, t)| format!("{k} {t}")).collect();
    let card_at = headings.iter().position(|h| h == "## Model card").expect("the card's section");
    assert_eq!(headings[0], "# org/chat-8b");
    assert_eq!(headings[1..5], ["## Facts", "## Memory to run it", "## What the model sees", "## Use this model"]);
    assert!(headings[card_at + 1..].contains(&"# Chat 8B".to_owned()), "the card's own H1 comes after the twin's sections");
    assert_eq!(headings[..card_at].iter().filter(|h| h.starts_with("# ")).count(), 1, "one H1 before the card");
    let prompt = outline.iter().find(|(k, _)| k == "code:text").map(|(_, t)| t.as_str()).unwrap();
    assert!(prompt.starts_with("<|begin|>[TOOLS][{\"type\": \"function\""), "{prompt}");
    assert!(prompt.ends_with("<|assistant|>\n"), "{prompt:?}");
    let api: Value = serde_json::from_slice(&fs::read(dist.join("api/models/org/chat-8b.json")).unwrap()).unwrap();
    assert_eq!(api["markdown"], "/org/chat-8b/index.md");
    for example in api["examples"]["library"].as_array().unwrap() {
        let code = example["content"].as_str().unwrap();
        assert!(outline.iter().any(|(k, t)| k.starts_with("code:") && t == &format!("{}\n", code.trim_end_matches('\n'))), "{code}");
    }
    // Before the card, links go to the hub or to files of the built site
    // (the page, its JSON file, its notebook), and the tag's would-be link is a code span.
    let before_card = &twin[..twin.find("## Model card").unwrap()];
    let (mut site_links, mut hub_links) = (Vec::new(), 0);
    for link in links(before_card) {
        if link.starts_with("https://huggingface.co/org/chat-8b") {
            hub_links += 1;
        } else {
            assert!(built_file(&dist, &link, "/"), "{link} is no built file");
            site_links.push(link);
        }
    }
    assert_eq!(site_links, ["/org/chat-8b/", "/api/models/org/chat-8b.json", "/org/chat-8b/notebook.ipynb"]);
    assert_eq!(hub_links, 1);
    assert!(before_card.contains("- License: `[x](javascript:alert(1))`"), "{before_card}");
    assert!(!twin.contains("language: en"), "the card's front matter is left out");
    assert!(!twin.contains("123") && !twin.contains("789"), "no download or like counts");
    // The card's link to `index.md` is the repository's file on the hub,
    // not the twin, which the repository's file does not replace.
    assert!(page.contains("https://huggingface.co/org/chat-8b/blob/main/index.md"));
    assert!(twin.starts_with("# org/chat-8b\n"));

    // llms.txt at the root, naming the twins.
    let llms = fs::read_to_string(dist.join("llms.txt")).unwrap();
    assert!(llms.starts_with("# modelpages\n") || llms.starts_with('#'), "{llms}");
    assert!(llms.contains("`https://hub.example/<namespace>/<name>/index.md`"));
    let llms_links = links(&llms);
    assert!(llms_links.len() >= 5, "{llms_links:?}");
    for link in &llms_links {
        assert!(built_file(&dist, link, "https://hub.example/"), "llms.txt links {link}, which the build did not write");
    }
    // Twins are no HTML pages: the sitemap lists pages only.
    let sitemap = fs::read_to_string(dist.join("sitemap.xml")).unwrap();
    assert!(sitemap.contains("https://hub.example/org/chat-8b/</loc>") && !sitemap.contains("index.md"));
}

#[test]
fn the_default_corpus_shows_each_on_a_model() {
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    let run = build(&repo_root().join("models"), &dist, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = |id: &str| fs::read_to_string(dist.join(id).join("index.html")).unwrap();
    // A safetensors chat model with its config's numbers and a tool-calling template.
    let qwen = page("Qwen/Qwen2.5-1.5B-Instruct");
    assert!(qwen.contains("id=\"memory-heading\"") && qwen.contains("32K context (maximum)"));
    assert!(qwen.contains("The prompt for a conversation with a tool call"));
    // A GGUF repository whose header gives the shape and the template.
    let tiny = page("modelpages-fixtures/tiny-llama-GGUF");
    assert!(tiny.contains("from its GGUF header") && tiny.contains("2K context (maximum)"), "the header's numbers");
    // Apostrophes are escaped in values and kept in the template's own text.
    let text = |html: String| html.replace("&#39;", "'");
    assert!(text(tiny).contains("its chat template, from the GGUF file's header"));
    // A GGUF repository whose record gives the template but no layer counts.
    let llama = page("bartowski/Llama-3.2-1B-Instruct-GGUF");
    assert!(text(llama.clone()).contains("is not estimated: the model's data do not give"));
    assert!(llama.contains("Today: 15 Jan 2025"), "a fixed day, so pages do not change daily");
    for id in ["Qwen/Qwen2.5-1.5B-Instruct", "bartowski/Llama-3.2-1B-Instruct-GGUF", "openai-community/gpt2"] {
        assert!(dist.join(id).join("index.md").is_file(), "{id}");
    }
}
