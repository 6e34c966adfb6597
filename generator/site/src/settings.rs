//! Site settings: `modelpages.toml`.
//!
//! ```toml
//! title = "My hub"
//! base_url = "https://hub.example/"
//! router_url = "https://router.hub.example"
//! hub_url = "https://hub.example"
//! extra_providers = ["acme-gpu"]
//! card_images = "remote"
//!
//! [listings]            # how listings, search files and sitemaps are cut
//! page_size = 100       # models (or namespaces) a listing page holds on average
//! search_page_size = 50 # models a page of the search's listings by name holds on average
//! shard_models = 200    # most models a search shard holds
//! ranked_models = 100   # models the search's orders by downloads and by likes hold
//! stats_files = 1024    # files the models' downloads and likes are spread over
//! sitemap_urls = 50000  # most URLs in a sitemap file
//! api_page_size = 10000 # most ids in a page of the API's listings
//!
//! [deploy.cache_control]            # by folder (`assets/`), extension (`.html`) or `*`
//! ".html" = "public, max-age=60"
//! [deploy.content_types]            # by extension
//! ".ipynb" = "application/x-ipynb+json"
//! [deploy]
//! keep = ["CNAME"]                  # host files `deploy --full` never removes
//! ```
//!
//! Every key is optional; a missing file means the public Hub's defaults.
//! The `[deploy]` table changes no page, so it is left out of what decides
//! whether pages must be rendered again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use modelpages_snippets::inference::is_provider_name;
use modelpages_snippets::InferenceSettings;
use serde::{Deserialize, Serialize};

/// The settings file read when `--config` is not given.
pub const SETTINGS_FILE: &str = "modelpages.toml";

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct SiteSettings {
    pub title: String,
    /// Where the site is served from (`/`, `/hub/`, `https://hub.example/`).
    pub base_url: String,
    /// The inference router examples call.
    pub router_url: String,
    /// The hub that serves model files (used in LoRA weight URLs).
    pub hub_url: String,
    /// Inference providers that get examples besides those the generator
    /// knows (a private router's own); lowercase letters, digits and `-`.
    pub extra_providers: Vec<String>,
    /// How listings, search files and sitemaps are cut into files.
    pub listings: ListingSettings,
    /// Whether cards show images from other hosts.
    pub card_images: CardImages,
    /// Headers and kept files for `modelpages deploy`; not hashed into the
    /// build (see the module's overview).
    #[serde(skip_serializing)]
    pub deploy: DeploySettings,
}

/// How many entries each kind of listing file holds. The defaults suit a hub
/// of millions of models; tests use small values so that a few hundred
/// models fill many pages. Every value is bounded so that no file of a
/// listing can pass [`MAX_LISTING_FILE_BYTES`].
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct ListingSettings {
    /// Models a page of a task, library or namespace listing by name holds
    /// on average (at most three times as many), namespaces a page of the
    /// namespace index holds, and the most downloaded models a task's or
    /// library's front page shows.
    pub page_size: usize,
    /// Models a page of the search's listings by name holds on average (at
    /// most three times as many), and models a page of its ranked orders holds.
    pub search_page_size: usize,
    /// Most models a search shard holds; a word prefix matching more is
    /// split into longer prefixes, and the most downloaded are kept apart.
    pub shard_models: usize,
    /// How many models the search's listings by downloads and by likes hold
    /// (the listings by name hold them all).
    pub ranked_models: usize,
    /// How many files the models' downloads and likes are spread over
    /// (`stats/<n>.json`): the files a day of changed counts rewrites.
    pub stats_files: usize,
    /// Most URLs in one sitemap file (the protocol allows 50,000).
    pub sitemap_urls: usize,
    /// Most model ids in a page of `api/libraries/<key>/` and `api/tasks/<key>/`.
    pub api_page_size: usize,
}

/// The largest file any listing may write: static hosts cap single files,
/// and a visitor's browser fetches some of them whole. 2 MB as hosts count
/// it (10^6 bytes to the MB), which is also under 2 MiB.
pub const MAX_LISTING_FILE_BYTES: usize = 2_000_000;

impl Default for ListingSettings {
    fn default() -> Self {
        ListingSettings {
            page_size: 100,
            search_page_size: 50,
            shard_models: 200,
            ranked_models: 100,
            stats_files: 1024,
            sitemap_urls: 50_000,
            api_page_size: 10_000,
        }
    }
}

