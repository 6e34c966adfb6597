use super::*;
use modelpages_snippets::Catalogue;
use serde_json::{json, Value};

fn code(language: &'static str, text: &str) -> CodeExample {
    CodeExample { language, text: text.to_owned() }
}

fn hosted(provider: &str, client: &'static str, streaming: bool, text: &str) -> InferenceExample {
    InferenceExample {
        provider: provider.to_owned(),
        language: "python",
        client,
        streaming,
        token_env: "HF_TOKEN".to_owned(),
        text: text.to_owned(),
    }
}

const CLIENT_EXAMPLE: &str = "import os\nfrom huggingface_hub import InferenceClient\n\nclient = InferenceClient(\n    provider=\"auto\",\n    api_key=os.environ[\"HF_TOKEN\"],\n)";

fn build(library_key: Option<&str>, library_examples: &[CodeExample], inference: &[InferenceExample]) -> Option<Value> {
    let catalogue = Catalogue::builtin();
    let input = NotebookInput {
        id: "my_org/model-1",
        library: library_key.map(|k| catalogue.get(k).expect("a catalogue library")),
        library_examples,
        inference,
        hub_url: "https://hub.example",
    };
    notebook(&input).map(|bytes| serde_json::from_slice(&bytes).expect("a notebook is JSON"))
}

