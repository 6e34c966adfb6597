//! Real cards and records, second pass, end to end: what the Hub shows for
//! each case, on the default corpus's real-shaped records and on cards
//! written for the corpus that use the same constructs as real ones.
//!
//! - Cards: math as the Hub finds it (`$$...$$` and `\\(...\\)` only; an
//!   escaped bracket is a bracket, a price is a price), math in the text of
//!   raw HTML tables, `<a name>` link targets.
//! - Facts read from `cardData` as from the front matter (languages,
//!   `license: other` with its name and link, `model-index`), bases from the
//!   Hub's `base_model:` tags over a card naming a renamed base, a
//!   `conversational` pipeline tag, the Spaces using a model, parameter
//!   counts as the Hub words them.
//! - Examples that run as pasted: accelerate installed for `device_map`,
//!   chat messages for chat vision models, the widget's table and labels in
//!   library and hosted examples alike.
//!
//! One build for every test.

use std::fs;
use std::sync::OnceLock;

use crate::common::*;
use modelpages_testkit::html::{tokens, Node};
use serde_json::{json, Value};

const BERT: &str = "DeepPavlov/bert-base-cased-conversational";
const GPTJ: &str = "EleutherAI/gpt-j-6b";
const BLOOM: &str = "bigscience/bloom";
const T5: &str = "google-t5/t5-small";
const LLAMA3: &str = "meta-llama/Meta-Llama-3-8B-Instruct";
const FLUX: &str = "black-forest-labs/FLUX.1-dev";
/// Copied without its card: its evaluation results are in `cardData` only.
const VIZDOOM: &str = "turgutburak01/vizdoom_health_gathering_supreme";
const LLAMA31: &str = "meta-llama/Llama-3.1-8B-Instruct";
const LLAMA31_GGUF: &str = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
const DIALOGPT: &str = "microsoft/DialoGPT-medium";
const ZEPHYR: &str = "HuggingFaceH4/zephyr-7b-beta";
const DISTILBERT: &str = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
const QWEN_VL: &str = "Qwen/Qwen2.5-VL-7B-Instruct";
const TAPAS: &str = "google/tapas-base-finetuned-wtq";
const CLIP: &str = "openai/clip-vit-large-patch14";

fn built() -> &'static BuiltCorpus {
    static BUILT: OnceLock<BuiltCorpus> = OnceLock::new();
    BUILT.get_or_init(|| {
        let root = process_folder("real-cards");
        let models = root.join("models");
        let corpus = repo_root().join("models");
        for id in [BERT, GPTJ, BLOOM, T5, LLAMA3, FLUX, LLAMA31, LLAMA31_GGUF, DIALOGPT, ZEPHYR, DISTILBERT, QWEN_VL, TAPAS, CLIP] {
            copy_tree(&corpus.join(id), &models.join(id));
        }
        fs::create_dir_all(models.join(VIZDOOM)).unwrap();
        fs::copy(corpus.join(VIZDOOM).join("model.json"), models.join(VIZDOOM).join("model.json")).unwrap();
        let dist = root.join("dist");
        let run: Run = modelpages()
            .arg("build")
            .arg("--models")
            .arg(&models)
            .arg("--out")
            .arg(&dist)
            .arg("--site-src")
            .arg(site_src())
            .output()
            .unwrap()
            .into();
        assert_eq!(run.code, 0, "{}", run.stderr);
        BuiltCorpus { models, dist, run }
    })
}

fn page(id: &str) -> String {
    fs::read_to_string(built().dist.join(id).join("index.html")).unwrap()
}

fn api(id: &str) -> Value {
    serde_json::from_slice(&fs::read(built().dist.join(format!("api/models/{id}.json"))).unwrap()).unwrap()
}

/// The part of a page from the element with `class` on, to its section's end.
fn part<'p>(page: &'p str, class: &str) -> &'p str {
    let at = page.find(&format!("class=\"{class}\"")).unwrap_or_else(|| panic!("no {class}"));
    let start = page[..at].rfind('<').unwrap();
    &page[start..start + page[start..].find("</section>").unwrap()]
}

fn card(id: &str) -> String {
    part(&page(id), "card-body").to_owned()
}

