//! The sanitiser for the MathML that [`crate::card_math`] makes from a
//! card's formulas: it keeps exactly the elements and attributes the
//! converter emits for the formulas cards write, and nothing else.
//!
//! The converter's output is regular (tags, double-quoted attributes, five
//! entities), so it is read by a strict scanner rather than by an HTML
//! parser: anything it does not expect (an element or attribute not listed
//! here, an odd value, a tag out of place) rejects the whole formula, which
//! the card then shows as code. `style` and `class` attributes are dropped:
//! the page's Content-Security-Policy forbids inline styles and the site
//! has no styles for the converter's classes.
//!
//! MathML reaches the page beside the card's sanitised HTML (see
//! [`crate::placeholders`]), never through it: raw `<math>` written in a
//! card is still removed by the card's sanitiser.
//!
//! The lists are checked against the converter by a test that renders a
//! set of real-world formulas: every element and attribute it emits is
//! listed (or dropped on purpose), and every one listed is emitted.

/// MathML elements and the attributes each keeps.
pub(crate) const MATHML_ELEMENTS: &[(&str, &[&str])] = &[
    ("math", &["display"]),
    ("mfrac", &["displaystyle", "scriptlevel", "linethickness"]),
    ("mi", &["mathvariant"]),
    ("mmultiscripts", &[]),
    ("mn", &[]),
    ("mo", &["form", "lspace", "rspace", "maxsize", "minsize", "movablelimits", "stretchy", "symmetric"]),
    ("mover", &["accent"]),
    ("mpadded", &["height", "width"]),
    ("mphantom", &[]),
    ("mprescripts", &[]),
    ("mroot", &[]),
    ("mrow", &["displaystyle", "scriptlevel"]),
    ("mspace", &["width"]),
    ("msqrt", &[]),
    ("msub", &[]),
    ("msubsup", &[]),
    ("msup", &[]),
    ("mtable", &["displaystyle", "scriptlevel"]),
    ("mtd", &[]),
    ("mtext", &[]),
    ("mtr", &[]),
    ("munder", &["accentunder"]),
    ("munderover", &[]),
];

/// HTML elements the converter puts in `<mtext>` (`\textbf`, `\textit`,
/// `\texttt`, `\textsf`); they keep no attribute.
pub(crate) const TEXT_ELEMENTS: &[&str] = &["b", "code", "i", "span"];

/// Attributes dropped wherever they are.
pub(crate) const DROPPED_ATTRIBUTES: &[&str] = &["class", "style"];

/// MathML elements in which HTML text elements may stand (text
/// integration points): anywhere else an HTML element ends the formula in
/// a browser's parser.
const TEXT_POINTS: &[&str] = &["mi", "mn", "mo", "ms", "mtext"];

/// `raw` (one `<math>` element as the converter wrote it) with only the
/// listed elements and attributes; `None` when it holds anything else.
pub(crate) fn clean_mathml(raw: &str) -> Option<String> {
    let mut out = String::with_capacity(raw.len());
    let mut open: Vec<&str> = Vec::new();
    let mut rest = raw;
    let mut roots = 0;
    while !rest.is_empty() {
        let Some(tag_start) = rest.find('<') else {
            push_text(&mut out, rest, !open.is_empty())?;
            break;
        };
        push_text(&mut out, &rest[..tag_start], !open.is_empty())?;
        let tag_end = tag_start + rest[tag_start..].find('>')?;
        let tag = &rest[tag_start + 1..tag_end];
        rest = &rest[tag_end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop()? != name {
                return None;
            }
            out.push_str("</");
            out.push_str(name);
            out.push('>');
            continue;
        }
        let (tag, self_closing) = match tag.strip_suffix('/') {
            Some(tag) => (tag, true),
            None => (tag, false),
        };
        let name_len = tag.find(' ').unwrap_or(tag.len());
        let name = &tag[..name_len];
        let attributes = allowed_attributes(name, open.last().copied())?;
        if open.is_empty() {
            roots += 1;
            if name != "math" || roots > 1 {
                return None;
            }
        }
        out.push('<');
        out.push_str(name);
        push_attributes(&mut out, &tag[name_len..], attributes)?;
        out.push('>');
        if self_closing {
            // Written out in full: the same element in HTML and in XML.
            out.push_str("</");
            out.push_str(name);
            out.push('>');
        } else {
            open.push(name);
        }
    }
    (open.is_empty() && roots == 1).then_some(out)
}

