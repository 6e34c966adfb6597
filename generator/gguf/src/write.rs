//! Writing small GGUF files (version 3, little-endian), for tests and the
//! corpus fixture: header, tensor infos, padding and zeroed tensor data of the
//! right size, so the result is a well-formed file any GGUF reader accepts.

use crate::types::TensorType;

/// A metadata value. An array's item type is its first item's (`u8` when empty).
#[derive(Clone, Debug, PartialEq)]
pub enum MetaValue {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    F32(f32),
    Bool(bool),
    Str(String),
    Array(Vec<MetaValue>),
    U64(u64),
    I64(i64),
    F64(f64),
}

impl MetaValue {
    fn type_id(&self) -> u32 {
        match self {
            MetaValue::U8(_) => 0,
            MetaValue::I8(_) => 1,
            MetaValue::U16(_) => 2,
            MetaValue::I16(_) => 3,
            MetaValue::U32(_) => 4,
            MetaValue::I32(_) => 5,
            MetaValue::F32(_) => 6,
            MetaValue::Bool(_) => 7,
            MetaValue::Str(_) => 8,
            MetaValue::Array(_) => 9,
            MetaValue::U64(_) => 10,
            MetaValue::I64(_) => 11,
            MetaValue::F64(_) => 12,
        }
    }

    fn write(&self, out: &mut Vec<u8>) {
        match self {
            MetaValue::U8(v) => out.push(*v),
            MetaValue::I8(v) => out.extend(v.to_le_bytes()),
            MetaValue::U16(v) => out.extend(v.to_le_bytes()),
            MetaValue::I16(v) => out.extend(v.to_le_bytes()),
            MetaValue::U32(v) => out.extend(v.to_le_bytes()),
            MetaValue::I32(v) => out.extend(v.to_le_bytes()),
            MetaValue::F32(v) => out.extend(v.to_le_bytes()),
            MetaValue::Bool(v) => out.push(u8::from(*v)),
            MetaValue::Str(s) => write_string(out, s),
            MetaValue::Array(items) => {
                out.extend(items.first().map_or(0, MetaValue::type_id).to_le_bytes());
                out.extend((items.len() as u64).to_le_bytes());
                items.iter().for_each(|item| item.write(out));
            }
            MetaValue::U64(v) => out.extend(v.to_le_bytes()),
            MetaValue::I64(v) => out.extend(v.to_le_bytes()),
            MetaValue::F64(v) => out.extend(v.to_le_bytes()),
        }
    }
}

fn write_string(out: &mut Vec<u8>, s: &str) {
    out.extend((s.len() as u64).to_le_bytes());
    out.extend(s.as_bytes());
}

/// A GGUF file to write: metadata in order, then tensors in order.
#[derive(Clone, Debug, Default)]
pub struct GgufWriter {
    metadata: Vec<(String, MetaValue)>,
    tensors: Vec<(String, Vec<u64>, TensorType)>,
}

/// Tensor data alignment when the metadata sets none.
const DEFAULT_ALIGNMENT: u64 = 32;

impl GgufWriter {
    pub fn new() -> GgufWriter {
        GgufWriter::default()
    }

    pub fn meta(mut self, key: &str, value: MetaValue) -> GgufWriter {
        self.metadata.push((key.to_owned(), value));
        self
    }

    /// A tensor of `dims` (fastest-varying first, as GGUF stores them).
    pub fn tensor(mut self, name: &str, dims: &[u64], ty: TensorType) -> GgufWriter {
        self.tensors.push((name.to_owned(), dims.to_vec(), ty));
        self
    }

    /// `general.alignment` when the metadata sets it as a uint32.
    fn alignment(&self) -> u64 {
        self.metadata
            .iter()
            .find_map(|(key, value)| match (key.as_str(), value) {
                ("general.alignment", MetaValue::U32(n)) => Some(u64::from(*n)),
                _ => None,
            })
            .unwrap_or(DEFAULT_ALIGNMENT)
    }

    /// The header alone: magic, version, counts, metadata and tensor infos.
    pub fn header_bytes(&self) -> Vec<u8> {
        let alignment = self.alignment();
        let mut out = Vec::new();
        out.extend(b"GGUF");
        out.extend(3u32.to_le_bytes());
        out.extend((self.tensors.len() as u64).to_le_bytes());
        out.extend((self.metadata.len() as u64).to_le_bytes());
        for (key, value) in &self.metadata {
            write_string(&mut out, key);
            out.extend(value.type_id().to_le_bytes());
            value.write(&mut out);
        }
        let mut offset = 0u64;
        for (name, dims, ty) in &self.tensors {
            write_string(&mut out, name);
            out.extend((dims.len() as u32).to_le_bytes());
            dims.iter().for_each(|d| out.extend(d.to_le_bytes()));
            out.extend(ty.0.to_le_bytes());
            out.extend(offset.to_le_bytes());
            offset += align(tensor_bytes(dims, *ty), alignment);
        }
        out
    }

    /// The whole file: the header, padding, and every tensor's data (zeros).
    pub fn to_bytes(&self) -> Vec<u8> {
        let alignment = self.alignment();
        let mut out = self.header_bytes();
        out.resize(align(out.len() as u64, alignment) as usize, 0);
        for (_, dims, ty) in &self.tensors {
            let len = out.len() as u64 + align(tensor_bytes(dims, *ty), alignment);
            out.resize(len as usize, 0);
        }
        out
    }
}

fn tensor_bytes(dims: &[u64], ty: TensorType) -> u64 {
    ty.bytes_for(dims.iter().product()).unwrap_or(0)
}

fn align(n: u64, alignment: u64) -> u64 {
    n.div_ceil(alignment) * alignment
}
