//! Change feeds: Atom files of the models most recently added or updated,
//! one for the whole site (`feed.xml`), one per task and one per namespace
//! (where each goes: [`FeedScope`]), each of the latest [`FEED_ENTRIES`].
//!
//! A feed is made from the records alone, never from the build: an entry's
//! time is the record's `lastModified` (the time a hub user sees as
//! "updated"), its `published` the record's `createdAt`, and the feed's own
//! `updated` its newest entry's. So a full build and an incremental one
//! write the same bytes, and a feed's key (the hash of the entries it
//! shows) changes only when one of its entries does: downloads and likes
//! are no part of it. A model whose `lastModified` is missing or is not a
//! timestamp has no time to be placed by and is in no feed.
//!
//! An entry is one change, not one model: its id is the model's address
//! with the change's time (`<base_url><id>/#<lastModified>`; a `tag:` URI
//! of the same path when the site's base URL is a path alone, as Atom ids
//! must be absolute). The same change keeps its id in every build, and the
//! next change to the model is a new entry readers show as new. An entry
//! says "added" when the model was created on the day of the change (its
//! `createdAt` and `lastModified` fall on the same UTC day), "updated"
//! otherwise.
//!
//! Every value from a record is escaped for XML, and characters XML cannot
//! hold (control characters, U+FFFE, U+FFFF) or that reorder the text
//! around them are written as escapes (`\u{1b}`), as pages show them.

use std::fmt::Write as _;

use modelpages_record::reorders_text;
use modelpages_render::{rfc3339_utc, utc_day};
use modelpages_record::{namespace_of, ModelSummary};

use super::file::{KeyHasher, ListingFile, ListingGroup};
use super::folders::FeedScope;
use super::groups::{first_by, Groups, ListingInput};

/// Entries a feed holds: the latest changes.
pub const FEED_ENTRIES: usize = 50;

/// An empty feed's `updated`, which Atom requires: the epoch, so that it
/// does not depend on when the site was built.
const NO_CHANGE: i64 = 0;

/// Every change feed: the site's, each task's and each namespace's.
pub fn feed_files<'a>(input: &'a ListingInput<'a>, groups: &'a Groups<'a>) -> Vec<ListingGroup<'a>> {
    let all: Vec<u32> = (0..input.models.len() as u32).collect();
    let mut feeds = vec![ListingGroup::always("site feed", move || vec![feed_file(input, FeedScope::Site, &all)])];
    for (task, ranks) in &groups.tasks {
        let print = groups.print(ranks);
        feeds.push(ListingGroup::printed(format!("task feed {}", task.key), print, move || {
            vec![feed_file(input, FeedScope::Task(&task.key, &task.name), ranks)]
        }));
    }
    for (namespace, ranks) in &groups.namespaces {
        let print = groups.print(ranks);
        feeds.push(ListingGroup::printed(format!("namespace feed {namespace}"), print, move || {
            vec![feed_file(input, FeedScope::Namespace(namespace), ranks)]
        }));
    }
    feeds
}

/// The latest `most` changes among `ranks`: models with a `lastModified`,
/// newest first, ties by name.
pub fn latest(models: &[&ModelSummary], ranks: &[u32], most: usize) -> Vec<u32> {
    let dated: Vec<(i64, u32)> = ranks.iter().filter_map(|&r| Some((models[r as usize].updated?, r))).collect();
    let newest_first = |a: &(i64, u32), b: &(i64, u32)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
    first_by(dated, most, newest_first).into_iter().map(|(_, rank)| rank).collect()
}

