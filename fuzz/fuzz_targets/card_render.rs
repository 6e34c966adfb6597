//! A model card (front matter and Markdown) through parsing, rendering,
//! sanitising and highlighting. Properties: no panic, and the HTML holds no
//! live markup (script, handlers, dangerous URLs, styles, frames).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use modelpages_record::ModelCard;
use modelpages_render::{render_card, CardContext, Highlighter, ShapeValues};
use modelpages_testkit::html::live_markup;

fn highlighter() -> &'static Highlighter {
    static HIGHLIGHTER: OnceLock<Highlighter> = OnceLock::new();
    HIGHLIGHTER.get_or_init(Highlighter::new)
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // The first line doubles as a model value (an id or widget text) that
    // highlighting takes out of code blocks and puts back.
    let value = text.lines().next().unwrap_or("");
    let Ok(card) = ModelCard::parse(text) else { return };
    // Remote images off: a fragment may load nothing from another host.
    let context = CardContext::hub_only("https://hub.example", "fuzz/model", false);
    let html = render_card(&card.body, highlighter(), &ShapeValues::new(&[value, "fuzz/model"]), &context).html;
    let found = live_markup(&html, None);
    assert!(found.is_empty(), "live markup {found:?} in\n{html}");
});
