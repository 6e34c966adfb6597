// The facts of model pages (issue 18), in headless Chromium against the
// default corpus: files link to the hub's resolve URLs, tags link to the
// index search and the search then shows the tagged models, the model tree
// links a derivative to its base and the base back to it, a gated model says
// so, evaluation results are a table, and hidden fixtures stay out of the
// listings while their pages are built.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CHAT_MODEL, DIST, modelPath, useHarness } from "./harness.mjs";

/** Gated, with safetensors and a files table with a folder (`original/`). */
const BASE = CHAT_MODEL;
/** A fine-tune of BASE with evaluation results. */
const FINETUNE = "arcee-ai/Llama-3.1-SuperNova-Lite";
const ADAPTER = "modelpages-examples/Llama-3.1-8B-Instruct-support-lora";
const MERGE = "modelpages-examples/Llama-3.1-8B-SuperNova-Instruct-slerp";
const QUANTIZED = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
const HUB = "https://huggingface.co";
/** A fixture record marked `"hidden": true`. */
const HIDDEN = "modelpages-fixtures/tiny-llama-GGUF";

let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

const linksIn = (page, selector) =>
  page.$$eval(selector, (as) => as.map((a) => ({ text: a.textContent.trim(), href: a.getAttribute("href") })));

describe("model facts", () => {
  test("files link to the hub's resolve URLs, folders grouped", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(BASE));
    const links = await linksIn(page, ".files-table a.file-link");
    const record = JSON.parse(readFileSync(new URL(`../../../models/${BASE}/model.json`, import.meta.url), "utf8"));
    assert.equal(links.length, record.siblings.length, "every file of the record is listed");
    for (const { rfilename } of record.siblings) {
      const name = rfilename.split("/").pop();
      const link = links.find((l) => l.href.endsWith(`/resolve/main/${rfilename}`));
      assert.ok(link, `${rfilename} has a link`);
      assert.equal(link.href, `${HUB}/${BASE}/resolve/main/${rfilename}`);
      assert.equal(link.text, name);
    }
    const folder = await page.locator(".files-table tbody[data-folder=original] .folder-row").innerText();
    assert.match(folder, /^original\/\s+3 files\s+16\.1 GB$/);
    assert.match(await page.locator(".files .lead").innerText(), /^17 files, 32\.1 GB in all\. Downloads need an accepted access request\.$/);
    await context.close();
  });

  test("a gated model says its files need an accepted request and links the hub", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(BASE));
    const notice = page.locator(".facts .gated-notice");
    assert.match(await notice.innerText(), /only after the authors accept an access request/);
    assert.equal(await notice.locator("a").getAttribute("href"), `${HUB}/${BASE}`);
    const facts = await page.locator(".facts-list").innerText();
    for (const line of [/Model size\s+8\.03B params/, /Tensor types\s+BF16/, /Created\s+2024-07-18/, /Updated\s+2024-\d\d-\d\d/, /Popularity\s+5\.8M downloads · [\d.]+k? likes?/]) {
      assert.match(facts, line);
    }
    assert.equal(await page.locator(".hub-link a").getAttribute("href"), `${HUB}/${BASE}`);
    // The fine-tune is not gated: no notice.
    const open = await harness.openPage(context, modelPath(FINETUNE));
    assert.equal(await open.locator(".gated-notice").count(), 0);
    await context.close();
  });

  test("evaluation results are a table with the verified mark", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(FINETUNE));
    const rows = await page.$$eval(".evals-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.trim())));
    assert.equal(rows.length, 6);
    assert.deepEqual(rows[0], ["Text Generation", "IFEval (0-Shot) (train)", "strict accuracy", "80.17", "self-reported"]);
    assert.deepEqual(rows[5].slice(1, 4), ["MMLU-PRO (5-shot) (main · test)", "accuracy", "31.97"]);
    assert.match(await page.locator(".evals").innerText(), /Source: Open LLM Leaderboard\./);
    await context.close();
  });

  test("the model tree links a derivative to its base and the base back to it", async () => {
    const context = await harness.newContext();
    const page = await harness.openPage(context, modelPath(FINETUNE));
    const bases = await linksIn(page, ".model-tree a.tree-base");
    assert.deepEqual(bases, [{ text: BASE, href: modelPath(BASE) }]);
    assert.match(await page.locator(".tree-bases").innerText(), new RegExp(`^Fine-tuned from ${BASE}$`));
    await page.locator(".model-tree a.tree-base").click();
    await page.waitForURL(`**${modelPath(BASE)}`);
    const groups = await page.locator(".model-tree .tree-group").allInnerTexts();
    assert.deepEqual(groups, ["1 fine-tune", "1 adapter", "1 quantized model", "1 merge"]);
    const derivatives = (await linksIn(page, ".model-tree a.tree-derivative")).map((l) => l.href);
    assert.deepEqual(derivatives, [FINETUNE, ADAPTER, QUANTIZED, MERGE].map(modelPath));
    // Its own base is not in the corpus: linked on the hub.
    assert.deepEqual(await linksIn(page, ".model-tree a.tree-base"), [{ text: "meta-llama/Llama-3.1-8B", href: `${HUB}/meta-llama/Llama-3.1-8B` }]);
    await page.locator(`.model-tree a.tree-derivative[href="${modelPath(FINETUNE)}"]`).click();
    await page.waitForURL(`**${modelPath(FINETUNE)}`);
    assert.equal(await page.locator("h1.model-id").innerText(), FINETUNE);
    // The merge names both parents, each on the site.
    const merge = await harness.openPage(context, modelPath(MERGE));
    assert.deepEqual((await linksIn(merge, ".model-tree a.tree-base")).map((l) => l.href), [FINETUNE, BASE].map(modelPath));
    await context.close();
  });

  test("tags are grouped, shown once, and link to the search, which shows the tagged models", async () => {
    const context = await harness.newContext();
    const page = await harness.openPage(context, modelPath(BASE));
    const groups = await page.$$eval(".tag-group", (divs) => divs.map((d) => d.dataset.group));
    assert.deepEqual(groups, ["task", "library", "language", "license", "paper", "other"]);
    const labels = await page.locator(".tag-group li").allInnerTexts();
    assert.equal(new Set(labels).size, labels.length, `no tag twice: ${labels}`);
    for (const internal of ["region:us", "endpoints_compatible", "autotrain_compatible", "text-generation-inference", "license:llama3.1"]) {
      assert.ok(!labels.includes(internal), `${internal} is not shown as a tag`);
    }
    assert.equal(await page.locator(".tag-group[data-group=task] a").getAttribute("href"), "/?task=text%2Dgeneration");
    assert.equal(await page.locator(".tag-group[data-group=paper] a").getAttribute("href"), "https://arxiv.org/abs/2204.05149");
    // Follow "mergekit" from the fine-tune: the search lists the models tagged with it.
    const finetune = await harness.openPage(context, modelPath(FINETUNE));
    const tag = finetune.locator(".tag-group[data-group=other] a", { hasText: /^mergekit$/ });
    assert.equal(await tag.getAttribute("href"), "/?q=mergekit");
    await tag.click();
    await finetune.waitForURL("**/?q=mergekit");
    await finetune.waitForFunction(() => document.querySelectorAll(".search-results .search-result-id").length > 0);
    const ids = await finetune.locator(".search-results .search-result-id").allTextContents();
    for (const id of [FINETUNE, MERGE]) {
      assert.ok(ids.includes(id), `${id} found by its tag: ${ids}`);
    }
    await context.close();
  });

  test("example inputs come from the record's widget data", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(ADAPTER));
    assert.deepEqual(await page.locator(".example-inputs q").allInnerTexts(), [
      "My order arrived damaged. What should I do?",
      "How do I reset my password?",
    ]);
    await context.close();
  });

  test("hidden fixtures have pages but no place in listings, sitemaps or the API listings", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(HIDDEN));
    assert.equal(await page.locator("h1.model-id").innerText(), HIDDEN);
    const listed = (dir) =>
      readdirSync(join(DIST, dir), { recursive: true })
        .filter((f) => /\.(xml|json|html)$/.test(f))
        .filter((f) => readFileSync(join(DIST, dir, f), "utf8").includes("modelpages-fixtures/"));
    assert.ok(existsSync(join(DIST, "search")) && existsSync(join(DIST, "api")));
    assert.deepEqual(listed("search"), []);
    assert.deepEqual(listed("api").filter((f) => !f.startsWith("models/")), []);
    const sitemaps = readdirSync(DIST, { recursive: true }).filter((f) => /^sitemaps?[/.].*xml$/.test(f));
    assert.ok(sitemaps.length > 0);
    assert.ok(sitemaps.every((f) => !readFileSync(join(DIST, f), "utf8").includes("modelpages-fixtures/")));
    // Neither is the namespace of fixtures listed.
    assert.ok(!existsSync(join(DIST, "modelpages-fixtures/index.html")));
    assert.ok(!readFileSync(join(DIST, "index.html"), "utf8").includes("modelpages-fixtures/"));
    await context.close();
  });
});
