//! What reading hostile front matter costs in memory, measured by a counting
//! allocator (this test binary's own, so nothing else runs beside it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use modelpages_record::{ModelCard, MIN_EXPANSION_LIMIT};

/// The system allocator, keeping the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            let now = IN_USE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        IN_USE.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most memory in use at once while `f` runs, above what was in use before.
fn peak_while(f: impl FnOnce()) -> usize {
    let before = IN_USE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    f();
    PEAK.load(Ordering::SeqCst) - before
}

/// Front matter whose 100 KB anchor is aliased 2,000 times under `key`:
/// 200 MB once expanded.
fn aliased(key: &str) -> String {
    let mut text = format!("---\nbig: &big \"{}\"\nlicense: mit\n{key}: [", "x".repeat(100_000));
    text.push_str(&vec!["*big"; 2_000].join(", "));
    text.push_str("]\n---\nbody\n");
    text
}

#[test]
fn an_aliased_anchor_costs_memory_in_proportion_to_the_card_not_to_its_expansion() {
    for (key, left_out) in [("many", 0), ("tags", 1)] {
        let text = aliased(key);
        let mut card = None;
        let peak = peak_while(|| card = Some(ModelCard::parse(&text).expect("the card is read")));
        let card = card.unwrap();
        println!("{key}: {peak} bytes at once for {}", text.len());
        // What the parser holds of the text, and a field built up to its
        // limit (1 MiB here) before it is left out.
        assert!(peak < 16 * text.len() + 2 * MIN_EXPANSION_LIMIT, "{key}: reading {} bytes of front matter used {peak} bytes at once", text.len());
        assert_eq!(card.front_matter["license"], "mit");
        assert_eq!(card.ignored.len(), left_out, "{key}: {:?}", card.ignored);
    }
}
