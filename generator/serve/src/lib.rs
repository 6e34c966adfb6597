//! `modelpages serve`: a local preview of the site. It builds, serves the
//! output folder on 127.0.0.1, watches the models, the site sources and the
//! settings file, rebuilds incrementally on change and reloads open pages.
//! A failed build or model is reported in the terminal and over the page;
//! it never stops the server.
//!
//! Threads: one accepts connections (and one more per request or open
//! event stream, up to a fixed number: see `listen`), one runs builds one
//! after another, and the watcher's own. [`Preview::stop`] ends them all
//! (a request being answered finishes first, on its own thread).

mod heads;
mod http;
mod listen;
mod live;
mod relative;
mod watch;
mod wire;

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{SystemTime, UNIX_EPOCH};

use modelpages_site::{build_site, BaseUrl, BuildOptions, NoProgress, SettingsSource};

pub use listen::{MAX_EVENT_STREAMS, MAX_REQUESTS};
pub use live::{BuildStatus, EVENTS_PATH, LIVE_SCRIPT_PATH};

use http::SiteFiles;
use listen::Acceptor;
use live::LiveReload;
use relative::RelativePaths;
use watch::{WatchedPaths, Watcher};

/// What to build and serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub models_dir: PathBuf,
    pub out_dir: PathBuf,
    pub site_src: PathBuf,
    pub settings: SettingsSource,
    /// On 127.0.0.1; 0 picks a free port.
    pub port: u16,
    /// Render every page in the first build (`--full`); later builds are incremental.
    pub full_first_build: bool,
}

/// Why the preview could not start. Build failures are not among them: they
/// are shown, and the preview goes on.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot listen on 127.0.0.1:{port}: {message}")]
    Listen { port: u16, message: String },
    #[error("cannot watch {}: {message}", path.display())]
    Watch { path: PathBuf, message: String },
    #[error("cannot handle Ctrl-C: {0}")]
    Signal(#[from] ctrlc::Error),
}

/// Where the preview reports builds: the terminal, or a test's buffer.
pub trait Terminal: Send + Sync {
    fn line(&self, text: &str);
}

/// A running preview.
pub struct Preview {
    url: String,
    live: Arc<LiveReload>,
    triggers: Sender<Trigger>,
    builder: JoinHandle<()>,
    acceptor: Acceptor,
}

enum Trigger {
    Changed(Vec<PathBuf>),
    Stop,
}

impl Preview {
    /// Listens, starts watching, runs the first build and returns once it is
    /// done (its outcome is printed and served like any other).
    pub fn start(options: ServeOptions, terminal: Arc<dyn Terminal>) -> Result<Preview, ServeError> {
        let listen_error = |e: std::io::Error| ServeError::Listen { port: options.port, message: e.to_string() };
        let listener = TcpListener::bind(("127.0.0.1", options.port)).map_err(listen_error)?;
        let port = listener.local_addr().map_err(listen_error)?.port();
        let live = Arc::new(LiveReload::default());
        let mount = Arc::new(Mutex::new("/".to_owned()));
        let site = Arc::new(SiteFiles { root: options.out_dir.clone(), mount: Arc::clone(&mount), live: Arc::clone(&live) });
        let acceptor = Acceptor::start(listener, port, site);

        let (triggers, pending) = mpsc::channel();
        let paths = WatchedPaths::new(&options.models_dir, &options.site_src, &options.settings.path, &options.out_dir)?;
        let on_change = {
            let triggers = triggers.clone();
            move |paths| {
                let _ = triggers.send(Trigger::Changed(paths));
            }
        };
        let on_error = {
            let terminal = Arc::clone(&terminal);
            move |message: String| terminal.line(&format!("warning: watching files: {message}"))
        };
        let watcher = Watcher::start(paths, on_change, on_error)?;
        let relative = match std::env::current_dir() {
            Ok(cwd) => {
                let given = [&options.models_dir, &options.out_dir, &options.site_src, &options.settings.path];
                RelativePaths::new(&cwd, &given.map(PathBuf::as_path))
            }
            Err(_) => RelativePaths::default(),
        };
        let builder = Builder { options, terminal, live: Arc::clone(&live), mount, relative, server_id: server_id(), builds: 0 };
        let (first_done, first_build) = mpsc::channel();
        let builder = std::thread::spawn(move || builder.run(watcher, pending, first_done));
        let _ = first_build.recv();
        Ok(Preview { url: format!("http://127.0.0.1:{port}/"), live, triggers, builder, acceptor })
    }

    /// The address pages are served at.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Stops watching, lets a running build finish (so the output is never
    /// left half swapped), ends the event streams and stops listening.
    pub fn stop(self) {
        let _ = self.triggers.send(Trigger::Stop);
        let _ = self.builder.join();
        self.live.close();
        self.acceptor.stop();
    }
}

