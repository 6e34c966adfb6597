//! Cards made to cost as much as they can: each renders within its limits,
//! shows what it can of itself and says, in a note, what it lost.
//!
//! The sanitiser's and highlighter's costs cannot be counted from outside,
//! so the cards that used to take minutes get a generous time limit.

use std::time::{Duration, Instant};

use modelpages_render::{render_card, CardContext, Highlighter, RenderedCard, ShapeValues};

/// What took minutes before must now take seconds, even unoptimised.
const GENEROUS: Duration = Duration::from_secs(60);

fn render(markdown: &str) -> RenderedCard {
    static HIGHLIGHTER: std::sync::OnceLock<Highlighter> = std::sync::OnceLock::new();
    let highlighter = HIGHLIGHTER.get_or_init(Highlighter::new);
    let started = Instant::now();
    let context = CardContext::hub_only("https://hub.example", "org/model", true);
    let card = render_card(markdown, highlighter, &ShapeValues::new(&[]), &context);
    assert!(started.elapsed() < GENEROUS, "{:?} for a card of {} bytes", started.elapsed(), markdown.len());
    card
}

fn has_note(card: &RenderedCard, words: &str) -> bool {
    card.notes.iter().any(|note| note.contains(words))
}

#[test]
fn a_card_cannot_repeat_its_code_block() {
    // Raw HTML sends the card through the sanitiser, around which code
    // blocks are kept as placeholders; the card forges one 1,000 times.
    let code = "let unique = 1;\n".repeat(100);
    let forged = "\u{E000}code-block-0\u{E000}\n\n".repeat(1000);
    let card = render(&format!("<div>raw</div>\n\n```js\n{code}```\n\n{forged}<p>\u{E000}code-block-0\u{E000}</p>\n"));
    assert_eq!(card.html.matches("unique").count(), 100, "the block is shown once");
    assert!(card.html.len() < 64 * 1024, "{} bytes", card.html.len());
}

#[test]
fn deeply_nested_html_is_shown_as_text() {
    for (name, html) in [
        ("divs", "<div>".repeat(100_000)),
        ("formatting", (0..20_000).map(|i| format!("<b id={i}>")).collect()),
        ("lists", "<ul><li>".repeat(30_000)),
        ("blocks", "<div>\n\n".repeat(50_000)),
    ] {
        let card = render(&format!("before\n\n{html}\n\nafter\n"));
        assert!(has_note(&card, "nests deeper than 256 elements; the HTML is shown as text"), "{name}: {:?}", card.notes);
        assert!(card.html.contains("&lt;"), "{name}: the tags are text");
        assert!(card.html.contains("<p>before</p>") && card.html.contains("after"), "{name}");
        assert!(card.html.len() < 4 * html.len(), "{name}: {} bytes", card.html.len());
    }
}

#[test]
fn formatting_reopened_in_every_element_is_shown_as_text() {
    // Each `<div>` re-opens every `<b>` left open: 12 KB made 2 MB of HTML.
    let opened: String = (0..200).map(|i| format!("<b id={i}>")).collect();
    let card = render(&format!("<div>{opened}</div>{}\n", "<div>x</div>".repeat(1000)));
    assert!(has_note(&card, "the HTML is shown as text"), "{:?}", card.notes);
    assert!(card.html.len() < 64 * 1024, "{} bytes", card.html.len());
    // One long link re-opened in each of them.
    let card = render(&format!("<div><a href=\"{}\">x</div>{}\n", "y".repeat(50_000), "<div>x</div>".repeat(200)));
    assert!(has_note(&card, "the HTML is shown as text"), "{:?}", card.notes);
    assert!(card.html.len() < 256 * 1024, "{} bytes", card.html.len());
}

#[test]
fn deeply_nested_markdown_is_flattened() {
    for (name, markdown) in [
        ("quotes", format!("{}deep\n", ">".repeat(100_000))),
        ("quotes after html", format!("<b>x</b>\n\n{}deep\n", ">".repeat(100_000))),
        ("lists", format!("{}deep\n", (0..500).map(|i| format!("{}- a\n", "  ".repeat(i))).collect::<String>())),
        ("emphasis", format!("{}deep{}\n", "*a _".repeat(20_000), "_ a*".repeat(20_000))),
    ] {
        let card = render(&markdown);
        assert!(has_note(&card, "nested deeper than 64 levels is shown flattened"), "{name}: {:?}", card.notes);
        assert!(card.html.contains("deep"), "{name}: the text stays");
        assert!(card.html.matches("<blockquote>").count() <= 64, "{name}");
        assert!(card.html.len() < 4 * markdown.len(), "{name}: {} bytes", card.html.len());
    }
}

