//! What one card may cost, and the notes that say what a card lost to it.
//!
//! A card is at most 8 MiB (the record crate refuses larger ones), and
//! within that anything goes: these bounds keep its page, time and memory
//! linear in its size. Real cards stay well inside each of them. Formulas
//! have bounds of their own (see [`crate::card_math`]); the files a card
//! may have copied beside its page are bounded by the site crate.

use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::card_math::{MAX_FORMULAS_PER_CARD, MAX_FORMULA_BYTES, MAX_FORMULA_DEPTH, MAX_MATH_BYTES_PER_CARD};
use crate::html_cost::Excess;

/// Markdown containers (quotes, lists, emphasis...) nested deeper than this
/// are flattened: their text stays, their tags go. Deeper nesting only
/// costs: `>` repeated makes 26 bytes of page a byte, and the sanitiser
/// walks every open element at each tag.
pub(crate) const MAX_NESTING: usize = 64;

/// Code highlighted per card (all its code counts); later blocks are shown
/// plain. Highlighting runs at a hundred to a few hundred KB a second.
pub(crate) const MAX_HIGHLIGHTED_BYTES: usize = 128 << 10;
/// Blocks with a longer line are shown plain: some grammars take time
/// growing with the square of a line's length (a 250 KB line of Markdown
/// takes two minutes).
pub(crate) const MAX_HIGHLIGHTED_LINE: usize = 4 << 10;

/// The HTML a card of `len` bytes may make, all of it (markup, highlighted
/// code, formulas, links resolved) and on either path (written from
/// trusted events or through ammonia): four times the card and 1 MiB more,
/// at most 16 MiB. Real cards make one to two times their size. Markup
/// repeated per level (64 quotes deep, each paragraph opens and closes every
/// one: 26 bytes of page a byte), per cell (dense footnotes make six times
/// the card), per token (code of brackets, matrices of `&`) or per link (a
/// relative path becomes the hub's URL) does not fit, and such a card is
/// shown as its Markdown source, which escaping makes at most six times the
/// card. ammonia parses a few MB a second into a DOM of some 30 bytes a byte
/// of HTML, so this also bounds what the sanitiser is given.
pub(crate) fn html_budget(len: usize) -> usize {
    len.saturating_mul(4).saturating_add(1 << 20).min(16 << 20)
}

/// Empty cells a card's tables may be padded with: a quarter a byte of
/// card, and 16,384 more.
///
/// GFM pads a table row shorter than its header with empty cells, so a
/// header of 512 columns over 512 one-cell rows (3.5 KB) is 262,144 cells:
/// 12 MB of parser tree, more again of events, and 2.4 MB of HTML.
/// pulldown-cmark stops padding one table there, but a card may hold many
/// tables, and its tree is built whole before a single event is read: 23
/// KB of such tables took 660 MB and made a 17 MB page, 1 MB aborted the
/// build on a failed allocation. So the padding is bounded before the card
/// is parsed, from its text ([`padded_cells_at_most`]), and a card past the
/// bound is shown as its Markdown source. Each padded cell costs some 300
/// bytes while the card renders; real tables pad a few rows at most (a
/// section row in a wide table).
pub(crate) fn padded_cells_allowed(len: usize) -> usize {
    (len / 4).saturating_add(16 << 10)
}

