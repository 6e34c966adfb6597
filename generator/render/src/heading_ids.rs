//! Heading ids for cards, as GitHub and the Hub make them, so a card's own
//! table of contents (`[Usage](#usage)`) lands on its heading.
//!
//! A heading's id is its text made a slug: lowercased, letters and digits of
//! every script kept, punctuation and symbols dropped, each space a `-`
//! ([`slug`]). A slug met again gets `-1`, `-2`... as github-slugger does,
//! so every id in a card is unique. A card shares its page with the page's
//! own ids (`main`, `card-heading`, `ex-...` examples, `local-...` apps, the
//! islands' ids): a slug that is or could be one of those ([`is_page_id`])
//! gets a `section-` prefix, so a card can never take an id the page relies
//! on. In-card links keep working: [`HeadingIds::target`] finds a heading by
//! the id it got, by the slug it would have had, or by the slug of what the
//! link says (`#Model-Details`, `#%E6%A8%A1%E5%9E%8B`).
//!
//! Ids cost at most [`MAX_SLUG_BYTES`] each, and the search for a free
//! suffix is linear over a whole card (counters only grow).

use std::collections::HashMap;

use serde::Serialize;

/// A heading of a card as the page shows it, for a table of contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CardHeading {
    /// The level it is shown at: a card's `#` is shown as `h2`.
    pub level: u8,
    pub id: String,
    /// Its text, without markup.
    pub text: String,
}

/// Slugs are cut to this many bytes (on a character boundary): a heading
/// of a megabyte would otherwise put a megabyte id in the page.
pub(crate) const MAX_SLUG_BYTES: usize = 200;

/// Given to a heading that has no letter or digit at all.
const EMPTY_SLUG: &str = "section";

/// Put before a slug that is or could be one of the page's own ids.
const PAGE_ID_ESCAPE: &str = "section-";

/// Ids the model page template writes (see `model.html` and `base.html`).
const PAGE_IDS: &[&str] = &[
    "main",
    "meta-heading",
    "usage-heading",
    "gguf-heading",
    "local-heading",
    "inference-heading",
    "inference-examples",
    "card-heading",
    // The layout: "Use this model", the card's contents, the
    // header search.
    "use-heading",
    "use-panel",
    "use-library",
    "use-inference",
    "use-quant",
    "use-quant-data",
    "use-quant-download",
    "toc-heading",
    "site-search-q",
    // The facts (`templates/model/*.html`).
    "facts-heading",
    "files-heading",
    "evals-heading",
    "inputs-heading",
    "tags-heading",
    "tree-heading",
    "spaces-heading",
    // What running it takes and what the model sees (`model/memory.html`,
    // `model/prompt.html`).
    "memory",
    "memory-heading",
    "prompt",
    "prompt-heading",
];

/// Prefixes of the page's numbered or keyed ids (`ex-auto-python-openai`,
/// `local-llama.cpp`, `provider-3`, `local-app-2`), of the ids the card's
/// own raw HTML gets (`user-content-`) and of ids kept for the site (`mp-`).
const PAGE_ID_PREFIXES: &[&str] = &["ex-", "local-", "provider-", "derivatives-", "user-content-", "mp-"];

/// Prefixes of the ids islands make from React's `useId` (`inferencer0-...`,
/// `searchr1-...`): a prefix followed by `r` and a digit.
const ISLAND_ID_PREFIXES: &[&str] = &["inference", "search", "use", "quant"];

/// Whether `slug` is, or could one day be, an id of the page around a card.
pub fn is_page_id(slug: &str) -> bool {
    if PAGE_IDS.contains(&slug) || PAGE_ID_PREFIXES.iter().any(|p| slug.starts_with(p)) {
        return true;
    }
    ISLAND_ID_PREFIXES.iter().any(|prefix| {
        let mut rest = slug.strip_prefix(prefix).unwrap_or("").chars();
        matches!(rest.next(), Some('r' | 'R')) && rest.next().is_some_and(|c| c.is_ascii_digit())
    })
}

/// The slug of a heading's text, as GitHub makes it (github-slugger): lowercase,
/// letters, digits, marks, `-` and `_` kept, each whitespace a `-`, all else
/// (punctuation, symbols, emoji) dropped. Never longer than [`MAX_SLUG_BYTES`].
pub(crate) fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_SLUG_BYTES));
    for c in text.chars().flat_map(char::to_lowercase) {
        let kept = if c.is_whitespace() {
            '-'
        } else if c.is_ascii() {
            if !(c.is_ascii_alphanumeric() || c == '-' || c == '_') {
                continue;
            }
            c
        } else if is_punctuation_or_symbol(c) {
            continue;
        } else {
            c
        };
        if out.len() + kept.len_utf8() > MAX_SLUG_BYTES {
            break;
        }
        out.push(kept);
    }
    out
}

