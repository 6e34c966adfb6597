use modelpages_record::SearchFacets;
use modelpages_snippets::SnippetEngine;

use super::*;
use crate::pages::listings::file::{member_key, row_key};
use crate::pages::listings::groups::by_name;
use crate::pages::listings::search::trie::Shard;
use crate::pages::listings::search::SearchFiles;
use crate::pages::tasks::TaskCatalogue;
use crate::settings::ListingSettings;

fn summary(id: &str, tags: &[&str]) -> ModelSummary {
    ModelSummary { id: id.into(), tags: tags.iter().collect(), ..ModelSummary::default() }
}

/// The catalogues a build numbers tasks and libraries by.
struct Known {
    tasks: TaskCatalogue,
    snippets: SnippetEngine,
}

impl Known {
    fn new() -> Known {
        Known { tasks: TaskCatalogue::builtin(), snippets: SnippetEngine::new() }
    }

    fn catalogues(&self) -> Catalogues<'_> {
        Catalogues::new(self.tasks.tasks(), self.snippets.catalogue().libraries())
    }
}

/// A small deterministic generator (xorshift), so every case can be rerun.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }
}

const VOCABULARY: [&str; 10] = ["llama", "llava", "8b", "gguf", "en", "mit", "a1", "a10", "rare", "zz-top"];

fn random_model(dice: &mut Dice, serial: usize) -> ModelSummary {
    let namespaces = ["Org", "org2", "meta-llama", "a", "Zeta"];
    let id = format!("{}/Model-{}-{}", namespaces[dice.roll(namespaces.len())], dice.roll(50), serial);
    let downloads = Some(dice.roll(1000) as u64);
    with_random_rows(dice, ModelSummary { downloads, id, ..ModelSummary::default() })
}

/// `model` with new words and a new place in the groups: task, library,
/// filter tags and search facets, known and unknown.
fn with_random_rows(dice: &mut Dice, model: ModelSummary) -> ModelSummary {
    let mut pick = |from: &[&'static str], one_in: usize| -> Vec<&'static str> { from.iter().filter(|_| dice.roll(one_in) == 0).copied().collect() };
    let tags = pick(&VOCABULARY, 3);
    let filters = pick(&VOCABULARY, 4);
    let languages = pick(&["en", "fr", "zh"], 2);
    let licenses = pick(&["mit", "apache-2.0"], 3);
    let providers = pick(&["together"], 4);
    // A tag twice in a row puts the model in its group twice, as a build
    // that read such a row would.
    let mut filters = filters;
    if let (Some(&first), 0) = (filters.first(), dice.roll(5)) {
        filters.push(first);
    }
    ModelSummary {
        tags: tags.iter().collect(),
        filters: filters.iter().collect(),
        task: [None, Some("text-generation"), Some("fill-mask"), Some("no-such-task")][dice.roll(4)].map(str::to_owned),
        library: [None, Some("transformers"), Some("diffusers"), Some("no-such-library")][dice.roll(4)].map(str::to_owned),
        facets: SearchFacets {
            languages: languages.iter().collect(),
            licenses: licenses.iter().collect(),
            providers: providers.iter().collect(),
            params: [None, Some(0), Some(3)][dice.roll(3)],
            fits: [None, Some(1)][dice.roll(2)],
        },
        ..model
    }
}

fn sorted(mut models: Vec<(ModelSummary, bool)>) -> (Vec<ModelSummary>, Vec<bool>) {
    models.sort_by(|a, b| by_name(&a.0, &b.0));
    models.into_iter().unzip()
}

/// A build's changes to `before`: some models removed, some added, some
/// changed (their words and figures too), some decoded but as they were;
/// each model with whether its row may have changed.
fn next_build(dice: &mut Dice, before: &[ModelSummary], serial: &mut usize) -> (Vec<ModelSummary>, Vec<bool>) {
    let mut after: Vec<(ModelSummary, bool)> = Vec::new();
    for model in before {
        match dice.roll(40) {
            0 => {}
            1 => after.push((with_random_rows(dice, model.clone()), true)),
            2 => after.push((ModelSummary { downloads: Some(dice.roll(1000) as u64), ..model.clone() }, true)),
            3 => after.push((model.clone(), true)),
            _ => after.push((model.clone(), false)),
        }
    }
    for _ in 0..dice.roll(6) {
        *serial += 1;
        after.push((random_model(dice, *serial), true));
    }
    sorted(after)
}

/// `saved` read and matched to `models`, as a build does.
fn open<'s>(saved: &'s [u8], models: &[&ModelSummary], fresh: &[bool]) -> Option<Carried<'s>> {
    Carried::open(SavedListings::read(saved)?, models, fresh)
}

fn refs(models: &[ModelSummary]) -> Vec<&ModelSummary> {
    models.iter().collect()
}

