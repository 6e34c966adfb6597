//! The output folder before a build writes it: whether the build may write
//! there at all, and whether the site already there is whole.
//!
//! A build replaces everything in its output folder, so before it creates
//! anything (lock, staging folder, manifest) it makes sure the folder is new,
//! empty, or a site it built there ([`built_here`]): the manifest beside it
//! names that very folder by device and inode, and the marker file every
//! build writes ([`MARKER`]) carries the site identity that manifest records.
//! A marker alone proves nothing: `cp -a dist/. docs/` copies it into a
//! folder of someone else's files, beside which no manifest names `docs`. A
//! site built before sites had an identity is known by its manifest alone,
//! as it was then. An output that is, holds or
//! lies inside the models folder, the site sources or the settings file is
//! refused whatever it holds, and so is one that is a link or a file.
//!
//! An in-place build trusts the manifest for the pages of unchanged models,
//! so it first makes sure the site was not emptied by hand (`rm -rf dist/*`
//! keeps the marker, a dot file): cheaply, since a one-model rebuild of
//! 100,000 models must stay fast (BENCHMARKS.md).

use foldhash::HashSet;
use rayon::prelude::*;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::store::manifest::site_of_folder;
use crate::store::output::{io_error, OutputError};
use crate::store::plan::BuildPlan;
use crate::store::stored_models::top_level;

/// The file that marks a folder as a site this program built, with the
/// site's identity ([`marker_text`]). It is not a page: no listing or
/// sitemap names it.
pub const MARKER: &str = ".modelpages-site";

/// What the marker says to whoever opens it, before the site's identity.
const MARKER_INTRO: &str =
    "This folder is a site built by modelpages. `modelpages build` replaces everything in it.\n";

/// The line of the marker that carries the site's identity.
const SITE_ID_FIELD: &str = "site-id: ";

/// A marker is a few lines; a larger file in its place is no marker.
const MARKER_MAX_BYTES: u64 = 4096;

/// The marker's bytes for the site `site_id`.
pub fn marker_text(site_id: &str) -> String {
    format!("{MARKER_INTRO}{SITE_ID_FIELD}{site_id}\n")
}

/// A new site identity for the output `out`: 128 bits from the clock, the
/// process and the OS-seeded hasher keys, so two builds of two folders never
/// share one. It tells sites apart; it is no secret.
pub fn new_site_id(out: &Path) -> String {
    use std::hash::BuildHasher;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let keyed = std::collections::hash_map::RandomState::new().hash_one((nanos, std::process::id(), out));
    let mut hasher = blake3::Hasher::new();
    hasher.update(&nanos.to_le_bytes());
    hasher.update(&keyed.to_le_bytes());
    hasher.update(&std::process::id().to_le_bytes());
    hasher.update(out.as_os_str().as_encoded_bytes());
    hasher.finalize().to_hex()[..32].to_owned()
}

/// What the marker in `out` is: `None` when there is no regular file by
/// that name (a link is not followed), `Some(None)` for a marker without a
/// site identity (an earlier version's, or a file that only has the name).
pub fn marker_site_id(out: &Path) -> Option<Option<String>> {
    let (file, _) = modelpages_record::open_regular_file(&out.join(MARKER)).ok()?;
    let mut bytes = Vec::new();
    file.take(MARKER_MAX_BYTES).read_to_end(&mut bytes).ok()?;
    Some(parse_site_id(&bytes))
}

/// The site identity in a marker's bytes, if it carries a well-formed one.
pub fn parse_site_id(bytes: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let id = text.lines().find_map(|line| line.strip_prefix(SITE_ID_FIELD))?;
    (id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())).then(|| id.to_owned())
}

/// Why a folder that holds files is not a site this program built there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotBuiltHere {
    /// No marker, and no manifest beside it naming it.
    NoMarker,
    /// A marker, but no manifest beside the folder names it: a copy of a
    /// site, or a marker copied into a folder of other files.
    Copied,
    /// The manifest names the folder, but the marker is gone.
    MarkerMissing,
    /// The manifest names the folder, but the marker is another site's.
    OtherMarker,
}

impl NotBuiltHere {
    /// Why, in words.
    pub fn reason(self) -> &'static str {
        match self {
            NotBuiltHere::NoMarker => "it has no .modelpages-site file",
            NotBuiltHere::Copied => {
                "it has a .modelpages-site file, but no manifest beside it names this folder: a copy of a site is not a site modelpages built here"
            }
            NotBuiltHere::MarkerMissing => "the manifest beside it names this folder, but its .modelpages-site file is gone",
            NotBuiltHere::OtherMarker => {
                "its .modelpages-site file is not the one the manifest beside it records: a copy of another site"
            }
        }
    }
}

