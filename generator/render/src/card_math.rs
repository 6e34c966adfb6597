//! Math in cards, made MathML at build time, so pages show formulas with
//! no script (Chromium, Firefox and Safari all render MathML Core).
//!
//! The Hub typesets math before it reads the Markdown, with two delimiters
//! only: `$$...$$` for display math and `\\(...\\)` (two backslashes in the
//! source) for inline math; a single `\(` or `\[` is an escaped bracket and
//! text between single `$` signs (`$5 and $10`) is text.
//! [`crate::markdown_math`] finds formulas among the Markdown's events and
//! [`crate::html_math`] in the text of raw HTML; this module converts them.
//!
//! Conversion is by the `math-core` crate, and what it writes is checked by
//! [`crate::mathml_allowlist`]. A formula costs at most
//! [`MAX_FORMULA_BYTES`] of source and [`MAX_FORMULA_DEPTH`] levels of
//! nesting (the converter recurses once a level: 2 KiB of `\sqrt` would
//! overflow a thread's stack). A formula past a bound, that does not parse,
//! or whose MathML is not all allowed, is shown as its source in `<code>`,
//! and so are those past a card's budget ([`MAX_FORMULAS_PER_CARD`],
//! [`MAX_MATH_BYTES_PER_CARD`]).

use std::sync::OnceLock;

use math_core::{LatexToMathML, MathCoreConfig, MathDisplay};

use crate::mathml_allowlist::clean_mathml;

/// Longest formula converted; real formulas are a few hundred bytes.
pub(crate) const MAX_FORMULA_BYTES: usize = 2 << 10;
/// How far a formula's end is looked for: further than it may be long, so
/// that a formula too long is shown as code with a note, not as text.
pub(crate) const MAX_FORMULA_REACH: usize = 4 * MAX_FORMULA_BYTES;
/// Deepest nesting converted, as [`nesting_depth`] counts it. The
/// converter takes some 2 KiB of stack a level optimised and 25 to 50 KiB
/// unoptimised (tests run the build so): 32 levels fit in half of a render
/// thread's 2 MiB either way. Real formulas nest a dozen levels at most.
pub(crate) const MAX_FORMULA_DEPTH: usize = 32;

/// Formulas converted per card, and bytes of them: real cards have a few
/// dozen formulas of a few KiB in all. Past either, formulas are code.
pub(crate) const MAX_FORMULAS_PER_CARD: usize = 4096;
pub(crate) const MAX_MATH_BYTES_PER_CARD: usize = 256 << 10;

/// The delimiters of display math: the same before and after the formula.
pub(crate) const DISPLAY: &str = "$$";

/// Inline (`\\(`) or display (`$$`) math.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MathStyle {
    Inline,
    Display,
}

/// Why a formula is shown as code (a number, to count them by).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MathProblem {
    TooLong = 0,
    TooDeep = 1,
    /// It does not parse, or its MathML holds something not allowed.
    Unreadable = 2,
    /// It comes after the card's budget of math was spent.
    OverBudget = 3,
}

/// The MathML of a formula (its LaTeX without delimiters).
pub(crate) fn formula_to_mathml(latex: &str, style: MathStyle) -> Result<String, MathProblem> {
    if latex.len() > MAX_FORMULA_BYTES {
        return Err(MathProblem::TooLong);
    }
    if nesting_depth(latex) > MAX_FORMULA_DEPTH {
        return Err(MathProblem::TooDeep);
    }
    let display = match style {
        MathStyle::Inline => MathDisplay::Inline,
        MathStyle::Display => MathDisplay::Block,
    };
    let converted = converter().convert_with_local_state(latex, display).map_err(|_| MathProblem::Unreadable)?;
    clean_mathml(&converted.mathml).ok_or(MathProblem::Unreadable)
}

fn converter() -> &'static LatexToMathML {
    static CONVERTER: OnceLock<LatexToMathML> = OnceLock::new();
    CONVERTER.get_or_init(|| LatexToMathML::new(MathCoreConfig::default()).expect("no macros to parse"))
}

