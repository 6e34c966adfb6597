//! The fields of a card's front matter that a page shows, read within bounds.
//!
//! A YAML parser hands an alias over as a replay of its anchor's whole
//! value, so a small document can stand for a huge one: a 100 KB anchor
//! aliased 2,000 times is 200 MB of strings, and nested aliases multiply
//! ("billion laughs"). [`read_fields`] reads only the top-level keys it is
//! asked for: every other key's value is skipped without its aliases being
//! replayed, so it costs its text and nothing more, whatever it holds. A
//! field asked for is built while what it expands to is counted
//! ([`Bounded`]), and the build stops as soon as the count passes a limit;
//! that field, like one the parser cannot build (nested past its depth
//! limit, replayed past its own limit), is left out with the reason, and the
//! others are read. Only YAML that does not parse at all is an error.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, IgnoredAny, MapAccess, SeqAccess, VariantAccess, Visitor};
use serde_norway::value::{Tag, TaggedValue};
use serde_norway::{Mapping, Value as Yaml};

/// Why a field asked for was left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unread {
    /// It expands past the limit.
    TooLarge,
    /// The parser could not build it; its message.
    Unbuildable(String),
}

/// The value of each of `names` in the top-level mapping of `yaml`, in
/// order: `None` when missing, else the value or why it was left out. Each
/// field may expand to at most `limit` (see [`Bounded`]). An error only for
/// YAML that does not parse.
pub fn read_fields(yaml: &str, names: &[&str], limit: usize) -> Result<Vec<Option<Result<Yaml, Unread>>>, serde_norway::Error> {
    let mut left_out: Vec<(usize, Unread)> = Vec::new();
    loop {
        let reading = Cell::new(None);
        let spent = Cell::new(0);
        let top = TopLevel { names, left_out: &left_out, reading: &reading, spent: &spent, limit };
        match top.deserialize(serde_norway::Deserializer::from_str(yaml)) {
            Ok(mut found) => {
                for (index, why) in left_out {
                    found[index] = Some(Err(why));
                }
                return Ok(found);
            }
            // The parser stops at the first error: read again without the
            // field that was being built, if one was.
            Err(err) => match reading.get() {
                Some(index) => {
                    let why = if spent.get() > limit { Unread::TooLarge } else { Unread::Unbuildable(err.to_string()) };
                    left_out.push((index, why));
                }
                None => return Err(err),
            },
        }
    }
}

/// The document's top level: a mapping whose wanted keys are built and the
/// rest skipped; anything else holds no field.
struct TopLevel<'a> {
    names: &'a [&'a str],
    left_out: &'a [(usize, Unread)],
    /// The field being built, if any, so that an error can be laid to it.
    reading: &'a Cell<Option<usize>>,
    spent: &'a Cell<usize>,
    limit: usize,
}

