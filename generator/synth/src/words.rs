//! Word lists and sentence patterns for model cards. All of it is written for
//! this generator: the cards read like model cards without copying any.

use std::ops::RangeInclusive;

use crate::dist::{below, between, pick, several, SynthRng};

/// What a card's sentences may talk about.
pub struct Context<'a> {
    pub name: &'a str,
    pub namespace: &'a str,
    pub task: &'a str,
    pub modality: Modality,
    pub language: &'a str,
    pub base: Option<&'a str>,
    pub params: &'a str,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modality {
    Text,
    Image,
    Audio,
    Video,
    Tabular,
    Control,
}

impl Modality {
    pub fn of(task: &str) -> Modality {
        match task {
            t if t.contains("video") => Modality::Video,
            t if t.contains("audio") || t.contains("speech") || t.contains("voice") => Modality::Audio,
            t if t.contains("image") || t.contains("object") || t.contains("depth") || t.contains("mask") => {
                Modality::Image
            }
            "visual-question-answering" | "document-question-answering" | "visual-document-retrieval" => {
                Modality::Image
            }
            t if t.starts_with("tabular") || t == "time-series-forecasting" => Modality::Tabular,
            "reinforcement-learning" | "robotics" => Modality::Control,
            _ => Modality::Text,
        }
    }
}

pub const ADJECTIVES: &[&str] = &[
    "compact",
    "efficient",
    "sturdy",
    "lightweight",
    "general-purpose",
    "domain-tuned",
    "multilingual",
    "experimental",
    "well-calibrated",
    "distilled",
    "carefully filtered",
    "fast",
    "small-footprint",
    "research-grade",
    "no-frills",
    "batch-friendly",
    "quantization-friendly",
    "conservative",
];

const TEXT_DATA: &[&str] = &[
    "web pages",
    "forum threads",
    "news articles",
    "product reviews",
    "scientific abstracts",
    "support tickets",
    "code repositories",
    "recipe collections",
    "meeting transcripts",
    "encyclopedia entries",
    "legal summaries",
    "patent claims",
    "film subtitles",
    "game manuals",
    "travel guides",
    "museum captions",
    "weather bulletins",
    "sports reports",
    "poetry anthologies",
    "public-domain novels",
    "technical manuals",
    "release notes",
];
const IMAGE_DATA: &[&str] = &[
    "street photographs",
    "product shots",
    "aerial tiles",
    "microscope slides",
    "scanned documents",
    "botanical illustrations",
    "museum catalogue photos",
    "drone footage stills",
    "phone snapshots",
    "hand-drawn sketches",
    "satellite mosaics",
    "synthetic renders",
    "wildlife camera-trap frames",
];
const AUDIO_DATA: &[&str] = &[
    "read speech",
    "podcast episodes",
    "call-centre recordings",
    "field recordings",
    "audiobook chapters",
    "studio vocals",
    "street noise",
    "lecture recordings",
    "bird calls",
    "radio archives",
    "voice notes",
];
const VIDEO_DATA: &[&str] = &[
    "short clips",
    "time-lapse sequences",
    "stock footage",
    "gameplay captures",
    "cooking videos",
    "drone flyovers",
    "animated shorts",
    "sports highlights",
];
const TABULAR_DATA: &[&str] = &[
    "sensor logs",
    "billing records",
    "survey answers",
    "lab measurements",
    "sales ledgers",
    "energy meter readings",
    "delivery logs",
    "loan applications",
];
const CONTROL_DATA: &[&str] = &[
    "simulated episodes",
    "teleoperated demonstrations",
    "self-play rollouts",
    "replay buffers",
    "scripted trajectories",
];

pub const GOALS: &[&str] = &[
    "quick prototyping",
    "batch labelling",
    "offline evaluation",
    "teaching demos",
    "edge deployment",
    "search ranking",
    "content moderation",
    "support-ticket triage",
    "accessibility tooling",
    "data exploration",
    "benchmark studies",
    "internal tooling",
    "hobby projects",
    "regression testing",
    "low-latency serving",
    "on-device inference",
];

