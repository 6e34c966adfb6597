//! Static assets with content-hashed names, so a host can cache them forever.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use modelpages_render::Highlighter;

/// The assets of one build: their site-relative paths and bytes.
#[derive(Debug, Default)]
pub struct Assets {
    pub files: Vec<(String, Vec<u8>)>,
    /// Site-relative path of the stylesheet (`assets/style.<hash>.css`).
    pub stylesheet: String,
    /// Site-relative path of the island bundle, when it has been built.
    pub script: Option<String>,
}

/// Problems reading the site sources.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct AssetError {
    pub path: PathBuf,
    pub source: io::Error,
}

/// Where the island bundle is expected, relative to the site sources.
pub const ISLANDS_BUNDLE: &str = "build/islands.js";
const STYLESHEET: &str = "static/style.css";

/// Collects the stylesheet (the site's CSS plus the highlight themes) and the
/// island bundle from `site_src`. A missing bundle is not an error: pages work
/// without JavaScript, and the caller says how to build it.
pub fn collect_assets(site_src: &Path) -> Result<Assets, AssetError> {
    let css_path = site_src.join(STYLESHEET);
    let mut css = fs::read(&css_path).map_err(|source| AssetError { path: css_path, source })?;
    css.extend_from_slice(b"\n");
    css.extend_from_slice(Highlighter::stylesheet().as_bytes());
    let mut assets = Assets::default();
    assets.stylesheet = assets.add("style", "css", css);
    let js_path = site_src.join(ISLANDS_BUNDLE);
    match fs::read(&js_path) {
        Ok(js) => assets.script = Some(assets.add("islands", "js", js)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(source) => return Err(AssetError { path: js_path, source }),
    }
    Ok(assets)
}

impl Assets {
    fn add(&mut self, stem: &str, ext: &str, bytes: Vec<u8>) -> String {
        let hash = blake3::hash(&bytes).to_hex();
        let path = format!("assets/{stem}.{}.{ext}", &hash[..12]);
        self.files.push((path.clone(), bytes));
        path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_change_with_content_and_bundle_is_optional() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("static")).unwrap();
        fs::write(dir.path().join("static/style.css"), "body{}").unwrap();
        let first = collect_assets(dir.path()).unwrap();
        assert!(first.stylesheet.starts_with("assets/style.") && first.stylesheet.ends_with(".css"));
        assert!(first.script.is_none());
        fs::write(dir.path().join("static/style.css"), "body{color:red}").unwrap();
        fs::create_dir_all(dir.path().join("build")).unwrap();
        fs::write(dir.path().join("build/islands.js"), "1").unwrap();
        let second = collect_assets(dir.path()).unwrap();
        assert_ne!(first.stylesheet, second.stylesheet);
        assert!(second.script.as_deref().unwrap().starts_with("assets/islands."));
        assert_eq!(second.files.len(), 2);
    }
}
