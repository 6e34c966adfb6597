//! Page templates (minijinja), loaded from the site's template folder so the
//! look of the site changes without touching Rust.

use std::path::{Path, PathBuf};

use minijinja::Environment;
use serde::Serialize;

/// Templates every site must provide.
pub const REQUIRED_TEMPLATES: &[&str] = &["base.html", "model.html", "index.html", "404.html"];

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
        for name in REQUIRED_TEMPLATES {
            env.get_template(name).map_err(|source| template_error(name, source))?;
        }
        Ok(Templates { env })
    }

    /// Renders template `name` with `context`.
    pub fn render(&self, name: &str, context: impl Serialize) -> Result<String, TemplateError> {
        let template = self.env.get_template(name).map_err(|source| template_error(name, source))?;
        template.render(context).map_err(|source| template_error(name, source))
    }
}

fn template_error(name: &str, source: minijinja::Error) -> TemplateError {
    TemplateError::Template { name: name.to_owned(), source }
}
