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

/// The HTML ammonia takes from a card of `len` bytes. It parses a few MB a
/// second into a DOM of some 30 bytes a byte of HTML, so it takes four times
/// the card and 1 MiB more (real cards make one to two times their size),
/// at most 16 MiB; a card whose HTML is larger (dense footnotes make six
/// times the card) is shown as its Markdown source.
pub(crate) fn sanitiser_takes(len: usize) -> usize {
    len.saturating_mul(4).saturating_add(1 << 20).min(16 << 20)
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
    /// What the sanitiser takes from the card, when its HTML was larger.
    pub(crate) too_large: Option<usize>,
    /// Formulas shown as code, by [`crate::card_math::MathProblem`].
    pub(crate) math_problems: [usize; 4],
    /// References dropped because they would leave the model's folder.
    pub(crate) dropped_references: usize,
}

impl CardNotes {
    pub(crate) fn into_notes(self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some(takes) = self.too_large {
            notes.push(format!(
                "its HTML would be over the {:.1} MiB the sanitiser takes from it; the card is shown as Markdown source",
                takes as f64 / f64::from(1 << 20)
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

    #[test]
    fn large_cards_take_turns() {
        let turn = large_card_turn(LARGE_CARD_BYTES + 1);
        assert!(turn.is_some());
        assert!(LARGE_CARD_TURN.try_lock().is_err(), "another large card would wait");
        assert!(large_card_turn(LARGE_CARD_BYTES).is_none(), "a smaller card takes no turn, so does not wait");
    }
}
