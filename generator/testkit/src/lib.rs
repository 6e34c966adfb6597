//! Checks shared by the hostile-input tests, the property tests and the fuzz
//! targets. Each returns what it found wrong, so a caller can print every
//! finding of a page at once instead of stopping at the first.

pub mod code;
pub mod html;
pub mod records;
