//! Page templates (minijinja), loaded from the site's template folder so the
//! look of the site changes without touching Rust.

use std::path::{Path, PathBuf};

use minijinja::{AutoEscape, Environment, ErrorKind};
use modelpages_record::page_text;
use serde::Serialize;

/// Templates every site must provide.
pub const REQUIRED_TEMPLATES: &[&str] =
    &["base.html", "model.html", "index.html", "404.html", "libraries.html", "library.html", "facet.html", "facets.html", "tasks.html", "task.html", "namespaces.html", "namespace.html", "listing.html", "model-table.html", "page-index.html", "pager.html", "model-subpage.html",
        "model/facts.html", "model/tags.html", "model/tree.html", "model/files.html", "model/evals.html", "model/inputs.html",
        "model/memory.html", "model/prompt.html", "model/side.html"];

/// A template that is missing, does not compile or fails to render.
#[derive(Debug, thiserror::Error)]
pub enum TemplateError {
    #[error("template folder {}: {source}", dir.display())]
    Folder { dir: PathBuf, source: std::io::Error },
    #[error("template {name}: {source:#}")]
    Template { name: String, source: minijinja::Error },
}

/// Compiled templates, shared by every page of a build.
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// Loads and compiles the templates in `dir`; fails on the first one that
    /// is missing or does not compile, so a broken template stops the build
    /// before any page is written.
    pub fn load(dir: &Path) -> Result<Templates, TemplateError> {
        std::fs::metadata(dir).map_err(|source| TemplateError::Folder { dir: dir.to_owned(), source })?;
        let mut env = Environment::new();
        env.set_loader(minijinja::path_loader(dir));
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        // minijinja's own escaping also turns `/` into `&#x2f;`, which is valid
        // but makes every URL and model id in the markup unreadable. This is
        // where every value of a record becomes text of a page, so it is
        // also where what would reorder the text is made visible (see
        // `page_text`).
        env.set_formatter(|out, state, value| match value.as_str() {
            Some(text) if state.auto_escape() == AutoEscape::Html && !value.is_safe() => {
                crate::highlight::write_html_escaped(&page_text(text), |piece| out.write_str(piece))
                    .map_err(|e| minijinja::Error::new(ErrorKind::WriteFailure, e.to_string()))
            }
            _ => minijinja::escape_formatter(out, state, value),
        });
        env.add_filter("thousands", thousands);
        for name in REQUIRED_TEMPLATES {
            env.get_template(name).map_err(|source| template_error(name, source))?;
        }
        Ok(Templates { env })
    }

    /// Renders template `name` with `context`.
    pub fn render(&self, name: &str, context: impl Serialize) -> Result<String, TemplateError> {
        self.render_sized(name, context, 0)
    }

    /// [`Templates::render`] into a buffer of `capacity` bytes to begin
    /// with: a model page is tens of kilobytes, and growing the buffer by
    /// doubling copied each page several times.
    pub fn render_sized(&self, name: &str, context: impl Serialize, capacity: usize) -> Result<String, TemplateError> {
        let template = self.env.get_template(name).map_err(|source| template_error(name, source))?;
        let mut out = Vec::with_capacity(capacity);
        template.render_captured_to(context, &mut out).map_err(|source| template_error(name, source))?;
        // Templates and values are str, so the output is UTF-8.
        Ok(String::from_utf8(out).expect("template output is UTF-8"))
    }
}

/// `5834127` as `5,834,127`: counts on a hub are large and read at a glance.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn template_error(name: &str, source: minijinja::Error) -> TemplateError {
    TemplateError::Template { name: name.to_owned(), source }
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_groups_digits() {
        let cases = [(0, "0"), (999, "999"), (1000, "1,000"), (5834127, "5,834,127"), (100000, "100,000")];
        for (n, want) in cases {
            assert_eq!(super::thousands(n), want);
        }
    }
}