/// One feed, made only when the entries it shows changed.
fn feed_file<'a>(input: &'a ListingInput<'a>, scope: FeedScope<'a>, ranks: &[u32]) -> ListingFile<'a> {
    let models = input.models;
    let entries = latest(models, ranks, FEED_ENTRIES);
    let path = scope.path();
    let mut key = KeyHasher::new("feed");
    key.str(&path).str(&scope.title(&input.site.title)).num(entries.len() as u64);
    for &rank in &entries {
        let m = models[rank as usize];
        key.str(&m.id).str(&m.url).opt_str(m.task.as_deref()).opt_str(m.library.as_deref());
        key.opt_num(m.created.map(|t| t as u64)).opt_num(m.updated.map(|t| t as u64));
    }
    ListingFile::lazy(path, key.finish(), move || {
        let entries: Vec<&ModelSummary> = entries.iter().map(|&r| models[r as usize]).collect();
        Ok(atom_feed(input.base_url, &input.site.title, scope, &entries).into_bytes())
    })
}

/// The Atom document of `scope` holding `entries` (newest first), for a
/// site at `base_url` (absolute, or a path) called `site_title`.
pub fn atom_feed(base_url: &str, site_title: &str, scope: FeedScope<'_>, entries: &[&ModelSummary]) -> String {
    let id_base = atom_id_base(base_url);
    let newest = entries.first().and_then(|m| m.updated).unwrap_or(NO_CHANGE);
    let mut xml = String::with_capacity(1024 + entries.len() * 800);
    xml.push_str("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let path = scope.path();
    let _ = writeln!(xml, "  <id>{}</id>", xml_text(&format!("{id_base}{path}")));
    let _ = writeln!(xml, "  <title>{}</title>", xml_text(&scope.title(site_title)));
    let _ = writeln!(xml, "  <updated>{}</updated>", rfc3339_utc(newest));
    let _ = writeln!(xml, "  <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>", xml_text(&format!("{base_url}{path}")));
    let _ = writeln!(xml, "  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", xml_text(&format!("{base_url}{}", scope.listing())));
    let _ = writeln!(xml, "  <author><name>{}</name></author>", xml_text(site_title));
    xml.push_str("  <generator>modelpages</generator>\n");
    for model in entries {
        let Some(updated) = model.updated else { continue };
        write_entry(&mut xml, base_url, &id_base, model, updated);
    }
    xml.push_str("</feed>\n");
    xml
}

fn write_entry(xml: &mut String, base_url: &str, id_base: &str, model: &ModelSummary, updated: i64) {
    let id = &model.id;
    let namespace = namespace_of(id);
    let when = rfc3339_utc(updated);
    let added = model.created.is_some_and(|created| utc_day(created) == utc_day(updated));
    let mut summary = if added { format!("Added on {}.", &when[..10]) } else { format!("Updated on {}.", &when[..10]) };
    if let (false, Some(created)) = (added, model.created) {
        let _ = write!(summary, " Created on {}.", utc_day(created));
    }
    if let Some(task) = &model.task {
        let _ = write!(summary, " Task: {task}.");
    }
    if let Some(library) = &model.library {
        let _ = write!(summary, " Library: {library}.");
    }
    xml.push_str("  <entry>\n");
    let _ = writeln!(xml, "    <id>{}</id>", xml_text(&format!("{id_base}{id}/#{when}")));
    let _ = writeln!(xml, "    <title>{} {}</title>", xml_text(id), if added { "added" } else { "updated" });
    let _ = writeln!(xml, "    <updated>{when}</updated>");
    if let Some(created) = model.created {
        let _ = writeln!(xml, "    <published>{}</published>", rfc3339_utc(created));
    }
    let _ = writeln!(xml, "    <author><name>{}</name></author>", xml_text(namespace));
    let _ = writeln!(xml, "    <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", xml_text(&format!("{base_url}{id}/")));
    if let Some(task) = &model.task {
        let _ = writeln!(xml, "    <category term=\"{}\"/>", xml_text(task));
    }
    let _ = writeln!(xml, "    <summary>{}</summary>", xml_text(&summary));
    xml.push_str("  </entry>\n");
}

/// What entry and feed ids start with: the site's address when it is
/// absolute; else a `tag:` URI (RFC 4151) naming the same path, since an
/// Atom id must be an absolute IRI and a path alone is not one.
fn atom_id_base(base_url: &str) -> String {
    if base_url.contains("://") {
        base_url.to_owned()
    } else {
        format!("tag:modelpages,2024:{base_url}")
    }
}

/// `text` as XML character data or an attribute value: markup characters
/// as entities; characters XML 1.0 cannot hold, and those that reorder the
/// text around them, as `\u{..}` escapes.
pub fn xml_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if c.is_control() || reorders_text(c) || matches!(c, '\u{FFFE}' | '\u{FFFF}') => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: &str, created: Option<i64>, updated: Option<i64>) -> ModelSummary {
        ModelSummary { id: id.into(), url: format!("/{id}/"), created, updated, ..ModelSummary::default() }
    }

    #[test]
    fn latest_changes_come_newest_first_and_undated_models_are_left_out() {
        let models = [summary("a/a", None, Some(5)), summary("a/b", None, None), summary("b/a", None, Some(9)), summary("b/b", None, Some(5))];
        let refs: Vec<&ModelSummary> = models.iter().collect();
        assert_eq!(latest(&refs, &[0, 1, 2, 3], 10), [2, 0, 3]);
        assert_eq!(latest(&refs, &[0, 1, 2, 3], 2), [2, 0]);
        assert_eq!(latest(&refs, &[1, 3], 2), [3]);
        assert!(latest(&refs, &[0, 1, 2, 3], 0).is_empty());
    }

    #[test]
    fn hostile_text_is_escaped_and_xml_forbidden_characters_are_written_as_escapes() {
        assert_eq!(xml_text("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&apos;");
        assert_eq!(xml_text("x\u{1}y\u{202e}z\u{FFFF}é"), "x\\u{1}y\\u{202e}z\\u{ffff}é");
        let mut model = summary("org/m", Some(0), Some(86_400 * 3));
        model.task = Some("</summary><script>alert(1)</script>".into());
        model.library = Some("lib\u{0}\u{202e}".into());
        let xml = atom_feed("https://hub.example/", "T & <i>", FeedScope::Namespace("org"), &[&model]);
        assert!(!xml.contains("<script>") && !xml.contains('\u{0}') && !xml.contains('\u{202e}'), "{xml}");
        assert!(xml.contains("<title>org: models added and updated · T &amp; &lt;i&gt;</title>"), "{xml}");
        assert!(xml.contains("Task: &lt;/summary&gt;&lt;script&gt;"), "{xml}");
        assert!(xml.contains("Library: lib\\u{0}\\u{202e}."), "{xml}");
    }

    #[test]
    fn entries_name_the_change_and_ids_are_absolute() {
        let day = 86_400;
        let added = summary("org/new", Some(10 * day + 60), Some(10 * day + 3600));
        let updated = summary("org/old", Some(day), Some(5 * day));
        let xml = atom_feed("/hub/", "Hub", FeedScope::Site, &[&added, &updated]);
        assert!(xml.contains("<id>tag:modelpages,2024:/hub/feed.xml</id>"), "{xml}");
        assert!(xml.contains("<updated>1970-01-11T01:00:00Z</updated>\n  <link rel=\"self\""), "the newest entry's time: {xml}");
        assert!(xml.contains("<id>tag:modelpages,2024:/hub/org/new/#1970-01-11T01:00:00Z</id>"), "{xml}");
        assert!(xml.contains("<title>org/new added</title>") && xml.contains("<title>org/old updated</title>"), "{xml}");
        assert!(xml.contains("<summary>Updated on 1970-01-06. Created on 1970-01-02.</summary>"), "{xml}");
        assert!(xml.contains("<link rel=\"alternate\" type=\"text/html\" href=\"/hub/org/new/\"/>"), "{xml}");
        let absolute = atom_feed("https://hub.example/", "Hub", FeedScope::Task("fill-mask", "Fill-Mask"), &[]);
        assert!(absolute.contains("<id>https://hub.example/tasks/fill-mask/feed.xml</id>"), "{absolute}");
        assert!(absolute.contains("<updated>1970-01-01T00:00:00Z</updated>"), "an empty feed: {absolute}");
        assert!(!absolute.contains("<entry>"));
    }
}
