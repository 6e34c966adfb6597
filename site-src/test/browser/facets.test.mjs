// The search's facet filters (language, licence, provider, parameter range,
// memory) and orders, in headless Chromium, against the browser site of the
// default corpus built with listing sizes cut small (small-listings.toml: 10
// results a page, orders of 25). What each filter should show is worked out
// here from the records (search-truth.mjs), and the memory class from what
// each model's own page says it fits in.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DIST, useHarness } from "./harness.mjs";
import { layoutShift, openSearch, waitForStatus } from "./search-page.mjs";
import { MEMORY_SIZES, byDownloads, byLikes, byName, compareNames, fitsOnPage, matches, readModels } from "../search-truth.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));
const MODELS = resolve(siteSrc, process.env.MODELPAGES_MODELS ?? "../models");

let harness;
let manifest;
let models;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  manifest = JSON.parse(readFileSync(join(DIST, "search/index.json"), "utf8"));
  models = readModels(MODELS).map((m) => ({ ...m, fits: fitsOnPage(DIST, m.id) }));
});

const ids = (list) => list.map((m) => m.id);
const format = (n) => new Intl.NumberFormat("en-US").format(n);
const resultIds = (page) => page.locator(".search-results .search-result-id").allTextContents();
/** The status of `total` results in pages of the manifest's size; `atLeast` when the search read only part of its listing. */
function statusText(total, { page = 1, atLeast = false } = {}) {
  const pages = Math.max(1, Math.ceil(total / manifest.page_size));
  return `${atLeast ? "At least " : ""}${format(total)} ${total === 1 ? "model" : "models"}${pages > 1 ? ` · page ${page} of ${format(pages)}` : ""}`;
}
/** Most recently modified first, by day, then by name (README: recently updated). */
const byUpdated = (list) => [...list].sort((a, b) => (b.facets.updated ?? -1) - (a.facets.updated ?? -1) || compareNames(a.id, b.id));
const inRange = (m, low, high) => m.facets.params !== null && m.facets.params >= low && m.facets.params <= high;
const fitsIn = (m, gb) => m.fits !== null && m.fits <= gb;

/** Every result of the island's current list, page after page (Next until it is disabled). */
async function allPages(page) {
  const seen = [...(await resultIds(page))];
  const next = page.getByRole("button", { name: "Next" });
  while ((await next.count()) > 0 && (await next.getAttribute("aria-disabled")) !== "true") {
    const before = await page.locator(".model-search .search-status").textContent();
    await next.click();
    await page.waitForFunction((text) => document.querySelector(".model-search .search-status")?.textContent !== text, before);
    seen.push(...(await resultIds(page)));
  }
  return seen;
}

