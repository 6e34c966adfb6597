//! `/llms.txt`: the site described for language models and agents, in the
//! shape the llms.txt proposal gives it (an H1 title, a blockquote summary,
//! a few lines on how to read the site, then H2 sections of links, the
//! last one `Optional`). It points at what an agent reads best: each
//! model's Markdown twin (`index.md`) and JSON file, and the API's lists of
//! ids. It names no model, so it depends only on the settings and never
//! grows with the hub.

use modelpages_render::MARKDOWN_FILE;

/// Where the file goes, at the site's root.
pub const LLMS_TXT: &str = "llms.txt";

/// The file for a site titled `title` served at `base_url` (absolute or a
/// path, ending in `/`).
pub fn llms_txt(title: &str, base_url: &str) -> String {
    // A title is one line of the operator's settings; Markdown would read
    // more into a line break or a leading `#`.
    let title = title.lines().next().unwrap_or_default().trim().trim_start_matches('#').trim();
    let title = if title.is_empty() { "Model hub" } else { title };
    let b = base_url;
    format!(
        "# {title}

> A static site of machine-learning model pages: for each model its card, facts, the memory it needs to run, the prompt its chat template makes, and how to use it from its library, hosted inference and local apps.

Each model `<namespace>/<name>` (ids as on the Hugging Face Hub) has:

- a page: `{b}<namespace>/<name>/`
- its Markdown twin: `{b}<namespace>/<name>/{MARKDOWN_FILE}` (title, facts, memory estimate, chat prompt, the default example of each way to use it, then the model card as Markdown); read this rather than the HTML
- a JSON file: `{b}api/models/<namespace>/<name>.json` (facts and every example)

## Model lists

- [Tasks]({b}api/tasks.json): every task with its model count and pages of model ids, most downloaded first
- [Libraries]({b}api/libraries.json): every library with its model count and pages of model ids
- [Sitemap]({b}sitemap.xml): every HTML page of the site

## Pages

- [Home]({b}): search over every model (needs JavaScript; the lists below do not)
- [Tasks]({b}tasks/): models by task
- [Libraries]({b}libraries/): models by library
- [Namespaces]({b}namespaces/): models by author or organisation

## Optional

- [robots.txt]({b}robots.txt): what crawlers may read
"
    )
}

#[cfg(test)]
mod tests {
    use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};

    use super::*;

    /// The file's blocks in order: `h1:`, `h2:`, `quote`, `link:` (a list
    /// item's first link), `item` (a list item without one), `p`.
    fn blocks(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut heading: Option<(HeadingLevel, String)> = None;
        let mut item_open = false;
        let mut depth_quote = 0;
        for event in Parser::new(text) {
            match event {
                Event::Start(Tag::Heading { level, .. }) => heading = Some((level, String::new())),
                Event::Text(t) if heading.is_some() => heading.as_mut().unwrap().1.push_str(&t),
                Event::End(TagEnd::Heading(_)) => {
                    let (level, text) = heading.take().unwrap();
                    out.push(format!("{}:{text}", if level == HeadingLevel::H1 { "h1" } else { "h2" }));
                }
                Event::Start(Tag::BlockQuote(_)) => {
                    depth_quote += 1;
                    out.push("quote".into());
                }
                Event::End(TagEnd::BlockQuote(_)) => depth_quote -= 1,
                Event::Start(Tag::Item) => item_open = true,
                Event::Start(Tag::Link { dest_url, .. }) if item_open => {
                    out.push(format!("link:{dest_url}"));
                    item_open = false;
                }
                Event::End(TagEnd::Item) if item_open => {
                    out.push("item".into());
                    item_open = false;
                }
                Event::Start(Tag::Paragraph) if depth_quote == 0 && !item_open => out.push("p".into()),
                _ => {}
            }
        }
        out
    }

    #[test]
    fn has_the_shape_the_proposal_gives() {
        let text = llms_txt("My hub\n# injected", "https://hub.example/");
        let blocks = blocks(&text);
        assert_eq!(blocks[..3], ["h1:My hub", "quote", "p"]);
        let sections: Vec<&str> = blocks.iter().filter_map(|b| b.strip_prefix("h2:")).collect();
        assert_eq!(sections, ["Model lists", "Pages", "Optional"], "the optional section last");
        let first_h2 = blocks.iter().position(|b| b.starts_with("h2:")).unwrap();
        // Every item of a section is a link, and every link is the site's.
        for block in &blocks[first_h2..] {
            assert!(block.starts_with("h2:") || block.starts_with("link:https://hub.example/"), "{block}: {blocks:?}");
        }
        assert!(blocks[..first_h2].iter().filter(|b| *b == "item").count() == 3, "the three files of a model: {blocks:?}");
        assert!(text.contains("`https://hub.example/<namespace>/<name>/index.md`"));
        assert_eq!(text.matches('\n').count(), text.lines().count(), "ends with a line break");
        assert!(llms_txt("", "/").starts_with("# Model hub\n"));
        assert!(llms_txt("Hub", "/hub/").contains("[Tasks](/hub/api/tasks.json)"));
    }
}
