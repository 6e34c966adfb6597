//! A progress bar for builds and deploys that take more than a second, drawn
//! only when stderr is a terminal (logs and CI get the plain summary line alone).

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
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
        let template = format!("{{bar:40}} {{pos}}/{{len}} {} {{rate}} {{eta}} left", self.unit);
        if let Ok(style) = ProgressStyle::with_template(&template) {
            let unit = self.unit;
            self.bar.set_style(style.with_key("rate", move |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                let _ = out.write_str(&rate_text(state.per_sec(), unit));
            }));
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

/// The rate as whole units per second: `1234 models/s`.
pub fn rate_text(per_second: f64, unit: &str) -> String {
    let whole = if per_second.is_finite() && per_second > 0.0 { per_second.round() as u64 } else { 0 };
    format!("{whole} {unit}/s")
}

#[cfg(test)]
mod tests {
    use super::rate_text;

    #[test]
    fn the_rate_is_whole_models_per_second() {
        assert_eq!(rate_text(1234.5678, "models"), "1235 models/s");
        assert_eq!(rate_text(0.4, "files"), "0 files/s");
        assert_eq!(rate_text(f64::NAN, "models"), "0 models/s");
    }
}
