//! What a build keeps on disk, and how it writes it without ever leaving a
//! broken site or touching a file it did not make.
//!
//! From the bottom up (a module only uses the ones above it in this list):
//! - [`io_pool`]: the wide thread pool for work that waits on the disk;
//! - [`output`]: the output's lock, the staging folder swapped in whole, the
//!   names of the files kept beside the output ([`output::OutputFolder`])
//!   and atomic writes;
//! - [`nofollow`]: file operations that never follow a symbolic link;
//! - [`file_at`]: a file's bytes read, written and copied at an offset;
//! - [`model_entry`]: what the manifest keeps of one model, its row apart;
//! - [`stored_models`]: the previous manifest's models, decoded no further
//!   than a build needs;
//! - [`manifest`]: what the site in an output folder was built from, models
//!   and listing files with their keys, so a rebuild redoes only what changed;
//! - [`changes`]: the change set `modelpages deploy` uploads;
//! - [`journal`]: a few files of a large site changed in place, as one
//!   transaction;
//! - [`plan`]: the plan stage of a build, which models to read, keep or remove;
//! - [`read_ahead`]: the next batch's files read while this one renders;
//! - [`writer`]: the one door pages are written through, whether into a
//!   staging folder or a transaction;
//! - [`site_folder`]: whether a folder may be written at all, and whether the
//!   site in it is whole;
//! - [`deployable`]: a built site opened for `modelpages deploy`;
//! - [`destination_folder`]: a local folder as a deploy's destination,
//!   written without following a link.
//!
//! Nothing here knows what a page is: files arrive as paths and bytes.

pub mod changes;
pub mod deployable;
pub mod destination_folder;
pub(crate) mod file_at;
pub(crate) mod io_pool;
pub(crate) mod journal;
pub mod manifest;
pub mod model_entry;
pub(crate) mod nofollow;
pub mod output;
pub(crate) mod plan;
pub(crate) mod read_ahead;
pub mod site_folder;
pub mod stored_models;
pub(crate) mod writer;