/// The text of some HTML, its tags taken out and its blanks made one;
/// with `cells`, a blank between the texts of elements.
fn text_of(html: &str, cells: bool) -> String {
    let texts: Vec<String> = tokens(html).into_iter().filter_map(|n| if let Node::Text(t) = n { Some(t) } else { None }).collect();
    texts.join(if cells { " " } else { "" }).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn text(html: &str) -> String {
    text_of(html, false)
}

/// The value of the fact labelled `label` in the facts column, as HTML.
fn fact(id: &str, label: &str) -> Option<String> {
    let page = page(id);
    let facts = part(&page, "facts");
    let at = facts.find(&format!("<dt>{label}</dt><dd>"))? + label.len() + 13;
    Some(facts[at..at + facts[at..].find("</dd>").unwrap()].to_owned())
}

fn library_examples(id: &str) -> Vec<String> {
    let doc = api(id);
    doc["examples"]["library"].as_array().unwrap().iter().map(|e| e["content"].as_str().unwrap().to_owned()).collect()
}

fn hosted_examples(id: &str, client: &str) -> Vec<String> {
    let doc = api(id);
    let all = doc["examples"]["inference"].as_array().unwrap();
    all.iter().filter(|e| e["client"] == client).map(|e| e["content"].as_str().unwrap().to_owned()).collect()
}

/// Runs the examples checker on the models; how many examples passed.
fn check_examples(ids: &[&str]) -> usize {
    crate::common::check_examples(ids.iter().map(|id| built().models.join(id)))
}

/// `\(`, `\[` are escaped brackets on the Hub; its math is `$$...$$` and
/// `\\(...\\)` only; single dollars are prices.
#[test]
fn escaped_brackets_are_text_and_the_hubs_delimiters_are_math() {
    let card = card(BERT);
    let shown = text(&card);
    assert!(shown.starts_with("Conversational BERT (English, cased, 12-layer)"), "{shown}");
    assert!(shown.contains("(12 layers, 768 hidden units, 12 attention heads, about 110M parameters)"), "{shown}");
    assert!(card.contains("[<a href=\"https://arxiv.org/abs/1905.07213\" rel=\"noopener noreferrer\">Journal Link</a>]"), "{card}");
    assert!(shown.contains("about $2 an hour in 2021, so a full run over a few thousand dialogues stays under $10"), "{shown}");
    assert_eq!(card.matches("<math display=\"block\">").count(), 1, "{card}");
    assert_eq!(card.matches("<math>").count(), 2, "{card}");
    assert!(card.contains("<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>"), "{card}");
    assert!(!card.contains("\\\\("), "{card}");
}

/// GPT-J's card names its hyperparameters by formulas in an HTML table.
#[test]
fn formulas_in_raw_html_tables_render() {
    let card = card(GPTJ);
    let rows: Vec<&str> = card.split("<tr>").skip(1).collect();
    assert_eq!(rows.len(), 10, "{card}");
    let math_cells = rows.iter().filter(|r| r.starts_with("<td><math><msub>")).count();
    assert_eq!(math_cells, 8, "{card}");
    assert!(!card.contains("\\\\(") && !card.contains("\\\\)"), "no delimiter is left: {card}");
    assert!(card.contains("<td>6,053,381,344</td>"), "{card}");
}

/// BLOOM's card links to `<a name>` targets: each link lands on an id.
#[test]
fn named_anchors_are_link_targets() {
    let page = page(BLOOM);
    let ids: Vec<String> = tokens(&page).into_iter().filter_map(|n| n.attr("id").map(str::to_owned)).collect();
    let card = card(BLOOM);
    let links: Vec<String> = tokens(&card).into_iter().filter_map(|n| n.attr("href").map(str::to_owned)).collect();
    let in_card: Vec<&String> = links.iter().filter(|h| h.starts_with('#')).collect();
    assert_eq!(in_card.len(), 4, "{links:?}");
    for href in in_card {
        assert!(ids.iter().any(|id| *id == href[1..]), "{href} lands nowhere");
    }
    for target in ["training", "misuse", "glossary"] {
        assert!(ids.contains(&format!("user-content-{target}")), "{target}: {ids:?}");
    }
}

/// Records without a card (t5-small, Meta-Llama-3-8B-Instruct) carry their
/// languages in `cardData`.
#[test]
fn languages_come_from_card_data() {
    assert!(!built().models.join(T5).join("README.md").exists() && !built().models.join(LLAMA3).join("README.md").exists());
    assert_eq!(fact(T5, "Languages").as_deref(), Some("en, fr, ro, de, multilingual"));
    assert_eq!(fact(LLAMA3, "Languages").as_deref(), Some("en"));
    // The gated model's request form, from `cardData.extra_gated_fields`.
    let page = page(LLAMA3);
    let notice = text(&page[page.find("class=\"gated-notice\"").unwrap()..page.find("<dl class=\"facts-list\"").unwrap()]);
    assert!(notice.contains("The request asks for: First Name, Last Name, Date of birth, Country, Affiliation."), "{notice}");
}

/// `license: other` is shown by its `license_name`, linked to its `license_link`.
#[test]
fn an_other_license_is_shown_by_its_name_and_link() {
    assert_eq!(
        fact(FLUX, "License").as_deref(),
        Some("<a href=\"https://huggingface.co/black-forest-labs/FLUX.1-dev/blob/main/LICENSE.md\" rel=\"noopener\">flux-1-dev-non-commercial-license</a>")
    );
}

/// The record's evaluation results are in `cardData.model-index` only.
#[test]
fn evaluation_results_come_from_card_data() {
    let record: Value = serde_json::from_slice(&fs::read(built().models.join(VIZDOOM).join("model.json")).unwrap()).unwrap();
    assert!(record.get("model-index").is_none() && record["cardData"]["model-index"].is_array());
    let page = page(VIZDOOM);
    let evals = text_of(part(&page, "evals"), true);
    assert!(evals.contains("doom_health_gathering_supreme mean_reward 10.52 +/- 4.81 self-reported"), "{evals}");
}

/// The base's new id in the Hub's tags and its old one in the card are
/// one base: Llama 3.1 Instruct is fine-tuned, its GGUF repository
/// quantized, neither merged.
#[test]
fn a_renamed_base_is_one_base_not_a_merge() {
    let llama = api(LLAMA31);
    assert_eq!(llama["hub"]["base_models"], json!(["meta-llama/Meta-Llama-3.1-8B"]), "the card names the old id");
    assert_eq!(llama["hub"]["base_relations"], json!([{"id": "meta-llama/Llama-3.1-8B", "relation": "finetune"}]));
    assert_eq!(
        api(LLAMA31_GGUF)["hub"]["base_relations"],
        json!([{"id": "meta-llama/Llama-3.1-8B-Instruct", "relation": "quantized"}])
    );
    for (id, shown) in [(LLAMA31, "Fine-tuned from meta-llama/Llama-3.1-8B"), (LLAMA31_GGUF, "Quantized from meta-llama/Llama-3.1-8B-Instruct")] {
        let page = page(id);
        let tree = part(&page, "model-tree");
        assert_eq!(tree.matches("class=\"tree-base\"").count(), 1, "{id}: {tree}");
        let tree = text_of(tree, true);
        assert!(tree.contains(shown) && !tree.contains("Merged from"), "{id}: {tree}");
    }
    assert!(text_of(part(&page(LLAMA31), "model-tree"), true).contains("1 quantized model bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"));
}

/// `pipeline_tag: conversational` is text generation with chat.
#[test]
fn a_conversational_pipeline_tag_is_chat_text_generation() {
    let doc = api(DIALOGPT);
    assert_eq!(doc["task"], json!("text-generation"));
    assert!(page(DIALOGPT).contains("<li class=\"badge badge-task\"><a href=\"/tasks/text-generation/\">Text Generation</a></li>"));
    let chat = hosted_examples(DIALOGPT, "openai");
    assert!(!chat.is_empty() && chat.iter().all(|c| c.contains("chat.completions.create")), "{chat:#?}");
    assert!(library_examples(DIALOGPT).iter().any(|c| c.contains("print(pipe(messages))")));
    assert!(check_examples(&[DIALOGPT]) >= chat.len());
}

/// The record's `spaces`: the first ten linked, the rest counted.
#[test]
fn the_spaces_using_a_model_are_listed() {
    let page = page(ZEPHYR);
    let spaces = part(&page, "model-spaces");
    let links: Vec<String> = tokens(spaces).into_iter().filter_map(|n| n.attr("href").map(str::to_owned)).collect();
    assert_eq!(links.len(), 11, "{links:?}");
    assert_eq!(links[0], "https://huggingface.co/spaces/HuggingFaceH4/zephyr-chat");
    let shown = text_of(spaces, true);
    assert!(shown.starts_with("Spaces using this model 12 HuggingFaceH4/zephyr-chat "), "{shown}");
    assert!(shown.ends_with("and 2 more on the model's Hub page"), "{shown}");
    assert!(!page_has_spaces(BERT), "no section without spaces");
}

fn page_has_spaces(id: &str) -> bool {
    page(id).contains("class=\"model-spaces\"")
}

#[test]
fn parameter_counts_are_worded_as_the_hub_words_them() {
    assert_eq!(fact(DISTILBERT, "Model size").as_deref(), Some("67M params"));
    assert_eq!(fact(ZEPHYR, "Model size").as_deref(), Some("7.24B params"));
    assert_eq!(fact(BLOOM, "Model size").as_deref(), Some("176B params"));
}

/// A GGUF repository saved from the Hub carries what the Hub read from its
/// files' headers (`gguf`): the page shows it as the Hub does, "8.03B
/// params" and the architecture, with the context length.
#[test]
fn gguf_repositories_show_what_the_hub_read_from_their_headers() {
    assert_eq!(fact(LLAMA31_GGUF, "Model size").as_deref(), Some("8.03B params"));
    assert_eq!(fact(LLAMA31_GGUF, "Architecture").as_deref(), Some("<code>llama</code>"));
    assert_eq!(fact(LLAMA31_GGUF, "Context length").as_deref(), Some("131,072 tokens"));
    let page = page(LLAMA31_GGUF);
    let section = part(&page, "gguf");
    assert!(section.contains("<dt>Context length</dt><dd>131,072 tokens</dd>"), "{section}");
    assert!(section.contains("As the Hub read them from the headers of the files."), "{section}");
    // A model without GGUF files shows neither.
    assert_eq!(fact(LLAMA31, "Architecture"), None);
}

/// The choice of "Use this model" a page opens on, in the HTML itself: a
/// GGUF repository on its first local app, a model no provider serves
/// never on hosted inference (which comes last and says so), a served
/// model on its library as before.
#[test]
fn the_opening_choice_is_decided_at_build_time() {
    let opened = |id: &str| -> Vec<String> {
        tokens(&page(id))
            .into_iter()
            .filter(|n| matches!(n, Node::Start { name, .. } if name == "details") && n.attr("open").is_some())
            .filter_map(|n| n.attr("data-choice").map(str::to_owned))
            .collect()
    };
    assert_eq!(opened(LLAMA31_GGUF), ["local-llama.cpp"]);
    assert_eq!(opened(ZEPHYR), ["library"]);
    assert_eq!(opened(LLAMA31), ["library"]);
    let unserved = page(LLAMA31_GGUF);
    assert!(unserved.contains("No hosted inference provider serves this model yet"), "the page says so");
    assert!(unserved.contains("data-choice=\"inference\" data-served=\"false\""));
    let choices: Vec<String> = tokens(&unserved).into_iter().filter_map(|n| n.attr("data-choice").map(str::to_owned)).collect();
    assert_eq!(choices.last().map(String::as_str), Some("inference"), "hosted inference comes last: {choices:?}");
    let served = page(LLAMA31);
    assert!(!served.contains("No hosted inference provider"));
    assert!(served.contains("data-choice=\"inference\" data-served=\"true\""));
}

/// Every "load model directly" example passes `device_map="auto"`, which
/// needs accelerate: the install example and the notebook install it.
#[test]
fn examples_with_a_device_map_install_accelerate() {
    let mut direct = 0;
    for id in [BERT, GPTJ, BLOOM, T5, LLAMA3, LLAMA31, DIALOGPT, ZEPHYR, DISTILBERT, QWEN_VL, TAPAS, CLIP] {
        let examples = library_examples(id);
        if !examples.iter().any(|e| e.contains("device_map=\"auto\"")) {
            continue;
        }
        direct += 1;
        assert!(examples.iter().any(|e| e.starts_with("pip install") && e.contains(" accelerate")), "{id}: {examples:#?}");
        let notebook: Value = serde_json::from_slice(&fs::read(built().dist.join(id).join("notebook.ipynb")).unwrap()).unwrap();
        let install = notebook["cells"].as_array().unwrap().iter().find(|c| c["source"].to_string().contains("%pip install")).unwrap();
        assert!(install["source"].to_string().contains("accelerate"), "{id}: {install}");
    }
    assert_eq!(direct, 12);
    assert!(check_examples(&[GPTJ, QWEN_VL, TAPAS, CLIP]) > 0);
}

/// A chat vision model (served for chat by a provider; this record was
/// saved without tags) is sent messages with an image, not `images=`.
#[test]
fn chat_vision_models_get_messages_with_an_image() {
    let pipeline = library_examples(QWEN_VL).into_iter().find(|e| e.contains("pipeline(")).unwrap();
    assert!(pipeline.contains("{\"type\": \"image\", \"url\": \"photo.jpg\"}") && pipeline.contains("print(pipe(text=messages))"), "{pipeline}");
    assert!(!pipeline.contains("images="), "{pipeline}");
}

/// TAPAS's widget table and question, and CLIP's widget labels, in the
/// library example as in the hosted ones.
#[test]
fn library_and_hosted_examples_send_the_widgets_table_and_labels() {
    for (id, wanted) in [
        (TAPAS, ["\"Which city has the largest population?\"", "\"Marseille\""]),
        (CLIP, ["candidate_labels=[\"playing music\", \"playing sports\"]", "\"playing sports\""]),
    ] {
        let library = library_examples(id).into_iter().find(|e| e.contains("pipeline(")).unwrap();
        let hosted = hosted_examples(id, "huggingface_hub");
        assert!(!hosted.is_empty(), "{id}");
        for text in wanted {
            assert!(library.contains(text), "{id}: {text} in {library}");
            assert!(hosted.iter().all(|h| h.contains(text)), "{id}: {text} in {hosted:#?}");
        }
    }
    assert!(!library_examples(TAPAS).iter().any(|e| e.contains("Repository")), "not the default table");
    assert!(built().run.stderr.contains("built 15 models"), "{}", built().run.stderr);
}
