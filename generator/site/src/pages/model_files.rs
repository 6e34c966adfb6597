//! The files a model has besides its page: its API file and, when it has
//! Python examples, its notebook. Built from the examples the page shows, so
//! the three always agree.

use modelpages_record::LoadedModel;
use modelpages_render::{CodeExample, InferenceExample, SiteInfo, MARKDOWN_FILE};
use modelpages_snippets::{Library, LocalAppExample};

use crate::pages::api::{model_api_json, model_api_path, HubFacts, ModelApiInput};
use crate::pages::notebook::{notebook, NotebookInput, NOTEBOOK_FILE};

/// What a model's extra files are made of.
pub struct ModelFilesInput<'a> {
    pub model: &'a LoadedModel,
    pub library: Option<&'a Library>,
    pub library_examples: &'a [CodeExample],
    pub inference: &'a [InferenceExample],
    /// The local-app examples the page shows.
    pub local_apps: &'a [LocalAppExample],
    pub site: &'a SiteInfo,
    /// The hub that hosts the model files, without a trailing slash.
    pub hub_url: &'a str,
}

/// `(site-relative path, bytes)` of the model's notebook (if any) and API file.
pub fn model_files(input: &ModelFilesInput<'_>) -> Vec<(String, Vec<u8>)> {
    let id = input.model.id.as_str();
    let record = &input.model.record;
    let mut files = Vec::with_capacity(2);
    let notebook = notebook(&NotebookInput {
        id,
        library: input.library,
        library_examples: input.library_examples,
        inference: input.inference,
        hub_url: input.hub_url,
    });
    let page = format!("{}{id}/", input.site.base_path);
    let notebook_url = notebook.as_ref().map(|_| format!("{page}{NOTEBOOK_FILE}"));
    if let Some(bytes) = notebook {
        files.push((format!("{id}/{NOTEBOOK_FILE}"), bytes));
    }
    let api = model_api_json(&ModelApiInput {
        id,
        task: record.task(),
        library: record.library(),
        tags: &record.tags,
        page,
        notebook: notebook_url,
        markdown: format!("{}{id}/{MARKDOWN_FILE}", input.site.base_path),
        library_examples: input.library_examples,
        inference: input.inference,
        local_apps: input.local_apps,
        hub: HubFacts::of(record),
    });
    files.push((model_api_path(id), api));
    files
}

/// The link to the notebook among `files`, for the page's download link.
pub fn notebook_link(files: &[(String, Vec<u8>)], site: &SiteInfo) -> Option<String> {
    files.iter().find(|(path, _)| path.ends_with(NOTEBOOK_FILE)).map(|(path, _)| format!("{}{path}", site.base_path))
}