/// Whether the folder `out` is a site this program built there (see the
/// module's overview), and if so its identity (`None` for a site built
/// before sites had one).
pub fn built_here(out: &Path) -> Result<Option<String>, NotBuiltHere> {
    let marker = marker_site_id(out);
    match site_of_folder(out) {
        None if marker.is_some() => Err(NotBuiltHere::Copied),
        None => Err(NotBuiltHere::NoMarker),
        Some(None) => Ok(None),
        Some(Some(id)) => match marker {
            Some(Some(found)) if found == id => Ok(Some(id)),
            None => Err(NotBuiltHere::MarkerMissing),
            Some(_) => Err(NotBuiltHere::OtherMarker),
        },
    }
}

/// About how many models' files an in-place build looks for on disk (all of
/// them in a site this small or smaller): some 750 file lookups, a few
/// milliseconds, where checking all 300,000 files at hub scale took a third
/// of a one-model rebuild.
const SAMPLED_MODELS: usize = 256;

/// Refuses an output folder that a build must not write, before anything is
/// created: see the module's overview. `settings` is the settings file, if
/// there is one. Gives the identity of the site already there, if it has one.
pub fn check_output(out: &Path, models: &Path, site_src: &Path, settings: Option<&Path>) -> Result<Option<String>, OutputError> {
    let resolved_out = resolve(out).map_err(io_error(out))?;
    let inputs = [("models folder", Some(models)), ("site sources", Some(site_src)), ("settings file", settings)];
    for (input, path) in inputs {
        // An input that does not exist cannot be lost.
        let Some(resolved) = path.and_then(|p| p.canonicalize().ok()) else { continue };
        let relation = if resolved == resolved_out {
            "is"
        } else if resolved.starts_with(&resolved_out) {
            "holds"
        } else if resolved_out.starts_with(&resolved) {
            "lies inside"
        } else {
            continue;
        };
        let input_path = path.expect("resolved from it").to_owned();
        return Err(OutputError::HoldsInput { out: out.to_owned(), relation, input, input_path });
    }
    // Its lock, manifest and staging folder are named after it and live
    // beside it: `.` and `..` have neither a name nor a place beside them.
    if out.file_name().is_none() {
        return Err(OutputError::Unnamed { path: out.to_owned() });
    }
    let meta = match fs::symlink_metadata(out) {
        Ok(meta) => meta,
        // Nothing there yet; a file on the way is reported when the output's
        // parent folders are made.
        Err(e) if matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory) => return Ok(None),
        Err(source) => return Err(OutputError::Io { path: out.to_owned(), source }),
    };
    if meta.file_type().is_symlink() {
        return Err(OutputError::Link { path: out.to_owned() });
    }
    if !meta.is_dir() {
        return Err(OutputError::NotAFolder { path: out.to_owned() });
    }
    match built_here(out) {
        Ok(site_id) => Ok(site_id),
        Err(why) => {
            let empty = fs::read_dir(out).map_err(io_error(out))?.next().is_none();
            if empty { Ok(None) } else { Err(OutputError::NotASite { path: out.to_owned(), why: why.reason() }) }
        }
    }
}

/// `path` made absolute with every link resolved, also when its end does not
/// exist yet: the part that exists is resolved by the OS, the rest will be
/// made as plain folders, so `missing/..` is just where `missing` will be.
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut path = std::path::absolute(if path.as_os_str().is_empty() { Path::new(".") } else { path })?;
    loop {
        let components: Vec<Component> = path.components().collect();
        // The longest start of the path that exists (the root always does).
        let mut exists = components.len();
        let base = loop {
            match components[..exists].iter().collect::<PathBuf>().canonicalize() {
                Ok(base) => break base,
                Err(_) if exists > 1 => exists -= 1,
                Err(e) => return Err(e),
            }
        };
        let rest = &components[exists..];
        let Some(up) = rest.iter().position(|c| *c == Component::ParentDir) else {
            return Ok(rest.iter().fold(base, |p, c| p.join(c)));
        };
        // Drop `missing/..` and look again: what follows may exist, and be a link.
        let mut next = base;
        next.extend(&rest[..up]);
        next.pop();
        next.extend(&rest[up + 1..]);
        path = next;
    }
}

