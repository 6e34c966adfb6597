//! The bodies formatted lately on this thread, to be given again rather than
//! formatted again.
//!
//! The examples of one model format the same few values over and over: its
//! request body and chat messages, once per provider and client. A template
//! value holds a list or map behind a shared pointer and never changes, so
//! the address of that data names the value for as long as the data lives;
//! each remembered entry keeps its value alive, so the address cannot be
//! reused by another value while it is remembered.

use std::cell::RefCell;

use minijinja::Value as TemplateValue;

use super::memo::data_address;
use crate::body::{BodyError, BodyFormat};

/// How many formatted bodies a thread remembers: the few values of the
/// model at hand, in each of the forms its templates use.
const REMEMBERED: usize = 16;

struct Formatted {
    /// Keeps the data at `address` alive.
    _value: TemplateValue,
    address: usize,
    format: BodyFormat,
    level: usize,
    text: Result<String, BodyError>,
}

thread_local! {
    static RECENT: RefCell<Vec<Formatted>> = const { RefCell::new(Vec::new()) };
}

/// `format_value()`, or the text it gave before for the same data, form and
/// level. Values other than lists and maps of data are always formatted.
pub(crate) fn remembered_body(
    value: &TemplateValue,
    format: BodyFormat,
    level: usize,
    format_value: impl FnOnce() -> Result<String, BodyError>,
) -> Result<String, BodyError> {
    let Some(address) = data_address(value) else { return format_value() };
    let found = RECENT.with_borrow(|recent| {
        recent
            .iter()
            .find(|f| f.address == address && f.format == format && f.level == level)
            .map(|f| f.text.clone())
    });
    if let Some(text) = found {
        return text;
    }
    let text = format_value();
    RECENT.with_borrow_mut(|recent| {
        if recent.len() == REMEMBERED {
            recent.remove(0);
        }
        recent.push(Formatted { _value: value.clone(), address, format, level, text: text.clone() });
    });
    text
}
