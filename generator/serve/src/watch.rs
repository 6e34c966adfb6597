//! Watching what a build reads: the models, the site sources and the
//! settings file.
//!
//! Only the site-source folders a build reads
//! ([`SiteSources::READ_BY_BUILD`]) are watched, not all of `site-src/`: its
//! `node_modules` holds thousands of folders, each of which would cost an
//! inotify watch.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use modelpages_site::output::OutputFolder;
use modelpages_site::SiteSources;
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher as _};

use crate::ServeError;

/// Changes closer together than this make one rebuild (an editor's save is
/// often several writes and a rename).
const DEBOUNCE: Duration = Duration::from_millis(150);

/// The paths whose changes call for a rebuild, made absolute so events
/// (which carry absolute paths) compare with them.
#[derive(Clone, Debug)]
pub struct WatchedPaths {
    models: PathBuf,
    site_src: PathBuf,
    settings: PathBuf,
    out: PathBuf,
}

impl WatchedPaths {
    pub fn new(models: &Path, site_src: &Path, settings: &Path, out: &Path) -> Result<WatchedPaths, ServeError> {
        let models = models
            .canonicalize()
            .map_err(|source| ServeError::Watch { path: models.to_owned(), message: source.to_string() })?;
        Ok(WatchedPaths { models, site_src: absolute(site_src), settings: absolute(settings), out: absolute(out) })
    }

    /// Whether a change at `path` can change the site.
    pub fn is_relevant(&self, path: &Path) -> bool {
        if self.is_output(path) {
            return false;
        }
        path.starts_with(&self.models)
            || path == self.settings
            || SiteSources::new(&self.site_src).read_by_build().any(|dir| path.starts_with(dir))
    }

    /// The output and the files beside it (staging folder, lock,
    /// manifest...): builds write there, and a change there must not start
    /// another build.
    fn is_output(&self, path: &Path) -> bool {
        OutputFolder::new(&self.out).holds(path)
    }
}

/// `path` made absolute, following links where it exists; a file that does
/// not exist yet (the default settings file) keeps its name under its
/// resolved folder.
fn absolute(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    match (parent.canonicalize(), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => std::env::current_dir().map(|cwd| cwd.join(path)).unwrap_or_else(|_| path.to_owned()),
    }
}

/// Watches the models (recursively), the site-source folders that exist, the
/// site sources themselves (so a folder created later is noticed) and the
/// settings file's folder, and calls `on_change` with the relevant paths of
/// each burst of changes, from a thread of its own.
///
/// notify's own events, debounced here rather than by a debouncer crate:
/// the build opens every file it reads, and only the event kind (which the
/// small debouncer drops) tells those opens from changes.
pub struct Watcher {
    watcher: RecommendedWatcher,
    paths: WatchedPaths,
    watched_site_dirs: Vec<PathBuf>,
}

impl Watcher {
    pub fn start(
        paths: WatchedPaths,
        on_change: impl FnMut(Vec<PathBuf>) + Send + 'static,
        on_error: impl FnMut(String) + Send + 'static,
    ) -> Result<Watcher, ServeError> {
        let (sender, events) = mpsc::channel();
        let watcher = notify::recommended_watcher(sender)
            .map_err(|e| ServeError::Watch { path: paths.models.clone(), message: e.to_string() })?;
        let filter = paths.clone();
        // Ends when the watcher is dropped, which closes the channel.
        std::thread::spawn(move || debounce(events, &filter, on_change, on_error));
        let mut watcher = Watcher { watcher, paths, watched_site_dirs: Vec::new() };
        watcher.add(&watcher.paths.models.clone(), RecursiveMode::Recursive)?;
        for dir in [watcher.paths.site_src.clone(), watcher.paths.settings.parent().map(Path::to_owned).unwrap_or_default()] {
            if dir.is_dir() {
                watcher.add(&dir, RecursiveMode::NonRecursive)?;
            }
        }
        watcher.watch_new_site_dirs()?;
        Ok(watcher)
    }

    /// Starts watching site-source folders created since the last call
    /// (`make islands` creates `build/`).
    pub fn watch_new_site_dirs(&mut self) -> Result<(), ServeError> {
        let dirs: Vec<PathBuf> = SiteSources::new(&self.paths.site_src).read_by_build().collect();
        for dir in dirs {
            if dir.is_dir() && !self.watched_site_dirs.contains(&dir) {
                self.add(&dir, RecursiveMode::Recursive)?;
                self.watched_site_dirs.push(dir);
            }
        }
        Ok(())
    }

