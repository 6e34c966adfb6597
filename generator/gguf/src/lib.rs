//! GGUF files for modelpages: quantization labels from file names, their
//! order and the default choice, a model's GGUF files grouped by
//! quantization, and a bounded reader of GGUF headers.
//!
//! The facts (quantization types, their order, tensor element types and their
//! block sizes) are data in `data/quant_types.json`.

mod arch_keys;
mod error;
mod header;
mod label;
mod files;
mod types;
pub mod write;

pub use arch_keys::{AttentionShape, HeadCount};
pub use error::{GgufError, GgufErrorKind};
pub use header::{parse_header, read_header, GgufHeader, HeaderText, Limits};
pub use label::{default_label, parse_quant_label, QuantLabel};
pub use files::{shard_of, GgufFile, GgufFiles, HeaderFacts, QuantGroup};
pub use types::{file_type_name, quant_order, TensorType};
