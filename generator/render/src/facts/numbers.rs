//! Numbers and dates as the facts column words them: compact counts
//! ("5.8M downloads", "1 like"), file sizes in three significant digits
//! ("808 MB"; also used by the GGUF table and the quantization picker),
//! parameter counts as the Hub words them, at most three significant digits
//! and no trailing zero ("8.03B params", "67M params"), and record
//! timestamps cut to their day.
//!
//! Counts are rounded to at most three significant digits and one decimal,
//! the way a visitor reads them at a glance: `4_321` is `4.3k`,
//! `123_456` is `123k`, `999_999` is `1M` (the rounding carries into the
//! next unit rather than printing `1000k`).

/// `n` in compact form: `999`, `4.3k`, `12.3k`, `123k`, `5.8M`, `1.2B`.
pub fn compact(n: u64) -> String {
    const UNITS: [&str; 5] = ["", "k", "M", "B", "T"];
    if n < 1000 {
        return n.to_string();
    }
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit + 1 < UNITS.len() {
        value /= 1000.0;
        unit += 1;
    }
    // One decimal below 100, none above; a value that rounds up to 1000
    // moves to the next unit.
    let mut rounded = if value < 99.95 { (value * 10.0).round() / 10.0 } else { value.round() };
    if rounded >= 1000.0 && unit + 1 < UNITS.len() {
        unit += 1;
        rounded = ((rounded / 1000.0) * 10.0).round() / 10.0;
    }
    let text = if rounded < 100.0 && rounded.fract() != 0.0 { format!("{rounded:.1}") } else { format!("{rounded:.0}") };
    format!("{text}{}", UNITS[unit])
}

/// `count` compact with the word in the right number: "1 like", "4.3k likes".
pub fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{} {}", compact(count), if count == 1 { one } else { many })
}

/// How a page words a popularity class: "10k+ downloads".
pub fn popularity_label(class: u8) -> String {
    match class {
        0 => "no downloads".to_owned(),
        1 => "under 10 downloads".to_owned(),
        c => format!("{}+ downloads", compact(10u64.saturating_pow(u32::from(c) - 1))),
    }
}

/// The day of a record timestamp (`2024-03-05T10:00:00.000Z` is
/// `2024-03-05`); `None` for text that does not start with a date, as
/// records are untrusted and the value goes into a `datetime` attribute.
pub fn day_of(timestamp: &str) -> Option<String> {
    let day = timestamp.get(..10)?;
    let b = day.as_bytes();
    let digits = |range: std::ops::Range<usize>| b[range].iter().all(u8::is_ascii_digit);
    if !(digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)) {
        return None;
    }
    let month: u32 = day[5..7].parse().ok()?;
    let date: u32 = day[8..10].parse().ok()?;
    ((1..=12).contains(&month) && (1..=31).contains(&date)).then(|| day.to_owned())
}

/// `n` in three significant digits with a unit from `units` (each `step`
/// times the one before): `807694464` bytes is `808 MB` in steps of 1000.
fn with_units(n: u64, step: f64, units: &[&str]) -> String {
    let (value, digits, unit) = in_units(n, step, units.len());
    format!("{value:.digits$}{}", units[unit])
}

/// `n` as a value of one of `units` units (each `step` times the one
/// before) and the decimals that leave it three significant digits, and
/// the unit.
fn in_units(n: u64, step: f64, units: usize) -> (f64, usize, usize) {
    let mut value = n as f64;
    let mut unit = 0;
    while value >= step - 0.5 && unit + 1 < units {
        value /= step;
        unit += 1;
    }
    let digits = if unit == 0 || value >= 99.95 { 0 } else if value >= 9.995 { 1 } else { 2 };
    (value, digits, unit)
}

/// A file size as hubs show it, in decimal units.
pub(crate) fn bytes_text(bytes: u64) -> String {
    with_units(bytes, 1000.0, &[" B", " kB", " MB", " GB", " TB", " PB"])
}