/// Non-ASCII punctuation, symbols, emoji and invisible joiners: the blocks
/// github-slugger drops. Letters and marks of every script are kept.
fn is_punctuation_or_symbol(c: char) -> bool {
    matches!(c,
        '\u{A1}'..='\u{BF}' | '\u{D7}' | '\u{F7}'
        | '\u{2000}'..='\u{206F}'   // general punctuation, joiners, marks
        | '\u{20A0}'..='\u{20CF}'   // currency
        | '\u{2190}'..='\u{2BFF}'   // arrows, operators, technical, shapes, dingbats
        | '\u{2E00}'..='\u{2E7F}'   // supplemental punctuation
        | '\u{3000}'..='\u{303F}'   // CJK symbols and punctuation
        | '\u{FE00}'..='\u{FE0F}'   // variation selectors
        | '\u{FE30}'..='\u{FE4F}'   // CJK compatibility forms
        | '\u{FF01}'..='\u{FF0F}' | '\u{FF1A}'..='\u{FF20}' | '\u{FF3B}'..='\u{FF40}' | '\u{FF5B}'..='\u{FF65}'
        | '\u{1F000}'..='\u{1FAFF}' // emoji and pictographs
    )
}

/// The ids of one card's headings, given in order.
#[derive(Debug, Default)]
pub(crate) struct HeadingIds {
    /// Each id given, and for a base slug the times it was met; counts
    /// only grow (github-slugger's counter).
    occurrences: HashMap<String, usize>,
    /// A heading's plain slug (before a suffix or page-id escape), where it
    /// differs from the id its first heading got.
    targets: HashMap<String, String>,
}

impl HeadingIds {
    /// The id of the next heading, whose text is `text`.
    pub(crate) fn assign(&mut self, text: &str) -> String {
        let natural = slug(text);
        let mut base = if natural.is_empty() { EMPTY_SLUG.to_owned() } else { natural.clone() };
        if is_page_id(&base) {
            base.insert_str(0, PAGE_ID_ESCAPE);
        }
        let mut id = base.clone();
        while self.occurrences.contains_key(&id) {
            let count = self.occurrences.get_mut(&base).expect("the base was counted when first given");
            *count += 1;
            id = format!("{base}-{count}");
        }
        self.occurrences.insert(id.clone(), 0);
        if !natural.is_empty() && natural != id && !self.occurrences.contains_key(&natural) {
            self.targets.entry(natural).or_insert_with(|| id.clone());
        }
        id
    }

    /// The heading id an in-card link to `#fragment` (percent-decoded) lands
    /// on, if any: by id, by slug, or by the slug of the fragment.
    pub(crate) fn target(&self, fragment: &str) -> Option<&str> {
        // GitHub's own prefix, which cards copied from GitHub keep.
        let fragment = fragment.strip_prefix("user-content-").unwrap_or(fragment);
        let find = |name: &str| match self.occurrences.get_key_value(name) {
            Some((id, _)) => Some(id.as_str()),
            None => self.targets.get(name).map(String::as_str),
        };
        find(fragment).or_else(|| find(&slug(fragment)))
    }
}

/// Fewest headings a card has for its contents to be listed.
const MIN_CONTENTS: usize = 4;
/// Most headings the contents list.
const MAX_CONTENTS: usize = 80;

