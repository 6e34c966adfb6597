//! Serving the output folder: files only from inside it, content types by
//! extension, `index.html` for folders, the site's 404 page, and the live
//! reload script added to every HTML page.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use percent_encoding::percent_decode_str;

use crate::live::{LiveReload, EVENTS_PATH, LIVE_SCRIPT, LIVE_SCRIPT_PATH};
use crate::wire::{write_response, Request};

/// What the request handlers share.
pub struct SiteFiles {
    /// The output folder the builds write.
    pub root: PathBuf,
    /// The URL path the site lives under (the base URL's path, `/` by default).
    pub mount: Arc<Mutex<String>>,
    pub live: Arc<LiveReload>,
}

/// What a URL path leads to.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    File(PathBuf),
    Redirect(String),
    NotFound,
}

/// Maps a URL path (without query) to a file under `root`. Never leaves
/// `root`: `..` segments (plain or percent-encoded) are refused and symbolic
/// links must lead to a file inside it.
pub fn resolve(root: &Path, mount: &str, url_path: &str) -> Resolved {
    let Some(rest) = url_path.strip_prefix(mount) else {
        // `/hub` and `/` lead to a site that lives under `/hub/`.
        let parent_of_mount = url_path == "/" || format!("{url_path}/") == mount;
        return if parent_of_mount { Resolved::Redirect(mount.to_owned()) } else { Resolved::NotFound };
    };
    let Ok(decoded) = percent_decode_str(rest).decode_utf8() else { return Resolved::NotFound };
    let mut path = root.to_path_buf();
    for segment in decoded.split('/').filter(|s| !s.is_empty()) {
        if segment == "." || segment == ".." || segment.contains(['\\', '\0']) {
            return Resolved::NotFound;
        }
        path.push(segment);
    }
    let (Ok(real), Ok(real_root)) = (path.canonicalize(), root.canonicalize()) else { return Resolved::NotFound };
    if !real.starts_with(&real_root) {
        return Resolved::NotFound;
    }
    if real.is_dir() {
        if !url_path.ends_with('/') {
            // One leading slash: `//host/x` would send the browser to another host.
            return Resolved::Redirect(format!("/{}/", url_path.trim_start_matches('/')));
        }
        let index = real.join("index.html");
        return if index.is_file() { Resolved::File(index) } else { Resolved::NotFound };
    }
    if real.is_file() {
        Resolved::File(real)
    } else {
        Resolved::NotFound
    }
}

/// The content type of a site file, by extension (the site's one table).
pub fn content_type(path: &Path) -> &'static str {
    modelpages_site::content_types::of(&path.to_string_lossy())
}

/// `html` with the live reload script added at the end of its head (the
/// same origin, so the pages' `script-src 'self'` allows it).
pub fn with_live_script(html: &str) -> String {
    let tag = format!("<script src=\"{LIVE_SCRIPT_PATH}\" defer></script>");
    match html.find("</head>") {
        Some(at) => format!("{}{tag}{}", &html[..at], &html[at..]),
        None => format!("{html}{tag}"),
    }
}

/// Answers one request whose `Host` was checked; the event stream is
/// answered before this, by the thread that keeps it.
pub fn handle(request: &Request, out: &mut impl Write, site: &SiteFiles) {
    if !matches!(request.method.as_str(), "GET" | "HEAD") {
        let _ = write_response(out, 405, &[("Allow", "GET, HEAD"), ("Content-Type", TEXT)], b"only GET and HEAD\n", request.is_head());
        return;
    }
    let head_only = request.is_head();
    let url_path = request.path();
    match url_path {
        LIVE_SCRIPT_PATH => respond(out, head_only, 200, "text/javascript; charset=utf-8", LIVE_SCRIPT.as_bytes()),
        EVENTS_PATH => respond(out, head_only, 200, "text/event-stream", b""),
        _ => serve_file(out, head_only, site, url_path),
    }
}

const TEXT: &str = "text/plain; charset=utf-8";

fn serve_file(out: &mut impl Write, head_only: bool, site: &SiteFiles, url_path: &str) {
    let mount = site.mount.lock().unwrap_or_else(|e| e.into_inner()).clone();
    match resolve(&site.root, &mount, url_path) {
        Resolved::File(path) => match fs::read(&path) {
            Ok(bytes) => respond_file(out, head_only, 200, &path, bytes),
            Err(_) => not_found(out, head_only, site, &mount),
        },
        Resolved::Redirect(location) => {
            let _ = write_response(out, 301, &[("Location", &location)], b"", head_only);
        }
        Resolved::NotFound => not_found(out, head_only, site, &mount),
    }
}

