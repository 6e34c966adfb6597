//! The layout rules every generated example keeps, whatever the record held:
//! four-space indentation and no character that changes how the code looks
//! from what it does (raw control characters, bidirectional overrides,
//! invisible format characters). Record values reach code only as escaped
//! literals, so any such character in an example is a bug.

use modelpages_snippets::escape::is_invisible;

/// Characters that must never appear raw in an example: every invisible
/// character the escapers know of, except the newline that ends a line.
pub fn is_hidden_character(c: char) -> bool {
    c != '\n' && is_invisible(c)
}

/// Lines of `code` that break the layout rules, as `line: problem`.
pub fn layout_problems(code: &str) -> Vec<String> {
    let mut problems = Vec::new();
    for (n, line) in code.split('\n').enumerate() {
        let n = n + 1;
        if let Some(c) = line.chars().find(|&c| is_hidden_character(c)) {
            problems.push(format!("{n}: raw character U+{:04X}", c as u32));
        }
        let indent = line.len() - line.trim_start_matches(' ').len();
        if indent % 4 != 0 {
            problems.push(format!("{n}: indented by {indent} spaces, not a multiple of 4"));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_each_kind_of_problem() {
        assert!(layout_problems("import os\nif x:\n    y()\n").is_empty());
        assert_eq!(layout_problems("a\n  b"), ["2: indented by 2 spaces, not a multiple of 4"]);
        assert_eq!(layout_problems("a = '\t'"), ["1: raw character U+0009"]);
        assert_eq!(layout_problems("s = \"\u{202E}x\""), ["1: raw character U+202E"]);
        assert_eq!(layout_problems("s = 1\u{2028}"), ["1: raw character U+2028"]);
        assert_eq!(layout_problems("x\r"), ["1: raw character U+000D"]);
    }
}
