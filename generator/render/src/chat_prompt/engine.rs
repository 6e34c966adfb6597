//! The Jinja dialect of chat templates, as transformers renders them:
//! `trim_blocks` and `lstrip_blocks`, loop controls, `raise_exception`,
//! `strftime_now`, a `tojson` that writes what Python's `json.dumps` does,
//! and the Python string and dict methods templates call (`.strip()`,
//! `.split()`, `.startswith()`, `.items()`, ...).
//!
//! Templates come from records, so every render is bounded: minijinja's
//! fuel ([`FUEL`]) bounds its steps and the data it makes (about 64 bytes a
//! fuel); the methods and filters here charge fuel for what they make
//! before they make it, and so does `+` (see [`compile`]); the output
//! stops at [`MAX_OUTPUT`] bytes; the source at [`MAX_TEMPLATE_BYTES`]. Macros nest at most [`MAX_DEPTH`] deep
//! (a render runs on a build thread's stack), values at most as deep when
//! written as JSON.

use std::sync::{Arc, Mutex};

use chat_jinja::machinery::{self, CompiledTemplate, Instruction, TemplateConfig};
use chat_jinja::syntax::SyntaxConfig;
use chat_jinja::value::{Kwargs, Rest, ValueKind};
use chat_jinja::{AutoEscape, Environment, Error, ErrorKind, State, Value};

/// Steps and data a render may take: a real template on the sample
/// conversation takes a few thousand.
pub const FUEL: u64 = 200_000;
/// Longest template rendered (the longest real ones are tens of KiB).
pub const MAX_TEMPLATE_BYTES: usize = 128 << 10;
/// Longest prompt kept.
pub const MAX_OUTPUT: usize = 32 << 10;
/// Deepest macro nesting, and deepest value written as JSON.
const MAX_DEPTH: usize = 24;
/// Widest indent `tojson` writes, per level.
const MAX_INDENT: usize = 16;
/// Bytes per fuel, as minijinja charges data.
const BYTES_PER_FUEL: u64 = 64;

/// The day a template asking for today's date (`strftime_now`) is told:
/// pages must not change from one day's build to the next.
pub const FIXED_DAY: (i32, u32, u32) = (2025, 1, 15);

/// Why a render failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RenderFailure {
    /// The template called `raise_exception` with this message.
    Raised(String),
    /// Past [`FUEL`] or [`MAX_OUTPUT`].
    TooCostly,
    /// It does not compile, or a construct fails (an unknown filter, a
    /// method this dialect lacks).
    Unsupported(String),
}

/// The function every `+` of a template calls instead of minijinja's own
/// (see [`compile`]); a template naming it is refused.
const ADD_FUNCTION: &str = "__modelpages_add";

/// `source` compiled, with each `+` a call of [`ADD_FUNCTION`]: minijinja
/// adds sequences lazily and, past 32 additions deep, copies the whole
/// chain before charging any fuel for it, so a list added to itself 33
/// times would take 2^33 slots. Swapping one instruction for another keeps
/// every jump's target.
fn compile(source: &str) -> Result<CompiledTemplate<'_>, Error> {
    if source.contains(ADD_FUNCTION) {
        return Err(Error::new(ErrorKind::InvalidOperation, format!("the name {ADD_FUNCTION} is reserved")));
    }
    let config = TemplateConfig { syntax_config: syntax(), default_auto_escape: Arc::new(|_| AutoEscape::None) };
    let mut compiled = CompiledTemplate::new("chat_template", source, &config)?;
    for instructions in std::iter::once(&mut compiled.instructions).chain(compiled.blocks.values_mut()) {
        let mut index = 0;
        while let Some(instruction) = instructions.get_mut(index) {
            if matches!(instruction, Instruction::Add) {
                *instruction = Instruction::CallFunction(ADD_FUNCTION, Some(2));
            }
            index += 1;
        }
    }
    Ok(compiled)
}

