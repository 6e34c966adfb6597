//! A build killed at any moment leaves a complete site: the old one or the new one.

mod common;

use std::process::Stdio;
use std::thread::sleep;
use std::time::Duration;

use common::*;

#[test]
fn sigkill_at_any_moment_leaves_a_complete_site() {
    let tmp = tempfile::tempdir().unwrap();
    let models = tmp.path().join("models");
    let out = tmp.path().join("dist");
    synthetic_corpus(&models, 1500, "first version");
    assert_eq!(build(&models, &out, &site_src()).code, 0);
    let old_site = snapshot(&out);

    synthetic_corpus(&models, 1500, "second version");
    let reference = tmp.path().join("reference");
    assert_eq!(build(&models, &reference, &site_src()).code, 0);
    let new_site = snapshot(&reference);
    assert_ne!(old_site, new_site);

    // Delays from "before anything is written" to "after the swap".
    let mut kills_before_swap = 0;
    for trial in 0..10u64 {
        let mut child = modelpages()
            .arg("build")
            .arg("--models").arg(&models)
            .arg("--out").arg(&out)
            .arg("--site-src").arg(site_src())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        sleep(Duration::from_millis(trial * 90));
        child.kill().unwrap(); // SIGKILL on Unix: no cleanup code runs.
        child.wait().unwrap();
        let now = snapshot(&out);
        assert!(now == old_site || now == new_site, "trial {trial}: the site is a mix of two builds");
        if now == old_site {
            kills_before_swap += 1;
        }
    }
    assert!(kills_before_swap > 0, "no kill landed before the swap; the test proved nothing");

    // The next build succeeds and clears what the killed ones left behind.
    let run = build(&models, &out, &site_src());
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(snapshot(&out), new_site);
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
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
    let old_manifest = std::fs::read(tmp.path().join(".dist.manifest.json")).unwrap();

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
        std::fs::write(tmp.path().join(".dist.manifest.json"), &old_manifest).unwrap();
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
    let path = dir.join(".dist.manifest.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, models) = text.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(header).unwrap();
    let meta = std::fs::metadata(dir.join("dist")).unwrap();
    header["site"] = serde_json::json!([meta.dev(), meta.ino()]);
    std::fs::write(&path, format!("{header}\n{models}")).unwrap();
}