impl ListingSettings {
    /// Each value's allowed range: at least one, and at most what keeps a
    /// file of that kind under [`MAX_LISTING_FILE_BYTES`] (an id is at most
    /// 96 bytes, a listing row or shard entry at most a few hundred).
    fn ranges(&self) -> [(&'static str, usize, usize); 7] {
        [
            ("page_size", self.page_size, 1000),
            ("search_page_size", self.search_page_size, 1000),
            ("shard_models", self.shard_models, 1000),
            ("ranked_models", self.ranked_models, 100_000),
            ("stats_files", self.stats_files, 65_536),
            ("sitemap_urls", self.sitemap_urls, 50_000),
            ("api_page_size", self.api_page_size, 10_000),
        ]
    }

    fn check(&self) -> Result<(), String> {
        for (key, value, most) in self.ranges() {
            if value == 0 || value > most {
                return Err(format!("listings.{key} must be from 1 to {most}, not {value}"));
            }
        }
        Ok(())
    }
}

/// `[deploy]`: what `modelpages deploy` sends besides the files. Only the
/// user's entries; the deploy crate holds the defaults they override.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct DeploySettings {
    /// `Cache-Control` by rule: a folder (`assets/`), an extension (`.html`) or `*`.
    pub cache_control: BTreeMap<String, String>,
    /// `Content-Type` by extension (`.ipynb`).
    pub content_types: BTreeMap<String, String>,
    /// Files on the host that a full deploy never removes though the site
    /// lacks them (a `CNAME`, a `.nojekyll`); a name ending in `/` keeps a folder.
    pub keep: Vec<String>,
}

/// Which images a card shows.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum CardImages {
    /// `https:` images too, lazily and without a referrer; a page with any
    /// allows `https:` images in its Content-Security-Policy.
    #[default]
    Remote,
    /// Only the site's own (files copied from the model's folder): pages
    /// load nothing from another host.
    Local,
}

impl Default for SiteSettings {
    fn default() -> Self {
        let inference = InferenceSettings::default();
        SiteSettings {
            title: "modelpages".into(),
            base_url: "/".into(),
            router_url: inference.router_url,
            hub_url: inference.hub_url,
            extra_providers: inference.extra_providers,
            listings: ListingSettings::default(),
            card_images: CardImages::Remote,
            deploy: DeploySettings::default(),
        }
    }
}

/// Where the settings come from; read again before every build, so an
/// edited settings file takes effect.
#[derive(Clone, Debug)]
pub struct SettingsSource {
    pub path: PathBuf,
    /// False for the default `modelpages.toml`, which may be missing.
    pub required: bool,
    /// `--base-url`, which overrides the file's.
    pub base_url: Option<String>,
}

impl SettingsSource {
    /// `config` (`--config`), which must exist, or else the default
    /// `modelpages.toml`, which may be missing; `base_url` (`--base-url`)
    /// overrides the file's.
    pub fn new(config: Option<&Path>, base_url: Option<String>) -> SettingsSource {
        match config {
            Some(path) => SettingsSource { path: path.to_owned(), required: true, base_url },
            None => SettingsSource { path: SETTINGS_FILE.into(), required: false, base_url },
        }
    }

    pub fn load(&self) -> Result<SiteSettings, SettingsError> {
        let mut settings = SiteSettings::load(&self.path, self.required)?;
        if let Some(base_url) = &self.base_url {
            settings.base_url = base_url.clone();
        }
        Ok(settings)
    }
}

/// A settings file that cannot be read or does not parse.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{}: {message}", path.display())]
    Invalid { path: PathBuf, message: String },
}

