//! How long each stage of a build took, printed when `MODELPAGES_TIMINGS`
//! is set (see BENCHMARKS.md).

use std::time::Instant;

/// Prints how long each stage took when `MODELPAGES_TIMINGS` is set, for
/// finding where a build spends its time (see BENCHMARKS.md).
pub(crate) struct StageTimer(Option<std::sync::Mutex<Instant>>);

impl StageTimer {
    pub(crate) fn from_env() -> StageTimer {
        StageTimer(std::env::var_os("MODELPAGES_TIMINGS").map(|_| std::sync::Mutex::new(Instant::now())))
    }

    pub(crate) fn lap(&self, stage: &str) {
        self.lap_detail(stage, "");
    }

    /// A line of its own, for what a stage decided and why.
    pub(crate) fn note(&self, text: &str) {
        if self.0.is_some() {
            eprintln!("timing: note: {text}");
        }
    }

    pub(crate) fn lap_detail(&self, stage: &str, detail: &str) {
        if let Some(last) = &self.0 {
            let mut last = last.lock().expect("no panics while held");
            eprintln!("timing: {stage:<16} {:>8.3} s, {} MB resident{detail}", last.elapsed().as_secs_f64(), resident_mb());
            *last = Instant::now();
        }
    }
}

/// The process's resident memory now, in MB (0 where `/proc` cannot tell).
fn resident_mb() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm").ok().and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
    pages.map_or(0, |p| p * 4096 >> 20)
}