/// At least as many empty cells as the Markdown parser will pad `markdown`'s
/// tables with, found in one pass over its lines without parsing it.
///
/// A table starts at its delimiter row (`|---|:-:|`, after any container
/// prefix of `>` and blanks) and its rows run to the next blank line; a row
/// gets as many empty cells as it has fewer cells than the table has
/// columns. Each count errs high: a delimiter row has at most as many
/// columns as it has segments with a `-` between its pipes; a row has at
/// least one cell fewer than its pipes that no backslash escapes (only such
/// pipes split cells, wherever they stand), and a line without one has one
/// cell; every line up to a blank one counts as a row, whatever ends the
/// table before it, and a delimiter row inside a run keeps the wider count.
pub(crate) fn padded_cells_at_most(markdown: &str) -> usize {
    let bytes = markdown.as_bytes();
    if memchr::memchr(b'|', bytes).is_none() {
        return 0;
    }
    let (mut padded, mut columns) = (0usize, 0usize);
    for line in lines(bytes) {
        if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            columns = 0;
            continue;
        }
        if columns > 0 {
            let pipes = splitting_pipes(line);
            let cells = if pipes == 0 { 1 } else { pipes - 1 };
            padded = padded.saturating_add(columns.saturating_sub(cells));
        }
        if let Some(found) = delimiter_columns(line) {
            columns = columns.max(found);
        }
    }
    padded
}

/// The lines of `bytes`, which end at `\n`, `\r\n` or `\r` as the Markdown
/// parser's do.
fn lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = bytes;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
        let line = &rest[..end];
        let skip = match rest.get(end..end + 2) {
            Some(b"\r\n") => 2,
            _ => 1,
        };
        rest = rest.get(end + skip..).unwrap_or_default();
        Some(line)
    })
}

/// Pipes of `line` that no backslash stands right before: the ones that
/// split a table row into cells.
fn splitting_pipes(line: &[u8]) -> usize {
    memchr::memchr_iter(b'|', line).filter(|&at| at == 0 || line[at - 1] != b'\\').count()
}

/// The columns `line` would give a table if it is a delimiter row: after a
/// prefix of `>`, spaces and tabs, only ` `, `\t`, `:`, `-` and `|`, with a
/// `|` and a `-`; the count is of the segments between pipes that hold a `-`.
fn delimiter_columns(line: &[u8]) -> Option<usize> {
    let start = line.iter().position(|b| !matches!(b, b'>' | b' ' | b'\t'))?;
    let row = &line[start..];
    if !row.iter().all(|b| matches!(b, b' ' | b'\t' | b':' | b'-' | b'|')) || !row.contains(&b'|') {
        return None;
    }
    let columns = row.split(|&b| b == b'|').filter(|segment| segment.contains(&b'-')).count();
    (columns > 0).then_some(columns)
}

/// Cards over this size render one at a time: pulldown-cmark's tree and the
/// sanitiser's DOM of one can take 50 to 100 bytes a byte of card, which
/// should not be paid once per render thread.
const LARGE_CARD_BYTES: usize = 256 << 10;

/// Waits for the turn of a card of `len` bytes, if it is a large one; the
/// turn ends when the guard is dropped.
pub(crate) fn large_card_turn(len: usize) -> Option<MutexGuard<'static, ()>> {
    // A card that panicked while rendering leaves nothing to clean up.
    (len > LARGE_CARD_BYTES).then(|| LARGE_CARD_TURN.lock().unwrap_or_else(PoisonError::into_inner))
}

static LARGE_CARD_TURN: Mutex<()> = Mutex::new(());

/// What a card lost to the limits, said once each.
#[derive(Debug, Default)]
pub(crate) struct CardNotes {
    pub(crate) flattened: bool,
    /// Whether a block in a language with a grammar was shown plain.
    pub(crate) unhighlighted: bool,
    /// Why the card's raw HTML was shown as text, if it was.
    pub(crate) raw_html: Option<Excess>,
    /// The card's [`html_budget`], when its HTML was larger.
    pub(crate) too_large: Option<usize>,
    /// The empty cells its tables would be padded with, when more than
    /// [`padded_cells_allowed`].
    pub(crate) padded_cells: Option<usize>,
    /// Formulas shown as code, by [`crate::card_math::MathProblem`].
    pub(crate) math_problems: [usize; 4],
    /// References dropped because they would leave the model's folder.
    pub(crate) dropped_references: usize,
}

