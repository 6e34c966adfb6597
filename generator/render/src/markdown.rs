//! Model cards: Markdown to sanitised HTML with highlighted code blocks.
//!
//! Cards are written by anyone, so the rendered HTML always goes through
//! ammonia. Highlighted code is produced by us and is safe, so it is kept out
//! of the sanitiser (it would strip the classes) and put back afterwards in
//! place of a placeholder.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::OnceLock;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};

use crate::highlight::Highlighter;

/// Card ids get this prefix so a card cannot clobber ids the page relies on.
const ID_PREFIX: &str = "user-content-";
/// Marks a placeholder; a private-use character that Markdown leaves alone.
const MARK: char = '\u{E000}';

/// Renders a card's Markdown body to HTML that is safe to put in a page.
/// `values` are the model's own strings (id, name...): code blocks that
/// differ only by them share one highlighting (see [`Highlighter::highlight_example`]).
pub fn render_card(markdown: &str, highlighter: &Highlighter, values: &[&str]) -> String {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES;
    let mut blocks: Vec<String> = Vec::new();
    let mut in_code: Option<(String, String)> = None;
    let events = Parser::new_ext(markdown, options).filter_map(|event| match (&mut in_code, event) {
        (None, Event::Start(Tag::CodeBlock(kind))) => {
            let lang = match kind {
                CodeBlockKind::Fenced(info) => fence_language(&info).to_owned(),
                CodeBlockKind::Indented => String::new(),
            };
            in_code = Some((lang, String::new()));
            None
        }
        (Some((_, code)), Event::Text(text)) => {
            code.push_str(&text);
            None
        }
        (Some(_), Event::End(TagEnd::CodeBlock)) => {
            let (lang, code) = in_code.take().expect("inside a code block");
            blocks.push(code_block_html(&code, &lang, highlighter, values));
            Some(Event::Html(placeholder(blocks.len() - 1).into()))
        }
        (_, event) => Some(event),
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    let mut clean = sanitizer().clean(&html).to_string();
    for (i, block) in blocks.iter().enumerate() {
        clean = clean.replace(&placeholder(i), block);
    }
    clean
}

fn placeholder(i: usize) -> String {
    format!("<p>{MARK}code-block-{i}{MARK}</p>")
}

/// The language of a fence's info string: its first word, without the
/// `{...}` or `,attr` decorations some writers add.
fn fence_language(info: &str) -> &str {
    let word = info.split_whitespace().next().unwrap_or("");
    word.trim_start_matches('{').split([',', '}']).next().unwrap_or("")
}

fn code_block_html(code: &str, lang: &str, highlighter: &Highlighter, values: &[&str]) -> String {
    format!("<pre class=\"hl-code\"><code>{}</code></pre>", highlighter.highlight_example(code, lang, values))
}

fn sanitizer() -> &'static ammonia::Builder<'static> {
    static BUILDER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    BUILDER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        // Task lists render as disabled checkboxes; nothing else may be an input.
        b.add_tags(["input"])
            .add_tag_attributes("input", ["checked", "type"])
            .set_tag_attribute_value("input", "disabled", "")
            .add_tag_attribute_values("input", "type", ["checkbox"])
            .add_generic_attributes(["id"])
            .id_prefix(Some(ID_PREFIX))
            .url_schemes(HashSet::from(["http", "https", "mailto"]))
            .attribute_filter(|_element, attribute, value| {
                // Pages load nothing from other hosts (the CSP would block it
                // anyway): an image from elsewhere keeps only its alt text.
                if attribute == "src" && names_another_host(value) {
                    return None;
                }
                // In-page links follow the prefixed ids (footnotes, anchors).
                match value.strip_prefix('#') {
                    Some(fragment) if attribute == "href" => {
                        Some(Cow::Owned(format!("#{ID_PREFIX}{fragment}")))
                    }
                    _ => Some(Cow::Borrowed(value)),
                }
            });
        b
    })
}

