//! Property tests: records whose every string a generator reads is random
//! and hostile. Generation never fails or panics, every example keeps the
//! layout rules, and, checked once per run by the real language checkers
//! (`tests/checkers/check_snippets.py`), every example parses and every
//! literal holds its value exactly.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use modelpages_record::ModelRecord;
use modelpages_snippets::{InferenceOptions, InferenceSettings, Language, SnippetEngine};
use modelpages_testkit::code::layout_problems;
use modelpages_testkit::records::{record_json, RecordParts, MEANINGFUL_TAGS};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};

/// Records per run: enough to reach most libraries in a few runs, few enough
/// for the checker to take seconds.
const CASES: u32 = 48;

/// Every value starts with it, so the checkers know which literals hold it.
const MARKER: &str = "MPHOSTILE";

/// Characters that end, escape or interpolate literals in one of the three
/// languages, or that hide or move text.
const NASTY: &[char] = &[
    '"', '\'', '\\', '\n', '\r', '\t', '`', '$', '{', '}', '(', ')', '<', '>', '/', '#', ';', '|', '&', '*', '!', '%',
    '\0', '\u{7}', '\u{1b}', '\u{7f}', '\u{85}', '\u{a0}', '\u{ad}', '\u{2028}', '\u{2029}', '\u{200b}', '\u{202e}',
    '\u{2066}', '\u{feff}', '\u{e0041}', '\u{1f600}', '\u{fffd}',
];

/// Pieces that mean something in one of the languages.
const FRAGMENTS: &[&str] = &["\"\"\"", "'''", "${x}", "$(y)", "`z`", "</script>", "\\u{41}", "\\x41", "%s", "{0}", " # ", "*/", "\\\n"];

fn hostile_value() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => proptest::sample::select(NASTY).prop_map(String::from),
        2 => proptest::sample::select(FRAGMENTS).prop_map(String::from),
        2 => any::<char>().prop_map(String::from),
        2 => "[a-z ]{1,4}",
    ];
    proptest::collection::vec(piece, 0..12).prop_map(|pieces| format!("{MARKER}{}", pieces.concat()))
}

fn engine() -> &'static SnippetEngine {
    static ENGINE: std::sync::OnceLock<SnippetEngine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(SnippetEngine::new)
}

/// One hostile value in every field of a record of a random library and task.
fn record_parts() -> impl Strategy<Value = RecordParts> {
    let libraries: Vec<String> =
        engine().catalogue().libraries().iter().map(|l| l.key.clone()).filter(|k| engine().has_snippets(k)).collect();
    let mut tasks: Vec<Option<String>> = engine().task_table().iter().map(|t| Some(t.task.clone())).collect();
    tasks.extend([None, Some("text-generation".into()), Some("image-text-to-text".into())]);
    let tags = proptest::sample::subsequence(MEANINGFUL_TAGS, 0..=MEANINGFUL_TAGS.len());
    (proptest::sample::select(libraries), proptest::sample::select(tasks), tags, hostile_value()).prop_map(
        |(library, task, tags, value)| {
            RecordParts::filled(&library, task.as_deref(), tags.into_iter().map(String::from).collect(), &value)
        },
    )
}

fn extension(language: Language) -> &'static str {
    match language {
        Language::Python => "py",
        Language::Js => "mjs",
        Language::Sh => "sh",
    }
}

