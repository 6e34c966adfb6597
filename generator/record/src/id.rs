//! Model ids (`namespace/name`), validated by the Hub's rule.
//!
//! An id becomes a folder path in the output and a string literal in usage
//! examples, so the rule is strict on purpose: it is what keeps a record from
//! writing outside the site or breaking out of a literal.
//!
//! Length: the Hub limits the repository *name* (the part after `/`) to 96
//! characters, not the whole id, so real ids run to 96 + 1 + the namespace's
//! length (225 of 75,000 real ids are longer than 96 characters). The
//! namespace (a user or organisation name) is limited on its own, to the same
//! 96, so an id is at most 193 characters: a folder name of at most 96 bytes
//! and a path well inside every file system's limits.

use std::fmt;

/// Longest name (the part after `/`) the Hub accepts.
pub const MAX_NAME_LEN: usize = 96;
/// Longest namespace (the part before `/`) accepted.
pub const MAX_NAMESPACE_LEN: usize = 96;
/// Longest whole id: both parts at their limits and the slash.
pub const MAX_ID_LEN: usize = MAX_NAMESPACE_LEN + 1 + MAX_NAME_LEN;

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
    /// The part after `/` is longer than [`MAX_NAME_LEN`] (its length).
    #[error("model name (after the `/`) is {0} characters long; at most {MAX_NAME_LEN} are allowed")]
    NameTooLong(usize),
    /// The part before `/` is longer than [`MAX_NAMESPACE_LEN`] (its length).
    #[error("model namespace (before the `/`) is {0} characters long; at most {MAX_NAMESPACE_LEN} are allowed")]
    NamespaceTooLong(usize),
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
        let parts = s.split('/').count();
        if parts != 2 {
            return Err(IdError::WrongPartCount(parts));
        }
        let slash = s.find('/').expect("two parts");
        let (namespace, name) = (&s[..slash], &s[slash + 1..]);
        // Lengths first: a part is judged by its length before its
        // characters are looked at, and a long part is counted only so far.
        let namespace_chars = namespace.chars().count();
        if namespace_chars > MAX_NAMESPACE_LEN {
            return Err(IdError::NamespaceTooLong(namespace_chars));
        }
        let name_chars = name.chars().count();
        if name_chars > MAX_NAME_LEN {
            return Err(IdError::NameTooLong(name_chars));
        }
        check_part(namespace)?;
        check_part(name)?;
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

/// The namespace of an id kept as text (a listing row's): what comes
/// before its `/`, or the whole id if it has none (ids read from records
/// always have one; see [`ModelId::namespace`]).
pub fn namespace_of(id: &str) -> &str {
    id.split_once('/').map_or(id, |(namespace, _)| namespace)
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

    /// An id's namespace read from its text is the parsed id's; text
    /// without a `/` is a namespace alone.
    #[test]
    fn the_namespace_of_an_id_as_text_is_the_parsed_ids() {
        for id in ["meta-llama/Llama-3.1-8B-Instruct", "a/b", "Org.Name_x/m-1"] {
            assert_eq!(namespace_of(id), ModelId::parse(id).unwrap().namespace(), "{id}");
        }
        assert_eq!(namespace_of("gpt2"), "gpt2");
        assert_eq!(namespace_of("org/"), "org");
    }

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
    fn the_name_is_limited_to_96_characters_not_the_whole_id() {
        // One of the Hub's long real ids (88 characters).
        let real = "gorkaartola/ZS-train_SDG_max_ep_10_5xs_20x10_3xs_40x40_sim_cl_100_bs_16_lr_5e-06_al_0.35";
        assert!(ModelId::parse(real).is_ok());
        let name_at_limit = format!("modelpages-fixtures/{}", "n".repeat(96));
        assert_eq!(name_at_limit.len(), 116);
        assert_eq!(ModelId::parse(&name_at_limit).unwrap().name().len(), MAX_NAME_LEN);
        let name_over = format!("a/{}", "n".repeat(97));
        assert_eq!(ModelId::parse(&name_over), Err(IdError::NameTooLong(97)));
        // The whole id at 97 characters is fine when each part is.
        let id_97 = format!("{}/{}", "a".repeat(48), "b".repeat(48));
        assert_eq!(id_97.len(), 97);
        assert!(ModelId::parse(&id_97).is_ok());
    }

    #[test]
    fn the_namespace_is_limited_on_its_own() {
        let both_at_limit = format!("{}/{}", "a".repeat(96), "b".repeat(96));
        assert_eq!(both_at_limit.len(), MAX_ID_LEN);
        assert!(ModelId::parse(&both_at_limit).is_ok());
        let over = format!("{}/b", "a".repeat(97));
        assert_eq!(ModelId::parse(&over), Err(IdError::NamespaceTooLong(97)));
        // Characters, not bytes, are counted; a long part with a bad
        // character is reported for its length.
        let wide = format!("a/{}", "\u{e9}".repeat(97));
        assert_eq!(ModelId::parse(&wide), Err(IdError::NameTooLong(97)));
        let wide_ok = format!("a/{}", "\u{e9}".repeat(96));
        assert_eq!(ModelId::parse(&wide_ok), Err(IdError::BadChar('\u{e9}')));
    }
}