pub const HARDWARE: &[&str] = &[
    "a single A100",
    "eight H100 GPUs",
    "four RTX 4090 cards",
    "a TPU v4-32 slice",
    "two L40S GPUs",
    "a laptop with 16 GB of memory",
    "a single T4",
    "sixteen A10G GPUs",
    "an M2 Max with 64 GB",
];

pub const DURATIONS: &[&str] = &[
    "three epochs",
    "a single epoch",
    "12,000 steps",
    "about 40 hours",
    "two days",
    "90 minutes",
    "five epochs with early stopping",
    "250,000 steps",
    "one week",
];

pub const CAVEATS: &[&str] = &[
    "it can repeat itself on long inputs",
    "it is sensitive to the exact wording of its input",
    "rare words are often split into many tokens",
    "scores drop noticeably on informal or noisy input",
    "it has not been audited for fairness",
    "numbers in its output should always be checked",
    "it was never evaluated outside its training mix",
    "outputs may reflect the biases of the source data",
    "it is overconfident on inputs unlike its training data",
    "quality degrades when inputs are much longer than in training",
    "it was tuned on a narrow domain and may not transfer",
    "its calibration was only checked on the held-out split",
];

pub const METHODS: &[&str] = &[
    "was fine-tuned",
    "was trained from scratch",
    "was distilled from a larger teacher",
    "was adapted",
    "was continued-pretrained and then fine-tuned",
    "was trained with a cosine schedule",
];

pub const TOOLS: &[&str] = &[
    "a small evaluation harness",
    "a hand-labelled audit set",
    "a nightly regression suite",
    "a spreadsheet of failure cases",
    "an ablation grid",
    "a blind side-by-side review",
];

pub const LANGUAGES: &[(&str, &str)] = &[
    ("en", "English"),
    ("fr", "French"),
    ("de", "German"),
    ("es", "Spanish"),
    ("it", "Italian"),
    ("pt", "Portuguese"),
    ("nl", "Dutch"),
    ("zh", "Chinese"),
    ("ja", "Japanese"),
    ("ko", "Korean"),
    ("ru", "Russian"),
    ("ar", "Arabic"),
    ("hi", "Hindi"),
    ("sv", "Swedish"),
    ("pl", "Polish"),
    ("tr", "Turkish"),
    ("vi", "Vietnamese"),
    ("sw", "Swahili"),
    ("id", "Indonesian"),
    ("uk", "Ukrainian"),
    ("fi", "Finnish"),
    ("da", "Danish"),
    ("cs", "Czech"),
];

pub fn language_name(code: &str) -> &'static str {
    LANGUAGES.iter().find(|(c, _)| *c == code).map(|(_, n)| *n).unwrap_or("English")
}

/// Sentences for each part of a card; `{slot}`s are filled by [`fill`].
/// The first sentence of a card: it names the model.
pub const INTRO_LEAD: &[&str] = &[
    "{name} is {a_adj} model for {task}, published by {org}.",
    "This repository holds {name}, {a_adj} checkpoint for {task} with {params} parameters.",
    "{name} {method} on {data} and {data2} for {task}.",
    "{org} publishes {name} for {task}; it has {params} parameters.",
];

pub const INTRO: &[&str] = &[
    "It is meant for {goal} and {goal2}, where a predictable model matters more than a large one.",
    "The weights are released so that others can reproduce the scores on this card and build on them.",
    "Compared with the previous release it handles {data} better and is easier to run on modest hardware.",
    "Most of the effort went into cleaning {data} rather than into the architecture.",
    "Inputs in {language} work best; other languages were seen during training but only in small amounts.",
    "{base_sentence}",
    "The model is small enough for {goal} yet strong enough to be a useful baseline.",
    "Every number on this card can be reproduced with the scripts in the repository.",
];