fn cell_ids(notebook: &Value) -> Vec<&str> {
    notebook["cells"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect()
}

fn cell_text(notebook: &Value, id: &str) -> String {
    let cell = notebook["cells"].as_array().unwrap().iter().find(|c| c["id"] == id).unwrap_or_else(|| panic!("no cell {id}"));
    cell["source"].as_array().unwrap().iter().map(|l| l.as_str().unwrap()).collect()
}

#[test]
fn library_install_steps_and_examples_then_one_hosted_example() {
    let examples = [
        code("sh", "pip install -U transformers torch"),
        code("python", "from transformers import pipeline\n\npipe = pipeline(\"fill-mask\")"),
        code("python", "from transformers import AutoModel"),
        code("js", "import x from \"y\";"),
    ];
    let inference = [
        hosted("hf-inference", "huggingface_hub", false, "print('hf-inference')"),
        hosted("auto", "huggingface_hub", true, "print('streaming')"),
        hosted("auto", "requests", false, "import requests"),
        hosted("auto", "huggingface_hub", false, CLIENT_EXAMPLE),
    ];
    let nb = build(Some("transformers"), &examples, &inference).expect("a notebook");
    assert_eq!((nb["nbformat"].as_u64(), nb["nbformat_minor"].as_u64()), (Some(4), Some(5)));
    assert_eq!(nb["metadata"]["kernelspec"]["name"], "python3");
    assert_eq!(cell_ids(&nb), ["title", "install", "library-intro", "library", "library-2", "inference-intro", "inference"]);
    assert_eq!(cell_text(&nb, "install"), "%pip install -U transformers torch\n%pip install -U huggingface_hub");
    assert_eq!(cell_text(&nb, "inference"), CLIENT_EXAMPLE, "the default provider's client example, not streaming");
    assert!(cell_text(&nb, "inference-intro").contains("`HF_TOKEN` environment variable"));
    let title = cell_text(&nb, "title");
    assert!(title.starts_with("# my\\_org/model-1\n"), "{title}");
    assert!(title.contains("(<https://hub.example/my_org/model-1>)"), "{title}");
    assert!(cell_text(&nb, "library-intro").contains("## Use it with Transformers"));
    let cells = nb["cells"].as_array().unwrap();
    let code_cells: Vec<&Value> = cells.iter().filter(|c| c["cell_type"] == "code").collect();
    assert_eq!(code_cells.len(), 4);
    for cell in code_cells {
        assert_eq!(cell["outputs"], json!([]));
        assert_eq!(cell["execution_count"], Value::Null);
    }
    assert!(!cells.iter().any(|c| cell_text(&nb, c["id"].as_str().unwrap()).contains("import x from")), "no JavaScript");
}

#[test]
fn repository_setups_stay_in_the_terminal_and_their_imports_are_not_guessed() {
    let examples = [
        code("sh", "git clone https://github.com/a/b\ncd b\npip install -r requirements.txt"),
        code("python", "from depth_anything_v2.dpt import Model\nimport torch"),
    ];
    let nb = build(Some("depth-anything-v2"), &examples, &[hosted("auto", "huggingface_hub", false, CLIENT_EXAMPLE)]).unwrap();
    assert_eq!(cell_ids(&nb), ["title", "install", "library-intro", "library-setup", "library", "inference-intro", "inference"]);
    let setup = cell_text(&nb, "library-setup");
    assert!(setup.contains("```sh\ngit clone https://github.com/a/b\ncd b\npip install -r requirements.txt\n```"), "{setup}");
    assert_eq!(cell_text(&nb, "install"), "%pip install -U huggingface_hub", "only the hosted example's import");
}

#[test]
fn without_install_steps_imports_are_mapped_to_packages_and_the_stdlib_skipped() {
    let examples = [code("python", "import os\nimport json\nfrom PIL import Image\nimport sklearn.linear_model\nimport numpy as np")];
    let nb = build(None, &examples, &[]).unwrap();
    assert_eq!(cell_ids(&nb), ["title", "install", "library-intro", "library"]);
    assert_eq!(cell_text(&nb, "install"), "%pip install -U pillow scikit-learn numpy");
}

#[test]
fn pip_comments_are_kept_and_packages_installed_once() {
    let examples = [
        code("sh", "# Apple Silicon only\npip install -U \"mlx-lm\" Huggingface-Hub"),
        code("python", "from mlx_lm import load"),
    ];
    let nb = build(Some("mlx"), &examples, &[hosted("auto", "huggingface_hub", false, CLIENT_EXAMPLE)]).unwrap();
    assert_eq!(cell_text(&nb, "install"), "# Apple Silicon only\n%pip install -U \"mlx-lm\" Huggingface-Hub", "huggingface_hub is installed already");
}

#[test]
fn no_notebook_without_a_python_example() {
    let examples = [code("sh", "npm i @huggingface/transformers"), code("js", "import { pipeline } from \"@huggingface/transformers\";")];
    assert!(build(Some("transformers.js"), &examples, &[]).is_none());
    let js_only = InferenceExample { language: "js", ..hosted("auto", "huggingface.js", false, "x") };
    assert!(build(None, &[], &[js_only]).is_none());
    let hosted_only = build(Some("transformers.js"), &examples, &[hosted("auto", "huggingface_hub", false, CLIENT_EXAMPLE)]);
    let hosted_only = hosted_only.expect("hosted inference alone is enough");
    assert_eq!(cell_ids(&hosted_only), ["title", "install", "inference-intro", "inference"], "no npm steps in a Python notebook");
}

#[test]
fn bytes_are_stable_and_jupyter_shaped() {
    let examples = [code("python", "print(1)\nprint(2)\n")];
    let input = NotebookInput { id: "a/b", library: None, library_examples: &examples, inference: &[], hub_url: "https://h" };
    let first = notebook(&input).unwrap();
    assert_eq!(first, notebook(&input).unwrap());
    let text = String::from_utf8(first).unwrap();
    assert!(text.starts_with("{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"id\": \"title\""), "{text}");
    assert!(text.contains("\"source\": [\n    \"print(1)\\n\",\n    \"print(2)\\n\"\n   ]"), "{text}");
    assert!(text.ends_with("\"nbformat_minor\": 5\n}\n"));
}

#[test]
fn fences_outlast_backticks_inside() {
    assert_eq!(fenced("sh", "echo hi"), "```sh\necho hi\n```");
    assert_eq!(fenced("sh", "echo ````x"), "`````sh\necho ````x\n`````");
    assert_eq!(code_span("a`b\nc"), "`abc`");
}

#[test]
fn a_fallback_alone_is_no_reason_for_a_notebook() {
    let fallback = [code("sh", "pip install -U transformers torch"), code("python", "# Type of model unknown")];
    assert!(build(Some("transformers"), &fallback, &[]).is_none(), "only a comment to run");
    // With a hosted example there is a notebook, without the fallback cell
    // (nor the library's install steps: nothing of the library runs).
    let inference = [hosted("auto", "huggingface_hub", false, CLIENT_EXAMPLE)];
    let nb = build(Some("transformers"), &fallback, &inference).expect("a notebook");
    assert_eq!(cell_ids(&nb), ["title", "install", "inference-intro", "inference"]);
    assert!(!cell_text(&nb, "install").contains("transformers"), "{}", cell_text(&nb, "install"));
}
