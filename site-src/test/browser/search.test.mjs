// The model search island on the index page, in headless Chromium: against the
// built site's search-index.json, and against a generated 100,000-model index.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST, useHarness } from "./harness.mjs";

const PAGE_SIZE = 50;

let harness;
let index;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  index = JSON.parse(readFileSync(join(DIST, "search-index.json"), "utf8"));
});

const format = (n) => new Intl.NumberFormat("en-US").format(n);

/** What the island should find: the same rules, computed here from the JSON. */
function expected(data, { query = "", task = "", library = "" } = {}) {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  const taskIndex = task === "" ? -1 : data.tasks.findIndex(([key]) => key === task);
  const libraryIndex = library === "" ? -1 : data.libraries.findIndex(([key]) => key === library);
  return data.models.filter(([id, t, l, , , tags]) => {
    const haystack = `${id} ${tags}`.toLowerCase();
    return (
      terms.every((term) => haystack.includes(term)) &&
      (taskIndex < 0 || t === taskIndex) &&
      (libraryIndex < 0 || l === libraryIndex)
    );
  });
}

function statusText(total) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return `${format(total)} ${total === 1 ? "model" : "models"}${pages > 1 ? ` · page 1 of ${format(pages)}` : ""}`;
}

async function openIndex(context) {
  const page = await harness.openPage(context, "/");
  await page.waitForSelector(".model-search[data-mounted] .search-status");
  await page.waitForSelector(".search-results, .model-search .empty");
  return page;
}

const status = (page) => page.locator(".model-search .search-status");
const resultIds = (page) => page.locator(".search-results .search-result-id").allTextContents();

async function waitForStatus(page, text) {
  await page.waitForFunction(
    (wanted) => document.querySelector(".model-search .search-status")?.textContent === wanted,
    text,
    { timeout: 5000 },
  );
}

