//! Grouping a model's files by quantization: shards, sizes, projectors, the
//! default, and header facts.

use std::collections::HashMap;

use modelpages_gguf::write::{GgufWriter, MetaValue};
use modelpages_gguf::{parse_header, shard_of, GgufFiles, Limits, TensorType};

fn gguf_files(files: &[(&str, Option<u64>)]) -> GgufFiles {
    GgufFiles::new(files.iter().copied(), &HashMap::new())
}

fn labels(files: &GgufFiles) -> Vec<&str> {
    files.groups.iter().map(|g| g.label.as_str()).collect()
}

#[test]
fn groups_largest_first_with_sizes_and_a_default() {
    let l = gguf_files(&[
        (".gitattributes", Some(1519)),
        ("README.md", Some(2100)),
        ("Llama-3.2-1B-Instruct-Q4_K_M.gguf", Some(807_694_464)),
        ("Llama-3.2-1B-Instruct-f16.gguf", Some(2_479_595_648)),
        ("Llama-3.2-1B-Instruct-IQ4_XS.gguf", Some(743_485_600)),
        ("Llama-3.2-1B-Instruct-Q8_0.gguf", Some(1_321_083_008)),
        ("Llama-3.2-1B-Instruct-Q5_K_M.GGUF", None),
    ]);
    assert_eq!(labels(&l), ["F16", "Q8_0", "Q5_K_M", "Q4_K_M", "IQ4_XS"]);
    assert_eq!(l.default_group().unwrap().label.as_str(), "Q4_K_M");
    assert_eq!(l.default_file().unwrap().name, "Llama-3.2-1B-Instruct-Q4_K_M.gguf");
    assert_eq!(l.groups[0].size, Some(2_479_595_648));
    assert_eq!(l.groups[2].size, None, "size unknown");
    assert!(l.has_model_files() && l.unlabelled.is_empty() && l.projectors.is_empty());
}

#[test]
fn shards_are_one_file_and_sizes_add_up() {
    let l = gguf_files(&[
        ("Q4_K_M/Big-Q4_K_M-00002-of-00003.gguf", Some(20)),
        ("Q4_K_M/Big-Q4_K_M-00001-of-00003.gguf", Some(10)),
        ("Q4_K_M/Big-Q4_K_M-00003-of-00003.gguf", Some(5)),
        ("UD-Q2_K_XL/Big-UD-Q2_K_XL-00001-of-00002.gguf", Some(7)),
        ("BF16/Big-BF16-00001-of-00004.gguf", Some(100)),
        ("BF16/Big-BF16-00002-of-00004.gguf", Some(100)),
        ("mmproj-F16.gguf", Some(3)),
        ("Big.imatrix", Some(1)),
        ("notes-00001-of-00002.txt", Some(1)),
    ]);
    assert_eq!(labels(&l), ["BF16", "Q4_K_M", "UD-Q2_K_XL"]);
    let q4 = &l.groups[1];
    assert_eq!(q4.files.len(), 1);
    let file = &q4.files[0];
    assert_eq!(file.name, "Q4_K_M/Big-Q4_K_M-00001-of-00003.gguf");
    assert_eq!((file.parts.len(), file.parts_total, file.size, file.is_incomplete()), (3, 3, Some(35), false));
    let bf16 = &l.groups[0].files[0];
    assert_eq!((bf16.parts.len(), bf16.parts_total, bf16.is_incomplete()), (2, 4, true));
    assert_eq!(l.projectors.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["mmproj-F16.gguf"]);
    assert_eq!(l.default_group().unwrap().label.as_str(), "Q4_K_M");
}

#[test]
fn files_without_labels_and_hostile_sizes() {
    let l = gguf_files(&[
        ("q38-ranks-sxc32768.gguf", Some(262_400)),
        ("model.gguf", Some(u64::MAX)),
        ("model-Q8_0.gguf", Some(u64::MAX)),
        ("model-Q8_0-copy.gguf", Some(2)),
        ("é.gguf", None),
        (".gguf", Some(1)),
    ]);
    assert_eq!(labels(&l), ["Q8_0"]);
    assert_eq!(l.groups[0].files.len(), 2, "two files of one quantization");
    assert_eq!(l.groups[0].size, None, "a sum that overflows is unknown, not a panic");
    assert_eq!(l.unlabelled.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(), ["model.gguf", "q38-ranks-sxc32768.gguf", "é.gguf"]);
    let only_unlabelled = gguf_files(&[("model.gguf", None)]);
    assert_eq!(only_unlabelled.default_file().unwrap().name, "model.gguf");
    assert!(only_unlabelled.default_group().is_none());
    let only_projector = gguf_files(&[("mmproj-model-f16.gguf", None)]);
    assert!(!only_projector.has_model_files());
    assert!(!gguf_files(&[]).has_model_files());
}

#[test]
fn shard_names() {
    assert_eq!(shard_of("a/b-Q4_K_M-00001-of-00003.gguf"), Some(("a/b-Q4_K_M", 1, 3)));
    assert_eq!(shard_of("b-00003-of-00003.GGUF"), Some(("b", 3, 3)));
    for not in ["b-00004-of-00003.gguf", "b-00000-of-00003.gguf", "b-1-of-x.gguf", "b-of-2.gguf", "b.gguf", "b-00001-of-00002.bin"] {
        assert_eq!(shard_of(not), None, "{not}");
    }
}

#[test]
fn header_facts_of_shards_add_up() {
    let first = GgufWriter::new()
        .meta("general.architecture", MetaValue::Str("llama".into()))
        .meta("llama.context_length", MetaValue::U32(8192))
        .tensor("a", &[256, 4], TensorType(12))
        .tensor("b", &[256], TensorType(0));
    let second = GgufWriter::new().tensor("c", &[256, 4], TensorType(14));
    let header = |w: &GgufWriter| {
        let bytes = w.to_bytes();
        parse_header(bytes.as_slice(), "x.gguf".as_ref(), Some(bytes.len() as u64), &Limits::default()).unwrap()
    };
    let headers = HashMap::from([
        ("m-Q4_K_M-00001-of-00002.gguf".to_owned(), header(&first)),
        ("m-Q4_K_M-00002-of-00002.gguf".to_owned(), header(&second)),
    ]);
    let files = [("m-Q4_K_M-00001-of-00002.gguf", Some(1)), ("m-Q4_K_M-00002-of-00002.gguf", Some(1)), ("m-Q8_0.gguf", Some(2))];
    let l = GgufFiles::new(files.iter().copied(), &headers);
    let facts = l.header_facts().expect("the default file was read");
    assert_eq!((facts.architecture.as_deref(), facts.context_length, facts.parameter_count, facts.parts_read), (Some("llama"), Some(8192), 2304, 2));
    let shares: Vec<(String, u64)> = facts.shares().iter().map(|(t, p)| (t.to_string(), p.round() as u64)).collect();
    assert_eq!(shares, [("Q4_K".to_owned(), 44), ("Q6_K".to_owned(), 44), ("F32".to_owned(), 11)]);
    assert!(l.groups[0].facts().is_none(), "Q8_0 was not read");
}
