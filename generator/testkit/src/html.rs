//! Live markup in generated HTML: anything a browser would run or load that
//! did not come from the site's own templates.
//!
//! Pages are split into tokens by html5ever's tokenizer, the same state
//! machine browsers use, with the raw-text rules for `<script>`, `<style>`
//! and friends applied, so markup hidden in comments or attribute values is
//! seen exactly as a browser sees it.

use std::cell::RefCell;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts};

/// One token of an HTML document, with entities decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Start { name: String, attrs: Vec<(String, String)> },
    End { name: String },
    Text(String),
    Comment(String),
}

impl Node {
    /// The value of attribute `name` on a start tag.
    pub fn attr(&self, name: &str) -> Option<&str> {
        match self {
            Node::Start { attrs, .. } => attrs.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str()),
            _ => None,
        }
    }

    pub fn is_start(&self, tag: &str) -> bool {
        matches!(self, Node::Start { name, .. } if name == tag)
    }
}

struct Collect(RefCell<Vec<Node>>);

impl TokenSink for Collect {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut nodes = self.0.borrow_mut();
        match token {
            Token::TagToken(Tag { kind: TagKind::StartTag, name, attrs, .. }) => {
                let name = name.to_string();
                let attrs = attrs.iter().map(|a| (a.name.local.to_string(), a.value.to_string())).collect();
                let next = raw_kind(&name);
                nodes.push(Node::Start { name, attrs });
                return next;
            }
            Token::TagToken(Tag { kind: TagKind::EndTag, name, .. }) => nodes.push(Node::End { name: name.to_string() }),
            Token::CharacterTokens(text) => push_text(&mut nodes, &text),
            Token::NullCharacterToken => push_text(&mut nodes, "\0"),
            Token::CommentToken(text) => nodes.push(Node::Comment(text.to_string())),
            Token::DoctypeToken(_) | Token::EOFToken | Token::ParseError(_) => {}
        }
        TokenSinkResult::Continue
    }
}

/// The tokenizer state a browser switches to after a start tag (scripting on).
fn raw_kind(tag: &str) -> TokenSinkResult<()> {
    match tag {
        "script" => TokenSinkResult::RawData(RawKind::ScriptData),
        "style" | "xmp" | "iframe" | "noembed" | "noframes" | "noscript" => TokenSinkResult::RawData(RawKind::Rawtext),
        "textarea" | "title" => TokenSinkResult::RawData(RawKind::Rcdata),
        "plaintext" => TokenSinkResult::Plaintext,
        _ => TokenSinkResult::Continue,
    }
}

fn push_text(nodes: &mut Vec<Node>, text: &str) {
    match nodes.last_mut() {
        Some(Node::Text(last)) => last.push_str(text),
        _ => nodes.push(Node::Text(text.to_owned())),
    }
}

