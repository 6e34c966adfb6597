//! The integration tests of `modelpages-snippets`, one module a file, in one
//! test binary, so the crate and its dependencies are linked once rather
//! than once a file. Run one file's tests with
//! `cargo test -p modelpages-snippets --test integration catalogue::`.

mod catalogue;
mod client_table;
mod fallbacks;
mod inference;
mod local_apps;
mod properties;
mod samples;
mod substituted;
