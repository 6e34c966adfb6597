//! Which templates use the values that hold the model id only as text to
//! write, never as data to look at: the condition for giving one text to
//! every model with its own id in it ([`crate::cache::memo`]).
//!
//! The check reads a template's tokens (minijinja's own tokenizer, so it sees
//! the code exactly as minijinja does), and those of every template it
//! includes. Each use of an id-holding name must be the whole of a `{{ }}`,
//! with no filters or with filters that write a plain id's characters as they
//! are: `{{ model }}`, `{{ url | sh }}`, `{{ id | js | comment }}`. Anything
//! else (a test, a comparison, `~`, a `set`, another filter, an attribute of
//! that name, an include whose name is computed, an import) fails the check,
//! including uses that would be harmless: the check is meant to be simple
//! enough to trust, not clever.

use std::collections::HashSet;

use minijinja::machinery::{tokenize, Token, WhitespaceConfig};
use minijinja::syntax::SyntaxConfig;
use minijinja::Environment;

/// Filters that write each character of a plain id as it is (see
/// [`crate::cache::memo::is_plain_id`]): quoting and escaping touch only other
/// characters, and none of them looks at the value as a whole in a way an
/// id's characters could change.
const FILTERS_WRITING_ID_AS_IS: &[&str] = &["py", "js", "sh", "comment"];

/// Whether the template `name`, with the templates it includes, uses each of
/// `id_names` only as text to write.
pub(crate) fn uses_id_only_as_text(env: &Environment<'_>, name: &str, id_names: &[&str]) -> bool {
    check(env, name, id_names, &mut HashSet::new())
}

fn check(env: &Environment<'_>, name: &str, id_names: &[&str], checked: &mut HashSet<String>) -> bool {
    if !checked.insert(name.to_owned()) {
        return true;
    }
    let Ok(template) = env.get_template(name) else { return false };
    let tokens: Result<Vec<Token<'_>>, _> =
        tokenize(template.source(), false, SyntaxConfig, WhitespaceConfig::default())
            .map(|token| token.map(|(token, _)| token))
            .collect();
    let Ok(tokens) = tokens else { return false };
    tokens.iter().enumerate().all(|(at, token)| match token {
        Token::Ident(word) if id_names.contains(word) => written_as_is(&tokens, at),
        // `debug()` prints every variable there is.
        Token::Ident("debug") => false,
        Token::BlockStart => match &tokens[at + 1..] {
            [Token::Ident("include"), Token::Str(included), Token::BlockEnd, ..] => {
                check(env, included, id_names, checked)
            }
            [Token::Ident("include" | "import" | "from" | "extends"), ..] => false,
            _ => true,
        },
        _ => true,
    })
}

/// Whether the name at `at` is the whole of a `{{ }}`, with only filters
/// that write it as it is.
fn written_as_is(tokens: &[Token<'_>], at: usize) -> bool {
    if at == 0 || !matches!(tokens[at - 1], Token::VariableStart) {
        return false;
    }
    let mut rest = &tokens[at + 1..];
    loop {
        match rest {
            [Token::VariableEnd, ..] => return true,
            [Token::Pipe, Token::Ident(filter), more @ ..] if FILTERS_WRITING_ID_AS_IS.contains(filter) => rest = more,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(templates: &[(&'static str, &'static str)]) -> bool {
        let mut env = Environment::new();
        for &(name, source) in templates {
            env.add_template(name, source).unwrap();
        }
        uses_id_only_as_text(&env, templates[0].0, &["id", "model", "url"])
    }

    #[test]
    fn writing_the_id_passes() {
        assert!(passes(&[("t", "curl {{ url | sh }} -d {{ body | format_body('curl') }}\nmodel={{ model | py }}")]));
        assert!(passes(&[("t", "{{ id }} {{ model | sh }} {{ url | js }} {{ id | comment }}")]));
        assert!(passes(&[("t", "{%- if output == 'json' -%}\n// {{ id | js | comment }}\n{% endif %}{{- model -}}")]));
        assert!(passes(&[("t", "{# {{ id | length }} #}{% raw %}{{ id[0] }}{% endraw %}model = {{ 'id' }}")]));
        assert!(passes(&[("t", "{% include \"p\" %}{{ url | js }}"), ("p", "{{ model | py }}{% include \"t\" %}")]));
    }

    #[test]
    fn looking_at_the_id_fails() {
        for source in [
            "{% if id == 'org/x' %}x{% endif %}",
            "{% if 'meta' in id %}x{% endif %}",
            "{{ id | lower }}",
            "{{ id | length }}",
            "{{ id[0] }}",
            "{{ id.split('/') }}",
            "{{ 'hf:' ~ id }}",
            "{{ (model) | py }}",
            "{{ model | py(1) }}",
            "{{ model | sh | lower }}",
            "{% set model = 'x' %}{{ model }}",
            "{% for url in urls %}{{ url }}{% endfor %}",
            "{% set body = {'model': model} %}{{ body | format_body('json') }}",
            "{% macro m(url) %}{{ url }}{% endmacro %}",
            "{{ fal.url | py }}",
            "{{ debug() }}",
            "{% include name %}",
            "{% import 'p' as p %}",
        ] {
            assert!(!passes(&[("t", source), ("p", "")]), "{source}");
        }
        assert!(!passes(&[("t", "{% include \"p\" %}"), ("p", "{{ id | upper }}")]));
        assert!(!passes(&[("t", "{% include \"missing\" %}")]));
    }
}
