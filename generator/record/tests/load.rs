use std::fs;
use std::path::Path;

use modelpages_record::{discover, load_model, RecordError};

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

#[test]
fn discovers_model_folders_in_order_and_skips_hidden_and_stray_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "zeta/m/model.json", r#"{"id": "zeta/m"}"#);
    write(root, "alpha/b/model.json", r#"{"id": "alpha/b"}"#);
    write(root, "alpha/a/model.json", r#"{"id": "alpha/a"}"#);
    write(root, "README.md", "not a model");
    write(root, "alpha/notes.txt", "stray");
    write(root, ".git/x/model.json", "{}");
    let found = discover(root).unwrap();
    let ids: Vec<_> = found.sources.iter().map(|s| s.folder_id.as_str()).collect();
    assert_eq!(ids, ["alpha/a", "alpha/b", "zeta/m"]);
    assert!(found.errors.is_empty(), "{:?}", found.errors);
}

#[test]
fn loads_record_and_card() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "org/model/model.json",
        r#"{"id": "org/model", "pipeline_tag": "fill-mask", "cardData": {"license": "apache-2.0", "language": ["en"]}}"#,
    );
    write(dir.path(), "org/model/README.md", "---\nlicense: mit\nbase_model: org/base\n---\n# Hello\n");
    let found = discover(dir.path()).unwrap();
    let model = load_model(&found.sources[0]).unwrap();
    assert_eq!(model.id.as_str(), "org/model");
    assert_eq!(model.record.task(), Some("fill-mask"));
    // The front matter is merged into `cardData`, its fields winning.
    let meta = model.record.card_meta();
    assert_eq!((meta.license, meta.language), (vec!["mit".to_owned()], vec!["en".to_owned()]));
    assert_eq!(model.record.base_models(), ["org/base"]);
    let card = model.card.unwrap();
    assert_eq!(card.front_matter_fields, ["license", "base_model"]);
    assert_eq!(card.body, "# Hello\n");
}

fn load_error(files: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().unwrap();
    for (rel, text) in files {
        write(dir.path(), rel, text);
    }
    let found = discover(dir.path()).unwrap();
    let err = load_model(&found.sources[0]).unwrap_err();
    // Report paths relative to the temporary root so assertions are stable.
    err.to_string().replace(&format!("{}/", dir.path().display()), "")
}

#[test]
fn syntax_errors_name_file_line_and_column() {
    let msg = load_error(&[("a/b/model.json", "{\n  \"id\": \"a/b\",\n  \"tags\": [\"x\",]\n}\n")]);
    assert_eq!(msg, "a/b/model.json:3:16: trailing comma");
    let msg = load_error(&[("a/b/model.json", "{\"id\": \"a/b\", \"tags\": \"x\"}")]);
    assert!(msg.starts_with("a/b/model.json:1:"), "{msg}");
    assert!(msg.contains("expected a sequence"), "{msg}");
    let msg = load_error(&[("a/b/model.json", "")]);
    assert!(msg.starts_with("a/b/model.json:1:0: EOF while parsing"), "{msg}");
}

