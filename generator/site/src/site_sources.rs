//! The site sources: the folder (`site-src/`, or the one `--site-src`
//! names) that holds what the site looks like, read at build time. Every
//! path into it is made here.
//!
//! A build reads three of its folders: `templates/` (the page templates),
//! `static/` (the stylesheet) and `build/` (the islands, bundled by
//! `npm run build`). The rest (the islands' sources, `node_modules`, the
//! browser tests) is the front end's own: no build reads it, `serve` does
//! not watch it and the manifest's hash leaves it out.

use std::path::{Path, PathBuf};

/// The site sources a command uses when given none.
pub const DEFAULT_SITE_SOURCES: &str = "site-src";

/// A folder of site sources.
#[derive(Clone, Copy, Debug)]
pub struct SiteSources<'a> {
    root: &'a Path,
}

impl<'a> SiteSources<'a> {
    /// The folders a build reads: what `serve` watches for changes and the
    /// manifest's hash of the inputs covers.
    pub const READ_BY_BUILD: [&'static str; 3] = ["templates", "static", "build"];

    pub fn new(root: &'a Path) -> SiteSources<'a> {
        SiteSources { root }
    }

    pub fn root(&self) -> &'a Path {
        self.root
    }

    /// The page templates (minijinja).
    pub fn templates(&self) -> PathBuf {
        self.root.join("templates")
    }

    /// The one stylesheet, copied into the site under a hashed name.
    pub fn stylesheet(&self) -> PathBuf {
        self.root.join("static/style.css")
    }

    /// The islands' loader and chunks, as `npm run build` bundles them.
    pub fn islands(&self) -> PathBuf {
        self.root.join("build/islands")
    }

    /// The folders of [`SiteSources::READ_BY_BUILD`], in that order.
    pub fn read_by_build(&self) -> impl Iterator<Item = PathBuf> + 'a {
        let root = self.root;
        Self::READ_BY_BUILD.into_iter().map(move |dir| root.join(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_a_build_reads_is_in_a_folder_it_watches_and_hashes() {
        let sources = SiteSources::new(Path::new("src"));
        for read in [sources.templates(), sources.stylesheet(), sources.islands()] {
            assert!(sources.read_by_build().any(|dir| read.starts_with(dir)), "{}", read.display());
        }
    }
}
