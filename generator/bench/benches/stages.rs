//! The costly stages of a build, each alone: snippet generation, highlighting
//! (with and without the shape cache), page rendering, the local-app
//! examples of the default corpus's GGUF models (once, and again for every
//! quantization the page's picker offers), and the search's word index and
//! trie of a hub-like listing.

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use modelpages_bench::synthetic_models;
use modelpages_record::ModelSummary;
use modelpages_render::{
    render_model_page, CardContext, CodeExample, Highlighter, ModelPage, ShapeValues, SiteInfo, Templates, TreeBlock,
};
use modelpages_site::listings::carried::{self, Carried, SavedListings};
use modelpages_site::listings::membership::Catalogues;
use modelpages_site::tasks::TaskCatalogue;
use modelpages_site::search::shards::shard_key;
use modelpages_site::search::trie::{build_shards, Popularity, WordIndex};
use modelpages_snippets::{InferenceOptions, InferenceSettings, SnippetEngine};

const MODELS: usize = 1_000;

/// Models a search shard holds, as sites have by default.
const SHARD: usize = 200;

/// Ranks by downloads, most first, then by name (as a build orders them).
fn by_downloads(models: &[&ModelSummary]) -> Vec<u32> {
    let mut ranks: Vec<u32> = (0..models.len() as u32).collect();
    ranks.sort_by_key(|&r| (std::cmp::Reverse(models[r as usize].downloads.unwrap_or(0)), r));
    ranks
}

fn snippets(c: &mut Criterion) {
    let (_dir, models) = synthetic_models(MODELS);
    let engine = SnippetEngine::new();
    let settings = InferenceSettings::default();
    let mut group = c.benchmark_group("snippets");
    group.throughput(Throughput::Elements(models.len() as u64));
    group.sample_size(10);
    group.bench_function("library+inference, 1000 models", |b| {
        b.iter(|| {
            let mut count = 0;
            for model in &models {
                if let Some(usage) = engine.library_examples(&model.record).unwrap() {
                    count += usage.snippets.len();
                }
                count += engine.inference_examples(&model.record, &settings, &InferenceOptions::default()).unwrap().snippets.len();
            }
            count
        })
    });
    group.finish();
}

