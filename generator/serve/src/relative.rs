//! The paths in what pages are sent, written relative to the working folder.
//!
//! Build messages name files under the folders the preview was given, as
//! given; an absolute one (`--models /home/me/hub/models`) would show the
//! machine's layout to every page that listens. Pages get the same messages
//! with each such folder written relative to the working folder
//! (`models/...`, or `../shared/models/...` outside it). The terminal keeps
//! the paths as given, like `modelpages build`.

use std::path::{Component, Path, PathBuf};

/// Rewrites the absolute folders the preview was given in a message.
#[derive(Debug, Default)]
pub struct RelativePaths {
    /// (as the messages spell it, relative to the working folder), longest first.
    rewrites: Vec<(String, String)>,
}

impl RelativePaths {
    /// Rewrites for those of `paths` that are absolute, relative to `cwd`.
    pub fn new(cwd: &Path, paths: &[&Path]) -> RelativePaths {
        let mut rewrites: Vec<(String, String)> = paths
            .iter()
            .filter_map(|path| {
                // `path.join(x)` spells `/a/b/` + `x` as `/a/b/x`: match without the slash.
                let spelled = path.to_string_lossy().trim_end_matches('/').to_owned();
                let relative = relative_to(cwd, Path::new(&spelled))?;
                Some((spelled, relative.to_string_lossy().into_owned()))
            })
            .collect();
        rewrites.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        rewrites.dedup();
        RelativePaths { rewrites }
    }

    /// `text` with each of the folders written relative. A folder counts only
    /// as a whole path or the start of one: not inside a longer name
    /// (`/x/models` in `/y/x/models` or `/x/models2`).
    pub fn apply(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut previous: Option<char> = None;
        'text: while let Some(next) = rest.chars().next() {
            if !previous.is_some_and(|c| continues_a_name(c) || c == '/') {
                for (spelled, relative) in &self.rewrites {
                    if let Some(after) = rest.strip_prefix(spelled.as_str()) {
                        if !after.chars().next().is_some_and(continues_a_name) {
                            out.push_str(relative);
                            previous = spelled.chars().last();
                            rest = after;
                            continue 'text;
                        }
                    }
                }
            }
            out.push(next);
            previous = Some(next);
            rest = &rest[next.len_utf8()..];
        }
        out
    }
}

fn continues_a_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '_' | '-' | '~')
}

/// `path` relative to `base`, by their parts: `..` for each part of `base`
/// past what they share. `base` is the working folder, which the system
/// gives without links or `..`, so climbing it with `..` goes where its parts
/// say. `None` unless both are absolute.
fn relative_to(base: &Path, path: &Path) -> Option<PathBuf> {
    if !base.is_absolute() || !path.is_absolute() {
        return None;
    }
    let base: Vec<Component> = base.components().collect();
    let path: Vec<Component> = path.components().collect();
    let shared = base.iter().zip(&path).take_while(|(a, b)| a == b && !matches!(a, Component::ParentDir)).count();
    // Different drives (Windows) share nothing: no relative way between them.
    if shared == 0 {
        return None;
    }
    let mut relative: PathBuf = base[shared..].iter().map(|_| Component::ParentDir).collect();
    relative.extend(&path[shared..]);
    if relative.as_os_str().is_empty() {
        relative.push(".");
    }
    Some(relative)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_a_folder() {
        let relative = |path: &str| relative_to(Path::new("/home/me/site"), Path::new(path)).map(|p| p.display().to_string());
        assert_eq!(relative("/home/me/site/models").as_deref(), Some("models"));
        assert_eq!(relative("/home/me/site/./models/").as_deref(), Some("models"));
        assert_eq!(relative("/home/me/site").as_deref(), Some("."));
        assert_eq!(relative("/home/me/shared/models").as_deref(), Some("../shared/models"));
        assert_eq!(relative("/srv/models").as_deref(), Some("../../../srv/models"));
        assert_eq!(relative("/home/me/site/../other").as_deref(), Some("../other"));
        assert_eq!(relative("models"), None, "already relative");
    }

    #[test]
    fn messages_name_the_given_folders_relative_to_the_working_folder() {
        let cwd = Path::new("/home/me/site");
        let paths = RelativePaths::new(
            cwd,
            &[Path::new("/home/me/site/models/"), Path::new("/home/me/site/dist"), Path::new("/opt/site-src"), Path::new("modelpages.toml")],
        );
        let shown = |text: &str| paths.apply(text);
        assert_eq!(shown("/home/me/site/models/a/b/model.json:2:16: expected `,`"), "models/a/b/model.json:2:16: expected `,`");
        assert_eq!(shown("build failed; /home/me/site/dist was left as it was"), "build failed; dist was left as it was");
        assert_eq!(shown("cannot read /opt/site-src/templates/page.html: x"), "cannot read ../../../opt/site-src/templates/page.html: x");
        assert_eq!(shown("\"/home/me/site/models\" and `/home/me/site/dist`"), "\"models\" and `dist`");
        assert_eq!(shown("/home/me/site/models2/x and /home/me/site/dist.old"), "/home/me/site/models2/x and /home/me/site/dist.old", "other names");
        assert_eq!(shown("/mnt/home/me/site/models/x"), "/mnt/home/me/site/models/x", "inside a longer path");
        assert_eq!(shown("modelpages.toml: é /home/me/site/models"), "modelpages.toml: é models", "relative paths as they are");
        assert_eq!(RelativePaths::new(cwd, &[Path::new("models")]).apply("models/x"), "models/x");
    }
}
