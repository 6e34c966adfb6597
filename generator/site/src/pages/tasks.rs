//! The task list (pipeline tags) with display names; the task pages are
//! made by `listings::html`.

use modelpages_render::{SiteInfo, TaskLink};
use serde::Deserialize;

#[derive(Clone, Debug, Deserialize)]
pub struct Task {
    pub key: String,
    pub name: String,
    pub modality: String,
}

/// Every task the Hub knows, from `data/tasks.json`.
pub struct TaskCatalogue {
    tasks: Vec<Task>,
}

impl TaskCatalogue {
    pub fn builtin() -> TaskCatalogue {
        TaskCatalogue { tasks: serde_json::from_str(include_str!("../../data/tasks.json")).expect("data/tasks.json is valid") }
    }

    pub fn tasks(&self) -> &[Task] {
        &self.tasks
    }

    /// The link to a known task's page. Unknown pipeline tags get none: a
    /// record's tag never becomes a path of its own.
    pub fn link(&self, key: &str, site: &SiteInfo) -> Option<TaskLink> {
        self.tasks.iter().find(|t| t.key == key).map(|t| TaskLink {
            key: t.key.clone(),
            name: t.name.clone(),
            page_url: format!("{}tasks/{}/", site.base_path, t.key),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_keys_are_safe_path_segments_and_names_are_set() {
        let catalogue = TaskCatalogue::builtin();
        assert!(catalogue.tasks().len() > 50);
        for task in catalogue.tasks() {
            assert!(task.key.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'), "{}", task.key);
            assert!(!task.name.is_empty());
        }
        let site = SiteInfo { title: "t".into(), base_path: "/".into(), stylesheet: String::new(), script: None };
        assert_eq!(catalogue.link("text-classification", &site).unwrap().name, "Text Classification");
        assert!(catalogue.link("../../etc", &site).is_none());
    }
}
