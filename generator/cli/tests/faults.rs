//! Faults around the output folder: one that cannot be written, and two
//! builds writing the same site at once. Either way the build says what went
//! wrong, naming the path, and the site is one whole build's.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::common::*;

/// Sets the immutable attribute on a path for as long as it lives. Root
/// ignores permission bits, but not this: nothing may be created, removed
/// or renamed in an immutable folder, nor the folder itself renamed.
struct Immutable(PathBuf);

impl Immutable {
    /// Fails the test where the attribute cannot be set (not root, or a
    /// file system without it): the test that uses it is ignored by default
    /// and run on purpose, so it must not pass without testing anything.
    fn set(path: &Path) -> Immutable {
        match Command::new("chattr").arg("+i").arg(path).output() {
            Ok(out) if out.status.success() => Immutable(path.to_owned()),
            Ok(out) => panic!(
                "chattr +i {} failed (needs root on ext4, xfs or btrfs): {}",
                path.display(),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
            Err(err) => panic!("chattr cannot run: {err}"),
        }
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        let _ = Command::new("chattr").arg("-i").arg(&self.0).status();
    }
}

fn build_run(models: &Path, out: &Path) -> Run {
    build(models, out, &site_src())
}

/// Needs the immutable attribute, which only root can set. Permission bits
/// cannot stand in: root ignores them, and renaming a folder within its
/// parent needs no write permission on the folder itself. `make test` runs
/// it when it runs as root.
#[test]
#[ignore = "sets the immutable attribute (chattr +i): needs root on ext4, xfs or btrfs; run with --ignored"]
fn an_output_that_cannot_be_written_keeps_the_old_site() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    synthetic_corpus(&models, 5, "old");
    let parent = tmp.path().join("www");
    let out = parent.join("dist");
    assert_eq!(build_run(&models, &out).code, 0);
    let old_site = snapshot(&out);
    synthetic_corpus(&models, 6, "new");

    // The folder that holds the output refuses new entries: no staging
    // folder can be made beside the output.
    {
        let _guard = Immutable::set(&parent);
        let run = build_run(&models, &out);
        assert_eq!(run.code, 1, "{}", run.stderr);
        // The lock file (`.dist.lock`, which each build makes and removes),
        // a staging folder (`.dist.tmp-*`) or the in-place transaction's
        // folder (`.dist.txn`): all live beside the output.
        assert!(run.stderr.contains(&parent.join(".dist.").display().to_string()), "names the path: {}", run.stderr);
        assert!(run.stderr.contains("Operation not permitted"), "{}", run.stderr);
        assert!(run.stderr.contains(&format!("{} was left as it was", out.display())), "{}", run.stderr);
        assert_eq!(snapshot(&out), old_site);
    }
    // The output itself cannot be replaced: the new site is complete but
    // the swap is refused at the last step.
    {
        let _guard = Immutable::set(&out);
        let run = build_run(&models, &out);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stderr.contains(&format!("{}", out.display())), "names the path: {}", run.stderr);
        assert!(run.stderr.contains("Operation not permitted"), "{}", run.stderr);
        assert_eq!(snapshot(&out), old_site);
    }
    assert_no_staging_left(&parent);
    // Once writable again, the next build succeeds.
    assert_eq!(build_run(&models, &out).code, 0);
    assert_ne!(snapshot(&out), old_site);
}

#[test]
fn a_second_build_on_the_same_output_stops_with_a_clear_message() {
    let tmp = tempfile::tempdir().unwrap();
    let (models_a, models_b) = (tmp.path().join("a"), tmp.path().join("b"));
    synthetic_corpus(&models_a, 300, "first build");
    synthetic_corpus(&models_b, 7, "second build");
    let out = tmp.path().join("dist");
    let site_a = {
        let reference = tmp.path().join("reference");
        assert_eq!(build_run(&models_a, &reference).code, 0);
        snapshot(&reference)
    };
    // Start the long build, then the short one while the long one is still
    // running (checked after: otherwise there was no overlap, try again).
    for attempt in 0..5 {
        let _ = fs::remove_dir_all(&out);
        let mut first = modelpages()
            .arg("build").arg("--models").arg(&models_a).arg("--out").arg(&out).arg("--site-src").arg(site_src())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300 + 200 * attempt));
        let second = build_run(&models_b, &out);
        let overlapped = first.try_wait().unwrap().is_none();
        let first_out = first.wait_with_output().unwrap();
        if !overlapped {
            continue;
        }
        assert_eq!(first_out.status.code(), Some(0), "{}", String::from_utf8_lossy(&first_out.stderr));
        assert_eq!(second.code, 1, "the second build must not write the site: {}", second.stderr);
        let lock = tmp.path().join(".dist.lock");
        let want = format!("{}: another build is writing this site (lock file {}); wait for it to finish", out.display(), lock.display());
        assert!(second.stderr.contains(&want), "{}", second.stderr);
        assert_eq!(snapshot(&out), site_a, "the site is the first build's, whole");
        return;
    }
    panic!("the second build never started while the first was running");
}
