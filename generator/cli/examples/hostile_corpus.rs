//! Writes the hostile corpus (see `tests/hostile_corpus`) for the browser
//! test: `cargo run --example hostile_corpus -- DIR` writes `DIR/models`.
//! Files the tests make unreadable are made readable again, so the folder
//! can be removed by anyone; as root they read either way.

#[path = "../tests/hostile_corpus/mod.rs"]
mod hostile_corpus;

use std::path::PathBuf;

fn main() {
    let Some(dir) = std::env::args_os().nth(1).map(PathBuf::from) else {
        eprintln!("usage: hostile_corpus DIR");
        std::process::exit(2);
    };
    if dir.exists() {
        std::fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    }
    let (corpus, cases) = hostile_corpus::Corpus::write(&dir);
    corpus.restore_permissions();
    println!("wrote {} hostile cases to {}", cases.len(), corpus.models.display());
}
