//! The header reader on GGUF files these tests write: every tensor element
//! type and metadata value type, then truncated, corrupt and hostile files.

use std::fs::File;
use std::path::{Path, PathBuf};

use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::{parse_header, read_header, GgufErrorKind, GgufHeader, Limits, TensorType};

/// A model with one tensor of every known tensor element type, metadata of
/// every value type (the architecture key after its context length), and a
/// vocabulary-like array of strings.
fn every_type_model() -> GgufWriter {
    let mut writer = GgufWriter::new()
        .meta("llama.context_length", MetaValue::U32(4096))
        .meta("other.context_length", MetaValue::U64(7))
        .meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("general.name", MetaValue::Str("Every Type".into()))
        .meta("general.file_type", MetaValue::U32(15))
        .meta("general.alignment", MetaValue::U32(64))
        .meta("tokenizer.ggml.tokens", MetaValue::Array(vec![MetaValue::Str("<s>".into()), MetaValue::Str("é".into())]))
        .meta("tokenizer.ggml.scores", MetaValue::Array(vec![MetaValue::F32(0.5); 3]))
        .meta("nested", MetaValue::Array(vec![MetaValue::Array(vec![MetaValue::I64(-1)]), MetaValue::Array(vec![])]))
        .meta("empty", MetaValue::Array(vec![]));
    for value in [
        MetaValue::U8(1),
        MetaValue::I8(-1),
        MetaValue::U16(2),
        MetaValue::I16(-2),
        MetaValue::I32(-3),
        MetaValue::F32(1.5),
        MetaValue::Bool(true),
        MetaValue::I64(-4),
        MetaValue::F64(2.5),
    ] {
        writer = writer.meta(&format!("value.{value:?}"), value);
    }
    for ty in TensorType::all() {
        let block = ty.block_elements().unwrap();
        writer = writer.tensor(&format!("t.{ty}"), &[block * 2, 3], ty);
    }
    writer
}

fn parse(bytes: &[u8]) -> Result<GgufHeader, modelpages_gguf::GgufError> {
    parse_header(bytes, Path::new("models/x/y/model.gguf"), Some(bytes.len() as u64), &Limits::default())
}

fn kind(bytes: &[u8]) -> GgufErrorKind {
    parse(bytes).expect_err("the header is refused").kind
}

#[test]
fn reads_every_tensor_element_type_and_metadata_value_type() {
    let writer = every_type_model();
    let mut bytes = writer.to_bytes();
    // Version 2 has the same layout; both are read.
    for version in [3u32, 2] {
        bytes[4..8].copy_from_slice(&version.to_le_bytes());
        let header = parse(&bytes).unwrap_or_else(|e| panic!("version {version}: {e}"));
        assert_eq!(header.version, version);
        assert_eq!(header.architecture.as_deref(), Some("llama"));
        assert_eq!(header.name.as_deref(), Some("Every Type"));
        assert_eq!(header.context_length, Some(4096), "the architecture's key, though it came first");
        assert_eq!(header.file_type, Some(15));
        let all = TensorType::all();
        assert_eq!(header.tensor_count, all.len() as u64);
        assert_eq!(header.tensor_types.len(), all.len(), "one entry per type");
        for ty in &all {
            assert_eq!(header.tensor_types[ty], ty.block_elements().unwrap() * 6, "{ty}");
        }
        assert_eq!(header.parameter_count, all.iter().map(|t| t.block_elements().unwrap() * 6).sum::<u64>());
        assert_eq!(header.header_bytes, writer.header_bytes().len() as u64);
    }
}

