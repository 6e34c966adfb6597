//! Record timestamps (`createdAt`, `lastModified`) as seconds since the
//! Unix epoch, and back as the one spelling feeds write.
//!
//! Records are untrusted, so a timestamp is read only when it is a date
//! (`2024-09-25`, taken as midnight UTC) or an RFC 3339 date and time
//! (`2024-09-25T14:06:55.000Z`, `2024-09-25T16:06:55+02:00`) of a year
//! from 0001 to 9999; anything else is no timestamp. Fractions of a second
//! are dropped, so two spellings of one second are one value and a feed
//! writes them alike.

/// Seconds since 1970-01-01T00:00:00Z of `text`, if it is a timestamp.
pub fn unix_seconds(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let number = |range: std::ops::Range<usize>| -> Option<i64> {
        let digits = b.get(range)?;
        digits.iter().all(u8::is_ascii_digit).then(|| digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    };
    let (year, month, day) = (number(0..4)?, number(5..7)?, number(8..10)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') || year == 0 || !(1..=12).contains(&month) {
        return None;
    }
    if day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let date = days_from_civil(year, month, day) * 86_400;
    if b.len() == 10 {
        return Some(date);
    }
    if !matches!(b[10], b'T' | b't') || b.get(13) != Some(&b':') || b.get(16) != Some(&b':') {
        return None;
    }
    let (hour, minute, second) = (number(11..13)?, number(14..16)?, number(17..19)?);
    // 60 is a leap second; it counts as the next second's start.
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut rest = &b[19..];
    if let Some(fraction) = rest.strip_prefix(b".") {
        let digits = fraction.iter().take_while(|d| d.is_ascii_digit()).count();
        if digits == 0 {
            return None;
        }
        rest = &fraction[digits..];
    }
    let offset = match rest {
        b"Z" | b"z" => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let two = |a: u8, b: u8| (a.is_ascii_digit() && b.is_ascii_digit()).then(|| i64::from(a - b'0') * 10 + i64::from(b - b'0'));
            let (h, m) = (two(*h1, *h2)?, two(*m1, *m2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let minutes = h * 60 + m;
            if *sign == b'+' { minutes } else { -minutes }
        }
        _ => return None,
    };
    Some(date + hour * 3600 + minute * 60 + second - offset * 60)
}

/// `seconds` since the epoch as `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339 in UTC,
/// what Atom's date elements take).
pub fn rfc3339_utc(seconds: i64) -> String {
    let (days, second_of_day) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    let (year, month, day) = civil_from_days(days);
    let (h, m, s) = (second_of_day / 3600, second_of_day / 60 % 60, second_of_day % 60);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

/// The `YYYY-MM-DD` day (UTC) of `seconds` since the epoch.
pub fn utc_day(seconds: i64) -> String {
    rfc3339_utc(seconds)[..10].to_owned()
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date: years counted
/// from March, so the leap day ends a year and every era of 400 years
/// has the same 146,097 days.
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let day_of_year = (153 * ((month + 9) % 12) + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let days = days + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 { shifted_month + 3 } else { shifted_month - 9 };
    (year_of_era + era * 400 + i64::from(month <= 2), month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hub_timestamps_read_as_seconds_and_write_in_utc() {
        // 1727273215 is 2024-09-25T14:06:55Z (date -u -d @1727273215).
        assert_eq!(unix_seconds("2024-09-25T14:06:55.000Z"), Some(1_727_273_215));
        assert_eq!(unix_seconds("2024-09-25T16:06:55+02:00"), Some(1_727_273_215));
        assert_eq!(unix_seconds("2024-09-25T09:36:55.123456-04:30"), Some(1_727_273_215));
        assert_eq!(unix_seconds("1970-01-01"), Some(0));
        assert_eq!(unix_seconds("2024-02-29"), Some(1_709_164_800));
        assert_eq!(rfc3339_utc(1_727_273_215), "2024-09-25T14:06:55Z");
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(-1), "1969-12-31T23:59:59Z");
        assert_eq!(utc_day(1_709_164_800), "2024-02-29");
        // Days from 0001-01-01 to 9999-12-31 (every leap rule) go there and back.
        assert_eq!(rfc3339_utc(-719_162 * 86_400), "0001-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(2_932_896 * 86_400), "9999-12-31T00:00:00Z");
        for days in (-719_162..2_932_897).step_by(997) {
            let s = days * 86_400 + 3_723;
            assert_eq!(unix_seconds(&rfc3339_utc(s)), Some(s), "{}", rfc3339_utc(s));
        }
    }

    #[test]
    fn anything_else_is_no_timestamp() {
        for bad in [
            "", "2024", "2024-13-01", "2024-02-30", "2023-02-29", "0000-01-01", "2024-09-25T", "2024-09-25 14:06:55Z",
            "2024-09-25T24:00:00Z", "2024-09-25T14:06:55", "2024-09-25T14:06:55.Z", "2024-09-25T14:06:55+2:00",
            "2024-09-25T14:06:55Z<script>", "2024-09-25x", "+2024-09-25", "2024-09-25T14:06:55+24:00", "२०२४-09-25",
        ] {
            assert_eq!(unix_seconds(bad), None, "{bad:?}");
        }
    }
}
