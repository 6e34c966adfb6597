//! `modelpages deploy`: puts a built site on a static host, sending only what
//! the builds since the last deploy changed.
//!
//! [`deploy`] runs these steps in order, with plain data between them:
//!
//! 1. [`destination`]: parse `DEST` (a local folder, `s3://`, WebDAV over
//!    `https://`), refusing credentials in it.
//! 2. Open the site under the build's lock (`modelpages_site::deployable`):
//!    only a site this program built in that folder, whose last build
//!    finished, and none of its dot files but the marker. The lock is held
//!    to the end, so no build changes the site while it is sent.
//! 3. [`remote`]: make sure the destination is empty or holds the
//!    `.modelpages-site` marker at its root; anything else is refused. A
//!    marker can be copied, so it allows uploads only: what may be removed
//!    there is what [`sent`] records this site's deploys put there.
//! 4. [`plan`]: the change set, or the whole site compared with a listing
//!    of the host when that is needed (first deploy there, `--full`, an
//!    interrupted full deploy, no record of what was sent there, a change
//!    set that cannot be trusted); then `--max-deletes` is enforced before
//!    anything is sent. A dry run stops here and returns the plan.
//! 5. Send: uploads in waves (what pages link to before the pages), at most
//!    [`JOBS`] at a time, each journalled ([`journal`]) so a deploy cut short
//!    is resumed; what the journal says was sent is trusted only once the
//!    host shows it (a listing, or a look at the file). Then removals.
//!    Headers come from [`headers`]; errors are told through [`redact`].
//! 6. Complete: what the destination now holds from the site is recorded
//!    ([`sent`]), the change set consumed, the destination recorded, the
//!    journal removed.
//!
//! The deploy runs on a tokio runtime of its own, made and dropped inside
//! [`deploy`]: nothing else in the program is asynchronous.

pub mod destination;
pub mod headers;
pub mod journal;
pub mod plan;
pub mod redact;
pub mod remote;
pub mod sent;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use futures::{StreamExt, TryStreamExt};
use modelpages_site::changes::consume_change_set;
use modelpages_site::deployable::{open_for_deploy, DeployableSite, NotDeployable, SiteChanges};
use modelpages_site::output::{lock_output, OutputError};
use modelpages_site::settings::DeploySettings;
use modelpages_site::site_folder::MARKER;
use modelpages_site::Progress;

use crate::destination::Destination;
use crate::headers::Headers;
use crate::journal::{Interrupted, Journal};
use crate::plan::{Plan, Verdict};
use crate::remote::{Claim, Host, Remote};
use crate::sent::Sent;

/// Uploads (or removals, or comparisons) in flight at once: enough to hide
/// the latency of a distant host, few enough not to be throttled by one.
pub const JOBS: usize = 8;

/// Slows every upload by this many milliseconds: for tests that must stop a
/// deploy halfway through (there is no other use for it).
pub const PAUSE_ENV: &str = "MODELPAGES_DEPLOY_PAUSE_MS";

/// What to deploy where.
#[derive(Debug, Clone)]
pub struct DeployOptions {
    pub out_dir: PathBuf,
    /// `DEST` as given.
    pub destination: String,
    /// Print the plan, change nothing.
    pub dry_run: bool,
    /// Compare the whole site with a listing of the host.
    pub full: bool,
    /// Refuse a plan that removes more files than this.
    pub max_deletes: usize,
    pub settings: DeploySettings,
}

/// What a deploy did (or, for a dry run, would do).
#[derive(Debug)]
pub struct DeployReport {
    /// The destination, without credentials.
    pub destination: String,
    pub plan: Plan,
    pub uploaded: usize,
    /// Uploads an interrupted deploy had already made.
    pub resumed: usize,
    pub removed: usize,
    pub dry_run: bool,
    /// Why a dry run's plan would be refused, if it would.
    pub refused: Option<String>,
    pub seconds: f64,
}

