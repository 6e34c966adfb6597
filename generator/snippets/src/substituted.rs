//! The per-model values a model's examples quote, as the engine hands them
//! back with the examples ([`crate::LibraryExamples::values`],
//! [`crate::InferenceExamples::values`], [`crate::LocalAppExamples::values`]).
//!
//! Examples of thousands of models differ only in a few values (the id, a
//! widget text, a base model a config names), and the highlighter keeps the
//! highlighted *shape* of an example with those values taken out
//! (`modelpages_render::ShapeValues`). It can only take out what it is told,
//! and only the engine knows what a template quoted: a library template may
//! quote any field of the record (`config.sklearn.model.file`,
//! `card_data.instance_prompt`...). So the filters that put a value into code
//! ([`crate::filters`]) note each value they are given while the engine is
//! [`noting`] (library and local-app renders); hosted-inference examples,
//! whose values the engine computes itself and whose texts are reused
//! across models ([`crate::cache::memo`]), report those values directly.
//!
//! What is noted is what a template quoted from its context and does not
//! hold in its own text: a literal a template quotes (`"cuda" | py`) is the
//! same for every model and stays part of the shape. Nothing here changes an
//! example: a value left out only makes the highlighter's cache miss more
//! often, and the render crate's byte-identity tests hold either way.
//!
//! Noting is per thread (renders run on the build's threads) and off unless
//! a render is wrapped in [`noting`], so hosted-inference renders, the hot
//! path, pay one thread-local check per filter call.

use std::cell::RefCell;

use minijinja::value::ValueKind;
use minijinja::{State, Value as TemplateValue};

thread_local! {
    /// The values noted by the render running on this thread, while noting.
    static NOTED: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Runs `render` with noting on, and returns what it gave with the values
/// the filters noted meanwhile. Noting that was on before (never, today) is
/// put back as it was.
pub(crate) fn noting<T>(render: impl FnOnce() -> T) -> (T, Vec<String>) {
    /// Puts the earlier state back even if `render` panics.
    struct Restore(Option<Option<Vec<String>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(earlier) = self.0.take() {
                NOTED.with_borrow_mut(|noted| *noted = earlier);
            }
        }
    }
    let mut restore = Restore(Some(NOTED.with_borrow_mut(|noted| noted.replace(Vec::new()))));
    let result = render();
    let noted = NOTED.with_borrow_mut(|noted| noted.take()).unwrap_or_default();
    NOTED.with_borrow_mut(|noted| *noted = restore.0.take().flatten());
    (result, noted)
}

/// Notes the text of every string in `value` (a string, or a list or map
/// holding strings) that the template rendering in `state` does not hold in
/// its own text, if noting is on.
pub(crate) fn note(state: &State, value: &TemplateValue) {
    if !NOTED.with_borrow(Option::is_some) {
        return;
    }
    let template = state.env().get_template(state.name()).ok();
    let own_text = template.as_ref().map_or("", |t| t.source());
    let mut found = Vec::new();
    strings_of(value, &mut found);
    found.retain(|text| !own_text.contains(text.as_str()));
    NOTED.with_borrow_mut(|noted| noted.iter_mut().for_each(|noted| noted.append(&mut found)));
}

/// Every string in `value`, lists and maps looked into (map keys are the
/// template's own names, not values).
fn strings_of(value: &TemplateValue, out: &mut Vec<String>) {
    match value.kind() {
        ValueKind::String => out.extend(value.as_str().map(str::to_owned)),
        ValueKind::Seq | ValueKind::Iterable => {
            for item in value.try_iter().into_iter().flatten() {
                strings_of(&item, out);
            }
        }
        ValueKind::Map => {
            for (_, item) in value.as_object().and_then(|o| o.try_iter_pairs()).into_iter().flatten() {
                strings_of(&item, out);
            }
        }
        _ => {}
    }
}

/// `values` sorted, each once: what the engine reports, the same however
/// often and in whatever order the templates quoted them.
pub(crate) fn reported(mut values: Vec<String>) -> Vec<String> {
    values.retain(|v| !v.is_empty());
    values.sort_unstable();
    values.dedup();
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noting_is_off_outside_noting_and_on_inside() {
        let mut env = minijinja::Environment::new();
        env.add_filter("q", |state: &State, v: TemplateValue| {
            note(state, &v);
            v
        });
        env.add_template("t", "{{ a | q }} {{ 'own' | q }} {{ b | q }}").unwrap();
        let context = TemplateValue::from_serialize(serde_json::json!({"a": "x1", "b": ["y1", {"k": "z1"}]}));
        let render = || env.get_template("t").unwrap().render(&context);
        let (text, noted) = noting(|| render().unwrap());
        assert_eq!(text, "x1 own [\"y1\", {\"k\": \"z1\"}]");
        assert_eq!(noted, ["x1", "y1", "z1"], "the template's own literal is not noted");
        render().unwrap();
        assert!(NOTED.with_borrow(Option::is_none), "off again after noting");
        assert_eq!(reported(vec!["b".into(), "".into(), "a".into(), "b".into()]), ["a", "b"]);
    }
}
