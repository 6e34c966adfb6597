//! How long each stage of a build took, printed when `MODELPAGES_TIMINGS`
//! is set (see BENCHMARKS.md).

use std::time::Instant;

/// Prints how long each stage took when `MODELPAGES_TIMINGS` is set, for
/// finding where a build spends its time (see BENCHMARKS.md).
/// With the time the last stage ended, and the process's CPU time then:
/// a stage that takes far less CPU than twice its time on two cores waits,
/// or runs on one.
pub(crate) struct StageTimer(Option<std::sync::Mutex<(Instant, f64)>>);

impl StageTimer {
    pub(crate) fn from_env() -> StageTimer {
        StageTimer(std::env::var_os("MODELPAGES_TIMINGS").map(|_| std::sync::Mutex::new((Instant::now(), cpu_seconds()))))
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
            let cpu = cpu_seconds();
            eprintln!("timing: {stage:<16} {:>8.3} s (cpu {:.2} s), {} MB resident{detail}", last.0.elapsed().as_secs_f64(), cpu - last.1, resident_mb());
            *last = (Instant::now(), cpu);
        }
    }
}

/// The CPU time the process has used, user and system, in seconds (0
/// where `/proc` cannot tell; in clock ticks of a hundredth of a second).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command's name, which may hold spaces, in
    // parentheses: user time is the 14th field of the line, system the 15th.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after_name.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
    ticks as f64 / 100.0
}

/// The process's resident memory now, in MB (0 where `/proc` cannot tell).
fn resident_mb() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm").ok().and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok());
    pages.map_or(0, |p| p * 4096 >> 20)
}

