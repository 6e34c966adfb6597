//! The table of hostile cases: what each writes and the outcome it must get.
//! An error names the file (with line and column for JSON syntax); a page
//! must be safe (see `Expect::Page`).

use modelpages_testkit::records::{record_json, RecordParts};
use serde_json::json;

use super::{error, page, syntax_error, Case, Corpus, Expect, PAYLOAD};

fn case(name: &'static str, expect: Expect) -> Case {
    Case { name, expect, notes: Vec::new() }
}

/// `value` as a JSON string literal.
fn quoted(value: &str) -> String {
    serde_json::to_string(value).unwrap()
}

/// What of [`PAYLOAD`] a page shows as text: HTML turns a carriage return
/// into a newline, so the text up to the tab is compared.
fn payload_text() -> &'static str {
    PAYLOAD.split('\t').next().unwrap()
}

pub fn all(c: &Corpus) -> Vec<Case> {
    let mut cases = ids(c);
    cases.extend(json_files(c));
    cases.extend(wrong_types(c));
    cases.extend(cards(c));
    cases.extend(costly_cards(c));
    cases.extend(values(c));
    cases.extend(file_system(c));
    cases.extend(input_limits(c));
    cases.extend(hub_fields(c));
    cases
}

fn id_case(c: &Corpus, name: &'static str, folder: &str, id: &str, message: &str) -> Case {
    c.record(folder, &json!({ "id": id }).to_string());
    case(name, error(&format!("{folder}/model.json"), message))
}

