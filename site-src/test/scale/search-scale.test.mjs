// The search at hub scale (`make test-scale`, not part of `make test`): a
// synthetic hub of 200,000 models built with the default listing sizes, then
// searched in headless Chromium by cold visitors (a fresh browser context
// each, so nothing is cached), counting every byte the search fetches. The
// budget: a first query costs at most 300 KB of search files in all
// (manifest included), and at most one request a key while typing. What the
// results should be is worked out here from the records themselves.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { useHarness } from "../browser/harness.mjs";
import { compareNames, matches, readModels, wordsOf } from "../search-truth.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));
const need = (name) => {
  if (!process.env[name]) {
    throw new Error(`${name} is not set: run \`make test-scale\`, which builds the site and points this test at it.`);
  }
  return resolve(siteSrc, process.env[name]);
};
const DIST = need("MODELPAGES_SCALE_DIST");
const MODELS = need("MODELPAGES_SCALE_MODELS");
const LABEL = "Search by name, tag, task or library";
const BUDGET_BYTES = 300_000;
const MAX_FILE_BYTES = 2 * 1024 * 1024;

let harness;
let models;
let manifest;
useHarness(
  { before, after, afterEach },
  (started) => {
    harness = started;
  },
  { dist: DIST },
);
before(() => {
  manifest = JSON.parse(readFileSync(join(DIST, "search/index.json"), "utf8"));
  models = readModels(MODELS);
});

const matching = (query) => models.filter((m) => matches(m, query));
const ids = (list) => list.map((m) => m.id);

/** A cold visitor on the index page: every /search/ response is counted. */
async function coldVisitor(query = "") {
  const context = await harness.newContext();
  const page = await context.newPage();
  const fetched = [];
  page.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith("/search/")) {
      fetched.push({ path, bytes: (await response.body()).length });
    }
  });
  await page.goto(`${harness.origin}/${query}`);
  await page.waitForSelector(".model-search[data-mounted] .search-results");
  return { context, page, fetched, bytes: () => fetched.reduce((sum, f) => sum + f.bytes, 0) };
}

async function settle(page, fetched) {
  // Results follow the typing after a pause; wait until no request is pending
  // and the status no longer says it is searching.
  let count = -1;
  while (count !== fetched.length) {
    count = fetched.length;
    await page.waitForTimeout(600);
  }
  await page.waitForFunction(() => !/Searching/.test(document.querySelector(".search-status")?.textContent ?? ""));
}

const resultIds = (page) => page.locator(".search-results .search-result-id").allTextContents();

/**
 * Checks the order the island shows results in (README): those whose
 * figures the tops it fetched give first, most downloaded first, then the
 * others by name.
 */
async function assertRanked(page, query) {
  const rows = await page.locator(".search-results .search-result").evaluateAll((lis) =>
    lis.map((li) => ({ id: li.querySelector(".search-result-id").textContent, known: /download/.test(li.textContent) })),
  );
  const downloads = new Map(models.map((m) => [m.id, m.downloads]));
  const firstUnknown = rows.findIndex((r) => !r.known);
  const known = firstUnknown < 0 ? rows : rows.slice(0, firstUnknown);
  const rest = firstUnknown < 0 ? [] : rows.slice(firstUnknown);
  assert.ok(rest.every((r) => !r.known), `${query}: a ranked result after an unranked one`);
  const ordered = (a, b) => downloads.get(a.id) > downloads.get(b.id) || (downloads.get(a.id) === downloads.get(b.id) && compareNames(a.id, b.id) < 0);
  assert.ok(known.every((r, i) => i === 0 || ordered(known[i - 1], r)), `${query}: ranked by downloads`);
  assert.ok(rest.every((r, i) => i === 0 || compareNames(rest[i - 1].id, r.id) < 0), `${query}: the rest by name`);
}

