//! Reading a GGUF file's header, and only its header: magic, version,
//! metadata and tensor infos (versions 2 and 3, little-endian).
//!
//! Files are untrusted. Every count and length in them is checked against a
//! limit before it is used, nothing is allocated from a count, and the reader
//! stops after [`Limits::max_header_bytes`]: a hostile file costs at most that
//! much reading and a few small buffers.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use crate::arch_keys::{ArchKeys, AttentionShape, HeadCount, MAX_LAYERS};
use crate::error::{GgufError, GgufErrorKind};
use crate::types::TensorType;

const MAGIC: &[u8; 4] = b"GGUF";
const DEFAULT_ALIGNMENT: u64 = 32;

/// How much of a file the reader accepts. The defaults fit every real model
/// (headers with 260,000-token vocabularies are under 20 MB).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes read before giving up: the header's whole size.
    pub max_header_bytes: u64,
    /// Length of a metadata key, of a tensor name, and of a string value kept
    /// (architecture, name); longer strings that are skipped only count
    /// towards `max_header_bytes`.
    pub max_kept_string: u64,
    pub max_metadata_entries: u64,
    pub max_tensors: u64,
    pub max_dimensions: u32,
    /// Arrays of arrays deeper than this are refused (each level is a stack frame).
    pub max_array_depth: u32,
    /// Longest chat template kept (`tokenizer.chat_template`); a longer one
    /// is skipped and its length noted.
    pub max_chat_template: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_header_bytes: 64 << 20,
            max_kept_string: 64 << 10,
            max_metadata_entries: 1 << 20,
            max_tensors: 1 << 20,
            max_dimensions: 8,
            max_array_depth: 3,
            max_chat_template: 128 << 10,
        }
    }
}

/// What a GGUF header says about the model in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct GgufHeader {
    pub version: u32,
    /// `general.architecture`, e.g. `llama`.
    pub architecture: Option<String>,
    /// `general.name`.
    pub name: Option<String>,
    /// `<architecture>.context_length`.
    pub context_length: Option<u64>,
    /// `general.file_type`: the file quantization type id.
    pub file_type: Option<u32>,
    /// The attention's size (layers, heads, head sizes), for the KV cache.
    pub attention: AttentionShape,
    /// `tokenizer.chat_template`.
    pub chat_template: Option<HeaderText>,
    pub tensor_count: u64,
    /// Elements of all tensors together (the parameter count).
    pub parameter_count: u64,
    /// Elements stored in each tensor element type.
    pub tensor_types: BTreeMap<TensorType, u64>,
    /// Where the header ends and (after alignment) the tensor data starts.
    pub header_bytes: u64,
}

/// A string value of the header that is kept when it is short enough.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderText {
    Kept(String),
    /// Skipped: longer than the limit, in bytes.
    TooLong(u64),
    NotUtf8,
}

/// Reads the header of `file`, named `path` in errors, with the default
/// limits. The caller opens the file: which files may be opened, and how,
/// is its business (the site opens model folders' files as records are
/// opened: no links, no FIFOs).
pub fn read_header(file: File, path: &Path) -> Result<GgufHeader, GgufError> {
    let io_error = |source| GgufError::new(path, GgufErrorKind::Io(source));
    let len = file.metadata().map_err(io_error)?.len();
    parse_header(BufReader::new(file), path, Some(len), &Limits::default())
}

/// Parses a GGUF header from `reader`; `path` names the file in errors and
/// `file_len`, when known, lets the reader check that the tensor data the
/// header describes is all there.
pub fn parse_header(reader: impl Read, path: &Path, file_len: Option<u64>, limits: &Limits) -> Result<GgufHeader, GgufError> {
    let mut r = Bounded { inner: reader, offset: 0, limit: limits.max_header_bytes, path, limits };
    let magic: [u8; 4] = r.array("the magic number")?;
    if &magic != MAGIC {
        return Err(r.error(GgufErrorKind::NotGguf { found: String::from_utf8_lossy(&magic).into_owned() }));
    }
    let version = r.u32("the version")?;
    if version.swap_bytes() == 2 || version.swap_bytes() == 3 {
        return Err(r.error(GgufErrorKind::BigEndian));
    }
    if version != 2 && version != 3 {
        return Err(r.error(GgufErrorKind::UnsupportedVersion(version)));
    }
    let tensor_count = r.count("the tensor count", limits.max_tensors)?;
    let kv_count = r.count("the metadata count", limits.max_metadata_entries)?;
    let meta = read_metadata(&mut r, kv_count)?;
    let (tensor_types, data_end) = read_tensor_infos(&mut r, tensor_count, meta.alignment)?;
    let header_bytes = r.offset;
    if let (Some(len), Some(end)) = (file_len, data_end) {
        let data_start = header_bytes.div_ceil(meta.alignment).saturating_mul(meta.alignment);
        if data_start.saturating_add(end) > len {
            return Err(r.error(GgufErrorKind::Truncated { what: "the tensor data", offset: len }));
        }
    }
    let context_length = meta.arch_keys.context_length(meta.architecture.as_deref());
    let attention = meta.arch_keys.shape(meta.architecture.as_deref());
    Ok(GgufHeader {
        version,
        architecture: meta.architecture,
        name: meta.name,
        context_length,
        file_type: meta.file_type,
        attention,
        chat_template: meta.chat_template,
        tensor_count,
        parameter_count: tensor_types.values().sum(),
        tensor_types,
        header_bytes,
    })
}

