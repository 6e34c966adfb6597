//! The host, as the deploy talks to it: every request retried with
//! exponential backoff, every error told without credentials (see
//! `redact`). A local folder is not an `object_store` store: it is written
//! through `modelpages_site::destination_folder`, which never follows a
//! link, and needs no retries.
//!
//! The storage library's own retries are off (see `destination`), so one
//! policy covers every store: a request that fails in a way that may pass
//! (a dropped connection, a timeout, a 5xx answer, all `Generic` errors to
//! the library) is tried again after 100 ms, 200 ms, 400 ms ... up to 5 s,
//! [`ATTEMPTS`] times in all (some 11 s of waiting, long enough for a
//! server restarting or a throttled bucket); a refusal (not found, forbidden, a bad
//! request the library names) is reported at once.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use modelpages_site::destination_folder::DestinationFolder;
use modelpages_site::output::OutputError;
use object_store::path::Path as StorePath;
use object_store::{Attribute, Attributes, ObjectStore, ObjectStoreExt, PutOptions, PutPayload};

use crate::redact::Secrets;
use crate::plan::RemoteFile;
use crate::DeployError;

/// Tries of one request before the deploy stops (it resumes later).
pub const ATTEMPTS: u32 = 8;
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// Where the files go.
pub enum Host {
    /// S3 or WebDAV.
    Store(Arc<dyn ObjectStore>),
    /// A local folder.
    Local(DestinationFolder),
}

/// The destination's host with what is needed to report on it.
pub struct Remote {
    pub host: Host,
    pub shown: String,
    pub secrets: Secrets,
}

/// Everything on the host, by path.
#[derive(Debug, Default)]
pub struct Listing {
    pub files: BTreeMap<String, RemoteFile>,
    /// Entries of a local folder that are no regular file (links above
    /// all): never written, removed or gone into.
    pub others: Vec<String>,
}

/// Whether the destination is a site this program deployed, or empty.
#[derive(Debug, PartialEq, Eq)]
pub enum Claim {
    /// It has the marker at its root.
    Ours,
    Empty,
    /// It holds this file, and no marker.
    Foreign(String),
}

fn transient(err: &object_store::Error) -> bool {
    matches!(err, object_store::Error::Generic { .. })
}

/// The wait before try `attempt + 1` (0-based).
pub fn backoff(attempt: u32) -> Duration {
    FIRST_BACKOFF.saturating_mul(1 << attempt.min(16)).min(MAX_BACKOFF)
}

/// Runs `request` until it succeeds, fails for good, or has been tried
/// [`ATTEMPTS`] times.
async fn retried<T, F, Fut>(mut request: F) -> Result<T, object_store::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, object_store::Error>>,
{
    let mut attempt = 0;
    loop {
        match request().await {
            Err(err) if transient(&err) && attempt + 1 < ATTEMPTS => {
                tokio::time::sleep(backoff(attempt)).await;
                attempt += 1;
            }
            done => return done,
        }
    }
}

fn location(rel: &str) -> Result<StorePath, object_store::Error> {
    StorePath::parse(rel).map_err(|source| object_store::Error::InvalidPath { source })
}

