//! A hook for showing a build's progress; the library draws nothing itself.

/// Told how many model pages a build will write and when each is done.
/// Called from several threads at once.
pub trait Progress: Sync {
    fn start(&self, _total: u64) {}
    fn advance(&self) {}
    fn finish(&self) {}
}

/// Shows nothing.
pub struct NoProgress;

impl Progress for NoProgress {}
