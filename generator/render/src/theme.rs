//! The two colour schemes of highlighted code and the short classes that
//! carry them.
//!
//! Each token's style is resolved in both themes (as syntect's inline-style
//! output would) and written as a few short classes: `l3` is the light theme's
//! fourth foreground colour, `dg1` the dark theme's second background, `lb`,
//! `li`, `lu` bold, italic and underline. A page names a handful of classes per
//! token instead of the token's whole scope stack, which made highlighted code
//! four fifths of every page. [`stylesheet`] holds the colours, each scheme
//! under its `prefers-color-scheme`.

use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

use syntect::highlighting::{Color, FontStyle, Highlighter as ThemeHighlighter, Style, Theme, ThemeSet};
use syntect::parsing::Scope;

const LIGHT_THEME: &str = "InspiredGitHub";
const DARK_THEME: &str = "base16-ocean.dark";

/// WCAG AA for normal text.
pub const MIN_CONTRAST: f64 = 4.5;

/// One theme and its colours, numbered in the order the theme lists them.
struct Scheme {
    /// The class prefix, and the `prefers-color-scheme` it answers.
    prefix: &'static str,
    media: &'static str,
    resolver: ThemeHighlighter<'static>,
    default: Style,
    foregrounds: Vec<Color>,
    backgrounds: Vec<Color>,
}

impl Scheme {
    fn new(prefix: &'static str, media: &'static str, theme: &'static Theme) -> Scheme {
        let resolver = ThemeHighlighter::new(theme);
        let default = resolver.get_default();
        let mut foregrounds = vec![default.foreground];
        let mut backgrounds = vec![default.background];
        for item in &theme.scopes {
            if let Some(fg) = item.style.foreground.filter(|c| !foregrounds.contains(c)) {
                foregrounds.push(fg);
            }
            if let Some(bg) = item.style.background.filter(|c| !backgrounds.contains(c)) {
                backgrounds.push(bg);
            }
        }
        Scheme { prefix, media, resolver, default, foregrounds, backgrounds }
    }

    /// Appends the classes of `stack`'s style; says whether whitespace shows
    /// in it (a background or an underline).
    fn push_classes(&self, stack: &[Scope], out: &mut String) -> bool {
        let style = self.resolver.style_for_stack(stack);
        let p = self.prefix;
        let mut push = |class: std::fmt::Arguments| {
            if !out.is_empty() {
                out.push(' ');
            }
            let _ = out.write_fmt(class);
        };
        // Colours come from the theme's rules, so each has an index; the
        // default colour needs no class.
        if let Some(i) = self.foregrounds.iter().position(|c| *c == style.foreground).filter(|&i| i > 0) {
            push(format_args!("{p}{i}"));
        }
        let background = self.backgrounds.iter().position(|c| *c == style.background).filter(|&i| i > 0);
        if let Some(i) = background {
            push(format_args!("{p}g{i}"));
        }
        let font = style.font_style;
        if font.contains(FontStyle::BOLD) {
            push(format_args!("{p}b"));
        }
        if font.contains(FontStyle::ITALIC) {
            push(format_args!("{p}i"));
        }
        if font.contains(FontStyle::UNDERLINE) {
            push(format_args!("{p}u"));
        }
        background.is_some() || font.contains(FontStyle::UNDERLINE)
    }

    fn css(&self, out: &mut String) {
        let p = self.prefix;
        let _ = writeln!(out, "@media (prefers-color-scheme: {}) {{", self.media);
        let (fg, bg) = (css_color(self.default.foreground), css_color(self.default.background));
        let _ = writeln!(out, ".hl-code {{ color: {fg}; background-color: {bg}; }}");
        for (i, c) in self.foregrounds.iter().enumerate().skip(1) {
            let _ = writeln!(out, ".hl-code .{p}{i} {{ color: {}; }}", css_color(*c));
        }
        for (i, c) in self.backgrounds.iter().enumerate().skip(1) {
            let _ = writeln!(out, ".hl-code .{p}g{i} {{ background-color: {}; }}", css_color(*c));
        }
        let _ = writeln!(out, ".hl-code .{p}b {{ font-weight: bold; }}");
        let _ = writeln!(out, ".hl-code .{p}i {{ font-style: italic; }}");
        let _ = writeln!(out, ".hl-code .{p}u {{ text-decoration: underline; }}");
        out.push_str("}\n");
    }
}

