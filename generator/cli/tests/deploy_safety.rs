//! What a deploy must never do, to each kind of destination (a local
//! folder, moto's S3 server, WsgiDAV; see `deploy_common::servers`): remove
//! a file no deploy of the site sent there, send a folder no build wrote or
//! a dot file, trust its journal over the host, or forget `keep` and
//! `--max-deletes` on a removal. Each destination's files are read from
//! outside the deploy.

use std::collections::BTreeMap;
use std::fs;

use crate::common::*;
use crate::deploy_common::servers::TestHost;
use crate::deploy_common::*;

/// The user's own files: `count` of them under `mine/`, written into `dir`.
fn own_files(dir: &std::path::Path, count: usize) -> BTreeMap<String, String> {
    for i in 0..count {
        write(dir, &format!("mine/{i}.txt"), &format!("my file {i}\n"));
    }
    crate::deploy_common::servers::md5_files(dir)
}

fn holds_all(host: &BTreeMap<String, String>, files: &BTreeMap<String, String>) -> bool {
    files.iter().all(|(path, md5)| host.get(path) == Some(md5))
}

/// Each case runs once a destination kind, as `<case>::local`, `::s3`
/// and `::webdav`, each with a server of its own.
macro_rules! on_each_host {
    ($case:ident) => {
        mod $case {
            use super::*;
            #[test]
            fn local() {
                let tmp = tempfile::tempdir().unwrap();
                super::$case(&TestHost::local(tmp.path()));
            }
            #[test]
            fn s3() {
                let tmp = tempfile::tempdir().unwrap();
                super::$case(&TestHost::s3(tmp.path()));
            }
            #[test]
            fn webdav() {
                let tmp = tempfile::tempdir().unwrap();
                super::$case(&TestHost::webdav(tmp.path()));
            }
        }
    };
}

on_each_host!(a_destination_holding_a_copy_of_the_site_and_files_of_its_own_loses_none_of_its_own);
on_each_host!(only_a_site_a_build_wrote_is_deployed_and_never_a_dot_file_of_it);
on_each_host!(a_resumed_deploy_checks_the_host_before_trusting_its_journal);
on_each_host!(every_removal_honours_keep_shows_in_the_dry_run_and_counts);

fn a_destination_holding_a_copy_of_the_site_and_files_of_its_own_loses_none_of_its_own(host: &TestHost) {
    let site = Site::new(6);
    // `cp -a dist/. ~/public_html`: the marker came along, empty or not.
    let mine_dir = site.root.join("mine-src");
    let mine = own_files(&mine_dir, 40);
    host.put_tree(&mine_dir);
    host.put_tree(&site.out);
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(
        run.stderr.contains("uploaded 0 files, removed 0") && run.stderr.contains("note: left alone 40 files on the destination"),
        "{:?}: {}",
        host.kind,
        run.stderr
    );
    let files = host.files();
    assert!(holds_all(&files, &mine), "{:?}: every file of the owner is still there", host.kind);
    assert!(holds_all(&files, &site_files(&site.out)), "{:?}", host.kind);

    // What the site loses goes (it was found there as the site has it);
    // the owner's files stay, under --max-deletes and --full alike.
    let built = snapshot(&site.out);
    fs::remove_dir_all(site.models.join("ns2/model-2")).unwrap();
    site.build();
    let gone = files_gone(&built, &site.out);
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(run.stderr.contains(&format!("removed {}", gone.len())), "{:?}: {gone:?} {}", host.kind, run.stderr);
    let run = deploy_to(host, &site.out, &["--full", "--max-deletes", "0"]);
    assert_ok(&run);
    let files = host.files();
    assert!(holds_all(&files, &mine), "{:?}", host.kind);
    assert!(!gone.iter().any(|path| files.contains_key(path)), "{:?}", host.kind);
    assert_eq!(files.len(), mine.len() + site_files(&site.out).len(), "{:?}: the owner's files and the site", host.kind);
}