/// Search shards this small split a few hundred models into nodes many
/// levels deep.
const CAP: usize = 4;

/// The search trie of `models` cut from `index`, carrying on `carried`'s
/// where it can (and with `carried`, its nodes' count carried on).
fn search(models: &[&ModelSummary], index: &WordIndex, carried: Option<&CarriedTrie>) -> SearchFiles {
    SearchFiles::build(models, index, &ListingSettings { shard_models: CAP, ..ListingSettings::default() }, carried)
}

/// What a build of `models` saves, its groups sorted and keyed afresh.
fn saved_by(models: &[ModelSummary]) -> Vec<u8> {
    let refs = refs(models);
    let known = Known::new();
    let (groups, carried_on) = groups(None, &refs, &known.catalogues());
    assert!(!carried_on);
    let index = WordIndex::build(&refs);
    let mut search = search(&refs, &index, None);
    search.key_files(&refs, &groups);
    save(&refs, &groups, &index, search.tree(), CAP)
}

/// The nodes of the trie of `models` cut afresh, their files keyed.
fn trie_afresh(models: &[&ModelSummary]) -> (Vec<String>, Vec<Shard>) {
    let known = Known::new();
    let (groups, _) = groups(None, models, &known.catalogues());
    let mut search = search(models, &WordIndex::build(models), None);
    search.key_files(models, &groups);
    (search.tree().roots.clone(), search.tree().shards.clone())
}

/// Build after build, what is carried on is what a full build makes: the
/// kept models' keys are their own, the word index is the one built
/// afresh, words, order and ranks, and so is the search trie, node for
/// node.
#[test]
fn what_is_carried_is_what_a_full_build_makes() {
    let known = Known::new();
    let (mut carried_builds, mut nodes_carried, mut nodes) = (0, 0, 0);
    for seed in 1..=12u64 {
        let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut serial = 0;
        let size = [0, 1, 7, 300][seed as usize % 4];
        let (mut models, _) = sorted((0..size).map(|i| (random_model(&mut dice, i), true)).collect());
        serial += size;
        let mut saved = saved_by(&models);
        for build in 0..6 {
            let (after, fresh) = next_build(&mut dice, &models, &mut serial);
            let refs = refs(&after);
            let carried = open(&saved, &refs, &fresh);
            let not_kept = fresh.iter().filter(|f| **f).count();
            assert_eq!(carried.is_some(), not_kept * NOT_KEPT_AT_MOST_ONE_IN <= after.len() + NOT_KEPT_AT_MOST_ONE_IN, "seed {seed}, build {build}");
            if let Some(carried) = &carried {
                carried_builds += 1;
                for (rank, model) in after.iter().enumerate() {
                    let row = row_key(model);
                    match carried.keys(rank) {
                        Some(keys) => assert_eq!(keys, (row, member_key(model, &row)), "seed {seed}, build {build}, {}", model.id),
                        None => assert!(fresh[rank], "seed {seed}, build {build}: {} is kept", model.id),
                    }
                }
            }
            let (index, changes) = word_index(carried.as_ref(), &refs);
            assert_eq!(changes.is_some(), carried.is_some());
            assert_eq!(index, WordIndex::build(&refs), "seed {seed}, build {build}");
            // Grouped, cut and saved from what was carried, as a build
            // does: the saved form holds every group's name and models, and
            // every key, the word files' too.
            let (carried_groups, groups_carried_on) = groups(carried.as_ref(), &refs, &known.catalogues());
            assert_eq!(groups_carried_on, carried.is_some());
            let trie = changes.as_ref().and_then(|changes| carried.as_ref()?.trie(CAP, changes));
            assert_eq!(trie.is_some(), carried.is_some(), "seed {seed}, build {build}");
            let mut search = search(&refs, &index, trie.as_ref());
            search.key_files(&refs, &carried_groups);
            assert_eq!((search.tree().roots.clone(), search.tree().shards.clone()), trie_afresh(&refs), "seed {seed}, build {build}");
            if trie.is_some() {
                nodes_carried += search.tree().carried;
                nodes += search.tree().shards.len();
            }
            saved = save(&refs, &carried_groups, &index, search.tree(), CAP);
            assert_eq!(saved, saved_by(&after), "seed {seed}, build {build}: saved as a full build saves");
            models = after;
        }
    }
    assert!(carried_builds > 30, "most builds carried on ({carried_builds})");
    assert!(nodes_carried * 2 > nodes, "most nodes carried on ({nodes_carried} of {nodes})");
}