fn css_color(c: Color) -> String {
    if c.a == 0xff {
        format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
    } else {
        format!("#{:02x}{:02x}{:02x}{:02x}", c.r, c.g, c.b, c.a)
    }
}

fn schemes() -> &'static [Scheme; 2] {
    static THEMES: OnceLock<[Theme; 2]> = OnceLock::new();
    static SCHEMES: OnceLock<[Scheme; 2]> = OnceLock::new();
    SCHEMES.get_or_init(|| {
        let [light, dark] = THEMES.get_or_init(|| {
            let set = ThemeSet::load_defaults();
            [readable(&set.themes[LIGHT_THEME]), readable(&set.themes[DARK_THEME])]
        });
        [Scheme::new("l", "light", light), Scheme::new("d", "dark", dark)]
    })
}

/// The classes of one token: empty for plain text in both schemes.
#[derive(Debug, PartialEq, Eq)]
pub struct TokenClass {
    pub classes: String,
    /// A background or underline: whitespace in this token is visible, so it
    /// cannot be merged into a neighbour with other classes.
    pub shows_whitespace: bool,
}

/// Resolving a style matches every rule of both themes, so each thread keeps
/// the classes of the scope stacks it has seen (a grammar has a few hundred).
pub fn token_class(stack: &[Scope]) -> Arc<TokenClass> {
    thread_local! {
        static SEEN: std::cell::RefCell<foldhash::HashMap<Box<[Scope]>, Arc<TokenClass>>> = Default::default();
    }
    SEEN.with(|seen| {
        if let Some(class) = seen.borrow().get(stack) {
            return class.clone();
        }
        let mut classes = String::new();
        let mut shows_whitespace = false;
        for scheme in schemes() {
            shows_whitespace |= scheme.push_classes(stack, &mut classes);
        }
        let class = Arc::new(TokenClass { classes, shows_whitespace });
        seen.borrow_mut().insert(stack.into(), class.clone());
        class
    })
}

/// The colours of every class [`token_class`] hands out, light and dark.
pub fn stylesheet() -> String {
    let mut css = String::new();
    for scheme in schemes() {
        scheme.css(&mut css);
    }
    css
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use syntect::parsing::ScopeStack;

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
        let css = stylesheet();
        let (light, dark) = css.split_once("@media (prefers-color-scheme: dark)").unwrap();
        assert!(light.trim_start().starts_with("@media (prefers-color-scheme: light) {"), "no rule outside a scheme");
        assert!(light.contains(".hl-code .l1 {") && !light.contains(".d1 "), "{light}");
        assert!(dark.contains(".hl-code .d1 {") && !dark.contains(".l1 "), "{dark}");
    }

    /// Each class names the colour the theme itself gives the scope stack.
    #[test]
    fn classes_carry_the_resolved_theme_colours() {
        let stack = ScopeStack::from_str("source.python string.quoted.double.python").unwrap();
        let class = token_class(stack.as_slice());
        let css = stylesheet();
        for scheme in schemes() {
            let expected = css_color(scheme.resolver.style_for_stack(stack.as_slice()).foreground);
            let name = class.classes.split(' ').find(|c| {
                c.strip_prefix(scheme.prefix).is_some_and(|n| n.chars().all(|d| d.is_ascii_digit()) && !n.is_empty())
            });
            let name = name.unwrap_or_else(|| panic!("strings are coloured in {}: {:?}", scheme.media, class));
            assert!(css.contains(&format!(".hl-code .{name} {{ color: {expected}; }}")), "{name} {expected}\n{css}");
        }
        let plain = token_class(ScopeStack::from_str("source.python").unwrap().as_slice());
        assert_eq!(plain.classes, "", "plain text needs no class");
    }
}