fn ids(c: &Corpus) -> Vec<Case> {
    let absolute = c.root.join("pwned/absolute").display().to_string();
    let overlong = format!("ids/{}", "x".repeat(120));
    let long_namespace = format!("{}/x", "n".repeat(97));
    let mut cases = vec![
        id_case(c, "id-parent-dir", "ids/parent", "../x", "invalid id \"../x\": model id part \"..\" starts or ends with `-` or `.`"),
        id_case(c, "id-nested-traversal", "ids/nested", "a/../../b", "model id must have two parts, `namespace/name`, found 4"),
        id_case(c, "id-absolute-path", "ids/absolute", &absolute, "model id must have two parts"),
        id_case(c, "id-double-quote", "ids/double-quote", "ids/a\"b", "model id has the character '\"'"),
        id_case(c, "id-single-quote", "ids/single-quote", "ids/a'b", "model id has the character '\\''"),
        id_case(c, "id-backslash", "ids/backslash", "ids/..\\..\\pwned", "model id has the character '\\\\'"),
        id_case(c, "id-newline", "ids/newline", "ids/a\nb", "model id has the character '\\n'"),
        id_case(c, "id-nul", "ids/nul", "ids/a\u{0}b", "model id has the character '\\0'"),
        id_case(c, "id-markup", "ids/markup", "ids/<script>", "model id has the character '<'"),
        // Cyrillic "а" in both the folder and the id: it looks like a Latin "a".
        id_case(c, "id-unicode-lookalike", "ids/\u{430}pple", "ids/\u{430}pple", "model id has the character '\u{430}'"),
        id_case(c, "id-over-long", &overlong, &overlong, "model name (after the `/`) is 120 characters long; at most 96 are allowed"),
        id_case(c, "id-namespace-over-long", &long_namespace, &long_namespace, "model namespace (before the `/`) is 97 characters long; at most 96 are allowed"),
        id_case(c, "id-three-segments", "ids/three", "ids/three/more", "model id must have two parts, `namespace/name`, found 3"),
        id_case(c, "id-differs-from-folder", "ids/mismatch", "ids/other", "id \"ids/other\" does not match its folder \"ids/mismatch\""),
        id_case(c, "id-empty", "ids/empty", "", "model id is empty"),
        id_case(c, "id-reserved-namespace", "assets/pwned", "assets/pwned", "namespace \"assets\" is reserved for the site's own pages"),
    ];
    c.record("ids/missing", r#"{"tags": []}"#);
    cases.push(case("id-missing", syntax_error("ids/missing/model.json", 1, 12, "missing field `id`")));
    c.record("ids/number", r#"{"id": 5}"#);
    cases.push(case("id-not-a-string", syntax_error("ids/number/model.json", 1, 8, "invalid type: integer `5`, expected a string")));
    // Two ids that differ only by case: the first in sort order keeps its page.
    c.record("twins/Model", r#"{"id": "twins/Model"}"#);
    c.record("twins/model", r#"{"id": "twins/model"}"#);
    cases.push(case("id-case-twin-kept", page("twins/Model", &[])));
    cases.push(case(
        "id-case-twin-refused",
        error("twins/model/model.json", "id \"twins/model\" differs from \"twins/Model\" only by case"),
    ));
    // A folder name that would recolour or retitle the terminal showing the log.
    c.record("ids/esc-\u{1b}[31mred\u{1b}]0;pwned\u{7}", r#"{"id": "ids/esc"}"#);
    cases.push(case(
        "id-folder-terminal-escapes",
        error("ids/esc-\\u{1b}[31mred\\u{1b}]0;pwned\\u{7}/model.json", "id \"ids/esc\" does not match its folder"),
    ));
    let dir = c.raw_folder("ids", b"bad-\xff\xfe");
    std::fs::write(dir.join("model.json"), br#"{"id": "ids/bad"}"#).unwrap();
    cases.push(case("id-folder-not-utf8", error("ids/bad-\u{FFFD}\u{FFFD}", "folder name is not valid UTF-8")));
    cases
}

fn json_files(c: &Corpus) -> Vec<Case> {
    c.record("json/invalid", "{\"id\": \"json/invalid\",, \"tags\": []}");
    c.record("json/truncated", "{\"id\": \"json/truncated\",\n \"tags\": [\"a\"");
    c.record("json/empty", "");
    c.file("models/json/bom/model.json", b"\xEF\xBB\xBF{\"id\": \"json/bom\", \"tags\": [\"after-a-bom\"]}");
    c.file("models/json/not-utf8/model.json", b"{\"id\": \"json/not-utf8\",\n \"tags\": [\"\xff\xfe\"]}");
    let depth = 10_000;
    c.record("json/deep", &format!("{{\"id\": \"json/deep\", \"config\": {}{}}}", "[".repeat(depth), "]".repeat(depth)));
    // 50 MB of valid JSON: refused by size before it is read.
    let huge = format!("{{\"id\": \"json/huge\", \"padding\": \"{}\"}}", "x".repeat(50 << 20));
    c.record("json/huge", &huge);
    std::fs::create_dir_all(c.models.join("json/folder/model.json")).unwrap();
    vec![
        case("json-invalid", syntax_error("json/invalid/model.json", 1, 23, "key must be a string")),
        case("json-truncated", syntax_error("json/truncated/model.json", 2, 13, "EOF while parsing a list")),
        case("json-empty-file", syntax_error("json/empty/model.json", 1, 0, "EOF while parsing a value")),
        case("json-byte-order-mark", page("json/bom", &["after-a-bom"])),
        case("json-invalid-utf8", syntax_error("json/not-utf8/model.json", 2, 12, "invalid unicode code point")),
        case("json-10000-deep", syntax_error("json/deep/model.json", 1, 157, "recursion limit exceeded")),
        case("json-50-mb", error("json/huge/model.json", &format!("is {} bytes; at most 16777216 bytes (16 MiB) are read", huge.len()))),
        case("json-model-json-is-a-folder", error("json/folder/model.json", "is not a regular file")),
    ]
}

/// A record with one field of the wrong type: an error at that field.
fn typed(c: &Corpus, name: &'static str, folder: &str, field: &str, column: usize, message: &str) -> Case {
    c.record(folder, &format!("{{\"id\": \"{folder}\", {field}}}"));
    case(name, syntax_error(&format!("{folder}/model.json"), 1, column, message))
}

/// Every field the generators read, with a value of the wrong type. Typed
/// fields fail the record; free-form JSON fields (`config`, `cardData`,
/// `inferenceProviderMapping`) are read defensively and give a page.
fn wrong_types(c: &Corpus) -> Vec<Case> {
    let mut cases = vec![
        typed(c, "type-pipeline-tag", "types/task", r#""pipeline_tag": 7"#, 38, "invalid type: integer `7`, expected a string"),
        typed(c, "type-library-name", "types/library", r#""library_name": ["transformers"]"#, 40, "invalid type: sequence, expected a string"),
        typed(c, "type-tags", "types/tags", r#""tags": "a""#, 32, "invalid type: string \"a\", expected a sequence"),
        typed(c, "type-tag-item", "types/tag-item", r#""tags": [{"x": 1}]"#, 34, "invalid type: map, expected a string"),
        typed(c, "type-transformers-info", "types/info", r#""transformersInfo": "AutoModel""#, 52, "invalid type: string \"AutoModel\", expected struct TransformersInfo"),
        typed(c, "type-auto-model", "types/auto-model", r#""transformersInfo": {"auto_model": 3}"#, 63, "invalid type: integer `3`, expected a string"),
        typed(c, "type-widget-data", "types/widget", r#""widgetData": {"text": "x"}"#, 37, "invalid type: map, expected a sequence"),
        typed(c, "type-widget-text", "types/widget-text", r#""widgetData": [{"text": ["x"]}]"#, 52, "invalid type: sequence, expected a string"),
        typed(c, "type-sentences", "types/sentences", r#""widgetData": [{"sentences": "x"}]"#, 58, "invalid type: string \"x\", expected a sequence"),
        typed(c, "type-siblings", "types/siblings", r#""siblings": {"rfilename": 1}"#, 37, "invalid type: map, expected a sequence"),
        typed(c, "type-downloads", "types/downloads", r#""downloads": -1"#, 41, "invalid value: integer `-1`, expected u64"),
        typed(c, "type-last-modified", "types/modified", r#""lastModified": 1700000000"#, 51, "invalid type: integer `1700000000`, expected a string"),
    ];
    let odd_config = json!({
        "architectures": "NotAList",
        "peft": {"task_type": 5, "base_model_name_or_path": ["x"]},
        "sklearn": {"model": "not-a-map", "model_format": 3},
        "speechbrain": {"speechbrain_interface": {"nested": true}},
        "keras_hub": {"tasks": "CausalLM"},
        "adapter_transformers": {"model_name": null}
    });
    for (name, library) in [
        ("type-config-peft", "peft"),
        ("type-config-sklearn", "sklearn"),
        ("type-config-speechbrain", "speechbrain"),
        ("type-config-keras-hub", "keras-hub"),
        ("type-config-adapter-transformers", "adapter-transformers"),
        ("type-config-transformers", "transformers"),
    ] {
        let id = format!("types/config-{library}");
        let record = json!({"id": id, "library_name": library, "pipeline_tag": "text-generation", "config": odd_config,
                            "transformersInfo": {"auto_model": null}});
        c.record(&id, &record.to_string());
        cases.push(case(name, page(&id, &[])));
    }
    let odd_fields = [
        ("type-card-data-list", "types/card-data", json!({"cardData": ["base_model", 5], "library_name": "peft"})),
        ("type-card-data-values", "types/card-values", json!({"cardData": {"base_model": 5, "instance_prompt": {"a": 1}}, "library_name": "diffusers", "pipeline_tag": "text-to-image"})),
        ("type-mapping-string", "types/mapping-string", json!({"inferenceProviderMapping": "fal-ai", "pipeline_tag": "text-to-image"})),
        ("type-mapping-junk", "types/mapping-junk", json!({"inferenceProviderMapping": [1, "x", null, {"provider": 5}, {"provider": "together", "providerId": ["x"]}], "pipeline_tag": "text-generation", "tags": ["conversational"]})),
        ("type-mapping-entries", "types/mapping-entries", json!({"inferenceProviderMapping": {"fal-ai": "live", "together": {"status": 1}, "": {"providerId": "x"}}, "pipeline_tag": "text-to-image"})),
    ];
    for (name, id, mut record) in odd_fields {
        record["id"] = json!(id);
        c.record(id, &record.to_string());
        cases.push(case(name, page(id, &[])));
    }
    cases
}

/// A card with hostile markup between two paragraphs that must survive.
fn card_case(c: &Corpus, name: &'static str, markdown: &str) -> Case {
    let case = card_case_losing_tail(c, name, markdown);
    let Expect::Page { id, .. } = &case.expect else { unreachable!() };
    Case { expect: page(id, &["visible text before", "visible text after"]), ..case }
}

/// Like [`card_case`] for markup that leaves an element open: the sanitiser
/// drops it with everything after it, so only the text before must survive.
fn card_case_losing_tail(c: &Corpus, name: &'static str, markdown: &str) -> Case {
    let id = format!("cards/{}", name.trim_start_matches("card-"));
    c.record(&id, &json!({ "id": id }).to_string());
    c.card(&id, &format!("# Card {name}\n\nvisible text before\n\n{markdown}\n\nvisible text after\n"));
    case(name, page(&id, &["visible text before"]))
}

fn cards(c: &Corpus) -> Vec<Case> {
    let mut cases = vec![
        card_case(c, "card-script", "<script>window.__pwned=1</script>\n\n<SCRIPT SRC=//evil.example/x.js></SCRIPT>\n\n<script type=module>window.__pwned=1</script>"),
        card_case(c, "card-img-onerror", "<img src=x onerror=\"window.__pwned=1\">\n\n<img src=x onerror=window.__pwned=1 alt=x>\n\n<body onload=window.__pwned=1>\n\n<details open ontoggle=\"window.__pwned=1\">x</details>"),
        card_case(c, "card-iframe", "<iframe src=\"javascript:window.__pwned=1\"></iframe>\n\n<iframe srcdoc=\"<script>parent.__pwned=1</script>\"></iframe>\n\n<iframe src=\"https://evil.example/\"></iframe>"),
        card_case(c, "card-javascript-links", "[click](javascript:window.__pwned=1)\n\n<a href=\"JaVaScRiPt:window.__pwned=1\">x</a>\n\n<a href=\"java&#x09;script:window.__pwned=1\">tab</a>\n\n<a href=\"&#106;avascript:window.__pwned=1\">entity</a>\n\n<a href=\" javascript:window.__pwned=1\">space</a>\n\n[ref][r]\n\n[r]: javascript:window.__pwned=1"),
        card_case(c, "card-data-links", "[d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)\n\n<a href=\"data:text/html,<script>window.__pwned=1</script>\">d</a>\n\n<img src=\"data:image/svg+xml,<svg onload='window.__pwned=1'/>\">\n\n![img](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9J3dpbmRvdy5fX3B3bmVkPTEnLz4=)"),
        card_case(c, "card-svg-script", "<svg><script>window.__pwned=1</script></svg>\n\n<svg onload=\"window.__pwned=1\"><circle r=1 /></svg>\n\n<svg><a xlink:href=\"javascript:window.__pwned=1\"><text>x</text></a></svg>\n\n<svg><animate onbegin=window.__pwned=1 attributeName=x dur=1s>"),
        card_case(c, "card-style-tricks", "<style>body{background:url(https://evil.example/x.png)} @import url(https://evil.example/x.css);</style>\n\n<div style=\"background-image:url(javascript:window.__pwned=1)\">styled</div>\n\n<link rel=stylesheet href=https://evil.example/x.css>\n\n<p style=\"position:fixed;top:0;left:0;width:100%;height:100%\">overlay</p>"),
        card_case(c, "card-comment-hiding", "<!-- <script>window.__pwned=1</script> -->\n\n<!--><script>window.__pwned=1</script>-->\n\n<!-- x --!><img src=x onerror=window.__pwned=1>\n\n<![CDATA[<script>window.__pwned=1</script>]]>\n\n<? <img src=x onerror=window.__pwned=1> ?>\n\n<!--[if IE]><script>window.__pwned=1</script><![endif]-->"),
        card_case_losing_tail(c, "card-mutation-xss", "<math><mtext><table><mglyph><style><img src=x onerror=window.__pwned=1></style></mglyph></table></mtext></math>\n\n<noscript><p title=\"</noscript><img src=x onerror=window.__pwned=1>\"></noscript>\n\n<template><script>window.__pwned=1</script></template>\n\n<form><math><mtext></form><form><mglyph><svg><mtext><style><path id=\"</style><img onerror=window.__pwned=1 src>\">"),
        card_case(c, "card-meta-base-form", "<meta http-equiv=\"refresh\" content=\"0;url=javascript:window.__pwned=1\">\n\n<base href=\"https://evil.example/\">\n\n<form action=\"javascript:window.__pwned=1\"><button formaction=\"javascript:window.__pwned=1\">go</button></form>\n\n<object data=\"javascript:window.__pwned=1\"></object>\n\n<embed src=\"javascript:window.__pwned=1\">\n\n<input autofocus onfocus=window.__pwned=1>"),
        card_case(c, "card-code-breakout", "```python\" onmouseover=\"window.__pwned=1\nx = 1 </code></pre><script>window.__pwned=1</script>\n```\n\n`</code><script>window.__pwned=1</script>`\n\n    indented </pre><img src=x onerror=window.__pwned=1>"),
        card_case(c, "card-placeholder-forgery", "\u{E000}code-block-0\u{E000}\n\n<p>\u{E000}code-block-1\u{E000}</p>\n\n```\n<script>window.__pwned=1</script>\n```"),
        card_case(c, "card-remote-images", "![a](https://evil.example/a.png)\n\n<img src=\"//evil.example/b.png\" alt=\"b\">\n\n<img src=\"/\\evil.example/c.png\" alt=\"c\">\n\n<img srcset=\"https://evil.example/d.png 2x\" alt=\"d\">\n\n<video poster=\"https://evil.example/e.png\"></video>"),
    ];
    // Formulas are MathML of an allowlist or code; references never leave
    // the model's folder; a card's ids never take the page's.
    let math = "$$\\text{<script>window.__pwned=1</script>}$$ $$\\href{javascript:window.__pwned=1}{x}$$\n\n\
                \\\\(<img src=x onerror=window.__pwned=1>\\\\) $$\\mathrm{<style>}$$\n\n\
                <table><tr><td title=\"$$x\">\\\\(x\" onmouseover=\"window.__pwned=1\\\\)</td><td>$$\\text{<img src=x onerror=window.__pwned=1>}$$</td></tr></table>\n\n$$";
    let deep = format!("{math}{}x{}$$", "{".repeat(200), "}".repeat(200));
    cases.push(Case { notes: vec!["1 formula shown as code (nested deeper than 32 levels)".into()], ..card_case(c, "card-math-payloads", &deep) });
    let escapes = "![up](../../fs/x.png) <img src=\"%2e%2e/%2e%2e/x.png\" alt=\"enc\"> [abs](/etc/passwd)\n\n\
                   <video src=\"javascript:window.__pwned=1\"></video> <audio><source src=\"../x.wav\"></audio>\n\n\
                   <h1 id=\"main\">forged main</h1> <a href=\"#main\">to main</a> <a href=\"#card-heading\">to card</a>";
    cases.push(Case { notes: vec!["3 references leaving the model's folder".into()], ..card_case(c, "card-relative-escapes", escapes) });
    // Front matter values are shown as metadata: escaped text, never markup.
    c.record("cards/front-matter", r#"{"id": "cards/front-matter"}"#);
    c.card("cards/front-matter", &format!(
        "---\nlicense: \"<script>window.__pwned=1</script>\"\ntags:\n- {}\nbase_model: \"<img src=x onerror=window.__pwned=1>\"\n---\nvisible body\n",
        quoted(payload_text())
    ));
    cases.push(case("card-front-matter", page("cards/front-matter", &["<script>window.__pwned=1</script>", payload_text(), "visible body"])));
    // Errors: the card is named, the model fails.
    c.record("cards/huge", r#"{"id": "cards/huge"}"#);
    let huge = format!("# big\n\n{}", "<img src=x onerror=window.__pwned=1> lots of text\n".repeat((20 << 20) / 50));
    c.card("cards/huge", &huge);
    cases.push(case("card-20-mb", error("cards/huge/README.md", &format!("is {} bytes; at most 8388608 bytes (8 MiB) are read", huge.len()))));
    c.record("cards/not-utf8", r#"{"id": "cards/not-utf8"}"#);
    c.file("models/cards/not-utf8/README.md", b"# card\n\n\xff\xfe<script>window.__pwned=1</script>");
    cases.push(case("card-invalid-utf8", error("cards/not-utf8/README.md", "not valid UTF-8")));
    c.record("cards/bad-yaml", r#"{"id": "cards/bad-yaml"}"#);
    c.card("cards/bad-yaml", "---\nlicense: [unclosed\n---\nbody\n");
    // Placed in the card file: the YAML's second line is the file's third.
    cases.push(case("card-front-matter-invalid", syntax_error("cards/bad-yaml/README.md", 3, 1, "front matter is not valid YAML")));
    // A "billion laughs": nine levels of aliases, each nine times the last.
    let mut bomb = String::from("---\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (level, prev) in ('b'..='i').zip('a'..='h') {
        bomb.push_str(&format!("{level}: &{level} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
    }
    bomb.push_str("license: *i\n---\nbody\n");
    c.record("cards/yaml-bomb", r#"{"id": "cards/yaml-bomb"}"#);
    c.card("cards/yaml-bomb", &bomb);
    // A field the page shows that cannot be read within bounds is left out
    // with a note; the model builds.
    let noted = |name, expect, note: &str| Case { notes: vec![note.to_owned()], ..case(name, expect) };
    cases.push(noted("card-yaml-alias-bomb", page("cards/yaml-bomb", &["body"]), "cards/yaml-bomb: README.md: front matter `license` ignored: "));
    // Under a key no page shows, it is not even expanded.
    c.record("cards/yaml-bomb-elsewhere", r#"{"id": "cards/yaml-bomb-elsewhere"}"#);
    c.card("cards/yaml-bomb-elsewhere", &bomb.replace("license: *i", "widget: *i\nlicense: mit"));
    cases.push(case("card-yaml-alias-bomb-unknown-key", page("cards/yaml-bomb-elsewhere", &["body", "mit"])));
    c.record("cards/yaml-deep", r#"{"id": "cards/yaml-deep"}"#);
    c.card("cards/yaml-deep", &format!("---\nlicense: {}{}\n---\nbody\n", "[".repeat(10_000), "]".repeat(10_000)));
    cases.push(noted(
        "card-yaml-10000-deep",
        page("cards/yaml-deep", &["body"]),
        "cards/yaml-deep: README.md: front matter `license` ignored: recursion limit exceeded",
    ));
    cases
}

/// Cards made to cost as much as they can (issue 16): each once took minutes
/// or gigabytes; now each is shown within the limits on what a card may cost.
fn costly_cards(c: &Corpus) -> Vec<Case> {
    let code = "abcdefghij".repeat(10_000);
    let formatting: String = (0..200).map(|i| format!("<b id={i}>")).collect();
    vec![
        // Placeholders forged around a 100 KB block made a 1 GB page.
        card_case(c, "card-forged-placeholders", &format!("<div>x</div>\n\n```\n{code}\n```\n\n{}", "\u{E000}code-block-0\u{E000}\n\n".repeat(10_000))),
        card_case(c, "card-40000-code-blocks", &format!("<b>x</b>\n\n{}", "```\nx\n```\n\n".repeat(40_000))),
        card_case(c, "card-100000-nested-divs", &"<div>".repeat(100_000)),
        card_case(c, "card-100000-quotes", &">".repeat(100_000)),
        card_case(c, "card-reopened-formatting", &format!("<div>{formatting}</div>{}", "<div>x</div>".repeat(2000))),
        // 2 MiB of footnotes make more HTML than a card of its size may.
        card_case(c, "card-dense-footnotes", &(0..80_000).map(|i| format!("x[^{i}]\n\n[^{i}]: y\n\n")).collect::<String>()),
        // Rows padded to a 512-column header: 21 KB made a 17 MB page, 1 MB
        // aborted the build.
        Case {
            notes: vec!["cards/padded-tables: card: its tables would be padded with up to".into()],
            ..card_case(c, "card-padded-tables", &format!("|{}\n|{}\n{}\n", "a|".repeat(512), "-|".repeat(512), "x\n".repeat(512)).repeat(300))
        },
        // 64 quotes opened and closed by every paragraph: 26 bytes a byte.
        Case {
            notes: vec!["cards/deep-quotes: card: its HTML would be over the".into()],
            ..card_case(c, "card-deep-quotes", &format!("{} x\n\n", ">".repeat(64)).repeat(3_000))
        },
    ]
}

/// Records whose every string field a generator reads holds [`PAYLOAD`],
/// one per (library, task) whose templates quote those fields.
fn values(c: &Corpus) -> Vec<Case> {
    let combos: &[(&'static str, &str, Option<&str>)] = &[
        ("values-transformers-chat", "transformers", Some("text-generation")),
        ("values-transformers-question-answering", "transformers", Some("question-answering")),
        ("values-transformers-zero-shot", "transformers", Some("zero-shot-classification")),
        ("values-diffusers-text-to-image", "diffusers", Some("text-to-image")),
        ("values-sentence-similarity", "sentence-transformers", Some("sentence-similarity")),
        ("values-peft", "peft", Some("text-generation")),
        ("values-pocket-tts", "pocket-tts", Some("text-to-speech")),
        ("values-sklearn", "sklearn", Some("tabular-classification")),
        ("values-speechbrain", "speechbrain", Some("audio-classification")),
        ("values-keras-hub", "keras-hub", Some("text-generation")),
        ("values-adapter-transformers", "adapter-transformers", None),
        ("values-transformers-js", "transformers.js", Some("feature-extraction")),
    ];
    let mut cases = Vec::new();
    for (name, library, task) in combos {
        let id = format!("values/{}", name.trim_start_matches("values-"));
        let tags = vec!["conversational".to_owned(), "lora".to_owned()];
        let parts = RecordParts::filled(library, *task, tags, PAYLOAD);
        let mut record = record_json(&parts);
        record["id"] = json!(id);
        c.record(&id, &serde_json::to_string_pretty(&record).unwrap());
        cases.push(case(name, page(&id, &[payload_text()])));
    }
    // Names that would show reordered: `invoice\u{202e}gpj.exe` showed as
    // `invoiceexe.jpg`. The page shows the override as an escape.
    let id = "values/bidi-names";
    let siblings = json!([
        {"rfilename": "invoice\u{202e}gpj.exe", "size": 5},
        {"rfilename": "model\u{202e}-Q4_K_M.gguf", "size": 100},
        {"rfilename": "sub\u{2066}dir/x-Q8_0.gguf", "size": 100},
    ]);
    c.record(id, &json!({"id": id, "library_name": "gguf", "tags": ["gguf", "a\u{2067}b"], "siblings": siblings}).to_string());
    cases.push(case("values-bidi-names", page(id, &["invoice\\u{202e}gpj.exe", "sub\\u{2066}dir/", "a\\u{2067}b"])));
    cases
}

fn file_system(c: &Corpus) -> Vec<Case> {
    let outside = &c.outside;
    c.link("models/linked", &outside.join("ns"));
    c.link("models/fs/linked-model", &outside.join("ns/model"));
    std::fs::create_dir_all(c.models.join("fs/record-link")).unwrap();
    c.link("models/fs/record-link/model.json", &outside.join("secret.json"));
    c.record("fs/card-link", r#"{"id": "fs/card-link"}"#);
    c.link("models/fs/card-link/README.md", std::path::Path::new("/etc/passwd"));
    c.link("models/fs/loop", std::path::Path::new("loop"));
    std::fs::create_dir_all(c.models.join("fs/record-loop")).unwrap();
    c.link("models/fs/record-loop/model.json", std::path::Path::new("model.json"));
    std::fs::create_dir_all(c.models.join("fs/dangling")).unwrap();
    c.link("models/fs/dangling/model.json", &outside.join("no-such-file.json"));
    c.fifo("models/fs/fifo-record/model.json");
    c.record("fs/fifo-card", r#"{"id": "fs/fifo-card"}"#);
    c.fifo("models/fs/fifo-card/README.md");
    c.socket("models/fs/socket/model.json");
    c.card("fs/no-record", "# a card without a record\n");
    c.record("fs/card-folder", r#"{"id": "fs/card-folder"}"#);
    std::fs::create_dir_all(c.models.join("fs/card-folder/README.md")).unwrap();
    c.record("fs/unreadable-record", r#"{"id": "fs/unreadable-record"}"#);
    c.record("fs/unreadable-folder", r#"{"id": "fs/unreadable-folder"}"#);
    // Permission bits stop every user but root; as root these get pages.
    let record_reads = c.chmod("models/fs/unreadable-record/model.json", 0o000);
    let folder_reads = c.chmod("models/fs/unreadable-folder", 0o000);
    let link = "is a symbolic link; links are not followed";
    vec![
        case("fs-link-namespace-leaves-models", error("linked", "is a symbolic link; links under the models directory are not followed")),
        case("fs-link-model-leaves-models", error("fs/linked-model", "is a symbolic link; links under the models directory are not followed")),
        case("fs-link-record-leaves-models", error("fs/record-link/model.json", link)),
        case("fs-link-card-to-etc-passwd", error("fs/card-link/README.md", link)),
        case("fs-link-loop-folder", error("fs/loop", "is a symbolic link; links under the models directory are not followed")),
        case("fs-link-loop-record", error("fs/record-loop/model.json", link)),
        case("fs-link-dangling", error("fs/dangling/model.json", link)),
        case("fs-fifo-record", error("fs/fifo-record/model.json", "is not a regular file")),
        case("fs-fifo-card", error("fs/fifo-card/README.md", "is not a regular file")),
        case("fs-socket-record", error("fs/socket/model.json", "is not a regular file")),
        case("fs-no-record", error("fs/no-record", "no model.json in this model folder")),
        case("fs-card-is-a-folder", error("fs/card-folder/README.md", "is not a regular file")),
        case("fs-unreadable-record", if record_reads {
            page("fs/unreadable-record", &[])
        } else {
            error("fs/unreadable-record/model.json", "Permission denied")
        }),
        case("fs-unreadable-folder", if folder_reads {
            page("fs/unreadable-folder", &[])
        } else {
            error("fs/unreadable-folder", "Permission denied")
        }),
    ]
}

/// One part of a model that would cost a page or the build far more than
/// its size (issue 16): the model fails, or the part is dropped with a note.
fn input_limits(c: &Corpus) -> Vec<Case> {
    let noted = |name, expect, note: &str| Case { notes: vec![note.to_owned()], ..case(name, expect) };
    // A 100 KB anchor aliased 2,000 times: 200 MB once expanded.
    c.record("limits/yaml-aliases", r#"{"id": "limits/yaml-aliases"}"#);
    let aliases = vec!["*big"; 2_000].join(", ");
    c.card("limits/yaml-aliases", &format!("---\nbig: &big \"{}\"\nlicense: [{aliases}]\n---\nbody\n", "x".repeat(100_000)));
    // Three levels of ten aliases of a 10 KB string: 10 MB, within the
    // YAML parser's own limit on alias replays.
    c.record("limits/yaml-laughs", r#"{"id": "limits/yaml-laughs"}"#);
    let mut laughs = format!("---\na: &a \"{}\"\n", "lol".repeat(3_400));
    for (level, prev) in ['b', 'c', 'd'].into_iter().zip(['a', 'b', 'c']) {
        laughs.push_str(&format!("{level}: &{level} [{}]\n", vec![format!("*{prev}"); 10].join(", ")));
    }
    c.card("limits/yaml-laughs", &(laughs + "license: *d\n---\nbody\n"));
    // 4,000 well-formed providers the site does not know.
    let mut mapping = serde_json::Map::new();
    mapping.insert("together".into(), json!({"providerId": "x/y", "status": "live", "task": "conversational"}));
    for n in 0..4_000 {
        mapping.insert(format!("made-up-{n}"), json!({"providerId": "x/y", "status": "live", "task": "conversational"}));
    }
    let id = "limits/unknown-providers";
    c.record(id, &json!({"id": id, "pipeline_tag": "text-generation", "tags": ["conversational"], "inferenceProviderMapping": mapping}).to_string());
    // A LoRA whose weights path climbs into another repository.
    let id = "limits/adapter-path";
    let mapping = json!([{"provider": "fal-ai", "providerId": "fal-ai/flux-lora", "status": "live", "task": "text-to-image",
                          "adapter": "lora", "adapterWeightsPath": "../../../../attacker/repo/resolve/main/w.safetensors"}]);
    c.record(id, &json!({"id": id, "pipeline_tag": "text-to-image", "library_name": "diffusers", "inferenceProviderMapping": mapping}).to_string());
    // A FIFO and a link where a GGUF file would be.
    c.record("fs/fifo-gguf", r#"{"id": "fs/fifo-gguf"}"#);
    c.fifo("models/fs/fifo-gguf/m-Q4_K_M.gguf");
    c.record("fs/link-gguf", r#"{"id": "fs/link-gguf"}"#);
    c.link("models/fs/link-gguf/m-Q4_K_M.gguf", &c.outside.join("secret.json"));
    let expands = "ignored: expands to more than 1048576 bytes through YAML aliases";
    vec![
        noted("card-yaml-alias-100kb-x2000", page("limits/yaml-aliases", &["body"]), &format!("limits/yaml-aliases: README.md: front matter `license` {expands}")),
        noted("card-yaml-alias-nested-strings", page("limits/yaml-laughs", &["body"]), &format!("limits/yaml-laughs: README.md: front matter `license` {expands}")),
        noted("type-mapping-4000-unknown-providers", page("limits/unknown-providers", &[]),
              "limits/unknown-providers: 4000 providers are not known here and get no examples: \"made-up-0\""),
        noted("type-mapping-adapter-path-traversal", page("limits/adapter-path", &[]),
              "limits/adapter-path: provider \"fal-ai\" has an unusable adapter weights path \"../../../../attacker/repo/resolve/main/w.safetensors\""),
        noted("fs-fifo-gguf", page("fs/fifo-gguf", &[]), "fs/fifo-gguf/m-Q4_K_M.gguf: is not a regular file"),
        noted("fs-link-gguf", page("fs/link-gguf", &[]), "fs/link-gguf/m-Q4_K_M.gguf: is a symbolic link; links are not followed"),
    ]
}

/// The Hub's descriptive fields (issue 17) with hostile values: never a
/// failed model, one note per field naming it, no value copied into a note
/// whole; and a provider task that is a payload.
fn hub_fields(c: &Corpus) -> Vec<Case> {
    let noted = |name, expect, note: &str| Case { notes: vec![note.to_owned()], ..case(name, expect) };
    let id = "hub/gated-payload";
    c.record(id, &json!({"id": id, "gated": PAYLOAD, "pipeline_tag": "text-classification"}).to_string());
    let id = "hub/safetensors-long";
    let long = PAYLOAD.repeat(10_000);
    c.record(id, &json!({"id": id, "safetensors": {"parameters": {"BF16": long}}, "pipeline_tag": "text-classification"}).to_string());
    let id = "hub/model-index-list-metric";
    let index = json!([{"name": PAYLOAD, "results": [{"metrics": [{"type": "acc", "value": [1, 2]}]}]}]);
    c.record(id, &json!({"id": id, "model-index": index, "pipeline_tag": "text-classification"}).to_string());
    // This site's own flag of the wrong type: the model stays hidden.
    let id = "hub/hidden-string";
    c.record(id, &json!({"id": id, "hidden": "yes"}).to_string());
    // A file size that is no byte count.
    let id = "hub/sibling-size-negative";
    c.record(id, &json!({"id": id, "siblings": [{"rfilename": "a.bin", "size": -1}, {"rfilename": "b.bin", "size": 7}]}).to_string());
    let id = "hub/mapping-task-payload";
    c.record(id, &json!({"id": id, "inferenceProviderMapping": {"together": {"providerId": "x/y", "status": "live", "task": PAYLOAD}}}).to_string());
    vec![
        noted("type-hub-gated-payload", page("hub/gated-payload", &[]),
              "hub/gated-payload: model.json: `gated` ignored: expected false, \"auto\" or \"manual\", found another string"),
        noted("type-hub-safetensors-long-string", page("hub/safetensors-long", &[]),
              "hub/safetensors-long: model.json: `safetensors` ignored: invalid type: string \"MPHOSTILE"),
        noted("type-hub-model-index-list-metric", page("hub/model-index-list-metric", &[]),
              "hub/model-index-list-metric: model.json: `model-index` ignored: "),
        noted("type-hub-hidden-string", page("hub/hidden-string", &[]),
              "hub/hidden-string: model.json: `hidden` ignored: invalid type: string \"yes\", expected a boolean; the model is kept hidden"),
        noted("type-hub-sibling-size-negative", page("hub/sibling-size-negative", &["a.bin", "7 B"]),
              "hub/sibling-size-negative: model.json: `siblings[].size` ignored: invalid value: integer `-1`, expected u64 (1 file)"),
        noted("type-hub-mapping-task-payload", page("hub/mapping-task-payload", &[]),
              "hub/mapping-task-payload: no usage examples: no library (the record has no library_name); hosted inference does not serve task \"MPHOSTILE"),
    ]
}