#[derive(Default)]
struct Metadata {
    architecture: Option<String>,
    name: Option<String>,
    file_type: Option<u32>,
    alignment: u64,
    /// Every `*.context_length`, `*.block_count`, ... seen (a few at most);
    /// the architecture, which may come later, picks its own.
    arch_keys: ArchKeys,
    chat_template: Option<HeaderText>,
}

mod value_type {
    pub const U8: u32 = 0;
    pub const I8: u32 = 1;
    pub const U16: u32 = 2;
    pub const I16: u32 = 3;
    pub const U32: u32 = 4;
    pub const I32: u32 = 5;
    pub const F32: u32 = 6;
    pub const BOOL: u32 = 7;
    pub const STRING: u32 = 8;
    pub const ARRAY: u32 = 9;
    pub const U64: u32 = 10;
    pub const I64: u32 = 11;
    pub const F64: u32 = 12;
}

/// Bytes of one value of a fixed-size type; `None` for strings and arrays.
fn fixed_size(ty: u32) -> Option<u64> {
    use value_type::*;
    match ty {
        U8 | I8 | BOOL => Some(1),
        U16 | I16 => Some(2),
        U32 | I32 | F32 => Some(4),
        U64 | I64 | F64 => Some(8),
        _ => None,
    }
}

fn read_metadata<R: Read>(r: &mut Bounded<'_, R>, count: u64) -> Result<Metadata, GgufError> {
    use value_type::*;
    let mut meta = Metadata { alignment: DEFAULT_ALIGNMENT, ..Metadata::default() };
    for _ in 0..count {
        let key = r.kept_string("a metadata key")?;
        let ty = r.u32("a metadata value type")?;
        let wrong = |expected| GgufErrorKind::WrongType { key: key.clone(), expected };
        match key.as_str() {
            "general.architecture" | "general.name" => {
                if ty != STRING {
                    return Err(r.error(wrong("a string")));
                }
                let value = Some(r.kept_string("a metadata string")?);
                if key == "general.name" { meta.name = value } else { meta.architecture = value }
            }
            "general.alignment" | "general.file_type" => {
                if ty != U32 {
                    return Err(r.error(wrong("a uint32")));
                }
                let value = r.u32("a metadata value")?;
                if key == "general.file_type" {
                    meta.file_type = Some(value);
                } else if value == 0 || !value.is_power_of_two() {
                    return Err(r.error(GgufErrorKind::BadAlignment(value.into())));
                } else {
                    meta.alignment = value.into();
                }
            }
            "tokenizer.chat_template" if ty == STRING => {
                meta.chat_template = Some(r.text_up_to(r.limits.max_chat_template)?);
            }
            _ if meta.arch_keys.wants(&key) => {
                if let Some(value) = read_count(r, ty)? {
                    meta.arch_keys.keep(key, value);
                }
            }
            _ => r.skip_value(ty, 0)?,
        }
    }
    Ok(meta)
}

/// An unsigned integer of any width; `None` (nothing read) for other types.
fn read_unsigned<R: Read>(r: &mut Bounded<'_, R>, ty: u32) -> Result<Option<u64>, GgufError> {
    use value_type::*;
    Ok(match ty {
        U8 => Some(r.array::<1>("a metadata value")?[0].into()),
        U16 => Some(u16::from_le_bytes(r.array("a metadata value")?).into()),
        U32 => Some(r.u32("a metadata value")?.into()),
        U64 => Some(r.u64("a metadata value")?),
        _ => None,
    })
}

