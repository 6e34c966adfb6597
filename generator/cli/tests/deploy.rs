//! `modelpages deploy` to a local folder (a web server's root), end to end
//! with the real binary: the change set each build records, what a deploy
//! uploads and removes, and what it refuses. The S3 and WebDAV destinations
//! are in `deploy_servers.rs`.
//!
//! A local destination is written by temporary files renamed into place,
//! so every uploaded file gets a new inode: comparing inodes before and
//! after a deploy counts exactly the files it wrote, independently of what
//! the deploy itself reports.

use std::collections::BTreeMap;
use std::fs;
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;
use crate::deploy_common::*;

#[test]
fn first_deploy_mirrors_the_site_then_only_changes_are_sent() {
    let site = Site::new(12);
    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains("the first deploy to this destination"), "{}", run.stderr);
    assert_eq!(site_files(&site.www), site_files(&site.out), "the first deploy mirrors dist/ byte for byte");
    let files = site_files(&site.out).len();
    assert!(run.stderr.contains(&format!("uploaded {files} files, removed 0")), "{}", run.stderr);
    assert_eq!(site.change_set()["paths"], serde_json::json!({}), "a complete deploy consumes the change set");

    // Nothing changed: nothing is sent, and the host is not listed.
    let before = inodes(&site.www);
    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains("uploaded 0 files, removed 0"), "{}", run.stderr);
    assert!(!run.stderr.contains("compared the whole site"), "{}", run.stderr);
    assert_eq!(inodes(&site.www), before);

    // One model added: its files and the listings that changed, nothing else.
    site.add_model("ns9/added");
    site.build();
    let recorded = site.change_set()["paths"].clone();
    assert_eq!(recorded["ns9/added/index.html"], "added", "{recorded}");
    assert_eq!(recorded["index.html"], "changed", "{recorded}");
    assert!(recorded.get("ns1/model-1/index.html").is_none(), "an unchanged page is no change: {recorded}");
    let run = site.deploy(&[]);
    assert_ok(&run);
    let sent = written(&before, &inodes(&site.www));
    let mut expected: Vec<String> = recorded.as_object().unwrap().keys().cloned().collect();
    expected.sort();
    assert_eq!(sent, expected, "exactly the change set is written");
    assert!(sent.iter().any(|p| p == "ns9/added/index.html") && sent.len() < files / 3, "{sent:?}");
    assert!(run.stderr.contains(&format!("uploaded {} files, removed 0", sent.len())), "{}", run.stderr);
    assert_eq!(site_files(&site.www), site_files(&site.out));

    // A model removed: its files disappear from the host, and its folder.
    fs::remove_dir_all(site.models.join("ns2/model-2")).unwrap();
    site.build();
    // Its page, notebook and API file, and listing files it alone filled
    // (here a search shard).
    let gone = files_gone(&snapshot(&site.www), &site.out);
    assert!(gone.contains(&"ns2/model-2/index.html".to_owned()), "{gone:?}");
    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains(&format!("removed {}", gone.len())), "{gone:?} {}", run.stderr);
    assert!(!site.www.join("ns2/model-2").exists(), "the emptied folder goes too");
    assert!(!site.www.join("api/models/ns2/model-2.json").exists());
    assert_eq!(site_files(&site.www), site_files(&site.out));
}

#[test]
fn two_builds_then_one_deploy_send_the_union_and_a_model_added_then_removed_is_a_removal() {
    let site = Site::new(8);
    assert_ok(&site.deploy(&[]));
    let before = inodes(&site.www);
    site.add_model("ns9/first");
    site.build();
    site.add_model("ns9/second");
    fs::remove_dir_all(site.models.join("ns9/first")).unwrap();
    site.build();
    let paths = site.change_set()["paths"].clone();
    assert_eq!(paths["ns9/first/index.html"], "removed", "{paths}");
    assert_eq!(paths["ns9/second/index.html"], "added", "{paths}");
    let run = site.deploy(&["--dry-run"]);
    assert_ok(&run);
    // ns9/first never reached the host: there is nothing there to remove.
    assert!(run.stdout.contains("upload ns9/second/index.html\n") && !run.stdout.contains("ns9/first"), "{}", run.stdout);
    let run = site.deploy(&[]);
    assert_ok(&run);
    let sent = written(&before, &inodes(&site.www));
    assert!(sent.contains(&"ns9/second/index.html".to_owned()) && !sent.iter().any(|p| p.starts_with("ns9/first")), "{sent:?}");
    assert_eq!(site_files(&site.www), site_files(&site.out));
}

