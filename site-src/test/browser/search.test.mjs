// The model search island on the index page, in headless Chromium, against
// the browser site of the default corpus, built with listing sizes cut small
// (small-listings.toml: 10 results a page, shards of at most 12 models,
// downloads and likes orders of 25), so that its ~190 listed models fill many
// search files and common words have capped shards, as at hub scale. What
// the island should show is worked out here from the records themselves (the
// shape of the word trie, which the site chose, is read from its files).
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CHAT_MODEL, DIST, useHarness } from "./harness.mjs";
import { layoutShift, openSearch, waitForStatus } from "./search-page.mjs";
import { byDownloads, byLikes, byName, matches, rankedAsShown, readModels, wordsOf } from "../search-truth.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));
const MODELS = resolve(siteSrc, process.env.MODELPAGES_MODELS ?? "../models");
const LABEL = "Search by name, tag, task or library";

let harness;
let manifest;
let models;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  manifest = JSON.parse(readFileSync(join(DIST, "search/index.json"), "utf8"));
  models = readModels(MODELS);
});

const ids = (list) => list.map((m) => m.id);
/** The models the island searches for one word: all its matches, or the most downloaded when its shard is capped. */
const searched = (word) => models.filter((m) => matches(m, word)).slice(0, manifest.shard_models);
/** The most downloaded models with a word starting with `prefix`: the top of its node. */
const topOf = (prefix) =>
  new Set(ids(byDownloads(models.filter((m) => m.words.some((w) => w.startsWith(prefix)))).slice(0, manifest.shard_models)));

/**
 * How the island finds `word`: whether a leaf lists all its matches, and
 * the models whose figures the tops it fetches give (the top of the node
 * that answers the word, or of the nearest node above the leaf).
 */
function walk(word) {
  let hops = manifest.roots;
  let above = null;
  for (;;) {
    const hop = hops.find(([p]) => p.startsWith(word) || word.startsWith(p));
    if (hop === undefined) return { complete: true, known: new Set() };
    const [next, isNode] = hop;
    const node = JSON.parse(readFileSync(join(DIST, `search/${isNode ? "top" : "words"}/${next[0]}/${next}.json`), "utf8"));
    if (node.complete) return { complete: true, known: above === null ? new Set() : topOf(above) };
    if (word.length <= next.length) return { complete: false, known: topOf(next) };
    if (node.children.length === 0) return { complete: true, known: new Set() };
    above = next;
    hops = node.children;
  }
}

/** The first `ranked_models` by downloads of the listing searched (all models, or those `inScope`, a task's or library's). */
const listingTop = (inScope = () => true) => new Set(ids(byDownloads(models.filter(inScope)).slice(0, manifest.ranked_models)));

/**
 * What a query whose words are rare enough for a leaf shows, in order: the
 * tops fetched on the way and, the results being exact, the first models
 * by downloads of the listing searched give figures.
 */
function shownFor(query, inScope = () => true) {
  const known = new Set();
  for (const word of [...new Set(wordsOf(query))].sort((a, b) => b.length - a.length)) {
    const found = walk(word);
    found.known.forEach((id) => known.add(id));
    if (found.complete) {
      listingTop(inScope).forEach((id) => known.add(id));
      break;
    }
  }
  return rankedAsShown(models.filter((m) => matches(m, query)), known);
}

const format = (n) => new Intl.NumberFormat("en-US").format(n);
/** The status of `total` results shown in pages (a query's, or a namespace's). */
function statusText(total) {
  const pages = Math.max(1, Math.ceil(total / manifest.page_size));
  return `${format(total)} ${total === 1 ? "model" : "models"}${pages > 1 ? ` · page 1 of ${format(pages)}` : ""}`;
}
/** The status of a listing of `total` models ranked by downloads or likes: its first `ranked_models` in pages. */
function rankedStatus(total, page = 1) {
  const pages = Math.max(1, Math.ceil(Math.min(total, manifest.ranked_models) / manifest.page_size));
  return `${format(total)} ${total === 1 ? "model" : "models"}${pages > 1 ? ` · page ${page} of ${format(pages)}` : ""}`;
}

/** Opens the index with every response to /search/ recorded (URL and bytes). */
const openIndex = (context, query = "") => openSearch(harness, context, query);

const status = (page) => page.locator(".model-search .search-status");
const resultIds = (page) => page.locator(".search-results .search-result-id").allTextContents();