/// Renders `source` with `context`.
pub fn render(source: &str, context: Value) -> Result<String, RenderFailure> {
    let raised: Arc<Mutex<Option<String>>> = Arc::default();
    let env = environment(Arc::clone(&raised));
    let compiled = compile(source).map_err(|e| RenderFailure::Unsupported(describe(&e)))?;
    let mut text = String::new();
    let result = {
        let mut out = machinery::make_string_output(&mut text);
        machinery::eval(&env, &compiled.instructions, context, &compiled.blocks, &mut out, AutoEscape::None).map(drop)
    };
    if let Some(message) = raised.lock().map(|m| m.clone()).unwrap_or_default() {
        return Err(RenderFailure::Raised(message));
    }
    match result {
        // Output is charged fuel as it is written, so it never grew far past this.
        Ok(()) if text.len() > MAX_OUTPUT => Err(RenderFailure::TooCostly),
        Ok(()) => Ok(text),
        Err(e) if e.kind() == ErrorKind::OutOfFuel => Err(RenderFailure::TooCostly),
        Err(e) => Err(RenderFailure::Unsupported(describe(&e))),
    }
}

/// `a + b`, as minijinja adds but charging for what it makes before making
/// it: strings joined, sequences copied into one list (one fuel an item),
/// numbers added (integers exactly, else as floats).
fn add(state: &State, a: Value, b: Value) -> Result<Value, Error> {
    let sequence = |v: &Value| matches!(v.kind(), ValueKind::Seq | ValueKind::Iterable);
    match (a.kind(), b.kind()) {
        (ValueKind::String, ValueKind::String) => {
            let (a, b) = (a.as_str().unwrap_or_default(), b.as_str().unwrap_or_default());
            charge(state, a.len() + b.len())?;
            Ok(Value::from([a, b].concat()))
        }
        _ if sequence(&a) && sequence(&b) => {
            if let (Some(x), Some(y)) = (a.len(), b.len()) {
                state.consume_fuel((x as u64).saturating_add(y as u64))?;
            }
            let mut joined = items(state, &a)?;
            joined.extend(items(state, &b)?);
            Ok(Value::from(joined))
        }
        (ValueKind::Number, ValueKind::Number) if a.is_integer() && b.is_integer() => {
            let (x, y) = (i128::try_from(a)?, i128::try_from(b)?);
            x.checked_add(y).map(Value::from).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "integer overflow"))
        }
        (ValueKind::Number, ValueKind::Number) => Ok(Value::from(f64::try_from(a)? + f64::try_from(b)?)),
        (x, y) => Err(Error::new(ErrorKind::InvalidOperation, format!("cannot add {x} and {y}"))),
    }
}

/// The `sum` filter, adding as [`add`] does.
fn sum(state: &State, values: Value, kwargs: Kwargs) -> Result<Value, Error> {
    let mut total: Value = kwargs.get::<Option<Value>>("start")?.unwrap_or(Value::from(0));
    kwargs.assert_all_used()?;
    for item in items(state, &values)? {
        total = add(state, total, item)?;
    }
    Ok(total)
}

fn syntax() -> SyntaxConfig {
    SyntaxConfig::builder().trim_blocks(true).lstrip_blocks(true).build().expect("the default delimiters")
}

/// Whether `source` (compiled in the same dialect) reads `name` from its
/// context, e.g. `tools`.
pub fn reads_variable(source: &str, name: &str) -> bool {
    let mut env = environment(Arc::default());
    env.set_syntax(syntax());
    env.template_from_str(source).is_ok_and(|t| t.undeclared_variables(true).iter().any(|v| v == name || v.starts_with(&format!("{name}."))))
}

/// An error in one line: its kind and detail, and where in the template.
fn describe(e: &Error) -> String {
    let what = match e.detail() {
        Some(detail) => format!("{}: {detail}", e.kind()),
        None => e.kind().to_string(),
    };
    match e.line() {
        Some(line) => format!("{what} (line {line})"),
        None => what,
    }
}

fn environment(raised: Arc<Mutex<Option<String>>>) -> Environment<'static> {
    let mut env = Environment::new();
    env.set_fuel(Some(FUEL));
    env.set_recursion_limit(MAX_DEPTH);
    env.add_function("raise_exception", move |message: String| -> Result<Value, Error> {
        if let Ok(mut slot) = raised.lock() {
            slot.get_or_insert(message.clone());
        }
        Err(Error::new(ErrorKind::InvalidOperation, message))
    });
    env.add_function("strftime_now", |format: String| strftime(&format, FIXED_DAY));
    env.add_filter("tojson", tojson);
    env.add_filter("sum", sum);
    env.add_function(ADD_FUNCTION, add);
    env.set_unknown_method_callback(python_method);
    env
}

