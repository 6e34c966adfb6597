//! Where a site goes: the `DEST` of `modelpages deploy`, parsed and checked
//! before anything is read or sent, then opened as an `object_store` store.
//!
//! - `file:///srv/www` or a plain path: a local folder, such as a web
//!   server's root. Written through temporary files renamed into place, so a
//!   visitor never gets half a page; folders a removal empties go too.
//! - `s3://bucket/prefix`: S3 or any S3-compatible storage. Endpoint, region
//!   and credentials come from the usual environment variables
//!   (`AWS_ENDPOINT_URL`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
//!   `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`); an `http://` endpoint is
//!   allowed because the user chose it (a local MinIO, a test server).
//! - `https://host/path` (or `http://`): a WebDAV server, with basic
//!   authentication from `MODELPAGES_DEPLOY_USER` and
//!   `MODELPAGES_DEPLOY_PASSWORD`. Credentials in the URL are refused: URLs
//!   end up in messages, shell histories and process lists.
//!
//! Credentials never appear in what the deploy prints or keeps: a
//! destination is shown without them, and every message from the storage
//! library or a host passes through [`Secrets::redact`] first, in case one
//! quotes a request, a header or a URL with a password.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use modelpages_site::destination_folder::DestinationFolder;
use object_store::aws::AmazonS3Builder;
use object_store::http::HttpBuilder;
use object_store::prefix::PrefixStore;
use object_store::{BackoffConfig, ClientOptions, HeaderMap, HeaderValue, RetryConfig};

pub use crate::redact::{Secrets, PASSWORD_ENV, USER_ENV};
use crate::redact::base64;
use crate::remote::Host;
use crate::DeployError;

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    Local(PathBuf),
    S3 { bucket: String, prefix: String },
    WebDav(url::Url),
}

/// A parsed destination.
#[derive(Debug)]
pub struct Destination {
    kind: Kind,
    /// How it is shown and recorded: no credentials, ever.
    pub shown: String,
    pub secrets: Secrets,
}

fn bad(text: &str, message: impl Into<String>) -> DeployError {
    DeployError::Destination { destination: shown_for_error(text), message: Secrets::from_env().redact(&message.into()) }
}

/// `text` as it may be shown in an error about it: without what could be a
/// password (`user:password@`), a query or a fragment.
fn shown_for_error(text: &str) -> String {
    let Some((scheme, rest)) = text.split_once("://") else { return text.to_owned() };
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    format!("{scheme}://{host}{path}")
}

impl Destination {
    /// Parses `DEST`; nothing is contacted yet.
    pub fn parse(text: &str) -> Result<Destination, DeployError> {
        let secrets = Secrets::from_env();
        let Some((scheme, _)) = text.split_once("://") else {
            return local(text, Path::new(text), secrets);
        };
        let url = url::Url::parse(text).map_err(|e| bad(text, format!("not a URL: {e}")))?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(bad(text, format!("credentials in the URL are refused; set {USER_ENV} and {PASSWORD_ENV} (or the AWS_* variables for s3://)")));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(bad(text, "a destination has no query or fragment"));
        }
        match scheme {
            "file" => {
                let path = url.to_file_path().map_err(|()| bad(text, "a file:// URL names an absolute local path"))?;
                local(text, &path, secrets)
            }
            "s3" => {
                let bucket = url.host_str().filter(|b| !b.is_empty()).ok_or_else(|| bad(text, "s3:// needs a bucket: s3://bucket/prefix"))?;
                let prefix = url.path().trim_matches('/').to_owned();
                if !prefix.is_empty() && !modelpages_site::changes::is_site_path(&prefix) {
                    return Err(bad(text, "the prefix must be plain folder names (no `..`, `.` or empty parts)"));
                }
                let endpoint = std::env::var("AWS_ENDPOINT_URL").or_else(|_| std::env::var("AWS_ENDPOINT")).ok();
                let shown = match &endpoint {
                    Some(endpoint) => format!("s3://{bucket}/{prefix} at {}", shown_for_error(endpoint)),
                    None => format!("s3://{bucket}/{prefix}"),
                };
                Ok(Destination { kind: Kind::S3 { bucket: bucket.to_owned(), prefix }, shown, secrets })
            }
            "http" | "https" => {
                let mut url = url;
                // A folder: object paths are appended to it.
                if !url.path().ends_with('/') {
                    url.set_path(&format!("{}/", url.path()));
                }
                Ok(Destination { shown: url.to_string(), kind: Kind::WebDav(url), secrets })
            }
            other => Err(bad(text, format!("`{other}://` is not a destination; use file://, s3:// or https:// (WebDAV)"))),
        }
    }

    /// The local folder, for a `file://` destination.
    pub fn local_root(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Local(path) => Some(path),
            _ => None,
        }
    }

    /// Whether the host keeps the headers sent with a file (a local folder
    /// does not: its web server decides them).
    pub fn keeps_headers(&self) -> bool {
        !matches!(self.kind, Kind::Local(_))
    }

    /// Opens the host. A local folder that does not exist yet is made,
    /// except for a dry run, which sees it as empty.
    pub fn connect(&self, dry_run: bool) -> Result<Host, DeployError> {
        let failed = |e: object_store::Error| DeployError::Destination {
            destination: self.shown.clone(),
            message: self.secrets.redact(&e.to_string()),
        };
        match &self.kind {
            Kind::Local(root) => {
                let folder = DestinationFolder::open(root, !dry_run).map_err(|e| bad(&self.shown, e.to_string()))?;
                Ok(Host::Local(folder))
            }
            Kind::S3 { bucket, prefix } => {
                let mut builder = AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .with_retry(no_retries())
                    .with_client_options(client_options(false, HeaderMap::new()));
                if std::env::var("AWS_REGION").is_err() && std::env::var("AWS_DEFAULT_REGION").is_err() {
                    builder = builder.with_region("us-east-1");
                }
                let endpoint = std::env::var("AWS_ENDPOINT_URL").or_else(|_| std::env::var("AWS_ENDPOINT")).ok();
                if endpoint.as_deref().is_some_and(|e| e.starts_with("http://")) {
                    builder = builder.with_allow_http(true);
                }
                let store = Arc::new(builder.build().map_err(failed)?);
                if prefix.is_empty() {
                    Ok(Host::Store(store))
                } else {
                    Ok(Host::Store(Arc::new(PrefixStore::new(store, prefix.as_str()))))
                }
            }
            Kind::WebDav(url) => {
                let mut headers = HeaderMap::new();
                if let Ok(user) = std::env::var(USER_ENV) {
                    let password = std::env::var(PASSWORD_ENV).unwrap_or_default();
                    let mut value = HeaderValue::from_str(&format!("Basic {}", base64(format!("{user}:{password}").as_bytes())))
                        .map_err(|_| bad(&self.shown, format!("{USER_ENV} or {PASSWORD_ENV} holds a character a header cannot carry")))?;
                    value.set_sensitive(true);
                    headers.insert("authorization", value);
                }
                let store = HttpBuilder::new()
                    .with_url(url.as_str())
                    .with_retry(no_retries())
                    .with_client_options(client_options(url.scheme() == "http", headers))
                    .build()
                    .map_err(failed)?;
                Ok(Host::Store(Arc::new(store)))
            }
        }
    }
}

