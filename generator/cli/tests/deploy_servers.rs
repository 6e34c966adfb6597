//! `modelpages deploy` against real servers started on 127.0.0.1: moto's S3
//! server and WsgiDAV (see `deploy_common::servers`). What each received is
//! checked from outside the deploy: S3 through boto3 (keys, the MD5 of the
//! bytes the server stored, headers),
//! WebDAV through the folder it serves; requests are counted in the servers'
//! own logs. Every run uses distinctive fake credentials, and no output and
//! no file the deploy keeps may contain them.

use std::collections::BTreeMap;
use std::fs;
use std::process::Stdio;
use std::time::Duration;

use crate::common::*;
use crate::deploy_common::servers::{self, Server};
use crate::deploy_common::*;

const ACCESS_KEY: &str = "AKIAMODELPAGESFAKE7Q";
const SECRET_KEY: &str = "wJalrXUtn-modelpages-FAKE-secret-Zq81";
const DAV_PASSWORD: &str = "dav-FAKE-password-modelpages-5521";

fn s3_env(server: &Server) -> Vec<(&'static str, String)> {
    vec![
        ("AWS_ENDPOINT_URL", server.url()),
        ("AWS_ACCESS_KEY_ID", ACCESS_KEY.to_owned()),
        ("AWS_SECRET_ACCESS_KEY", SECRET_KEY.to_owned()),
        ("AWS_REGION", "us-east-1".to_owned()),
    ]
}

fn env_refs<'a>(env: &'a [(&'static str, String)]) -> Vec<(&'static str, &'a str)> {
    env.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// Every run's output, to look for secrets in at the end.
#[derive(Default)]
struct Transcript(String);

impl Transcript {
    fn keep(&mut self, run: DeployRun) -> DeployRun {
        self.0.push_str(&run.stdout);
        self.0.push_str(&run.stderr);
        run
    }

    /// No secret in any output, nor in any file kept beside the output.
    fn assert_no_secrets(&self, site: &Site, secrets: &[&str]) {
        let mut kept = self.0.clone();
        for name in ["changes", "deploy", "deployed", "manifest"] {
            kept.push_str(&String::from_utf8_lossy(&fs::read(site.root.join(format!(".dist.{name}"))).unwrap_or_default()));
        }
        for secret in secrets {
            assert!(!kept.contains(secret), "a credential was printed or kept: {kept}");
        }
    }
}

/// The site's files as the S3 listing should show them under `prefix`: md5 by key.
fn expected_objects(site: &Site, prefix: &str) -> BTreeMap<String, String> {
    walkdir::WalkDir::new(&site.out)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let rel = e.path().strip_prefix(&site.out).unwrap().to_string_lossy().into_owned();
            let bytes = fs::read(e.path()).unwrap();
            (format!("{prefix}/{rel}"), md5_hex(&bytes))
        })
        .collect()
}

