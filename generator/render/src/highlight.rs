//! Build-time syntax highlighting with class-based spans.
//!
//! Output uses `hl-` prefixed classes and one stylesheet ([`Highlighter::stylesheet`])
//! holds the colours for a light and a dark theme, so pages carry no inline
//! styles and follow the visitor's `prefers-color-scheme`.

use syntect::highlighting::ThemeSet;
use syntect::html::{css_for_theme_with_class_style, ClassStyle, ClassedHTMLGenerator};
use syntect::parsing::{SyntaxReference, SyntaxSet};
use syntect::util::LinesWithEndings;

const CLASS_STYLE: ClassStyle = ClassStyle::SpacedPrefixed { prefix: "hl-" };
const LIGHT_THEME: &str = "InspiredGitHub";
const DARK_THEME: &str = "base16-ocean.dark";

/// Holds syntect's syntax set; load it once per build, it is costly.
pub struct Highlighter {
    syntaxes: SyntaxSet,
}

impl Default for Highlighter {
    fn default() -> Self {
        Highlighter::new()
    }
}

impl Highlighter {
    pub fn new() -> Highlighter {
        Highlighter { syntaxes: SyntaxSet::load_defaults_newlines() }
    }

    /// Highlights `code` written in `lang` (a fence token such as `python`,
    /// `py`, `js`, `sh`). Unknown languages come back escaped but unstyled.
    /// The result is the inside of a `<code>` element.
    pub fn highlight(&self, code: &str, lang: &str) -> String {
        let Some(syntax) = self.syntax_for(lang) else {
            return escape_html(code);
        };
        let mut html = ClassedHTMLGenerator::new_with_class_style(syntax, &self.syntaxes, CLASS_STYLE);
        for line in LinesWithEndings::from(code) {
            if html.parse_html_for_line_which_includes_newline(line).is_err() {
                // A grammar failure is syntect's problem, not the page's: show the code plain.
                return escape_html(code);
            }
        }
        html.finalize()
    }

    fn syntax_for(&self, lang: &str) -> Option<&SyntaxReference> {
        let token = match lang.trim().to_ascii_lowercase().as_str() {
            "" | "text" | "plain" | "plaintext" | "txt" => return None,
            "js" | "javascript" | "mjs" | "ts" | "typescript" | "jsx" | "tsx" => "js",
            "sh" | "shell" | "bash" | "zsh" | "console" | "curl" => "sh",
            "py" | "python" | "python3" => "py",
            other => return self.syntaxes.find_syntax_by_token(other),
        };
        self.syntaxes.find_syntax_by_token(token)
    }

    /// CSS for the highlight classes: the light theme by default, the dark one
    /// under `prefers-color-scheme: dark`.
    pub fn stylesheet() -> String {
        let themes = ThemeSet::load_defaults();
        let css = |name: &str| {
            css_for_theme_with_class_style(&themes.themes[name], CLASS_STYLE)
                .expect("bundled themes always produce CSS")
        };
        format!(
            "{}\n@media (prefers-color-scheme: dark) {{\n{}}}\n",
            css(LIGHT_THEME),
            css(DARK_THEME)
        )
    }
}

/// Escapes text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_gets_classed_spans_and_escaped_text() {
        let hl = Highlighter::new();
        let html = hl.highlight("import os\nprint(\"<b>\")\n", "python");
        assert!(html.contains("<span class=\"hl-"), "{html}");
        assert!(html.contains("&lt;b&gt;"), "{html}");
        assert!(!html.contains("<b>"), "{html}");
        assert!(!html.contains("style="), "class-based only: {html}");
    }

    #[test]
    fn aliases_and_unknown_languages() {
        let hl = Highlighter::new();
        assert_eq!(hl.highlight("x", "py"), hl.highlight("x", "python"));
        assert!(hl.highlight("echo hi\n", "bash").contains("hl-"));
        assert!(hl.highlight("const a = 1;\n", "js").contains("hl-"));
        assert_eq!(hl.highlight("<x> & y\n", "no-such-lang"), "&lt;x&gt; &amp; y\n");
    }

    #[test]
    fn stylesheet_has_light_and_dark_rules() {
        let css = Highlighter::stylesheet();
        assert!(css.contains(".hl-code"));
        assert!(css.contains("@media (prefers-color-scheme: dark)"));
    }
}