/// The site's own 404 page, or a plain one before the first build.
fn not_found(out: &mut impl Write, head_only: bool, site: &SiteFiles, mount: &str) {
    let page = site.root.join("404.html");
    let bytes = fs::read(&page).unwrap_or_else(|_| {
        format!("<!doctype html><html><head><title>Not found</title></head><body><p>Not found. The site is at <a href=\"{mount}\">{mount}</a>.</p></body></html>")
            .into_bytes()
    });
    respond_file(out, head_only, 404, &page, bytes)
}

fn respond_file(out: &mut impl Write, head_only: bool, status: u16, path: &Path, bytes: Vec<u8>) {
    let kind = content_type(path);
    let bytes = if kind.starts_with("text/html") { with_live_script(&String::from_utf8_lossy(&bytes)).into_bytes() } else { bytes };
    respond(out, head_only, status, kind, &bytes)
}

fn respond(out: &mut impl Write, head_only: bool, status: u16, kind: &str, bytes: &[u8]) {
    let headers = [
        ("Content-Type", kind),
        // A preview shows the latest build, never a cached one.
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ];
    let _ = write_response(out, status, &headers, bytes, head_only);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("dist");
        fs::create_dir_all(root.join("ns/model")).unwrap();
        fs::write(root.join("index.html"), "home").unwrap();
        fs::write(root.join("ns/model/index.html"), "page").unwrap();
        fs::write(root.join("ns/model/notebook.ipynb"), "{}").unwrap();
        fs::create_dir_all(root.join("empty")).unwrap();
        fs::write(dir.path().join("secret.txt"), "outside").unwrap();
        dir
    }

    #[test]
    fn files_folders_and_redirects() {
        let dir = site();
        let root = dir.path().join("dist");
        let real = |rel: &str| Resolved::File(root.join(rel).canonicalize().unwrap());
        assert_eq!(resolve(&root, "/", "/"), real("index.html"));
        assert_eq!(resolve(&root, "/", "/ns/model/"), real("ns/model/index.html"));
        assert_eq!(resolve(&root, "/", "/ns/model/notebook.ipynb"), real("ns/model/notebook.ipynb"));
        assert_eq!(resolve(&root, "/", "/ns/model"), Resolved::Redirect("/ns/model/".into()));
        assert_eq!(resolve(&root, "/", "//ns/model"), Resolved::Redirect("/ns/model/".into()), "never to another host");
        assert_eq!(resolve(&root, "/", "/n%73/model/"), real("ns/model/index.html"), "percent-encoded");
        assert_eq!(resolve(&root, "/", "/empty/"), Resolved::NotFound);
        assert_eq!(resolve(&root, "/", "/missing"), Resolved::NotFound);
    }

    #[test]
    fn nothing_outside_the_output_folder() {
        let dir = site();
        let root = dir.path().join("dist");
        for path in ["/../secret.txt", "/ns/../../secret.txt", "/%2e%2e/secret.txt", "/ns%2f..%2f..%2fsecret.txt", "/..%5csecret.txt", "/%00"] {
            assert_eq!(resolve(&root, "/", path), Resolved::NotFound, "{path}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
            assert_eq!(resolve(&root, "/", "/link.txt"), Resolved::NotFound, "a link out of the folder");
        }
    }

    #[test]
    fn a_site_under_a_base_path() {
        let dir = site();
        let root = dir.path().join("dist");
        assert_eq!(resolve(&root, "/hub/", "/hub/ns/model/"), Resolved::File(root.join("ns/model/index.html").canonicalize().unwrap()));
        assert_eq!(resolve(&root, "/hub/", "/"), Resolved::Redirect("/hub/".into()));
        assert_eq!(resolve(&root, "/hub/", "/hub"), Resolved::Redirect("/hub/".into()));
        assert_eq!(resolve(&root, "/hub/", "/ns/model/"), Resolved::NotFound);
    }

    #[test]
    fn content_types_and_script_injection() {
        assert_eq!(content_type(Path::new("a/index.html")), "text/html; charset=utf-8");
        assert_eq!(content_type(Path::new("a/notebook.ipynb")), "application/x-ipynb+json");
        assert_eq!(content_type(Path::new("api/models/a/b.json")), "application/json");
        assert_eq!(content_type(Path::new("assets/islands.0123.js")), "text/javascript; charset=utf-8");
        assert_eq!(content_type(Path::new("a/index.md")), "text/markdown; charset=utf-8");
        assert_eq!(content_type(Path::new("llms.txt")), "text/plain; charset=utf-8");
        assert_eq!(content_type(Path::new("x.unknown")), "application/octet-stream");
        assert_eq!(content_type(Path::new("ns/m/card-files/a.avif")), "image/avif");
        let tag = "<script src=\"/__modelpages/live.js\" defer></script>";
        assert_eq!(with_live_script("<head><title>x</title></head><body>"), format!("<head><title>x</title>{tag}</head><body>"));
        assert_eq!(with_live_script("<p>bare</p>"), format!("<p>bare</p>{tag}"));
    }
}
