//! Build-time syntax highlighting with class-based spans.
//!
//! Output uses `hl-` prefixed classes and one stylesheet ([`Highlighter::stylesheet`])
//! holds the colours for a light and a dark theme, so pages carry no inline
//! styles and follow the visitor's `prefers-color-scheme`.

use syntect::highlighting::{Color, Theme, ThemeSet};
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

    /// CSS for the highlight classes: the light theme under
    /// `prefers-color-scheme: light`, the dark one under `dark`. Each theme is
    /// scoped to its scheme because their rule sets differ: a light rule with
    /// no dark counterpart would otherwise colour dark pages.
    pub fn stylesheet() -> String {
        let themes = ThemeSet::load_defaults();
        let css = |name: &str| {
            css_for_theme_with_class_style(&readable(&themes.themes[name]), CLASS_STYLE)
                .expect("bundled themes always produce CSS")
        };
        format!(
            "@media (prefers-color-scheme: light) {{\n{}}}\n@media (prefers-color-scheme: dark) {{\n{}}}\n",
            css(LIGHT_THEME),
            css(DARK_THEME)
        )
    }
}

/// WCAG AA for normal text.
pub const MIN_CONTRAST: f64 = 4.5;

/// `theme` with every text colour moved just far enough from its background to
/// reach [`MIN_CONTRAST`]: the bundled themes' comments are too faint for AA.
pub fn readable(theme: &Theme) -> Theme {
    let mut theme = theme.clone();
    let background = theme.settings.background.unwrap_or(Color::WHITE);
    if let Some(fg) = theme.settings.foreground.as_mut() {
        *fg = with_contrast(*fg, background);
    }
    for item in &mut theme.scopes {
        let bg = item.style.background.unwrap_or(background);
        if let Some(fg) = item.style.foreground.as_mut() {
            *fg = with_contrast(*fg, bg);
        }
    }
    theme
}

fn with_contrast(color: Color, background: Color) -> Color {
    // Towards black on light backgrounds and white on dark ones; on mid-tone
    // backgrounds only one of the two may get there, so try both.
    let (first, second) = if luminance(background) > 0.18 { (0.0, 255.0) } else { (255.0, 0.0) };
    let towards = |target: f64| {
        let mut c = color;
        while contrast(c, background) < MIN_CONTRAST {
            let step = |v: u8| (f64::from(v) + (target - f64::from(v)) * 0.08).round() as u8;
            let next = Color { r: step(c.r), g: step(c.g), b: step(c.b), a: c.a };
            if next == c {
                break;
            }
            c = next;
        }
        c
    };
    let preferred = towards(first);
    if contrast(preferred, background) >= MIN_CONTRAST { preferred } else { towards(second) }
}

/// WCAG relative luminance.
fn luminance(c: Color) -> f64 {
    let channel = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.03928 { v / 12.92 } else { ((v + 0.055) / 1.055).powf(2.4) }
    };
    0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
}

/// WCAG contrast ratio of two colours.
pub fn contrast(a: Color, b: Color) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
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
    fn every_theme_colour_reaches_aa_contrast() {
        let themes = ThemeSet::load_defaults();
        for name in [LIGHT_THEME, DARK_THEME] {
            let original = &themes.themes[name];
            let faint = original.scopes.iter().filter_map(|s| s.style.foreground).any(|fg| {
                contrast(fg, original.settings.background.unwrap()) < MIN_CONTRAST
            });
            assert!(faint, "{name}: the bundled theme has faint colours (else this test proves nothing)");
            let theme = readable(original);
            let background = theme.settings.background.unwrap();
            assert!(contrast(theme.settings.foreground.unwrap(), background) >= MIN_CONTRAST, "{name}");
            for item in &theme.scopes {
                if let Some(fg) = item.style.foreground {
                    let bg = item.style.background.unwrap_or(background);
                    assert!(contrast(fg, bg) >= MIN_CONTRAST, "{name}: {:?} on {:?} = {:.2}", fg, bg, contrast(fg, bg));
                }
            }
        }
    }

    #[test]
    fn stylesheet_has_light_and_dark_rules() {
        let css = Highlighter::stylesheet();
        assert!(css.contains(".hl-code"));
        let (light, dark) = css.split_once("@media (prefers-color-scheme: dark)").unwrap();
        assert!(light.trim_start().starts_with("@media (prefers-color-scheme: light) {"), "no rule outside a scheme");
        assert!(light.trim_end().ends_with('}') && dark.contains(".hl-code"));
    }
}
