//! Model ids (`namespace/name`), validated by the Hub's rule.
//!
//! An id becomes a folder path in the output and a string literal in usage
//! examples, so the rule is strict on purpose: it is what keeps a record from
//! writing outside the site or breaking out of a literal.

use std::fmt;

/// Longest id the Hub accepts, both parts and the slash included.
pub const MAX_ID_LEN: usize = 96;

/// A validated model id: exactly `namespace/name`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ModelId {
    full: String,
    slash: usize,
}

/// Why a string is not a valid model id.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("model id is empty")]
    Empty,
    #[error("model id is {0} characters long; at most {MAX_ID_LEN} are allowed")]
    TooLong(usize),
    #[error("model id must have two parts, `namespace/name`, found {0}")]
    WrongPartCount(usize),
    #[error("model id has an empty part")]
    EmptyPart,
    #[error("model id has the character {0:?}; only letters, digits, `-`, `_` and `.` are allowed")]
    BadChar(char),
    #[error("model id part {0:?} starts or ends with `-` or `.`")]
    BadEdge(String),
    #[error("model id contains `..`")]
    DoubleDot,
}

impl ModelId {
    /// Checks `s` against the Hub's id rule.
    pub fn parse(s: &str) -> Result<ModelId, IdError> {
        if s.is_empty() {
            return Err(IdError::Empty);
        }
        let chars = s.chars().count();
        if chars > MAX_ID_LEN {
            return Err(IdError::TooLong(chars));
        }
        let parts = s.split('/').count();
        if parts != 2 {
            return Err(IdError::WrongPartCount(parts));
        }
        for part in s.split('/') {
            check_part(part)?;
        }
        let slash = s.find('/').expect("two parts");
        Ok(ModelId { full: s.to_owned(), slash })
    }

    pub fn as_str(&self) -> &str {
        &self.full
    }

    pub fn namespace(&self) -> &str {
        &self.full[..self.slash]
    }

    pub fn name(&self) -> &str {
        &self.full[self.slash + 1..]
    }
}

fn check_part(part: &str) -> Result<(), IdError> {
    if part.is_empty() {
        return Err(IdError::EmptyPart);
    }
    if let Some(c) = part
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
    {
        return Err(IdError::BadChar(c));
    }
    let edge = |c: char| c == '-' || c == '.';
    if part.starts_with(edge) || part.ends_with(edge) {
        return Err(IdError::BadEdge(part.to_owned()));
    }
    if part.contains("..") {
        return Err(IdError::DoubleDot);
    }
    Ok(())
}

impl fmt::Display for ModelId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.full)
    }
}

impl AsRef<str> for ModelId {
    fn as_ref(&self) -> &str {
        &self.full
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_hub_style_ids() {
        for ok in [
            "meta-llama/Llama-3.1-8B-Instruct",
            "google/gemma-2-2b-it",
            "a/b",
            "user_1/model.v2",
            "Qwen/Qwen2.5-0.5B",
        ] {
            let id = ModelId::parse(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert_eq!(id.as_str(), ok);
        }
        let id = ModelId::parse("ns/name").unwrap();
        assert_eq!((id.namespace(), id.name()), ("ns", "name"));
    }

    #[test]
    fn rejects_each_rule() {
        let cases: &[(&str, IdError)] = &[
            ("", IdError::Empty),
            ("justname", IdError::WrongPartCount(1)),
            ("a/b/c", IdError::WrongPartCount(3)),
            ("/b", IdError::EmptyPart),
            ("a/", IdError::EmptyPart),
            ("a b/c", IdError::BadChar(' ')),
            ("a/b\"c", IdError::BadChar('"')),
            ("a/b'c", IdError::BadChar('\'')),
            ("a/b\\c", IdError::BadChar('\\')),
            ("a/b\nc", IdError::BadChar('\n')),
            ("a/b\0c", IdError::BadChar('\0')),
            ("a/b$c", IdError::BadChar('$')),
            // Cyrillic "а" looks like a Latin "a".
            ("\u{430}/b", IdError::BadChar('\u{430}')),
            ("-a/b", IdError::BadEdge("-a".into())),
            ("a-/b", IdError::BadEdge("a-".into())),
            ("a/.b", IdError::BadEdge(".b".into())),
            ("a/b.", IdError::BadEdge("b.".into())),
            ("../x", IdError::BadEdge("..".into())),
            ("a/b..c", IdError::DoubleDot),
        ];
        for (input, want) in cases {
            assert_eq!(ModelId::parse(input).as_ref(), Err(want), "input {input:?}");
        }
    }

    #[test]
    fn length_limit_counts_the_whole_id() {
        let at_limit = format!("{}/{}", "a".repeat(47), "b".repeat(48));
        assert_eq!(at_limit.len(), MAX_ID_LEN);
        assert!(ModelId::parse(&at_limit).is_ok());
        let over = format!("{}/{}", "a".repeat(48), "b".repeat(48));
        assert_eq!(ModelId::parse(&over), Err(IdError::TooLong(97)));
    }
}
