//! The task list (pipeline tags) with display names, and the task pages.

use std::collections::BTreeMap;

use modelpages_render::{render_task_page, render_tasks_page, ModelSummary, SiteInfo, TaskLink, TaskListing, Templates};
use serde::Deserialize;

use crate::build::BuildError;
use crate::libraries::LISTING_PAGE_MODELS;
use crate::writer::SiteWriter;

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
        TaskCatalogue { tasks: serde_json::from_str(include_str!("../data/tasks.json")).expect("data/tasks.json is valid") }
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

/// Writes `tasks/index.html` and a page per task that has models.
pub fn write_task_pages(
    out: &SiteWriter,
    templates: &Templates,
    site: &SiteInfo,
    catalogue: &TaskCatalogue,
    summaries: &[&ModelSummary],
) -> Result<(), BuildError> {
    let mut by_task: BTreeMap<&str, Vec<&ModelSummary>> = BTreeMap::new();
    for summary in summaries {
        if let Some(task) = summary.task.as_deref() {
            by_task.entry(task).or_default().push(summary);
        }
    }
    let mut listings = Vec::new();
    for task in catalogue.tasks() {
        let Some(models) = by_task.get(task.key.as_str()) else { continue };
        let link = catalogue.link(&task.key, site).expect("a catalogue task");
        out.write_listing(&format!("tasks/{}/index.html", task.key), render_task_page(templates, site, &link, &models[..models.len().min(LISTING_PAGE_MODELS)], models.len())?.as_bytes())?;
        listings.push(TaskListing { task: link, modality: task.modality.clone(), model_count: models.len() });
    }
    out.write_listing("tasks/index.html", render_tasks_page(templates, site, &listings)?.as_bytes())?;
    Ok(())
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