/// The items of `value`, one fuel each as they are taken: a sequence made
/// by adding sequences to themselves is long without taking room.
fn items(state: &State, value: &Value) -> Result<Vec<Value>, Error> {
    let mut out = Vec::new();
    for item in value.try_iter()? {
        state.consume_fuel(1)?;
        out.push(item);
    }
    Ok(out)
}

/// Charges the fuel for `bytes` about to be made.
fn charge(state: &State, bytes: usize) -> Result<(), Error> {
    state.consume_fuel(bytes as u64 / BYTES_PER_FUEL + 1)
}

/// `strftime_now(format)` on the fixed day, at midnight: the directives
/// templates use (`%d %b %Y`, `%Y-%m-%d`, `%B %-d`), others kept as they are.
fn strftime(format: &str, (year, month, day): (i32, u32, u32)) -> Result<String, Error> {
    const MONTHS: [&str; 12] =
        ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    const DAYS: [&str; 7] = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
    // 2025-01-15 is a Wednesday; the day is fixed, so is its weekday.
    let weekday = DAYS[2];
    let name = MONTHS[(month - 1) as usize];
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let (no_pad, directive) = match chars.next() {
            Some('-') => (true, chars.next()),
            other => (false, other),
        };
        let two = |n: u32| if no_pad { n.to_string() } else { format!("{n:02}") };
        match directive {
            Some('Y') => out.push_str(&year.to_string()),
            Some('y') => out.push_str(&format!("{:02}", year % 100)),
            Some('m') => out.push_str(&two(month)),
            Some('d') => out.push_str(&two(day)),
            Some('e') => out.push_str(&format!("{day:>2}")),
            Some('B') => out.push_str(name),
            Some('b') | Some('h') => out.push_str(&name[..3]),
            Some('A') => out.push_str(weekday),
            Some('a') => out.push_str(&weekday[..3]),
            Some('H') | Some('M') | Some('S') => out.push_str(if no_pad { "0" } else { "00" }),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    Ok(out)
}

/// Python's `json.dumps(value, ensure_ascii=False, indent=..., separators=...,
/// sort_keys=...)`, as transformers' `tojson` calls it.
fn tojson(state: &State, value: Value, args: Rest<Value>, kwargs: Kwargs) -> Result<Value, Error> {
    let indent_arg: Option<Value> = match args.first() {
        Some(first) => Some(first.clone()),
        None => kwargs.get("indent")?,
    };
    let indent = match indent_arg {
        None => None,
        Some(v) if v.is_none() => None,
        Some(v) => match (v.as_i64(), v.as_str()) {
            (Some(n), _) => Some(" ".repeat(n.clamp(0, MAX_INDENT as i64) as usize)),
            (_, Some(s)) if s.len() <= MAX_INDENT => Some(s.to_owned()),
            _ => return Err(Error::new(ErrorKind::InvalidOperation, "tojson: indent must be a number")),
        },
    };
    let sort_keys = kwargs.get::<Option<bool>>("sort_keys")?.unwrap_or(false);
    let separators: Option<Vec<String>> = kwargs.get("separators")?;
    kwargs.assert_all_used()?;
    let (item_sep, key_sep) = match separators.as_deref() {
        Some([item, key]) => (item.clone(), key.clone()),
        Some(_) => return Err(Error::new(ErrorKind::InvalidOperation, "tojson: separators must be two strings")),
        None if indent.is_some() => (",".to_owned(), ": ".to_owned()),
        None => (", ".to_owned(), ": ".to_owned()),
    };
    let mut writer = JsonWriter { state, out: String::new(), indent, item_sep, key_sep, sort_keys };
    writer.value(&value, 0)?;
    Ok(Value::from(writer.out))
}

struct JsonWriter<'a, 's, 'e> {
    state: &'a State<'s, 'e>,
    out: String,
    indent: Option<String>,
    item_sep: String,
    key_sep: String,
    sort_keys: bool,
}