/// Whether a URL leads away from the page's own host: it has a scheme, or it
/// starts with two slashes (browsers read `\\` as `/`), after the leading
/// blanks and controls browsers skip.
fn names_another_host(url: &str) -> bool {
    let url = url.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    let mut start = url.chars().take(2);
    if start.clone().count() == 2 && start.all(|c| c == '/' || c == '\\') {
        return true;
    }
    // A colon before any path, query or fragment ends a scheme.
    match (url.find(':'), url.find(['/', '?', '#', '\\'])) {
        (Some(colon), path) if colon > 0 => path.is_none_or(|path| colon < path),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(md: &str) -> String {
        render_card(md, &Highlighter::new(), &[])
    }

    #[test]
    fn gfm_features_render() {
        let html = render(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n~~old~~\n\n- [x] done\n- [ ] todo\n\nNote[^1].\n\n[^1]: The note.\n",
        );
        assert!(html.contains("<table>") && html.contains("<td>1</td>"), "{html}");
        assert!(html.contains("<del>old</del>"), "{html}");
        assert!(html.contains("<input") && html.contains("checked") && html.contains("disabled"), "{html}");
        assert!(html.contains("href=\"#user-content-1\""), "{html}");
        assert!(html.contains("id=\"user-content-1\""), "{html}");
    }

    #[test]
    fn fenced_code_is_highlighted() {
        let html = render("```python\nimport torch\n```\n\n```{.js}\nlet a = \"<i>\";\n```\n");
        assert!(html.contains("<pre class=\"hl-code\"><code><span class=\""), "{html}");
        assert!(html.contains("&lt;i&gt;") && !html.contains("<i>"), "{html}");
        assert!(!html.contains(MARK), "placeholders are all replaced: {html}");
    }

    #[test]
    fn scripts_handlers_and_dangerous_links_are_removed() {
        let html = render(
            "<script>alert(1)</script>\n\n<img src=\"x.png\" onerror=\"alert(2)\">\n\n\
             [click](javascript:alert(3)) <a href=\"JaVaScRiPt:alert(4)\">x</a>\n\n\
             <iframe src=\"https://evil.example\"></iframe>\n\n<a href=\"data:text/html,hi\">d</a>\n\n\
             <div onclick=\"alert(5)\" style=\"position:fixed\">text</div>\n\n<!-- <script>alert(6)</script> -->\n",
        );
        for bad in ["<script", "onerror", "javascript:", "JaVaScRiPt", "<iframe", "data:", "onclick", "style=", "alert(6)"] {
            assert!(!html.contains(bad), "{bad} survived: {html}");
        }
        assert!(html.contains("text"), "{html}");
    }

    #[test]
    fn images_from_other_hosts_lose_their_source() {
        let html = render(
            "![a](https://evil.example/a.png) <img src=\"//evil.example/b.png\" alt=\"b\"> \
             <img src=\"/\\evil.example/c.png\" alt=\"c\"> <img src=\" http://evil.example/d.png\"> ![e](pics/e.png)",
        );
        assert!(!html.contains("evil.example"), "{html}");
        assert!(html.contains("alt=\"a\"") && html.contains("alt=\"b\""), "{html}");
        assert!(html.contains("src=\"pics/e.png\""), "a relative image stays: {html}");
        for (url, other) in [("a.png", false), ("/x/a.png", false), ("a:b", true), ("HTTPS://x", true), ("?q=a:b", false), ("\\/x", true)] {
            assert_eq!(names_another_host(url), other, "{url}");
        }
    }

    #[test]
    fn safe_html_is_kept() {
        let html = render("<details><summary>More</summary>\n\nHidden *text*.\n\n</details>\n\n[site](https://example.com)\n");
        assert!(html.contains("<details><summary>More</summary>"), "{html}");
        assert!(html.contains("<em>text</em>"), "{html}");
        assert!(html.contains("href=\"https://example.com\""), "{html}");
    }

    #[test]
    fn a_forged_placeholder_only_repeats_the_cards_own_code() {
        let html = render(&format!("{MARK}code-block-0{MARK}\n\n```\nsafe\n```\n\n{MARK}code-block-7{MARK}\n"));
        assert!(!html.contains("<script"));
        assert!(html.contains("safe"));
    }
}
