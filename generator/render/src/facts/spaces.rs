//! The Spaces that use the model (the record's `spaces`), as the Hub lists
//! them beside the card: a compact list of the first ones, each a link to
//! the Space on the hub, and how many more there are.
//!
//! Ids come from the record, so each is checked as a model id is (a Space
//! id has the same form) before it becomes a link; others are skipped.

use modelpages_record::ModelId;
use serde::Serialize;

/// Spaces listed on the page; the rest are counted.
pub const SPACES_SHOWN: usize = 10;

/// One Space, linked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpaceLink {
    pub id: String,
    pub url: String,
}

/// The Spaces the page lists.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SpacesView {
    /// Valid ids in the record (listed or not).
    pub count: usize,
    pub shown: Vec<SpaceLink>,
    /// `count` less those shown.
    pub more: usize,
}

/// The first [`SPACES_SHOWN`] valid ids of `spaces`, linked on `hub_url`.
pub(super) fn spaces_view(spaces: &[String], hub_url: &str) -> SpacesView {
    let hub = hub_url.trim_end_matches('/');
    let valid: Vec<&String> = spaces.iter().filter(|id| ModelId::parse(id).is_ok()).collect();
    let shown: Vec<SpaceLink> =
        valid.iter().take(SPACES_SHOWN).map(|id| SpaceLink { id: id.to_string(), url: format!("{hub}/spaces/{id}") }).collect();
    SpacesView { count: valid.len(), more: valid.len() - shown.len(), shown }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_spaces_are_linked_and_the_rest_counted() {
        let mut spaces: Vec<String> = (0..100).map(|i| format!("user{i}/demo-{i}")).collect();
        spaces.insert(3, "../../etc".into());
        spaces.insert(5, "a/<script>".into());
        let view = spaces_view(&spaces, "https://hub.example/");
        assert_eq!((view.count, view.shown.len(), view.more), (100, SPACES_SHOWN, 90));
        assert_eq!(view.shown[0], SpaceLink { id: "user0/demo-0".into(), url: "https://hub.example/spaces/user0/demo-0".into() });
        assert!(view.shown.iter().all(|s| s.id.starts_with("user")));
        assert_eq!(spaces_view(&[], "https://hub.example"), SpacesView::default());
    }
}