describe("search facets", () => {
  test("combined filters chosen in the controls give exactly the models that pass them all", async () => {
    const context = await harness.newContext({ viewport: { width: 1366, height: 900 } });
    const want = byName(
      models.filter(
        (m) => m.task === "text-generation" && m.facets.licenses.includes("apache-2.0") && m.facets.languages.includes("en") && inRange(m, 1, 8),
      ),
    );
    assert.ok(want.length >= 2, `${want.length} such models`);
    const { page, fetched } = await openSearch(harness, context, "?sort=name");
    await page.getByLabel("Task", { exact: true }).selectOption("text-generation");
    await page.getByLabel("Language", { exact: true }).selectOption("en");
    await page.getByLabel("Licence", { exact: true }).selectOption("apache-2.0");
    await page.getByLabel("Parameters from", { exact: true }).selectOption({ label: "1B" });
    await page.getByLabel("Parameters below", { exact: true }).selectOption({ label: "128B" });
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await allPages(page), ids(want));
    const url = new URL(page.url()).searchParams;
    assert.deepEqual(
      ["task", "language", "license", "params", "sort"].map((k) => url.get(k)),
      ["text-generation", "en", "apache-2.0", "1-8", "name"],
    );
    assert.equal(await page.locator(".search-note").count(), 0, "the whole base was read: no note");
    // The base read is the smallest listing of the chosen ones: the parameter classes'.
    assert.ok(fetched.some((f) => f.path.startsWith("/search/facet/params/")), JSON.stringify(fetched.map((f) => f.path)));
    await context.close();
  });

  test("the language filter names the languages the browser knows and keeps other tags as written", async () => {
    const context = await harness.newContext({ viewport: { width: 1366, height: 900 } });
    const facets = JSON.parse(readFileSync(join(DIST, "search/facets.json"), "utf8"));
    const counts = new Map(facets.language);
    const { page } = await openSearch(harness, context, "?sort=name");
    const select = page.getByLabel("Language", { exact: true });
    const optionText = async (value) => (await select.locator(`option[value="${value}"]`).textContent()).trim();
    for (const [tag, name] of [
      ["en", "English"],
      ["fr", "French"],
      ["zh", "Chinese"],
    ]) {
      assert.ok(counts.has(tag), `${tag} is a facet value`);
      assert.equal(await optionText(tag), `${name} · ${tag} (${format(counts.get(tag))})`);
    }
    // Record tags that are no language code stay as the record writes them.
    const others = ["multilingual", "code"].filter((tag) => counts.has(tag));
    assert.ok(others.length > 0, "the corpus has a language tag that is not a code");
    for (const tag of others) {
      assert.equal(await optionText(tag), `${tag} (${format(counts.get(tag))})`);
    }
    // The value chosen is still the tag.
    await select.selectOption({ label: `French · fr (${format(counts.get("fr"))})` });
    await page.waitForURL((url) => url.searchParams.get("language") === "fr");
    await context.close();
  });

  test("a query combines with facets: the word's matches that pass them", async () => {
    const context = await harness.newContext();
    const want = byName(models.filter((m) => matches(m, "llama") && m.facets.licenses.includes("llama3.1")));
    assert.ok(want.length >= 2 && models.filter((m) => matches(m, "llama")).length <= manifest.shard_models, "a word whose leaf lists all");
    const { page } = await openSearch(harness, context, "?q=llama&license=llama3.1&sort=name");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    await context.close();
  });

  test("each order is right: downloads, likes and recently updated, whole when the base is small", async () => {
    const context = await harness.newContext();
    const provider = "hf-inference";
    const served = models.filter((m) => m.facets.providers.includes(provider));
    assert.ok(served.length > manifest.page_size && served.length <= manifest.ranked_models, `${served.length} served by ${provider}`);
    for (const [sort, order] of [
      ["downloads", byDownloads],
      ["likes", byLikes],
      ["updated", byUpdated],
    ]) {
      const { page } = await openSearch(harness, context, `?provider=${provider}&sort=${sort}`);
      const want = order(served);
      await waitForStatus(page, statusText(want.length));
      await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, want[0].id);
      if (sort === "updated") {
        const day = new Date(want[0].facets.updated * 86_400_000).toISOString().slice(0, 10);
        assert.match(await page.locator(".search-result-meta").first().textContent(), new RegExp(`updated ${day}`));
      }
      assert.deepEqual(await allPages(page), ids(want), sort);
      assert.equal(await page.locator(".search-note").count(), 0, `${sort}: every match is listed`);
      await page.close();
    }
    await context.close();
  });

  test("recently updated without filters lists the first of every model by recency", async () => {
    const context = await harness.newContext();
    const { page } = await openSearch(harness, context, "?sort=updated");
    const want = byUpdated(models).slice(0, manifest.ranked_models);
    await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, want[0].id);
    assert.deepEqual(await allPages(page), ids(want));
    assert.match(await page.locator(".search-note").textContent(), new RegExp(`^The first ${manifest.ranked_models} of ${format(models.length)} models are listed in this order`));
    await context.close();
  });

  test("a ranked order of a large base says it lists the matches among its first, and links every match by name", async () => {
    const context = await harness.newContext();
    const licensed = models.filter((m) => m.facets.licenses.includes("apache-2.0"));
    assert.ok(licensed.length > manifest.ranked_models);
    const { page } = await openSearch(harness, context, "?license=apache-2.0&language=en");
    const want = byDownloads(licensed).slice(0, manifest.ranked_models).filter((m) => m.facets.languages.includes("en"));
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await allPages(page), ids(want), "the matches among the base's first, in order");
    const note = await page.locator(".search-note").textContent();
    assert.match(note, new RegExp(`^The matches among the ${manifest.ranked_models} models most downloaded of licence apache-2\\.0 \\(${licensed.length} in all\\)`));
    await page.getByRole("link", { name: "See every match by name" }).click();
    const every = byName(licensed.filter((m) => m.facets.languages.includes("en")));
    assert.ok(every.length > want.length);
    await page.waitForFunction((id) => document.querySelector(".search-result-id")?.textContent === id, every[0].id);
    assert.equal(new URL(page.url()).searchParams.get("sort"), "name");
    assert.deepEqual(await allPages(page), ids(every), "page after page, every match by name");
    await context.close();
  });

  test("fits in N GB keeps exactly the models whose page says their smallest estimate fits", async () => {
    const context = await harness.newContext();
    const fitting = models.filter((m) => m.fits !== null);
    assert.ok(new Set(fitting.map((m) => m.fits)).size >= 2, "the corpus has models of more than one memory class");
    for (const gb of [8, 24, 48]) {
      assert.ok(MEMORY_SIZES.includes(gb));
      const want = byName(models.filter((m) => fitsIn(m, gb)));
      const { page } = await openSearch(harness, context, `?fits=${gb}&sort=name`);
      await waitForStatus(page, statusText(want.length));
      assert.deepEqual(await allPages(page), ids(want), `fits in ${gb} GB`);
      await page.close();
    }
    // With a parameter range and by downloads: the classes' listings, merged.
    const want = byDownloads(models.filter((m) => fitsIn(m, 80) && inRange(m, 0, 9)));
    const { page } = await openSearch(harness, context, "?fits=80&params=0-9");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    await context.close();
  });

  test("the search with facet filters does not shift as it loads (CLS at most 0.05)", async () => {
    const context = await harness.newContext({ viewport: { width: 1366, height: 900 } });
    const apache = models.filter((m) => m.facets.licenses.includes("apache-2.0"));
    const cases = [
      // The matches among the licence's most recently updated (it has fewer models than the language).
      ["?language=en&license=apache-2.0&sort=updated", byUpdated(apache).slice(0, manifest.ranked_models).filter((m) => m.facets.languages.includes("en"))],
      ["?fits=24&params=0-9&sort=name", models.filter((m) => fitsIn(m, 24) && inRange(m, 0, 9))],
      ["?provider=together", models.filter((m) => m.facets.providers.includes("together"))],
    ];
    for (const [query, want] of cases) {
      // The filtered results, not some other list, are what settles.
      const cls = await layoutShift(harness, context, query, (page) => waitForStatus(page, statusText(want.length)));
      assert.ok(cls <= 0.05, `${query}: cumulative layout shift ${cls.toFixed(3)}`);
    }
    await context.close();
  });

  test("without JavaScript every facet value has plain listing pages holding exactly its models", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const home = await harness.openPage(context, "/");
    await home.getByRole("link", { name: "language, licence, provider, size and memory" }).click();
    const index = home;
    const licences = new Map();
    for (const m of models) for (const l of m.facets.licenses) licences.set(l, (licences.get(l) ?? 0) + 1);
    const rows = await index.locator("table").nth(1).locator("tbody tr").allTextContents();
    assert.equal(rows.length, licences.size, "one row a licence");
    // A licence with pages by name past its front page, and a parameter class.
    for (const [name, of] of [
      ["apache-2.0", (m) => m.facets.licenses.includes("apache-2.0")],
      ["6B to 9B", (m) => m.facets.params === 3],
    ]) {
      const page = await harness.openPage(context, "/facets/");
      await page.getByRole("link", { name, exact: true }).click();
      const members = models.filter(of);
      const front = await page.locator(".model-table tbody a").allTextContents();
      assert.deepEqual(front, ids(byDownloads(members).slice(0, front.length)), `${name}: its most downloaded`);
      const seen = [];
      if ((await page.locator(".page-index-links a").count()) > 0) {
        await page.locator(".page-index-links a").first().click();
        for (;;) {
          seen.push(...(await page.locator(".model-table tbody a").allTextContents()));
          const next = page.locator("a[rel=next]");
          if ((await next.count()) === 0) break;
          await next.click();
        }
      } else {
        seen.push(...front);
      }
      assert.deepEqual([...seen].sort(compareNames), ids(byName(members)), `${name}: every model, once`);
      await page.close();
    }
    await context.close();
  });
});
