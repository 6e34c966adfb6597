use super::*;
use crate::pages::listings::groups::by_name;

fn summary(id: &str, tags: &[&str]) -> ModelSummary {
    ModelSummary { id: id.into(), tags: tags.iter().collect(), ..ModelSummary::default() }
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
    let tags: Vec<&str> = VOCABULARY.iter().filter(|_| dice.roll(3) == 0).copied().collect();
    summary(&id, &tags)
}

fn sorted(mut models: Vec<(ModelSummary, bool)>) -> (Vec<ModelSummary>, Vec<bool>) {
    models.sort_by(|a, b| by_name(&a.0, &b.0));
    models.into_iter().unzip()
}

/// A build's changes to `before`: some models removed, some added, some
/// changed (their words too), some decoded but as they were; each model
/// with whether its row may have changed.
fn next_build(dice: &mut Dice, before: &[ModelSummary], serial: &mut usize) -> (Vec<ModelSummary>, Vec<bool>) {
    let mut after: Vec<(ModelSummary, bool)> = Vec::new();
    for model in before {
        match dice.roll(40) {
            0 => {}
            1 => {
                let tags: Vec<&str> = VOCABULARY.iter().filter(|_| dice.roll(2) == 0).copied().collect();
                after.push((summary(&model.id, &tags), true));
            }
            2 => after.push((model.clone(), true)),
            _ => after.push((model.clone(), false)),
        }
    }
    for _ in 0..dice.roll(6) {
        *serial += 1;
        after.push((random_model(dice, *serial), true));
    }
    sorted(after)
}

fn refs(models: &[ModelSummary]) -> Vec<&ModelSummary> {
    models.iter().collect()
}