impl JsonWriter<'_, '_, '_> {
    fn push(&mut self, text: &str) -> Result<(), Error> {
        if text.len() > 256 {
            charge(self.state, text.len())?;
        } else if self.out.len() % 4096 + text.len() >= 4096 {
            charge(self.state, 4096)?;
        }
        self.out.push_str(text);
        Ok(())
    }

    fn newline(&mut self, depth: usize) -> Result<(), Error> {
        if let Some(indent) = self.indent.clone() {
            self.push("\n")?;
            for _ in 0..depth {
                self.push(&indent)?;
            }
        }
        Ok(())
    }

    fn value(&mut self, value: &Value, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(Error::new(ErrorKind::InvalidOperation, "tojson: the value nests too deep"));
        }
        match value.kind() {
            ValueKind::None => self.push("null"),
            ValueKind::Bool => self.push(if value.is_true() { "true" } else { "false" }),
            ValueKind::Number => self.push(&number_text(value)),
            ValueKind::String => self.push(&json_string(value.as_str().unwrap_or_default())),
            ValueKind::Seq | ValueKind::Iterable => {
                let items = items(self.state, value)?;
                self.sequence(&items, depth)
            }
            ValueKind::Map => self.map(value, depth),
            ValueKind::Undefined => Err(Error::new(ErrorKind::UndefinedError, "tojson: the value is undefined")),
            _ => self.push(&json_string(&value.to_string())),
        }
    }

    fn sequence(&mut self, items: &[Value], depth: usize) -> Result<(), Error> {
        if items.is_empty() {
            return self.push("[]");
        }
        self.push("[")?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                let sep = self.item_sep.clone();
                self.push(&sep)?;
            }
            self.newline(depth + 1)?;
            self.value(item, depth + 1)?;
        }
        self.newline(depth)?;
        self.push("]")
    }

    fn map(&mut self, value: &Value, depth: usize) -> Result<(), Error> {
        let mut pairs: Vec<(String, Value)> = Vec::new();
        for key in items(self.state, value)? {
            let item = value.get_item(&key)?;
            let key = match key.kind() {
                ValueKind::String => key.as_str().unwrap_or_default().to_owned(),
                ValueKind::None => "null".to_owned(),
                ValueKind::Bool => (if key.is_true() { "true" } else { "false" }).to_owned(),
                _ => number_text(&key),
            };
            pairs.push((key, item));
        }
        if self.sort_keys {
            pairs.sort_by(|a, b| a.0.cmp(&b.0));
        }
        if pairs.is_empty() {
            return self.push("{}");
        }
        self.push("{")?;
        for (i, (key, item)) in pairs.iter().enumerate() {
            if i > 0 {
                let sep = self.item_sep.clone();
                self.push(&sep)?;
            }
            self.newline(depth + 1)?;
            self.push(&json_string(key))?;
            let sep = self.key_sep.clone();
            self.push(&sep)?;
            self.value(item, depth + 1)?;
        }
        self.newline(depth)?;
        self.push("}")
    }
}

/// A number as Python writes it: integers as they are, floats with a
/// decimal point (`1.0`), infinities and NaN by Python's names.
fn number_text(value: &Value) -> String {
    if value.is_integer() {
        return value.to_string();
    }
    match f64::try_from(value.clone()) {
        Ok(f) if f.is_nan() => "NaN".to_owned(),
        Ok(f) if f.is_infinite() => (if f > 0.0 { "Infinity" } else { "-Infinity" }).to_owned(),
        Ok(f) if f.fract() == 0.0 && f.abs() < 1e16 => format!("{f:.1}"),
        Ok(f) => f.to_string(),
        Err(_) => value.to_string(),
    }
}

/// A JSON string with only what must be escaped escaped, as Python's
/// `json.dumps(..., ensure_ascii=False)` writes it: serde_json escapes the
/// same characters the same way (`\n`, `\u001f`, never non-ASCII).
fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string always serialises")
}

fn unknown_method() -> Result<Value, Error> {
    Err(Error::from(ErrorKind::UnknownMethod))
}

fn string_arg(args: &[Value], index: usize) -> Result<Option<&str>, Error> {
    match args.get(index) {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.as_str().map(Some).ok_or_else(|| Error::new(ErrorKind::InvalidOperation, "expected a string argument")),
    }
}

