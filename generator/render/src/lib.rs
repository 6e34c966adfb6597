//! Rendering for modelpages: model cards (Markdown, sanitised, with math
//! and heading ids), build-time syntax highlighting, and the page templates.
//!
//! Nothing here touches the file system except loading templates; callers get
//! strings back and decide where they go.

mod card_events;
mod card_limits;
mod card_links;
mod card_math;
mod card_rewrite;
mod card_sanitiser;
mod facts;
mod heading_ids;
mod mathml_allowlist;
mod highlight;
mod html_cost;
mod html_math;
mod line_cache;
mod theme;
mod listing_pages;
mod local;
mod markdown;
mod markdown_math;
mod pages;
mod placeholders;
mod quant_picker;
mod templates;
mod tree;

pub use card_links::{encode_path, CardContext, CardLinks, HubLinks, RefKind, Resolved};
pub use facts::{compact, counted, day_of, filter_tags, model_facts, tag_file_name, popularity_class, popularity_label, path_problem, resolve_url, FactsInput, ModelFacts, FILES_ON_PAGE};
pub use tree::{base_refs, BaseRef, Relation, TreeBlock, TreeIndex, TreeMember};
pub use heading_ids::{is_page_id, CardHeading};
pub use highlight::{escape_html, Highlighter, ShapeValues};
pub use markdown::{render_card, RenderedCard};
pub use quant_picker::{QuantVariant, MAX_QUANTS};
pub use listing_pages::{
    render_index_page, render_libraries_page, render_library_page, render_namespace_page, render_namespaces_page,
    render_task_page, render_tasks_page, LibraryListing, ModelListingPage, NamespaceListing, RowLabels, NamespacesPage, PageLink, Pager,
    TaskListing,
};
pub use pages::{
    model_url, page_values, render_model_page, render_not_found_page, CodeExample, InferenceExample, LibraryLink,
    ModelPage, ModelPageHtml, ModelSummary, SiteInfo, TagList, TaskLink,
};
pub use templates::{TemplateError, Templates, REQUIRED_TEMPLATES};
