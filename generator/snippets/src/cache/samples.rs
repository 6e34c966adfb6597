//! The sample inputs library templates read, made once per distinct set of
//! sample texts: models share a few widget texts and tasks, and making the
//! inputs means rendering a template.

use std::collections::HashMap;
use std::sync::Mutex;

use minijinja::Value as TemplateValue;

use crate::sample::SampleTexts;

/// How many sets of sample inputs an engine keeps: far more than the
/// samples of a corpus usually are, and a bound on memory when they are many.
const SAMPLE_INPUTS_KEPT: usize = 4096;

/// Sample inputs by the sample texts they are made from.
#[derive(Default)]
pub(crate) struct SampleInputsCache {
    made: Mutex<HashMap<SampleTexts, TemplateValue>>,
}

impl SampleInputsCache {
    /// The inputs made from `sample` before, or `make()`'s, kept.
    pub(crate) fn get_or_make<E>(
        &self,
        sample: &SampleTexts,
        make: impl FnOnce() -> Result<TemplateValue, E>,
    ) -> Result<TemplateValue, E> {
        let found = self.made.lock().unwrap_or_else(|e| e.into_inner()).get(sample).cloned();
        if let Some(inputs) = found {
            return Ok(inputs);
        }
        let inputs = make()?;
        let mut made = self.made.lock().unwrap_or_else(|e| e.into_inner());
        if made.len() == SAMPLE_INPUTS_KEPT {
            made.clear();
        }
        made.insert(sample.clone(), inputs.clone());
        Ok(inputs)
    }
}
