//! A build killed at any moment leaves a complete site, and the next build
//! succeeds. Kill moments are random but seeded: the seed is printed, and
//! `MODELPAGES_KILL_SEED=<seed>` replays a run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread::sleep;
use std::time::Instant;

use crate::common::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Small enough for 20 trials in a minute or two, large enough that a build
/// takes long enough to be killed in each of its stages.
const MODELS: usize = 120;
const TRIALS: usize = 20;

type Site = BTreeMap<String, String>;

/// One kind of build and what a kill during it may leave. Full builds swap a
/// complete new site in at one point; incremental builds, once they apply
/// changes in place through a commit journal, get a set of their own whose
/// check allows what that design allows.
struct TrialSet {
    name: &'static str,
    build_args: &'static [&'static str],
    /// Whether `now`, the site after a kill, is acceptable; `Ok(true)` when
    /// it is still exactly the previous site.
    after_kill: fn(now: &Site, previous: &Site, next: &Site) -> Result<bool, String>,
}

/// A full build replaces the site in one step: before it the site is the
/// previous one, byte for byte; after it, the next one.
fn previous_or_next(now: &Site, previous: &Site, next: &Site) -> Result<bool, String> {
    if now == previous {
        Ok(true)
    } else if now == next {
        Ok(false)
    } else {
        let changed = now.iter().filter(|(path, hash)| previous.get(*path) != Some(*hash)).count();
        Err(format!("the site is neither the previous nor the next one ({changed} files differ from the previous)"))
    }
}

const FULL_BUILDS: TrialSet = TrialSet { name: "full builds", build_args: &["--full"], after_kill: previous_or_next };

fn seed() -> u64 {
    match std::env::var("MODELPAGES_KILL_SEED") {
        Ok(seed) => seed.parse().expect("MODELPAGES_KILL_SEED is a number"),
        Err(_) => std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64,
    }
}

fn build_with(models: &Path, out: &Path, args: &[&str]) -> Run {
    modelpages()
        .arg("build")
        .args(args)
        .arg("--models").arg(models)
        .arg("--out").arg(out)
        .arg("--site-src").arg(site_src())
        .output()
        .unwrap()
        .into()
}

/// The two versions trials alternate between, each with its reference site.
struct Versions {
    models: PathBuf,
    sites: [Site; 2],
}

impl Versions {
    fn new(root: &Path) -> Versions {
        let models = root.join("models");
        let mut sites: [Site; 2] = Default::default();
        for (version, site) in sites.iter_mut().enumerate() {
            synthetic_corpus(&models, MODELS, &format!("version {version}"));
            let reference = root.join(format!("reference-{version}"));
            let run = build_with(&models, &reference, &["--full"]);
            assert_eq!(run.code, 0, "{}", run.stderr);
            *site = snapshot(&reference);
        }
        assert_ne!(sites[0], sites[1]);
        Versions { models, sites }
    }

    fn switch_to(&self, version: usize) {
        synthetic_corpus(&self.models, MODELS, &format!("version {version}"));
    }
}

fn run_trials(set: &TrialSet, seed: u64) {
    println!("{}: {TRIALS} kills, seed {seed} (MODELPAGES_KILL_SEED={seed} replays them)", set.name);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let tmp = tempfile::tempdir().unwrap();
    let versions = Versions::new(tmp.path());
    let out = tmp.path().join("dist");
    versions.switch_to(0);
    let started = Instant::now();
    let first = build_with(&versions.models, &out, set.build_args);
    assert_eq!(first.code, 0, "{}", first.stderr);
    // Kill moments range over a whole build and a little past it.
    let build_time = started.elapsed();
    let mut kills_before_swap = 0;
    for trial in 0..TRIALS {
        let (previous, next) = (trial % 2, (trial + 1) % 2);
        versions.switch_to(next);
        let delay = build_time.mul_f64(rng.random_range(0.0..1.2));
        let mut child = modelpages()
            .arg("build")
            .args(set.build_args)
            .arg("--models").arg(&versions.models)
            .arg("--out").arg(&out)
            .arg("--site-src").arg(site_src())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        sleep(delay);
        child.kill().unwrap(); // SIGKILL on Unix: no cleanup code runs.
        child.wait().unwrap();
        let now = snapshot(&out);
        match (set.after_kill)(&now, &versions.sites[previous], &versions.sites[next]) {
            Ok(true) => kills_before_swap += 1,
            Ok(false) => {}
            Err(problem) => panic!("{}, trial {trial}, killed after {delay:?} (seed {seed}): {problem}", set.name),
        }
        // The next build succeeds, clears what the killed one left and gives
        // exactly the site a clean build gives.
        let run = build_with(&versions.models, &out, set.build_args);
        assert_eq!(run.code, 0, "{}, trial {trial} (seed {seed}): the build after the kill failed\n{}", set.name, run.stderr);
        assert!(snapshot(&out) == versions.sites[next], "{}, trial {trial} (seed {seed}): the rebuilt site differs", set.name);
        assert_no_staging_left(tmp.path());
    }
    println!("{}: {kills_before_swap} of {TRIALS} kills landed before the swap", set.name);
    assert!(kills_before_swap >= TRIALS / 4, "only {kills_before_swap} kills landed before the swap; the test proved little");
}