    fn add(&mut self, dir: &Path, mode: RecursiveMode) -> Result<(), ServeError> {
        self.watcher.watch(dir, mode).map_err(|e| ServeError::Watch { path: dir.to_owned(), message: e.to_string() })
    }
}

/// Collects relevant changed paths until none came for [`DEBOUNCE`], then
/// hands them over as one batch. Reads (opens, closes without writing) are
/// not changes.
fn debounce(
    events: Receiver<notify::Result<Event>>,
    paths: &WatchedPaths,
    mut on_change: impl FnMut(Vec<PathBuf>),
    mut on_error: impl FnMut(String),
) {
    let mut batch: Vec<PathBuf> = Vec::new();
    loop {
        let wait = if batch.is_empty() { Duration::from_secs(3600) } else { DEBOUNCE };
        match events.recv_timeout(wait) {
            Ok(Ok(event)) if !event.kind.is_access() => {
                batch.extend(event.paths.into_iter().filter(|p| paths.is_relevant(p)));
            }
            Ok(Ok(_)) => {}
            Ok(Err(err)) => on_error(err.to_string()),
            Err(RecvTimeoutError::Timeout) if !batch.is_empty() => {
                batch.sort();
                batch.dedup();
                on_change(std::mem::take(&mut batch));
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inputs_of_the_build_are_relevant() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("models")).unwrap();
        std::fs::create_dir_all(root.join("site-src")).unwrap();
        let paths = WatchedPaths::new(
            &root.join("models"),
            &root.join("site-src"),
            &root.join("modelpages.toml"),
            &root.join("models/dist"),
        )
        .unwrap();
        for relevant in ["models/a/b/model.json", "site-src/templates/model.html", "site-src/build/islands.js", "modelpages.toml"] {
            assert!(paths.is_relevant(&root.join(relevant)), "{relevant}");
        }
        for ignored in [
            "site-src/node_modules/react/index.js",
            "site-src/package.json",
            "Cargo.lock",
            "modelpages.toml.swp",
            // An output inside the models folder must not trigger builds of its own.
            "models/dist/index.html",
            "models/.dist.tmp-123/a/b/index.html",
            "models/.dist.lock",
            "models/.dist.manifest",
            "models/.dist.sent-0123456789abcdef",
        ] {
            assert!(!paths.is_relevant(&root.join(ignored)), "{ignored}");
        }
        assert!(WatchedPaths::new(&root.join("nope"), &root, &root, &root).is_err(), "a missing models folder");
        // A settings file whose name starts like the output's side files is
        // still an input: only the side files' own names are the output's.
        let settings = root.join(".dist-settings.toml");
        let paths = WatchedPaths::new(&root.join("models"), &root.join("site-src"), &settings, &root.join("dist")).unwrap();
        assert!(paths.is_relevant(&settings));
        assert!(!paths.is_relevant(&root.join(".dist.changes")));
    }

    #[test]
    fn reads_are_not_changes_and_a_burst_is_one_batch() {
        use notify::event::{AccessKind, CreateKind, EventKind, ModifyKind};
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("models")).unwrap();
        let paths = WatchedPaths::new(&root.join("models"), &root.join("site-src"), &root.join("s.toml"), &root.join("dist")).unwrap();
        let (sender, events) = mpsc::channel();
        let (batches, received) = mpsc::channel();
        let worker = std::thread::spawn(move || debounce(events, &paths, |batch| batches.send(batch).unwrap(), |_| {}));
        let event = |kind, rel: &str| Ok(Event::new(kind).add_path(root.join(rel)));
        sender.send(event(EventKind::Access(AccessKind::Any), "models/a/b/model.json")).unwrap();
        assert!(received.recv_timeout(DEBOUNCE * 4).is_err(), "a build reading a record is no change");
        sender.send(event(EventKind::Modify(ModifyKind::Any), "models/a/b/model.json")).unwrap();
        sender.send(event(EventKind::Create(CreateKind::File), "models/a/c/model.json")).unwrap();
        sender.send(event(EventKind::Modify(ModifyKind::Any), "models/a/b/model.json")).unwrap();
        sender.send(event(EventKind::Modify(ModifyKind::Any), "dist/index.html")).unwrap();
        let batch = received.recv_timeout(Duration::from_secs(10)).expect("one batch");
        assert_eq!(batch, [root.join("models/a/b/model.json"), root.join("models/a/c/model.json")]);
        drop(sender);
        worker.join().unwrap();
        assert!(received.try_recv().is_err(), "one burst, one batch");
    }
}