/// How deep the converter may recurse on `latex`, counted from above: each
/// open group (`{`, `\left`, `\begin`) is a level, and so is each command,
/// `^` or `_` since the last plain symbol at its level (`\sqrt\sqrt x`
/// nests without braces; `\alpha\beta` is counted too, which real formulas
/// never run to dozens of).
pub(crate) fn nesting_depth(latex: &str) -> usize {
    let bytes = latex.as_bytes();
    // The commands in a row at each open level.
    let mut chains: Vec<usize> = vec![0];
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        let command: Option<&[u8]> = if b == b'\\' {
            let letters = bytes[i..].iter().take_while(|c| c.is_ascii_alphabetic()).count();
            let name = &bytes[i..i + letters];
            // A command's name, or the one symbol (byte) an escape stands for.
            i = (i + letters.max(1)).min(bytes.len());
            Some(name)
        } else {
            None
        };
        match (b, command) {
            (b'{', None) | (_, Some(b"left" | b"begin")) => {
                chains.push(0);
                depth += 1;
            }
            (b'}', None) | (_, Some(b"right" | b"end")) => {
                if chains.len() > 1 {
                    depth -= 1 + chains.pop().unwrap_or(0);
                }
            }
            // `\,`, `\\`, `\{`: an escaped symbol, as plain as a letter.
            (_, Some(b"")) => reset_chain(&mut chains, &mut depth),
            (_, Some(_)) | (b'^' | b'_', None) => {
                *chains.last_mut().expect("the outermost level stays") += 1;
                depth += 1;
            }
            (b' ' | b'\t' | b'\n' | b'\r' | b'[' | b']', None) => {}
            _ => reset_chain(&mut chains, &mut depth),
        }
        deepest = deepest.max(depth);
    }
    deepest
}

