//! What a notebook's install cell installs.
//!
//! A library's own shell example (`pip install -U "diffusers[torch]" ...`) is
//! the documented install and knows package names no table could guess, so
//! its `pip install` lines are used as they are. Imports not covered by such
//! lines (the hosted-inference example's, or those of a library without
//! install steps) are mapped to PyPI names; the standard library is skipped.

use std::collections::{BTreeMap, HashSet};
use std::sync::OnceLock;

/// The arguments of a `pip install` line that can run as `%pip install` in a
/// notebook, or `None` for any other line.
///
/// Lines that need files from a cloned repository (`-r requirements.txt`,
/// `-e .`) do not qualify, nor do lines with characters IPython or the shell
/// would treat specially (`$`, braces, backticks, command separators).
pub fn pip_install_args(line: &str) -> Option<&str> {
    const PREFIXES: [&str; 4] = ["pip install ", "pip3 install ", "python -m pip install ", "python3 -m pip install "];
    let line = line.trim();
    let args = PREFIXES.iter().find_map(|p| line.strip_prefix(p))?.trim();
    let special = |c: char| matches!(c, '$' | '{' | '}' | '`' | ';' | '|' | '&' | '\\' | '(' | ')' | '\n' | '\r');
    let needs_checkout = args.split_whitespace().any(|w| {
        let short = !w.starts_with("--") && ["-r", "-e", "-c"].iter().any(|o| w.starts_with(o));
        let long = ["--requirement", "--editable", "--constraint"]
            .iter()
            .any(|o| w.strip_prefix(o).is_some_and(|rest| rest.is_empty() || rest.starts_with('=')));
        short || long
    });
    (!args.is_empty() && !args.contains(special) && !needs_checkout).then_some(args)
}

/// Normalised names (PEP 503) of the packages a `pip install` argument list
/// names; URLs and options name none.
pub fn requirement_names(args: &str) -> Vec<String> {
    args.split_whitespace()
        .map(|word| word.trim_matches(|c| c == '"' || c == '\''))
        .filter(|word| !word.starts_with('-') && !word.contains("://"))
        .filter_map(|word| {
            let end = word.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))).unwrap_or(word.len());
            let name = &word[..end];
            (!name.is_empty()).then(|| normalize(name))
        })
        .collect()
}

/// PEP 503 normalisation: `Foo_Bar.baz` and `foo-bar-baz` are one package.
pub fn normalize(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !out.ends_with('-') {
                out.push('-');
            }
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

/// Top-level modules a piece of Python imports, in order of first use,
/// without relative imports. Reads `import a.b as c, d` and `from a.b import x`
/// lines at any indentation.
pub fn imported_modules(code: &str) -> Vec<&str> {
    let mut modules: Vec<&str> = Vec::new();
    for line in code.split('\n') {
        let line = line.trim_start();
        let names: Vec<&str> = if let Some(rest) = line.strip_prefix("import ") {
            rest.split('#').next().unwrap_or_default().split(',').filter_map(|part| part.split_whitespace().next()).collect()
        } else if let Some(rest) = line.strip_prefix("from ") {
            match rest.split_once(" import") {
                Some((module, _)) => vec![module.trim()],
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        for name in names {
            let top = name.split('.').next().unwrap_or_default();
            let is_identifier = top.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
                && top.chars().all(|c| c.is_alphanumeric() || c == '_');
            if is_identifier && !modules.contains(&top) {
                modules.push(top);
            }
        }
    }
    modules
}

/// Whether `module` ships with Python.
pub fn is_standard_library(module: &str) -> bool {
    static NAMES: OnceLock<HashSet<&'static str>> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            include_str!("../../../data/python_stdlib.txt").lines().filter(|l| !l.is_empty() && !l.starts_with('#')).collect()
        })
        .contains(module)
        || module == "__future__"
}

/// The PyPI package that provides `module` (most are named alike).
pub fn package_for_module(module: &str) -> &str {
    static NAMES: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut names: BTreeMap<String, String> =
            serde_json::from_str(include_str!("../../../data/pypi_names.json")).expect("data/pypi_names.json is valid");
        names.remove("_comment");
        names
    });
    names.get(module).map_or(module, String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pip_lines_that_run_in_a_notebook() {
        assert_eq!(pip_install_args("pip install -U \"diffusers[torch]\" peft"), Some("-U \"diffusers[torch]\" peft"));
        assert_eq!(pip_install_args("  python -m pip install flexray  "), Some("flexray"));
        assert_eq!(pip_install_args("pip install -r requirements.txt huggingface_hub"), None, "needs the clone");
        assert_eq!(pip_install_args("pip install -e ."), None);
        assert_eq!(pip_install_args("pip install $(cat x)"), None);
        assert_eq!(pip_install_args("pip install x; rm -rf /"), None);
        assert_eq!(pip_install_args("uv pip install x"), None);
        assert_eq!(pip_install_args("git clone https://example.com/x.git"), None);
        assert_eq!(pip_install_args("pip install "), None);
    }

    #[test]
    fn requirement_names_are_normalised_and_urls_skipped() {
        assert_eq!(
            requirement_names("-U \"bm25s[full]\" Hugging_Face.Hub 'x>=1.0' git+https://github.com/a/b.git --no-build-isolation"),
            ["bm25s", "hugging-face-hub", "x"]
        );
        assert_eq!(normalize("open_clip__torch"), "open-clip-torch");
    }

    #[test]
    fn imports_are_read_from_every_form() {
        let code = "import os\nimport numpy as np, PIL.Image\nfrom huggingface_hub import InferenceClient\n\
                    def f():\n    from transformers.models import x\nfrom . import local\nimport os.path\n# import commented\n";
        assert_eq!(imported_modules(code), ["os", "numpy", "PIL", "huggingface_hub", "transformers"]);
    }

    #[test]
    fn standard_library_and_package_names() {
        for module in ["os", "json", "base64", "io", "pathlib", "__future__", "tomllib"] {
            assert!(is_standard_library(module), "{module}");
        }
        for module in ["requests", "huggingface_hub", "PIL", "numpy"] {
            assert!(!is_standard_library(module), "{module}");
        }
        assert_eq!(package_for_module("PIL"), "pillow");
        assert_eq!(package_for_module("sklearn"), "scikit-learn");
        assert_eq!(package_for_module("huggingface_hub"), "huggingface_hub");
        assert_eq!(package_for_module("_comment"), "_comment", "the data file's note is not a mapping");
    }
}
