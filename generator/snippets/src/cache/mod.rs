//! Every speed-up of the snippet engine, in one place, under one contract.
//!
//! # The contract
//!
//! A cache here may only ever give back what the work it saves would have
//! made, byte for byte: a build with every cache emptied at every step
//! writes the same site. Each cache therefore keys on *everything* the saved
//! work reads (or on the identity of immutable data that holds it), bounds
//! its memory by dropping entries (never by changing answers), and is
//! checked by tests that compare cached and uncached results on real and
//! synthetic corpora (`inference/reuse_tests.rs`, `tests/properties.rs`,
//! the byte-identity tests of the CLI). Feature code calls one function and
//! reads as if there were no cache.
//!
//! # The caches
//!
//! - [`memo`]: hosted-inference example texts, made once with a marker in
//!   place of the model id and given to every model whose other template
//!   values are the same (keyed by the template and the encoded values;
//!   [`id_text`] decides which templates qualify). Per engine, bounded.
//! - [`recent_bodies`]: request bodies formatted lately on this thread,
//!   keyed by the address of the immutable template data they were formatted
//!   from (kept alive while remembered), the form and the indent. Per
//!   thread, 16 entries.
//! - [`samples`]: the sample inputs library templates read, keyed by the
//!   sample texts they are made from (all they depend on). Per engine,
//!   bounded.
//!
//! The render crate keeps the same contract for highlighting (its render
//! side): the shape cache in `render/src/highlight.rs` gives a highlighted
//! example the shape of one already highlighted whose text differs only in
//! values the page names (`ShapeValues`), and `render/src/line_cache.rs`
//! remembers how single lines parse in a given parser state.

pub(crate) mod id_text;
pub(crate) mod memo;
mod recent_bodies;
mod samples;

pub(crate) use recent_bodies::remembered_body;
pub(crate) use samples::SampleInputsCache;
