//! The rendered prompt as the page shows it (`site-src/templates/model/
//! prompt.html`) and the Markdown twin writes it: the exact text, with
//! only control characters (other than line breaks and tabs) written as
//! escapes so that each shows as what it is.

use serde::Serialize;

use super::{ChatPrompt, Conversation};

#[derive(Clone, Debug, Serialize)]
pub struct ChatView {
    /// Where the template was found, in words.
    pub source: &'static str,
    pub prompt: Option<PromptView>,
    /// Why the template could not be rendered.
    pub not_rendered: Option<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct PromptView {
    pub text: String,
    /// Characters in the prompt.
    pub chars: usize,
    /// e.g. `a conversation with a tool call`.
    pub conversation: &'static str,
    pub messages: Vec<(&'static str, String)>,
    pub fallbacks: Vec<String>,
    pub unknown_tokens: Vec<&'static str>,
}

/// `text` with control characters other than `\n` and `\t` as escapes.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn chat_view(prompt: &ChatPrompt) -> ChatView {
    let (prompt_view, not_rendered) = match &prompt.outcome {
        Ok(rendered) => (
            Some(PromptView {
                text: visible(&rendered.text),
                chars: rendered.text.chars().count(),
                conversation: rendered.conversation.words(),
                messages: Conversation::shown(rendered.conversation),
                fallbacks: rendered.fallbacks.clone(),
                unknown_tokens: rendered.unknown_tokens.clone(),
            }),
            None,
        ),
        Err(why) => (None, Some(why.clone())),
    };
    ChatView { source: prompt.source.words(), prompt: prompt_view, not_rendered }
}

#[cfg(test)]
mod tests {
    #[test]
    fn control_characters_show_as_escapes() {
        assert_eq!(super::visible("a\u{1b}[0m\r\n\tb\u{7f}"), "a\\u{1b}[0m\\u{d}\n\tb\\u{7f}");
    }
}
