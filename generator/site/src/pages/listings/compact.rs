//! The compact form of what a build keeps of its listings for the next
//! (see [`super::carried`]): numbers as LEB128 varints, runs of strings
//! front-coded (each after how many bytes it shares with the one before),
//! and a reader that refuses whatever runs past its end, overflows, or
//! would grow past a bound. A damaged file costs the next build the work
//! it would have saved, never a panic or a huge allocation.

/// Appends `n` as a LEB128 varint.
pub fn put(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8 & 0x7f) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Appends each of `items`: how many bytes it shares with the one before,
/// how many follow, and those.
pub fn put_front_coded<'a>(out: &mut Vec<u8>, items: impl Iterator<Item = &'a [u8]>) {
    let mut last: &[u8] = &[];
    for item in items {
        put_front_coded_after(out, last, item);
        last = item;
    }
}

/// Appends `item` front-coded after `last`, the item before it (empty for
/// the first), for runs with other things between their items.
pub fn put_front_coded_after(out: &mut Vec<u8>, last: &[u8], item: &[u8]) {
    let shared = last.iter().zip(item).take_while(|(a, b)| a == b).count();
    put(out, shared);
    put(out, item.len() - shared);
    out.extend_from_slice(&item[shared..]);
}

/// Reads what [`put`] and [`put_front_coded`] wrote.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// Whether every byte was read.
    pub fn is_done(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn num(&mut self) -> Option<usize> {
        let mut n = 0usize;
        for (i, &byte) in self.bytes.iter().enumerate().take(10) {
            let bits = usize::from(byte & 0x7f).checked_shl(7 * i as u32)?;
            if bits >> (7 * i) != usize::from(byte & 0x7f) {
                return None;
            }
            n |= bits;
            if byte < 0x80 {
                self.bytes = &self.bytes[i + 1..];
                return Some(n);
            }
        }
        None
    }

    /// A number of items that follow, each at least a byte: no more than
    /// the bytes left, so a bad count cannot make a huge allocation.
    pub fn count(&mut self) -> Option<usize> {
        self.num().filter(|n| *n <= self.bytes.len())
    }

    /// The bytes not read yet.
    pub fn rest(self) -> &'a [u8] {
        self.bytes
    }

    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (taken, rest) = self.bytes.split_at_checked(n)?;
        self.bytes = rest;
        Some(taken)
    }

    /// `count` front-coded items, back to back, with where each ends; each
    /// at most `longest` bytes, so that what the items share cannot make
    /// them grow past the bytes read by more than that much each.
    pub fn front_coded(&mut self, count: usize, longest: usize) -> Option<(Vec<u8>, Vec<usize>)> {
        let mut bytes: Vec<u8> = Vec::new();
        let mut ends: Vec<usize> = Vec::with_capacity(count);
        let mut last = 0..0;
        for _ in 0..count {
            let (shared, own) = self.front_coded_parts(last.len(), longest)?;
            let start = bytes.len();
            bytes.extend_from_within(last.start..last.start + shared);
            bytes.extend_from_slice(own);
            ends.push(bytes.len());
            last = start..bytes.len();
        }
        Some((bytes, ends))
    }

    /// The item [`put_front_coded_after`] wrote, in place of `item`, which
    /// holds the item before it; at most `longest` bytes.
    pub fn front_coded_after(&mut self, item: &mut Vec<u8>, longest: usize) -> Option<()> {
        let (shared, own) = self.front_coded_parts(item.len(), longest)?;
        item.truncate(shared);
        item.extend_from_slice(own);
        Some(())
    }

    /// How many bytes an item shares with the one before (`last` bytes
    /// long), and its own bytes; the two at most `longest` together.
    fn front_coded_parts(&mut self, last: usize, longest: usize) -> Option<(usize, &'a [u8])> {
        let shared = self.num()?;
        let own = self.num()?;
        if shared > last || shared.checked_add(own)? > longest {
            return None;
        }
        Some((shared, self.take(own)?))
    }
}