/// The Python methods of strings and dicts that chat templates call.
fn python_method(state: &mut State, value: &Value, method: &str, args: &[Value]) -> Result<Value, Error> {
    match value.kind() {
        ValueKind::String => string_method(state, value.as_str().unwrap_or_default(), method, args),
        ValueKind::Map => map_method(state, value, method, args),
        _ => unknown_method(),
    }
}

fn string_method(state: &State, s: &str, method: &str, args: &[Value]) -> Result<Value, Error> {
    let strip_set = |args: &[Value]| -> Result<Option<Vec<char>>, Error> { Ok(string_arg(args, 0)?.map(|c| c.chars().collect())) };
    match method {
        "strip" | "lstrip" | "rstrip" => {
            let set = strip_set(args)?;
            let strip = |c: char| set.as_ref().map_or(c.is_whitespace(), |set| set.contains(&c));
            Ok(Value::from(match method {
                "strip" => s.trim_matches(strip),
                "lstrip" => s.trim_start_matches(strip),
                _ => s.trim_end_matches(strip),
            }))
        }
        "upper" | "lower" | "title" | "capitalize" => {
            // Case mapping makes at most three characters of one.
            charge(state, s.len() * 3)?;
            Ok(Value::from(match method {
                "upper" => s.to_uppercase(),
                "lower" => s.to_lowercase(),
                "title" => title_case(s),
                _ => {
                    let mut chars = s.chars();
                    chars.next().map_or(String::new(), |first| first.to_uppercase().chain(chars.flat_map(char::to_lowercase)).collect())
                }
            }))
        }
        "startswith" | "endswith" => {
            let candidates: Vec<String> = match args.first() {
                Some(v) if v.kind() == ValueKind::Seq => items(state, v)?.iter().map(|x| x.as_str().unwrap_or_default().to_owned()).collect(),
                _ => vec![string_arg(args, 0)?.unwrap_or_default().to_owned()],
            };
            let hit = candidates.iter().any(|c| if method == "startswith" { s.starts_with(c.as_str()) } else { s.ends_with(c.as_str()) });
            Ok(Value::from(hit))
        }
        "split" | "rsplit" => {
            let limit = args.get(1).and_then(Value::as_i64).filter(|n| *n >= 0).map(|n| n as usize);
            charge(state, s.len() * 2)?;
            let parts: Vec<Value> = match (string_arg(args, 0)?, limit) {
                (Some(""), _) => return Err(Error::new(ErrorKind::InvalidOperation, "empty separator")),
                (Some(sep), None) => s.split(sep).map(Value::from).collect(),
                (Some(sep), Some(n)) if method == "split" => s.splitn(n + 1, sep).map(Value::from).collect(),
                (Some(sep), Some(n)) => {
                    let mut parts: Vec<Value> = s.rsplitn(n + 1, sep).map(Value::from).collect();
                    parts.reverse();
                    parts
                }
                (None, _) => s.split_whitespace().map(Value::from).collect(),
            };
            Ok(Value::from(parts))
        }
        "splitlines" => {
            charge(state, s.len() * 2)?;
            Ok(Value::from(s.lines().map(Value::from).collect::<Vec<_>>()))
        }
        "replace" => {
            let (old, new) = (string_arg(args, 0)?.unwrap_or_default(), string_arg(args, 1)?.unwrap_or_default());
            let count = args.get(2).and_then(Value::as_i64).filter(|n| *n >= 0).map(|n| n as usize);
            if old.is_empty() {
                return Err(Error::new(ErrorKind::InvalidOperation, "replace: an empty pattern is not supported"));
            }
            let hits = s.matches(old).count().min(count.unwrap_or(usize::MAX));
            charge(state, s.len().saturating_add(hits.saturating_mul(new.len())))?;
            Ok(Value::from(match count {
                Some(n) => s.replacen(old, new, n),
                None => s.replace(old, new),
            }))
        }
        "find" | "rfind" | "count" | "index" => {
            let needle = string_arg(args, 0)?.unwrap_or_default();
            let found = if method == "rfind" { s.rfind(needle) } else { s.find(needle) };
            Ok(match method {
                "count" => Value::from(if needle.is_empty() { s.chars().count() + 1 } else { s.matches(needle).count() }),
                "index" => match found {
                    Some(at) => Value::from(s[..at].chars().count()),
                    None => return Err(Error::new(ErrorKind::InvalidOperation, "substring not found")),
                },
                _ => Value::from(found.map_or(-1, |at| s[..at].chars().count() as i64)),
            })
        }
        "join" => {
            let mut parts: Vec<String> = Vec::new();
            for item in args.first().map(|v| items(state, v)).transpose()?.unwrap_or_default() {
                let part = item.to_string();
                charge(state, part.len() + s.len())?;
                parts.push(part);
            }
            Ok(Value::from(parts.join(s)))
        }
        "isdigit" | "isnumeric" => Ok(Value::from(!s.is_empty() && s.chars().all(|c| c.is_numeric()))),
        "isalpha" => Ok(Value::from(!s.is_empty() && s.chars().all(char::is_alphabetic))),
        "isalnum" => Ok(Value::from(!s.is_empty() && s.chars().all(char::is_alphanumeric))),
        "isspace" => Ok(Value::from(!s.is_empty() && s.chars().all(char::is_whitespace))),
        "islower" => Ok(Value::from(s.chars().any(char::is_lowercase) && !s.chars().any(char::is_uppercase))),
        "isupper" => Ok(Value::from(s.chars().any(char::is_uppercase) && !s.chars().any(char::is_lowercase))),
        _ => unknown_method(),
    }
}