/// A deploy that stopped; the host may hold part of the new files (never a
/// removal before every upload is done), and the next deploy resumes.
#[derive(Debug, thiserror::Error)]
pub enum DeployError {
    #[error("destination {destination}: {message}")]
    Destination { destination: String, message: String },
    #[error(transparent)]
    Site(#[from] NotDeployable),
    #[error(transparent)]
    Output(#[from] OutputError),
    #[error("{}: {message}", path.display())]
    State { path: PathBuf, message: String },
    #[error("{destination}: not empty and not a site modelpages deployed (it has {found} and no {MARKER}); choose an empty destination, or empty this one yourself")]
    NotOurs { destination: String, found: String },
    #[error("destination {destination} is {relation} the site's folder {}; choose another", out.display())]
    Overlaps { destination: String, relation: &'static str, out: PathBuf },
    #[error("refusing to remove {count} files from {destination}, more than --max-deletes {max}; look at the plan with --dry-run, then raise --max-deletes")]
    TooManyDeletes { destination: String, count: usize, max: usize },
    #[error("{destination}: {action}: {message}")]
    Remote { destination: String, action: String, message: String },
    #[error("{}: {message}", path.display())]
    SiteFile { path: PathBuf, message: String },
    #[error("cannot start the deploy's runtime: {0}")]
    Runtime(std::io::Error),
}

/// Deploys the site in `options.out_dir` to `options.destination`; see the
/// module's overview. `progress` hears of each upload and removal.
pub fn deploy(options: &DeployOptions, progress: &dyn Progress) -> Result<DeployReport, DeployError> {
    let started = Instant::now();
    let destination = Destination::parse(&options.destination)?;
    let out = &options.out_dir;
    if let Some(root) = destination.local_root() {
        check_apart(root, out, &destination.shown)?;
    }
    let lock = lock_output(out)?;
    let site = open_for_deploy(out, &lock)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(DeployError::Runtime)?;
    let headers = destination.keeps_headers().then(|| Headers::new(&options.settings));
    let remote = Remote {
        host: destination.connect(options.dry_run)?,
        shown: destination.shown.clone(),
        secrets: destination.secrets,
    };
    let mut report = runtime.block_on(async {
        let claim = remote.claim(MARKER).await?;
        if let Claim::Foreign(found) = claim {
            return Err(DeployError::NotOurs { destination: remote.shown.clone(), found });
        }
        let interrupted = journal::read_interrupted(out, &remote.shown)?;
        let sent = Sent::read(out, &remote.shown)?;
        if let (Host::Local(folder), false) = (&remote.host, options.dry_run) {
            folder.clear_uploads().map_err(|e| DeployError::Destination { destination: remote.shown.clone(), message: e.to_string() })?;
        }
        let carried = interrupted.as_ref().map(|i| i.done.clone()).unwrap_or_default();
        // What a deploy of this site put there: only that is ever removed.
        let ours = |rel: &str| carried.contains_key(rel) || sent.as_ref().is_some_and(|s| s.contains(rel));
        let why_full = why_full(options, &claim, &site, interrupted.as_ref(), sent.is_some(), &remote.shown)?;
        let (plan, site_files) = match why_full {
            Some(why) => {
                let (plan, files) = full_plan(&site, &remote, &options.settings.keep, why, &ours).await?;
                (plan, Some(files))
            }
            None => (change_plan(&site, &options.settings.keep, &ours), None),
        };
        let too_many = (plan.removals.len() > options.max_deletes).then(|| DeployError::TooManyDeletes {
            destination: remote.shown.clone(),
            count: plan.removals.len(),
            max: options.max_deletes,
        });
        let mut report = DeployReport {
            destination: remote.shown.clone(),
            plan,
            uploaded: 0,
            resumed: 0,
            removed: 0,
            dry_run: options.dry_run,
            refused: None,
            seconds: 0.0,
        };
        if options.dry_run {
            report.refused = too_many.map(|e| e.to_string());
            return Ok(report);
        }
        if let Some(err) = too_many {
            return Err(err);
        }
        let journal = Journal::begin(out, &remote.shown, report.plan.full.is_some(), &carried)?;
        let send = Sender {
            site: &site,
            remote: &remote,
            headers: headers.as_ref(),
            journal: &journal,
            // A full plan compared every file with a listing of the host:
            // that, not the journal, said what to send.
            carried: if report.plan.full.is_some() { None } else { Some(&carried) },
            progress,
        };
        progress.start((report.plan.upload_count() + report.plan.removals.len()) as u64);
        for wave in &report.plan.waves {
            for upload in send.uploads(wave).await? {
                match upload {
                    Upload::Uploaded => report.uploaded += 1,
                    Upload::AlreadyThere => report.resumed += 1,
                }
            }
        }
        report.removed = send.removals(&report.plan.removals).await?;
        progress.finish();
        let plan = &report.plan;
        let holds = match &site_files {
            // The host now has every file of the site, and of the rest only
            // what `keep` spared.
            Some(files) => {
                let kept = plan.kept.iter().filter(|rel| ours(rel));
                sent::updated(None, files.iter().chain(kept).map(String::as_str), &[])
            }
            None => sent::updated(sent.as_ref(), plan.uploads().chain(carried.keys()).map(String::as_str), &plan.removals),
        };
        sent::record(out, &remote.shown, holds)?;
        if let Host::Local(folder) = &remote.host {
            folder.clear_uploads().map_err(|e| DeployError::Destination { destination: remote.shown.clone(), message: e.to_string() })?;
        }
        consume_change_set(out, &lock)?;
        journal::record_destination(out, &remote.shown)?;
        journal.complete()?;
        Ok(report)
    })?;
    drop(lock);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Why this deploy must compare the whole site with the host, if it must.
fn why_full(
    options: &DeployOptions,
    claim: &Claim,
    site: &DeployableSite,
    interrupted: Option<&Interrupted>,
    has_record: bool,
    shown: &str,
) -> Result<Option<String>, DeployError> {
    if options.full {
        return Ok(Some("--full".into()));
    }
    if *claim == Claim::Empty {
        return Ok(Some("the first deploy to this destination".into()));
    }
    if interrupted.is_some_and(|i| i.full) {
        return Ok(Some("finishing an interrupted full deploy".into()));
    }
    if journal::last_destination(site.out())?.as_deref() != Some(shown) {
        return Ok(Some("the site's last complete deploy went elsewhere, or there was none".into()));
    }
    if !has_record {
        return Ok(Some("no record of what was sent there (deployed by an earlier version)".into()));
    }
    Ok(match &site.changes {
        SiteChanges::WholeSite { why } => Some((*why).to_owned()),
        SiteChanges::Paths { .. } => None,
    })
}

/// The plan the change set makes; `ours` says what a deploy of this site
/// sent to the destination, which alone may be removed.
fn change_plan(site: &DeployableSite, keep: &[String], ours: &dyn Fn(&str) -> bool) -> Plan {
    let SiteChanges::Paths { uploads, removals } = &site.changes else {
        unreachable!("a whole-site change set is planned in full")
    };
    plan::from_changes(uploads.clone(), removals.clone(), |rel| site.read(rel).is_ok_and(|b| b.is_some()), keep, ours)
}

/// The plan a comparison of the whole site with the host makes, and the
/// site's files.
async fn full_plan(
    site: &DeployableSite,
    remote: &Remote,
    keep: &[String],
    why: String,
    ours: &dyn Fn(&str) -> bool,
) -> Result<(Plan, Vec<String>), DeployError> {
    let (files, skipped) = site.list()?;
    let local: BTreeSet<String> = files.iter().cloned().collect();
    let listing = remote.list().await?;
    // A link (or any odd entry) where a file of the site goes, or on its
    // way: never written through or replaced.
    let blocked = listing.others.iter().find(|other| {
        local.contains(*other) || local.range(format!("{other}/")..).next().is_some_and(|f| f.starts_with(&format!("{other}/")))
    });
    if let Some(blocked) = blocked {
        return Err(DeployError::Remote {
            destination: remote.shown.clone(),
            action: format!("writing {blocked}"),
            message: "is a symbolic link or no regular file in the destination, where the site has a file; a deploy never follows or replaces one: remove it, then deploy again".into(),
        });
    }
    let listing = &listing.files;
    let verdicts: Vec<(String, bool)> = futures::stream::iter(files.iter())
        .map(|rel| async move {
            let Some(known) = listing.get(rel) else { return Ok((rel.clone(), false)) };
            let bytes = read_site_file(site, rel)?;
            let same = match plan::compare(&bytes, known) {
                Verdict::Same => true,
                Verdict::Differs => false,
                Verdict::Fetch => remote.fetch(rel).await? == bytes,
            };
            Ok::<_, DeployError>((rel.clone(), same))
        })
        .buffer_unordered(JOBS)
        .try_collect()
        .await?;
    let unchanged = verdicts.iter().filter(|(_, same)| *same).count();
    let uploads = verdicts.into_iter().filter(|(_, same)| !same).map(|(rel, _)| rel);
    let strays = plan::strays(listing, &local, keep, ours);
    let plan = Plan {
        full: Some(why),
        waves: plan::into_waves(uploads),
        removals: strays.removals,
        unchanged,
        skipped,
        left_alone: strays.left_alone,
        kept: strays.kept,
    };
    Ok((plan, files))
}

fn read_site_file(site: &DeployableSite, rel: &str) -> Result<Vec<u8>, DeployError> {
    site.read(rel)?.ok_or_else(|| DeployError::SiteFile {
        path: site.out().join(rel),
        message: "is in the plan but not in the site".into(),
    })
}

/// How one upload ended.
enum Upload {
    Uploaded,
    /// An interrupted deploy had sent these very bytes.
    AlreadyThere,
}

/// Step 5 of a deploy: sending the plan.
struct Sender<'a> {
    site: &'a DeployableSite,
    remote: &'a Remote,
    headers: Option<&'a Headers>,
    journal: &'a Journal,
    /// What an interrupted deploy says it sent, by path with the hash of
    /// the bytes, when the plan did not come from a listing of the host.
    carried: Option<&'a HashMap<String, String>>,
    progress: &'a dyn Progress,
}

impl Sender<'_> {
    async fn uploads(&self, wave: &[String]) -> Result<Vec<Upload>, DeployError> {
        let pause = std::env::var(PAUSE_ENV).ok().and_then(|ms| ms.parse().ok()).map(std::time::Duration::from_millis);
        futures::stream::iter(wave)
            .map(|rel| async move {
                let bytes = read_site_file(self.site, rel)?;
                let hash = blake3::hash(&bytes).to_hex().to_string();
                if self.carried.is_some_and(|c| c.get(rel) == Some(&hash)) {
                    // Already in this journal (`Journal::begin` carried it
                    // over), if the host still has it: it may have been
                    // emptied or changed since the deploy was cut short.
                    let there = self.remote.head(rel).await?;
                    if there.is_some_and(|file| plan::compare(&bytes, &file) != Verdict::Differs) {
                        self.progress.advance();
                        return Ok(Upload::AlreadyThere);
                    }
                }
                if let Some(pause) = pause {
                    tokio::time::sleep(pause).await;
                }
                let headers = self.headers.map(|h| (h.content_type(rel), h.cache_control(rel)));
                self.remote.upload(rel, bytes, headers).await?;
                self.journal.uploaded(rel, &hash)?;
                self.progress.advance();
                Ok(Upload::Uploaded)
            })
            .buffer_unordered(JOBS)
            .try_collect()
            .await
    }

    async fn removals(&self, removals: &[String]) -> Result<usize, DeployError> {
        if removals.is_empty() {
            return Ok(0);
        }
        self.remote.remove_all(removals, &|| self.progress.advance()).await
    }
}

/// A local destination must not be the site's folder, lie inside it or hold
/// it: the deploy would upload into what it reads, or remove the site.
fn check_apart(root: &Path, out: &Path, shown: &str) -> Result<(), DeployError> {
    let resolve = |p: &Path| p.canonicalize().unwrap_or_else(|_| std::path::absolute(p).unwrap_or_else(|_| p.to_owned()));
    let (root, site) = (resolve(root), resolve(out));
    let relation = if root == site {
        "the same folder as"
    } else if root.starts_with(&site) {
        "inside"
    } else if site.starts_with(&root) {
        "a folder that holds"
    } else {
        return Ok(());
    };
    Err(DeployError::Overlaps { destination: shown.to_owned(), relation, out: out.to_owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_local_destination_stays_apart_from_the_site() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        std::fs::create_dir(&out).unwrap();
        assert!(check_apart(&tmp.path().join("www"), &out, "www").is_ok());
        for (root, relation) in [(out.clone(), "the same folder as"), (out.join("sub"), "inside"), (tmp.path().to_owned(), "a folder that holds")] {
            let err = check_apart(&root, &out, "d").unwrap_err().to_string();
            assert!(err.contains(relation), "{err}");
        }
    }
}
