//! Why a GGUF header could not be read. Every error names the file and, where
//! it helps to find the damage, the byte offset.

use std::io;
use std::path::PathBuf;

/// A GGUF file whose header could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{}: {kind}", path.display())]
pub struct GgufError {
    pub path: PathBuf,
    pub kind: GgufErrorKind,
}

/// What was wrong with the header.
#[derive(Debug, thiserror::Error)]
pub enum GgufErrorKind {
    #[error("cannot read the file: {0}")]
    Io(#[source] io::Error),
    #[error("not a GGUF file: it starts with {found:?}, not \"GGUF\"")]
    NotGguf { found: String },
    #[error("GGUF version {0} is not supported (versions 2 and 3 are)")]
    UnsupportedVersion(u32),
    #[error("big-endian GGUF files are not supported")]
    BigEndian,
    #[error("truncated: the file ends at byte {offset}, inside {what}")]
    Truncated { what: &'static str, offset: u64 },
    #[error("{what} at byte {offset} is {found}, more than the {limit} this reader accepts")]
    TooLarge { what: &'static str, offset: u64, found: u64, limit: u64 },
    #[error("the header is longer than {limit} bytes")]
    HeaderTooLong { limit: u64 },
    #[error("{what} at byte {offset} is not valid UTF-8")]
    NotUtf8 { what: &'static str, offset: u64 },
    #[error("unknown metadata value type {found} before byte {offset}")]
    UnknownValueType { found: u32, offset: u64 },
    #[error("metadata {key:?} should be {expected}")]
    WrongType { key: String, expected: &'static str },
    #[error("alignment {0} is not a power of two")]
    BadAlignment(u64),
    #[error("tensor {index} {name:?}: {problem}")]
    BadTensor { index: u64, name: String, problem: String },
}

impl GgufError {
    pub(crate) fn new(path: impl Into<PathBuf>, kind: GgufErrorKind) -> GgufError {
        GgufError { path: path.into(), kind }
    }
}