/// An integer value of fixed-size integer type `ty` (unsigned 64-bit
/// values past `i64::MAX` are clamped: no head count comes near).
fn read_integer<R: Read>(r: &mut Bounded<'_, R>, ty: u32) -> Result<i64, GgufError> {
    use value_type::*;
    const WHAT: &str = "a metadata value";
    Ok(match ty {
        I8 => i8::from_le_bytes(r.array(WHAT)?).into(),
        I16 => i16::from_le_bytes(r.array(WHAT)?).into(),
        I32 => i32::from_le_bytes(r.array(WHAT)?).into(),
        I64 => i64::from_le_bytes(r.array(WHAT)?),
        _ => read_unsigned(r, ty)?.map_or(0, |n| i64::try_from(n).unwrap_or(i64::MAX)),
    })
}

/// A count: an unsigned integer, or an array of integers (one per layer,
/// at most [`MAX_LAYERS`], none negative) read as their sum. The value is
/// read past whatever it is; `None` for any other type or array.
fn read_count<R: Read>(r: &mut Bounded<'_, R>, ty: u32) -> Result<Option<HeadCount>, GgufError> {
    if ty != value_type::ARRAY {
        let count = read_unsigned(r, ty)?;
        if count.is_none() {
            r.skip_value(ty, 0)?;
        }
        return Ok(count.map(HeadCount::Same));
    }
    let item = r.u32("an array's item type")?;
    let len = r.u64("an array length")?;
    // Converters write per-layer counts as signed or unsigned integers.
    let integer = !matches!(item, value_type::F32 | value_type::F64 | value_type::BOOL) && fixed_size(item).is_some();
    if !integer || len > MAX_LAYERS {
        r.skip_items(item, len, 1)?;
        return Ok(None);
    }
    let mut total: u64 = 0;
    let mut negative = false;
    for _ in 0..len {
        let n = read_integer(r, item)?;
        negative |= n < 0;
        total = total.saturating_add(n.max(0) as u64);
    }
    Ok((!negative).then_some(HeadCount::PerLayer { total, layers: len }))
}

/// Elements per tensor element type, and the end of the last tensor's data
/// (relative to the data section) when every tensor's size is known.
fn read_tensor_infos<R: Read>(
    r: &mut Bounded<'_, R>,
    count: u64,
    alignment: u64,
) -> Result<(BTreeMap<TensorType, u64>, Option<u64>), GgufError> {
    let mut types: BTreeMap<TensorType, u64> = BTreeMap::new();
    let mut data_end = Some(0u64);
    for index in 0..count {
        let name = r.kept_string("a tensor name")?;
        let bad = |problem: String| GgufErrorKind::BadTensor { index, name: name.clone(), problem };
        let dims = r.u32("a tensor's dimension count")?;
        if dims > r.limits.max_dimensions {
            return Err(r.error(bad(format!("{dims} dimensions, more than {}", r.limits.max_dimensions))));
        }
        let mut elements: u64 = 1;
        let mut first = None;
        for _ in 0..dims {
            let size = r.u64("a tensor dimension")?;
            first.get_or_insert(size);
            elements = elements.checked_mul(size).ok_or_else(|| r.error(bad("its element count overflows".into())))?;
        }
        let ty = TensorType(r.u32("a tensor type")?);
        let offset = r.u64("a tensor data offset")?;
        if offset % alignment != 0 {
            return Err(r.error(bad(format!("data offset {offset} is not a multiple of the alignment {alignment}"))));
        }
        if let Some(block) = ty.block_elements() {
            if first.unwrap_or(1) % block != 0 {
                return Err(r.error(bad(format!("rows of {} elements do not fill {ty} blocks of {block}", first.unwrap_or(1)))));
            }
        }
        let total = types.entry(ty).or_insert(0);
        *total = total.checked_add(elements).ok_or_else(|| r.error(bad("the element count overflows".into())))?;
        // A tensor of an unknown type has an unknown size: the data check is skipped.
        data_end = match (data_end, ty.bytes_for(elements)) {
            (Some(end), Some(bytes)) => Some(end.max(offset.saturating_add(bytes))),
            _ => None,
        };
    }
    Ok((types, data_end))
}

/// A reader that counts its offset, refuses to go past the header limit and
/// turns a short read into a "truncated" error naming what was being read.
struct Bounded<'a, R> {
    inner: R,
    offset: u64,
    limit: u64,
    path: &'a Path,
    limits: &'a Limits,
}