/// The headings a card's contents list: its top two levels. The top is the
/// first level with two headings or more, so a card whose one `#` heading
/// is its title lists its sections and their subsections (and the title);
/// none for a card of fewer than [`MIN_CONTENTS`] headings.
pub fn card_contents(headings: &[CardHeading]) -> Vec<CardHeading> {
    if headings.len() < MIN_CONTENTS {
        return Vec::new();
    }
    let mut per_level = [0usize; 8];
    for heading in headings {
        per_level[usize::from(heading.level).min(7)] += 1;
    }
    let top = (0..8).find(|&level| per_level[level] >= 2).or_else(|| (0..8).find(|&level| per_level[level] > 0)).unwrap_or(0);
    headings.iter().filter(|h| usize::from(h.level) <= top + 1).take(MAX_CONTENTS).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_github_style_in_every_script() {
        for (text, expected) in [
            ("Model Details", "model-details"),
            ("How to Get Started with the Model", "how-to-get-started-with-the-model"),
            ("Training & evaluation (v2.1)!", "training--evaluation-v21"),
            ("  Usage  ", "--usage--"),
            ("snake_case and kebab-case", "snake_case-and-kebab-case"),
            ("模型介绍", "模型介绍"),
            ("快速开始：安装", "快速开始安装"),
            ("نموذج عربي", "نموذج-عربي"),
            ("Ünïcödé Straße", "ünïcödé-straße"),
            ("हिन्दी मॉडल", "हिन्दी-मॉडल"),
            ("🤗 Transformers ✨", "-transformers-"),
            ("`code` in *heading*", "code-in-heading"),
            ("«Quoted» — dash…", "quoted--dash"),
        ] {
            assert_eq!(slug(text), expected, "{text}");
        }
        let long = slug(&"é".repeat(1000));
        assert!(long.len() <= MAX_SLUG_BYTES && long.len() > MAX_SLUG_BYTES - 2, "{}", long.len());
    }

    #[test]
    fn ids_are_unique_within_a_card() {
        let mut ids = HeadingIds::default();
        let given: Vec<String> = ["Usage", "Usage", "Usage-1", "usage", "!!!", "???", "Usage"].iter().map(|t| ids.assign(t)).collect();
        assert_eq!(given, ["usage", "usage-1", "usage-1-1", "usage-2", "section", "section-1", "usage-3"]);
        assert_eq!(ids.target("usage"), Some("usage"), "the first heading of a slug");
        assert_eq!(ids.target("usage-2"), Some("usage-2"), "a later one by its id");
        assert_eq!(ids.target("Usage"), Some("usage"), "by the slug of the link");
        assert_eq!(ids.target("user-content-usage"), Some("usage"), "GitHub's prefix");
        assert_eq!(ids.target("nothing"), None);
    }

    #[test]
    fn a_hostile_order_of_suffixes_stays_linear() {
        // Every `x-i` taken first, then `x` many times: each later `x`
        // resumes its search where the last stopped.
        let mut ids = HeadingIds::default();
        let n = 20_000;
        for i in 1..=n {
            ids.assign(&format!("x-{i}"));
        }
        let started = std::time::Instant::now();
        let last = (0..=n).map(|_| ids.assign("x")).last().unwrap();
        assert_eq!(last, format!("x-{}", 2 * n));
        assert!(started.elapsed() < std::time::Duration::from_secs(5), "{:?}", started.elapsed());
    }

    #[test]
    fn slugs_never_take_the_pages_own_ids() {
        let mut ids = HeadingIds::default();
        for (text, expected) in [
            ("Main", "section-main"),
            ("Card heading", "section-card-heading"),
            ("Inference examples", "section-inference-examples"),
            ("ex-auto python", "section-ex-auto-python"),
            ("Local apps", "section-local-apps"),
            ("Provider 3", "section-provider-3"),
            ("user-content-x", "section-user-content-x"),
            ("inferencer0 language", "section-inferencer0-language"),
            ("Inference", "inference"),
            ("Search results", "search-results"),
            ("Section main", "section-main-1"),
        ] {
            assert_eq!(ids.assign(text), expected, "{text}");
            assert!(!is_page_id(expected) || expected.starts_with("section-"));
        }
        assert_eq!(ids.target("main"), Some("section-main"), "a link to the plain slug still lands");
        for page_id in ["main", "meta-heading", "card-heading", "ex-x", "local-llama.cpp", "provider-1", "searchr2-q"] {
            assert!(is_page_id(page_id), "{page_id}");
        }
    }

    #[test]
    fn contents_list_the_top_two_levels_the_card_uses() {
        let h = |level: u8, text: &str| CardHeading { level, id: slug(text), text: text.to_owned() };
        // One title, sections, subsections, and deeper headings left out.
        let card = [h(2, "Zephyr"), h(3, "Model description"), h(4, "Sources"), h(3, "Uses"), h(4, "Limits"), h(5, "Detail")];
        let texts = |list: Vec<CardHeading>| list.into_iter().map(|h| h.text).collect::<Vec<_>>();
        assert_eq!(texts(card_contents(&card)), ["Zephyr", "Model description", "Sources", "Uses", "Limits"]);
        // Sections only (`##` shown as h3): their subsections (h4) are listed.
        let card = [h(3, "Usage"), h(4, "Install"), h(4, "Run"), h(3, "Training"), h(5, "x")];
        assert_eq!(texts(card_contents(&card)), ["Usage", "Install", "Run", "Training"]);
        assert!(card_contents(&card[..3]).is_empty(), "a short card has none");
        let long: Vec<CardHeading> = (0..200).map(|i| h(3, &format!("s{i}"))).collect();
        assert_eq!(card_contents(&long).len(), MAX_CONTENTS);
    }
}