#[test]
fn many_code_blocks_after_raw_html_render_in_seconds() {
    let card = render(&format!("<b>x</b>\n\n{}", "```\nx\n```\n\n".repeat(40_000)));
    assert_eq!(card.html.matches("<pre class=\"hl-code\"><code>x\n</code></pre>").count(), 40_000);
    assert!(card.notes.is_empty(), "{:?}", card.notes);
}

#[test]
fn code_past_the_highlighting_budget_is_plain() {
    // A long line of Markdown took two minutes to highlight.
    let card = render(&format!("```markdown\n{}\n```\n", "*_`[".repeat(60_000)));
    assert!(!card.html.contains("<span"), "shown plain");
    assert!(has_note(&card, "is not highlighted"), "{:?}", card.notes);
    // Blocks are highlighted until the budget is spent.
    let block = format!("```python\n{}```\n\n", "x = 1  # comment\n".repeat(1000));
    let card = render(&block.repeat(20));
    let highlighted = card.html.split("<pre").filter(|b| b.contains("<span")).count();
    assert_eq!(highlighted, (128 << 10) / (block.len() - "```python\n```\n\n".len()));
    assert!(has_note(&card, "is not highlighted"), "{:?}", card.notes);
}

#[test]
fn a_card_whose_html_is_too_large_to_sanitise_is_shown_as_source() {
    // 2.5 MB of footnotes make 17 MB of HTML.
    let markdown: String = (0..100_000).map(|i| format!("x[^{i}]\n\n[^{i}]: y\n\n")).collect();
    let card = render(&markdown);
    assert!(has_note(&card, "the card is shown as Markdown source"), "{:?}", card.notes);
    assert!(card.html.starts_with("<pre>x[^0]"), "{}", &card.html[..40]);
    assert!(card.html.len() < markdown.len() * 2);
}

/// Tables of a header `columns` wide over `rows` one-cell rows, `times`.
fn padded_tables(columns: usize, rows: usize, times: usize) -> String {
    format!("|{}\n|{}\n{}\n", "a|".repeat(columns), "-|".repeat(columns), "x\n".repeat(rows)).repeat(times)
}

#[test]
fn a_card_whose_tables_would_be_padded_past_its_bound_is_shown_as_source() {
    // The parser pads each one-cell row to the header's width: 23 KB made a
    // 17 MB page and took 660 MB; 400 KB took 2.8 GB; 1 MB aborted the build.
    for times in [6, 110, 290] {
        let markdown = format!("before\n\n{}after\n", padded_tables(512, 512, times));
        let card = render(&markdown);
        assert!(has_note(&card, "its tables would be padded with up to"), "{:?}", card.notes);
        assert!(has_note(&card, "the card is shown as Markdown source"), "{:?}", card.notes);
        assert!(card.html.starts_with("<pre>before") && !card.html.contains("<td>"), "{}", &card.html[..40]);
        assert!(card.html.len() < 2 * markdown.len(), "{} bytes from {}", card.html.len(), markdown.len());
        assert!(card.headings.is_empty());
    }
    // A real table with a few short rows (sections of a wide table) keeps them.
    let table = format!("|{}\n|{}\n{}", "col|".repeat(20), "---|".repeat(20), format!("|{}\n|section|\n", "1|".repeat(20)).repeat(50));
    let card = render(&table);
    assert!(card.notes.is_empty(), "{:?}", card.notes);
    assert_eq!(card.html.matches("<tr>").count(), 101);
}

