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
