//! The end-to-end tests: the real `modelpages` binary on real folders.
//!
//! One test binary holds every file here as a module, so the shared helpers
//! and the dependencies are compiled and linked once rather than once per
//! file. A test's name starts with its file: run one file's tests with
//! `cargo test -p modelpages --test integration build::`, one test with its
//! whole name. The root-only tests are ignored by default (`faults`); `make
//! test` runs them with `--ignored` when it runs as root.

mod common;
mod deploy_common;
mod hostile_corpus;

mod agents_and_memory;
mod api_notebooks;
mod build;
mod cards;
mod changed_list;
mod cli_edges;
mod deploy;
mod deploy_safety;
mod deploy_servers;
mod faults;
mod feeds;
mod hostile;
mod interrupt;
mod listings;
mod listings_incremental;
mod local_apps;
mod model_tree;
mod out_folder;
mod real_cards;
mod real_records;
mod serve;
mod snippets;