pub const TRAINING: &[&str] = &[
    "Training used {data} and {data2}, deduplicated and filtered for length and quality.",
    "The model {method} on {hw} for {duration}.",
    "We kept {pct}% of the raw material after filtering; the rest was near-duplicates or boilerplate.",
    "Learning rate, batch size and warm-up were picked with {tool} on a small proxy run.",
    "Checkpoints were saved every {num} hundred steps and the best one on the validation split was kept.",
    "Mixed precision (bf16) was used throughout, with gradient clipping at 1.0.",
    "A held-out slice of {data} was never seen during training and is used for every score on this card.",
    "Data was shuffled once with a fixed seed, so a rerun visits examples in the same order.",
    "Labels were checked by two annotators; disagreements, about {pct}% of the items, were resolved by a third.",
    "The tokenizer and preprocessing are unchanged from the base checkpoint.",
];

pub const USES: &[&str] = &[
    "Good fits are {goal} and {goal2}.",
    "It works well as a first pass whose output a person reviews before anything is published.",
    "Use it where occasional mistakes are cheap and easy to catch.",
    "It is not meant for decisions about people, such as hiring, credit or medical triage.",
    "For production traffic, measure it on your own data first; the scores on this card come from ours.",
    "Pair it with {tool} if you change the prompt format or the preprocessing.",
    "It is a reasonable starting point for further fine-tuning on {data}.",
];

pub const LIMITS: &[&str] = &[
    "Known weakness: {caveat}.",
    "Like any model trained on {data}, {caveat}.",
    "We also saw that {caveat}, which is worth checking in your setting.",
    "Performance on {language} text is lower than the averages suggest.",
    "The evaluation sets are small, so differences under one point are noise.",
    "The model has no knowledge of events after its data was collected.",
    "Inputs far from {data} were not tested at all.",
];

pub const EVAL_NOTES: &[&str] = &[
    "Scores are averages over {num} runs with different seeds; the spread was under one point.",
    "All numbers were produced with {tool}; the script and its settings are in this repository.",
    "The in-domain split comes from {data}; the out-of-domain split from {data2}.",
    "Higher is better for every metric except where the table says otherwise.",
    "Baselines were rerun with the same preprocessing rather than copied from their papers.",
];

pub const MISC: &[&str] = &[
    "Training emitted an estimated {num} kg of CO2-equivalent, measured at the wall on {hw}.",
    "Thanks to everyone at {org} who labelled data, reviewed outputs or reported bugs.",
    "Questions and bug reports are welcome in the community tab of this repository.",
    "Older revisions of the weights stay available as git tags.",
    "The card is updated whenever the weights change, and each revision is tagged.",
    "If a result here does not reproduce, please open a discussion with your exact command line.",
];

pub const HEADINGS_EXTRA: &[&str] = &[
    "Intended uses",
    "Limitations and bias",
    "Out-of-scope use",
    "Environmental impact",
    "Acknowledgements",
    "Reproducibility",
    "Changelog",
    "Frequently asked questions",
    "Preprocessing",
    "Hardware and software",
];

/// Fills each `{slot}` of `pattern`; the first letter is made upper case.
pub fn fill(rng: &mut SynthRng, ctx: &Context<'_>, pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 40);
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = open + rest[open..].find('}').expect("slot is closed");
        slot(rng, ctx, &rest[open + 1..close], &mut out);
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    // A sentence that opens with the model's name keeps the name's spelling.
    if pattern.starts_with("{name}") || pattern.starts_with("{org}") {
        out
    } else {
        capitalize(&out)
    }
}