/// Splits `html` into tokens as a browser's tokenizer would.
pub fn tokens(html: &str) -> Vec<Node> {
    let tokenizer = Tokenizer::new(Collect(RefCell::new(Vec::new())), TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    tokenizer.sink.0.take()
}

/// Elements that run code, load documents or styles, or switch the parser
/// into foreign content (where sanitisers and browsers may disagree). A
/// `<math>` holding only [`MATH_ELEMENTS`] is a card's formula, which may be.
const FORBIDDEN_TAGS: &[&str] = &[
    "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "form", "base",
    "link", "meta", "template", "portal", "noscript", "xmp", "plaintext", "noembed", "noframes", "param",
];

/// What a formula's MathML may hold: presentation elements and, in its
/// text, a few HTML ones; nothing that changes how a browser parses.
const MATH_ELEMENTS: &[&str] = &[
    "mi", "mn", "mo", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac", "msqrt", "mroot", "munder", "mover",
    "munderover", "mrow", "mtable", "mtr", "mtd", "mpadded", "mphantom", "mmultiscripts", "mprescripts", "b", "i",
    "code", "span",
];

/// Attributes holding a URL a browser follows or loads.
const URL_ATTRIBUTES: &[&str] =
    &["href", "src", "action", "formaction", "xlink:href", "poster", "background", "cite", "data", "srcset", "ping", "longdesc", "manifest", "lowsrc", "dynsrc", "codebase"];

/// What the site's own templates put in every page, which a page may hold.
#[derive(Clone, Debug)]
pub struct SiteMarkup {
    /// The Content-Security-Policy the page must declare.
    pub csp: String,
    /// The policy a page may declare instead, which allows `https:` images:
    /// a page declaring it may show them, lazily and without a referrer.
    pub csp_remote_images: Option<String>,
    /// URL of the site's stylesheet.
    pub stylesheet: String,
    /// URL of the site's island bundle, when the site has one.
    pub script: Option<String>,
}

/// Everything in a card fragment (no site markup allowed) or a whole page
/// (`site` given) that could run or load something. Empty means safe.
pub fn live_markup(html: &str, site: Option<&SiteMarkup>) -> Vec<String> {
    let nodes = tokens(html);
    let mut found = Vec::new();
    let mut csp_seen = false;
    let mut remote_images = false;
    for (i, node) in nodes.iter().enumerate() {
        let Node::Start { name, attrs } = node else { continue };
        if name == "math" && is_plain_math(&nodes[i..]) {
            // Its elements' attributes are checked below all the same.
        } else if FORBIDDEN_TAGS.contains(&name.as_str()) {
            match site.and_then(|site| allowed_site_tag(site, node, nodes.get(i + 1))) {
                Some(Some(policy)) => {
                    csp_seen = true;
                    remote_images = policy == Policy::RemoteImages;
                }
                Some(None) => {}
                None => found.push(format!("<{name}> element {attrs:?}")),
            }
        }
        for (attr, value) in attrs {
            if attr.starts_with("on") || matches!(attr.as_str(), "style" | "srcdoc" | "formaction") {
                found.push(format!("<{name} {attr}={value:?}>"));
            }
            if URL_ATTRIBUTES.contains(&attr.as_str()) && !(name == "link" && value == "data:,") {
                let shown = remote_images && name == "img" && attr == "src" && is_shown_remote_image(node);
                if let Some(problem) = url_problem(value, attr).filter(|_| !shown) {
                    found.push(format!("<{name} {attr}={value:?}>: {problem}"));
                }
            }
        }
    }
    if site.is_some() && !csp_seen {
        found.push("no Content-Security-Policy meta element with the site's policy".into());
    }
    found
}

/// Which of the site's policies a page declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    Strict,
    RemoteImages,
}

/// Whether the `<math>` element `nodes` start with holds only
/// [`MATH_ELEMENTS`], up to its end.
fn is_plain_math(nodes: &[Node]) -> bool {
    let mut depth = 0;
    for node in nodes {
        match node {
            Node::Start { name, .. } if name == "math" => depth += 1,
            Node::Start { name, .. } if !MATH_ELEMENTS.contains(&name.as_str()) => return false,
            Node::End { name } if name == "math" => {
                depth -= 1;
                if depth == 0 {
                    return true;
                }
            }
            Node::Comment(_) => return false,
            _ => {}
        }
    }
    false
}

/// An `https:` image shown as the site shows remote images: lazily and
/// without a referrer.
fn is_shown_remote_image(node: &Node) -> bool {
    node.attr("src").is_some_and(|src| src.starts_with("https://"))
        && node.attr("loading") == Some("lazy")
        && node.attr("referrerpolicy") == Some("no-referrer")
}

