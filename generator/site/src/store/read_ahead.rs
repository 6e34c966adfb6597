//! Rendering in batches, with the next batch's files read while the current
//! one renders.
//!
//! A render thread that reads a model file the OS no longer caches waits for
//! the disk, and with one render thread per core nothing else runs meanwhile.
//! A 100,000-model corpus read cold spent a third of a build in such waits,
//! one small read at a time. Here a wider pool reads the files, many at once,
//! and the render threads only compute.

use std::sync::mpsc;

use modelpages_record::{read_record_files, RecordFiles, RecordError};
use rayon::prelude::*;

use crate::store::io_pool::with_io_threads;
use crate::store::plan::ReadJob;

/// Models per batch: big enough that waiting for a batch's slowest model is
/// rare, small enough that two batches of files take little memory.
const BATCH: usize = 1024;

/// What reading a model's folder gave.
pub type ReadFiles = Result<RecordFiles, RecordError>;

/// Runs `render` on every job with its files, in parallel, a batch at a time,
/// while a helper thread reads the next batch's files. Results keep the order
/// of `jobs`. Stops at the first error, as rendering in one go would.
pub fn render_with_read_ahead<T: Send, E: Send>(
    jobs: Vec<ReadJob>,
    render: impl Fn(ReadJob, ReadFiles) -> Result<T, E> + Sync,
) -> Result<Vec<T>, E> {
    let mut done = Vec::with_capacity(jobs.len());
    std::thread::scope(|scope| {
        // Holds one batch: reading runs at most two batches ahead.
        let (send, receive) = mpsc::sync_channel::<(Vec<ReadJob>, Vec<ReadFiles>)>(1);
        scope.spawn(move || {
            let mut jobs = jobs.into_iter();
            loop {
                let batch: Vec<ReadJob> = jobs.by_ref().take(BATCH).collect();
                if batch.is_empty() {
                    return;
                }
                let files = with_io_threads(|| batch.par_iter().map(|job| read_record_files(&job.source)).collect());
                if send.send((batch, files)).is_err() {
                    return; // rendering stopped early
                }
            }
        });
        for (batch, files) in receive {
            let rendered: Vec<T> =
                batch.into_par_iter().zip(files).map(|(job, files)| render(job, files)).collect::<Result<_, E>>()?;
            done.extend(rendered);
        }
        Ok(done)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use modelpages_record::ModelSource;

    fn job(i: usize) -> ReadJob {
        ReadJob {
            source: ModelSource { dir: format!("/nonexistent/m{i}").into(), folder_id: format!("ns/m{i}") },
            stamp: Default::default(),
            previous: None,
        }
    }

    #[test]
    fn every_job_is_rendered_once_in_order_with_its_own_files() {
        let dir = tempfile::tempdir().unwrap();
        let count = BATCH * 2 + 7;
        let jobs: Vec<ReadJob> = (0..count)
            .map(|i| {
                let folder = dir.path().join(format!("m{i}"));
                std::fs::create_dir(&folder).unwrap();
                std::fs::write(folder.join("model.json"), i.to_string()).unwrap();
                ReadJob { source: ModelSource { dir: folder, folder_id: format!("ns/m{i}") }, stamp: Default::default(), previous: None }
            })
            .collect();
        let pairs: Vec<(String, String)> = render_with_read_ahead(jobs, |job, files| {
            Ok::<_, ()>((job.source.folder_id, String::from_utf8(files.unwrap().record).unwrap()))
        })
        .unwrap();
        let expected: Vec<(String, String)> = (0..count).map(|i| (format!("ns/m{i}"), i.to_string())).collect();
        assert_eq!(pairs, expected);
    }

    #[test]
    fn the_first_error_stops_the_run() {
        let count = BATCH * 3;
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let result = render_with_read_ahead((0..count).map(job).collect(), |j, _| {
            seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if j.source.folder_id == "ns/m5" { Err(j.source.folder_id) } else { Ok(()) }
        });
        assert_eq!(result.unwrap_err(), "ns/m5");
        assert!(seen.into_inner() <= BATCH, "batches after the failing one are not rendered");
    }

    #[test]
    fn no_jobs_is_no_work() {
        let out: Vec<()> = render_with_read_ahead(Vec::new(), |_, _| Ok::<_, ()>(())).unwrap();
        assert!(out.is_empty());
    }
}
