//! A record's volatile figures, `downloads` and `likes`, apart from the rest.
//!
//! On a hub they move every day for nearly every model, while nothing else
//! in the record does. A model's own files (its page, API file and
//! notebook) do not show them, so a build that finds only they changed has
//! nothing to render: [`split_counts`] gives the two figures and where they
//! sit in the record's bytes, so the input hash can leave them out
//! ([`stable_bytes`]).
//!
//! Only figures the record parser would accept are left out: a top-level
//! `downloads` or `likes` that is a whole number or `null`, named once. Any
//! other shape (a string, a negative number, a key named twice, a record
//! that is not an object or not JSON) gives `None`, and the whole record is
//! hashed, so the parser sees it and reports what is wrong.

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The figures of a record and where their values lie in its bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CountsSplit {
    pub downloads: Option<u64>,
    pub likes: Option<u64>,
    /// Byte ranges of the two values (not their keys), in order.
    pub holes: Vec<Range<usize>>,
}

/// The figures of `record` (the bytes of a `model.json`), if they can be
/// told apart from the rest (see the module overview).
pub fn split_counts(record: &[u8]) -> Option<CountsSplit> {
    let body = record.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(record);
    let offset = record.len() - body.len();
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let found = deserializer.deserialize_map(TopLevel { body }).ok()??;
    deserializer.end().ok()?;
    let mut split = CountsSplit::default();
    let mut holes = Vec::new();
    for (key, value) in [("downloads", found.downloads), ("likes", found.likes)] {
        let Some((range, count)) = value else { continue };
        if key == "downloads" {
            split.downloads = count;
        } else {
            split.likes = count;
        }
        holes.push(range.start + offset..range.end + offset);
    }
    holes.sort_by_key(|r| r.start);
    split.holes = holes;
    Some(split)
}

/// The bytes of `record` without the values `holes` names, each hole
/// replaced by one `#` (which no JSON value is), so two records that differ
/// only in their figures give the same bytes and no two others do.
pub fn stable_bytes<'a>(record: &'a [u8], holes: &[Range<usize>]) -> Cow<'a, [u8]> {
    if holes.is_empty() {
        return Cow::Borrowed(record);
    }
    let mut out = Vec::with_capacity(record.len());
    let mut at = 0;
    for hole in holes {
        out.extend_from_slice(&record[at..hole.start]);
        out.push(b'#');
        at = hole.end;
    }
    out.extend_from_slice(&record[at..]);
    Cow::Owned(out)
}

/// A figure's value range and its count (`None` for `null`).
type Figure = Option<(Range<usize>, Option<u64>)>;

#[derive(Default)]
struct Found {
    downloads: Figure,
    likes: Figure,
}

/// Reads the top-level object: `None` when a figure is named twice or is
/// not a count.
struct TopLevel<'a> {
    body: &'a [u8],
}

impl<'de, 'a> Visitor<'de> for TopLevel<'a> {
    type Value = Option<Found>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Option<Found>, M::Error> {
        let mut found = Found::default();
        let mut valid = true;
        while let Some(key) = map.next_key::<Cow<'de, str>>()? {
            let slot = match key.as_ref() {
                "downloads" => &mut found.downloads,
                "likes" => &mut found.likes,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                    continue;
                }
            };
            let raw: &'de RawValue = map.next_value()?;
            let text = raw.get();
            // The raw value borrows from the input: its place is its offset.
            let start = text.as_ptr() as usize - self.body.as_ptr() as usize;
            let count: Result<Option<u64>, _> = serde_json::from_str(text);
            match (count, slot.is_some()) {
                (Ok(count), false) => *slot = Some((start..start + text.len(), count)),
                _ => valid = false,
            }
        }
        Ok(valid.then_some(found))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stable(record: &str) -> Option<String> {
        let split = split_counts(record.as_bytes())?;
        Some(String::from_utf8(stable_bytes(record.as_bytes(), &split.holes).into_owned()).unwrap())
    }

    #[test]
    fn figures_are_found_and_left_out() {
        let record = "{\"id\": \"a/b\", \"downloads\": 1234, \"tags\": [\"x\"], \"likes\" :null}";
        let split = split_counts(record.as_bytes()).unwrap();
        assert_eq!((split.downloads, split.likes), (Some(1234), None));
        assert_eq!(stable(record).unwrap(), "{\"id\": \"a/b\", \"downloads\": #, \"tags\": [\"x\"], \"likes\" :#}");
        let moved = record.replace("1234", "98765").replace("null", "7");
        assert_eq!(stable(&moved), stable(record), "only the figures moved");
        assert_ne!(stable(&record.replace("\"x\"", "\"y\"")), stable(record));
        // Nested keys of the same name are not the record's figures.
        let nested = "\u{feff}{\"cardData\": {\"downloads\": 5}, \"likes\": 2}";
        let split = split_counts(nested.as_bytes()).unwrap();
        assert_eq!((split.downloads, split.likes), (None, Some(2)));
        assert_eq!(&nested.as_bytes()[split.holes[0].clone()], b"2");
        // Escaped key names are the same keys.
        assert_eq!(split_counts(br#"{"d\u006fwnloads": 3}"#).unwrap().downloads, Some(3));
    }

    #[test]
    fn what_the_parser_would_refuse_is_hashed_whole() {
        for bad in [
            r#"{"downloads": -1}"#,
            r#"{"downloads": "many"}"#,
            r#"{"likes": 1.5}"#,
            r#"{"likes": 1, "likes": 2}"#,
            r#"[1, 2]"#,
            r#"{"downloads": 1"#,
            r#"{"downloads": 1} trailing"#,
        ] {
            assert_eq!(split_counts(bad.as_bytes()), None, "{bad}");
        }
        assert_eq!(split_counts(b"{}").unwrap(), CountsSplit::default());
        assert_eq!(stable_bytes(b"{}", &[]), Cow::Borrowed(b"{}".as_slice()));
    }
}