/** Waits until the island shows `total` results, the first page being `first` (ids). */
async function waitForResults(page, total, first) {
  await page.waitForFunction(
    ([wanted, ids]) =>
      document.querySelector(".model-search .search-status")?.textContent === wanted &&
      JSON.stringify([...document.querySelectorAll(".search-results .search-result-id")].map((a) => a.textContent)) ===
        JSON.stringify(ids),
    [statusText(total), first],
    { timeout: 5000 },
  );
}

describe("model search", () => {
  test("starts with the first page of all models, from the manifest and one listing page", async () => {
    const context = await harness.newContext();
    const { page, fetched } = await openIndex(context);
    for (const fallback of await page.locator("[data-fallback]").all()) {
      assert.equal(await fallback.isVisible(), false, "no-JavaScript fallback still shown");
    }
    assert.equal(await status(page).textContent(), rankedStatus(models.length));
    assert.deepEqual(await resultIds(page), ids(models.slice(0, manifest.page_size)));
    assert.deepEqual(
      fetched.map((f) => f.path),
      // The manifest, the facets' values for the filters, the first page.
      ["/search/index.json", "/search/facets.json", "/search/all/downloads/1.json"],
    );
    const manifestText = readFileSync(join(DIST, "search/index.json"), "utf8");
    assert.ok(!models.some((m) => manifestText.includes(`"${m.id}"`)), "the manifest names no model");

    await page.locator(".search-results .search-result-id").first().click();
    await page.waitForLoadState("load");
    assert.equal(new URL(page.url()).pathname, `/${models[0].id}/`);
    await context.close();
  });

  test("finds a word through its shards, one request a key at most", async () => {
    const context = await harness.newContext();
    const { page, fetched } = await openIndex(context);
    const before = fetched.length;
    await page.getByLabel(LABEL).pressSequentially("llama", { delay: 60 });
    const want = shownFor("llama");
    assert.ok(want.length > 2 && want.length <= manifest.shard_models, `${want.length} llama models`);
    // "lla" can match the same models as "llama": wait for the whole word's query.
    await page.waitForFunction(() => new URL(window.location.href).searchParams.get("q") === "llama");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    // The popular ones the top above the leaf names come first, with their figures.
    const known = walk("llama").known;
    assert.ok(known.size > 0 && want.some((m) => known.has(m.id)), "the top above the leaf ranks some of them");
    assert.match(await page.locator(".search-result-meta").first().textContent(), /downloads/);
    const requests = fetched.slice(before);
    // At most a word file a key, and the pages of the first models by downloads the open page had not read.
    const words = requests.filter((r) => /^\/search\/(words|top)\/l\//.test(r.path));
    const ranked = requests.filter((r) => /^\/search\/all\/downloads\/[0-9]+\.json$/.test(r.path));
    assert.ok(words.length >= 1 && words.length <= "llama".length, `${words.length} requests for 5 keys`);
    assert.ok(ranked.length < Math.ceil(manifest.ranked_models / manifest.page_size), JSON.stringify(ranked));
    assert.equal(words.length + ranked.length, requests.length, JSON.stringify(requests));
    const bytes = fetched.reduce((sum, r) => sum + r.bytes, 0);
    assert.ok(bytes < 40_000, `${bytes} bytes in all`);
    assert.equal(new URL(page.url()).searchParams.get("q"), "llama");
    await context.close();
  });

  test("a word with a leaf of its own ranks its popular models first, with their figures", async () => {
    // A word whose leaf hangs from the roots (no node above names any of
    // its models), whose matches by name and by downloads differ.
    const top = listingTop();
    const word = [...new Set(models.flatMap((m) => m.words))].sort().find((w) => {
      const found = walk(w);
      const hits = models.filter((m) => matches(m, w));
      const ranked = hits.filter((m) => top.has(m.id));
      return found.complete && found.known.size === 0 && hits.length >= 3 && ranked.length >= 2 &&
        ids(byName(hits)).join() !== ids(rankedAsShown(hits, top)).join();
    });
    assert.ok(word !== undefined, "the corpus has such a word");
    const context = await harness.newContext();
    const { page } = await openIndex(context, `?q=${word}`);
    const want = shownFor(word);
    await waitForResults(page, want.length, ids(want.slice(0, manifest.page_size)));
    assert.notDeepEqual(ids(want), ids(byName(want)), `${word}: not by name`);
    assert.match(await page.locator(".search-result-meta").first().textContent(), /downloads/);
    await context.close();
  });

  test("every word of a query must match; an exact id finds its model", async () => {
    const context = await harness.newContext();
    const { page } = await openIndex(context);
    const input = page.getByLabel(LABEL);
    for (const query of ["llama gguf", "meta-llama/Llama-3.1-8B-Instruct", "whisper LARGE", "no-such-model-anywhere"]) {
      await input.fill(query);
      await input.press("Enter");
      const want = shownFor(query);
      await waitForResults(page, want.length, ids(want.slice(0, manifest.page_size)));
      if (want.length === 0) {
        assert.match(await page.locator(".model-search .empty").textContent(), /No model matches/);
      }
    }
    assert.ok(models.filter((m) => matches(m, "meta-llama/Llama-3.1-8B-Instruct")).length >= 1);
    await context.close();
  });

  test("a common word shows its most downloaded models and says so", async () => {
    const context = await harness.newContext();
    const { page } = await openIndex(context, "?q=transformers");
    const all = models.filter((m) => matches(m, "transformers"));
    assert.ok(all.length > manifest.shard_models, `${all.length} transformers models`);
    const shown = all.slice(0, manifest.shard_models);
    await waitForStatus(page, statusText(shown.length));
    assert.deepEqual(await resultIds(page), ids(shown.slice(0, manifest.page_size)));
    assert.equal(
      await page.locator(".search-note").textContent(),
      `About ${format(all.length)} models match; the ${manifest.shard_models} most downloaded are searched. Add a word to narrow the search.`,
    );
    // With a rarer word as well, the results are exact again.
    await page.getByLabel(LABEL).fill("transformers whisper");
    await page.getByLabel(LABEL).press("Enter");
    const want = shownFor("transformers whisper");
    await waitForResults(page, want.length, ids(want.slice(0, manifest.page_size)));
    assert.equal(await page.locator(".search-note").count(), 0);
    await context.close();
  });

  test("filters by task and library browse their listings, with counts", async () => {
    const context = await harness.newContext();
    const { page, fetched } = await openIndex(context);
    const taskSelect = page.getByLabel("Task", { exact: true });
    const textGeneration = models.filter((m) => m.task === "text-generation");
    const label = manifest.tasks.find(([key]) => key === "text-generation")[1];
    assert.ok((await taskSelect.locator("option").allTextContents()).includes(`${label} (${textGeneration.length})`));
    await taskSelect.selectOption("text-generation");
    await waitForStatus(page, rankedStatus(textGeneration.length));
    assert.deepEqual(await resultIds(page), ids(textGeneration.slice(0, manifest.page_size)));
    assert.ok(fetched.some((f) => f.path === "/search/task/text-generation/downloads/1.json"));

    const librarySelect = page.getByLabel("Library", { exact: true });
    const want = textGeneration.filter((m) => m.library === "transformers");
    const transformers = manifest.libraries.find(([key]) => key === "transformers")[1];
    assert.ok((await librarySelect.locator("option").allTextContents()).includes(`${transformers} (${want.length})`));
    await librarySelect.selectOption("transformers");
    await waitForStatus(page, rankedStatus(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    assert.ok(fetched.some((f) => f.path === "/search/task-library/text-generation/transformers/downloads/1.json"));

    // Text with filters: the filters apply to the words' matches.
    await page.getByLabel(LABEL).fill("instruct");
    await page.getByLabel(LABEL).press("Enter");
    const pair = (m) => m.task === "text-generation" && m.library === "transformers";
    const instruct = (walk("instruct").complete ? shownFor("instruct", pair) : searched("instruct")).filter(pair);
    await waitForResults(page, instruct.length, ids(instruct.slice(0, manifest.page_size)));
    await context.close();
  });

  test("pages through a listing with previous and next, keeping the page in the URL", async () => {
    const context = await harness.newContext();
    const { page, fetched } = await openIndex(context);
    const size = manifest.page_size;
    const pages = Math.ceil(Math.min(models.length, manifest.ranked_models) / size);
    const next = page.getByRole("button", { name: "Next" });
    const previous = page.getByRole("button", { name: "Previous" });
    assert.equal(await previous.getAttribute("aria-disabled"), "true");
    await next.click();
    await waitForStatus(page, `${format(models.length)} models · page 2 of ${pages}`);
    assert.deepEqual(await resultIds(page), ids(models.slice(size, 2 * size)));
    assert.equal(await page.locator(".search-results").getAttribute("start"), String(size + 1));
    assert.equal(new URL(page.url()).searchParams.get("page"), "2");
    assert.ok(fetched.some((f) => f.path === "/search/all/downloads/2.json"), "one file a page");
    await page.reload();
    await page.waitForSelector(".search-results");
    assert.equal(await status(page).textContent(), `${format(models.length)} models · page 2 of ${pages}`);
    await previous.click();
    await waitForStatus(page, `${format(models.length)} models · page 1 of ${pages}`);
    await context.close();
  });

  test("sorts by likes and by name: the first of each order are listed", async () => {
    const context = await harness.newContext();
    const { page } = await openIndex(context);
    const sortSelect = page.getByLabel("Sort by");
    await sortSelect.selectOption("likes");
    await waitForStatus(page, rankedStatus(models.length));
    // The status reads the same in both orders: wait for the likes page itself.
    const firstByLikes = byLikes(models)[0].id;
    await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, firstByLikes);
    assert.deepEqual(await resultIds(page), ids(byLikes(models).slice(0, manifest.page_size)));
    assert.match(await page.locator(".search-note").textContent(), new RegExp(`^The first 25 of ${models.length} models are listed in this order`));

    // By name, every model, in pages named by their first model: no page numbers.
    await sortSelect.selectOption("name");
    const named = ids(byName(models));
    await page.waitForFunction((first) => document.querySelector(".search-result-id")?.textContent === first, named[0]);
    const first = await resultIds(page);
    assert.deepEqual(first, named.slice(0, first.length));
    assert.ok(first.length <= 3 * manifest.page_size);
    assert.equal(await status(page).textContent(), `${format(models.length)} models by name, from ${named[0]}`);
    await page.getByRole("button", { name: "Next" }).click();
    const after = named[first.length];
    await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, after);
    assert.equal(new URL(page.url()).searchParams.get("from"), after);
    const second = await resultIds(page);
    assert.deepEqual(second, named.slice(first.length, first.length + second.length));
    await page.getByRole("button", { name: "Previous" }).click();
    await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, named[0]);

    // Search results sort in the island.
    await page.getByLabel(LABEL).fill("llama");
    await page.getByLabel(LABEL).press("Enter");
    const llamas = ids(byName(models.filter((m) => matches(m, "llama"))));
    await waitForResults(page, llamas.length, llamas.slice(0, manifest.page_size));
    await context.close();
  });

  test("a namespace from the URL narrows the search, and can be left", async () => {
    const context = await harness.newContext();
    const namespace = "meta-llama";
    // Sorted by downloads in the island, from the namespace's stats file.
    const want = models.filter((m) => m.id.startsWith(`${namespace}/`));
    assert.ok(want.length >= 2);
    const { page, fetched } = await openIndex(context, `?namespace=${namespace}`);
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    assert.ok(fetched.some((f) => f.path === `/search/namespace/${namespace}/name/first.json`), JSON.stringify(fetched));
    await page.getByRole("button", { name: "Search all namespaces" }).click();
    await waitForStatus(page, rankedStatus(models.length));
    assert.equal(new URL(page.url()).searchParams.get("namespace"), null);
    await context.close();
  });

  test("can be used with the keyboard alone", async () => {
    const context = await harness.newContext();
    const { page } = await openIndex(context);
    let focusedLabel = null;
    for (let presses = 0; presses < 30; presses += 1) {
      await page.keyboard.press("Tab");
      focusedLabel = await page.evaluate(() => document.activeElement?.labels?.[0]?.textContent ?? null);
      if (focusedLabel === LABEL) break;
    }
    assert.equal(focusedLabel, LABEL);
    assert.ok(await page.evaluate(() => document.activeElement.matches(":focus-visible")));
    await page.keyboard.type("whisper");
    await page.keyboard.press("Enter"); // applies at once, without waiting for the pause
    await waitForStatus(page, statusText(models.filter((m) => matches(m, "whisper")).length));
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.labels?.[0]?.textContent), "Task");
    await context.close();
  });

  test("when the manifest cannot be loaded, the prerendered table stays", async () => {
    const context = await harness.newContext();
    const page = await context.newPage();
    await page.route(`${harness.origin}/search/index.json`, (route) =>
      route.fulfill({ status: 503, contentType: "text/plain", body: "unavailable" }),
    );
    await page.goto(`${harness.origin}/`);
    await page.waitForFunction(() =>
      /unavailable/.test(document.querySelector(".model-search .search-status")?.textContent ?? ""),
    );
    assert.ok(await page.locator("[data-fallback] table").isVisible());
    assert.equal(await page.locator(".search-results").count(), 0);
    // The browser itself logs the failed request; nothing else may go wrong.
    const unexpected = harness.problems.splice(0).filter((problem) => !problem.includes("/search/index.json"));
    assert.deepEqual(unexpected, []);
    await context.close();
  });

  test("without JavaScript the prerendered table and the listing pages stay", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, "/");
    assert.ok(await page.locator("[data-fallback] table").isVisible());
    assert.ok((await page.locator("[data-fallback] tbody tr").count()) > 0);
    assert.equal(await page.locator(".model-search").innerHTML(), "");
    // A task's front page ranks its most downloaded; its pages by name,
    // one plain link after another, hold every one of its models.
    await page.getByRole("link", { name: "task", exact: true }).click();
    await page.getByRole("link", { name: "Text Generation" }).click();
    const textGeneration = models.filter((m) => m.task === "text-generation");
    assert.ok(textGeneration.length > 20, "more than a front page of them");
    assert.deepEqual(await page.locator(".model-table tbody a").allTextContents(), ids(textGeneration.slice(0, 20)));
    await page.locator(".page-index-links a").first().click();
    const seen = [];
    for (;;) {
      seen.push(...(await page.locator(".model-table tbody a").allTextContents()));
      const next = page.locator("a[rel=next]");
      if ((await next.count()) === 0) break;
      await next.click();
    }
    assert.deepEqual(seen, ids(byName(textGeneration)));
    await context.close();
  });

  test("every tag link of a model page lists exactly the models carrying the tag", async () => {
    const context = await harness.newContext();
    const modelPage = await harness.openPage(context, `/${CHAT_MODEL}/`);
    const links = await modelPage.locator(".tag-groups a[href*='?tag=']").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    const tags = links.map((href) => new URL(href, "http://x/").searchParams.get("tag"));
    // Licence, languages (`de` is no prefix of FLUX.1-dev's words here), library tags and the rest.
    for (const wanted of ["license:llama3.1", "de", "en", "safetensors", "conversational"]) {
      assert.ok(tags.includes(wanted), `${wanted} among ${JSON.stringify(tags)}`);
    }
    for (const [i, tag] of tags.entries()) {
      const carrying = byDownloads(models.filter((m) => m.filters.has(tag)));
      assert.ok(carrying.some((m) => m.id === CHAT_MODEL), `${tag}: the page's own model carries it`);
      const { page } = await openIndex(context, links[i].replace(/^\//, ""));
      await waitForStatus(page, statusText(carrying.length));
      assert.deepEqual(await resultIds(page), ids(carrying.slice(0, manifest.page_size)), tag);
      // The whole set, by name, page after page, for the smaller ones.
      if (carrying.length <= 3 * manifest.page_size) {
        const seen = [];
        for (let n = 1; n <= Math.ceil(carrying.length / manifest.page_size); n += 1) {
          const { page: byNamePage } = await openIndex(context, `${links[i].replace(/^\//, "")}&sort=name&page=${n}`);
          await waitForStatus(byNamePage, `${statusText(carrying.length).replace(/page 1 of/, `page ${n} of`)}`);
          seen.push(...(await resultIds(byNamePage)));
          await byNamePage.close();
        }
        assert.deepEqual(seen, ids(byName(carrying)), tag);
      }
      await page.close();
    }
    await context.close();
  });

  test("a tag filter combines with a query and a task, and can be left", async () => {
    const context = await harness.newContext();
    const tag = "en";
    const want = byDownloads(models.filter((m) => m.filters.has(tag) && matches(m, "bert") && m.task === "token-classification"));
    assert.ok(want.length >= 2, "the corpus has such models");
    const { page } = await openIndex(context, `?tag=${tag}&q=bert&task=token-classification`);
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    await page.getByRole("button", { name: "Show every tag" }).click();
    const tokens = (m) => m.task === "token-classification";
    const untagged = shownFor("bert", tokens).filter(tokens);
    await waitForStatus(page, statusText(untagged.length));
    assert.equal(new URL(page.url()).searchParams.get("tag"), null);
    await context.close();
  });

  test("the home page and a query's page do not shift as the search replaces the listing (CLS at most 0.05)", async () => {
    const context = await harness.newContext({ viewport: { width: 1366, height: 900 } });
    for (const query of ["", "?q=llama", "?tag=en"]) {
      const cls = await layoutShift(harness, context, query);
      assert.ok(cls <= 0.05, `${query || "/"}: cumulative layout shift ${cls.toFixed(3)}`);
    }
    await context.close();
  });
});
