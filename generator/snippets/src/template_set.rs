//! The compiled templates: every usage-example template of the crate (or
//! the ones given while editing them), set up the one way examples need
//! (trimmed blocks, chainable undefined values, the filters of
//! [`crate::filters`]), and the few ways to render one.
//!
//! This is the bottom of the engine: the library examples ([`crate::engine`]),
//! hosted inference ([`crate::inference`]) and the local apps
//! ([`crate::local_apps`]) each render through a [`TemplateSet`] they are
//! handed, so none of them needs the engine that holds it. Every rendered
//! text is tidied ([`tidy`]): templates are laid out for reading, examples
//! are not.

use minijinja::{Environment, UndefinedBehavior, Value as TemplateValue};

/// A template that is missing or failed to render: a bug in the templates,
/// never the record's fault.
#[derive(Debug, thiserror::Error)]
pub enum SnippetError {
    #[error("snippet template {name}: {source:#}")]
    Render {
        name: String,
        #[source]
        source: minijinja::Error,
    },
    #[error("no inference template for language {language}, client {client}, template {template}")]
    TemplateNotFound { language: &'static str, client: String, template: String },
}


/// Every template, compiled once. Build one per engine and share it.
pub(crate) struct TemplateSet {
    env: Environment<'static>,
}

impl TemplateSet {
    /// The templates compiled into the binary.
    pub(crate) fn builtin() -> TemplateSet {
        let mut env = base_environment();
        minijinja_embed::load_templates!(env);
        TemplateSet::with_environment(env)
    }

    /// Templates given as `(name, source)` pairs; fails on one that does
    /// not compile.
    pub(crate) fn from_sources(
        templates: impl IntoIterator<Item = (String, String)>,
    ) -> Result<TemplateSet, SnippetError> {
        let mut env = base_environment();
        for (name, source) in templates {
            env.add_template_owned(name.clone(), source).map_err(|source| SnippetError::Render { name, source })?;
        }
        Ok(TemplateSet::with_environment(env))
    }

    fn with_environment(mut env: Environment<'static>) -> TemplateSet {
        // Records may lack any field: a missing one reads as undefined, never an error.
        env.set_undefined_behavior(UndefinedBehavior::Chainable);
        crate::filters::register_filters(&mut env);
        TemplateSet { env }
    }

    /// The compiled templates, to list them or look into them.
    pub(crate) fn environment(&self) -> &Environment<'static> {
        &self.env
    }

    /// Renders the template `name`, tidied; a missing one is an error.
    pub(crate) fn render(&self, name: &str, context: &TemplateValue) -> Result<String, SnippetError> {
        let error = |source| SnippetError::Render { name: name.to_owned(), source };
        render_template(&self.env.get_template(name).map_err(error)?, context)
    }

    /// Renders the template `name`, tidied, if there is one: the caller
    /// says what a missing one means.
    pub(crate) fn render_if_found(&self, name: &str, context: &TemplateValue) -> Option<Result<String, SnippetError>> {
        let compiled = self.env.get_template(name).ok()?;
        Some(render_template(&compiled, context))
    }

    /// The variables the template `name` sets at its top level, rendered with
    /// `context`, as one map: values that several templates of a model read,
    /// made once per model. (Macros imported by each template would be built
    /// again on every render: minijinja cannot share them between renders.)
    pub(crate) fn shared_values(&self, name: &str, context: &TemplateValue) -> Result<TemplateValue, SnippetError> {
        let error = |source| SnippetError::Render { name: name.to_owned(), source };
        let captured = self.env.get_template(name).and_then(|t| t.render_captured(context)).map_err(error)?;
        let state = captured.state();
        Ok(state.exports().into_iter().map(|var| (var, state.lookup(var).unwrap_or_default())).collect())
    }

    #[cfg(test)]
    pub(crate) fn has_template(&self, name: &str) -> bool {
        self.env.get_template(name).is_ok()
    }
}