describe("model search", () => {
  test("replaces the prerendered table with the first page of all models", async () => {
    const context = await harness.newContext();
    const page = await openIndex(context);
    for (const fallback of await page.locator("[data-fallback]").all()) {
      assert.equal(await fallback.isVisible(), false, "no-JavaScript fallback still shown");
    }
    assert.equal(await status(page).textContent(), statusText(index.models.length));
    const ids = await resultIds(page);
    assert.equal(ids.length, Math.min(PAGE_SIZE, index.models.length));
    assert.deepEqual(
      ids,
      index.models.slice(0, PAGE_SIZE).map(([id]) => id),
    );
    const hrefs = await page.locator(".search-results .search-result-id").evaluateAll((links) =>
      links.slice(0, 3).map((link) => link.getAttribute("href")),
    );
    assert.deepEqual(
      hrefs,
      index.models.slice(0, 3).map(([id]) => `/${id}/`),
    );

    // A result link leads to its model page.
    await page.locator(".search-results .search-result-id").first().click();
    await page.waitForLoadState("load");
    assert.equal(new URL(page.url()).pathname, `/${index.models[0][0]}/`);
    assert.match(await page.locator("h1.model-id").textContent(), new RegExp(index.models[0][0].split("/")[1]));
    await context.close();
  });

  test("paginates with previous and next, and keeps the page in the URL", async () => {
    const context = await harness.newContext();
    const page = await openIndex(context);
    const total = index.models.length;
    const pages = Math.ceil(total / PAGE_SIZE);
    assert.ok(pages >= 3, "the corpus has enough models for three pages");
    const next = page.getByRole("button", { name: "Next" });
    const previous = page.getByRole("button", { name: "Previous" });
    assert.equal(await previous.getAttribute("aria-disabled"), "true");

    await next.click();
    await waitForStatus(page, `${format(total)} models · page 2 of ${pages}`);
    assert.deepEqual(
      await resultIds(page),
      index.models.slice(PAGE_SIZE, 2 * PAGE_SIZE).map(([id]) => id),
    );
    assert.equal(await page.locator(".search-results").getAttribute("start"), String(PAGE_SIZE + 1));
    assert.equal(new URL(page.url()).searchParams.get("page"), "2");

    for (let p = 3; p <= pages; p += 1) {
      await next.click();
    }
    await waitForStatus(page, `${format(total)} models · page ${pages} of ${pages}`);
    assert.equal((await resultIds(page)).length, total - (pages - 1) * PAGE_SIZE);
    assert.equal(await next.getAttribute("aria-disabled"), "true");
    await next.click({ force: true }); // nothing happens past the last page
    await waitForStatus(page, `${format(total)} models · page ${pages} of ${pages}`);

    await previous.click();
    await waitForStatus(page, `${format(total)} models · page ${pages - 1} of ${pages}`);

    // Reloading (or coming back) keeps the page.
    await page.reload();
    await page.waitForSelector(".search-results");
    assert.equal(await status(page).textContent(), `${format(total)} models · page ${pages - 1} of ${pages}`);
    await context.close();
  });

  test("filters by text, task and library, with counts", async () => {
    const context = await harness.newContext();
    const page = await openIndex(context);
    const input = page.getByLabel("Filter by name or tag");

    // Text matches the id and the tags, ignoring case.
    await input.fill("LLaMA");
    let want = expected(index, { query: "llama" });
    assert.ok(want.length > 0 && want.length < index.models.length);
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(
      await resultIds(page),
      want.slice(0, PAGE_SIZE).map(([id]) => id),
    );
    assert.equal(new URL(page.url()).searchParams.get("q"), "LLaMA");

    // Words are all required; tags count (every gguf model is tagged "gguf").
    await input.fill("gguf text-generation");
    want = expected(index, { query: "gguf text-generation" });
    await waitForStatus(page, statusText(want.length));

    // Task select: counts follow the text filter.
    await input.fill("");
    await waitForStatus(page, statusText(index.models.length));
    const taskSelect = page.getByLabel("Task", { exact: true });
    const textGeneration = expected(index, { task: "text-generation" });
    assert.ok(textGeneration.length > 1);
    const taskLabel = index.tasks.find(([key]) => key === "text-generation")[1];
    assert.ok(
      (await taskSelect.locator("option").allTextContents()).includes(`${taskLabel} (${textGeneration.length})`),
    );
    await taskSelect.selectOption("text-generation");
    await waitForStatus(page, statusText(textGeneration.length));
    const metas = await page.locator(".search-results .search-result-meta").allTextContents();
    assert.ok(metas.every((meta) => meta.includes(taskLabel)));

    // Library select narrows further; its counts follow the task filter.
    const librarySelect = page.getByLabel("Library", { exact: true });
    const transformersLabel = index.libraries.find(([key]) => key === "transformers")[1];
    want = expected(index, { task: "text-generation", library: "transformers" });
    assert.ok(
      (await librarySelect.locator("option").allTextContents()).includes(`${transformersLabel} (${want.length})`),
    );
    await librarySelect.selectOption("transformers");
    await waitForStatus(page, statusText(want.length));
    assert.deepEqual(
      await resultIds(page),
      want.slice(0, PAGE_SIZE).map(([id]) => id),
    );

    // Text, task and library together; nothing matching shows a message.
    await input.fill("llama");
    want = expected(index, { query: "llama", task: "text-generation", library: "transformers" });
    await waitForStatus(page, statusText(want.length));
    await input.fill("no-such-model-anywhere");
    await waitForStatus(page, statusText(0));
    assert.equal(await page.locator(".search-results").count(), 0);
    assert.match(await page.locator(".model-search .empty").textContent(), /No model matches/);
    await context.close();
  });

  test("sorts by downloads, likes and name", async () => {
    const context = await harness.newContext();
    const page = await openIndex(context);
    const sortSelect = page.getByLabel("Sort by");

    await sortSelect.selectOption("likes");
    const byLikes = [...index.models].sort((a, b) => b[4] - a[4] || index.models.indexOf(a) - index.models.indexOf(b));
    await page.waitForFunction(
      (first) => document.querySelector(".search-result-id")?.textContent === first,
      byLikes[0][0],
    );
    assert.deepEqual(
      await resultIds(page),
      byLikes.slice(0, PAGE_SIZE).map(([id]) => id),
    );

    await sortSelect.selectOption("name");
    const byName = index.models.map(([id]) => id).sort((a, b) => {
      const [x, y] = [a.toLowerCase(), b.toLowerCase()];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    await page.waitForFunction((first) => document.querySelector(".search-result-id")?.textContent === first, byName[0]);
    assert.deepEqual(await resultIds(page), byName.slice(0, PAGE_SIZE));

    await sortSelect.selectOption("downloads");
    await page.waitForFunction(
      (first) => document.querySelector(".search-result-id")?.textContent === first,
      index.models[0][0],
    );
    await context.close();
  });

  test("can be used with the keyboard alone", async () => {
    const context = await harness.newContext();
    const page = await openIndex(context);
    let focusedLabel = null;
    for (let presses = 0; presses < 30; presses += 1) {
      await page.keyboard.press("Tab");
      focusedLabel = await page.evaluate(() => document.activeElement?.labels?.[0]?.textContent ?? null);
      if (focusedLabel === "Filter by name or tag") break;
    }
    assert.equal(focusedLabel, "Filter by name or tag");
    assert.ok(await page.evaluate(() => document.activeElement.matches(":focus-visible")));
    await page.keyboard.type("whisper");
    await page.keyboard.press("Enter"); // applies at once, without waiting for the pause
    const want = expected(index, { query: "whisper" });
    await waitForStatus(page, statusText(want.length));
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement.labels?.[0]?.textContent), "Task");
    await context.close();
  });

  test("when the index cannot be loaded, the prerendered table stays", async () => {
    const context = await harness.newContext();
    const page = await context.newPage();
    await page.route(`${harness.origin}/search-index.json`, (route) =>
      route.fulfill({ status: 503, contentType: "text/plain", body: "unavailable" }),
    );
    await page.goto(`${harness.origin}/`);
    await page.waitForFunction(() =>
      /unavailable/.test(document.querySelector(".model-search .search-status")?.textContent ?? ""),
    );
    assert.ok(await page.locator("[data-fallback] table").isVisible());
    assert.equal(await page.locator(".search-results").count(), 0);
    // The browser itself logs the failed request; nothing else may go wrong.
    const unexpected = harness.problems.splice(0).filter((problem) => !problem.includes("/search-index.json"));
    assert.deepEqual(unexpected, []);
    await context.close();
  });

  test("without JavaScript the prerendered table stays", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, "/");
    assert.ok(await page.locator("[data-fallback] table").isVisible());
    assert.ok((await page.locator("[data-fallback] tbody tr").count()) > 0);
    assert.equal(await page.locator(".model-search").innerHTML(), "");
    await context.close();
  });
});

