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

/// Holds syntect's syntax set (load it once per build, it is costly) and a
/// cache of highlighted example shapes.
pub struct Highlighter {
    syntaxes: SyntaxSet,
    shapes: ShapeCache,
}

/// Placeholders are this stem, a number and `X`: letters and digits only, so
/// they lex like the plain values they stand for.
const PLACEHOLDER_STEM: &str = "MPVALUEPLACEHOLDER";

/// A value that can stand in a shape: letters, digits, spaces and `-_./:,!?`
/// only, at least 3 characters. Nothing in it is an escape, a quote, a
/// format placeholder or markup in any grammar the examples use, and HTML
/// escaping leaves it as it is.
pub fn is_plain(value: &str) -> bool {
    value.len() >= 3
        && value.chars().all(|c| c.is_ascii_alphanumeric() || " -_./:,!?".contains(c))
        && !value.starts_with(' ')
        && !value.ends_with(' ')
        && !value.contains("  ")
}
/// The cache stops growing here; a build keeps working, only slower.
const MAX_SHAPES: usize = 50_000;

/// Highlighted examples with the model id taken out: examples of different
/// models usually differ only by the id, and highlighting is the costliest
/// step of a build. Sharded so rayon's threads rarely wait on each other.
struct ShapeCache {
    shards: Vec<std::sync::Mutex<ShapeMap>>,
}

/// (language, shape) to highlighted HTML.
type ShapeMap = std::collections::HashMap<(String, String), std::sync::Arc<str>>;

impl ShapeCache {
    fn new() -> ShapeCache {
        ShapeCache { shards: (0..16).map(|_| Default::default()).collect() }
    }

    fn shard(&self, key: &(String, String)) -> &std::sync::Mutex<ShapeMap> {
        use std::hash::{BuildHasher, RandomState};
        static STATE: std::sync::OnceLock<RandomState> = std::sync::OnceLock::new();
        let hash = STATE.get_or_init(RandomState::new).hash_one(key);
        &self.shards[(hash as usize) % self.shards.len()]
    }
}

impl Default for Highlighter {
    fn default() -> Self {
        Highlighter::new()
    }
}

impl Highlighter {
    pub fn new() -> Highlighter {
        Highlighter { syntaxes: SyntaxSet::load_defaults_newlines(), shapes: ShapeCache::new() }
    }

    /// Like [`Highlighter::highlight`], cached: identical code is highlighted
    /// once per build.
    pub fn highlight_cached(&self, code: &str, lang: &str) -> String {
        self.highlight_example(code, lang, &[])
    }

    /// Like [`Highlighter::highlight`] for an example of one model: the
    /// example's shape, with each of `values` (the model id, its widget texts)
    /// replaced by a placeholder, is highlighted once per build and the values
    /// put back. Only plain values are replaced (see [`is_plain`]): they lex
    /// like any placeholder inside the strings, URLs and comments they sit
    /// in, which `tests` check byte for byte on the whole corpus.
    pub fn highlight_example(&self, code: &str, lang: &str, values: &[&str]) -> String {
        let mut shape = code.to_owned();
        let mut used: Vec<(String, &str)> = Vec::new();
        if !code.contains(PLACEHOLDER_STEM) {
            // Longest first, so a name inside an id is replaced where it stands alone.
            let mut candidates: Vec<&str> = values.iter().copied().filter(|v| is_plain(v) && code.contains(*v)).collect();
            candidates.sort_by_key(|v| std::cmp::Reverse(v.len()));
            candidates.dedup();
            for value in candidates {
                let placeholder = format!("{PLACEHOLDER_STEM}{}X", used.len());
                let replaced = shape.replace(value, &placeholder);
                // A match that cuts into an earlier placeholder could not be put back.
                let intact = used.iter().all(|(p, _)| replaced.matches(p.as_str()).count() == shape.matches(p.as_str()).count());
                if intact && replaced != shape {
                    shape = replaced;
                    used.push((placeholder, value));
                }
            }
        }
        let key = (lang.to_owned(), shape);
        let shard = self.shard_for(&key);
        let cached = shard.lock().expect("cache lock").get(&key).cloned();
        let highlighted = match cached {
            Some(html) => html,
            None => {
                let html: std::sync::Arc<str> = self.highlight(&key.1, lang).into();
                let mut map = shard.lock().expect("cache lock");
                if map.len() < MAX_SHAPES / self.shapes.shards.len() {
                    map.insert(key, html.clone());
                }
                html
            }
        };
        let mut out = highlighted.to_string();
        for (placeholder, value) in used.iter().rev() {
            out = out.replace(placeholder.as_str(), value);
        }
        out
    }

    fn shard_for(&self, key: &(String, String)) -> &std::sync::Mutex<ShapeMap> {
        self.shapes.shard(key)
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
