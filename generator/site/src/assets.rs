//! Static assets with content-hashed names, so a host can cache them forever.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use modelpages_render::Highlighter;

use crate::site_sources::SiteSources;

/// The assets of one build: their site-relative paths and bytes.
#[derive(Debug, Default)]
pub struct Assets {
    pub files: Vec<(String, Vec<u8>)>,
    /// Site-relative path of the stylesheet (`assets/style.<hash>.css`).
    pub stylesheet: String,
    /// Site-relative path of the island loader, when the islands have been
    /// built: the one script a page with islands names; it imports the
    /// chunks of the islands the page has from beside it.
    pub script: Option<String>,
}

/// Problems reading the site sources.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct AssetError {
    pub path: PathBuf,
    pub source: io::Error,
}

/// The loader's name starts with this. The islands' folder
/// ([`SiteSources::islands`]) holds `islands-<hash>.js` (the loader) and
/// the chunks it imports, each named by esbuild with a hash of its content
/// (see site-src/build.mjs).
const LOADER_PREFIX: &str = "islands-";

/// Collects the stylesheet (the site's CSS plus the highlight themes) and the
/// island modules from `site_src`. Missing islands are not an error: pages
/// work without JavaScript, and the caller says how to build them.
pub fn collect_assets(site_src: &Path) -> Result<Assets, AssetError> {
    let sources = SiteSources::new(site_src);
    let css_path = sources.stylesheet();
    let mut css = fs::read(&css_path).map_err(|source| AssetError { path: css_path, source })?;
    css.extend_from_slice(b"\n");
    css.extend_from_slice(Highlighter::stylesheet().as_bytes());
    let mut assets = Assets::default();
    assets.stylesheet = assets.add("style", "css", css);
    let dir = sources.islands();
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(assets),
        Err(source) => return Err(AssetError { path: dir, source }),
    };
    let mut names = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| AssetError { path: dir.clone(), source })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        // Only the names esbuild writes: a file name is a URL path here.
        if name.ends_with(".js") && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)) {
            names.push(name);
        }
    }
    // Sorted, so the assets come in the same order on every build.
    names.sort();
    for name in names {
        let path = dir.join(&name);
        let bytes = fs::read(&path).map_err(|source| AssetError { path, source })?;
        let site_path = format!("assets/islands/{name}");
        if name.starts_with(LOADER_PREFIX) {
            assets.script = Some(site_path.clone());
        }
        assets.files.push((site_path, bytes));
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
        fs::create_dir_all(dir.path().join("build/islands")).unwrap();
        fs::write(dir.path().join("build/islands/islands-AB12.js"), "import './chunk-CD34.js'").unwrap();
        fs::write(dir.path().join("build/islands/chunk-CD34.js"), "1").unwrap();
        fs::write(dir.path().join("build/islands/notes.txt"), "not a module").unwrap();
        let second = collect_assets(dir.path()).unwrap();
        assert_ne!(first.stylesheet, second.stylesheet);
        assert_eq!(second.script.as_deref(), Some("assets/islands/islands-AB12.js"));
        let paths: Vec<&str> = second.files.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths[1..], ["assets/islands/chunk-CD34.js", "assets/islands/islands-AB12.js"]);
    }
}
