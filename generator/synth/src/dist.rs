//! Integer-only sampling helpers, so a seed gives the same corpus on every
//! machine: no floating-point maths (whose last bits can differ between
//! platforms' maths libraries) and no `usize` ranges.

use std::ops::RangeInclusive;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

pub type SynthRng = ChaCha8Rng;

/// A uniform index below `n` (`n` > 0).
pub fn below(rng: &mut SynthRng, n: usize) -> usize {
    debug_assert!(n > 0 && n <= u32::MAX as usize);
    rng.random_range(0..n as u32) as usize
}

/// A uniform integer in `lo..=hi`.
pub fn between(rng: &mut SynthRng, lo: u64, hi: u64) -> u64 {
    rng.random_range(lo..=hi)
}

/// True with probability `num / den`.
pub fn chance(rng: &mut SynthRng, num: u32, den: u32) -> bool {
    rng.random_range(0..den) < num
}

/// One item, uniformly.
pub fn pick<T: Copy>(rng: &mut SynthRng, items: &[T]) -> T {
    items[below(rng, items.len())]
}

/// One item, with probability proportional to its weight.
pub fn weighted<T: Copy>(rng: &mut SynthRng, items: &[(T, u32)]) -> T {
    let total: u32 = items.iter().map(|(_, w)| w).sum();
    let mut r = rng.random_range(0..total);
    for (item, w) in items {
        if r < *w {
            return *item;
        }
        r -= w;
    }
    unreachable!("weights sum to total")
}

/// Between `k.start()` and `k.end()` distinct items (at least one; fewer if
/// the list is shorter), in list order.
pub fn several<'a, T>(rng: &mut SynthRng, items: &'a [T], k: RangeInclusive<usize>) -> Vec<&'a T> {
    let (lo, hi) = (*k.start(), *k.end());
    let k = (lo + below(rng, hi - lo + 1)).clamp(1, items.len());
    let mut chosen = vec![false; items.len()];
    let mut n = 0;
    while n < k {
        let i = below(rng, items.len());
        if !chosen[i] {
            chosen[i] = true;
            n += 1;
        }
    }
    items.iter().zip(chosen).filter(|(_, c)| *c).map(|(item, _)| item).collect()
}

/// A download count with the Hub's long tail: most models have a handful, a
/// few have millions. A decade is drawn first, then a spot inside it that
/// leans to its low end, which makes the counts roughly log-distributed.
pub fn downloads(rng: &mut SynthRng) -> u64 {
    const DECADES: [(u32, u32); 8] = [(0, 2800), (1, 2700), (2, 2100), (3, 1400), (4, 650), (5, 250), (6, 80), (7, 20)];
    let decade = weighted(rng, &DECADES);
    if decade == 0 {
        return between(rng, 0, 9);
    }
    let lo = 10u64.pow(decade);
    let (from, to) = weighted(rng, &[((1, 2), 40), ((2, 5), 35), ((5, 10), 25)]);
    between(rng, lo * from, lo * to - 1)
}

/// Likes grow with the square root of downloads, at very different rates:
/// a model with a hundred million downloads has thousands of likes, not millions.
pub fn likes(rng: &mut SynthRng, downloads: u64) -> u64 {
    let rate = weighted(rng, &[(1u64, 20), (3, 30), (6, 25), (12, 15), (30, 10)]);
    downloads.isqrt() * rate / 10 + between(rng, 0, 2) * u64::from(chance(rng, 1, 3))
}

/// Days in the window lastModified dates fall in: 2023-01-01 to 2026-06-30.
const FIRST_DAY: i64 = 19_358; // 2023-01-01, in days since 1970-01-01
const WINDOW_DAYS: u64 = 365 + 366 + 365 + 181;

/// An ISO-8601 timestamp in 2023–2026, leaning to recent dates (the later
/// of two uniform draws).
pub fn last_modified(rng: &mut SynthRng) -> String {
    let day = between(rng, 0, WINDOW_DAYS - 1).max(between(rng, 0, WINDOW_DAYS - 1));
    let (y, m, d) = civil_from_days(FIRST_DAY + day as i64);
    let secs = between(rng, 0, 86_399);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.000Z", secs / 3600, secs / 60 % 60, secs % 60)
}

/// Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `value / 10` with one decimal, e.g. 874 -> "87.4".
pub fn tenths(value: u64) -> String {
    format!("{}.{}", value / 10, value % 10)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(FIRST_DAY), (2023, 1, 1));
        assert_eq!(civil_from_days(FIRST_DAY + WINDOW_DAYS as i64 - 1), (2026, 6, 30));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        let mut rng = SynthRng::seed_from_u64(5);
        for _ in 0..2000 {
            let s = last_modified(&mut rng);
            assert!(s.len() == 24 && (s.starts_with("202")), "{s}");
            let year: u32 = s[..4].parse().unwrap();
            assert!((2023..=2026).contains(&year), "{s}");
        }
    }

    #[test]
    fn long_tail() {
        let mut rng = SynthRng::seed_from_u64(1);
        let mut counts: Vec<u64> = (0..10_000).map(|_| downloads(&mut rng)).collect();
        counts.sort_unstable();
        assert!(counts[5000] < 1000, "median {}", counts[5000]);
        assert!(counts[9990] > 100_000, "top {}", counts[9990]);
    }

    #[test]
    fn several_is_distinct() {
        let mut rng = SynthRng::seed_from_u64(3);
        let items = [1, 2, 3, 4, 5];
        for k in 1..7 {
            let got = several(&mut rng, &items, k..=k);
            assert_eq!(got.len(), k.min(5));
            assert!(got.windows(2).all(|w| w[0] < w[1]));
        }
    }
}