/// For a site page: `Some(Some(policy))` for the policy's meta element,
/// `Some(None)` for another element the templates write themselves, `None`
/// when it came from somewhere else.
fn allowed_site_tag(site: &SiteMarkup, node: &Node, next: Option<&Node>) -> Option<Option<Policy>> {
    let Node::Start { name, attrs } = node else { return None };
    let only = |keys: &[&str]| attrs.iter().all(|(k, _)| keys.contains(&k.as_str()));
    match name.as_str() {
        "script" => {
            let inline_empty = matches!(next, Some(Node::End { name }) if name == "script");
            let ours = site.script.as_deref().is_some_and(|src| node.attr("src") == Some(src));
            let module = node.attr("type") == Some("module") && only(&["src", "type"]);
            // The quantization picker's data: JSON the browser never runs
            // (its text cannot end the element: `<` is written `\u003c`).
            let data = node.attr("type") == Some("application/json")
                && node.attr("id") == Some("use-quant-data")
                && only(&["type", "id"]);
            (ours && inline_empty && (module || only(&["src", "defer"])) || data).then_some(None)
        }
        // The header's search: a GET form to the site's own index.
        "form" => {
            let own = node.attr("method") == Some("get") && node.attr("action").is_some_and(|a| a.starts_with('/'));
            (own && node.attr("class") == Some("site-search") && only(&["class", "role", "aria-label", "action", "method"])).then_some(None)
        }
        "link" => {
            let stylesheet = node.attr("rel") == Some("stylesheet") && node.attr("href") == Some(site.stylesheet.as_str());
            let icon = node.attr("rel") == Some("icon") && node.attr("href") == Some("data:,");
            // A model page's Markdown twin, beside it.
            let twin = node.attr("rel") == Some("alternate")
                && node.attr("type") == Some("text/markdown")
                && node.attr("href") == Some("index.md")
                && only(&["rel", "type", "href", "title"]);
            // A listing's change feed: an Atom file of the site's own.
            let feed = node.attr("rel") == Some("alternate")
                && node.attr("type") == Some("application/atom+xml")
                && node.attr("href").is_some_and(|h| h.starts_with('/') && !h.starts_with("//") && h.ends_with("/feed.xml"))
                && only(&["rel", "type", "title", "href"]);
            ((stylesheet || icon) && only(&["rel", "href"]) || twin || feed).then_some(None)
        }
        "meta" => {
            if node.attr("http-equiv").is_some() {
                let is_csp = node.attr("http-equiv") == Some("Content-Security-Policy") && only(&["http-equiv", "content"]);
                let content = node.attr("content");
                let policy = if content == Some(site.csp.as_str()) {
                    Policy::Strict
                } else if content.is_some() && content == site.csp_remote_images.as_deref() {
                    Policy::RemoteImages
                } else {
                    return None;
                };
                return is_csp.then_some(Some(policy));
            }
            let named = matches!(node.attr("name"), Some("viewport" | "referrer" | "description"));
            (attrs.len() == 1 && node.attr("charset") == Some("utf-8") || named && only(&["name", "content"])).then_some(None)
        }
        _ => None,
    }
}