fn reset_chain(chains: &mut [usize], depth: &mut usize) {
    let chain = chains.last_mut().expect("the outermost level stays");
    *depth -= *chain;
    *chain = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mathml_allowlist::{DROPPED_ATTRIBUTES, MATHML_ELEMENTS, TEXT_ELEMENTS};
    use std::collections::BTreeSet;

    #[test]
    fn formulas_render_as_mathml() {
        let inline = formula_to_mathml("\\frac{1}{\\sqrt{d_k}} QK^\\top", MathStyle::Inline).unwrap();
        assert!(inline.starts_with("<math><mfrac>") && inline.contains("<msqrt>"), "{inline}");
        let display = formula_to_mathml("\\sum_{i=1}^n x_i", MathStyle::Display).unwrap();
        assert!(display.starts_with("<math display=\"block\">"), "{display}");
        assert_eq!(formula_to_mathml("\\frac{1}{", MathStyle::Inline), Err(MathProblem::Unreadable));
        assert_eq!(formula_to_mathml("\\unknowncommand x", MathStyle::Inline), Err(MathProblem::Unreadable));
        assert_eq!(formula_to_mathml(&"x+".repeat(MAX_FORMULA_BYTES), MathStyle::Inline), Err(MathProblem::TooLong));
        let deep = "{".repeat(MAX_FORMULA_DEPTH + 1) + &"}".repeat(MAX_FORMULA_DEPTH + 1);
        assert_eq!(formula_to_mathml(&deep, MathStyle::Inline), Err(MathProblem::TooDeep));
    }

    /// Formulas of each shape that nests, as deep as allowed and deeper.
    /// The deepest allowed must convert on a thread with half the stack a
    /// render thread has (2 MiB), unoptimised.
    #[test]
    fn the_deepest_formulas_allowed_fit_in_a_render_threads_stack() {
        let d = MAX_FORMULA_DEPTH;
        let shapes: Vec<(&str, Box<dyn Fn(usize) -> String>)> = vec![
            ("braces", Box::new(|n| "{".repeat(n) + "x" + &"}".repeat(n))),
            ("sqrt", Box::new(|n| "\\sqrt ".repeat(n) + "x")),
            ("frac", Box::new(|n| "\\frac ".repeat(n) + &"x".repeat(n + 1))),
            ("hat", Box::new(|n| "\\hat ".repeat(n) + "x")),
            ("sup", Box::new(|n| "x^{".repeat(n / 2) + "x" + &"}".repeat(n / 2))),
            ("left", Box::new(|n| "\\left(".repeat(n) + "x" + &"\\right)".repeat(n))),
            ("matrix", Box::new(|n| "\\begin{matrix}".repeat(n) + "x" + &"\\end{matrix}".repeat(n))),
            ("mathbf", Box::new(|n| "\\mathbf{".repeat(n / 2) + "x" + &"}".repeat(n / 2))),
            ("root", Box::new(|n| "\\sqrt[".repeat(n) + "3" + &"]x".repeat(n))),
            ("color", Box::new(|n| "\\color{red}".repeat(n) + "x")),
        ];
        for (name, shape) in &shapes {
            let deepest = (1..=4 * d).rev().map(shape).find(|f| nesting_depth(f) <= d).unwrap();
            assert!(nesting_depth(&shape(4 * d)) > d, "{name}: deep nesting is counted");
            let converted = std::thread::Builder::new()
                .stack_size(1 << 20)
                .spawn(move || formula_to_mathml(&deepest, MathStyle::Display).map(|m| m.len()))
                .unwrap()
                .join()
                .expect("no stack overflow");
            assert!(converted.is_ok(), "{name}: {converted:?}");
        }
        assert_eq!(nesting_depth("\\alpha + \\beta_{i} - \\frac{a}{b}"), 3);
        assert_eq!(nesting_depth("a\\,b\\\\c"), 0, "escaped symbols are plain");
    }

    /// Formulas of the kinds cards write, to check the allowlist against.
    const REAL_WORLD_FORMULAS: &[&str] = &[
        "x^2 + y^2 = z^2",
        "\\frac{1}{\\sqrt{d_k}} \\mathrm{softmax}(QK^\\top)V",
        "\\mathcal{L} = -\\sum_{i=1}^{N} \\log p_\\theta(y_i \\mid x)",
        "\\begin{pmatrix}a & b\\\\ c & d\\end{pmatrix}",
        "\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}",
        "\\begin{cases} 1 & x > 0 \\\\ 0 & \\text{otherwise} \\end{cases}",
        "\\sqrt[3]{x} + \\binom{n}{k} + \\dfrac{1}{2} + \\tfrac{1}{2}",
        "\\hat{y} = \\textbf{W} \\cdot \\vec{x} + \\bar{b} + \\tilde{z}",
        "\\overline{AB} + \\overbrace{a+b}^{n} + \\underbrace{c+d}_{m}",
        "\\left( \\frac{a}{b} \\right) \\left. \\frac{d}{dx} \\right|_{x=0}",
        "\\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}",
        "\\lim_{n \\to \\infty} \\prod_{k=1}^n \\max_x \\operatorname{argmax}_\\theta f",
        "\\mathbb{R}^{d} \\mathbf{x} \\mathit{y} \\mathsf{z} \\mathtt{w} \\boldsymbol{\\alpha}",
        "\\color{red}{x}",
        "\\text{if } x \\textit{ odd} \\texttt{t} \\textsf{s}",
        "a \\quad b \\qquad c \\, d \\; e \\: f \\! g",
        "{}_a^b X_c^d",
        "\\phantom{x} y",
        "\\big( \\Big[ \\bigg\\{ \\Bigg| x",
        "\\overset{!}{=} \\underset{x}{\\min} \\stackrel{def}{=}",
        "x \\xrightarrow{f} y",
        "\\langle x, y \\rangle \\lVert v \\rVert \\lceil a \\rceil",
        "\\begin{array}{c|c} a & b \\\\ \\hline c & d \\end{array}",
        "\\displaystyle \\sum_i x_i \\textstyle \\sum_j y_j \\scriptstyle a",
        "\\mathop{\\mathrm{Var}}(X) + \\pmod{n}",
        "\\tbinom{a}{b} + \\sideset{_a^b}{_c^d}\\sum",
        "\\hphantom{z} \\vphantom{w} \\mathfrak{g} \\mathscr{L}",
        "\\Gamma(z) = \\int_0^\\infty t^{z-1} e^{-t} \\mathrm{d}t",
        "\\cfrac{1}{1+\\cfrac{1}{x}}",
    ];

    /// Every element and attribute the converter emits for real formulas is
    /// listed (or dropped on purpose), and every one listed is emitted.
    #[test]
    fn the_allowlist_is_exactly_what_the_converter_emits() {
        let mut emitted = BTreeSet::new();
        for formula in REAL_WORLD_FORMULAS {
            for display in [MathDisplay::Inline, MathDisplay::Block] {
                let raw = converter().convert_with_local_state(formula, display).expect(formula).mathml;
                for tag in raw.split('<').skip(1).filter(|t| !t.starts_with('/')) {
                    let tag = &tag[..tag.find('>').unwrap()];
                    let name = tag.split([' ', '/']).next().unwrap();
                    emitted.insert((name.to_owned(), String::new()));
                    for pair in tag[name.len()..].split('"').step_by(2) {
                        let attribute = pair.trim().trim_end_matches('=');
                        if !attribute.is_empty() && attribute != "/" && !DROPPED_ATTRIBUTES.contains(&attribute) {
                            emitted.insert((name.to_owned(), attribute.to_owned()));
                        }
                    }
                }
                assert!(clean_mathml(&raw).is_some(), "{formula}: {raw}");
            }
        }
        let mut listed = BTreeSet::new();
        for (element, attributes) in MATHML_ELEMENTS {
            listed.insert((element.to_string(), String::new()));
            listed.extend(attributes.iter().map(|a| (element.to_string(), a.to_string())));
        }
        listed.extend(TEXT_ELEMENTS.iter().map(|e| (e.to_string(), String::new())));
        assert_eq!(emitted, listed, "emitted (left) and listed (right) differ");
    }
}
