//! What a GGUF model's page carries so a reader can pick a quantization and
//! see every local-app command and the download link rewritten for it.
//!
//! The page shows the commands for the default quantization, highlighted,
//! as before. For every other quantization the snippet engine has rendered
//! the same apps again (see `QuantVariant`); this module keeps, per
//! quantization, only what differs from the default: the plain text of each
//! command figure that changes and the href of each link that changes, keyed
//! by the element id the page gives it ([`local_example_id`]). The quant
//! island reads this as a `<script type="application/json">` block (the
//! page's policy runs no inline script) and rewrites the figures in place,
//! so the copy buttons copy exactly what is shown. Without JavaScript the
//! page shows the default quantization's commands and the quantization
//! table, as it always did.
//!
//! Page weight stays bounded: a command is carried only when it differs,
//! at most [`MAX_QUANTS`] quantizations are offered, and a command longer
//! than [`MAX_COMMAND_BYTES`] is left out of the data (the picker then says
//! that app keeps the default: see `QuantChoice::partial`).

use std::collections::BTreeMap;

use serde::Serialize;

use crate::card_links::{HubLinks, RefKind};
use modelpages_record::page_text;
use modelpages_snippets::{LocalAppExample, LocalAppKind};

use crate::facts::bytes_text;

/// Quantizations offered at most (repositories list up to ~30).
pub const MAX_QUANTS: usize = 40;
/// A command longer than this is not carried for other quantizations.
pub const MAX_COMMAND_BYTES: usize = 4096;

/// One quantization of a GGUF model and the local-app examples for it.
#[derive(Clone, Debug)]
pub struct QuantVariant {
    /// e.g. `Q8_0`.
    pub label: String,
    /// Total size of the quantization's files.
    pub size: Option<u64>,
    /// The file apps and the download link name (its first shard).
    pub file: Option<String>,
    /// The examples as they are for this quantization, in page order.
    pub apps: Vec<LocalAppExample>,
}

/// The picker's data, serialised into the page.
#[derive(Debug, Serialize)]
pub(crate) struct QuantPickerView {
    /// The quantization the page is rendered for.
    default: String,
    /// The download link of the default quantization (shown without JavaScript).
    download: Option<Download>,
    quants: Vec<QuantChoice>,
}

#[derive(Debug, Serialize)]
struct Download {
    url: String,
    file: String,
}

#[derive(Debug, Serialize)]
struct QuantChoice {
    label: String,
    size: Option<String>,
    download: Option<Download>,
    /// Element id of a command figure to its text for this quantization.
    commands: BTreeMap<String, String>,
    /// Element id of an app link to its href for this quantization.
    links: BTreeMap<String, String>,
    /// Whether some changed command was too long to carry.
    partial: bool,
}

/// `view` as JSON to put inside a `<script type="application/json">`:
/// `<`, `>` and `&` escaped (`\u003c`...), so no text from a record can end
/// the element or start a comment.
pub(crate) fn picker_json(view: &QuantPickerView) -> String {
    let json = serde_json::to_string(view).expect("plain data serialises");
    json.replace('<', "\\u003c").replace('>', "\\u003e").replace('&', "\\u0026")
}

/// The id the page gives the `index`-th example (from 1) of the
/// `app_index`-th app (from 1): `local-2-1`. `local-` ids are the page's
/// own (card headings never get them, see `heading_ids`).
pub(crate) fn local_example_id(app_index: usize, index: usize) -> String {
    format!("local-{app_index}-{index}")
}

/// Each example with its page id, grouping by app as the page does.
fn with_ids(apps: &[LocalAppExample]) -> Vec<(String, &LocalAppExample)> {
    let mut ids = Vec::with_capacity(apps.len());
    let (mut app_index, mut index) = (0, 0);
    let mut last_app: Option<&str> = None;
    for example in apps {
        if last_app != Some(example.app.as_str()) {
            app_index += 1;
            index = 0;
            last_app = Some(&example.app);
        }
        index += 1;
        ids.push((local_example_id(app_index, index), example));
    }
    ids
}

fn download(links: &HubLinks, file: Option<&str>) -> Option<Download> {
    // The island shows the name as text, as the page's templates would.
    file.map(|file| Download { url: links.url(file, RefKind::Image), file: page_text(file).into_owned() })
}