/// Python's `str.title()`: each run of letters starts upper case.
fn title_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_word = false;
    for c in s.chars() {
        if c.is_alphabetic() {
            if in_word {
                out.extend(c.to_lowercase());
            } else {
                out.extend(c.to_uppercase());
            }
            in_word = true;
        } else {
            out.push(c);
            in_word = false;
        }
    }
    out
}

fn map_method(state: &State, value: &Value, method: &str, args: &[Value]) -> Result<Value, Error> {
    match method {
        "items" => {
            let mut pairs = Vec::new();
            for key in items(state, value)? {
                let item = value.get_item(&key)?;
                pairs.push(Value::from(vec![key, item]));
            }
            Ok(Value::from(pairs))
        }
        "keys" => Ok(Value::from(items(state, value)?)),
        "values" => {
            let keys = items(state, value)?;
            keys.iter().map(|k| value.get_item(k)).collect::<Result<Vec<_>, _>>().map(Value::from)
        }
        "get" => {
            let key = args.first().cloned().unwrap_or_default();
            let found = value.get_item(&key)?;
            Ok(if found.is_undefined() { args.get(1).cloned().unwrap_or(Value::from(())) } else { found })
        }
        _ => unknown_method(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(source: &str) -> Result<String, RenderFailure> {
        render(source, Value::from_object(indexmap::IndexMap::<Value, Value>::new()))
    }

    #[test]
    fn python_methods_filters_and_globals() {
        assert_eq!(run("{{ '  a b  '.strip() }}|{{ 'xxaxx'.strip('x') }}|{{ 'a,b,c'.split(',') | join('+') }}").unwrap(), "a b|a|a+b+c");
        assert_eq!(run("{{ 'Hello'.startswith(['x', 'He']) }} {{ 'aXa'.replace('X', 'yy') }} {{ 'ab cd'.title() }}").unwrap(), "True ayya Ab Cd", "printed as Python prints");
        assert_eq!(run("{% for k, v in {'a': 1, 'b': [2, 3.5]}.items() %}{{ k }}={{ v | tojson }};{% endfor %}").unwrap(), "a=1;b=[2, 3.5];");
        assert_eq!(run("{{ {'b': 'é\"\\n', 'a': none, 'c': 1.0} | tojson }}").unwrap(), r#"{"b": "é\"\n", "a": null, "c": 1.0}"#);
        // Python's escapes: short ones where JSON has them, lowercase `\u00xx`, DEL and non-ASCII as they are.
        assert_eq!(json_string("\u{1f}\t\u{8}\u{c}\r\u{7f}é\\"), "\"\\u001f\\t\\b\\f\\r\u{7f}é\\\\\"");
        assert_eq!(run("{{ {'b': 1, 'a': [true]} | tojson(indent=2, sort_keys=true) }}").unwrap(), "{\n  \"a\": [\n    true\n  ],\n  \"b\": 1\n}");
        assert_eq!(run("{{ {'a': 1} | tojson(separators=[',', ':']) }}").unwrap(), r#"{"a":1}"#);
        assert_eq!(run("{{ strftime_now('%d %b %Y') }}, {{ strftime_now('%B %-d, %Y (%A)') }}").unwrap(), "15 Jan 2025, January 15, 2025 (Wednesday)");
        assert_eq!(run("{% for i in range(9) %}{% if i == 2 %}{% break %}{% endif %}{{ i }}{% endfor %}").unwrap(), "01");
        // trim_blocks and lstrip_blocks, as transformers compiles templates.
        assert_eq!(run("{% if true %}\n    x\n  {% endif %}\n").unwrap(), "    x\n");
        assert_eq!(run("{{ raise_exception('No system role') }}"), Err(RenderFailure::Raised("No system role".into())));
        assert!(matches!(run("{{ x | nosuchfilter }}"), Err(RenderFailure::Unsupported(_))));
        assert!(matches!(run("{% generation %}"), Err(RenderFailure::Unsupported(_))));
    }

    #[test]
    fn hostile_templates_run_out_of_fuel_or_room_not_memory() {
        // Doubling a string in a loop would want 2^60 bytes.
        let doubling = "{% set ns = namespace(s='x') %}{% for i in range(60) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}";
        assert_eq!(run(doubling), Err(RenderFailure::TooCostly));
        let squaring = "{% set ns = namespace(s='ab') %}{% for i in range(40) %}{% set ns.s = ns.s.replace('a', ns.s) %}{% endfor %}";
        assert_eq!(run(squaring), Err(RenderFailure::TooCostly));
        assert_eq!(run("{{ 'x' * 100000000 }}"), Err(RenderFailure::TooCostly));
        assert_eq!(run("{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"), Err(RenderFailure::TooCostly));
        assert_eq!(run("{% for i in range(10000) %}0123456789{% endfor %}"), Err(RenderFailure::TooCostly), "past the output cap");
        let joined = "{% set ns = namespace(l=['xxxxxxxxxxxxxxxx']) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ''.join(ns.l) }}";
        assert_eq!(run(joined), Err(RenderFailure::TooCostly));
        // Lists added to themselves: minijinja's own `+` would copy 2^33
        // items unpaid once 33 deep; here each copy is paid for first.
        let listed = "{% set ns = namespace(l=[0]) %}{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | length }}";
        assert_eq!(run(listed), Err(RenderFailure::TooCostly));
        let lines = format!("{{% set l = [0] %}}{}{{{{ l | length }}}}", "{% set l = l + l %}".repeat(40));
        assert_eq!(run(&lines), Err(RenderFailure::TooCostly));
        let summed = "{% set l = [0] * 100000 %}{{ [l, l, l, l, l, l, l, l, l, l, l, l] | sum(start=[]) | length }}";
        assert_eq!(run(summed), Err(RenderFailure::TooCostly));
        assert_eq!(run("{{ [1, 2] + [3] }} {{ 1 + 2 }} {{ 1.5 + 1 }} {{ 'a' + 'b' }} {{ [[1], [2]] | sum(start=[]) }}").unwrap(), "[1, 2, 3] 3 2.5 ab [1, 2]");
        assert!(matches!(run("{% set __modelpages_add = 1 %}"), Err(RenderFailure::Unsupported(_))));
        let recursive = "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}";
        assert!(run(recursive).is_err());
        let nested = "{% set ns = namespace(v=1) %}{% for i in range(100) %}{% set ns.v = [ns.v] %}{% endfor %}{{ ns.v | tojson }}";
        assert!(matches!(run(nested), Err(RenderFailure::Unsupported(_))));
        let wide = "{% set ns = namespace(l=[1]) %}{% for i in range(20) %}{% set ns.l = ns.l + ns.l %}{% endfor %}{{ ns.l | tojson(indent=100) | length }}";
        assert!(run(wide).is_err());
    }

    #[test]
    fn reads_variable_sees_uses_in_any_form() {
        assert!(reads_variable("{% if tools %}{{ tools | tojson }}{% endif %}", "tools"));
        assert!(reads_variable("{% for t in tools.x %}{% endfor %}", "tools"));
        assert!(!reads_variable("{{ messages }}{# tools #}", "tools"));
        assert!(!reads_variable("{% if %}", "tools"), "a template that does not compile reads nothing");
    }
}