fn md5_hex(bytes: &[u8]) -> String {
    use md5::Digest;
    md5::Md5::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn listed(objects: &serde_json::Value) -> BTreeMap<String, String> {
    objects.as_array().unwrap().iter().map(|o| (o["key"].as_str().unwrap().to_owned(), o["md5"].as_str().unwrap().to_owned())).collect()
}

/// Requests of `method` the S3 server answered with 2xx, from its log.
/// (Removals are `POST /site?delete`, a thousand paths a request.)
fn s3_requests(server: &Server, method: &str) -> usize {
    let to_bucket = [format!("\"{method} /site/"), format!("\"{method} /site?")];
    server.log().lines().filter(|l| to_bucket.iter().any(|t| l.contains(t.as_str())) && l.contains("HTTP/1.1\" 20")).count()
}

#[test]
fn s3_mirrors_the_site_then_sends_only_changes_and_resumes_a_killed_deploy() {
    let site = Site::new(6);
    let server = servers::s3(&site.root);
    let env = s3_env(&server);
    let env = env_refs(&env);
    servers::s3_script(&server, "site", &env, "--create");
    let dest = "s3://site/hub";
    let mut transcript = Transcript::default();

    // First deploy: the bucket holds exactly the site, with its headers.
    let run = transcript.keep(deploy_with(&site.out, dest, &[], &env));
    assert_ok(&run);
    let objects = servers::s3_script(&server, "site", &env, "--headers");
    assert_eq!(listed(&objects), expected_objects(&site, "hub"), "the first deploy mirrors dist/ byte for byte");
    let files = listed(&objects).len();
    assert_eq!(s3_requests(&server, "PUT"), files, "one PUT per file");
    let header = |suffix: &str, field: &str| {
        objects.as_array().unwrap().iter().find(|o| o["key"].as_str().unwrap().ends_with(suffix)).unwrap()[field].clone()
    };
    assert_eq!(header(".css", "cache_control"), "public, max-age=31536000, immutable");
    assert_eq!(header(".css", "content_type"), "text/css; charset=utf-8");
    assert_eq!(header("hub/index.html", "cache_control"), "public, max-age=300");
    assert_eq!(header("hub/index.html", "content_type"), "text/html; charset=utf-8");

    // One model added: only its files and the listings that changed.
    site.add_model("ns9/added");
    site.build();
    let changed = site.change_set()["paths"].as_object().unwrap().len();
    let puts = s3_requests(&server, "PUT");
    let run = transcript.keep(deploy_with(&site.out, dest, &[], &env));
    assert_ok(&run);
    assert_eq!(s3_requests(&server, "PUT") - puts, changed, "{}", run.stderr);
    assert!(changed < files / 2 && run.stderr.contains(&format!("uploaded {changed} files, removed 0")), "{}", run.stderr);
    assert_eq!(listed(&servers::s3_script(&server, "site", &env, "--list")), expected_objects(&site, "hub"));

    // A removed model's files disappear.
    // (and listing files only it filled, such as a search shard).
    let built = snapshot(&site.out);
    fs::remove_dir_all(site.models.join("ns4/model-4")).unwrap();
    site.build();
    let gone = files_gone(&built, &site.out).len();
    assert!(gone >= 3, "{gone}");
    let deletes = s3_requests(&server, "POST");
    let run = transcript.keep(deploy_with(&site.out, dest, &[], &env));
    assert_ok(&run);
    assert!(run.stderr.contains(&format!("removed {gone} ")), "{gone} {}", run.stderr);
    assert_eq!(s3_requests(&server, "POST") - deletes, 1, "one bulk request removes them: {}", server.log());
    let now = listed(&servers::s3_script(&server, "site", &env, "--list"));
    assert!(!now.keys().any(|k| k.contains("model-4")), "{now:?}");
    assert_eq!(now, expected_objects(&site, "hub"));

    // --max-deletes refuses before a single request changes the bucket.
    let built = snapshot(&site.out);
    for i in [1, 2] {
        fs::remove_dir_all(site.models.join(format!("ns{i}/model-{i}"))).unwrap();
    }
    site.build();
    let gone = files_gone(&built, &site.out).len();
    assert!(gone >= 6, "{gone}");
    let (puts, deletes) = (s3_requests(&server, "PUT"), s3_requests(&server, "POST"));
    let limit = (gone - 1).to_string();
    let run = transcript.keep(deploy_with(&site.out, dest, &["--max-deletes", &limit], &env));
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains(&format!("refusing to remove {gone} files")), "{}", run.stderr);
    assert_eq!((s3_requests(&server, "PUT"), s3_requests(&server, "POST")), (puts, deletes));
    assert_ok(&transcript.keep(deploy_with(&site.out, dest, &[], &env)));

    // A deploy killed halfway (to a new prefix, so all is to send) is resumed.
    let again = "s3://site/again";
    let mut child = modelpages()
        .args(["deploy", again, "--out"])
        .arg(&site.out)
        .envs(env.iter().copied())
        .env("MODELPAGES_DEPLOY_PAUSE_MS", "150")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let journal = site.root.join(".dist.deploy");
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while fs::read_to_string(&journal).map_or(0, |j| j.lines().count()) < 17 {
        assert!(std::time::Instant::now() < deadline, "the deploy never got going");
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let sent_before = listed(&servers::s3_script(&server, "site", &env, "--list")).keys().filter(|k| k.starts_with("again/")).count();
    let total = expected_objects(&site, "again").len();
    assert!(sent_before >= 16 && sent_before < total, "killed halfway: {sent_before} of {total}");
    let puts = s3_requests(&server, "PUT");
    let run = transcript.keep(deploy_with(&site.out, again, &[], &env));
    assert_ok(&run);
    let resumed_puts = s3_requests(&server, "PUT") - puts;
    assert!(resumed_puts <= total - sent_before + 8, "resumed, not started over: {resumed_puts} PUTs for {total} files");
    assert!(run.stderr.contains(&format!("uploaded {resumed_puts} files")), "{}", run.stderr);
    let all = listed(&servers::s3_script(&server, "site", &env, "--list"));
    let again_objects: BTreeMap<String, String> = all.into_iter().filter(|(k, _)| k.starts_with("again/")).collect();
    assert_eq!(again_objects, expected_objects(&site, "again"));

    transcript.assert_no_secrets(&site, &[ACCESS_KEY, SECRET_KEY]);
}

#[test]
fn webdav_mirrors_the_site_sends_only_changes_and_keeps_the_password_out_of_sight() {
    let site = Site::new(6);
    let root = site.root.join("dav-root");
    let server = servers::webdav(&site.root, &root, "deployer", DAV_PASSWORD);
    let dest = format!("{}/", server.url());
    let env = [("MODELPAGES_DEPLOY_USER", "deployer"), ("MODELPAGES_DEPLOY_PASSWORD", DAV_PASSWORD)];
    let mut transcript = Transcript::default();
    // Files PUT and stored (created or replaced), from the server's log.
    let stored = |server: &Server| server.log().lines().filter(|l| l.contains("\"PUT /") && (l.contains("-> 201") || l.contains("-> 204"))).count();

    let run = transcript.keep(deploy_with(&site.out, &dest, &[], &env));
    assert_ok(&run);
    assert_eq!(site_files(&root), site_files(&site.out), "the first deploy mirrors dist/ byte for byte");
    assert_eq!(stored(&server), site_files(&site.out).len());

    site.add_model("ns9/added");
    site.build();
    let changed = site.change_set()["paths"].as_object().unwrap().len();
    let before = stored(&server);
    assert_ok(&transcript.keep(deploy_with(&site.out, &dest, &[], &env)));
    assert_eq!(stored(&server) - before, changed);
    assert_eq!(site_files(&root), site_files(&site.out));

    fs::remove_dir_all(site.models.join("ns3/model-3")).unwrap();
    site.build();
    assert_ok(&transcript.keep(deploy_with(&site.out, &dest, &[], &env)));
    assert!(!root.join("ns3/model-3/index.html").exists() && !root.join("api/models/ns3/model-3.json").exists());
    assert_eq!(site_files(&root), site_files(&site.out));

    // A wrong password is an error that does not show it.
    let wrong = "dav-WRONG-password-modelpages-0042";
    let run = transcript.keep(deploy_with(&site.out, &dest, &["--full"], &[("MODELPAGES_DEPLOY_USER", "deployer"), ("MODELPAGES_DEPLOY_PASSWORD", wrong)]));
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("401"), "{}", run.stderr);
    transcript.assert_no_secrets(&site, &[DAV_PASSWORD, wrong]);
}