impl CardNotes {
    pub(crate) fn into_notes(self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(budget) = self.too_large {
            notes.push(format!(
                "its HTML would be over the {:.1} MiB a card of its size may make; the card is shown as Markdown source",
                budget as f64 / f64::from(1 << 20)
            ));
        }
        if let Some(cells) = self.padded_cells {
            notes.push(format!(
                "its tables would be padded with up to {cells} empty cells (rows shorter than their header); \
                 the card is shown as Markdown source"
            ));
        }
        if let Some(excess) = self.raw_html {
            notes.push(format!("its raw HTML {excess}; the HTML is shown as text"));
        }
        if self.flattened {
            notes.push(format!("Markdown nested deeper than {MAX_NESTING} levels is shown flattened"));
        }
        let [too_long, too_deep, unreadable, over_budget] = self.math_problems;
        for (count, why) in [
            (too_long, format!("longer than {} KiB", MAX_FORMULA_BYTES >> 10)),
            (too_deep, format!("nested deeper than {MAX_FORMULA_DEPTH} levels")),
            (unreadable, "not LaTeX math the converter reads".to_owned()),
            (
                over_budget,
                format!(
                    "past the card's first {MAX_FORMULAS_PER_CARD} formulas or {} KiB of math",
                    MAX_MATH_BYTES_PER_CARD >> 10
                ),
            ),
        ] {
            if count > 0 {
                notes.push(format!("{count} formula{} shown as code ({why})", if count == 1 { "" } else { "s" }));
            }
        }
        if self.dropped_references > 0 {
            notes.push(format!(
                "{} reference{} leaving the model's folder (`..`, another host) dropped",
                self.dropped_references,
                if self.dropped_references == 1 { "" } else { "s" }
            ));
        }
        if self.unhighlighted {
            notes.push(format!(
                "code past the first {} KiB, or in blocks with lines over {} KiB, is not highlighted",
                MAX_HIGHLIGHTED_BYTES >> 10,
                MAX_HIGHLIGHTED_LINE >> 10
            ));
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use pulldown_cmark::{Event, Options, Parser, Tag};

    /// The empty cells pulldown-cmark pads `markdown`'s tables with: cells
    /// with nothing in them placed right after a line's end (a real cell
    /// starts after a pipe, blanks or a container's prefix).
    fn padded_by_the_parser(markdown: &str) -> usize {
        let options = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_MATH;
        Parser::new_ext(markdown, options)
            .into_offset_iter()
            .filter(|(event, range)| {
                matches!(event, Event::Start(Tag::TableCell))
                    && range.is_empty()
                    && (range.start == markdown.len() || matches!(markdown.as_bytes()[range.start - 1], b'\n' | b'\r'))
            })
            .count()
    }

    #[test]
    fn padded_cells_are_counted_before_parsing() {
        let wide = |columns: usize, rows: &str, times: usize| {
            format!("|{}\n|{}\n{}", "a|".repeat(columns), "-|".repeat(columns), rows.repeat(times))
        };
        for (markdown, at_least) in [
            (wide(8, "x\n", 10), 70),
            (wide(8, "|a|b|c|d|e|f|g|h|\n", 10), 0),
            (wide(8, "x\n", 10).lines().map(|line| format!("> {line}\n")).collect(), 70),
            (wide(8, "x\n", 10).replace('\n', "\r"), 70),
            (wide(8, "x\n", 10).replace('\n', "\r\n"), 70),
        ] {
            let parsed = padded_by_the_parser(&markdown);
            assert!(parsed >= at_least, "the parser pads {parsed}: {markdown:?}");
            assert!(padded_cells_at_most(&markdown) >= parsed, "{markdown:?}");
        }
        // Real tables pad nothing, and are counted close to that.
        let full = wide(6, "| 1 | 2 | 3 | 4 | 5 | 6 |\n", 1000);
        assert_eq!(padded_by_the_parser(&full), 0);
        assert_eq!(padded_cells_at_most(&full), 0);
        // The report's card: one wide header over one-cell rows, again and again.
        let card = format!("{}\n", wide(512, "x\n", 512)).repeat(6);
        assert_eq!(padded_by_the_parser(&card), 6 * 512 * 511);
        assert!(padded_cells_at_most(&card) > padded_cells_allowed(card.len()));
        assert_eq!(padded_cells_at_most("no tables | here\n\n|-|\n"), 0);
    }

    use proptest::prelude::*;

    /// Cells of a table row, some of them odd.
    fn cells(most: usize) -> impl Strategy<Value = Vec<String>> {
        let cell = prop_oneof![
            4 => Just("x".to_owned()),
            1 => Just(String::new()),
            1 => Just(" ".to_owned()),
            1 => Just("\\|".to_owned()),
            1 => Just("\\\\|".to_owned()),
            1 => Just("`a|b`".to_owned()),
            1 => Just("$a|b$".to_owned()),
            1 => Just("<b title=\"|\">".to_owned()),
            1 => Just("&#124;".to_owned()),
            1 => Just("*a|b*".to_owned()),
            1 => Just(">".to_owned()),
            1 => "[a-z|:\\- ]{0,4}",
        ];
        prop::collection::vec(cell, 0..most)
    }

    /// `cells` as a row, with or without its outer pipes.
    fn row(cells: &[String], lead: bool, trail: bool) -> String {
        format!("{}{}{}", if lead { "|" } else { "" }, cells.join("|"), if trail { "|" } else { "" })
    }

    /// A table (its header and delimiter rows as wide, then shorter and
    /// longer rows, all behind one container prefix), or an odd line.
    fn table_or_line() -> impl Strategy<Value = String> {
        let prefix = prop_oneof![
            Just(""),
            Just("> "),
            Just(">"),
            Just(">> "),
            Just("  "),
            Just("    "),
            Just("\t"),
            Just("- "),
            Just("1. "),
            Just("[^1]: "),
        ];
        let end = prop_oneof![Just("\n"), Just("\r\n"), Just("\r")];
        // Rows indented four more are rows still, not code.
        let rows = prop::collection::vec((cells(12), prop::bool::weighted(0.2)), 0..12);
        let table = (1usize..10, rows, (prefix.clone(), end.clone(), any::<(bool, bool)>()))
            .prop_map(|(columns, rows, (prefix, end, (lead, trail)))| {
                let head = row(&vec!["h".to_owned(); columns], lead, trail);
                let delimiter = row(&vec![":-".to_owned(); columns], lead, trail);
                // Lines after the first keep a list item's or footnote's
                // indentation, not its marker.
                let more = if prefix.contains(['-', '1', '[']) { "      " } else { prefix };
                let mut table = format!("{prefix}{head}{end}{more}{delimiter}{end}");
                for (cells, indented) in rows {
                    let indent = if indented { "    " } else { "" };
                    table.push_str(&format!("{more}{indent}{}{end}", row(&cells, lead, trail)));
                }
                table
            });
        let line = (prefix, prop_oneof![cells(6).prop_map(|c| row(&c, true, false)), Just(String::new()), Just("|-|".to_owned())], end)
            .prop_map(|(prefix, line, end)| format!("{prefix}{line}{end}"));
        prop_oneof![table, line]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
        #[test]
        fn the_count_is_never_below_the_parsers(parts in prop::collection::vec(table_or_line(), 0..12)) {
            let markdown = parts.concat();
            let parsed = padded_by_the_parser(&markdown);
            prop_assert!(padded_cells_at_most(&markdown) >= parsed, "the parser pads {} cells: {:?}", parsed, markdown);
        }
    }

    #[test]
    fn large_cards_take_turns() {
        let turn = large_card_turn(LARGE_CARD_BYTES + 1);
        assert!(turn.is_some());
        assert!(LARGE_CARD_TURN.try_lock().is_err(), "another large card would wait");
        assert!(large_card_turn(LARGE_CARD_BYTES).is_none(), "a smaller card takes no turn, so does not wait");
    }
}
