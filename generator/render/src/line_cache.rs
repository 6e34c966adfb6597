//! Parses of single lines, remembered.
//!
//! syntect parses a line from the parser's state at its start, and nothing
//! else: the same line in the same state always gives the same scope
//! operations. Code that the shape cache cannot share (card code blocks,
//! commands naming quantized files) still repeats most of its lines across
//! models (`"torch_dtype": "bfloat16",`), and matching a line against a
//! grammar's regexes is the costliest step of a build, so each distinct
//! (state, line) is parsed once per thread. (Per thread because a parser
//! state holds regex captures, which cannot move between threads.)
//!
//! One of the render side's caches under the contract every cache of the
//! build keeps (see `modelpages_snippets`' `cache` module): an answer from
//! the cache is byte-identical to the work it saves.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use syntect::parsing::{ParseState, ParsingError, ScopeStackOp, SyntaxSet};

/// The cache stops growing here; lines past it are parsed each time.
const MAX_LINES: usize = 50_000;
/// Longer lines are not cached, which bounds the cache's bytes: the lines
/// that repeat across models are short.
const MAX_LINE_BYTES: usize = 512;
/// A line met in more states than this (a closing brace) is not worth a scan.
const MAX_STATES_PER_LINE: usize = 8;

pub(crate) type LineOps = Rc<[(usize, ScopeStackOp)]>;

/// One parse: the state before the line, what it did, the state after.
struct LineParse {
    before: ParseState,
    ops: LineOps,
    after: ParseState,
}

#[derive(Default)]
struct ThreadLines {
    /// The [`LineCache`] these parses belong to: context ids are only
    /// meaningful within the syntax set they came from.
    owner: u64,
    parses: foldhash::HashMap<String, Vec<LineParse>>,
}

thread_local! {
    static LINES: RefCell<ThreadLines> = RefCell::default();
}

/// A handle on each thread's parses for one syntax set.
pub(crate) struct LineCache {
    id: u64,
}

impl LineCache {
    pub(crate) fn new() -> LineCache {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        LineCache { id: NEXT.fetch_add(1, Ordering::Relaxed) }
    }

    /// Parses `line` from `parser`'s state as `parser.parse_line` does,
    /// taking the result from the cache when the line was met in this state.
    pub(crate) fn parse_line(
        &self,
        parser: &mut ParseState,
        line: &str,
        syntaxes: &SyntaxSet,
    ) -> Result<LineOps, ParsingError> {
        LINES.with(|lines| {
            let mut lines = lines.borrow_mut();
            if lines.owner != self.id {
                *lines = ThreadLines { owner: self.id, parses: Default::default() };
            }
            let cacheable = line.len() <= MAX_LINE_BYTES;
            let cached = if cacheable { lines.parses.get(line) } else { None };
            if let Some(hit) = cached.and_then(|p| p.iter().find(|p| p.before == *parser)) {
                *parser = hit.after.clone();
                return Ok(hit.ops.clone());
            }
            let before = parser.clone();
            let ops: LineOps = parser.parse_line(line, syntaxes)?.into();
            if cacheable && lines.parses.len() < MAX_LINES {
                let parses = lines.parses.entry(line.to_owned()).or_default();
                if parses.len() < MAX_STATES_PER_LINE {
                    parses.push(LineParse { before, ops: ops.clone(), after: parser.clone() });
                }
            }
            Ok(ops)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_parsed_but_not_kept() {
        let syntaxes = SyntaxSet::load_defaults_newlines();
        let python = syntaxes.find_syntax_by_token("py").unwrap();
        let cache = LineCache::new();
        let mut parser = ParseState::new(python);
        let long = format!("x = '{}'\n", "a".repeat(4096));
        let ops = cache.parse_line(&mut parser, &long, &syntaxes).unwrap();
        assert_eq!(*ops, *LineOps::from(ParseState::new(python).parse_line(&long, &syntaxes).unwrap()));
        cache.parse_line(&mut parser, "y = 1\n", &syntaxes).unwrap();
        LINES.with(|lines| {
            let lines = lines.borrow();
            assert!(lines.parses.contains_key("y = 1\n"));
            assert!(!lines.parses.contains_key(long.as_str()), "a long line is not kept");
        });
    }
}
