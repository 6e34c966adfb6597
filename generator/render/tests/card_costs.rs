//! What a card costs, counted: the bytes its render allocates (this test
//! binary counts every allocation of the thread it measures) and the bytes
//! of its HTML, for cards made to cost as much as they can and for random
//! mixtures of their pieces. Each must be linear in the card's size.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use modelpages_render::{render_card, CardContext, Highlighter, RenderedCard, ShapeValues};
use proptest::prelude::*;

/// Counts the allocations of a thread while it measures.
struct Counting;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    /// Bytes held now (may go below zero: memory allocated before measuring
    /// and freed during), the most held at once, and all bytes allocated.
    static HELD: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

fn count(grown: isize) {
    // `try_with`: a thread's counters may be gone while it exits.
    let _ = MEASURING.try_with(|measuring| {
        if measuring.get() {
            let held = HELD.with(|held| {
                held.set(held.get() + grown);
                held.get()
            });
            PEAK.with(|peak| peak.set(peak.get().max(held)));
            if grown > 0 {
                ALLOCATED.with(|total| total.set(total.get() + grown as usize));
            }
        }
    });
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as isize - layout.size() as isize);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What rendering one card took.
#[derive(Debug)]
struct Cost {
    /// Most bytes held at once, beyond what was held before.
    peak: usize,
    /// Every byte allocated, however briefly.
    allocated: usize,
    time: Duration,
}

fn highlighter() -> &'static Highlighter {
    static HIGHLIGHTER: OnceLock<Highlighter> = OnceLock::new();
    HIGHLIGHTER.get_or_init(|| {
        let highlighter = Highlighter::new();
        // Grammars load on first use: load the ones the cards use now.
        for lang in ["python", "js", "json", "markdown", "sh"] {
            highlighter.highlight("x = [1, \"a\"]  # b\n", lang);
        }
        highlighter
    })
}

fn measured(markdown: &str) -> (RenderedCard, Cost) {
    let highlighter = highlighter();
    let values = ShapeValues::new(&[]);
    let context = CardContext::hub_only("https://hub.example", "org/model", true);
    HELD.with(|held| held.set(0));
    PEAK.with(|peak| peak.set(0));
    ALLOCATED.with(|total| total.set(0));
    MEASURING.with(|measuring| measuring.set(true));
    let started = Instant::now();
    let card = render_card(markdown, highlighter, &values, &context);
    let time = started.elapsed();
    MEASURING.with(|measuring| measuring.set(false));
    let cost = Cost { peak: PEAK.with(Cell::get) as usize, allocated: ALLOCATED.with(Cell::get), time };
    (card, cost)
}

/// A card's HTML is at most this many bytes a byte of card, and this many
/// more: four times the card and 1 MiB (all of it, code, formulas and
/// resolved links included), or the card's source, escaped, which makes
/// at most six (`&quot;`).
const HTML_PER_BYTE: usize = 6;
const HTML_EXTRA: usize = 1 << 20;
/// Held at once while rendering: pulldown-cmark's tree of a card made of
/// nothing but `[` or `>` takes some 110 bytes a byte (the rest stay under
/// 60), and the events of a card up to 256 KiB are held while it is decided
/// whether it needs the sanitiser; the sanitiser's DOM takes some 25 bytes
/// a byte of the HTML it is given, which is at most four times the card and
/// 1 MiB (see `card_limits::html_budget`). Cards whose quotes or padded
/// cells make HTML up to that budget cheaply, through the sanitiser, reach
/// some 200 bytes a byte.
const HELD_PER_BYTE: usize = 256;
/// Grammars and caches filled on first use (8 MiB), and the sanitiser's DOM
/// of the 1 MiB of HTML any card may make: a card of 64 KB whose raw HTML
/// sends it through the sanitiser and whose quotes make HTML up to that
/// budget holds 25 MB.
const HELD_EXTRA: usize = 40 << 20;
/// Allocated in all: each byte of HTML is written a few times over.
const ALLOCATED_PER_BYTE: usize = 512;
const ALLOCATED_EXTRA: usize = 32 << 20;
/// Cards of a few hundred KB rendered in minutes before; unoptimised, they
/// now take a second to ten. Only a blow-up fails this: the same cards took
/// 74 s on two cores shared with a dozen other jobs.
const GENEROUS: Duration = Duration::from_secs(300);

