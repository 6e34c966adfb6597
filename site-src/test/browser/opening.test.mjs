// What a Hub visitor meets first on a model page, in headless Chromium
// against the default corpus: the choice "Use this model" opens on (a GGUF
// repository's first local app, a model no provider serves saying so), the
// quantization table's "Use" links with and without JavaScript, the facts
// the Hub read from a GGUF repository's headers, the tags grouped by what
// they are, a files table without sizes, and every example of the opening
// choice showing its model id at 1366 px without scrolling sideways.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { CHAT_MODEL, IMAGE_MODEL, modelPath, standInRemoteImages, useHarness } from "./harness.mjs";

const GGUF = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
/** No provider serves it; it opens on its library. */
const UNSERVED = "HuggingFaceH4/zephyr-7b-beta";
/** Served, with no library: it opens on hosted inference. */
const HOSTED = "mistralai/Mistral-7B-Instruct-v0.3";
const WIDE = { width: 1366, height: 900 };

let harness;
// Cards' remote images are answered unsent.
const newContext = standInRemoteImages(afterEach, () => harness);
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

async function openReady(context, id) {
  const page = await harness.openPage(context, modelPath(id));
  await page.waitForSelector(".use-tabs[data-mounted] [role=tablist]");
  return page;
}

/** The label of the selected "Use this model" tab. */
function selectedUse(page) {
  return page.locator('.use-tabs [role=tab][aria-selected="true"]').textContent();
}

describe("the choice 'Use this model' opens on", () => {
  test("a GGUF repository opens on its first local app with the default quantization, picker shown", async () => {
    for (const javaScriptEnabled of [true, false]) {
      const context = await newContext({ viewport: WIDE, javaScriptEnabled });
      const page = javaScriptEnabled ? await openReady(context, GGUF) : await harness.openPage(context, modelPath(GGUF));
      if (javaScriptEnabled) {
        assert.equal(await selectedUse(page), "llama.cpp");
        assert.ok(await page.getByLabel("Quantization").isVisible(), "the quantization picker is shown");
        assert.equal(await page.getByLabel("Quantization").inputValue(), "Q4_K_M");
      } else {
        assert.equal(await page.locator(".use-panel details[open]").getAttribute("id"), "local-llama.cpp");
      }
      const command = await page.locator("#local-llama\\.cpp pre").first().innerText();
      assert.match(command, /llama-server -hf 'bartowski\/Meta-Llama-3\.1-8B-Instruct-GGUF:Q4_K_M'/);
      assert.match(await page.locator(".use-note").innerText(), /^No hosted inference provider serves this model yet/);
      assert.equal(await page.locator("#use-inference").isVisible(), javaScriptEnabled ? false : true);
      await context.close();
    }
  });

  test("a model no provider serves opens on its library, says so, and never on a remembered hosted inference", async () => {
    const context = await newContext({ viewport: WIDE });
    // Hosted inference chosen on a served model is remembered...
    let page = await openReady(context, CHAT_MODEL);
    assert.equal(await selectedUse(page), "Transformers");
    assert.equal(await page.locator(".use-note").count(), 0, "a served model has no such note");
    await page.locator(".use-tabs [role=tab]", { hasText: /^Hosted inference$/ }).click();
    await page.close();
    page = await openReady(context, IMAGE_MODEL);
    assert.equal(await selectedUse(page), "Hosted inference", "the choice is remembered on a served model");
    await page.close();
    // ...but not where no provider serves the model.
    page = await openReady(context, UNSERVED);
    assert.equal(await selectedUse(page), "Transformers");
    assert.match(await page.locator(".use-note").innerText(), /No hosted inference provider serves this model yet: run it with Transformers\./);
    const tabs = await page.locator(".use-tabs [role=tab]").allTextContents();
    assert.equal(tabs.at(-1), "Hosted inference", `hosted inference comes last: ${tabs}`);
    await page.locator(".use-tabs [role=tab]", { hasText: /^Hosted inference$/ }).click();
    assert.match(await page.locator("#use-inference .use-unserved").innerText(), /fail until one does/);
    await page.close();
    page = await openReady(context, HOSTED);
    assert.equal(await selectedUse(page), "Hosted inference", "a served model without a library opens on hosted inference");
    await context.close();
  });

  test("the quantization table's Use links show the chosen command, with JavaScript and without", async () => {
    const context = await newContext({ viewport: WIDE });
    const page = await openReady(context, GGUF);
    // From another choice: "Use" brings a local app back, with the quantization.
    await page.locator(".use-tabs [role=tab]", { hasText: /^Ollama$/ }).click();
    await page.locator(".use-tabs [role=tab]", { hasText: /^Hosted inference$/ }).click();
    await page.locator('.quant-table a.quant-use[data-quant="Q8_0"]').click();
    assert.equal(await selectedUse(page), "llama.cpp");
    const shown = page.locator("#local-llama\\.cpp pre").first();
    assert.match(await shown.innerText(), /llama-server -hf 'bartowski\/Meta-Llama-3\.1-8B-Instruct-GGUF:Q8_0'/);
    assert.ok(await shown.isVisible(), "the command is on screen");
    const inView = await shown.evaluate((pre) => {
      const box = pre.getBoundingClientRect();
      return box.top < window.innerHeight && box.bottom > 0;
    });
    assert.ok(inView, "the command is scrolled into view");
    assert.equal(await page.getByLabel("Quantization").inputValue(), "Q8_0");
    assert.equal(await page.locator(".quant-table tr.quant-selected").getAttribute("data-quant"), "Q8_0");
    assert.equal(new URL(page.url()).hash, "", "the link's own target is not followed");
    // While a local app is shown, "Use" keeps it.
    await page.locator(".use-tabs [role=tab]", { hasText: /^Ollama$/ }).click();
    await page.locator('.quant-table a.quant-use[data-quant="Q6_K"]').click();
    assert.equal(await selectedUse(page), "Ollama");
    assert.match(await page.locator("#local-ollama pre").first().innerText(), /:Q6_K'/);
    await context.close();

    // Without JavaScript the link leads to that quantization's command.
    const plain = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    const noJs = await harness.openPage(plain, modelPath(GGUF));
    assert.equal(await noJs.locator(".quant-command").first().isVisible(), false, "no command shows before a link is followed");
    await noJs.locator('.quant-table a.quant-use[data-quant="Q8_0"]').click();
    const target = noJs.locator(".quant-command:target");
    assert.equal(await target.getAttribute("data-quant"), "Q8_0");
    assert.ok(await target.isVisible());
    assert.match(await target.locator("figcaption").innerText(), /^llama\.cpp with Q8_0/);
    assert.match(await target.locator("pre").innerText(), /llama-server -hf 'bartowski\/Meta-Llama-3\.1-8B-Instruct-GGUF:Q8_0'/);
    // The default's link is the page's own command.
    assert.equal(await noJs.locator('.quant-table a.quant-use[data-quant="Q4_K_M"]').getAttribute("href"), "#local-1-1");
    await plain.close();
  });
});

describe("facts and tags", () => {
  test("a GGUF repository shows the parameters, architecture and context length the Hub read", async () => {
    const context = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(GGUF));
    const facts = await page.locator(".facts-list").innerText();
    for (const line of [/Model size\s+8\.03B params/, /Architecture\s+llama/, /Context length\s+131,072 tokens/]) {
      assert.match(facts, line);
    }
    assert.match(await page.locator(".gguf-facts").innerText(), /Architecture\s+llama[\s\S]*131,072 tokens[\s\S]*8\.03B params/);
    await context.close();
  });

  test("tags are grouped by what they are: tf, onnx and rust are libraries, not languages or others", async () => {
    const context = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    const group = async (page, key) => page.locator(`.tag-group[data-group=${key}] li`).allInnerTexts();
    // distilbert's record carries tf, onnx, rust, safetensors, pytorch and en.
    const page = await harness.openPage(context, modelPath("distilbert/distilbert-base-uncased-finetuned-sst-2-english"));
    const libraries = await group(page, "library");
    for (const library of ["TensorFlow", "ONNX", "Rust", "PyTorch", "Safetensors"]) {
      assert.ok(libraries.includes(library), `${library} among the libraries: ${libraries}`);
    }
    assert.deepEqual(await group(page, "language"), ["en"]);
    const other = await group(page, "other");
    for (const tag of ["tf", "onnx", "rust", "safetensors"]) assert.ok(!other.includes(tag), `${tag} not among other tags: ${other}`);
    // A library tag filters by the tag as the record writes it.
    assert.equal(await page.locator(".tag-group[data-group=library] a", { hasText: /^TensorFlow$/ }).getAttribute("href"), "/?tag=tf");
    await context.close();
  });

  test("a files table whose files have no size has no Size column", async () => {
    const context = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(UNSERVED));
    assert.deepEqual(await page.locator(".files-table thead th").allInnerTexts(), ["File"]);
    assert.ok((await page.locator(".files-table tbody tr").count()) > 10);
    assert.equal(await page.locator(".files-table td.num").count(), 0);
    const sized = await harness.openPage(context, modelPath(CHAT_MODEL));
    assert.deepEqual(await sized.locator(".files-table thead th").allInnerTexts(), ["File", "Size"]);
    await context.close();
  });
});