/// The attributes element `name` keeps inside `parent`, or `None` when the
/// element is not allowed there.
fn allowed_attributes(name: &str, parent: Option<&str>) -> Option<&'static [&'static str]> {
    if let Some((_, attributes)) = MATHML_ELEMENTS.iter().find(|(element, _)| *element == name) {
        // MathML inside HTML text would be HTML there.
        return (!parent.is_some_and(|p| TEXT_ELEMENTS.contains(&p))).then_some(*attributes);
    }
    let in_text = parent.is_some_and(|p| TEXT_POINTS.contains(&p) || TEXT_ELEMENTS.contains(&p));
    (TEXT_ELEMENTS.contains(&name) && in_text).then_some(&[])
}

/// Writes the listed attributes of `source` (` name="value"` pairs), drops
/// [`DROPPED_ATTRIBUTES`]; `None` on anything else.
fn push_attributes(out: &mut String, mut source: &str, allowed: &[&str]) -> Option<()> {
    loop {
        source = source.trim_start_matches(' ');
        if source.is_empty() {
            return Some(());
        }
        let (name, after) = source.split_once("=\"")?;
        let (value, after) = after.split_once('"')?;
        source = after;
        if DROPPED_ATTRIBUTES.contains(&name) {
            continue;
        }
        let plain = value.bytes().all(|b| b.is_ascii_alphanumeric() || b" .#%+-".contains(&b));
        if !allowed.contains(&name) || !plain {
            return None;
        }
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        out.push_str(value);
        out.push('"');
    }
}

/// Writes text, which may hold only the converter's five entities; text
/// outside every element is not allowed.
fn push_text(out: &mut String, text: &str, inside: bool) -> Option<()> {
    if text.is_empty() {
        return Some(());
    }
    if !inside {
        return None;
    }
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let entity = ["&lt;", "&gt;", "&amp;", "&quot;", "&#39;"].into_iter().find(|e| rest[amp..].starts_with(e))?;
        out.push_str(entity);
        rest = &rest[amp + entity.len()..];
    }
    (!rest.contains(['>', '"'])).then(|| out.push_str(rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_markup_is_kept_and_styles_dropped() {
        let raw = "<math display=\"block\"><mrow style=\"color:#FF0000;\"><mi mathvariant=\"normal\">x</mi>\
                   <mo lspace=\"0\" rspace=\"0.1667em\">&lt;</mo><mspace width=\"1em\"/><mtext><b>W</b> &amp; co</mtext></mrow></math>";
        assert_eq!(
            clean_mathml(raw).unwrap(),
            "<math display=\"block\"><mrow><mi mathvariant=\"normal\">x</mi><mo lspace=\"0\" rspace=\"0.1667em\">&lt;</mo>\
             <mspace width=\"1em\"></mspace><mtext><b>W</b> &amp; co</mtext></mrow></math>"
        );
    }

    #[test]
    fn anything_else_rejects_the_formula() {
        for bad in [
            "<math><mtext><a href=\"#eq\">(1)</a></mtext></math>",
            "<math><mtd id=\"eq\"></mtd></math>",
            "<math><mi onclick=\"x\">x</mi></math>",
            "<math><mi mathvariant=\"x&quot;y\">x</mi></math>",
            "<math><script>x</script></math>",
            "<math><b>x</b></math>",
            "<math><mtext><b><mi>x</mi></b></mtext></math>",
            "<math><mi>x</mo></math>",
            "<math><mi>x</mi>",
            "<math></math><math></math>",
            "text<math></math>",
            "<mi>x</mi>",
            "<math><mi>&nbsp;</mi></math>",
            "<math><mi>a>b</mi></math>",
            "<math><mi x=1>a</mi></math>",
            "",
        ] {
            assert_eq!(clean_mathml(bad), None, "{bad}");
        }
    }
}