fn assert_linear(name: &str, markdown: &str, card: &RenderedCard, cost: &Cost) {
    let len = markdown.len();
    assert!(card.html.len() <= HTML_PER_BYTE * len + HTML_EXTRA, "{name}: {} bytes of HTML from {len}", card.html.len());
    assert!(cost.peak <= HELD_PER_BYTE * len + HELD_EXTRA, "{name}: held {} bytes at once for {len}", cost.peak);
    assert!(
        cost.allocated <= ALLOCATED_PER_BYTE * len + ALLOCATED_EXTRA,
        "{name}: allocated {} bytes for {len}",
        cost.allocated
    );
    assert!(cost.time < GENEROUS, "{name}: {:?} for {len} bytes", cost.time);
}

/// The cards of issue 16, each about `size` bytes.
fn pathological_cards(size: usize) -> Vec<(&'static str, String)> {
    let times = |piece: &str| size / piece.len();
    let table_side = ((size / 2) as f64).sqrt() as usize;
    let row = format!("|{}\n", "x|".repeat(table_side));
    vec![
        ("plain", "Some *text* with `code` and [a link](https://example.com/x) in a paragraph.\n\n".repeat(times("Some *text* with `code` and [a link](https://example.com/x) in a paragraph.\n\n"))),
        ("html", "<b>Some</b> *text* with `code` and [a link](https://example.com/x) in a paragraph.\n\n".repeat(times("<b>Some</b> *text* with `code` and [a link](https://example.com/x) in a paragraph.\n\n"))),
        ("table", format!("|{}\n|{}\n{}", "a|".repeat(table_side), "-|".repeat(table_side), row.repeat(table_side))),
        ("code blocks after html", format!("<b>x</b>\n\n{}", "```\nx\n```\n\n".repeat(times("```\nx\n```\n\n")))),
        ("forged placeholders", format!("<div>x</div>\n\n```\n{}```\n\n{}", "abcdefghij\n".repeat(size / 44), "\u{E000}code-block-0\u{E000}\n\n".repeat(size / 40))),
        ("nested divs", "<div>".repeat(times("<div>"))),
        ("quotes", ">".repeat(size)),
        // Each paragraph opens and closes 64 quotes, as deep as is kept.
        ("deep quotes", format!("{} x\n\n", ">".repeat(64)).repeat(times(&format!("{} x\n\n", ">".repeat(64))))),
        // Each one-cell row padded to the header's 512 columns.
        ("padded tables", format!("|{}\n|{}\n{}\n", "a|".repeat(512), "-|".repeat(512), "x\n".repeat(512)).repeat(size / 3600)),
        ("brackets", "[".repeat(size)),
        ("emphasis", "*a ".repeat(times("*a "))),
        ("links", "[a](b) ".repeat(times("[a](b) "))),
        ("footnotes", (0..size / 24).map(|i| format!("x[^{i}]\n\n[^{i}]: y\n\n")).collect()),
        ("headings", "# x\n".repeat(times("# x\n"))),
        ("long line", "a".repeat(size)),
        ("code lines", format!("```python\n{}```\n", "x = foo(1, 'bar')  # c\n".repeat(times("x = foo(1, 'bar')  # c\n")))),
        ("formulas", "\\\\(x\\\\) ".repeat(times("\\\\(x\\\\) "))),
        ("display formulas", "$$x$$ ".repeat(times("$$x$$ "))),
        ("matrices", format!("$$\\begin{{matrix}}{}\\end{{matrix}}$$ ", "&".repeat(2000)).repeat(times(&"&".repeat(2030)))),
        ("deep formulas", format!("$${}x{}$$\n\n", "\\sqrt{".repeat(31), "}".repeat(31)).repeat(times("$$\\sqrt{..}x$$\n\n") / 31)),
        ("escaped brackets", "\\( a \\) \\[ b \\] ".repeat(times("\\( a \\) \\[ b \\] "))),
        ("unclosed formulas", "\\\\( a *b* ".repeat(times("\\\\( a *b* "))),
        ("dollars", "$5 and *a $$b* ".repeat(times("$5 and *a $$b* "))),
        ("html formulas", "<table><tr><td>\\\\(x_i\\\\)</td><td>$$y$$ $$ \\\\(</td></tr></table>\n".repeat(times("<table><tr><td>\\\\(x_i\\\\)</td><td>$$y$$ $$ \\\\(</td></tr></table>\n"))),
        ("relative images", "![a](./assets/a.png) [b](docs/b.md) ".repeat(times("![a](./assets/a.png) [b](docs/b.md) "))),
        ("in-card links", (0..size / 20).map(|i| format!("[x](#x-{i}) ")).collect::<String>() + &"# x\n".repeat(size / 8)),
        ("remote images", "![a](https://x.example/a.png) ".repeat(times("![a](https://x.example/a.png) "))),
        ("media", "<video src=\"https://x.example/v.mp4\">t</video>\n".repeat(times("<video src=\"https://x.example/v.mp4\">t</video>\n"))),
    ]
}