fn local(text: &str, path: &Path, secrets: Secrets) -> Result<Destination, DeployError> {
    if path.as_os_str().is_empty() {
        return Err(bad(text, "an empty path"));
    }
    let path = std::path::absolute(path).map_err(|e| bad(text, e.to_string()))?;
    Ok(Destination { shown: path.display().to_string(), kind: Kind::Local(path), secrets })
}

/// The deploy retries with its own backoff (see `transfer`), in one place
/// for every store, so the library's own retries are off.
fn no_retries() -> RetryConfig {
    RetryConfig { backoff: BackoffConfig::default(), max_retries: 0, retry_timeout: Duration::from_secs(60) }
}

fn client_options(allow_http: bool, headers: HeaderMap) -> ClientOptions {
    ClientOptions::new()
        .with_allow_http(allow_http)
        .with_connect_timeout(Duration::from_secs(10))
        .with_timeout(Duration::from_secs(120))
        .with_default_headers(headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_parse_and_never_show_credentials() {
        let local = Destination::parse("file:///srv/www").unwrap();
        assert_eq!(local.local_root(), Some(Path::new("/srv/www")));
        assert!(!local.keeps_headers());
        let plain = Destination::parse("site-copy").unwrap();
        assert!(plain.local_root().unwrap().is_absolute());
        let s3 = Destination::parse("s3://bucket/a/b/").unwrap();
        assert_eq!(s3.kind, Kind::S3 { bucket: "bucket".into(), prefix: "a/b".into() });
        // URLs resolve `..` themselves: it never climbs out of the bucket.
        assert_eq!(Destination::parse("s3://bucket/../up").unwrap().kind, Kind::S3 { bucket: "bucket".into(), prefix: "up".into() });
        let dav = Destination::parse("https://dav.example/site").unwrap();
        assert_eq!(dav.shown, "https://dav.example/site/");
        for (text, why) in [
            ("https://alice:hunter2-very-secret@dav.example/", "credentials in the URL are refused"),
            ("s3://bucket/a//b", "plain folder names"),
            ("s3:///prefix", "needs a bucket"),
            ("ftp://host/", "is not a destination"),
            ("https://dav.example/?token=abc", "no query"),
        ] {
            let err = Destination::parse(text).unwrap_err().to_string();
            assert!(err.contains(why), "{text}: {err}");
            assert!(!err.contains("hunter2") && !err.contains("token=abc"), "{err}");
        }
    }

    #[test]
    fn base64_is_standard() {
        assert_eq!(base64(b"user:pass"), "dXNlcjpwYXNz");
        assert_eq!(base64(b"a"), "YQ==");
        assert_eq!(base64(b"ab"), "YWI=");
        assert_eq!(base64(b""), "");
    }
}
