// The facts of model pages, in headless Chromium against the default
// corpus: files link to the hub's resolve URLs, tags link to the index
// search and the search then shows the tagged models, the model tree links a
// derivative to its base and the base back to it, a gated model says so,
// evaluation results are a table, downloads and likes come from the stats
// file (the counts island), and hidden fixtures stay out of the listings
// while their pages are built.
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

const format = (n) => new Intl.NumberFormat("en-US").format(n);

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
    for (const line of [/Model size\s+8\.03B params/, /Tensor types\s+BF16/, /Created\s+2024-07-18/, /Updated\s+2024-\d\d-\d\d/, /Popularity\s+Downloads last month and likes: in the site's stats file/]) {
      assert.match(facts, line);
    }
    assert.equal(await page.locator(".hub-link a").getAttribute("href"), `${HUB}/${BASE}`);
    // The fine-tune is not gated: no notice.
    const open = await harness.openPage(context, modelPath(FINETUNE));
    assert.equal(await open.locator(".gated-notice").count(), 0);
    await context.close();
  });

  test("downloads and likes come from the stats file, not the page", async () => {
    const record = JSON.parse(readFileSync(new URL(`../../../models/${BASE}/model.json`, import.meta.url), "utf8"));
    const figures = `${format(record.downloads)} downloads last month · ${format(record.likes)} likes`;
    // The page itself holds no figure: a day of moved counts leaves it as it is.
    const html = readFileSync(join(DIST, BASE, "index.html"), "utf8");
    for (const figure of [String(record.downloads), format(record.downloads), String(record.likes)]) {
      assert.ok(!html.includes(`>${figure}<`) && !html.includes(` ${figure} `), `the page shows ${figure}`);
    }
    // With JavaScript the island shows them, from one small file.
    const context = await harness.newContext();
    const before = harness.requests.length;
    const page = await harness.openPage(context, modelPath(BASE));
    const counts = page.locator(".facts .counts");
    await page.waitForFunction(() => document.querySelector(".facts .counts")?.dataset.counts === "loaded");
    assert.equal(await counts.innerText(), figures);
    const stats = harness.requests.slice(before).filter((url) => new URL(url).pathname.startsWith("/stats/"));
    assert.equal(stats.length, 1, JSON.stringify(stats));
    const bytes = readFileSync(join(DIST, new URL(stats[0]).pathname)).length;
    assert.ok(bytes < 20_000, `${bytes} bytes of stats`);
    await context.close();

    // Without it the page says where they are, and the file holds them.
    const plain = await harness.newContext({ javaScriptEnabled: false });
    const nojs = await harness.openPage(plain, modelPath(BASE));
    assert.equal(await nojs.locator(".facts .counts").innerText(), "Downloads last month and likes: in the site's stats file");
    const href = await nojs.locator(".facts .counts a").getAttribute("href");
    const file = JSON.parse(readFileSync(join(DIST, href), "utf8"));
    const [namespace, name] = BASE.split("/");
    assert.deepEqual(file.namespaces[namespace][name], [record.downloads, record.likes]);
    await plain.close();

    // A stats file that cannot be read leaves that note.
    const failing = await harness.newContext();
    const broken = await failing.newPage();
    await broken.route(`${harness.origin}/stats/**`, (route) => route.fulfill({ status: 503, body: "unavailable" }));
    await broken.goto(`${harness.origin}${modelPath(BASE)}`);
    await broken.waitForFunction(() => !document.querySelector(".facts .counts")?.hasAttribute("aria-busy"));
    assert.match(await broken.locator(".facts .counts").innerText(), /in the site's stats file/);
    await failing.close();
    // The browser itself logs the failed request; nothing else may go wrong.
    harness.problems.splice(0).forEach((problem) => assert.match(problem, /503.*\/stats\//));
  });

  test("a namespace's page shows its models' figures from its stats file and sorts by them", async () => {
    const namespace = "bartowski";
    const root = new URL("../../../models/", import.meta.url);
    const records = readdirSync(new URL(`${namespace}/`, root))
      .map((name) => JSON.parse(readFileSync(new URL(`${namespace}/${name}/model.json`, root), "utf8")))
      .filter((r) => r.hidden !== true);
    assert.ok(records.length >= 2);
    const byName = records.map((r) => r.id).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));
    const byDownloads = [...records].sort((a, b) => b.downloads - a.downloads).map((r) => r.id);
    assert.notDeepEqual(byName, byDownloads, "the two orders differ");
    const context = await harness.newContext();
    const page = await harness.openPage(context, `/${namespace}/`);
    const button = page.getByRole("button", { name: "Sort by downloads" });
    await button.waitFor();
    const rows = () => page.$$eval(".model-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.trim())));
    const shown = await rows();
    assert.deepEqual(shown.map((r) => r[0]), byName, "by name first, as without JavaScript");
    for (const row of shown) {
      const record = records.find((r) => r.id === row[0]);
      assert.deepEqual(row.slice(3), [format(record.downloads), format(record.likes)], row[0]);
    }
    await button.click();
    assert.deepEqual((await rows()).map((r) => r[0]), byDownloads);
    await page.getByRole("button", { name: "Sort by name" }).click();
    assert.deepEqual((await rows()).map((r) => r[0]), byName);
    await context.close();
    // Without JavaScript: by name, and where the figures are.
    const plain = await harness.newContext({ javaScriptEnabled: false });
    const nojs = await harness.openPage(plain, `/${namespace}/`);
    assert.match(await nojs.locator(".listing-counts").innerText(), /in the site's stats file/);
    assert.equal(await nojs.locator(".model-table thead th").count(), 3);
    await plain.close();
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
    assert.equal(await tag.getAttribute("href"), "/?tag=mergekit");
    await tag.click();
    await finetune.waitForURL("**/?tag=mergekit");
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