impl SiteSettings {
    /// Reads `path`. When `required` is false a missing file gives the defaults
    /// (the default `modelpages.toml` is optional; a `--config` file is not).
    pub fn load(path: &Path, required: bool) -> Result<SiteSettings, SettingsError> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if !required && e.kind() == std::io::ErrorKind::NotFound => return Ok(SiteSettings::default()),
            Err(source) => return Err(SettingsError::Io { path: path.to_owned(), source }),
        };
        let settings: SiteSettings = toml::from_str(&text)
            .map_err(|e| SettingsError::Invalid { path: path.to_owned(), message: e.to_string() })?;
        for (key, url) in [("router_url", &settings.router_url), ("hub_url", &settings.hub_url)] {
            if !(url.starts_with("https://") || url.starts_with("http://"))
                || url.chars().any(|c| c.is_whitespace() || matches!(c, '"' | '\'' | '<' | '>' | '\\' | '`'))
            {
                return Err(SettingsError::Invalid {
                    path: path.to_owned(),
                    message: format!("{key} must be an http(s) URL without spaces or quotes, not {url:?}"),
                });
            }
        }
        // Provider names become code strings and environment variable
        // names: only the plain names the Hub uses.
        if let Some(name) = settings.extra_providers.iter().find(|name| !is_provider_name(name)) {
            return Err(SettingsError::Invalid {
                path: path.to_owned(),
                message: format!(
                    "extra_providers: {name:?} is not a provider name (a lowercase letter, then lowercase letters, digits and `-`)"
                ),
            });
        }
        settings.listings.check().map_err(|message| SettingsError::Invalid { path: path.to_owned(), message })?;
        settings.deploy.check().map_err(|message| SettingsError::Invalid { path: path.to_owned(), message })?;
        Ok(settings)
    }

    pub fn inference(&self) -> InferenceSettings {
        InferenceSettings {
            router_url: self.router_url.trim_end_matches('/').to_owned(),
            hub_url: self.hub_url.trim_end_matches('/').to_owned(),
            extra_providers: self.extra_providers.clone(),
        }
    }
}

impl DeploySettings {
    /// Header values go on the wire as they are: printable ASCII only, and
    /// rules of the three shapes the deploy understands.
    fn check(&self) -> Result<(), String> {
        let header_value = |v: &str| !v.is_empty() && v.bytes().all(|b| (0x20..0x7f).contains(&b));
        for (rule, value) in &self.cache_control {
            let shape = rule == "*" || is_extension(rule) || (rule.ends_with('/') && is_plain_folder(rule));
            if !shape {
                return Err(format!("deploy.cache_control: {rule:?} is not a folder (`assets/`), an extension (`.html`) or `*`"));
            }
            if !header_value(value) {
                return Err(format!("deploy.cache_control.{rule:?}: {value:?} is not a header value (printable ASCII)"));
            }
        }
        for (extension, value) in &self.content_types {
            if !is_extension(extension) {
                return Err(format!("deploy.content_types: {extension:?} is not an extension such as `.ipynb`"));
            }
            if !header_value(value) {
                return Err(format!("deploy.content_types.{extension:?}: {value:?} is not a header value (printable ASCII)"));
            }
        }
        if let Some(bad) = self.keep.iter().find(|k| !is_plain_folder(k)) {
            return Err(format!("deploy.keep: {bad:?} is not a plain relative path (`CNAME`, `docs/`)"));
        }
        Ok(())
    }
}

/// `.` then letters and digits.
fn is_extension(rule: &str) -> bool {
    rule.strip_prefix('.').is_some_and(|e| !e.is_empty() && e.chars().all(|c| c.is_ascii_alphanumeric()))
}