impl<R: Read> Bounded<'_, R> {
    fn error(&self, kind: GgufErrorKind) -> GgufError {
        GgufError::new(self.path, kind)
    }

    /// Fails unless `n` more bytes stay within the header limit.
    fn reserve(&self, n: u64) -> Result<(), GgufError> {
        match self.offset.checked_add(n) {
            Some(end) if end <= self.limit => Ok(()),
            _ => Err(self.error(GgufErrorKind::HeaderTooLong { limit: self.limit })),
        }
    }

    fn fill(&mut self, buf: &mut [u8], what: &'static str) -> Result<(), GgufError> {
        self.reserve(buf.len() as u64)?;
        let mut done = 0;
        while done < buf.len() {
            match self.inner.read(&mut buf[done..]) {
                Ok(0) => return Err(self.error(GgufErrorKind::Truncated { what, offset: self.offset })),
                Ok(n) => {
                    done += n;
                    self.offset += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(self.error(GgufErrorKind::Io(e))),
            }
        }
        Ok(())
    }

    fn array<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], GgufError> {
        let mut buf = [0u8; N];
        self.fill(&mut buf, what)?;
        Ok(buf)
    }

    fn u32(&mut self, what: &'static str) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A count, refused above `limit` before anything is done with it.
    fn count(&mut self, what: &'static str, limit: u64) -> Result<u64, GgufError> {
        let offset = self.offset;
        let found = self.u64(what)?;
        if found > limit {
            return Err(self.error(GgufErrorKind::TooLarge { what, offset, found, limit }));
        }
        Ok(found)
    }

    /// A string the caller keeps: its length is capped before the buffer exists.
    fn kept_string(&mut self, what: &'static str) -> Result<String, GgufError> {
        let offset = self.offset;
        let len = self.count(what, self.limits.max_kept_string)?;
        let mut buf = vec![0u8; len as usize];
        self.fill(&mut buf, what)?;
        String::from_utf8(buf).map_err(|_| self.error(GgufErrorKind::NotUtf8 { what, offset }))
    }

    /// A string value kept when at most `limit` bytes, else skipped.
    fn text_up_to(&mut self, limit: u64) -> Result<HeaderText, GgufError> {
        let len = self.u64("a string length")?;
        if len > limit {
            self.skip(len, "a metadata string")?;
            return Ok(HeaderText::TooLong(len));
        }
        let mut buf = vec![0u8; len as usize];
        self.fill(&mut buf, "a metadata string")?;
        Ok(String::from_utf8(buf).map_or(HeaderText::NotUtf8, HeaderText::Kept))
    }

    /// Reads past `n` bytes without keeping them.
    fn skip(&mut self, n: u64, what: &'static str) -> Result<(), GgufError> {
        self.reserve(n)?;
        let copied = io::copy(&mut (&mut self.inner).take(n), &mut io::sink()).map_err(|e| self.error(GgufErrorKind::Io(e)))?;
        self.offset += copied;
        if copied < n {
            return Err(self.error(GgufErrorKind::Truncated { what, offset: self.offset }));
        }
        Ok(())
    }

    /// Reads past one metadata value of type `ty`.
    fn skip_value(&mut self, ty: u32, depth: u32) -> Result<(), GgufError> {
        if let Some(size) = fixed_size(ty) {
            return self.skip(size, "a metadata value");
        }
        match ty {
            value_type::STRING => {
                let len = self.u64("a string length")?;
                self.skip(len, "a metadata string")
            }
            value_type::ARRAY => {
                let offset = self.offset;
                if depth >= self.limits.max_array_depth {
                    let (found, limit) = (u64::from(depth) + 1, self.limits.max_array_depth.into());
                    return Err(self.error(GgufErrorKind::TooLarge { what: "array nesting", offset, found, limit }));
                }
                let item = self.u32("an array's item type")?;
                let len = self.u64("an array length")?;
                self.skip_items(item, len, depth + 1)
            }
            found => Err(self.error(GgufErrorKind::UnknownValueType { found, offset: self.offset })),
        }
    }

    /// Reads past the `len` items of type `item` of an array at `depth`.
    fn skip_items(&mut self, item: u32, len: u64, depth: u32) -> Result<(), GgufError> {
        match fixed_size(item) {
            // Fixed-size items are skipped in one go; an overflowing size is past any limit.
            Some(size) => self.skip(len.saturating_mul(size), "an array"),
            None => {
                // Each string or array item takes at least 8 bytes: a
                // length the header cannot hold is refused up front.
                self.reserve(len.saturating_mul(8))?;
                (0..len).try_for_each(|_| self.skip_value(item, depth))
            }
        }
    }
}
