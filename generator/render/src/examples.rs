//! The usage examples a page shows, as the snippet engine made them and
//! before highlighting: the model page and its Markdown twin both read
//! them, so they sit below both.

/// A usage example before highlighting; `language` is `python`, `js` or `sh`.
#[derive(Clone, Debug)]
pub struct CodeExample {
    pub language: &'static str,
    pub text: String,
}

/// A hosted-inference example before highlighting.
#[derive(Clone, Debug)]
pub struct InferenceExample {
    pub provider: String,
    pub language: &'static str,
    pub client: &'static str,
    /// Whether the example streams a chat answer.
    pub streaming: bool,
    pub token_env: String,
    pub text: String,
}
