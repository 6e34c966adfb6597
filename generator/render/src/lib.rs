//! Rendering for modelpages: model cards (Markdown, sanitised, with math
//! and heading ids), build-time syntax highlighting, and the page templates.
//! Beyond the card, a model page gets the memory it needs to run
//! (`memory`), the prompt its chat template makes (`chat_prompt`, on its
//! own bounded Jinja engine) and a Markdown twin (`markdown_twin`).
//!
//! Nothing here touches the file system except loading templates; callers get
//! strings back and decide where they go.

mod card_events;
mod card_limits;
mod card_links;
mod card_math;
mod card_rewrite;
mod card_sanitiser;
mod chat_prompt;
mod examples;
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
mod markdown_twin;
mod memory;
mod pages;
mod placeholders;
mod quant_picker;
mod search_facets;
mod templates;
mod timestamp;
mod tree;

pub use examples::{CodeExample, InferenceExample};
pub use card_links::{encode_path, CardContext, CardLinks, HubLinks, RefKind, Resolved};
pub use facts::{compact, counted, day_of, filter_tags, model_facts, search_url, tag_file_name, popularity_label, path_problem, resolve_url, FactsInput, ModelFacts, FILES_ON_PAGE};
pub use tree::{base_refs, TreeBlock, TreeIndex, TreeMember};
pub use heading_ids::{is_page_id, CardHeading};
pub use highlight::{escape_html, Highlighter, ShapeValues};
pub use chat_prompt::{chat_prompt, chat_view, ChatPrompt, ChatView, Conversation, PromptView, RenderedPrompt, TemplateSource};
pub use markdown::{render_card, RenderedCard};
pub use markdown_twin::{code_span, markdown_twin, TwinInput, MARKDOWN_FILE};
pub use memory::{estimate as memory_estimate, memory_view, KvCache, MemoryEstimate, MemoryView, Need, WeightsRow, MEMORY_SIZES_GB};
pub use search_facets::{param_class, search_facets, MAX_FACET_VALUES, PARAM_BOUNDS};
pub use quant_picker::{QuantVariant, MAX_QUANTS};
pub use listing_pages::{
    render_index_page, render_libraries_page, render_library_page, render_namespace_page, render_namespaces_page,
    render_task_page, render_tasks_page, FeedLink, LibraryListing, ModelListingPage, NamespaceListing, RowLabels, NamespacesPage, PageLink, Pager,
    TaskListing, render_facet_page, render_facets_page, FacetIndexGroup, FacetLink};
pub use pages::{
    model_summary, model_url, page_values, render_model_page, render_not_found_page, LibraryLink,
    ModelPage, ModelPageHtml, SiteInfo, TaskLink,
};
pub use templates::{TemplateError, Templates, REQUIRED_TEMPLATES};
pub use timestamp::{rfc3339_utc, unix_seconds, utc_day};