#[test]
fn sigkill_at_random_moments_of_full_builds_leaves_a_complete_site() {
    run_trials(&FULL_BUILDS, seed());
}

/// A small change is applied in place through a transaction (see
/// `journal.rs`): killed before its commit point the site is the old one;
/// killed after it, each file is the old or the new one and the next build
/// finishes the change. Either way the next build gives exactly the new site.
#[test]
fn sigkill_during_an_in_place_change_is_finished_or_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    let out = tmp.path().join("dist");
    synthetic_corpus(&models, 300, "first version");
    let old_run = build(&models, &out, &site_src());
    assert_eq!(old_run.code, 0, "{}", old_run.stderr);
    let old_site = snapshot(&out);
    let pristine = tmp.path().join("pristine");
    copy_tree(&out, &pristine);
    let old_manifest = std::fs::read(tmp.path().join(".dist.manifest")).unwrap();

    // Five changed cards, one new model, one deleted model.
    for i in [3, 50, 99, 150, 298] {
        write(&models, &format!("ns{}/model-{i}/README.md", i % 7), &format!("# changed {i}\n"));
    }
    write(&models, "ns9/added/model.json", r#"{"id": "ns9/added", "pipeline_tag": "fill-mask", "downloads": 1000}"#);
    std::fs::remove_dir_all(models.join("ns1/model-8")).unwrap();
    let reference = tmp.path().join("reference");
    assert_eq!(build(&models, &reference, &site_src()).code, 0);
    let new_site = snapshot(&reference);

    let restore = || {
        std::fs::remove_dir_all(&out).unwrap();
        copy_tree(&pristine, &out);
        let _ = std::fs::remove_dir_all(tmp.path().join(".dist.txn"));
        std::fs::write(tmp.path().join(".dist.manifest"), &old_manifest).unwrap();
        fix_site_identity(tmp.path());
    };
    // How long the change takes uninterrupted, to spread the kills over it.
    restore();
    let timer = std::time::Instant::now();
    let run = build(&models, &out, &site_src());
    let took = timer.elapsed();
    assert!(run.stderr.contains("(6 rendered, 294 unchanged)"), "an in-place build of the change: {}", run.stderr);
    assert_eq!(snapshot(&out), new_site);

    let mut outcomes = [0usize; 3]; // old site, new site, committed and pending
    let trials = 12u32;
    for trial in 0..trials {
        restore();
        let mut child = modelpages()
            .arg("build").arg("--models").arg(&models).arg("--out").arg(&out).arg("--site-src").arg(site_src())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        sleep(took * (trial + 1) * 13 / (10 * trials));
        child.kill().unwrap();
        child.wait().unwrap();
        let now = snapshot(&out);
        if now == old_site {
            outcomes[0] += 1;
        } else if now == new_site {
            outcomes[1] += 1;
        } else {
            assert!(tmp.path().join(".dist.txn/plan.json").exists(), "trial {trial}: a mix without a committed plan");
            for (path, hash) in &now {
                assert!(old_site.get(path) == Some(hash) || new_site.get(path) == Some(hash), "trial {trial}: {path} is neither old nor new");
            }
            outcomes[2] += 1;
        }
        let run = build(&models, &out, &site_src());
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.contains("unchanged)"), "{}", run.stderr);
        assert_eq!(snapshot(&out), new_site, "trial {trial}: the next build gives the new site");
        assert!(!tmp.path().join(".dist.txn").exists());
    }
    eprintln!("in-place kills: {} old site, {} new site, {} finished by the next build", outcomes[0], outcomes[1], outcomes[2]);
    assert!(outcomes[0] > 0, "no kill landed before the commit point; the test proved nothing");
}

/// The manifest names the output folder by inode; a restored copy is a new
/// folder, so point the manifest at it (as if the copy were the built site).
fn fix_site_identity(dir: &std::path::Path) {
    use std::os::unix::fs::MetadataExt;
    let path = dir.join(".dist.manifest");
    let bytes = std::fs::read(&path).unwrap();
    let newline = bytes.iter().position(|b| *b == b'\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_slice(&bytes[..newline]).unwrap();
    let meta = std::fs::metadata(dir.join("dist")).unwrap();
    header["site"] = serde_json::json!([meta.dev(), meta.ino()]);
    let mut fixed = header.to_string().into_bytes();
    fixed.extend_from_slice(&bytes[newline..]);
    std::fs::write(&path, fixed).unwrap();
}