#[test]
fn reads_a_file_from_disk_and_names_it_in_errors() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tiny-Q8_0.gguf");
    let writer = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("qwen2".into()))
        .meta("qwen2.context_length", MetaValue::U64(32768))
        .tensor("token_embd.weight", &[64, 10], TensorType(8))
        .tensor("output_norm.weight", &[64], TensorType(0));
    std::fs::write(&path, writer.to_bytes()).unwrap();
    let header = read_header(File::open(&path).unwrap(), &path).unwrap();
    assert_eq!((header.architecture.as_deref(), header.context_length, header.parameter_count), (Some("qwen2"), Some(32768), 704));
    let shares: Vec<(String, u64)> = header.tensor_types.iter().map(|(t, n)| (t.to_string(), *n)).collect();
    assert_eq!(shares, [("F32".to_owned(), 64), ("Q8_0".to_owned(), 640)]);

    std::fs::write(&path, b"GGUF\x03\x00").unwrap();
    let err = read_header(File::open(&path).unwrap(), &path).unwrap_err();
    assert!(err.to_string().starts_with(&format!("{}: truncated", path.display())), "{err}");
}

#[test]
fn every_truncation_of_the_header_is_reported_with_its_offset() {
    let header = every_type_model().header_bytes();
    for len in 0..header.len() {
        match kind(&header[..len]) {
            GgufErrorKind::Truncated { offset, .. } => assert_eq!(offset, len as u64, "cut at {len}"),
            other => panic!("cut at {len}: {other}"),
        }
    }
    let whole = every_type_model().to_bytes();
    assert!(parse(&whole).is_ok());
    // The last tensor's data takes more than the 64 bytes cut (its padding is less).
    match kind(&whole[..whole.len() - 64]) {
        GgufErrorKind::Truncated { what, .. } => assert_eq!(what, "the tensor data"),
        other => panic!("{other}"),
    }
}

/// A header with the given bytes after the counts (`tensors`, `kvs`).
fn raw(version: u32, tensors: u64, kvs: u64, rest: &[u8]) -> Vec<u8> {
    let mut out = b"GGUF".to_vec();
    out.extend(version.to_le_bytes());
    out.extend(tensors.to_le_bytes());
    out.extend(kvs.to_le_bytes());
    out.extend(rest);
    out
}

fn string(s: &[u8]) -> Vec<u8> {
    let mut out = (s.len() as u64).to_le_bytes().to_vec();
    out.extend(s);
    out
}