#[test]
fn pathological_cards_cost_linear_time_memory_and_html() {
    for (name, markdown) in pathological_cards(1 << 20) {
        let (card, cost) = measured(&markdown);
        println!("{name}: {} bytes, html {}, held {} ({}x), allocated {}, {:?}", markdown.len(), card.html.len(), cost.peak, cost.peak / markdown.len(), cost.allocated, cost.time);
        assert_linear(name, &markdown, &card, &cost);
    }
}

#[test]
fn code_blocks_are_put_back_in_one_pass() {
    // Each block used to be put back by copying the whole card's HTML.
    let markdown = format!("<b>x</b>\n\n{}", "```\nx\n```\n\n".repeat(4000));
    let (card, cost) = measured(&markdown);
    assert_eq!(card.html.matches("<pre").count(), 4000);
    assert!(cost.allocated < 64 * markdown.len() + (4 << 20), "allocated {} bytes for {}", cost.allocated, markdown.len());
}

/// Pieces of the cards above and others, to mix.
fn piece() -> impl Strategy<Value = String> {
    let text = "[a-zA-Z0-9 *_`<>&\\[\\]()#|\u{E000}-]{0,12}";
    let count = 1usize..400;
    prop_oneof![
        (text, count.clone()).prop_map(|(t, n)| format!("{t}\n\n").repeat(n)),
        count.clone().prop_map(|n| ">".repeat(n) + " q\n\n"),
        count.clone().prop_map(|n| (0..n).map(|i| format!("{}- i\n", "  ".repeat(i % 80))).collect()),
        count.clone().prop_map(|n| "<div>".repeat(n)),
        count.clone().prop_map(|n| "</div>".repeat(n)),
        count.clone().prop_map(|n| (0..n).map(|i| format!("<b id={i}>")).collect()),
        count.clone().prop_map(|n| "<div>x</div>".repeat(n)),
        (count.clone(), 0usize..2000).prop_map(|(n, len)| format!("<div><a href=\"{}\">x</div>{}", "y".repeat(len), "<p>z</p>".repeat(n))),
        count.clone().prop_map(|n| "<table><tr><td>".repeat(n % 50) + "<select><svg><math><style>"),
        (count.clone(), prop_oneof![Just("python"), Just("json"), Just(""), Just("markdown")])
            .prop_map(|(n, lang)| format!("```{lang}\n[x, \"y\"]\n```\n\n").repeat(n)),
        count.clone().prop_map(|n| format!("```python\n{}\n```\n\n", "(".repeat(n * 20))),
        count.clone().prop_map(|n| "\u{E000}code-block-0\u{E000}\n\n".repeat(n)),
        count.clone().prop_map(|n| format!("\u{E000}0000000000000000-{n}\u{E000}\n\n")),
        (1usize..60, 1usize..60).prop_map(|(w, h)| format!("|{}\n|{}\n", "a|".repeat(w), "-|".repeat(w)) + &format!("|{}\n", "x|".repeat(w)).repeat(h)),
        count.clone().prop_map(|n| (0..n).map(|i| format!("x[^{i}] ")).collect::<String>() + "\n\n[^1]: y\n\n"),
        count.clone().prop_map(|n| "[".repeat(n * 10) + &"](x)".repeat(n)),
        count.clone().prop_map(|n| "*a _".repeat(n) + &"_ a*".repeat(n)),
        count.clone().prop_map(|n| "x".repeat(n * 100) + "\n\n"),
        count.clone().prop_map(|n| "<!-- ".repeat(n) + "<p title=\"</p>\">"),
        count.clone().prop_map(|n| "$x_i^2$ \\\\(a\\\\) \\(b\\) ".repeat(n)),
        count.clone().prop_map(|n| format!("$${}$$\n\n", "{x".repeat(n % 80))),
        count.clone().prop_map(|n| "\\\\( *a* $$ **b ".repeat(n)),
        count.clone().prop_map(|n| format!("<p>{}</p>\n\n", "$$x$$ <b>\\\\(y".repeat(n))),
        count.clone().prop_map(|n| "# h\n[h](#h-1)\n".repeat(n)),
        count.prop_map(|n| "![i](../x.png) <img src=\"a/b.png\" align=\"center\"> <audio src=\"x.wav\"></audio>\n".repeat(n)),
        // Quotes opened and closed by every paragraph, up to past the kept depth.
        (1usize..70, 1usize..4000).prop_map(|(depth, n)| format!("{} x\n\n", ">".repeat(depth)).repeat(n)),
        // Rows padded to a wide header.
        (1usize..600, 1usize..600, 1usize..8).prop_map(|(columns, rows, tables)| {
            format!("|{}\n|{}\n{}\n", "a|".repeat(columns), "-|".repeat(columns), "x\n".repeat(rows)).repeat(tables)
        }),
    ]
}

