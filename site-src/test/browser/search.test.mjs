// The model search island on the index page, in headless Chromium, against
// the browser site of the default corpus, built with listing sizes cut small
// (small-listings.toml: 10 results a page, shards of at most 12 models,
// likes and name orders of 25), so that its ~190 listed models fill many search
// files and common words have capped shards, as at hub scale. What the
// island should show is worked out here from the records themselves.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DIST, useHarness } from "./harness.mjs";
import { listingOrder, matches, readModels } from "../search-truth.mjs";

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

const format = (n) => new Intl.NumberFormat("en-US").format(n);
function statusText(total) {
  const pages = Math.max(1, Math.ceil(total / manifest.page_size));
  return `${format(total)} ${total === 1 ? "model" : "models"}${pages > 1 ? ` · page 1 of ${format(pages)}` : ""}`;
}

/** Opens the index with every response to /search/ recorded (URL and bytes). */
async function openIndex(context, query = "") {
  const page = await context.newPage();
  const fetched = [];
  page.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith("/search/")) {
      return;
    }
    try {
      fetched.push({ path, bytes: (await response.body()).length });
    } catch (error) {
      // A response still arriving as the test closes its page has no body
      // left to read (an unhandled rejection failed the whole file on a
      // loaded machine). One that fails during a test counts as NaN bytes,
      // so a byte budget over it fails rather than undercounts.
      fetched.push({ path, bytes: Number.NaN, error: String(error) });
    }
  });
  await page.goto(`${harness.origin}/${query}`);
  await page.waitForSelector(".model-search[data-mounted] .search-status");
  await page.waitForSelector(".search-results, .model-search .empty");
  return { page, fetched };
}

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
async function waitForStatus(page, text) {
  await page.waitForFunction(
    (wanted) => document.querySelector(".model-search .search-status")?.textContent === wanted,
    text,
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
    assert.equal(await status(page).textContent(), statusText(models.length));
    assert.deepEqual(await resultIds(page), ids(models.slice(0, manifest.page_size)));
    assert.deepEqual(
      fetched.map((f) => f.path),
      ["/search/index.json", "/search/all/downloads/1.json"],
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
    const want = models.filter((m) => matches(m, "llama"));
    assert.ok(want.length > 2 && want.length <= manifest.shard_models, `${want.length} llama models`);
    // "lla" can match the same models as "llama": wait for the whole word's query.
    await page.waitForFunction(() => new URL(window.location.href).searchParams.get("q") === "llama");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    const requests = fetched.slice(before);
    assert.ok(requests.length >= 1 && requests.length <= "llama".length, `${requests.length} requests for 5 keys`);
    assert.ok(requests.every((r) => r.path.startsWith("/search/words/l/")), JSON.stringify(requests));
    const bytes = fetched.reduce((sum, r) => sum + r.bytes, 0);
    assert.ok(bytes < 40_000, `${bytes} bytes in all`);
    assert.equal(new URL(page.url()).searchParams.get("q"), "llama");
    await context.close();
  });

  test("every word of a query must match; an exact id finds its model", async () => {
    const context = await harness.newContext();
    const { page } = await openIndex(context);
    const input = page.getByLabel(LABEL);
    for (const query of ["llama gguf", "meta-llama/Llama-3.1-8B-Instruct", "whisper LARGE", "no-such-model-anywhere"]) {
      await input.fill(query);
      await input.press("Enter");
      const want = models.filter((m) => matches(m, query));
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
      `${format(all.length)} models match; the ${manifest.shard_models} most downloaded are searched. Add a word to narrow the search.`,
    );
    // With a rarer word as well, the results are exact again.
    await page.getByLabel(LABEL).fill("transformers whisper");
    await page.getByLabel(LABEL).press("Enter");
    const want = models.filter((m) => matches(m, "transformers whisper"));
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
    await waitForStatus(page, statusText(textGeneration.length));
    assert.deepEqual(await resultIds(page), ids(textGeneration.slice(0, manifest.page_size)));
    assert.ok(fetched.some((f) => f.path === "/search/task/text-generation/downloads/1.json"));

    const librarySelect = page.getByLabel("Library", { exact: true });
    const want = textGeneration.filter((m) => m.library === "transformers");
    const transformers = manifest.libraries.find(([key]) => key === "transformers")[1];
    assert.ok((await librarySelect.locator("option").allTextContents()).includes(`${transformers} (${want.length})`));
    await librarySelect.selectOption("transformers");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    assert.ok(fetched.some((f) => f.path === "/search/task-library/text-generation/transformers/downloads/1.json"));

    // Text with filters: the filters apply to the words' matches.
    await page.getByLabel(LABEL).fill("instruct");
    await page.getByLabel(LABEL).press("Enter");
    const instruct = searched("instruct").filter((m) => m.task === "text-generation" && m.library === "transformers");
    await waitForResults(page, instruct.length, ids(instruct.slice(0, manifest.page_size)));
    await context.close();
  });

  test("pages through a listing with previous and next, keeping the page in the URL", async () => {
    const context = await harness.newContext();
    const { page, fetched } = await openIndex(context);
    const size = manifest.page_size;
    const pages = Math.ceil(models.length / size);
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
    const byLikes = [...models].sort((a, b) => b.likes - a.likes || models.indexOf(a) - models.indexOf(b));
    await sortSelect.selectOption("likes");
    const pages = Math.ceil(manifest.sorted_models / manifest.page_size);
    await waitForStatus(page, `${format(models.length)} models · page 1 of ${pages}`);
    assert.deepEqual(await resultIds(page), ids(byLikes.slice(0, manifest.page_size)));
    assert.match(await page.locator(".search-note").textContent(), new RegExp(`^The first 25 of ${models.length} models are listed in this order`));

    await sortSelect.selectOption("name");
    const byName = ids(models).sort((a, b) => {
      const [x, y] = [a.toLowerCase(), b.toLowerCase()];
      return x < y ? -1 : x > y ? 1 : a < b ? -1 : 1;
    });
    await page.waitForFunction((first) => document.querySelector(".search-result-id")?.textContent === first, byName[0]);
    assert.deepEqual(await resultIds(page), byName.slice(0, manifest.page_size));

    // Search results sort in the island.
    await page.getByLabel(LABEL).fill("llama");
    await page.getByLabel(LABEL).press("Enter");
    const llamas = ids(models.filter((m) => matches(m, "llama"))).sort((a, b) => byName.indexOf(a) - byName.indexOf(b));
    await waitForResults(page, llamas.length, llamas.slice(0, manifest.page_size));
    await context.close();
  });

  test("a namespace from the URL narrows the search, and can be left", async () => {
    const context = await harness.newContext();
    const namespace = "meta-llama";
    const want = models.filter((m) => m.id.startsWith(`${namespace}/`));
    assert.ok(want.length >= 1);
    const { page } = await openIndex(context, `?namespace=${namespace}`);
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    await page.getByRole("button", { name: "Search all namespaces" }).click();
    await waitForStatus(page, statusText(models.length));
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
    // Every page of a listing is reached by plain links.
    await page.getByRole("link", { name: "task", exact: true }).click();
    await page.getByRole("link", { name: "Text Generation" }).click();
    const seen = [];
    for (;;) {
      seen.push(...(await page.locator(".model-table tbody a").allTextContents()));
      const next = page.locator("a[rel=next]");
      if ((await next.count()) === 0) break;
      await next.click();
    }
    assert.deepEqual(seen, ids(models.filter((m) => m.task === "text-generation").sort(listingOrder)));
    await context.close();
  });
});