/// One metadata entry `key` of type `ty` followed by `value` bytes.
fn entry(key: &str, ty: u32, value: &[u8]) -> Vec<u8> {
    let mut out = string(key.as_bytes());
    out.extend(ty.to_le_bytes());
    out.extend(value);
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn corrupt_files_get_clear_errors() {
    assert!(matches!(kind(b"GGML\x03\0\0\0"), GgufErrorKind::NotGguf { found } if found == "GGML"));
    assert!(matches!(kind(&raw(1, 0, 0, &[])), GgufErrorKind::UnsupportedVersion(1)));
    assert!(matches!(kind(&raw(4, 0, 0, &[])), GgufErrorKind::UnsupportedVersion(4)));
    assert!(matches!(kind(&raw(3u32.swap_bytes(), 0, 0, &[])), GgufErrorKind::BigEndian));
    assert!(matches!(kind(&raw(3, 0, 1, &entry("k", 13, &[]))), GgufErrorKind::UnknownValueType { found: 13, .. }));
    let bad_utf8 = cat(&[&string(b"\xff\xfe"), &4u32.to_le_bytes(), &[0; 4]]);
    assert!(matches!(kind(&raw(3, 0, 1, &bad_utf8)), GgufErrorKind::NotUtf8 { .. }));
    assert!(matches!(kind(&raw(3, 0, 1, &entry("general.architecture", 4, &[1, 0, 0, 0]))), GgufErrorKind::WrongType { .. }));
    assert!(matches!(kind(&raw(3, 0, 1, &entry("general.alignment", 4, &48u32.to_le_bytes()))), GgufErrorKind::BadAlignment(48)));

    let tensor = |dims: &[u64], ty: u32, offset: u64| {
        let mut t = string(b"blk.0.attn_q.weight");
        t.extend((dims.len() as u32).to_le_bytes());
        dims.iter().for_each(|d| t.extend(d.to_le_bytes()));
        t.extend(ty.to_le_bytes());
        t.extend(offset.to_le_bytes());
        t
    };
    let problem = |bytes: Vec<u8>| match kind(&bytes) {
        GgufErrorKind::BadTensor { index, name, problem } => {
            assert_eq!((index, name.as_str()), (0, "blk.0.attn_q.weight"));
            problem
        }
        other => panic!("{other}"),
    };
    assert!(problem(raw(3, 1, 0, &tensor(&[1; 9], 0, 0))).contains("9 dimensions"));
    assert!(problem(raw(3, 1, 0, &tensor(&[u64::MAX, 3], 0, 0))).contains("overflows"));
    assert!(problem(raw(3, 1, 0, &tensor(&[32], 0, 8))).contains("not a multiple of the alignment"));
    assert!(problem(raw(3, 1, 0, &tensor(&[100], 12, 0))).contains("Q4_K blocks of 256"));
    // A tensor type this reader does not know is kept, not an error.
    let header = parse(&raw(3, 1, 0, &tensor(&[5], 4000, 0))).unwrap();
    assert_eq!(header.tensor_types.keys().map(|t| t.to_string()).collect::<Vec<_>>(), ["type 4000"]);
}

#[test]
fn hostile_counts_and_lengths_are_refused_before_anything_is_allocated() {
    let limits = Limits::default();
    let too_large = |bytes: Vec<u8>| matches!(kind(&bytes), GgufErrorKind::TooLarge { .. } | GgufErrorKind::HeaderTooLong { .. });
    // Counts in the header itself.
    assert!(too_large(raw(3, u64::MAX, 0, &[])));
    assert!(too_large(raw(3, 0, 1 << 40, &[])));
    // A key, a kept string and a tensor name claiming 2^62 bytes.
    let huge = (1u64 << 62).to_le_bytes();
    assert!(too_large(raw(3, 0, 1, &huge)));
    assert!(too_large(raw(3, 0, 1, &cat(&[&string(b"general.name"), &8u32.to_le_bytes(), &huge]))));
    assert!(too_large(raw(3, 1, 0, &huge)));
    // Skipped values: a string and arrays of every kind claiming more than any header holds.
    assert!(too_large(raw(3, 0, 1, &entry("k", 8, &huge))));
    for item in [0u32, 10, 8, 9] {
        let array = cat(&[&item.to_le_bytes(), &u64::MAX.to_le_bytes()]);
        assert!(too_large(raw(3, 0, 1, &entry("k", 9, &array))), "array of type {item}");
    }
    // Arrays nested deeper than the limit.
    let mut nested = Vec::new();
    for _ in 0..=limits.max_array_depth {
        nested.extend(9u32.to_le_bytes());
        nested.extend(1u64.to_le_bytes());
    }
    assert!(too_large(raw(3, 0, 1, &entry("k", 9, &nested))));
    // A header longer than the limit, even if every count is small.
    let small = Limits { max_header_bytes: 64, ..Limits::default() };
    let long = raw(3, 0, 1, &entry("k", 8, &string(&[b'a'; 100])));
    let err = parse_header(long.as_slice(), Path::new("big.gguf"), None, &small).unwrap_err();
    assert!(matches!(err.kind, GgufErrorKind::HeaderTooLong { limit: 64 }), "{err}");
}

#[test]
fn mutated_files_never_panic() {
    let good = every_type_model().to_bytes();
    let header_len = every_type_model().header_bytes().len();
    // A fixed pseudo-random sequence, so a failure is reproducible.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut refused = 0;
    for _ in 0..3000 {
        let mut bytes = good.clone();
        for _ in 0..1 + next() % 4 {
            let at = (next() as usize) % header_len;
            bytes[at] = match next() % 3 {
                0 => next() as u8,
                1 => 0xff,
                _ => 0,
            };
        }
        if parse(&bytes).is_err() {
            refused += 1;
        }
    }
    assert!(refused > 1000, "most mutations are caught ({refused})");
}

#[test]
fn error_messages_name_the_file() {
    let path = PathBuf::from("models/org/m/m-Q4_K_M.gguf");
    let err = parse_header(&b"GGUF\x03\0\0\0\x01"[..], &path, None, &Limits::default()).unwrap_err();
    assert_eq!(err.to_string(), "models/org/m/m-Q4_K_M.gguf: truncated: the file ends at byte 9, inside the tensor count");
}

#[test]
fn keeps_the_attention_keys_of_the_architecture_and_the_chat_template() {
    let template = "{% for m in messages %}{{ m.content }}{% endfor %}";
    let per_layer: Vec<MetaValue> = [0, 8, 0, 8].iter().map(|n| MetaValue::I32(*n)).collect();
    let writer = GgufWriter::new()
        // The architecture's keys before the architecture, as some converters write them.
        .meta("qwen2.block_count", MetaValue::U32(28))
        .meta("qwen2.attention.head_count", MetaValue::U32(28))
        .meta("qwen2.attention.head_count_kv", MetaValue::U32(4))
        .meta("llama.block_count", MetaValue::U32(99))
        .meta("general.architecture", MetaValue::Str("qwen2".into()))
        .meta("qwen2.embedding_length", MetaValue::U64(3584))
        .meta("qwen2.context_length", MetaValue::U32(32768))
        .meta("qwen2.rope.freq_base", MetaValue::F32(1_000_000.0))
        .meta("tokenizer.chat_template", MetaValue::Str(template.into()))
        .tensor("w", &[32], TensorType(0));
    let header = parse(&writer.to_bytes()).unwrap();
    let shape = &header.attention;
    assert_eq!((shape.block_count, shape.head_count, shape.embedding_length), (Some(28), Some(28), Some(3584)));
    assert_eq!(shape.head_count_kv, Some(modelpages_gguf::HeadCount::Same(4)));
    assert_eq!((shape.key_length, shape.value_length, header.context_length), (None, None, Some(32768)));
    assert_eq!(header.chat_template, Some(modelpages_gguf::HeaderText::Kept(template.into())));

    // Per-layer KV heads (a hybrid model's layers without attention have
    // none) are summed; explicit key and value sizes are kept.
    let hybrid = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("granitehybrid".into()))
        .meta("granitehybrid.block_count", MetaValue::U32(4))
        .meta("granitehybrid.attention.head_count_kv", MetaValue::Array(per_layer))
        .meta("granitehybrid.attention.key_length", MetaValue::U32(128))
        .meta("granitehybrid.attention.value_length", MetaValue::U32(96))
        .tensor("w", &[32], TensorType(0));
    let shape = parse(&hybrid.to_bytes()).unwrap().attention;
    assert_eq!(shape.head_count_kv, Some(modelpages_gguf::HeadCount::PerLayer { total: 16, layers: 4 }));
    assert_eq!((shape.key_length, shape.value_length), (Some(128), Some(96)));

    // A template longer than the limit is skipped and its length noted; a
    // count of another type (a float, a negative or too long array) is no
    // count; none of it fails the header.
    let limits = Limits { max_chat_template: 8, ..Limits::default() };
    let odd = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("llama.block_count", MetaValue::F32(32.0))
        .meta("llama.attention.head_count_kv", MetaValue::Array(vec![MetaValue::I32(-1), MetaValue::I32(8)]))
        .meta("llama.attention.head_count", MetaValue::Array(vec![MetaValue::U8(1); 5000]))
        .meta("tokenizer.chat_template", MetaValue::Str(template.into()))
        .tensor("w", &[32], TensorType(0));
    let bytes = odd.to_bytes();
    let header = parse_header(&bytes[..], Path::new("m.gguf"), Some(bytes.len() as u64), &limits).unwrap();
    assert!(header.attention.is_empty(), "{:?}", header.attention);
    assert_eq!(header.chat_template, Some(modelpages_gguf::HeaderText::TooLong(template.len() as u64)));
}
