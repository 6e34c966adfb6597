//! How large YAML becomes once its aliases are expanded, measured before it
//! is built.
//!
//! A YAML parser hands an alias over as a replay of its anchor's whole
//! value, so a small document can stand for a huge one: a 100 KB anchor
//! aliased 2,000 times is 200 MB of strings, and nested aliases multiply
//! ("billion laughs"). [`expanded_size`] walks the document as
//! deserialising it would, counting without keeping anything, and stops as
//! soon as the count passes a limit; only then is the document built.

use std::cell::Cell;
use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, EnumAccess, MapAccess, SeqAccess, VariantAccess, Visitor};

/// Why a document's size was not measured.
#[derive(Debug)]
pub enum SizeError {
    /// The expanded document passes the limit.
    TooLarge,
    /// The document does not parse.
    Invalid(serde_norway::Error),
}

/// Counts what `yaml` expands to: every string's bytes (keys and tags too)
/// plus one for every value, so that empty lists and nulls count as well.
/// A document without aliases counts at most about 1.5 per byte of its
/// text (`{a,b}` is two keys and two nulls in four bytes; escapes such as
/// `\L` give three bytes for two). Walking allocates nothing per value:
/// strings are only looked at.
pub fn expanded_size(yaml: &str, limit: usize) -> Result<usize, SizeError> {
    let spent = Cell::new(0);
    let measure = Measure { spent: &spent, limit };
    match measure.deserialize(serde_norway::Deserializer::from_str(yaml)) {
        Ok(()) => Ok(spent.get()),
        Err(_) if spent.get() > limit => Err(SizeError::TooLarge),
        Err(e) => Err(SizeError::Invalid(e)),
    }
}

/// The walker: a seed and a visitor for any value, adding to `spent`.
#[derive(Clone, Copy)]
struct Measure<'a> {
    spent: &'a Cell<usize>,
    limit: usize,
}

impl Measure<'_> {
    /// Adds `amount`; past the limit the walk stops with an error (told
    /// apart from the parser's own by `spent` being over the limit).
    fn charge<E: de::Error>(self, amount: usize) -> Result<(), E> {
        let total = self.spent.get().saturating_add(amount);
        self.spent.set(total);
        if total > self.limit {
            return Err(E::custom(format_args!("expands past {} bytes", self.limit)));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Measure<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Measure<'_> {
    type Value = ();

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.charge(1)
    }

    // Integers too large for 64 bits are walked like any other; building
    // the document then says what is wrong with them.
    fn visit_i128<E: de::Error>(self, _: i128) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_u128<E: de::Error>(self, _: u128) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.charge(1)
    }

    // Borrowed and owned strings arrive here too (serde's defaults).
    fn visit_str<E: de::Error>(self, text: &str) -> Result<(), E> {
        self.charge(1usize.saturating_add(text.len()))
    }

    fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        self.charge(1usize.saturating_add(bytes.len()))
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_none<E: de::Error>(self) -> Result<(), E> {
        self.charge(1)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        self.charge(1)?;
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        self.charge(1)?;
        while items.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<(), A::Error> {
        self.charge(1)?;
        while entries.next_key_seed(self)?.is_some() {
            entries.next_value_seed(self)?;
        }
        Ok(())
    }

    /// A tagged value (`!tag value`): the tag, then the value.
    fn visit_enum<A: EnumAccess<'de>>(self, tagged: A) -> Result<(), A::Error> {
        self.charge(1)?;
        let ((), value) = tagged.variant_seed(self)?;
        value.newtype_variant_seed(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_strings_values_keys_and_tags() {
        // A map, a key of 4 bytes, a list, "ab", a null, true, 7.
        assert_eq!(expanded_size("name: [ab, ~, true, 7]", 100).unwrap(), 1 + 5 + 1 + 3 + 1 + 1 + 1);
        // The tag (`x` of `!x`) and its value count too.
        assert_eq!(expanded_size("!x abc", 100).unwrap(), 1 + 2 + 4);
        // An alias counts as many times as it is used.
        assert_eq!(expanded_size("[&a abcd, *a, *a]", 100).unwrap(), 1 + 3 * 5);
    }

    #[test]
    fn stops_past_the_limit_and_tells_it_from_bad_yaml() {
        assert!(matches!(expanded_size("[&a abcd, *a, *a]", 15), Err(SizeError::TooLarge)));
        assert!(matches!(expanded_size("[unclosed", 100), Err(SizeError::Invalid(_))));
    }

    #[test]
    fn a_document_without_aliases_counts_at_most_about_its_length() {
        let dense = [
            "[a,b,c,d,e,f,g,h]",
            "{a,b,c,d,e,f,g,h}",
            "[~,~,~,~,~,~]",
            "[[],[],[],[]]",
            "\"\\L\\L\\L\\L\\L\\L\"",
            "- \n- \n- \n- \n",
            "? \n? \n? \n",
        ];
        for yaml in dense {
            let size = expanded_size(yaml, usize::MAX).unwrap();
            assert!(size * 2 <= yaml.len() * 3 + 2, "{yaml:?} counts {size}");
        }
    }
}