/// Renders a template and tidies the text.
fn render_template(template: &minijinja::Template<'_, '_>, context: &TemplateValue) -> Result<String, SnippetError> {
    let error = |source| SnippetError::Render { name: template.name().to_owned(), source };
    Ok(tidy(template.render(context).map_err(error)?))
}

fn base_environment() -> Environment<'static> {
    let mut env = Environment::new();
    // Whitespace control is applied when a template compiles, so set it first.
    env.set_trim_blocks(true);
    env.set_lstrip_blocks(true);
    // Included pieces end with a newline like any file; keep it so the next
    // line of the including template starts on a line of its own.
    env.set_keep_trailing_newline(true);
    env.set_formatter(write_value);
    env
}

/// Writes a value a template prints, as minijinja's default formatter does,
/// but a string without escaping straight into the output rather than
/// through `Display`: examples are code, and nearly every value printed is a
/// string a filter made.
fn write_value(
    out: &mut minijinja::Output,
    state: &minijinja::State,
    value: &TemplateValue,
) -> Result<(), minijinja::Error> {
    match value.as_str() {
        Some(text) if state.auto_escape() == minijinja::AutoEscape::None => Ok(out.write_str(text)?),
        _ => minijinja::escape_formatter(out, state, value),
    }
}

/// Strips trailing spaces from every line and blank lines at both ends, so
/// templates can be laid out for reading.
fn tidy(text: String) -> String {
    if is_tidy(&text) {
        return text;
    }
    let text = text.trim_matches('\n');
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    for at in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push_str(text[start..at].trim_end());
        out.push('\n');
        start = at + 1;
    }
    out.push_str(text[start..].trim_end());
    out.truncate(out.trim_end().len());
    out
}

/// Whether [`tidy`] would leave `text` as it is, which it nearly always
/// does: then the text is kept rather than copied. Only the end of each line
/// is looked at; a line ending in a character outside ASCII is left to
/// `tidy` to judge.
fn is_tidy(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Branch-free, so that the compiler checks many bytes at once.
    let ends_line = |byte: u8| (byte < 0x80) & !matches!(byte, b' ' | b'\t'..=b'\r');
    // A blank line inside the text is kept; one at either end is not.
    let untidy_end = |before: u8, byte: u8| (byte == b'\n') & (before != b'\n') & !ends_line(before);
    let (Some(&first), Some(&last)) = (bytes.first(), bytes.last()) else { return false };
    if first == b'\n' || !ends_line(last) {
        return false;
    }
    // Each byte with the one before it, 32 pairs at a time.
    let (befores, bytes) = (&bytes[..bytes.len() - 1], &bytes[1..]);
    !befores.chunks(32).zip(bytes.chunks(32)).any(|(befores, bytes)| {
        befores.iter().zip(bytes).fold(false, |untidy, (&before, &byte)| untidy | untidy_end(before, byte))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `tidy` as it was first written, line by line: the fast one must agree.
    fn reference_tidy(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        for line in text.trim_matches('\n').lines() {
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.truncate(out.trim_end().len());
        out
    }

    proptest! {
        #[test]
        fn tidy_gives_the_reference_text(
            pieces in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "é", " ", "\t", "\r", "\n", "\n\n", "\u{a0}", "\u{2028}", "\u{b}", "\u{1c}", "x y",
                ]),
                0..16,
            )
        ) {
            let text = pieces.concat();
            prop_assert_eq!(tidy(text.clone()), reference_tidy(&text), "{:?}", text);
        }
    }

    #[test]
    fn tidy_examples() {
        assert_eq!(tidy("\n\nimport os  \n\n\nprint(1)\t\r\n \n".into()), "import os\n\n\nprint(1)");
        assert_eq!(tidy("a\nb".into()), "a\nb");
        assert_eq!(tidy("".into()), "");
        assert_eq!(tidy("\n".into()), "");
    }
}