impl<'de> DeserializeSeed<'de> for TopLevel<'_> {
    type Value = Vec<Option<Result<Yaml, Unread>>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for TopLevel<'_> {
    type Value = Vec<Option<Result<Yaml, Unread>>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("front matter")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Self::Value, A::Error> {
        let mut found = vec![None; self.names.len()];
        while let Some(key) = entries.next_key_seed(KeyName)? {
            let wanted = key.and_then(|key| self.names.iter().position(|name| *name == key));
            match wanted.filter(|index| !self.left_out.iter().any(|(left, _)| left == index)) {
                Some(index) => {
                    self.reading.set(Some(index));
                    self.spent.set(0);
                    let value = entries.next_value_seed(Bounded { spent: self.spent, limit: self.limit })?;
                    self.reading.set(None);
                    found[index] = Some(Ok(value));
                }
                None => {
                    entries.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(found)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        while items.next_element::<IgnoredAny>()?.is_some() {}
        Ok(vec![None; self.names.len()])
    }

    fn visit_enum<A: EnumAccess<'de>>(self, tagged: A) -> Result<Self::Value, A::Error> {
        let (IgnoredAny, value) = tagged.variant()?;
        value.newtype_variant::<IgnoredAny>()?;
        Ok(vec![None; self.names.len()])
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(vec![None; self.names.len()])
    }
}

/// A top-level key: its text when it is a string. Any other key (a list, a
/// tagged value, an alias of one) is skipped without being expanded.
struct KeyName;

impl<'de> DeserializeSeed<'de> for KeyName {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<String>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KeyName {
    type Value = Option<String>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Option<String>, E> {
        Ok(Some(key.to_owned()))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_i128<E: de::Error>(self, _: i128) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_unit<E: de::Error>(self) -> Result<Option<String>, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Option<String>, A::Error> {
        while items.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Option<String>, A::Error> {
        while entries.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, tagged: A) -> Result<Option<String>, A::Error> {
        let (IgnoredAny, value) = tagged.variant()?;
        value.newtype_variant::<IgnoredAny>()?;
        Ok(None)
    }
}

/// Builds any value, counting what it takes against `limit`: each value
/// (list, mapping, null, number...) counts what a built value holds in
/// memory, each string its bytes besides, each tag (`!x`) likewise. An
/// alias counts as many times as it is used. Past the limit the build
/// stops with an error, told apart from the parser's by `spent`.
#[derive(Clone, Copy)]
struct Bounded<'a> {
    spent: &'a Cell<usize>,
    limit: usize,
}

/// What a built value holds in memory besides its strings.
const VALUE_BYTES: usize = std::mem::size_of::<Yaml>();

impl Bounded<'_> {
    fn charge<E: de::Error>(self, bytes: usize) -> Result<(), E> {
        let total = self.spent.get().saturating_add(VALUE_BYTES).saturating_add(bytes);
        self.spent.set(total);
        if total > self.limit {
            return Err(E::custom(format_args!("expands past {} bytes", self.limit)));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Bounded<'_> {
    type Value = Yaml;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Yaml, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Bounded<'_> {
    type Value = Yaml;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, value: bool) -> Result<Yaml, E> {
        self.charge(0)?;
        Ok(Yaml::Bool(value))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Yaml, E> {
        self.charge(0)?;
        Ok(Yaml::Number(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Yaml, E> {
        self.charge(0)?;
        Ok(Yaml::Number(value.into()))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Yaml, E> {
        self.charge(0)?;
        Ok(Yaml::Number(value.into()))
    }

    // Borrowed strings arrive here too (serde's default).
    fn visit_str<E: de::Error>(self, text: &str) -> Result<Yaml, E> {
        self.charge(text.len())?;
        Ok(Yaml::String(text.to_owned()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Yaml, E> {
        self.charge(0)?;
        Ok(Yaml::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Yaml, E> {
        self.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Yaml, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Yaml, A::Error> {
        self.charge(0)?;
        let mut list = Vec::new();
        while let Some(item) = items.next_element_seed(self)? {
            list.push(item);
        }
        Ok(Yaml::Sequence(list))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Yaml, A::Error> {
        self.charge(0)?;
        let mut map = Mapping::new();
        while let Some(key) = entries.next_key_seed(self)? {
            let value = entries.next_value_seed(self)?;
            map.insert(key, value);
        }
        Ok(Yaml::Mapping(map))
    }

    /// A tagged value (`!tag value`): the tag, then the value.
    fn visit_enum<A: EnumAccess<'de>>(self, tagged: A) -> Result<Yaml, A::Error> {
        self.charge(0)?;
        let (tag, value) = tagged.variant_seed(self)?;
        let Yaml::String(tag) = tag else { return Err(de::Error::custom("a tag that is not a name")) };
        let value = value.newtype_variant_seed(self)?;
        Ok(Yaml::Tagged(Box::new(TaggedValue { tag: Tag::new(tag), value })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(yaml: &str, names: &[&str], limit: usize) -> Vec<Option<Result<Yaml, Unread>>> {
        read_fields(yaml, names, limit).unwrap()
    }

    #[test]
    fn reads_the_fields_asked_for_and_skips_the_rest() {
        let fields = read("license: mit\nother: {a: [1, 2]}\ntags: [a, 7, !x b]\n? [odd, key]\n: 1\n", &["tags", "license", "gone"], 1 << 20);
        assert_eq!(fields[1], Some(Ok(Yaml::String("mit".into()))));
        let Some(Ok(Yaml::Sequence(tags))) = &fields[0] else { panic!("{fields:?}") };
        assert_eq!(tags.len(), 3);
        assert_eq!(fields[2], None);
        assert_eq!(read("[a, b]", &["tags"], 1 << 20), [None], "no mapping, no field");
        assert!(read_fields("tags: [unclosed", &["tags"], 1 << 20).is_err(), "bad YAML is an error");
    }

    /// `anchor_bytes` aliased `aliases` times under `key`, beside `license: mit`.
    fn aliased(key: &str, anchor_bytes: usize, aliases: usize) -> String {
        format!("big: &big \"{}\"\nlicense: mit\n{key}: [{}]\n", "x".repeat(anchor_bytes), vec!["*big"; aliases].join(", "))
    }

    #[test]
    fn a_field_expanding_past_the_limit_is_left_out_alone() {
        // 100 KB replayed 2,000 times would be 200 MB of strings.
        let yaml = aliased("tags", 100_000, 2_000);
        assert_eq!(read(&yaml, &["tags", "license"], 1 << 20), [Some(Err(Unread::TooLarge)), Some(Ok(Yaml::String("mit".into())))]);
        // Under a key not asked for, nothing is replayed at all.
        let yaml = aliased("elsewhere", 100_000, 2_000);
        assert_eq!(read(&yaml, &["tags", "license"], 1 << 20), [None, Some(Ok(Yaml::String("mit".into())))]);
        // A few aliases within the limit are read.
        let Some(Ok(Yaml::Sequence(tags))) = read(&aliased("tags", 10, 5), &["tags"], 1 << 20).remove(0) else { panic!() };
        assert_eq!(tags.len(), 5);
    }

    #[test]
    fn nested_aliases_are_counted_as_expanded() {
        // A billion laughs, nine levels of nine.
        let mut yaml = String::from("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (level, prev) in ('b'..='i').zip('a'..='h') {
            yaml.push_str(&format!("{level}: &{level} [{}]\n", vec![format!("*{prev}"); 9].join(", ")));
        }
        let started = std::time::Instant::now();
        let fields = read(&format!("{yaml}license: *i\ntags: [x]\n"), &["license", "tags"], 1 << 20);
        assert!(matches!(fields[0], Some(Err(_))), "{:?}", fields[0]);
        assert!(matches!(fields[1], Some(Ok(_))));
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
        // Not asked for, it costs nothing.
        assert_eq!(read(&format!("{yaml}license: mit\n"), &["license"], 1 << 20), [Some(Ok(Yaml::String("mit".into())))]);
    }

    #[test]
    fn a_field_the_parser_cannot_build_is_left_out_with_its_reason() {
        let deep = format!("license: {}{}\ntags: [x]\n", "[".repeat(10_000), "]".repeat(10_000));
        let fields = read(&deep, &["license", "tags"], 1 << 20);
        assert!(matches!(&fields[0], Some(Err(Unread::Unbuildable(why))) if why.contains("recursion limit")), "{:?}", fields[0]);
        assert!(matches!(fields[1], Some(Ok(_))));
    }
}
