//! One thread pool for work that waits on the file system rather than the
//! processor: looking up, reading, linking or removing hundreds of thousands
//! of small files. Rayon's global pool has one thread per core, which leaves
//! the cores idle while each thread waits on the disk; this one is wider.
//! Every stage that walks many files shares it, so they never stack pools.

/// Runs `work` on a pool wider than the machine: looking up 300,000 paths
/// waits on the file system far more than it computes. One pool serves every
/// stage that needs it (discovery, stamps, keeping pages, removing a tree).
pub fn with_io_threads<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    match POOL.get_or_init(|| rayon::ThreadPoolBuilder::new().num_threads(8).build().ok()) {
        Some(pool) => pool.install(work),
        None => work(),
    }
}
