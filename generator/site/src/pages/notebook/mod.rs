//! `<namespace>/<name>/notebook.ipynb`: the model's Python examples as a
//! ready-to-run Jupyter notebook (nbformat 4.5, with cell ids).
//!
//! Pure: the examples the page shows go in, the notebook's bytes come out.
//! Keys are written sorted and indented by one space, as Jupyter itself
//! writes notebooks, so a notebook saved unchanged from Jupyter diffs clean.

mod install;

use modelpages_render::{CodeExample, InferenceExample};
use modelpages_snippets::inference::AUTO;
use modelpages_snippets::{is_comment_only, Language, Library};
use serde::Serialize;

use install::{imported_modules, is_standard_library, normalize, package_for_module, pip_install_args, requirement_names};

/// The notebook's file name inside the model's folder.
pub const NOTEBOOK_FILE: &str = "notebook.ipynb";

/// What a notebook is made of.
pub struct NotebookInput<'a> {
    pub id: &'a str,
    pub library: Option<&'a Library>,
    /// The library's examples, in page order (shell, Python, JavaScript).
    pub library_examples: &'a [CodeExample],
    /// Every hosted-inference example; the notebook takes one.
    pub inference: &'a [InferenceExample],
    /// The hub that hosts the model, without a trailing slash.
    pub hub_url: &'a str,
}

/// The notebook, or `None` for a model without any Python example that
/// runs: a library example that is only a comment (a spec fallback such as
/// `# Type of model unknown`) is no reason to download a notebook, and is
/// left out of one.
pub fn notebook(input: &NotebookInput<'_>) -> Option<Vec<u8>> {
    let hosted = hosted_example(input.inference);
    let runnable_python = |e: &&CodeExample| e.language == "python" && !is_comment_only(Language::Python, &e.text);
    let has_python = input.library_examples.iter().any(|e| runnable_python(&e));
    if !has_python && hosted.is_none() {
        return None;
    }
    let mut cells = Cells::default();
    let id_text = escape_markdown(input.id);
    cells.markdown(
        "title",
        &format!(
            "# {id_text}\n\nReady-to-run examples for [{id_text}](<{}/{}>): run the install cell, then the others in order.",
            input.hub_url, input.id
        ),
    );

    let mut install = InstallCell::default();
    let mut library_cells = Cells::default();
    // Whether the library says how to install it; its imports are then its
    // own business (a clone, an extra, a package named unlike its module).
    let mut library_installs = false;
    // A library without Python examples (a CLI, JavaScript) has nothing to
    // run here, so its shell steps are left out too.
    let library_examples = if has_python { input.library_examples } else { &[] };
    for example in library_examples {
        match example.language {
            "python" if !runnable_python(&example) => {}
            "python" => library_cells.code("library", &example.text),
            "sh" => {
                library_installs = true;
                if !install.absorb(&example.text) {
                    let label = input.library.map_or("the library", |l| l.pretty_label.as_str());
                    library_cells.markdown(
                        "library-setup",
                        &format!("These steps for {label} run in a terminal, outside the notebook:\n\n{}", fenced("sh", &example.text)),
                    );
                }
            }
            // JavaScript examples have no place in a Python notebook.
            _ => {}
        }
    }
    let mut imports: Vec<&str> = hosted.map(|h| imported_modules(&h.text)).unwrap_or_default();
    if !library_installs {
        for example in library_examples.iter().filter(runnable_python) {
            imports.extend(imported_modules(&example.text));
        }
    }
    install.add_packages(imports.into_iter().filter(|m| !is_standard_library(m)).map(package_for_module));
    if !install.lines.is_empty() {
        cells.code("install", &install.lines.join("\n"));
    }

    if !library_cells.cells.is_empty() {
        let heading = match input.library {
            Some(library) => {
                let docs = library.docs_url.as_deref().unwrap_or(&library.repo_url);
                format!("## Use it with {0}\n\nSee the [{0} documentation](<{docs}>) for more.", library.pretty_label)
            }
            None => "## Use it with its library".to_owned(),
        };
        cells.markdown("library-intro", &heading);
        cells.append(library_cells);
    }
    if let Some(hosted) = hosted {
        cells.markdown(
            "inference-intro",
            &format!(
                "## Hosted inference\n\nCall the model without running it yourself (provider {}). The code reads your access \
                 token from the {} environment variable: set it before starting Jupyter. This notebook holds no token.",
                code_span(&hosted.provider),
                code_span(&hosted.token_env)
            ),
        );
        cells.code("inference", &hosted.text);
    }
    Some(cells.into_notebook())
}

/// The hosted-inference example a notebook shows: the huggingface_hub client
/// with the default provider, without streaming (its output prints whole).
fn hosted_example(examples: &[InferenceExample]) -> Option<&InferenceExample> {
    let candidates = || examples.iter().filter(|e| e.language == "python" && e.client == "huggingface_hub" && !e.streaming);
    candidates().find(|e| e.provider == AUTO).or_else(|| candidates().next())
}