describe("examples at 1366 px", () => {
  test("each example of the opening choice shows its model id without scrolling sideways", async () => {
    const context = await newContext({ viewport: WIDE });
    for (const id of [GGUF, CHAT_MODEL, IMAGE_MODEL, UNSERVED, HOSTED]) {
      const page = await openReady(context, id);
      const measured = await page.evaluate((modelId) => {
        const choice = [...document.querySelectorAll(".use-panel details.use-choice")].find((d) => d.checkVisibility());
        const figures = [...choice.querySelectorAll("figure.example")].filter((f) => f.checkVisibility());
        return figures.map((figure) => {
          const pre = figure.querySelector("pre");
          const visibleRight = pre.getBoundingClientRect().left + pre.clientLeft + pre.clientWidth;
          const text = pre.textContent;
          const ends = [];
          // Each mention of the id: where its last character ends on screen.
          const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
          const nodes = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
          let offset = 0;
          const starts = nodes.map((node) => {
            const at = offset;
            offset += node.data.length;
            return at;
          });
          for (let at = text.indexOf(modelId); at >= 0; at = text.indexOf(modelId, at + 1)) {
            const last = at + modelId.length - 1;
            const index = starts.findLastIndex((start) => start <= last);
            const range = document.createRange();
            range.setStart(nodes[index], last - starts[index]);
            range.setEnd(nodes[index], last - starts[index] + 1);
            ends.push(range.getBoundingClientRect().right);
          }
          return { label: figure.querySelector("figcaption")?.textContent.trim(), scrollLeft: pre.scrollLeft, visibleRight, ends };
        });
      }, id);
      const withId = measured.filter((m) => m.ends.length > 0);
      assert.ok(withId.length >= 1, `${id}: an example of the opening choice names the model: ${JSON.stringify(measured)}`);
      for (const { label, scrollLeft, visibleRight, ends } of withId) {
        assert.equal(scrollLeft, 0);
        for (const end of ends) {
          assert.ok(end <= visibleRight + 0.5, `${id} (${label}): the id ends at ${end} px, the code is cut at ${visibleRight} px`);
        }
      }
      await page.close();
    }
    await context.close();
  });
});
