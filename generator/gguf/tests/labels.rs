//! Quantization labels of real-world file names, their order and the default.

use modelpages_gguf::{default_label, parse_quant_label, quant_order, QuantLabel};

/// File names as they appear in Hub repositories, and the label each has.
const NAMES: &[(&str, Option<&str>)] = &[
    // bartowski, TheBloke (dot before the label), official repos (lowercase)
    ("Llama-3.2-1B-Instruct-Q4_K_M.gguf", Some("Q4_K_M")),
    ("mistral-7b-instruct-v0.2.Q4_K_M.gguf", Some("Q4_K_M")),
    ("Meta-Llama-3.1-8B-Instruct-f32.gguf", Some("F32")),
    ("Llama-3.2-1B-Instruct-f16.gguf", Some("F16")),
    ("gemma-3-4b-it-q4_0.gguf", Some("Q4_0")),
    ("Qwen3-30B-A3B-Q8_0.gguf", Some("Q8_0")),
    ("Meta-Llama-3.1-8B-Instruct.i1-Q4_K_M.gguf", Some("Q4_K_M")),
    // the longest type where several start at the same place
    ("Meta-Llama-3.1-8B-Instruct-Q4_0_4_4.gguf", Some("Q4_0_4_4")),
    ("Meta-Llama-3.1-8B-Instruct-IQ4_XS.gguf", Some("IQ4_XS")),
    ("Meta-Llama-3.1-8B-Instruct-IQ2_XXS.gguf", Some("IQ2_XXS")),
    ("Mistral-7B-Instruct-v0.3-IQ3_XXS.gguf", Some("IQ3_XXS")),
    ("llama-7b-Q4_1_SOME_F16.gguf", Some("Q4_1_SOME_F16")),
    // size suffixes on a type
    ("gemma-2-9b-it-Q6_K_L.gguf", Some("Q6_K_L")),
    ("Meta-Llama-3.1-8B-Instruct-Q4_K_L.gguf", Some("Q4_K_L")),
    ("Qwen3-8B-IQ4_NL_XL.gguf", Some("IQ4_NL_XL")),
    // sharded, in a folder named after the quantization (two matches, the last wins)
    ("qwen2.5-7b-instruct-q4_k_m-00001-of-00002.gguf", Some("Q4_K_M")),
    ("Qwen2.5-72B-Instruct-Q4_K_M/Qwen2.5-72B-Instruct-Q4_K_M-00002-of-00002.gguf", Some("Q4_K_M")),
    ("DeepSeek-R1-Q2_K_XS/DeepSeek-R1-Q2_K_XS-00001-of-00005.gguf", Some("Q2_K_XS")),
    ("BF16/DeepSeek-R1-BF16-00001-of-00030.gguf", Some("BF16")),
    ("F16/Qwen3-8B-Q8_0.gguf", Some("Q8_0")),
    // unsloth's dynamic quantizations
    ("gemma-3-27b-it-UD-Q4_K_XL.gguf", Some("UD-Q4_K_XL")),
    ("UD-Q4_K_XL/Kimi-K2-Instruct-UD-Q4_K_XL-00001-of-00013.gguf", Some("UD-Q4_K_XL")),
    ("DeepSeek-R1-UD-IQ1_S/DeepSeek-R1-UD-IQ1_S-00001-of-00003.gguf", Some("UD-IQ1_S")),
    ("qwen3-ud-q2_k_xl.gguf", Some("UD-Q2_K_XL")),
    // MXFP4 as the alias of MXFP4_MOE, and the new FP4 kind
    ("gpt-oss-20b-mxfp4.gguf", Some("MXFP4")),
    ("openai_gpt-oss-20b-MXFP4_MOE.gguf", Some("MXFP4_MOE")),
    ("Qwen3.8-27B-NVFP4-Q5K-mtp.gguf", Some("NVFP4")),
    ("BitNet-b1.58-2B-TQ1_0.gguf", Some("TQ1_0")),
    // non-ASCII names
    ("modèle-français-Q5_K_M.gguf", Some("Q5_K_M")),
    ("模型-q8_0.gguf", Some("Q8_0")),
    // names without a label
    ("q38-ranks-sxc32768.gguf", None),
    ("phi-3-mini-4k-instruct-fp16.gguf", None),
    ("ggml-model.gguf", None),
    ("model-Q4_K.gguf", None),
    ("modelXQ4_0.gguf", None),
    ("model-Q8_0x.gguf", None),
];