/// Build after build, the index carried on from the one saved is the index
/// built afresh from the same models, exactly: words, order and ranks.
#[test]
fn a_carried_index_is_the_index_built_afresh() {
    let mut carried_builds = 0;
    for seed in 1..=12u64 {
        let mut dice = Dice(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut serial = 0;
        let size = [0, 1, 7, 300][seed as usize % 4];
        let (mut models, _) = sorted((0..size).map(|i| (random_model(&mut dice, i), true)).collect());
        serial += size;
        let mut saved = WordIndex::build(&refs(&models)).save(&refs(&models));
        for build in 0..6 {
            let (after, fresh) = next_build(&mut dice, &models, &mut serial);
            let afresh = WordIndex::build(&refs(&after));
            let (carried, did) = WordIndex::of(&refs(&after), &fresh, Some(&saved));
            let tokenised = fresh.iter().filter(|f| **f).count();
            assert_eq!(did, tokenised * FRESH_AT_MOST_ONE_IN <= after.len() + FRESH_AT_MOST_ONE_IN, "seed {seed}, build {build}: carried on");
            carried_builds += usize::from(did);
            assert_eq!(carried, afresh, "seed {seed}, build {build}");
            saved = carried.save(&refs(&after));
            models = after;
        }
    }
    assert!(carried_builds > 30, "most builds carried on ({carried_builds})");
}

/// Words leave the index with their last model, and come with their first.
#[test]
fn words_come_and_go_with_their_models() {
    let before = vec![summary("a/one", &["rare"]), summary("b/two", &["mit"]), summary("c/three", &["mit"])];
    let saved = WordIndex::build(&refs(&before)).save(&refs(&before));
    let after = vec![summary("b/two", &["mit"]), summary("c/three", &["mit"]), summary("d/four", &["newword"])];
    let carried = WordIndex::carried(&saved, &refs(&after), &[false, false, true]).expect("one model of three is new");
    let words: Vec<&str> = (0..carried.len()).map(|i| carried.word(i)).collect();
    assert!(!words.contains(&"rare") && !words.contains(&"one") && words.contains(&"newword"), "{words:?}");
    assert_eq!(carried, WordIndex::build(&refs(&after)));
}

/// A model the manifest kept as it was keeps the words saved for it: the
/// carried index trusts the flag (and a build sets it for every model it
/// decoded), which is what makes carrying cheap.
#[test]
fn only_fresh_models_are_tokenised_again() {
    let before = vec![summary("a/one", &["mit"]), summary("b/two", &["en"]), summary("c/three", &["en"]), summary("d/four", &["en"])];
    let saved = WordIndex::build(&refs(&before)).save(&refs(&before));
    let after = vec![summary("a/one", &["gguf"]), summary("b/two", &["en"]), summary("c/three", &["en"]), summary("d/four", &["en"])];
    let stale = WordIndex::carried(&saved, &refs(&after), &[false, false, false, false]).unwrap();
    assert_eq!(stale, WordIndex::build(&refs(&before)), "not fresh: the saved words stand");
    let fresh = WordIndex::carried(&saved, &refs(&after), &[true, false, false, false]).unwrap();
    assert_eq!(fresh, WordIndex::build(&refs(&after)));
}

/// When many models changed, tokenising them all again is as quick: the
/// index is built afresh.
#[test]
fn many_fresh_models_build_afresh() {
    let models: Vec<ModelSummary> = (0..100).map(|i| summary(&format!("org/m{i:03}"), &["en"])).collect();
    let saved = WordIndex::build(&refs(&models)).save(&refs(&models));
    let mut fresh = vec![false; 100];
    fresh[..25].fill(true);
    assert!(WordIndex::carried(&saved, &refs(&models), &fresh).is_some());
    fresh[..40].fill(true);
    assert!(WordIndex::carried(&saved, &refs(&models), &fresh).is_none());
    assert_eq!(WordIndex::of(&refs(&models), &fresh, Some(&saved)), (WordIndex::build(&refs(&models)), false));
}

/// A saved index reads back as the index it was, with its ids.
#[test]
fn a_saved_index_reads_back_as_it_was() {
    let mut dice = Dice(7);
    let (models, _) = sorted((0..500).map(|i| (random_model(&mut dice, i), false)).collect());
    let index = WordIndex::build(&refs(&models));
    let (ids, read) = open(&index.save(&refs(&models))).expect("decodes");
    assert_eq!(read, index);
    assert_eq!((0..ids.len()).map(|i| ids.get(i).unwrap()).collect::<Vec<_>>(), models.iter().map(|m| m.id.as_bytes()).collect::<Vec<_>>());
}

/// A damaged saved index is refused, never trusted and never a panic: cut
/// anywhere, with any byte changed, with ids out of order, with a word the
/// tokeniser never makes, or with counts far beyond its size.
#[test]
fn a_damaged_saved_index_is_refused() {
    let models = vec![summary("a/one", &["mit", "en"]), summary("b/two", &["en"]), summary("c/three", &["gguf"])];
    let saved = WordIndex::build(&refs(&models)).save(&refs(&models));
    let fresh = [false, false, false];
    for cut in 0..saved.len() {
        assert!(WordIndex::carried(&saved[..cut], &refs(&models), &fresh).is_none(), "cut at {cut}");
    }
    for at in 0..saved.len() {
        for byte in [0u8, 1, 0x41, 0x7f, 0x80, 0xff] {
            let mut bad = saved.clone();
            bad[at] = byte;
            // Decoding must stop cleanly; what it gives, if anything, must be an index of these models.
            if let Some(index) = WordIndex::carried(&bad, &refs(&models), &fresh) {
                assert_eq!(index.models(), models.len());
            }
        }
    }
    // Ids out of order: a model is kept only where its id matches, so the
    // index is still that of the models, ranks in order.
    let many: Vec<ModelSummary> = (0..10).map(|i| summary(&format!("org/m{i}"), &[VOCABULARY[i % 4]])).collect();
    let mut swapped = many.clone();
    swapped.swap(0, 1);
    let saved = WordIndex::build(&refs(&swapped)).save(&refs(&swapped));
    let index = WordIndex::carried(&saved, &refs(&many), &[false; 10]).expect("one model of ten tokenised");
    assert_eq!(index, WordIndex::build(&refs(&many)));

    let mut not_a_word = Vec::from(*MAGIC);
    put(&mut not_a_word, 0);
    put(&mut not_a_word, 1);
    put_front_coded(&mut not_a_word, [b"Upper".as_slice()].into_iter());
    put(&mut not_a_word, 0);
    assert!(open(&not_a_word).is_none(), "a word the tokeniser never makes");

    let mut huge = Vec::from(*MAGIC);
    put(&mut huge, usize::MAX >> 1);
    assert!(open(&huge).is_none(), "a count beyond the bytes left");
    let mut repeated = Vec::from(*MAGIC);
    put(&mut repeated, 3);
    put_front_coded(&mut repeated, [b"a/b".as_slice()].into_iter());
    for _ in 0..2 {
        put(&mut repeated, 3);
        put(&mut repeated, ID_BYTES_AT_MOST);
    }
    assert!(open(&repeated).is_none(), "ids grown past their bound by what they share");
}