#[test]
fn a_dry_run_prints_the_plan_and_changes_nothing() {
    let site = Site::new(5);
    let state = |s: &Site| ["changes", "deployed", "deploy"].map(|n| fs::read(s.root.join(format!(".dist.{n}"))).ok());
    let before = state(&site);
    let run = site.deploy(&["--dry-run"]);
    assert_ok(&run);
    let uploads = run.stdout.lines().filter(|l| l.starts_with("upload ")).count();
    assert_eq!(uploads, site_files(&site.out).len(), "{}", run.stdout);
    assert_eq!(run.stdout.lines().next(), Some("upload .modelpages-site"), "the marker goes first");
    assert!(run.stderr.contains("nothing was changed"), "{}", run.stderr);
    assert!(!site.www.exists(), "a dry run makes no folder");
    assert_eq!(state(&site), before, "nor touches the change set or the journal");

    assert_ok(&site.deploy(&[]));
    fs::remove_dir_all(site.models.join("ns3/model-3")).unwrap();
    site.build();
    let host = snapshot(&site.www);
    let before = state(&site);
    let run = site.deploy(&["--dry-run"]);
    assert_ok(&run);
    assert!(run.stdout.contains("remove ns3/model-3/index.html\n"), "{}", run.stdout);
    assert_eq!(snapshot(&site.www), host);
    assert_eq!(state(&site), before);
}

#[test]
fn max_deletes_refuses_before_anything_is_sent() {
    let site = Site::new(10);
    assert_ok(&site.deploy(&[]));
    for i in [1, 2, 3] {
        fs::remove_dir_all(site.models.join(format!("ns{i}/model-{i}"))).unwrap();
    }
    site.add_model("ns9/new");
    site.build();
    let host = snapshot(&site.www);
    // Three models' files and the listing files only they filled.
    let gone = files_gone(&snapshot(&site.www), &site.out).len();
    assert!(gone >= 9, "{gone}");
    let limit = (gone - 1).to_string();
    let run = site.deploy(&["--max-deletes", &limit]);
    assert_eq!(run.code, 1);
    assert!(
        run.stderr.contains(&format!("refusing to remove {gone} files from"))
            && run.stderr.contains(&format!("more than --max-deletes {limit}")),
        "{}",
        run.stderr
    );
    assert_eq!(snapshot(&site.www), host, "nothing uploaded either");
    let run = site.deploy(&["--dry-run", "--max-deletes", &limit]);
    assert_eq!(run.code, 1, "a dry run says it would be refused");
    assert!(run.stdout.contains("remove ns1/model-1/index.html"), "{}", run.stdout);
    let run = site.deploy(&["--max-deletes", &gone.to_string()]);
    assert_ok(&run);
    assert_eq!(site_files(&site.www), site_files(&site.out));
}

#[test]
fn a_killed_deploy_is_resumed_by_the_next() {
    let site = Site::new(60);
    let total = site_files(&site.out).len();
    // Slowed to 30 ms an upload, 8 at a time: the whole takes about a second.
    let mut child = modelpages()
        .arg("deploy").arg(site.dest()).arg("--out").arg(&site.out)
        .env("MODELPAGES_DEPLOY_PAUSE_MS", "30")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = site.root.join(".dist.deploy");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) < 40 {
        assert!(std::time::Instant::now() < deadline, "the deploy never got going");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // A file being written when the kill came stays in the upload folder,
    // which the next deploy clears.
    let partial: BTreeMap<String, String> = site_files(&site.www).into_iter().filter(|(p, _)| !p.starts_with(".modelpages-upload/")).collect();
    assert!(partial.len() > 30 && partial.len() < total, "killed halfway: {} of {total}", partial.len());
    for (path, hash) in &partial {
        assert_eq!(site_files(&site.out).get(path), Some(hash), "{path}: only whole files of the site");
    }
    assert!(partial.contains_key(".modelpages-site"), "the marker went first");

    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains("finishing an interrupted full deploy"), "{}", run.stderr);
    let uploaded: usize = run.stderr.split("uploaded ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(uploaded <= total - partial.len() + 8, "resumed, not started over: {uploaded} of {total} sent again");
    assert_eq!(site_files(&site.www), site_files(&site.out));
    assert!(!journal.exists(), "a complete deploy removes its journal");
}