#[test]
fn validation_errors_name_the_file() {
    let cases = [
        (r#"{"id": "a/c"}"#, "a/b/model.json: id \"a/c\" does not match its folder \"a/b\""),
        (r#"{"id": "../b"}"#, "a/b/model.json: invalid id \"../b\": model id part \"..\" starts or ends with `-` or `.`"),
        (r#"{"id": "a/b/c"}"#, "a/b/model.json: invalid id \"a/b/c\": model id must have two parts, `namespace/name`, found 3"),
        (r#"{"id": "A/b"}"#, "a/b/model.json: id \"A/b\" does not match its folder \"a/b\""),
    ];
    for (json, want) in cases {
        assert_eq!(load_error(&[("a/b/model.json", json)]), want);
    }
}

#[test]
fn missing_record_bad_card_and_byte_order_mark() {
    assert_eq!(load_error(&[("a/b/README.md", "# card")]), "a/b: no model.json in this model folder");
    let msg = load_error(&[("a/b/model.json", r#"{"id": "a/b"}"#), ("a/b/README.md", "---\nx: [\n---\n")]);
    assert!(msg.starts_with("a/b/README.md:3:1: front matter is not valid YAML"), "{msg}");

    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/b/model.json", "\u{feff}{\"id\": \"a/b\"}");
    fs::write(dir.path().join("a/b/README.md"), b"bad \xff utf-8").unwrap();
    let found = discover(dir.path()).unwrap();
    let err = load_model(&found.sources[0]).unwrap_err();
    assert!(err.to_string().ends_with("README.md: not valid UTF-8 (invalid utf-8 sequence of 1 bytes from index 4)"), "{err}");
    fs::remove_file(dir.path().join("a/b/README.md")).unwrap();
    assert!(load_model(&found.sources[0]).is_ok(), "a BOM before the JSON is accepted");
}

#[cfg(unix)]
#[test]
fn links_are_reported_not_followed() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "x/y/model.json", r#"{"id": "x/y"}"#);
    write(outside.path(), "secret.json", r#"{"id": "a/b"}"#);
    let dir = tempfile::tempdir().unwrap();
    symlink(outside.path().join("x"), dir.path().join("x")).unwrap();
    fs::create_dir_all(dir.path().join("a/b")).unwrap();
    symlink(outside.path().join("secret.json"), dir.path().join("a/b/model.json")).unwrap();
    let found = discover(dir.path()).unwrap();
    assert_eq!(found.errors.len(), 1);
    assert!(matches!(&found.errors[0], RecordError::Invalid { path, .. } if path.ends_with("x")));
    let err = load_model(&found.sources[0]).unwrap_err();
    assert!(err.to_string().ends_with("a/b/model.json: is a symbolic link; links are not followed"), "{err}");
}

#[test]
fn a_folder_named_model_json_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("a/b/model.json")).unwrap();
    let found = discover(dir.path()).unwrap();
    let err = load_model(&found.sources[0]).unwrap_err();
    assert!(err.to_string().ends_with("a/b/model.json: is not a regular file"), "{err}");
}

#[test]
fn records_and_cards_over_the_size_limit_are_refused_unread() {
    use modelpages_record::{MAX_CARD_BYTES, MAX_RECORD_BYTES};
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/b/model.json", r#"{"id": "a/b"}"#);
    let found = discover(dir.path()).unwrap();
    // Sparse files: the size is what counts, and nothing past the limit is read.
    let card = fs::File::create(dir.path().join("a/b/README.md")).unwrap();
    card.set_len(MAX_CARD_BYTES + 1).unwrap();
    let err = load_model(&found.sources[0]).unwrap_err();
    let want = format!("README.md: is {} bytes; at most {MAX_CARD_BYTES} bytes (8 MiB) are read", MAX_CARD_BYTES + 1);
    assert!(err.to_string().ends_with(&want), "{err}");
    card.set_len(MAX_CARD_BYTES).unwrap();
    let at_limit = load_model(&found.sources[0]).map(|m| m.card.map(|c| c.body.len()));
    assert!(matches!(at_limit, Ok(Some(len)) if len as u64 == MAX_CARD_BYTES), "a card at the limit is read whole");
    fs::remove_file(dir.path().join("a/b/README.md")).unwrap();
    fs::File::options().append(true).open(dir.path().join("a/b/model.json")).unwrap().set_len(MAX_RECORD_BYTES + 1).unwrap();
    let err = load_model(&found.sources[0]).unwrap_err();
    assert!(err.to_string().ends_with("model.json: is 16777217 bytes; at most 16777216 bytes (16 MiB) are read"), "{err}");
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_file_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a/b/model.json", r#"{"id": "a/b"}"#);
    for name in ["README.md", "model.json"] {
        let path = dir.path().join("a/b").join(name);
        let _ = fs::remove_file(&path);
        let c_path = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) }, 0, "mkfifo {name}");
        let found = discover(dir.path()).unwrap();
        let err = load_model(&found.sources[0]).unwrap_err();
        assert!(err.to_string().ends_with(&format!("a/b/{name}: is not a regular file")), "{err}");
    }
}

#[test]
fn control_characters_in_paths_are_escaped_in_messages() {
    let msg = load_error(&[("a/b\u{1b}[2J\u{202e}/model.json", r#"{"id": "a/b"}"#)]);
    assert!(msg.starts_with("a/b\\u{1b}[2J\\u{202e}/model.json: "), "{msg}");
    assert!(!msg.contains('\u{1b}') && !msg.contains('\u{202e}'), "{msg:?}");
}
