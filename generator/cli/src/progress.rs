//! A progress bar for builds and deploys that take more than a second, drawn
//! only when stderr is a terminal (logs and CI get the plain summary line alone).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use modelpages_site::Progress;

const SHOW_AFTER: Duration = Duration::from_secs(1);

pub struct TerminalProgress {
    bar: ProgressBar,
    /// What is counted: `models`, `files`.
    unit: &'static str,
    started: Instant,
    enabled: bool,
    shown: AtomicBool,
}

impl TerminalProgress {
    pub fn new(unit: &'static str) -> TerminalProgress {
        TerminalProgress {
            unit,
            // Hidden until the build has run for a second.
            bar: ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()),
            started: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
            shown: AtomicBool::new(false),
        }
    }
}

impl Progress for TerminalProgress {
    fn start(&self, total: u64) {
        self.bar.set_length(total);
        let template = format!("{{bar:40}} {{pos}}/{{len}} {} {{per_sec}} {{eta}} left", self.unit);
        if let Ok(style) = ProgressStyle::with_template(&template) {
            self.bar.set_style(style);
        }
    }

    fn advance(&self) {
        self.bar.inc(1);
        if self.enabled && !self.shown.load(Ordering::Relaxed) && self.started.elapsed() > SHOW_AFTER
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