/// Runs a preview until Ctrl-C (or SIGTERM), then stops it cleanly. A second
/// Ctrl-C while stopping exits at once.
pub fn serve_until_interrupted(options: ServeOptions, terminal: Arc<dyn Terminal>) -> Result<(), ServeError> {
    let (interrupted, interrupt) = mpsc::channel();
    let stopping = std::sync::atomic::AtomicBool::new(false);
    ctrlc::set_handler(move || {
        if stopping.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(130);
        }
        let _ = interrupted.send(());
    })?;
    let preview = Preview::start(options, Arc::clone(&terminal))?;
    terminal.line(&format!("serving {} (Ctrl-C to stop)", preview.url()));
    let _ = interrupt.recv();
    terminal.line("stopping");
    preview.stop();
    Ok(())
}

/// Runs builds one after another on its own thread.
struct Builder {
    options: ServeOptions,
    terminal: Arc<dyn Terminal>,
    live: Arc<LiveReload>,
    mount: Arc<Mutex<String>>,
    /// Pages get the build's messages with the paths written by this.
    relative: RelativePaths,
    server_id: String,
    builds: u64,
}

impl Builder {
    fn run(mut self, mut watcher: Watcher, pending: Receiver<Trigger>, first_done: Sender<()>) {
        self.build(self.options.full_first_build, true);
        let _ = first_done.send(());
        while let Ok(Trigger::Changed(mut changed)) = pending.recv() {
            // Changes that came in while the last build ran make one build.
            while let Ok(next) = pending.try_recv() {
                match next {
                    Trigger::Changed(more) => changed.extend(more),
                    Trigger::Stop => return,
                }
            }
            changed.sort();
            changed.dedup();
            let more = if changed.len() > 1 { format!(" and {} more", changed.len() - 1) } else { String::new() };
            self.terminal.line(&format!("changed: {}{more}; rebuilding", changed[0].display()));
            self.build(false, false);
            if let Err(err) = watcher.watch_new_site_dirs() {
                self.terminal.line(&format!("warning: {err}"));
            }
        }
    }

    /// One build; its outcome goes to the terminal and to every open page.
    fn build(&mut self, full: bool, first: bool) {
        self.builds += 1;
        let out = &self.options.out_dir;
        let (summary, errors) = match self.options.settings.load() {
            Err(err) => (format!("settings not read; {} was left as it was", out.display()), vec![err.to_string()]),
            Ok(settings) => {
                *self.mount.lock().unwrap_or_else(|e| e.into_inner()) = mount_path(&settings.base_url);
                let options = BuildOptions {
                    models_dir: self.options.models_dir.clone(),
                    out_dir: out.clone(),
                    site_src: self.options.site_src.clone(),
                    settings,
                    settings_file: Some(self.options.settings.path.clone()),
                    incremental: !full,
                    // The preview surveys the folder it watches.
                    changed: None,
                };
                match build_site(&options, &NoProgress) {
                    Ok(report) => {
                        // Notes are the same on every build: once is enough.
                        for note in report.notes.iter().filter(|_| first) {
                            self.terminal.line(&format!("note: {note}"));
                        }
                        let summary = format!(
                            "built {} models, {} failed in {:.2}s ({} rendered, {} unchanged)",
                            report.built,
                            report.errors.len(),
                            report.seconds,
                            report.rendered,
                            report.built.saturating_sub(report.rendered)
                        );
                        (summary, report.errors.iter().map(ToString::to_string).collect())
                    }
                    Err(err) => (format!("build failed; {} was left as it was", out.display()), vec![err.to_string()]),
                }
            }
        };
        for error in &errors {
            self.terminal.line(&format!("error: {error}"));
        }
        self.terminal.line(&summary);
        self.live.publish(&BuildStatus {
            server: self.server_id.clone(),
            build: self.builds,
            ok: errors.is_empty(),
            summary: self.relative.apply(&summary),
            errors: errors.iter().map(|error| self.relative.apply(error)).collect(),
        });
    }
}

/// The URL path a base URL puts the site under (`https://x/hub` -> `/hub/`):
/// the path its pages link to. One the build refuses mounts at `/` (the
/// build reports why).
fn mount_path(base_url: &str) -> String {
    BaseUrl::parse(base_url).map_or_else(|_| "/".to_owned(), |base| base.path().to_owned())
}

/// Differs between two runs of the server, so pages open across a restart reload.
fn server_id() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{}-{nanos}", std::process::id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mount_paths() {
        assert_eq!(mount_path("/"), "/");
        assert_eq!(mount_path("/hub"), "/hub/");
        assert_eq!(mount_path("/hub/"), "/hub/");
        assert_eq!(mount_path("https://hub.example"), "/");
        assert_eq!(mount_path("https://hub.example/models/v1/"), "/models/v1/");
    }
}