/** A deterministic synthetic index of `size` models, sorted by downloads. */
function syntheticIndex(size) {
  const tasks = Array.from({ length: 24 }, (_, i) => [`task-${i}`, `Task ${String(i).padStart(2, "0")}`]);
  const libraries = Array.from({ length: 16 }, (_, i) => [`library-${i}`, `Library ${String(i).padStart(2, "0")}`]);
  const words = ["bert", "llama", "gguf", "vision", "audio", "en", "fr", "license:mit", "lora", "quantized"];
  // mulberry32: a small seeded generator, so every run gets the same index.
  let seed = 12345;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const models = [];
  for (let i = 0; i < size; i += 1) {
    const tags = words.filter(() => random() < 0.25).join(" ");
    models.push([
      `org-${i % 997}/model-${i}-${words[i % words.length].replace(":", "-")}`,
      random() < 0.05 ? -1 : Math.floor(random() * tasks.length),
      random() < 0.1 ? -1 : Math.floor(random() * libraries.length),
      size - i,
      Math.floor(random() * 5000),
      tags,
    ]);
  }
  return { tasks, libraries, models };
}

describe("model search with 100,000 models", () => {
  test("loads, filters and pages, never rendering more than one page (timings reported)", async (t) => {
    const big = syntheticIndex(100_000);
    const body = JSON.stringify(big);
    const context = await harness.newContext();
    await context.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
      }).observe({ type: "longtask" });
    });
    const page = await context.newPage();
    // Same origin, same URL: only the response body is swapped for the big index.
    await page.route(`${harness.origin}/search-index.json`, (route) =>
      route.fulfill({ status: 200, contentType: "application/json", body }),
    );
    const started = Date.now();
    await page.goto(`${harness.origin}/`);
    await waitForStatus(page, statusText(big.models.length));
    const loadMs = Date.now() - started;
    assert.equal(await page.locator(".search-result").count(), PAGE_SIZE);

    const rowsAlwaysBounded = async () => {
      const rows = await page.locator(".search-result").count();
      assert.ok(rows <= PAGE_SIZE, `${rows} rows rendered`);
    };
    const timed = async (label, action, want) => {
      await page.evaluate(() => {
        window.__longTasks = [];
      });
      const t0 = Date.now();
      await action();
      await waitForStatus(page, want);
      const elapsed = Date.now() - t0;
      const longest = Math.max(0, ...(await page.evaluate(() => window.__longTasks)));
      await rowsAlwaysBounded();
      return { label, elapsed, longest };
    };

    const input = page.getByLabel("Filter by name or tag");
    const timings = [];
    // Typed key by key: the debounce filters once, after the pause.
    timings.push(
      await timed(
        "type 'llama'",
        () => input.pressSequentially("llama", { delay: 30 }),
        statusText(expected(big, { query: "llama" }).length),
      ),
    );
    timings.push(
      await timed(
        "type ' lora'",
        () => input.pressSequentially(" lora", { delay: 30 }),
        statusText(expected(big, { query: "llama lora" }).length),
      ),
    );
    timings.push(
      await timed(
        "task",
        () => page.getByLabel("Task", { exact: true }).selectOption("task-3"),
        statusText(expected(big, { query: "llama lora", task: "task-3" }).length),
      ),
    );
    timings.push(
      await timed(
        "library",
        () => page.getByLabel("Library", { exact: true }).selectOption("library-5"),
        statusText(expected(big, { query: "llama lora", task: "task-3", library: "library-5" }).length),
      ),
    );
    await input.fill("");
    await page.getByLabel("Task", { exact: true }).selectOption("");
    await page.getByLabel("Library", { exact: true }).selectOption("");
    await waitForStatus(page, statusText(big.models.length));
    timings.push(
      await timed("sort by likes", () => page.getByLabel("Sort by").selectOption("likes"), statusText(big.models.length)),
    );
    timings.push(
      await timed("sort by name", () => page.getByLabel("Sort by").selectOption("name"), statusText(big.models.length)),
    );
    const last = Math.ceil(big.models.length / PAGE_SIZE);
    timings.push(
      await timed(
        "next page",
        () => page.getByRole("button", { name: "Next" }).click(),
        `${format(big.models.length)} models · page 2 of ${format(last)}`,
      ),
    );

    // Timings are reported, not asserted: speed is measured by benchmarks on a
    // quiet machine, and a loaded test machine would make this test flaky.
    t.diagnostic(
      `100,000 models: load ${loadMs} ms; ` +
        timings.map(({ label, elapsed, longest }) => `${label} ${elapsed} ms (longest task ${longest} ms)`).join("; "),
    );
    await context.close();
  });
});
