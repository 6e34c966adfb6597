//! Quantization labels from file names (`Llama-3.2-1B-Instruct-Q4_K_M.gguf`
//! is `Q4_K_M`), their order from largest to smallest, and the default choice.
//!
//! A label is a file quantization type (or an alias of one, `MXFP4`) with an
//! optional `UD-` prefix and an optional size suffix (`Q6_K_L`, `IQ4_NL_XL`).
//! Names are matched case-insensitively; when a name holds several labels
//! (a folder and a file, `Q8_0/model-Q8_0-00001-of-00002.gguf`) the last wins.
//! Unlike a plain substring search, a label must stand on its own: not glued
//! to a letter before it or to a letter or digit after it, and the longest
//! type wins where several start at the same place (`Q4_0_4_4`, not `Q4_0`).

use std::cmp::Ordering;
use std::fmt;

use crate::types::TABLES;

/// A quantization label as file names and the Hub's `<id>:<label>` tags
/// write it: upper case, e.g. `Q4_K_M`, `UD-Q4_K_XL`, `MXFP4`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuantLabel {
    label: String,
    /// The file quantization type the label is, or whose place it takes.
    file_type: &'static str,
    /// Index of `file_type` in the largest-first order.
    rank: usize,
    /// Index of the size suffix in the largest-first suffix list.
    suffix_rank: usize,
}

impl QuantLabel {
    pub fn as_str(&self) -> &str {
        &self.label
    }

    /// The file quantization type (`MXFP4_MOE` for the label `MXFP4`).
    pub fn file_type(&self) -> &'static str {
        self.file_type
    }

    /// Whether a file of this quantization is no larger than one of `target`'s
    /// (a file type name such as `Q4_K_M`); unknown targets compare as largest.
    fn at_or_below(&self, target_rank: usize) -> bool {
        (self.rank, self.suffix_rank) >= (target_rank, no_suffix_rank())
    }
}

impl fmt::Display for QuantLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.label)
    }
}

/// Largest first; labels of the same size (`Q4_K_M`, `UD-Q4_K_M`) by name.
impl Ord for QuantLabel {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.rank, self.suffix_rank, &self.label).cmp(&(other.rank, other.suffix_rank, &other.label))
    }
}

impl PartialOrd for QuantLabel {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn no_suffix_rank() -> usize {
    TABLES.suffixes.iter().position(String::is_empty).expect("data marks the no-suffix place")
}

/// The quantization label of a file name or path, if it has one.
pub fn parse_quant_label(name: &str) -> Option<QuantLabel> {
    let upper = name.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let mut found = None;
    let mut at = 0;
    while at < bytes.len() {
        // A label never continues a word (`XQ4_0` and `IQ4_XS`'s inner `Q4_`
        // are not labels) and starts with an ASCII letter, so `at` is on a
        // character boundary whenever it is tried.
        let starts_word = bytes[at].is_ascii_uppercase() && (at == 0 || !bytes[at - 1].is_ascii_alphabetic());
        match starts_word.then(|| label_at(&upper, at)).flatten() {
            Some((end, label)) => {
                found = Some(label);
                at = end;
            }
            None => at += 1,
        }
    }
    found
}

/// The label starting at byte `at` of the upper-cased name, and where it ends.
fn label_at(upper: &str, at: usize) -> Option<(usize, QuantLabel)> {
    let rest = &upper[at..];
    let tables = &*TABLES;
    for base in tables.bases.iter().filter(|b| rest.starts_with(b.name.as_str())) {
        let after_base = &rest[base.name.len()..];
        // The longest suffix that stands on its own, else none.
        let suffix = tables
            .suffixes
            .iter()
            .filter(|s| !s.is_empty())
            .filter(|s| after_base.strip_prefix('_').and_then(|r| r.strip_prefix(s.as_str())).is_some_and(ends_word))
            .max_by_key(|s| s.len());
        let (len, suffix_rank) = match suffix {
            Some(s) => (base.name.len() + 1 + s.len(), tables.suffixes.iter().position(|x| x == s).expect("listed")),
            None if base.needs_suffix || !ends_word(after_base) => continue,
            None => (base.name.len(), no_suffix_rank()),
        };
        let prefixed = upper[..at].ends_with("UD-") && (at == 3 || !upper.as_bytes()[at - 4].is_ascii_alphabetic());
        let start = if prefixed { at - 3 } else { at };
        let label = QuantLabel {
            label: upper[start..at + len].to_owned(),
            file_type: tables.rank.get_key_value(&base.ranked_as).map(|(k, _)| k.as_str()).expect("data is consistent"),
            rank: tables.rank[&base.ranked_as],
            suffix_rank,
        };
        return Some((at + len, label));
    }
    None
}

/// Whether the text after a label lets it end there.
fn ends_word(rest: &str) -> bool {
    rest.bytes().next().is_none_or(|b| !b.is_ascii_alphanumeric())
}

/// The quantization pages suggest first: the largest at or below `Q4_K_M`
/// (a good balance of size and quality), else the smallest there is.
pub fn default_label<'a>(labels: impl IntoIterator<Item = &'a QuantLabel>) -> Option<&'a QuantLabel> {
    let mut sorted: Vec<&QuantLabel> = labels.into_iter().collect();
    sorted.sort();
    let target = TABLES.default_rank;
    sorted.iter().find(|l| l.at_or_below(target)).or(sorted.last()).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(name: &str) -> Option<String> {
        parse_quant_label(name).map(|l| l.as_str().to_owned())
    }

    #[test]
    fn suffixes_prefixes_and_aliases() {
        assert_eq!(label("gemma-2-9b-it-Q6_K_L.gguf").as_deref(), Some("Q6_K_L"));
        assert_eq!(label("Meta-Llama-3.1-8B-Instruct-Q4_K_L.gguf").as_deref(), Some("Q4_K_L"));
        assert_eq!(label("model-Q4_K.gguf"), None, "Q4_K alone is a tensor type, not a file quantization");
        assert_eq!(label("x-iq4_nl_xl.gguf").as_deref(), Some("IQ4_NL_XL"));
        let mxfp4 = parse_quant_label("gpt-oss-20b-mxfp4.gguf").unwrap();
        assert_eq!((mxfp4.as_str(), mxfp4.file_type()), ("MXFP4", "MXFP4_MOE"));
        assert_eq!(label("BUD-Q4_K_M.gguf").as_deref(), Some("Q4_K_M"), "UD- only as its own word");
        assert_eq!(label("Q4_K_M_imatrix.gguf").as_deref(), Some("Q4_K_M"), "unknown suffixes are not part of it");
    }

    #[test]
    fn order_compares_suffixes_inside_a_type() {
        let l = |n: &str| parse_quant_label(n).unwrap();
        assert!(l("a-Q4_K_XL") < l("a-Q4_K_L"));
        assert!(l("a-Q4_K_L") < l("a-Q4_K_M"));
        assert!(l("a-Q4_K_M") < l("a-UD-Q4_K_M"));
        assert!(l("a-Q6_K_L") < l("a-Q6_K"));
        assert!(l("a-Q2_K_L") < l("a-Q2_K"));
    }
}