/// A plain relative path (`assets/`, `a/b`): no `..`, root, `.` or empty part.
fn is_plain_folder(rule: &str) -> bool {
    let rule = rule.strip_suffix('/').unwrap_or(rule);
    crate::store::changes::is_site_path(rule)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_default_file_means_defaults_but_a_named_one_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("modelpages.toml");
        assert_eq!(SiteSettings::load(&path, false).unwrap(), SiteSettings::default());
        assert!(matches!(SiteSettings::load(&path, true), Err(SettingsError::Io { .. })));
        assert_eq!(SiteSettings::default().inference().router_url, "https://router.huggingface.co");
    }

    #[test]
    fn reads_keys_and_rejects_bad_ones() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(&path, "title = \"Acme hub\"\nrouter_url = \"https://router.acme.example/\"\n").unwrap();
        let s = SiteSettings::load(&path, true).unwrap();
        assert_eq!(s.title, "Acme hub");
        assert_eq!(s.inference().router_url, "https://router.acme.example");
        assert_eq!(s.hub_url, "https://huggingface.co");
        std::fs::write(&path, "titel = \"typo\"\n").unwrap();
        let err = SiteSettings::load(&path, true).unwrap_err().to_string();
        assert!(err.contains("unknown field `titel`"), "{err}");
        std::fs::write(&path, "router_url = \"javascript:alert(1)\"\n").unwrap();
        assert!(SiteSettings::load(&path, true).unwrap_err().to_string().contains("router_url must be"));
    }

    #[test]
    fn listing_sizes_are_read_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(&path, "[listings]\npage_size = 7\nshard_models = 5\n").unwrap();
        let listings = SiteSettings::load(&path, true).unwrap().listings;
        assert_eq!((listings.page_size, listings.shard_models), (7, 5));
        assert_eq!(listings.sitemap_urls, 50_000, "the others keep their defaults");
        for (line, key) in [("page_size = 0", "page_size"), ("sitemap_urls = 50001", "sitemap_urls"), ("api_page_size = 20000", "api_page_size")] {
            std::fs::write(&path, format!("[listings]\n{line}\n")).unwrap();
            let err = SiteSettings::load(&path, true).unwrap_err().to_string();
            assert!(err.contains(&format!("listings.{key} must be from 1 to")), "{line}: {err}");
        }
        std::fs::write(&path, "[listings]\npage_sise = 3\n").unwrap();
        assert!(SiteSettings::load(&path, true).unwrap_err().to_string().contains("unknown field `page_sise`"));
    }

    #[test]
    fn extra_providers_are_plain_names() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        std::fs::write(&path, "extra_providers = [\"acme-gpu\", \"lab2\"]\n").unwrap();
        assert_eq!(SiteSettings::load(&path, true).unwrap().inference().extra_providers, ["acme-gpu", "lab2"]);
        for bad in ["Acme", "acme_gpu", "2lab", "", "a\\\"b"] {
            std::fs::write(&path, format!("extra_providers = [\"ok\", \"{bad}\"]\n")).unwrap();
            let err = SiteSettings::load(&path, true).unwrap_err().to_string();
            assert!(err.contains("extra_providers: ") && err.contains("is not a provider name"), "{bad}: {err}");
        }
        assert!(SiteSettings::default().extra_providers.is_empty());
    }

    #[test]
    fn deploy_settings_are_read_checked_and_left_out_of_the_build_hash() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        let text = "[deploy]\nkeep = [\"CNAME\", \"well-known/\"]\n[deploy.cache_control]\n\"assets/\" = \"max-age=9\"\n\".html\" = \"no-cache\"\n[deploy.content_types]\n\".ipynb\" = \"application/x-ipynb+json\"\n";
        std::fs::write(&path, text).unwrap();
        let s = SiteSettings::load(&path, true).unwrap();
        assert_eq!(s.deploy.cache_control["assets/"], "max-age=9");
        assert_eq!(s.deploy.content_types[".ipynb"], "application/x-ipynb+json");
        assert_eq!(s.deploy.keep, ["CNAME", "well-known/"]);
        assert_eq!(serde_json::to_string(&s).unwrap(), serde_json::to_string(&SiteSettings::default()).unwrap(),
            "deploy settings change no page");
        for (bad, why) in [
            ("[deploy.cache_control]\n\"../x/\" = \"a\"\n", "is not a folder"),
            ("[deploy.cache_control]\n\"html\" = \"a\"\n", "is not a folder"),
            ("[deploy.cache_control]\n\".html\" = \"a\\r\\nX-Evil: 1\"\n", "is not a header value"),
            ("[deploy.content_types]\n\"*\" = \"text/plain\"\n", "is not an extension"),
            ("[deploy]\nkeep = [\"/etc/passwd\"]\n", "is not a plain relative path"),
            ("[deploy]\ncache = 1\n", "unknown field `cache`"),
        ] {
            std::fs::write(&path, bad).unwrap();
            let err = SiteSettings::load(&path, true).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn card_images_are_remote_or_local() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.toml");
        assert_eq!(SiteSettings::default().card_images, CardImages::Remote);
        std::fs::write(&path, "card_images = \"local\"\n").unwrap();
        assert_eq!(SiteSettings::load(&path, true).unwrap().card_images, CardImages::Local);
        std::fs::write(&path, "card_images = \"all\"\n").unwrap();
        let err = SiteSettings::load(&path, true).unwrap_err().to_string();
        assert!(err.contains("unknown variant `all`, expected `remote` or `local`"), "{err}");
    }
}
