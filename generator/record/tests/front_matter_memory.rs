//! What reading hostile front matter costs in memory, measured by a counting
//! allocator (this test binary's own, so nothing else runs beside it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use modelpages_record::ModelCard;

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

#[test]
fn an_aliased_anchor_costs_memory_in_proportion_to_the_card_not_to_its_expansion() {
    // A 100 KB string aliased 2,000 times: 200 MB once expanded.
    let mut text = format!("---\nbig: &big \"{}\"\nmany: [", "x".repeat(100_000));
    text.push_str(&vec!["*big"; 2_000].join(", "));
    text.push_str("]\n---\nbody\n");
    let mut refused = false;
    let peak = peak_while(|| refused = ModelCard::parse(&text).is_err());
    assert!(peak < 16 * text.len(), "reading {} bytes of front matter used {peak} bytes at once", text.len());
    assert!(refused, "the card is refused");
}