#[test]
fn a_deploy_of_an_interrupted_incremental_deploy_skips_what_was_sent() {
    let site = Site::new(10);
    assert_ok(&site.deploy(&[]));
    for i in 0..6 {
        site.add_model(&format!("ns9/added-{i}"));
    }
    site.build();
    // As a killed deploy leaves it: two of the changed files journalled.
    let paths = site.change_set()["paths"].clone();
    let done = ["ns9/added-0/index.html", "ns9/added-1/index.html"];
    let header = format!(r#"{{"version":1,"destination":"{}","full":false}}"#, site.www.display());
    let mut journal = header + "\n";
    for rel in done {
        let bytes = fs::read(site.out.join(rel)).unwrap();
        fs::create_dir_all(site.www.join(rel).parent().unwrap()).unwrap();
        fs::write(site.www.join(rel), &bytes).unwrap();
        journal.push_str(&format!("{} {rel}\n", blake3::hash(&bytes).to_hex()));
    }
    fs::write(site.root.join(".dist.deploy"), journal).unwrap();
    let run = site.deploy(&[]);
    assert_ok(&run);
    let uploads = paths.as_object().unwrap().len();
    assert!(
        run.stderr.contains(&format!("uploaded {} files, removed 0, 2 already sent by an interrupted deploy", uploads - 2)),
        "{}",
        run.stderr
    );
    assert_eq!(site_files(&site.www), site_files(&site.out));
}

#[test]
fn sites_whose_last_build_did_not_finish_are_not_deployed() {
    let site = Site::new(4);
    assert_ok(&site.deploy(&[]));
    site.add_model("ns9/late");
    let failed = build(&site.root.join("missing"), &site.out, &site_src());
    assert_eq!(failed.code, 1);
    let run = site.deploy(&[]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains(".dist.changes: the last build of this site failed"), "{}", run.stderr);
    // A build killed mid-way leaves its transaction, or the set `running`.
    fs::create_dir(site.root.join(".dist.txn")).unwrap();
    let run = site.deploy(&[]);
    assert!(run.code == 1 && run.stderr.contains("a build was cut short while changing the site in place"), "{}", run.stderr);
    fs::remove_dir(site.root.join(".dist.txn")).unwrap();
    let mut set = site.change_set();
    set["state"] = "running".into();
    fs::write(site.root.join(".dist.changes"), set.to_string()).unwrap();
    let run = site.deploy(&[]);
    assert!(run.code == 1 && run.stderr.contains("did not finish"), "{}", run.stderr);
    // The next build cannot know what the killed one changed: the deploy
    // after it compares everything.
    site.build();
    assert_eq!(site.change_set()["whole_site"], true);
    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains("cannot list what changed"), "{}", run.stderr);
    assert_eq!(site_files(&site.www), site_files(&site.out));
}

#[test]
fn a_hostile_change_set_is_refused_and_names_its_file() {
    let site = Site::new(3);
    assert_ok(&site.deploy(&[]));
    let mut set = site.change_set();
    set["paths"] = serde_json::json!({"../../etc/passwd": "changed"});
    fs::write(site.root.join(".dist.changes"), set.to_string()).unwrap();
    let run = site.deploy(&[]);
    assert_eq!(run.code, 1);
    let file = site.root.join(".dist.changes").display().to_string();
    assert!(run.stderr.contains(&format!("{file}: names \"../../etc/passwd\", not a plain relative path inside the output; build the site again")), "{}", run.stderr);
    site.build();
    // A link in the site is never followed to a file outside it.
    fs::write(site.root.join("secret"), "do not publish").unwrap();
    std::os::unix::fs::symlink(site.root.join("secret"), site.out.join("leak.html")).unwrap();
    let run = site.deploy(&["--full"]);
    assert_ok(&run);
    assert!(run.stderr.contains("leak.html is not deployed: a link, a dot file or another entry no build writes"), "{}", run.stderr);
    assert!(!site.www.join("leak.html").exists());
}