fn highlighting(c: &mut Criterion) {
    let (_dir, models) = synthetic_models(MODELS);
    let engine = SnippetEngine::new();
    let settings = InferenceSettings::default();
    let examples: Vec<(String, &'static str, String)> = models
        .iter()
        .flat_map(|m| {
            engine
                .inference_examples(&m.record, &settings, &InferenceOptions::default())
                .unwrap()
                .snippets
                .into_iter()
                .map(|s| (m.id.to_string(), s.language.as_str(), s.content))
        })
        .collect();
    let mut group = c.benchmark_group("highlight");
    group.throughput(Throughput::Elements(examples.len() as u64));
    group.sample_size(10);
    group.bench_function("uncached", |b| {
        let hl = Highlighter::new();
        b.iter(|| examples.iter().map(|(_, lang, text)| hl.highlight(text, lang).len()).sum::<usize>())
    });
    group.bench_function("shape cache", |b| {
        b.iter(|| {
            let hl = Highlighter::new();
            examples.iter().map(|(id, lang, text)| hl.highlight_example(text, lang, &ShapeValues::new(&[id.as_str()])).len()).sum::<usize>()
        })
    });
    group.finish();
}

fn rendering(c: &mut Criterion) {
    let (_dir, models) = synthetic_models(MODELS);
    let templates = Templates::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../site-src/templates")).unwrap();
    let site = SiteInfo { title: "bench".into(), base_path: "/".into(), stylesheet: "/s.css".into(), script: None };
    let hl = Highlighter::new();
    let tree = TreeBlock::default();
    let mut group = c.benchmark_group("render");
    group.throughput(Throughput::Elements(models.len() as u64));
    group.sample_size(10);
    group.bench_function("model pages (card, no examples)", |b| {
        b.iter(|| {
            models
                .iter()
                .map(|model| {
                    let page = ModelPage {
                        model,
                        task: None,
                        library: None,
                        examples: Vec::<CodeExample>::new(),
                        inference: Vec::new(),
                        gguf: Default::default(),
                        local_apps: Vec::new(),
                        notebook_url: None,
                        card_context: CardContext::hub_only("https://huggingface.co", model.id.as_str(), true),
                        quant_variants: Vec::new(),
                        example_values: Vec::new(),
                        tree: &tree,
                        hub_url: "https://huggingface.co",
                        stats_url: "/stats/0.json".into(),
                        memory: None,
                        chat_prompt: None,
                    };
                    render_model_page(&templates, &hl, &site, &page).unwrap().html.len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

fn local_sections(c: &mut Criterion) {
    let models = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models");
    let corpus = modelpages_site::load_corpus(&models).unwrap();
    let engine = SnippetEngine::new();
    let gguf: Vec<_> = corpus
        .models
        .iter()
        .map(|m| (m, modelpages_site::gguf::model_gguf(&m.source.dir, &m.record)))
        .filter(|(_, g)| g.files.groups.len() > 1)
        .collect();
    let mut group = c.benchmark_group("local apps");
    group.throughput(Throughput::Elements(gguf.len() as u64));
    group.sample_size(20);
    group.bench_function("GGUF models of models/, default quantization only", |b| {
        // The folder is read as `local_section` reads it, so the two differ
        // only by the quantizations' examples.
        b.iter(|| {
            gguf.iter()
                .map(|(m, _)| {
                    let files = modelpages_site::gguf::model_gguf(&m.source.dir, &m.record).files;
                    engine.local_app_examples(&m.record, Some(&files)).unwrap().apps.len()
                })
                .sum::<usize>()
        })
    });
    group.bench_function("GGUF models of models/, with every quantization (local_section)", |b| {
        b.iter(|| gguf.iter().map(|(m, _)| modelpages_site::gguf::local_section(&engine, m).unwrap().variants.len()).sum::<usize>())
    });
    group.finish();
}

/// Listing rows shaped like a hub's (ids of a namespace and a name made of
/// an architecture, a size, a topic and a number; a dozen tags), by name.
fn hub_like_rows(n: usize) -> Vec<ModelSummary> {
    let arch = ["bart", "beit", "modernbert", "llama", "qwen2", "mistral", "vit", "whisper", "t5", "gpt2"];
    let size = ["tiny", "small", "base", "large", "xl"];
    let topic = ["nli", "plants", "artwork", "long-qa", "chat", "code", "medical", "legal", "asr", "ner"];
    let languages = ["en", "de", "fi", "fr", "ja", "zh", "es"];
    let mut rows: Vec<ModelSummary> = (0..n)
        .map(|i| {
            let (a, s) = (arch[i % arch.len()], size[i % size.len()]);
            let tags = [
                "transformers".to_owned(),
                "safetensors".into(),
                a.into(),
                "question-answering".into(),
                topic[(i / 10) % topic.len()].into(),
                languages[i % languages.len()].into(),
                languages[(i / 7) % languages.len()].into(),
                format!("base_model:org{}/{a}-{s}", i % 97),
                format!("base_model:finetune:org{}/{a}-{s}", i % 97),
                "license:apache-2.0".into(),
                "region:us".into(),
            ];
            ModelSummary {
                id: format!("lab-{}/{a}-style-{s}-{}-{i}", (i * 7919) % (n / 20).max(1), topic[(i / 10) % topic.len()]),
                task: Some("question-answering".into()),
                library: Some("transformers".into()),
                downloads: Some((i as u64).wrapping_mul(2_654_435_761) % 100_000),
                tags: tags.iter().collect(),
                filters: tags.iter().collect(),
                ..ModelSummary::default()
            }
        })
        .collect();
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    rows
}

fn search_index(c: &mut Criterion) {
    const ROWS: usize = 200_000;
    let rows = hub_like_rows(ROWS);
    let rows: Vec<&ModelSummary> = rows.iter().collect();
    let mut group = c.benchmark_group("search index");
    group.throughput(Throughput::Elements(ROWS as u64));
    group.sample_size(10);
    group.bench_function("word index, 200,000 hub-like rows", |b| b.iter(|| WordIndex::build(&rows).len()));
    let index = WordIndex::build(&rows);
    let popularity = || Popularity::of((0..ROWS as u32).rev().collect());
    group.bench_function("trie cut into shards of 1,000, 200,000 hub-like rows", |b| {
        b.iter(|| build_shards(&index, 1_000, &popularity(), None).shards.len())
    });
    // The next build's listings, one model added (the middle one was left
    // out of the saved state), matched and their groups and word index
    // carried on; against the groups sorted and keyed afresh.
    let (tasks, snippets) = (TaskCatalogue::builtin(), SnippetEngine::new());
    let catalogues = Catalogues::new(tasks.tasks(), snippets.catalogue().libraries());
    let before: Vec<&ModelSummary> = rows.iter().enumerate().filter(|(i, _)| *i != ROWS / 2).map(|(_, r)| *r).collect();
    let saved_by = |models: &[&ModelSummary]| {
        let (groups, _) = carried::groups(None, models, &catalogues);
        let index = WordIndex::build(models);
        let by_downloads = Popularity::of(by_downloads(models));
        carried::save(models, &groups, &index, &build_shards(&index, SHARD, &by_downloads, None), SHARD)
    };
    let saved = saved_by(&before);
    let fresh: Vec<bool> = (0..ROWS).map(|i| i == ROWS / 2).collect();
    group.bench_function("listings matched and word index carried on, 200,000 hub-like rows, one added", |b| {
        b.iter(|| {
            SavedListings::read(&saved).and_then(|saved| Carried::open(saved, &rows, &fresh)).and_then(|c| c.word_index(&rows)).map(|(index, _)| index.len())
        })
    });
    // The trie (in shards of 200, as sites are by default) cut afresh, and
    // carried on after one model added and after one in ten changed their
    // downloads.
    let by_downloads_now = Popularity::of(by_downloads(&rows));
    group.bench_function("trie cut into shards of 200, 200,000 hub-like rows", |b| {
        b.iter(|| build_shards(&index, SHARD, &by_downloads_now, None).shards.len())
    });
    let one_in = |n: usize| -> Vec<ModelSummary> {
        rows.iter().enumerate().map(|(i, r)| ModelSummary { downloads: r.downloads.map(|d| if i % n == 0 { d / 3 } else { d }), ..(*r).clone() }).collect()
    };
    let (one_in_ten, one_in_100) = (one_in(10), one_in(100));
    let (one_in_ten, one_in_100): (Vec<&ModelSummary>, Vec<&ModelSummary>) = (one_in_ten.iter().collect(), one_in_100.iter().collect());
    let saved_all = saved_by(&rows);
    for (name, saved, now, fresh) in [
        ("one added", &saved, &rows, fresh.clone()),
        ("one in 100 changed", &saved_all, &one_in_100, (0..ROWS).map(|i| i % 100 == 0).collect::<Vec<bool>>()),
        ("one in ten changed", &saved_all, &one_in_ten, (0..ROWS).map(|i| i % 10 == 0).collect::<Vec<bool>>()),
    ] {
        let carried = SavedListings::read(saved).and_then(|saved| Carried::open(saved, now, &fresh)).expect("carried on");
        let by_downloads_now = Popularity::of(by_downloads(now));
        let (index, changes) = carried.word_index(now).expect("the word index carried on");
        group.bench_function(format!("trie carried on, 200,000 hub-like rows, {name}"), |b| {
            b.iter(|| {
                let trie = carried.trie(SHARD, &changes).expect("the trie reads back");
                build_shards(&index, SHARD, &by_downloads_now, Some(&trie)).carried
            })
        });
    }
    group.bench_function("groups sorted and keyed afresh, 200,000 hub-like rows", |b| {
        b.iter(|| carried::groups(None, &rows, &catalogues).0.tags.len())
    });
    group.bench_function("groups carried on, 200,000 hub-like rows, one added", |b| {
        b.iter(|| {
            let carried = SavedListings::read(&saved).and_then(|saved| Carried::open(saved, &rows, &fresh));
            let (groups, carried_on) = carried::groups(carried.as_ref(), &rows, &catalogues);
            assert!(carried_on);
            groups.tags.len()
        })
    });
    let (groups, _) = carried::groups(None, &rows, &catalogues);
    let tree = build_shards(&index, SHARD, &by_downloads_now, None);
    group.bench_function("listings saved, 200,000 hub-like rows", |b| b.iter(|| carried::save(&rows, &groups, &index, &tree, SHARD).len()));
    // Every word file is keyed on every build that lists models anew.
    let capped = |_: &str| false;
    group.bench_function("word files keyed, 200,000 hub-like rows", |b| {
        b.iter(|| tree.shards.iter().map(|shard| shard_key(shard, &rows, &groups, &capped)[0] as usize).sum::<usize>())
    });
    group.finish();
}

criterion_group!(benches, snippets, highlighting, rendering, local_sections, search_index);
criterion_main!(benches);