/// Generates every example of one record into `dir` as `case<n>-<i>.<ext>`.
fn generate(parts: &RecordParts, streaming: bool, n: usize, dir: &Path) -> Result<(), TestCaseError> {
    let record: ModelRecord = serde_json::from_value(record_json(parts)).expect("built records load");
    let engine = engine();
    let library = engine.library_examples(&record).map_err(|e| TestCaseError::fail(format!("{}: {e}", parts.library)))?;
    let options = InferenceOptions { streaming, bill_to: Some(parts.card_value.clone()), ..InferenceOptions::default() };
    let hosted = engine
        .inference_examples(&record, &InferenceSettings::default(), &options)
        .map_err(|e| TestCaseError::fail(format!("{}: {e}", parts.library)))?;
    let examples = library
        .iter()
        .flat_map(|l| l.snippets.iter().map(|s| (s.language, &s.content)))
        .chain(hosted.snippets.iter().map(|s| (s.language, &s.content)));
    for (i, (language, text)) in examples.enumerate() {
        let problems = layout_problems(text);
        prop_assert!(problems.is_empty(), "{} {:?}: {problems:?} in\n{text}", parts.library, parts.task);
        fs::write(dir.join(format!("case{n}-{i}.{}", extension(language))), format!("{text}\n")).unwrap();
    }
    Ok(())
}

#[test]
fn hostile_records_give_examples_that_parse_and_hold_their_values() {
    let dir = tempfile::tempdir().unwrap();
    let mut literals: BTreeMap<String, String> = BTreeMap::new();
    let config = Config { cases: CASES, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() };
    let mut runner = TestRunner::new(config);
    let cell = std::cell::RefCell::new(&mut literals);
    runner
        .run(&(record_parts(), any::<bool>()), |(parts, streaming)| {
            let mut literals = cell.borrow_mut();
            let n = literals.len();
            // A shrunk case rewrites its files under a new number.
            literals.insert(format!("case{n}"), parts.config_value.clone());
            generate(&parts, streaming, n, dir.path())
        })
        .unwrap();
    let literals_file = dir.path().join("literals.json");
    fs::write(&literals_file, serde_json::to_string(&literals).unwrap()).unwrap();
    let files = fs::read_dir(dir.path()).unwrap().count() - 1;
    assert!(files >= CASES as usize, "{files} examples from {CASES} records");
    let checker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/checkers/check_snippets.py");
    let out = Command::new("python3")
        .arg(checker)
        .arg("--dir").arg(dir.path())
        .arg("--literals").arg(&literals_file)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        // Keep the failing files: the message names them and their values.
        let kept = dir.keep();
        panic!("checker failed (examples kept in {}):\n{stdout}{}", kept.display(), String::from_utf8_lossy(&out.stderr));
    }
    assert_eq!(stdout.lines().last(), Some(format!("{files} passed, 0 failed").as_str()));
}

/// The literal forms on their own, over any string at all: each parses in
/// its language and holds the string (checked by the same checkers).
#[test]
fn literals_of_any_string_hold_it_exactly() {
    use modelpages_snippets::escape::{js_str, py_str, sh_str};
    let dir = tempfile::tempdir().unwrap();
    let mut literals: BTreeMap<String, String> = BTreeMap::new();
    let mut runner = TestRunner::new(Config { cases: 200, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() });
    let cell = std::cell::RefCell::new(&mut literals);
    runner
        .run(&prop_oneof![hostile_value(), any::<String>().prop_map(|s| format!("{MARKER}{s}"))], |value| {
            let mut literals = cell.borrow_mut();
            let n = literals.len();
            literals.insert(format!("case{n}"), value.clone());
            let files = [
                ("py", format!("value = {}\nprint(value)\n", py_str(&value))),
                ("mjs", format!("const value = {};\nconsole.log(value);\n", js_str(&value))),
                ("sh", format!("value={}\necho \"$value\"\n", sh_str(&value))),
            ];
            for (ext, text) in files {
                prop_assert!(layout_problems(&text).is_empty(), "{:?}", layout_problems(&text));
                fs::write(dir.path().join(format!("case{n}-0.{ext}")), text).unwrap();
            }
            Ok(())
        })
        .unwrap();
    let literals_file = dir.path().join("literals.json");
    fs::write(&literals_file, serde_json::to_string(&literals).unwrap()).unwrap();
    let checker = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/checkers/check_snippets.py");
    let out = Command::new("python3").arg(checker).arg("--dir").arg(dir.path()).arg("--literals").arg(&literals_file).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "checker failed:\n{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().last(), Some(format!("{} passed, 0 failed", literals.len() * 3).as_str()));
}