/// Markdown around which a few plain raw tags are put: nesting, long link
/// URLs, paragraphs to re-open formatting elements in.
fn markdown_piece() -> impl Strategy<Value = String> {
    let count = 1usize..200;
    prop_oneof![
        count.clone().prop_map(|n| "x\n\n".repeat(n)),
        count.clone().prop_map(|n| "- x\n\n> y\n\n".repeat(n)),
        (0usize..70, count.clone()).prop_map(|(depth, n)| format!("{}x\n\n", "> ".repeat(depth)).repeat(n)),
        (0usize..70).prop_map(|depth| (0..depth).map(|i| format!("{}- x\n", "  ".repeat(i))).collect()),
        (count.clone(), 0usize..3000).prop_map(|(n, len)| format!("[x *y*](https://x.y/{})\n\n", "z".repeat(len)).repeat(n % 8 + 1)),
        count.clone().prop_map(|n| "*a **b `c` b** a*\n\n".repeat(n)),
        count.prop_map(|n| "| a | b |\n|---|---|\n| x | y |\n\n".repeat(n)),
    ]
}

/// A plain raw tag (see `html_cost::RawHtmlTally`), some with long attributes.
fn plain_tag() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("<div>".to_owned()),
        Just("</div>".to_owned()),
        Just("<p>".to_owned()),
        Just("</p>".to_owned()),
        Just("<li>".to_owned()),
        Just("<blockquote>".to_owned()),
        (0usize..100).prop_map(|i| format!("<b id={i}>")),
        (0usize..100).prop_map(|i| format!("<font color=c{i}>")),
        Just("<em>".to_owned()),
        Just("</b>".to_owned()),
        (0usize..1900).prop_map(|len| format!("<a href=\"https://x.y/{}\">", "z".repeat(len))),
        Just("<img src=\"x.png\">".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Off)),
        ..ProptestConfig::default()
    })]
    #[test]
    fn cards_with_a_few_plain_tags_cost_linear_time_memory_and_html(
        parts in prop::collection::vec((markdown_piece(), 0usize..70, plain_tag()), 1..16),
        inline in any::<bool>(),
    ) {
        // Tags alone on a line are HTML blocks; inline, they are in
        // paragraphs. Each is quoted that deep: a formatting element left
        // open is re-opened once per level it closes.
        let markdown: String = parts
            .iter()
            .map(|(md, depth, tag)| {
                let quotes = "> ".repeat(*depth);
                if inline { format!("{md}{quotes}x {tag} y\n\n") } else { format!("{md}{quotes}{tag}\n\n") }
            })
            .collect();
        let (card, cost) = measured(&markdown);
        assert_linear("card with plain tags", &markdown, &card, &cost);
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 48,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Off)),
        ..ProptestConfig::default()
    })]
    #[test]
    fn random_cards_cost_linear_time_memory_and_html(pieces in prop::collection::vec(piece(), 1..24)) {
        let markdown = pieces.concat();
        let (card, cost) = measured(&markdown);
        assert_linear("random card", &markdown, &card, &cost);
    }
}