/// Why a URL attribute is unsafe: a scheme that runs code or embeds a
/// document, or (for what the browser loads by itself) another host.
fn url_problem(value: &str, attr: &str) -> Option<&'static str> {
    // Browsers drop ASCII whitespace and controls inside a scheme (`java\tscript:`).
    let squeezed: String =
        value.chars().filter(|c| !c.is_ascii_whitespace() && !c.is_ascii_control()).collect::<String>().to_ascii_lowercase();
    if ["javascript:", "vbscript:", "data:", "blob:", "filesystem:"].iter().any(|s| squeezed.starts_with(s)) {
        return Some("a scheme that runs or embeds code");
    }
    let loads_by_itself = matches!(attr, "src" | "srcset" | "poster" | "background" | "data" | "lowsrc" | "dynsrc" | "codebase");
    let two_slashes = squeezed.chars().take(2).filter(|c| matches!(c, '/' | '\\')).count() == 2;
    let other_host = two_slashes || squeezed.contains("://");
    (loads_by_itself && other_host).then_some("loads from another host")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> SiteMarkup {
        SiteMarkup {
            csp: "default-src 'self'".into(),
            csp_remote_images: Some("default-src 'self'; img-src https:".into()),
            stylesheet: "/assets/s.css".into(),
            script: Some("/assets/i.js".into()),
        }
    }

    #[test]
    fn fragments_with_live_markup_are_caught() {
        for bad in [
            "<script>x()</script>",
            "<img src=x onerror=alert(1)>",
            "<a href=\"java\tscript:alert(1)\">x</a>",
            "<a href=\"&#x6A;avascript:alert(1)\">x</a>",
            "<iframe srcdoc=\"x\"></iframe>",
            "<svg><script>x()</script></svg>",
            "<div style=\"background:url(x)\">",
            "<img src=\"https://evil.example/x.png\">",
            "<a href=\"data:text/html,hi\">d</a>",
            "<meta http-equiv=\"refresh\" content=\"0;url=javascript:x()\">",
        ] {
            assert!(!live_markup(bad, None).is_empty(), "{bad} passed");
        }
    }

    #[test]
    fn text_comments_and_safe_markup_pass() {
        for ok in [
            "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>",
            "<!-- <script>x()</script> -->",
            "<a href=\"https://example.com\" rel=\"noopener\">x</a>",
            "<pre><code>&lt;img onerror=x&gt;</code></pre>",
            "<p title=\"<script>\">t</p>",
        ] {
            assert_eq!(live_markup(ok, None), Vec::<String>::new(), "{ok}");
        }
    }

    #[test]
    fn script_content_is_raw_text() {
        // What follows `<script>` up to `</script>` is one text token, so a
        // tag inside it is not counted as markup of its own.
        let nodes = tokens("<script>a = '<p>'</script><p>b</p>");
        assert_eq!(nodes[1], Node::Text("a = '<p>'".into()));
        assert!(nodes[3].is_start("p"));
    }

    #[test]
    fn site_markup_is_allowed_only_as_the_templates_write_it() {
        let page = "<meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'\">\
                    <link rel=\"stylesheet\" href=\"/assets/s.css\"><script src=\"/assets/i.js\" defer></script>";
        assert_eq!(live_markup(page, Some(&site())), Vec::<String>::new());
        let no_csp = "<meta charset=\"utf-8\">";
        assert_eq!(live_markup(no_csp, Some(&site())).len(), 1);
        let other_script = format!("{page}<script src=\"/assets/x.js\"></script>");
        assert_eq!(live_markup(&other_script, Some(&site())).len(), 1);
        let inline = format!("{page}<script src=\"/assets/i.js\">x()</script>");
        assert_eq!(live_markup(&inline, Some(&site())).len(), 1);
        assert_eq!(live_markup(page, None).len(), 4, "no site markup in a fragment");
        let twin = format!("{page}<link rel=\"alternate\" type=\"text/markdown\" href=\"index.md\" title=\"a/b as Markdown\">");
        assert_eq!(live_markup(&twin, Some(&site())), Vec::<String>::new());
        for other in ["https://evil.example/x.md", "/other/index.md"] {
            let elsewhere = format!("{page}<link rel=\"alternate\" type=\"text/markdown\" href=\"{other}\">");
            assert_eq!(live_markup(&elsewhere, Some(&site())).len(), 1, "{other}");
        }
        let styled = format!("{page}<link rel=\"alternate stylesheet\" type=\"text/markdown\" href=\"index.md\">");
        assert_eq!(live_markup(&styled, Some(&site())).len(), 1);
        let feed = "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"t\" href=\"/org/-/feed.xml\">";
        assert_eq!(live_markup(&format!("{page}{feed}"), Some(&site())), Vec::<String>::new(), "the site's feed");
        for other in [
            "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"https://evil.example/feed.xml\">",
            "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"//evil.example/feed.xml\">",
            "<link rel=\"alternate\" type=\"text/html\" href=\"/org/-/feed.xml\">",
            "<link rel=\"alternate\" type=\"application/atom+xml\" href=\"/feed.xml\" onload=\"x()\">",
        ] {
            assert!(!live_markup(&format!("{page}{other}"), Some(&site())).is_empty(), "{other} passed");
        }
    }

    #[test]
    fn remote_images_need_the_widened_policy_lazy_loading_and_no_referrer() {
        let policy = |csp: &str| format!("<meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">");
        let shown = "<img src=\"https://x.example/a.png\" loading=\"lazy\" referrerpolicy=\"no-referrer\">";
        let widened = policy("default-src 'self'; img-src https:");
        assert_eq!(live_markup(&format!("{widened}{shown}"), Some(&site())), Vec::<String>::new());
        assert_eq!(live_markup(&format!("{}{shown}", policy("default-src 'self'")), Some(&site())).len(), 1);
        assert_eq!(live_markup(&format!("{widened}<img src=\"https://x.example/a.png\">"), Some(&site())).len(), 1);
        assert_eq!(live_markup(&format!("{widened}<video poster=\"https://x.example/a.png\">"), Some(&site())).len(), 1);
        assert_eq!(live_markup(shown, None).len(), 1, "never in a fragment");
    }

    #[test]
    fn formulas_pass_and_other_foreign_content_does_not() {
        let formula = "<math display=\"block\"><mfrac><mi>a</mi><mtext><b>b</b></mtext></mfrac></math>";
        assert_eq!(live_markup(formula, None), Vec::<String>::new());
        for bad in [
            "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
            "<math><annotation-xml encoding=\"text/html\"><div>x</div></annotation-xml></math>",
            "<math><mi>x</mi>",
            "<math><mi onclick=\"x()\">x</mi></math>",
        ] {
            assert!(!live_markup(bad, None).is_empty(), "{bad} passed");
        }
    }
}