/// A model added with words the trie has, one changed and one removed:
/// every node the previous build had is carried on, as it was (no word
/// under it changed) or updated from what it held; only nodes new to the
/// trie are cut from their postings. What comes out is what a full build
/// cuts.
#[test]
fn nodes_of_changed_words_are_updated_not_cut_again() {
    let mut dice = Dice(11);
    let before: Vec<ModelSummary> = sorted((0..200).map(|i| (random_model(&mut dice, i), true)).collect()).0;
    let saved = saved_by(&before);
    let mut after: Vec<(ModelSummary, bool)> = before.iter().map(|m| (m.clone(), false)).collect();
    // An added model, with the most downloads: it joins every node's top.
    after.push((ModelSummary { downloads: Some(5_000), ..summary("Org/Model-0-added", &["llama", "gguf"]) }, true));
    // One that comes last by downloads, so it was in no top: its words change.
    let last = after.iter().position(|(m, _)| m.downloads == before.iter().filter_map(|m| m.downloads).min()).unwrap();
    after[last].0.tags = ["en"].iter().collect();
    after[last].1 = true;
    let (after, fresh) = sorted(after);
    let refs = refs(&after);
    let carried = open(&saved, &refs, &fresh).expect("two models of 201 not kept");
    let (index, changes) = carried.word_index(&refs).unwrap();
    let trie = carried.trie(CAP, &changes).expect("the trie reads back");
    let mut search = search(&refs, &index, Some(&trie));
    // The nodes carried on as they were come with their files' keys; the
    // rest are keyed now, as a full build keys them all.
    let with_keys = search.tree().shards.iter().filter(|s| s.key.is_some()).count();
    assert!(with_keys > 10 && with_keys < search.tree().carried, "{with_keys} of {} carried on with their keys", search.tree().carried);
    let known = Known::new();
    search.key_files(&refs, &groups(Some(&carried), &refs, &known.catalogues()).0);
    let tree = search.tree();
    assert_eq!((tree.roots.clone(), tree.shards.clone()), trie_afresh(&refs));
    let (_, then) = trie_afresh(&before.iter().collect::<Vec<_>>());
    let new_to_the_trie = tree.shards.iter().filter(|s| !then.iter().any(|t| t.prefix == s.prefix)).count();
    assert_eq!(tree.carried, tree.shards.len() - new_to_the_trie, "every node the previous build had");
    assert!(tree.carried > 20, "{} nodes carried on", tree.carried);
    // Cut to another cap, nothing of the saved trie is trusted.
    assert!(carried.trie(CAP + 1, &changes).is_none());
}

/// Words leave the index with their last model, and come with their first.
#[test]
fn words_come_and_go_with_their_models() {
    let before = vec![summary("a/one", &["rare"]), summary("b/two", &["mit"]), summary("c/three", &["mit"])];
    let saved = saved_by(&before);
    let after = vec![summary("b/two", &["mit"]), summary("c/three", &["mit"]), summary("d/four", &["newword"])];
    let carried = open(&saved, &refs(&after), &[false, false, true]).expect("one model of three is new");
    let (index, _) = carried.word_index(&refs(&after)).unwrap();
    let words: Vec<&str> = (0..index.len()).map(|i| index.word(i)).collect();
    assert!(!words.contains(&"rare") && !words.contains(&"one") && words.contains(&"newword"), "{words:?}");
    assert_eq!(index, WordIndex::build(&refs(&after)));
    assert_eq!(carried.keys(2), None, "an added model has no saved keys");
}

/// A model the manifest kept as it was keeps what was saved for it: the
/// carried state trusts the flag (and a build sets it for every model it
/// decoded), which is what makes carrying cheap.
#[test]
fn only_fresh_models_are_made_again() {
    let before = vec![summary("a/one", &["mit"]), summary("b/two", &["en"]), summary("c/three", &["en"]), summary("d/four", &["en"])];
    let saved = saved_by(&before);
    let after = vec![summary("a/one", &["gguf"]), summary("b/two", &["en"]), summary("c/three", &["en"]), summary("d/four", &["en"])];
    let stale = open(&saved, &refs(&after), &[false; 4]).unwrap();
    assert_eq!(stale.word_index(&refs(&after)).unwrap().0, WordIndex::build(&refs(&before)), "not fresh: the saved words stand");
    assert_eq!(stale.keys(0).map(|k| k.0), Some(row_key(&before[0])), "and the saved keys");
    let fresh = open(&saved, &refs(&after), &[true, false, false, false]).unwrap();
    assert_eq!(fresh.word_index(&refs(&after)).unwrap().0, WordIndex::build(&refs(&after)));
    assert_eq!(fresh.keys(0), None);
}

/// When many models changed, making it all afresh is as quick: nothing is
/// carried.
#[test]
fn many_fresh_models_carry_nothing() {
    let models: Vec<ModelSummary> = (0..100).map(|i| summary(&format!("org/m{i:03}"), &["en"])).collect();
    let saved = saved_by(&models);
    let mut fresh = vec![false; 100];
    fresh[..25].fill(true);
    assert!(open(&saved, &refs(&models), &fresh).is_some());
    fresh[..40].fill(true);
    assert!(open(&saved, &refs(&models), &fresh).is_none());
    let (index, changes) = word_index(None, &refs(&models));
    assert!(index == WordIndex::build(&refs(&models)) && changes.is_none());
}