/// Whether the site in `out` still holds the files the previous build wrote
/// for the models of `plan`, as far as a cheap look can tell: every
/// top-level name they live under is there (one read of the output folder:
/// catches `rm -rf dist/*` and a namespace folder deleted by hand), and every
/// file of a sample of the models is (every n-th model in the plan's order,
/// and the first model of every n-th chunk the plan left stored, so the
/// same site gives the same sample). Assets need no look: an
/// in-place build compares them with what it writes anyway. Listing files
/// are sampled too (those whose path hashes to a multiple of the stride, so
/// again the same site gives the same sample). At 100,000 models this takes
/// 15 to 35 ms on a loaded two-core machine.
pub fn site_is_whole<'a>(out: &Path, plan: &BuildPlan, listings: impl ExactSizeIterator<Item = &'a str>) -> bool {
    missing_from_site(out, plan, listings).is_none()
}

/// What [`site_is_whole`] found missing first, if anything: a top-level
/// name or a file, relative to `out`.
pub fn missing_from_site<'a>(out: &Path, plan: &BuildPlan, listings: impl ExactSizeIterator<Item = &'a str>) -> Option<String> {
    let Ok(names) = fs::read_dir(out) else { return Some(String::new()) };
    let present: HashSet<OsString> = names.filter_map(Result::ok).map(|e| e.file_name()).collect();
    let entries = plan.keep.iter().map(|(_, entry)| entry).chain(plan.read.iter().filter_map(|job| job.previous.as_ref()));
    let stride = ((plan.keep.len() + plan.read.len()) / SAMPLED_MODELS).max(1);
    // Stored models (see `stored_models`) are not decoded: each stored
    // chunk names its top-level folders and gives one model as a sample.
    let stored = plan.stored.chunks();
    let mut tops: HashSet<&str> = stored.iter().flat_map(|c| c.index.tops.iter().map(String::as_str)).collect();
    // Models come grouped by namespace: a name is compared with the last
    // few seen before it is hashed, which at 100,000 models halves the cost.
    let mut recent: [&str; 4] = [""; 4];
    let chunk_stride = (stored.len() / SAMPLED_MODELS).max(1);
    let mut sample: Vec<&str> = stored.iter().step_by(chunk_stride).flat_map(|c| c.index.sample.iter().map(String::as_str)).collect();
    for (i, entry) in entries.enumerate() {
        for file in &entry.files {
            let top = top_level(file);
            if !recent.contains(&top) {
                tops.insert(top);
                recent.rotate_right(1);
                recent[0] = top;
            }
        }
        if i % stride == 0 {
            sample.extend(entry.files.iter().map(String::as_str));
        }
    }
    let listing_stride = (listings.len() / SAMPLED_MODELS).max(1) as u64;
    // Half a million paths at hub scale: hashed side by side.
    let listings: Vec<&str> = listings.collect();
    let listing_sample: Vec<&str> = listings
        .par_iter()
        .filter(|path| {
            let hash = blake3::hash(path.as_bytes());
            u64::from_le_bytes(hash.as_bytes()[..8].try_into().expect("8 bytes")) % listing_stride == 0
        })
        .copied()
        .collect();
    let is_file = |file: &&str| fs::symlink_metadata(out.join(file)).is_ok_and(|m| m.is_file());
    let mut tops: Vec<&str> = tops.into_iter().collect();
    tops.sort_unstable();
    let top_missing = tops.into_iter().find(|name| !present.contains(OsStr::new(name)));
    let missing = top_missing.or_else(|| sample.into_iter().find(|file| !is_file(file))).or_else(|| listing_sample.into_iter().find(|file| !is_file(file)));
    missing.map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::manifest::{folder_identity, ModelEntry};
    use crate::store::output::OutputFolder;
    use crate::store::plan::ReadJob;

    fn check(out: &Path, inputs: &Path) -> Result<Option<String>, OutputError> {
        check_output(out, &inputs.join("models"), &inputs.join("site-src"), Some(&inputs.join("modelpages.toml")))
    }

    fn inputs(root: &Path) {
        fs::create_dir_all(root.join("models/ns/m")).unwrap();
        fs::create_dir_all(root.join("site-src/templates")).unwrap();
        fs::write(root.join("modelpages.toml"), "").unwrap();
    }

    #[test]
    fn new_and_empty_folders_are_accepted_and_a_marker_alone_proves_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        inputs(tmp.path());
        assert!(check(&tmp.path().join("dist"), tmp.path()).is_ok(), "new");
        assert!(check(&tmp.path().join("a/b/dist"), tmp.path()).is_ok(), "new, parents too");
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        assert!(check(&out, tmp.path()).is_ok(), "empty");
        fs::write(out.join("index.html"), "page").unwrap();
        let why = |out: &Path| match check(out, tmp.path()) {
            Err(OutputError::NotASite { why, .. }) => why,
            other => panic!("{other:?}"),
        };
        assert_eq!(why(&out), NotBuiltHere::NoMarker.reason());
        // A marker copied in, empty or a real site's: no manifest names the folder.
        let id = new_site_id(&out);
        for marker in [String::new(), marker_text(&id)] {
            fs::write(out.join(MARKER), marker).unwrap();
            assert_eq!(why(&out), NotBuiltHere::Copied.reason());
        }
        // The manifest beside it names this folder and records the site's identity.
        let mut manifest = crate::store::manifest::Manifest::new("g".into(), 0);
        manifest.site = folder_identity(&out).unwrap();
        manifest.site_id = Some(id.clone());
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        assert_eq!(check(&out, tmp.path()).unwrap(), Some(id.clone()), "a site built here");
        fs::write(out.join(MARKER), marker_text(&new_site_id(&out))).unwrap();
        assert_eq!(why(&out), NotBuiltHere::OtherMarker.reason());
        fs::write(out.join(MARKER), "").unwrap();
        assert_eq!(why(&out), NotBuiltHere::OtherMarker.reason(), "an empty marker is no site's");
        fs::remove_file(out.join(MARKER)).unwrap();
        assert_eq!(why(&out), NotBuiltHere::MarkerMissing.reason());
        #[cfg(unix)]
        {
            fs::write(tmp.path().join("elsewhere"), marker_text(&id)).unwrap();
            std::os::unix::fs::symlink(tmp.path().join("elsewhere"), out.join(MARKER)).unwrap();
            assert_eq!(why(&out), NotBuiltHere::MarkerMissing.reason(), "a link is not followed");
        }
    }

    #[test]
    fn site_ids_differ_and_parse_back_from_their_marker() {
        let a = new_site_id(Path::new("dist"));
        let b = new_site_id(Path::new("dist"));
        assert_ne!(a, b);
        assert_eq!(parse_site_id(marker_text(&a).as_bytes()), Some(a));
        for bad in ["", "site-id: short\n", "site-id: zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\n"] {
            assert_eq!(parse_site_id(bad.as_bytes()), None, "{bad:?}");
        }
    }

    #[test]
    fn a_site_from_before_the_marker_is_known_by_its_manifest() {
        let tmp = tempfile::tempdir().unwrap();
        inputs(tmp.path());
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        fs::write(out.join("index.html"), "page").unwrap();
        let mut manifest = crate::store::manifest::Manifest::new("g".into(), 0);
        manifest.site = (1, 2);
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        assert!(check(&out, tmp.path()).is_err(), "a manifest of another folder");
        manifest.site = folder_identity(&out).unwrap();
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        assert_eq!(check(&out, tmp.path()).unwrap(), None, "known by its manifest, which has no identity");
        // An earlier version's marker, or none: the manifest decides.
        fs::write(out.join(MARKER), "This folder is a site built by modelpages.\n").unwrap();
        assert!(check(&out, tmp.path()).is_ok());
    }

    #[test]
    fn the_builds_inputs_are_never_the_output_nor_in_it_nor_around_it() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        inputs(root);
        let cases = [
            (root.join("models"), "is", "models folder"),
            (root.join("models/ns/m/site"), "lies inside", "models folder"),
            (root.join("models/new/../ns"), "lies inside", "models folder"),
            (root.join("new/../models"), "is", "models folder"),
            (root.to_owned(), "holds", "models folder"),
            (root.join("site-src"), "is", "site sources"),
            (root.join("site-src/build"), "lies inside", "site sources"),
            (root.join("modelpages.toml"), "is", "settings file"),
        ];
        for (out, relation, input) in cases {
            match check(&out, root) {
                Err(OutputError::HoldsInput { relation: r, input: i, .. }) if r == relation && i == input => {}
                other => panic!("{}: {other:?}", out.display()),
            }
        }
        #[cfg(unix)]
        {
            // Through a link to the models folder, which exists or not yet.
            std::os::unix::fs::symlink(root.join("models"), root.join("link")).unwrap();
            assert!(matches!(check(&root.join("link/x"), root), Err(OutputError::HoldsInput { relation: "lies inside", .. })));
            assert!(matches!(check(&root.join("link"), root), Err(OutputError::HoldsInput { relation: "is", .. })));
            let other = root.join("other");
            fs::create_dir(&other).unwrap();
            std::os::unix::fs::symlink(&other, root.join("site-link")).unwrap();
            assert!(matches!(check(&root.join("site-link"), root), Err(OutputError::Link { .. })));
        }
        let err = check(&root.join("."), root).unwrap_err().to_string();
        assert!(err.contains("holds the models folder"), "{err}");
        // An empty folder is fine, but not by a name with no place beside it.
        let empty = root.join("empty");
        fs::create_dir(&empty).unwrap();
        let inputs_elsewhere = |out: &Path| check_output(out, &root.join("models"), &root.join("site-src"), None);
        assert!(inputs_elsewhere(&empty).is_ok());
        assert!(matches!(inputs_elsewhere(&empty.join(".")), Ok(None)), "`dist/.` is `dist`");
        assert!(matches!(inputs_elsewhere(&empty.join("x/..")), Err(OutputError::Unnamed { .. })));
        fs::write(root.join("file"), "").unwrap();
        assert!(matches!(inputs_elsewhere(&root.join("file")), Err(OutputError::NotAFolder { .. })));
    }

    fn entry(files: &[&str], input: u8) -> Box<ModelEntry> {
        let files = files.iter().map(|f| f.to_string()).collect();
        Box::new(ModelEntry::new(Default::default(), [input; 32], Default::default(), files))
    }

    #[test]
    fn a_site_missing_pages_is_not_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        let files = ["ns/a/index.html", "ns/b/index.html", "api/models/ns/a.json", "other/c/index.html"];
        for file in files {
            fs::create_dir_all(out.join(file).parent().unwrap()).unwrap();
            fs::write(out.join(file), "x").unwrap();
        }
        let source = |id: &str| modelpages_record::ModelSource { dir: tmp.path().join(id), folder_id: id.to_owned() };
        let plan = BuildPlan {
            keep: vec![
                (source("ns/a"), entry(&files[..1], 0xaa)),
                (source("ns/b"), entry(&files[1..2], 0xbb)),
            ],
            read: vec![
                ReadJob { source: source("other/c"), stamp: Default::default(), previous: Some(entry(&files[3..], 0xcc)) },
                ReadJob { source: source("ns/new"), stamp: Default::default(), previous: None },
            ],
            ..Default::default()
        };
        let none = || std::iter::empty::<&str>();
        assert!(site_is_whole(&out, &plan, none()));
        fs::create_dir_all(out.join("tasks/x")).unwrap();
        fs::write(out.join("tasks/x/index.html"), "x").unwrap();
        assert!(site_is_whole(&out, &plan, ["tasks/x/index.html"].into_iter()));
        assert!(!site_is_whole(&out, &plan, ["tasks/x/index.html", "tasks/gone/index.html"].into_iter()), "a listing page");
        fs::remove_file(out.join("ns/b/index.html")).unwrap();
        assert!(!site_is_whole(&out, &plan, none()), "a page of a small site");
        fs::write(out.join("ns/b/index.html"), "x").unwrap();
        fs::remove_dir_all(out.join("other")).unwrap();
        assert!(!site_is_whole(&out, &plan, none()), "a namespace folder");
        fs::remove_dir_all(&out).unwrap();
        assert!(!site_is_whole(&out, &plan, none()), "the whole site");
    }

    #[test]
    fn stored_models_are_looked_for_by_their_chunks_tops_and_samples() {
        use crate::store::manifest::Manifest;
        use crate::store::stored_models::CHUNK;
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("dist");
        fs::create_dir(&out).unwrap();
        let mut manifest = Manifest::new("g".into(), 7);
        manifest.site = folder_identity(&out).unwrap();
        for i in 0..CHUNK * 2 {
            let file = format!("ns{}/m{i:04}/index.html", i / CHUNK);
            fs::create_dir_all(out.join(&file).parent().unwrap()).unwrap();
            fs::write(out.join(&file), "x").unwrap();
            manifest.models.insert(format!("ns{}/m{i:04}", i / CHUNK), entry(&[&file], 0));
        }
        fs::write(OutputFolder::new(&out).manifest(), manifest.to_bytes()).unwrap();
        let plan = || BuildPlan { stored: Manifest::load_matching(&out, "g").unwrap().stored, ..Default::default() };
        assert!(plan().keep.is_empty() && plan().stored.len() == CHUNK * 2, "nothing decoded");
        assert!(site_is_whole(&out, &plan(), std::iter::empty()));
        // The first model of a chunk is its sample.
        let first_of_second = format!("ns1/m{CHUNK:04}/index.html");
        fs::remove_file(out.join(&first_of_second)).unwrap();
        assert!(!site_is_whole(&out, &plan(), std::iter::empty()), "a sampled page");
        fs::write(out.join(&first_of_second), "x").unwrap();
        fs::remove_dir_all(out.join("ns0")).unwrap();
        assert!(!site_is_whole(&out, &plan(), std::iter::empty()), "a namespace folder");
    }
}