#[test]
fn a_full_deploy_repairs_the_host_and_removes_only_what_it_sent() {
    let site = Site::new(6);
    assert_ok(&site.deploy(&[]));
    // Damage the host behind the deploy's back, and add files of its own.
    fs::write(site.www.join("index.html"), "defaced").unwrap();
    fs::remove_file(site.www.join("sitemap.xml")).unwrap();
    fs::write(site.www.join("CNAME"), "hub.example\n").unwrap();
    fs::write(site.www.join("stray.html"), "old").unwrap();
    // The change set knows nothing of it.
    let run = site.deploy(&[]);
    assert_ok(&run);
    assert!(run.stderr.contains("uploaded 0 files"), "{}", run.stderr);
    write(&site.root, "modelpages.toml", "[deploy]\nkeep = [\"CNAME\"]\n");
    let run = modelpages()
        .current_dir(&site.root)
        .args(["deploy", &site.dest(), "--out", "dist", "--full"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    // The stray and CNAME were put there by hand, not by a deploy of this
    // site: both stay; CNAME is also what keep names.
    assert!(stderr.contains("uploaded 2 files, removed 0"), "{stderr}");
    assert!(stderr.contains("note: left alone 1 files on the destination that the site lacks but no deploy of it sent there (first: stray.html)"), "{stderr}");
    assert!(stderr.contains("note: kept 1 files the site lacks, as [deploy] keep says (CNAME)"), "{stderr}");
    let mut host = site_files(&site.www);
    assert!(host.remove("CNAME").is_some(), "kept");
    assert!(host.remove("stray.html").is_some(), "left alone");
    assert_eq!(host, site_files(&site.out));

    // A file the site had and lost is removed by a full deploy: a deploy sent it.
    fs::remove_dir_all(site.models.join("ns1/model-1")).unwrap();
    site.build();
    let run = site.deploy(&["--full"]);
    assert_ok(&run);
    assert!(!site.www.join("ns1/model-1/index.html").exists() && site.www.join("stray.html").exists(), "{}", run.stderr);
}

#[test]
fn foreign_and_overlapping_destinations_are_refused() {
    let site = Site::new(3);
    write(&site.www, "index.html", "someone else's site");
    let run = site.deploy(&[]);
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("not empty and not a site modelpages deployed (it has index.html and no .modelpages-site)"), "{}", run.stderr);
    assert_eq!(fs::read_to_string(site.www.join("index.html")).unwrap(), "someone else's site");
    for dest in [site.out.clone(), site.out.join("sub"), site.root.clone()] {
        let run = deploy(&site.out, &dest.display().to_string(), &[]);
        assert_eq!(run.code, 1, "{}", dest.display());
        assert!(run.stderr.contains("the site's folder"), "{}", run.stderr);
    }
    let run = deploy(&site.root.join("models"), &site.dest(), &[]);
    assert!(run.code == 1 && run.stderr.contains("not a site modelpages built"), "{}", run.stderr);
}

#[test]
fn links_in_a_local_destination_are_never_followed() {
    let site = Site::new(10);
    assert_ok(&site.deploy(&[]));
    // ns1/ on the host becomes a link to a folder elsewhere holding a copy
    // of its pages and files of its own; robots.txt a link to a file there.
    let outside = site.root.join("outside");
    copy_tree(&site.www.join("ns1"), &outside);
    write(&outside, "precious.txt", "precious");
    write(&outside, "model-1/extra.html", "mine");
    fs::remove_dir_all(site.www.join("ns1")).unwrap();
    std::os::unix::fs::symlink(&outside, site.www.join("ns1")).unwrap();
    fs::remove_file(site.www.join("robots.txt")).unwrap();
    std::os::unix::fs::symlink(outside.join("precious.txt"), site.www.join("robots.txt")).unwrap();
    let before = snapshot(&outside);

    let run = site.deploy(&["--full"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("symbolic link") && run.stderr.contains("never follows or replaces"), "{}", run.stderr);
    assert_eq!(snapshot(&outside), before, "nothing outside the destination was removed or written");

    // A change deploy that would write into ns1/ stops at the link too.
    write(&site.models, "ns1/model-1/model.json", r#"{"id": "ns1/model-1", "pipeline_tag": "fill-mask", "downloads": 99}"#);
    site.build();
    let run = site.deploy(&[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains(&format!("{}: is a symbolic link", site.www.join("ns1").display())), "{}", run.stderr);
    assert_eq!(snapshot(&outside), before);
    assert!(fs::symlink_metadata(site.www.join("ns1")).unwrap().file_type().is_symlink(), "the link itself is the owner's");
}
