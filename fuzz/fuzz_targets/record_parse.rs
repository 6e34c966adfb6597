//! `model.json` bytes (and a card after a form feed) through the parser and
//! the id rule, as a build reads them. Properties: no panic; a record that
//! loads has an id that is safe as a path and equals its folder; a syntax
//! error points at a real line.
#![no_main]

use std::path::PathBuf;

use libfuzzer_sys::fuzz_target;
use modelpages_record::{parse_model, parse_record, RecordFiles, ModelSource, RecordError};

fuzz_target!(|data: &[u8]| {
    // A form feed never occurs in the seed records, so the part after the
    // first one is the card.
    let (record, card) = match data.iter().position(|&b| b == 0x0c) {
        Some(i) => (&data[..i], Some(data[i + 1..].to_vec())),
        None => (data, None),
    };
    let path = PathBuf::from("models/fuzz/model/model.json");
    let folder_id = match parse_record(&path, record) {
        Ok(parsed) => parsed.id,
        Err(RecordError::Syntax { line, .. }) => {
            assert!(line >= 1 || record.is_empty() || record.iter().all(u8::is_ascii_whitespace), "line 0");
            return;
        }
        Err(other) => panic!("parse_record gave a non-syntax error: {other}"),
    };
    let source = ModelSource { dir: PathBuf::from("models/fuzz/model"), folder_id: folder_id.clone() };
    match parse_model(&source, RecordFiles { record: record.to_vec(), card }) {
        Ok(model) => {
            let id = model.id.as_str();
            assert_eq!(id, folder_id);
            assert_eq!(id.matches('/').count(), 1, "{id:?}");
            assert!(!id.starts_with('/') && !id.contains("..") && !id.contains('\\'), "{id:?}");
            assert!(id.split('/').all(|part| !part.is_empty() && part != "." && !part.starts_with('.')), "{id:?}");
        }
        Err(err) => assert!(err.to_string().starts_with("models/fuzz/model"), "error does not name the file: {err}"),
    }
});