fn slot(rng: &mut SynthRng, ctx: &Context<'_>, name: &str, out: &mut String) {
    match name {
        "name" => out.push_str(ctx.name),
        "org" => out.push_str(ctx.namespace),
        "task" => out.push_str(&task_phrase(ctx.task)),
        "params" => out.push_str(ctx.params),
        "language" => out.push_str(language_name(ctx.language)),
        "adj" => out.push_str(pick(rng, ADJECTIVES)),
        "a_adj" => {
            let adj = pick(rng, ADJECTIVES);
            out.push_str(if adj.starts_with(['a', 'e', 'i', 'o', 'u']) { "an " } else { "a " });
            out.push_str(adj);
        }
        "data" | "data2" => out.push_str(pick(rng, data_words(ctx.modality))),
        "goal" | "goal2" => out.push_str(pick(rng, GOALS)),
        "hw" => out.push_str(pick(rng, HARDWARE)),
        "duration" => out.push_str(pick(rng, DURATIONS)),
        "caveat" => out.push_str(pick(rng, CAVEATS)),
        "method" => out.push_str(pick(rng, METHODS)),
        "tool" => out.push_str(pick(rng, TOOLS)),
        "pct" => out.push_str(&between(rng, 3, 97).to_string()),
        "num" => out.push_str(&between(rng, 2, 40).to_string()),
        "base_sentence" => match ctx.base {
            Some(base) => {
                out.push_str("It starts from `");
                out.push_str(base);
                out.push_str(match ctx.modality {
                    Modality::Text => "` and keeps its tokenizer and context length.",
                    _ => "` and keeps its preprocessing unchanged.",
                });
            }
            None => out.push_str("It was trained without a pretrained starting point."),
        },
        other => panic!("unknown slot {other:?}"),
    }
}

pub fn data_words(modality: Modality) -> &'static [&'static str] {
    match modality {
        Modality::Text => TEXT_DATA,
        Modality::Image => IMAGE_DATA,
        Modality::Audio => AUDIO_DATA,
        Modality::Video => VIDEO_DATA,
        Modality::Tabular => TABULAR_DATA,
        Modality::Control => CONTROL_DATA,
    }
}

/// "automatic-speech-recognition" -> "automatic speech recognition".
pub fn task_phrase(task: &str) -> String {
    match task {
        "" => "custom compute kernels".into(),
        "text-generation" => "text generation".into(),
        "image-text-to-text" => "answering questions about images".into(),
        other => other.replace('-', " "),
    }
}

pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) if first.is_ascii_lowercase() => {
            let mut out = String::with_capacity(s.len());
            out.push(first.to_ascii_uppercase());
            out.push_str(chars.as_str());
            out
        }
        _ => s.to_owned(),
    }
}

/// `n` (at least one) distinct sentences from `patterns`, joined into a paragraph.
pub fn paragraph(rng: &mut SynthRng, ctx: &Context<'_>, patterns: &[&str], n: RangeInclusive<usize>) -> String {
    // Only text and speech models talk about their input language.
    let speaks = matches!(ctx.modality, Modality::Text | Modality::Audio);
    let patterns: Vec<&str> = patterns.iter().copied().filter(|p| speaks || !p.contains("{language}")).collect();
    let mut chosen: Vec<&&str> = several(rng, &patterns, n);
    let turn = below(rng, chosen.len());
    chosen.rotate_left(turn);
    let sentences: Vec<String> = chosen.into_iter().map(|p| fill(rng, ctx, p)).collect();
    sentences.join(" ")
}