#[test]
fn markup_repeated_per_level_is_held_to_the_cards_budget() {
    // Quotes as deep as is kept (the paragraph in them is the 64th level),
    // opened and closed by every paragraph: 26 bytes of page a byte of card
    // on the fast path, which had no budget (204 KB made 5.2 MB).
    let paragraph = format!("{} x\n\n", ">".repeat(63));
    let small = render(&paragraph.repeat(100));
    assert!(small.notes.is_empty(), "a few fit the 1 MiB every card may use: {:?}", small.notes);
    assert_eq!(small.html.matches("<blockquote>").count(), 6300);
    let markdown = paragraph.repeat(3000);
    let card = render(&markdown);
    assert!(has_note(&card, "a card of its size may make; the card is shown as Markdown source"), "{:?}", card.notes);
    assert!(card.html.len() <= 4 * markdown.len() + (1 << 20), "{} bytes from {}", card.html.len(), markdown.len());
    // The same through the sanitiser, with a raw tag.
    let card = render(&format!("<b>raw</b>\n\n{markdown}"));
    assert!(has_note(&card, "the card is shown as Markdown source"), "{:?}", card.notes);
    // Relative links, each resolved to the hub's URL, count too.
    let markdown = "[a](b) ".repeat(200_000);
    let card = render(&markdown);
    assert!(has_note(&card, "the card is shown as Markdown source"), "{:?}", card.notes);
    assert!(card.html.len() <= 4 * markdown.len() + (1 << 20));
}

#[test]
fn ordinary_cards_lose_nothing() {
    let card = render(
        "# Model\n\n<div align=\"center\"><img src=\"logo.png\"></div>\n\n> quoted\n\n- a\n  - b\n\n\
         ```python\nimport torch\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nNote[^1].\n\n[^1]: x\n",
    );
    assert!(card.notes.is_empty(), "{:?}", card.notes);
    assert!(card.html.contains("<span"), "highlighted");
}

#[test]
fn math_past_its_bounds_is_shown_as_code_with_a_note() {
    let deep = format!("$${}x{}$$\n\n", "{".repeat(200), "}".repeat(200));
    let long = format!("$${}$$\n\n", "x+".repeat(2000));
    let sqrt = format!("$${}x$$\n\n", "\\sqrt ".repeat(300));
    let card = render(&format!("{deep}{long}{sqrt}\\\\(\\frac{{1}}{{2}}\\\\)\n"));
    assert_eq!(card.html.matches("<math").count(), 1, "only the good formula: {}", &card.html[..200.min(card.html.len())]);
    assert!(has_note(&card, "2 formulas shown as code (nested deeper than"), "{:?}", card.notes);
    assert!(has_note(&card, "1 formula shown as code (longer than 2 KiB)"), "{:?}", card.notes);
    assert_eq!(card.html.matches("<code>$").count(), 3);
}

#[test]
fn a_card_of_formulas_converts_its_budget_and_shows_the_rest_as_code() {
    let card = render(&"\\\\(x^2\\\\) ".repeat(10_000));
    assert_eq!(card.html.matches("<math>").count(), 4096);
    assert_eq!(card.html.matches("<code>\\\\(x^2\\\\)</code>").count(), 10_000 - 4096);
    assert!(has_note(&card, "5904 formulas shown as code (past the card's first 4096 formulas"), "{:?}", card.notes);
}

#[test]
fn unclosed_formulas_cost_a_look_ahead_each_at_most() {
    // Each `\\(` looks ahead at most a formula's reach for its end.
    let card = render(&"\\\\( a *b* `c` ".repeat(50_000));
    assert!(card.html.matches("<math").count() == 0 && card.html.contains("\\( a <em>b</em>"), "{}", &card.html[..200]);
    let one = render(&format!("$$ a {}", "*b* `c` ".repeat(50_000)));
    assert!(one.html.matches("<math").count() == 0 && one.html.contains("$$ a <em>b</em>"), "{}", &one.html[..200]);
}

#[test]
fn a_card_of_headings_and_links_to_them_renders_in_seconds() {
    let toc: String = (0..20_000).map(|i| format!("- [x](#x-{i})\n")).collect();
    let headings = "## x\n\n".repeat(20_000);
    let card = render(&format!("{toc}\n{headings}"));
    assert_eq!(card.headings.len(), 20_000);
    assert!(card.html.contains("<a href=\"#x-19999\" rel=\"noopener noreferrer\">") && card.html.contains("<h3 id=\"x-19999\">"));
}