/// A damaged saved form is refused, never trusted and never a panic: cut
/// anywhere, with any byte changed, or ids grown past their bound by what
/// they share. Ids out of order keep a model only where its id matches.
#[test]
fn a_damaged_saved_form_is_refused() {
    let mut dice = Dice(7);
    let models: Vec<ModelSummary> = ["a/one", "b/two", "c/three"].iter().map(|id| with_random_rows(&mut dice, summary(id, &["en"]))).collect();
    let saved = saved_by(&models);
    let fresh = [false, false, false];
    let known = Known::new();
    let catalogues = known.catalogues();
    let whole = open(&saved, &refs(&models), &fresh).unwrap().membership(&refs(&models), &catalogues).unwrap();
    let whole_index = WordIndex::build(&refs(&models));
    for cut in 0..saved.len() {
        let carried = open(&saved[..cut], &refs(&models), &fresh);
        // The trie comes last, after the words: a cut past them leaves
        // them whole, and the trie short.
        if let Some((index, changes)) = carried.as_ref().and_then(|c| c.word_index(&refs(&models))) {
            assert_eq!(index, whole_index, "cut at {cut}");
            assert!(carried.as_ref().unwrap().trie(CAP, &changes).is_none(), "cut at {cut}");
        }
        // The groups come before the words: a cut past them leaves them whole.
        if let Some(membership) = carried.and_then(|c| c.membership(&refs(&models), &catalogues)) {
            assert_eq!(membership, whole, "cut at {cut}");
        }
    }
    for at in 0..saved.len() {
        for byte in [0u8, 1, 0x41, 0x7f, 0x80, 0xff] {
            let mut bad = saved.clone();
            bad[at] = byte;
            let Some(carried) = open(&bad, &refs(&models), &fresh) else { continue };
            if let Some((index, changes)) = carried.word_index(&refs(&models)) {
                assert_eq!(index.models(), models.len());
                // A trie that reads back, damaged, still cuts one whose ranks are models'.
                if let Some(trie) = carried.trie(CAP, &changes) {
                    let search = search(&refs(&models), &index, Some(&trie));
                    assert!(search.tree().shards.iter().flat_map(|s| &s.entries).all(|&rank| (rank as usize) < models.len()));
                }
            }
            if let Some(membership) = carried.membership(&refs(&models), &catalogues) {
                let every = membership.by_tag.values().chain(membership.by_value.values()).chain(membership.namespaces.iter().map(|(_, r)| r));
                assert!(every.flatten().all(|&rank| (rank as usize) < models.len()), "byte {at} set to {byte}");
            }
        }
    }
    let many: Vec<ModelSummary> = (0..10).map(|i| summary(&format!("org/m{i}"), &[VOCABULARY[i % 4]])).collect();
    let mut swapped = many.clone();
    swapped.swap(0, 1);
    let saved = saved_by(&swapped);
    let carried = open(&saved, &refs(&many), &[false; 10]).expect("one model of ten not kept");
    assert_eq!(carried.word_index(&refs(&many)).unwrap().0, WordIndex::build(&refs(&many)));
    assert_eq!(carried.keys(0), None);
    assert_eq!(carried.keys(1).map(|k| k.0), Some(row_key(&many[1])));

    let mut repeated = Vec::from(*MAGIC);
    put(&mut repeated, 3);
    put_front_coded(&mut repeated, [b"a/b".as_slice()].into_iter());
    for _ in 0..2 {
        put(&mut repeated, 3);
        put(&mut repeated, ID_BYTES_AT_MOST);
    }
    assert!(open(&repeated, &[], &[]).is_none(), "ids grown past their bound by what they share");
}

/// With more than one model in 256 not kept, nearly every top lost one:
/// the trie is cut afresh rather than carried on.
#[test]
fn the_trie_is_carried_on_only_when_few_models_changed() {
    let models: Vec<ModelSummary> = (0..1_000).map(|i| summary(&format!("org/m{i:04}"), &[VOCABULARY[i % 7]])).collect();
    let saved = saved_by(&models);
    let trie_with = |changed: usize| {
        let fresh: Vec<bool> = (0..models.len()).map(|i| i < changed).collect();
        let carried = open(&saved, &refs(&models), &fresh).unwrap();
        let (_, changes) = carried.word_index(&refs(&models)).unwrap();
        search_trie(Some(&carried), CAP, Some(&changes)).is_some()
    };
    assert!(trie_with(0) && trie_with(1) && trie_with(2));
    assert!(!trie_with(3) && !trie_with(40));
}