#[test]
fn a_server_that_comes_up_late_is_waited_for_with_backoff() {
    let site = Site::new(3);
    let root = site.root.join("dav-root");
    let port = servers::free_port();
    let env = [("MODELPAGES_DEPLOY_USER", "deployer"), ("MODELPAGES_DEPLOY_PASSWORD", DAV_PASSWORD)];
    // The deploy starts while nothing listens; the server follows.
    let deploy = std::thread::spawn({
        let out = site.out.clone();
        let dest = format!("http://127.0.0.1:{port}/");
        move || deploy_with(&out, &dest, &[], &env)
    });
    std::thread::sleep(Duration::from_millis(100));
    let server = servers::webdav_starting(&site.root, &root, port, "deployer", DAV_PASSWORD);
    let run = deploy.join().unwrap();
    assert_ok(&run);
    assert!(server.log().contains("\"HEAD /.modelpages-site\""), "the retried request reached the server");
    assert_eq!(site_files(&root), site_files(&site.out));
}

/// What a deploy prints when a host refuses it: no credential, in any form,
/// no terminal escape, and not 200 KB of the server's body.
fn assert_tame(run: &DeployRun, secrets: &[&str]) {
    assert_eq!(run.code, 1, "{}", run.stderr);
    let printed = format!("{}{}", run.stdout, run.stderr);
    for secret in secrets {
        assert!(!printed.contains(secret), "{secret} was printed: {printed}");
    }
    assert!(!printed.chars().any(|c| c.is_control() && c != '\n'), "a control character was printed: {printed:?}");
    assert!(printed.len() < 4000, "{} bytes printed", printed.len());
}

#[test]
fn credentials_and_hostile_answers_never_reach_the_terminal() {
    let site = Site::new(2);
    // WebDAV with a short password, refused by a server that echoes the
    // request: the basic credential, and the password it decodes to.
    let password = "pw9";
    let (port, server) = servers::echo_server(&format!("user deployer password {password} refused"), 8);
    let env = [("MODELPAGES_DEPLOY_USER", "deployer"), ("MODELPAGES_DEPLOY_PASSWORD", password)];
    let run = deploy_with(&site.out, &format!("http://127.0.0.1:{port}/"), &[], &env);
    // base64 of "deployer:pw9"
    assert_tame(&run, &["ZGVwbG95ZXI6cHc5", password, "deployer:pw9"]);
    assert!(run.stderr.contains("403") && run.stderr.contains("[redacted]"), "{}", run.stderr);
    drop(server);

    // An S3 endpoint with a password and a token in its URL, answered the same way.
    let (port, _server) = servers::echo_server("no", 64);
    for endpoint in [format!("http://admin:pw9@127.0.0.1:{port}/?token=tok-FAKE-9876"), "http://admin:pw9@127.0.0.1:1".to_owned()] {
        let env = [
            ("AWS_ENDPOINT_URL", endpoint.as_str()),
            ("AWS_ACCESS_KEY_ID", ACCESS_KEY),
            ("AWS_SECRET_ACCESS_KEY", SECRET_KEY),
            ("AWS_REGION", "us-east-1"),
        ];
        let run = deploy_with(&site.out, "s3://site/hub", &[], &env);
        assert_tame(&run, &[password, "admin", "tok-FAKE-9876", SECRET_KEY]);
        assert!(run.stderr.contains("http://127.0.0.1:"), "the host is still named: {}", run.stderr);
    }
}