/// Sample inputs, by kind of input. None holds a double quote or backslash,
/// so they sit inside code string literals as they are.
pub const CHAT_PROMPTS: &[&str] = &[
    "Explain the difference between a list and a tuple in Python.",
    "Write a short poem about autumn rain.",
    "Give me three ideas for a rainy-day activity with kids.",
    "What are the pros and cons of working from home?",
    "Draft a polite email asking to move a meeting to Thursday.",
    "Summarize the rules of chess in five bullet points.",
    "How do I make a sourdough starter from scratch?",
    "Translate 'good morning, how are you?' into Spanish and Italian.",
];
pub const COMPLETIONS: &[&str] = &[
    "Once upon a time, in a village by the sea,",
    "The three most important things to know about compilers are",
    "def fibonacci(n):",
    "The quarterly report shows that revenue",
    "In the beginning of the experiment, the team",
];
pub const REVIEWS: &[&str] = &[
    "The delivery was late but the support team sorted it out quickly.",
    "I would not recommend this blender to anyone.",
    "Absolutely loved the soundtrack and the pacing of the second half.",
    "The update broke my settings and nobody answers the tickets.",
    "Decent value for the price, nothing more, nothing less.",
    "This is the best ramen place I have found in years!",
];
pub const ENTITIES: &[&str] = &[
    "Maria Lopez flew from Lisbon to Oslo on Tuesday to meet the Norvik team.",
    "Dr. Chen joined Alder Robotics in Toronto after ten years at Quarry Labs.",
    "The Riverside Festival in Ghent sold out within two hours, organisers said.",
    "Amir Haddad will present the new Kestrel tablet in Berlin next spring.",
];
pub const MASKED: &[&str] = &[
    "The capital of France is [MASK].",
    "She poured the coffee into a [MASK] mug.",
    "The meeting was moved to [MASK] morning.",
    "Rust is a [MASK] programming language.",
];
pub const PASSAGES: &[&str] = &[
    "The city council approved a plan on Monday to turn the old rail yard into a park with playing fields, a community garden and a covered market. Work starts next year and should take three years. Residents asked for more trees and fewer parking spaces during two public meetings, and the final design reflects both requests.",
    "A new study of 1,200 households found that families who cooked at home at least five nights a week spent about a third less on food than those who did not. The researchers also noted that the gap narrowed for households with young children, where convenience food was more common.",
    "The museum's winter exhibition brings together ninety maps drawn between 1500 and 1800. Many are on loan from private collections and have never been shown in public. Visitors can also try a digital table that overlays the old maps on modern satellite images.",
];
pub const QUESTIONS: &[(&str, &str)] = &[
    ("Where does Clara live?", "My name is Clara and I live in Berkeley, where I work as a librarian."),
    (
        "When does the work start?",
        "The city approved the park plan on Monday; work starts next year and takes three years.",
    ),
    ("How many maps are shown?", "The winter exhibition brings together ninety maps drawn between 1500 and 1800."),
    ("Who founded the bakery?", "The bakery on Elm Street was founded in 1962 by the Novak sisters."),
];
pub const SIMILARITY: &[(&str, [&str; 3])] = &[
    (
        "A man is playing a guitar.",
        [
            "Someone is strumming a guitar on stage.",
            "A woman is slicing tomatoes.",
            "The band is tuning its instruments.",
        ],
    ),
    (
        "How do I reset my password?",
        [
            "Steps to change a forgotten password",
            "Opening hours of the main office",
            "Recovering access to your account",
        ],
    ),
    (
        "The weather is lovely today.",
        ["It is so sunny outside!", "He drove to the stadium.", "A warm and pleasant afternoon."],
    ),
];
pub const IMAGE_PROMPTS: &[&str] = &[
    "A lighthouse on a cliff at dusk, oil painting, dramatic clouds",
    "A red fox in fresh snow, soft morning light, shallow depth of field",
    "An isometric cozy bookshop interior, warm colors, tiny details",
    "A bowl of ramen on a wooden table, top-down photo, steam rising",
    "A retro travel poster of a mountain railway, bold flat colors",
    "A watercolor sketch of a busy fish market in the rain",
];
pub const VIDEO_PROMPTS: &[&str] = &[
    "A paper boat drifting down a rainy street, close-up, slow motion",
    "Time-lapse of clouds rolling over a mountain ridge at sunrise",
    "A cat stretching on a sunny windowsill, handheld camera",
    "Drone shot flying over a winding coastal road",
];
pub const EDIT_PROMPTS: &[&str] = &[
    "Turn the daytime scene into a snowy night.",
    "Replace the red car with a bicycle.",
    "Make it look like a pencil sketch.",
    "Add warm sunset lighting from the left.",
];
pub const SPEECH_LINES: &[&str] = &[
    "The next train to the airport leaves from platform four.",
    "Thank you for calling. Your appointment is confirmed for Tuesday at ten.",
    "Remember to water the tomatoes before the heat of the afternoon.",
];
pub const MUSIC_PROMPTS: &[&str] = &[
    "lo-fi hip hop beat with soft piano and vinyl crackle",
    "upbeat synthwave with punchy drums and a bright lead",
    "calm ambient pads with distant birdsong",
    "a short brass fanfare for a game victory screen",
];
pub const LABEL_SETS: &[&[&str]] = &[
    &["billing", "technical issue", "feedback"],
    &["sports", "politics", "science", "culture"],
    &["urgent", "not urgent"],
];