impl Remote {
    fn failed(&self, action: String) -> impl FnOnce(object_store::Error) -> DeployError + '_ {
        move |err| DeployError::Remote {
            destination: self.shown.clone(),
            action,
            message: self.secrets.redact(&err.to_string()),
        }
    }

    fn local_failed(&self, action: String) -> impl FnOnce(OutputError) -> DeployError + '_ {
        move |err| DeployError::Remote { destination: self.shown.clone(), action, message: self.secrets.redact(&err.to_string()) }
    }

    /// Looks for the marker `marker`, then for any file at all.
    pub async fn claim(&self, marker: &str) -> Result<Claim, DeployError> {
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => {
                let looking = || self.local_failed(format!("looking for {marker}"));
                if folder.size(marker).map_err(looking())?.is_some() {
                    return Ok(Claim::Ours);
                }
                let first = folder.first_entry().map_err(self.local_failed("listing the destination".into()))?;
                return Ok(first.map_or(Claim::Empty, Claim::Foreign));
            }
        };
        let path = location(marker).map_err(self.failed(format!("looking for {marker}")))?;
        match retried(|| store.head(&path)).await {
            Ok(_) => return Ok(Claim::Ours),
            Err(object_store::Error::NotFound { .. }) => {}
            Err(err) => return Err(self.failed(format!("looking for {marker}"))(err)),
        }
        let first = retried(|| async { store.list(None).next().await.transpose() })
            .await
            .map_err(self.failed("listing the destination".into()))?;
        Ok(first.map_or(Claim::Empty, |meta| Claim::Foreign(meta.location.to_string())))
    }

    /// Every file on the host, by path.
    pub async fn list(&self) -> Result<Listing, DeployError> {
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => {
                let found = folder.list().map_err(self.local_failed("listing the destination".into()))?;
                let files = found.files.into_iter().map(|(rel, size)| (rel, RemoteFile { size, e_tag: None })).collect();
                return Ok(Listing { files, others: found.others });
            }
        };
        let listing = retried(|| async {
            let mut files = BTreeMap::new();
            let mut stream = store.list(None);
            while let Some(meta) = stream.next().await {
                let meta = meta?;
                files.insert(meta.location.to_string(), RemoteFile { size: meta.size, e_tag: meta.e_tag });
            }
            Ok(files)
        });
        let files = listing.await.map_err(self.failed("listing the destination".into()))?;
        Ok(Listing { files, others: Vec::new() })
    }

    /// What the host says of the file `rel` (size, and ETag where it gives
    /// one), `None` when it has none.
    pub async fn head(&self, rel: &str) -> Result<Option<RemoteFile>, DeployError> {
        let failed = || self.failed(format!("looking at {rel}"));
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => {
                let size = folder.size(rel).map_err(self.local_failed(format!("looking at {rel}")))?;
                return Ok(size.map(|size| RemoteFile { size, e_tag: None }));
            }
        };
        let path = location(rel).map_err(failed())?;
        match retried(|| store.head(&path)).await {
            Ok(meta) => Ok(Some(RemoteFile { size: meta.size, e_tag: meta.e_tag })),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(err) => Err(failed()(err)),
        }
    }

    /// The host's bytes of `rel`.
    pub async fn fetch(&self, rel: &str) -> Result<Vec<u8>, DeployError> {
        let failed = || self.failed(format!("fetching {rel}"));
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => {
                let bytes = folder.read(rel).map_err(self.local_failed(format!("fetching {rel}")))?;
                return Ok(bytes.unwrap_or_default());
            }
        };
        let path = location(rel).map_err(failed())?;
        let bytes = retried(|| async { store.get(&path).await?.bytes().await }).await.map_err(failed())?;
        Ok(bytes.to_vec())
    }

    /// Uploads `bytes` as `rel`, with these headers when the host keeps them.
    pub async fn upload(&self, rel: &str, bytes: Vec<u8>, headers: Option<(&str, &str)>) -> Result<(), DeployError> {
        let failed = || self.failed(format!("uploading {rel}"));
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => return folder.write(rel, &bytes).map_err(self.local_failed(format!("uploading {rel}"))),
        };
        let path = location(rel).map_err(failed())?;
        let mut attributes = Attributes::new();
        if let Some((content_type, cache_control)) = headers {
            attributes.insert(Attribute::ContentType, content_type.to_owned().into());
            attributes.insert(Attribute::CacheControl, cache_control.to_owned().into());
        }
        let payload = PutPayload::from(bytes);
        retried(|| {
            let options = PutOptions { attributes: attributes.clone(), ..PutOptions::default() };
            store.put_opts(&path, payload.clone(), options)
        })
        .await
        .map(drop)
        .map_err(failed())
    }

    /// Removes every path of `paths` (one already gone counts as removed),
    /// telling `removed` of each. Handed over as one stream, so S3 removes
    /// a thousand a request. Which paths a failed batch request covered is
    /// not always said, so a failure that may pass sends the whole list
    /// again after the backoff: what is gone by then is simply gone.
    pub async fn remove_all(&self, paths: &[String], removed: &(dyn Fn() + Sync)) -> Result<usize, DeployError> {
        let store = match &self.host {
            Host::Store(store) => store,
            Host::Local(folder) => {
                for rel in paths {
                    folder.remove(rel).map_err(self.local_failed(format!("removing {rel}")))?;
                    removed();
                }
                return Ok(paths.len());
            }
        };
        let mut locations: Vec<StorePath> = Vec::with_capacity(paths.len());
        for rel in paths {
            locations.push(location(rel).map_err(self.failed(format!("removing {rel}")))?);
        }
        let mut attempt = 0;
        loop {
            let batch = futures::stream::iter(locations.clone().into_iter().map(Ok)).boxed();
            let mut results = store.delete_stream(batch);
            let mut count = 0;
            let mut failure = None;
            while let Some(result) = results.next().await {
                match result {
                    Ok(_) | Err(object_store::Error::NotFound { .. }) => {
                        count += 1;
                        removed();
                    }
                    Err(err) => failure = Some(err),
                }
            }
            match failure {
                None => return Ok(count),
                Some(err) if transient(&err) && attempt + 1 < ATTEMPTS => {
                    tokio::time::sleep(backoff(attempt)).await;
                    attempt += 1;
                }
                Some(err) => return Err(self.failed("removing files".into())(err)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    #[test]
    fn backoff_doubles_up_to_a_cap() {
        let waits: Vec<u64> = (0..8).map(|a| backoff(a).as_millis() as u64).collect();
        assert_eq!(waits, [100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread().enable_all().start_paused(true).build().unwrap()
    }

    fn generic() -> object_store::Error {
        object_store::Error::Generic { store: "test", source: "connection reset".into() }
    }

    #[test]
    fn transient_errors_are_retried_and_refusals_are_not() {
        let tries = AtomicU32::new(0);
        let outcome = runtime().block_on(retried(|| async {
            if tries.fetch_add(1, Ordering::SeqCst) < 3 { Err(generic()) } else { Ok(7) }
        }));
        assert_eq!((outcome.unwrap(), tries.load(Ordering::SeqCst)), (7, 4));

        tries.store(0, Ordering::SeqCst);
        let outcome: Result<(), _> = runtime().block_on(retried(|| async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(generic())
        }));
        assert!(outcome.is_err());
        assert_eq!(tries.load(Ordering::SeqCst), ATTEMPTS, "gives up after ATTEMPTS tries");

        tries.store(0, Ordering::SeqCst);
        let outcome: Result<(), _> = runtime().block_on(retried(|| async {
            tries.fetch_add(1, Ordering::SeqCst);
            Err(object_store::Error::NotFound { path: "x".into(), source: "gone".into() })
        }));
        assert!(outcome.is_err());
        assert_eq!(tries.load(Ordering::SeqCst), 1, "a refusal is final");
    }
}