/// A memory size in binary units, as memory is sold: `4917954976` bytes
/// is `4.58 GiB`.
pub(crate) fn binary_bytes_text(bytes: u64) -> String {
    with_units(bytes, 1024.0, &[" B", " KiB", " MiB", " GiB", " TiB"])
}

/// A parameter count as the Hub words it: `8030261248` is `8.03B params`,
/// `66985530` is `67M params` (three significant digits, no trailing zero).
pub(crate) fn params_text(n: u64) -> String {
    const UNITS: [&str; 5] = ["", "K", "M", "B", "T"];
    let (value, digits, unit) = in_units(n, 1000.0, UNITS.len());
    let number = format!("{value:.digits$}");
    let number = if number.contains('.') { number.trim_end_matches('0').trim_end_matches('.') } else { &number };
    format!("{number}{} params", UNITS[unit])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_counts_round_like_the_hub() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1k"),
            (4321, "4.3k"),
            (12_345, "12.3k"),
            (99_960, "100k"),
            (123_456, "123k"),
            (999_499, "999k"),
            (999_999, "1M"),
            (5_832_123, "5.8M"),
            (1_234_567_890, "1.2B"),
        ];
        for (n, text) in cases {
            assert_eq!(compact(n), text, "{n}");
        }
    }

    #[test]
    fn counted_words_agree_with_the_number() {
        assert_eq!(counted(1, "like", "likes"), "1 like");
        assert_eq!(counted(2, "like", "likes"), "2 likes");
        assert_eq!(counted(0, "like", "likes"), "0 likes");
        assert_eq!(counted(4321, "download", "downloads"), "4.3k downloads");
        let classes: Vec<u8> = [0, 1, 9, 10, 99, 100, 12_345, u64::MAX].into_iter().map(modelpages_record::popularity_class).collect();
        assert_eq!(classes, [0, 1, 1, 2, 2, 3, 5, 20]);
        let labels: Vec<String> = [0, 1, 2, 4, 7].into_iter().map(popularity_label).collect();
        assert_eq!(labels, ["no downloads", "under 10 downloads", "10+ downloads", "1k+ downloads", "1M+ downloads"]);
    }

    #[test]
    fn days_of_timestamps() {
        assert_eq!(day_of("2024-03-05T10:00:00.000Z").as_deref(), Some("2024-03-05"));
        assert_eq!(day_of("2024-03-05").as_deref(), Some("2024-03-05"));
        for bad in ["", "2024-3-5", "yesterday!", "2024-13-01T", "2024-01-00", "\"><script>", "2024-0é-01"] {
            assert_eq!(day_of(bad), None, "{bad}");
        }
    }

    #[test]
    fn sizes_and_counts() {
        assert_eq!(bytes_text(512), "512 B");
        assert_eq!(bytes_text(262_400), "262 kB");
        assert_eq!(bytes_text(807_694_464), "808 MB");
        assert_eq!(bytes_text(2_479_595_648), "2.48 GB");
        assert_eq!(bytes_text(32_132_073_504), "32.1 GB");
        assert_eq!(bytes_text(999_999), "1.00 MB");
        assert_eq!(bytes_text(u64::MAX), "18447 PB");
    }

    #[test]
    fn parameter_counts_as_the_hub_words_them() {
        assert_eq!(params_text(12_800), "12.8K params");
        assert_eq!(params_text(8_030_261_248), "8.03B params");
        assert_eq!(params_text(7), "7 params");
        // distilbert-base-uncased: not "67.0M".
        assert_eq!(params_text(66_985_530), "67M params");
        assert_eq!(params_text(1_100_048_384), "1.1B params");
        assert_eq!(params_text(124_645_632), "125M params");
        assert_eq!(params_text(999_600), "1M params");
        assert_eq!(params_text(7_241_732_096), "7.24B params");
    }
}