/// The picker for a page whose local-app examples are `shown` (rendered for
/// `variants[default]`); `None` when there is nothing to pick from.
pub(crate) fn quant_picker_view(
    shown: &[LocalAppExample],
    variants: &[QuantVariant],
    default: usize,
    hub_url: &str,
    model_id: &str,
) -> Option<QuantPickerView> {
    let default_variant = variants.get(default)?;
    if variants.len() < 2 || shown.is_empty() {
        return None;
    }
    let links = HubLinks::new(hub_url, model_id);
    let shown_ids = with_ids(shown);
    let quants = variants
        .iter()
        .take(MAX_QUANTS)
        .map(|variant| {
            let mut choice = QuantChoice {
                label: variant.label.clone(),
                size: variant.size.map(bytes_text),
                download: download(&links, variant.file.as_deref()),
                commands: BTreeMap::new(),
                links: BTreeMap::new(),
                partial: false,
            };
            // Same apps in the same order for every quantization (the rules
            // choosing apps do not look at the quantization); pair them up
            // by position and only where the app and title agree.
            for ((id, was), now) in shown_ids.iter().zip(&variant.apps) {
                if was.app != now.app || was.title != now.title {
                    continue;
                }
                let (a, b) = (&was.content, &now.content);
                match (was.kind, now.kind) {
                    (LocalAppKind::Command, LocalAppKind::Command) if a != b => {
                        if b.len() > MAX_COMMAND_BYTES {
                            choice.partial = true;
                        } else {
                            choice.commands.insert(id.clone(), b.clone());
                        }
                    }
                    (LocalAppKind::DeepLink, LocalAppKind::DeepLink) if a != b => {
                        choice.links.insert(id.clone(), b.clone());
                    }
                    _ => {}
                }
            }
            choice
        })
        .collect();
    Some(QuantPickerView {
        default: default_variant.label.clone(),
        download: download(&links, default_variant.file.as_deref()),
        quants,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(app: &str, title: &str, text: &str) -> LocalAppExample {
        LocalAppExample {
            app: app.into(),
            label: app.into(),
            docs_url: String::new(),
            macos_only: false,
            title: title.into(),
            kind: LocalAppKind::Command,
            language: Some(modelpages_snippets::Language::Sh),
            content: text.into(),
        }
    }

    fn variant(label: &str, apps: Vec<LocalAppExample>) -> QuantVariant {
        QuantVariant { label: label.into(), size: Some(5_540), file: Some(format!("m-{label}.gguf")), apps }
    }

    #[test]
    fn only_commands_that_change_are_carried_under_their_page_ids() {
        let for_quant = |q: &str| {
            vec![
                command("llama.cpp", "Install", "brew install llama.cpp"),
                command("llama.cpp", "Run", &format!("llama-cli -hf a/m:{q}")),
                command("ollama", "Run", &format!("ollama run hf.co/a/m:{q}")),
            ]
        };
        let variants = [variant("Q8_0", for_quant("Q8_0")), variant("Q4_K_M", for_quant("Q4_K_M"))];
        let view = quant_picker_view(&for_quant("Q4_K_M"), &variants, 1, "https://hub.example/", "a/m").unwrap();
        assert_eq!(view.default, "Q4_K_M");
        assert_eq!(view.download.as_ref().unwrap().url, "https://hub.example/a/m/resolve/main/m-Q4_K_M.gguf");
        let q8 = &view.quants[0];
        assert_eq!(q8.label, "Q8_0");
        assert_eq!(q8.size.as_deref(), Some("5.54 kB"));
        let carried: Vec<(&str, &str)> = q8.commands.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(carried, [("local-1-2", "llama-cli -hf a/m:Q8_0"), ("local-2-1", "ollama run hf.co/a/m:Q8_0")]);
        assert!(view.quants[1].commands.is_empty(), "the default carries nothing: the page shows it");
    }

    #[test]
    fn the_json_cannot_end_its_script_element() {
        let apps = |q: &str| vec![command("x", "Run", &format!("echo '</script><!--{q}' && true"))];
        let view = quant_picker_view(&apps("A"), &[variant("A", apps("A")), variant("B", apps("B"))], 0, "https://h", "a/m").unwrap();
        let json = picker_json(&view);
        assert!(!json.contains('<') && !json.contains('>') && !json.contains('&'), "{json}");
        let back: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(back["quants"][1]["commands"]["local-1-1"], "echo '</script><!--B' && true");
    }

    #[test]
    fn file_names_are_shown_without_reordering_their_text() {
        let apps = vec![command("ollama", "Run", "ollama run x")];
        let mut odd = variant("Q8_0", apps.clone());
        odd.file = Some("m\u{202e}fdg.exe-Q8_0.gguf".into());
        let view = quant_picker_view(&apps, &[odd, variant("Q4_0", apps.clone())], 1, "https://h", "a/m").unwrap();
        let download = view.quants[0].download.as_ref().unwrap();
        assert_eq!(download.file, "m\\u{202e}fdg.exe-Q8_0.gguf");
        assert_eq!(download.url, "https://h/a/m/resolve/main/m%E2%80%AEfdg.exe-Q8_0.gguf", "the link is the file's");
    }

    #[test]
    fn one_quantization_or_no_apps_is_no_picker_and_long_commands_are_not_carried() {
        let apps = vec![command("ollama", "Run", "ollama run x")];
        assert!(quant_picker_view(&apps, &[variant("Q8_0", apps.clone())], 0, "https://h", "a/m").is_none());
        assert!(quant_picker_view(&[], &[variant("A", vec![]), variant("B", vec![])], 0, "https://h", "a/m").is_none());
        let long = vec![command("ollama", "Run", &"x".repeat(MAX_COMMAND_BYTES + 1))];
        let view = quant_picker_view(&apps, &[variant("Q8_0", long), variant("Q4_0", apps.clone())], 1, "https://h", "a/m").unwrap();
        assert!(view.quants[0].partial && view.quants[0].commands.is_empty());
    }
}