#[test]
fn real_world_names() {
    let mut wrong = Vec::new();
    for (name, expected) in NAMES {
        let got = parse_quant_label(name).map(|l| l.as_str().to_owned());
        if got.as_deref() != *expected {
            wrong.push(format!("{name}: got {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_type_parses_to_itself_and_sorts_largest_first() {
    let order = quant_order();
    let mut labels: Vec<QuantLabel> =
        order.iter().rev().map(|name| parse_quant_label(&format!("model-{}.gguf", name.to_lowercase())).unwrap()).collect();
    labels.sort();
    let sorted: Vec<&str> = labels.iter().map(QuantLabel::as_str).collect();
    assert_eq!(sorted, order);
    assert_eq!(order[..4], ["F32", "BF16", "F16", "Q8_K_XL"]);
    assert_eq!(order.last(), Some(&"Q1_0"));
}

#[test]
fn aliases_and_suffixes_sort_with_their_type() {
    let mut labels: Vec<QuantLabel> = ["a-Q4_K_S", "a-MXFP4", "a-Q4_K_M", "a-UD-Q4_K_XL", "a-Q4_K_L", "a-Q6_K", "a-Q6_K_L", "a-NVFP4"]
        .iter()
        .map(|n| parse_quant_label(n).unwrap())
        .collect();
    labels.sort();
    let sorted: Vec<&str> = labels.iter().map(QuantLabel::as_str).collect();
    assert_eq!(sorted, ["Q6_K_L", "Q6_K", "UD-Q4_K_XL", "Q4_K_L", "Q4_K_M", "Q4_K_S", "MXFP4", "NVFP4"]);
}

fn default_of(names: &[&str]) -> Option<String> {
    let labels: Vec<QuantLabel> = names.iter().map(|n| parse_quant_label(&format!("m-{n}.gguf")).unwrap()).collect();
    default_label(&labels).map(|l| l.as_str().to_owned())
}

#[test]
fn default_is_the_nearest_at_or_below_q4_k_m() {
    let bartowski = ["IQ4_XS", "Q4_K_M", "Q5_K_M", "Q6_K", "Q8_0", "F16"];
    assert_eq!(default_of(&bartowski).as_deref(), Some("Q4_K_M"));
    assert_eq!(default_of(&["Q8_0", "Q4_K_S", "IQ4_XS", "Q5_K_M"]).as_deref(), Some("Q4_K_S"));
    assert_eq!(default_of(&["Q3_K_M", "Q2_K", "Q3_K_L"]).as_deref(), Some("Q3_K_L"));
    assert_eq!(default_of(&["Q4_K_L", "Q4_K_S", "Q4_K_M"]).as_deref(), Some("Q4_K_M"), "Q4_K_L is larger");
    assert_eq!(default_of(&["UD-Q4_K_XL", "Q5_K_M", "UD-Q3_K_XL"]).as_deref(), Some("UD-Q3_K_XL"));
    assert_eq!(default_of(&["UD-Q4_K_M", "Q4_K_M"]).as_deref(), Some("Q4_K_M"));
    // Nothing at or below: the smallest there is.
    assert_eq!(default_of(&["F16", "Q8_0", "Q6_K"]).as_deref(), Some("Q6_K"));
    assert_eq!(default_of(&["BF16"]).as_deref(), Some("BF16"));
    assert_eq!(default_of(&[]), None);
}