/// The `%pip install` lines and the packages they install.
#[derive(Default)]
struct InstallCell {
    lines: Vec<String>,
    /// Normalised names already installed.
    installed: Vec<String>,
}

impl InstallCell {
    /// Takes a shell example made only of `pip install` lines and comments;
    /// anything else (a clone, a `cd`, conda) is left for the caller.
    fn absorb(&mut self, shell: &str) -> bool {
        let lines: Vec<&str> = shell.split('\n').map(str::trim).filter(|l| !l.is_empty()).collect();
        if !lines.iter().all(|l| l.starts_with('#') || pip_install_args(l).is_some()) {
            return false;
        }
        for line in lines {
            match pip_install_args(line) {
                Some(args) => {
                    self.installed.extend(requirement_names(args));
                    self.lines.push(format!("%pip install {args}"));
                }
                None => self.lines.push(line.to_owned()),
            }
        }
        true
    }

    /// One line installing the packages not installed yet, if any.
    fn add_packages<'a>(&mut self, packages: impl Iterator<Item = &'a str>) {
        let mut missing: Vec<&str> = Vec::new();
        for package in packages {
            let name = normalize(package);
            if !self.installed.contains(&name) {
                self.installed.push(name);
                missing.push(package);
            }
        }
        if !missing.is_empty() {
            self.lines.push(format!("%pip install -U {}", missing.join(" ")));
        }
    }
}

/// Cells with unique ids (`library-1`, `library-2`, ...).
#[derive(Default)]
struct Cells {
    cells: Vec<(String, Cell)>,
}

/// A notebook cell. Fields are in key order: Jupyter writes keys sorted.
#[derive(Serialize)]
#[serde(untagged)]
enum Cell {
    Markdown { cell_type: &'static str, id: String, metadata: Empty, source: Vec<String> },
    Code {
        cell_type: &'static str,
        execution_count: Option<u32>,
        id: String,
        metadata: Empty,
        outputs: [Empty; 0],
        source: Vec<String>,
    },
}

/// `{}`.
#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
struct Notebook {
    cells: Vec<Cell>,
    metadata: NotebookMetadata,
    nbformat: u32,
    nbformat_minor: u32,
}

#[derive(Serialize)]
struct NotebookMetadata {
    kernelspec: Kernelspec,
    language_info: LanguageInfo,
}

#[derive(Serialize)]
struct Kernelspec {
    display_name: &'static str,
    language: &'static str,
    name: &'static str,
}

#[derive(Serialize)]
struct LanguageInfo {
    name: &'static str,
}

impl Cells {
    fn push(&mut self, kind: &str, cell: impl FnOnce(String) -> Cell) {
        let n = self.cells.iter().filter(|(k, _)| k == kind).count() + 1;
        let id = if n == 1 { kind.to_owned() } else { format!("{kind}-{n}") };
        self.cells.push((kind.to_owned(), cell(id)));
    }

    fn markdown(&mut self, kind: &str, text: &str) {
        self.push(kind, |id| Cell::Markdown { cell_type: "markdown", id, metadata: Empty {}, source: source_lines(text) });
    }

    fn code(&mut self, kind: &str, text: &str) {
        self.push(kind, |id| Cell::Code {
            cell_type: "code",
            execution_count: None,
            id,
            metadata: Empty {},
            outputs: [],
            source: source_lines(text),
        });
    }

    fn append(&mut self, other: Cells) {
        self.cells.extend(other.cells);
    }

    fn into_notebook(self) -> Vec<u8> {
        let notebook = Notebook {
            cells: self.cells.into_iter().map(|(_, cell)| cell).collect(),
            metadata: NotebookMetadata {
                kernelspec: Kernelspec { display_name: "Python 3", language: "python", name: "python3" },
                language_info: LanguageInfo { name: "python" },
            },
            nbformat: 4,
            nbformat_minor: 5,
        };
        let mut bytes = Vec::with_capacity(4096);
        let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
        let mut serializer = serde_json::Serializer::with_formatter(&mut bytes, formatter);
        notebook.serialize(&mut serializer).expect("a notebook serialises");
        bytes.push(b'\n');
        bytes
    }
}

fn source_lines(text: &str) -> Vec<String> {
    text.split_inclusive('\n').map(str::to_owned).collect()
}

/// The model id as Markdown text: `_` would start emphasis.
fn escape_markdown(text: &str) -> String {
    text.replace('_', "\\_")
}

/// `text` as inline code; backticks and line breaks cannot end it early.
fn code_span(text: &str) -> String {
    format!("`{}`", text.replace(['`', '\n', '\r'], ""))
}

/// A fenced code block longer than any backtick run inside `text`.
fn fenced(language: &str, text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{language}\n{text}\n{fence}")
}

#[cfg(test)]
mod tests;