describe(`search over a synthetic hub`, () => {
  test("the hub is large and no file of the site passes 2 MB", (t) => {
    assert.ok(models.length >= 100_000, `${models.length} models`);
    assert.equal(manifest.count, models.length);
    let files = 0;
    let largest = { path: "", size: 0 };
    const walk = (dir) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          walk(path);
        } else {
          files += 1;
          const { size } = statSync(path);
          if (size > largest.size) largest = { path, size };
        }
      }
    };
    walk(DIST);
    assert.ok(largest.size <= MAX_FILE_BYTES, `${largest.path}: ${largest.size} bytes`);
    const manifestBytes = statSync(join(DIST, "search/index.json")).size;
    assert.ok(manifestBytes < 50_000, `manifest ${manifestBytes} bytes`);
    t.diagnostic(`${files} files; largest ${largest.path.slice(DIST.length)} (${largest.size} bytes); manifest ${manifestBytes} bytes`);
  });

  const typed = [
    ["a common word", "llama"],
    ["two common words", "llama chat"],
    ["a namespace", "synth-org-1234"],
  ];
  for (const [what, query] of typed) {
    test(`typing ${what} (${query}) stays in budget, one request a key at most`, async (t) => {
      const visitor = await coldVisitor();
      const { page, fetched } = visitor;
      const atStart = fetched.length;
      const input = page.getByLabel(LABEL);
      const perKey = [];
      for (const key of query) {
        const before = fetched.length;
        await input.press(key === " " ? "Space" : key);
        await page.waitForTimeout(250);
        perKey.push(fetched.length - before);
      }
      await settle(page, fetched);
      const want = matching(query);
      const shown = await resultIds(page);
      assert.ok(shown.length > 0, `${query}: nothing found`);
      // Every result matches, ranked; a capped word shows its most
      // downloaded matches first.
      const wantIds = new Set(ids(want));
      assert.ok(shown.every((id) => wantIds.has(id)), `${query}: a result that does not match`);
      await assertRanked(page, query);
      if (wordsOf(query).length === 1 && want.length > manifest.shard_models) {
        assert.deepEqual(shown, ids(want.slice(0, shown.length)), `${query}: the most downloaded first`);
      }
      const typingRequests = fetched.length - atStart;
      assert.ok(typingRequests <= query.length, `${typingRequests} requests for ${query.length} keys`);
      assert.ok(perKey.every((n) => n <= 1), `requests per key: ${perKey}`);
      assert.ok(visitor.bytes() <= BUDGET_BYTES, `${visitor.bytes()} bytes`);
      t.diagnostic(`${query}: ${want.length} matches; ${fetched.length} requests, ${visitor.bytes()} bytes in all (${fetched.map((f) => `${f.path} ${f.bytes}`).join(", ")})`);
      await visitor.context.close();
    });
  }

  test("a pasted id of a rarely downloaded model finds it within budget", async (t) => {
    const target = models[models.length - 7];
    const visitor = await coldVisitor(`?q=${encodeURIComponent(target.id)}`);
    await settle(visitor.page, visitor.fetched);
    const shown = await resultIds(visitor.page);
    assert.ok(shown.includes(target.id), `${target.id} not among ${shown.slice(0, 5)}`);
    const wantIds = new Set(ids(matching(target.id)));
    assert.ok(shown.every((id) => wantIds.has(id)), `${target.id}: a result that does not match`);
    await assertRanked(visitor.page, target.id);
    assert.ok(visitor.bytes() <= BUDGET_BYTES, `${visitor.bytes()} bytes`);
    t.diagnostic(`${target.id}: ${visitor.fetched.length} requests, ${visitor.bytes()} bytes`);
    await visitor.context.close();
  });

  test("a task filter reads one listing page; the next page one more", async (t) => {
    const visitor = await coldVisitor();
    const { page, fetched } = visitor;
    const before = fetched.length;
    const task = manifest.tasks[0][0];
    await page.getByLabel("Task", { exact: true }).selectOption(task);
    await settle(page, fetched);
    const want = models.filter((m) => m.task === task);
    assert.deepEqual(await resultIds(page), ids(want.slice(0, manifest.page_size)));
    await page.getByRole("button", { name: "Next" }).click();
    await settle(page, fetched);
    assert.deepEqual(await resultIds(page), ids(want.slice(manifest.page_size, 2 * manifest.page_size)));
    assert.deepEqual(
      fetched.slice(before).map((f) => f.path),
      [`/search/task/${task}/downloads/1.json`, `/search/task/${task}/downloads/2.json`],
    );
    t.diagnostic(`${task}: ${want.length} models; ${visitor.bytes()} bytes in all`);
    await visitor.context.close();
  });

  test("combined facet filters cost a cold visitor at most 300 KB, and every result passes them", async (t) => {
    const byId = new Map(models.map((m) => [m.id, m]));
    const common = (kind) => {
      const counts = new Map();
      for (const m of models) for (const v of m.facets[kind]) counts.set(v, (counts.get(v) ?? 0) + 1);
      return [...counts].sort((a, b) => b[1] - a[1]).map(([v]) => v);
    };
    const [language, second] = common("languages");
    const [license, rare] = [common("licenses")[0], common("licenses").at(-1)];
    // Two common values that seldom go together: a scan by name reads
    // the smaller one's pages until its byte budget is spent.
    const rarePair = common("languages")
      .slice(0, 6)
      .flatMap((l) => common("licenses").slice(0, 6).map((c) => ({ language: l, license: c })))
      .map((pair) => ({ ...pair, both: models.filter((m) => m.facets.languages.includes(pair.language) && m.facets.licenses.includes(pair.license)).length }))
      .sort((a, b) => a.both - b.both)[0];
    const queries = [
      { language: rarePair.language, license: rarePair.license, sort: "name" },
      { language, license, task: "text-generation" },
      { language: second, license: rare, sort: "name" },
      { language, license, sort: "updated" },
      { language: second, license, sort: "name" },
    ];
    for (const filters of queries) {
      const query = `?${new URLSearchParams(filters)}`;
      const { context, page, fetched, bytes } = await coldVisitor(query);
      await settle(page, fetched);
      const shown = await resultIds(page);
      for (const id of shown) {
        const m = byId.get(id);
        assert.ok(m.facets.languages.includes(filters.language) && m.facets.licenses.includes(filters.license), `${query}: ${id}`);
        assert.ok(filters.task === undefined || m.task === filters.task, `${query}: ${id}`);
      }
      const status = await page.locator(".model-search .search-status").textContent();
      t.diagnostic(`${query}: ${shown.length} shown (${status}), ${fetched.length} files, ${bytes()} bytes`);
      assert.ok(bytes() <= BUDGET_BYTES, `${query}: ${bytes()} bytes`);
      await context.close();
    }
  });
});
