//! The language of an example: what pages label it, how it is highlighted,
//! which tool checks it, and which comment marker it uses. It sits below
//! everything else in the crate: the engine, the inference clients and the
//! local apps all name it, and it names none of them.

use serde::Serialize;

/// The language of an example, as shown to users and used for highlighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    Python,
    Js,
    Sh,
}

impl Language {
    /// The language a template's file extension stands for.
    pub fn from_extension(ext: &str) -> Option<Language> {
        match ext {
            "py" => Some(Language::Python),
            "js" => Some(Language::Js),
            "sh" => Some(Language::Sh),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::Js => "js",
            Language::Sh => "sh",
        }
    }
}
