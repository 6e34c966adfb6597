//! What the engine knows about each task the router serves
//! (`data/inference_tasks.json`): template kind, SDK method names, input and
//! output shapes.

use serde::Deserialize;

#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
pub struct TaskSpec {
    pub task: String,
    /// Template kind, e.g. `basic`, `basicAudio`, `textToImage`.
    pub template: String,
    /// What the request sends: `text`, `audio`, `image`, `image_prompt`, ...
    pub input: String,
    /// What the answer is: `json`, `image`, `audio` or `video`.
    pub output: String,
    /// `InferenceClient` method in huggingface_hub, when it has one.
    #[serde(default)]
    pub python_method: Option<String>,
    /// `InferenceClient` method in huggingface.js, when it has one.
    #[serde(default)]
    pub js_method: Option<String>,
    /// Whether fal-ai serves the task (through its queue).
    #[serde(default)]
    pub fal: bool,
    /// Whether hf-inference serves the task (it serves no video generation).
    #[serde(default = "yes")]
    pub hf_inference: bool,
}

fn yes() -> bool {
    true
}

pub fn task_specs() -> Vec<TaskSpec> {
    serde_json::from_str(include_str!("../../data/inference_tasks.json")).expect("data/inference_tasks.json is valid")
}