fn only_a_site_a_build_wrote_is_deployed_and_never_a_dot_file_of_it(host: &TestHost) {
    let site = Site::new(3);
    // A folder that only has the marker's name: never built.
    let loose = site.root.join("loose");
    write(&loose, ".modelpages-site", "");
    write(&loose, "index.html", "<p>hello</p>");
    write(&loose, ".env", "API_TOKEN=secret-token-value\n");
    write(&loose, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    let run = deploy_to(host, &loose, &[]);
    assert_eq!(run.code, 1, "{:?}: {}", host.kind, run.stderr);
    assert!(run.stderr.contains("not a site modelpages built"), "{}", run.stderr);
    assert!(host.files().is_empty(), "{:?}: nothing was sent", host.kind);

    // A built site with dot files dropped into it: they stay home.
    write(&site.out, ".env", "API_TOKEN=secret-token-value\n");
    write(&site.out, ".ssh/id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n");
    write(&site.out, "ns1/.git/config", "[core]\n");
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(run.stderr.contains("note: .env is not deployed"), "{}", run.stderr);
    let files = host.files();
    let sent_dot: Vec<&String> = files.keys().filter(|p| p.split('/').any(|part| part.starts_with('.')) && *p != ".modelpages-site").collect();
    assert!(sent_dot.is_empty(), "{:?}: {sent_dot:?}", host.kind);
    assert!(files.contains_key(".modelpages-site") && files.contains_key("index.html"));
    // Not even when a change set names one.
    let mut set = site.change_set();
    set["paths"] = serde_json::json!({".env": "added", "ns1/.git/config": "changed"});
    fs::write(site.root.join(".dist.changes"), set.to_string()).unwrap();
    assert_ok(&deploy_to(host, &site.out, &[]));
    assert!(!host.files().keys().any(|p| p == ".env" || p.contains(".git")), "{:?}", host.kind);
}

fn a_resumed_deploy_checks_the_host_before_trusting_its_journal(host: &TestHost) {
    let site = Site::new(30);
    let total = site_files(&site.out).len();
    kill_midway(host, &site.out, 100, 24);
    // The owner empties the destination before the next deploy.
    let partial = host.files().len();
    assert!(partial >= 16 && partial < total, "{:?}: killed halfway: {partial} of {total}", host.kind);
    host.clear();
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(!run.stderr.contains("already sent"), "{}", run.stderr);
    assert_eq!(host.files(), site_files(&site.out), "{:?}: every file, the marker and index.html among them", host.kind);
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(run.stderr.contains("uploaded 0 files, removed 0"), "{}", run.stderr);

    // An interrupted change deploy whose journal names files the host
    // has lost since: they are sent again.
    for i in 0..4 {
        site.add_model(&format!("ns9/added-{i}"));
    }
    site.build();
    let shown = shown_destination(&run);
    let header = serde_json::json!({"version": 1, "destination": shown, "full": false});
    let mut journal = format!("{header}\n");
    for rel in ["ns9/added-0/index.html", "ns9/added-1/index.html"] {
        let bytes = fs::read(site.out.join(rel)).unwrap();
        journal.push_str(&format!("{} {rel}\n", blake3::hash(&bytes).to_hex()));
    }
    fs::write(site.root.join(".dist.deploy"), journal).unwrap();
    let run = deploy_to(host, &site.out, &[]);
    assert_ok(&run);
    assert!(!run.stderr.contains("already sent"), "{}", run.stderr);
    assert_eq!(host.files(), site_files(&site.out), "{:?}", host.kind);
}

fn every_removal_honours_keep_shows_in_the_dry_run_and_counts(host: &TestHost) {
    let site = Site::new(4);
    // CNAME put into the site folder by hand: deployed with it.
    write(&site.out, "CNAME", "hub.example\n");
    assert_ok(&deploy_to(host, &site.out, &[]));
    assert!(host.files().contains_key("CNAME"), "{:?}", host.kind);
    // A full build drops it from the folder, and the change set says so.
    assert_eq!(full_build(&site.models, &site.out, &site_src()).code, 0);
    assert_eq!(site.change_set()["paths"]["CNAME"], "removed");
    let run = deploy_to(host, &site.out, &["--dry-run"]);
    assert_ok(&run);
    assert!(run.stdout.contains("remove CNAME\n"), "{}", run.stdout);
    let run = deploy_to(host, &site.out, &["--max-deletes", "0"]);
    assert_eq!(run.code, 1, "{:?}: {}", host.kind, run.stderr);
    assert!(run.stderr.contains("refusing to remove 1 files"), "{}", run.stderr);
    write(&site.root, "keep.toml", "[deploy]\nkeep = [\"CNAME\"]\n");
    let config = site.root.join("keep.toml").display().to_string();
    let run = deploy_to(host, &site.out, &["--dry-run", "--config", &config]);
    assert!(!run.stdout.contains("remove CNAME"), "{}", run.stdout);
    let run = deploy_to(host, &site.out, &["--config", &config, "--max-deletes", "0"]);
    assert_ok(&run);
    assert!(run.stderr.contains("note: kept 1 files the site lacks, as [deploy] keep says (CNAME)"), "{}", run.stderr);
    assert!(host.files().contains_key("CNAME"), "{:?}: keep spares it", host.kind);
}

#[test]
fn a_file_named_with_a_hash_is_a_file_like_any_other() {
    let tmp = tempfile::tempdir().unwrap();
    let site = Site::new(30);
    let host = TestHost::local(tmp.path());
    // A folder holding only such a file is not empty.
    host.put("invoice#2024", b"paid\n");
    let run = deploy_to(&host, &site.out, &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("not empty and not a site modelpages deployed (it has invoice#2024"), "{}", run.stderr);
    assert_eq!(host.files().len(), 1);

    // Beside a site, a resumed deploy's clean-up leaves it, and its like.
    fs::remove_file(tmp.path().join("www-local/invoice#2024")).unwrap();
    assert_ok(&deploy_to(&host, &site.out, &[]));
    host.put("invoice#2024", b"paid\n");
    host.put("ns1/receipt#7", b"paid\n");
    for i in 0..3 {
        site.add_model(&format!("ns9/late-{i}"));
    }
    assert_eq!(full_build(&site.models, &site.out, &site_src()).code, 0);
    kill_midway(&host, &site.out, 100, 1);
    let run = deploy_to(&host, &site.out, &["--max-deletes", "0"]);
    assert_ok(&run);
    let files = host.files();
    assert!(files.contains_key("invoice#2024") && files.contains_key("ns1/receipt#7"), "{files:?}");
    assert!(!tmp.path().join("www-local/.modelpages-upload").exists(), "nothing half written is left");
}
