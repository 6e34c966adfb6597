// Cards as the Hub shows them, on the default corpus: no image or link of any
// card is missing (local ones load from the test server; `https:` images are
// answered here with a stand-in picture, never fetched, and must ask without a
// referrer), every in-card link lands on an element, a card's table of contents
// scrolls to its heading, wide tables scroll inside the card with whole words,
// and formulas are laid out as math. Screenshots of the zephyr page at 1366 and
// 390 px, light and dark, go to $MODELPAGES_SCREENSHOTS.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DIST, SCREENSHOTS, answerRemoteImage, modelPath, useHarness } from "./harness.mjs";

const ZEPHYR = "HuggingFaceH4/zephyr-7b-beta";
const QWEN = "Qwen/Qwen2.5-7B-Instruct";
const NOT_MODELS = new Set(["api", "assets", "libraries", "tasks", "namespaces", "search", "sitemaps"]);

let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
});

/** `/ns/name/` of every model page with a card. */
function cardPages() {
  const paths = [];
  for (const ns of readdirSync(DIST, { withFileTypes: true })) {
    if (!ns.isDirectory() || NOT_MODELS.has(ns.name)) continue;
    for (const model of readdirSync(join(DIST, ns.name), { withFileTypes: true })) {
      const page = join(DIST, ns.name, model.name, "index.html");
      // A namespace's own listing pages (`<ns>/-/page/2/`) are no model.
      if (model.isDirectory() && existsSync(page) && readFileSync(page, "utf8").includes('class="card-body"')) {
        paths.push(`/${ns.name}/${model.name}/`);
      }
    }
  }
  return paths.sort();
}

/** A PNG answered for every remote image: the test never leaves the machine. */
const STAND_IN = readFileSync(join(DIST, ZEPHYR, "assets", "leaderboard.png"));

/**
 * A context whose `https:` image requests are answered with a stand-in and
 * recorded (with their referrer); any other request off the test server is
 * recorded and aborted.
 */
async function cardContext(options = {}) {
  const context = await harness.newContext(options);
  const remote = { images: [], other: [] };
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === "127.0.0.1" && Number(url.port) === harness.port) {
      await route.continue();
    } else if (!(await answerRemoteImage(route, remote.images, STAND_IN))) {
      remote.other.push(url.href);
      await route.abort();
    }
  });
  return { context, remote };
}

/**
 * Runs `body` with a context from [`cardContext`], then takes the remote
 * images it answered out of the harness's record of requests (they were
 * never sent) and closes the context.
 */
async function withCardContext(options, body) {
  const { context, remote } = await cardContext(options);
  try {
    await body(context, remote);
  } finally {
    harness.forgetRequests(remote.images.map((image) => image.url));
    await context.close();
  }
}

/** Every image and link of the card on `page`, resolved by the browser. */
function cardReferences(page) {
  return page.$$eval(".card-body img, .card-body a[href]", (elements) =>
    elements.map((element) =>
      element.tagName === "IMG"
        ? { kind: "img", url: element.currentSrc || element.src, loaded: element.complete && element.naturalWidth > 0 }
        : { kind: "a", url: element.href, raw: element.getAttribute("href") },
    ),
  );
}

describe("cards", () => {
  test("no card image or link on the corpus is missing", async () => {
    const pages = cardPages();
    assert.ok(pages.length > 100, `${pages.length} pages with cards`);
    await withCardContext({ viewport: { width: 1366, height: 900 } }, async (context, remote) => {
      const page = await context.newPage();
      const checked = new Map();
      let local = 0;
      let fragments = 0;
      for (const path of pages) {
        await page.goto(`${harness.origin}${path}`, { waitUntil: "load" });
        // Lazy images load once near the viewport: bring every one in.
        await page.$$eval(".card-body img", (images) => images.forEach((image) => (image.loading = "eager")));
        await page.waitForFunction(() => [...document.querySelectorAll(".card-body img")].every((image) => image.complete));
        for (const reference of await cardReferences(page)) {
          const url = new URL(reference.url);
          const own = url.origin === harness.origin;
          if (reference.kind === "a" && reference.raw.startsWith("#")) {
            fragments += 1;
            const id = decodeURIComponent(reference.raw.slice(1));
            assert.ok(await page.evaluate((id) => document.getElementById(id) !== null, id), `${path}: ${reference.raw} lands nowhere`);
            continue;
          }
          if (reference.kind === "img") {
            assert.ok(reference.loaded, `${path}: image ${reference.url} did not load`);
            assert.ok(own || url.protocol === "https:", `${path}: image ${reference.url} from ${url.protocol}`);
          }
          if (own) {
            local += 1;
            url.hash = "";
            if (!checked.has(url.href)) {
              checked.set(url.href, (await fetch(url)).status);
            }
            assert.equal(checked.get(url.href), 200, `${path}: ${reference.kind} ${url.href}`);
          }
        }
      }
      assert.deepEqual(remote.other, [], "only images may be asked of other hosts");
      assert.ok(remote.images.length > 0, "the zephyr card shows remote images");
      assert.deepEqual(remote.images.filter((image) => image.referer !== null), [], "remote images are asked for without a referrer");
      assert.ok(local >= 2 && fragments >= 8, `${local} local references and ${fragments} in-card links checked`);
    });
  });

  test("a card's table of contents scrolls to its headings", async () => {
    await withCardContext({ viewport: { width: 1366, height: 700 } }, async (context) => {
      const page = await harness.openPage(context, modelPath(ZEPHYR));
      const top = (id) => page.evaluate((id) => document.getElementById(id).getBoundingClientRect().top, id);
      assert.ok((await top("how-dpo-trains-it")) > 700, "the heading starts below the fold");
      await page.locator(".card-body a[href='#how-dpo-trains-it']").click();
      await page.waitForFunction(() => location.hash === "#how-dpo-trains-it");
      const landed = await top("how-dpo-trains-it");
      assert.ok(landed >= 0 && landed < 100, `the heading is at ${landed}px after the click`);
      assert.equal(await page.evaluate(() => document.querySelector(":target")?.tagName), "H4");

      // Near the end of its page: it scrolls as far as the page goes. The
      // card comes first, so a short window puts the section below the fold.
      const fold = 360;
      const qwen = await harness.openPage(context, modelPath(QWEN));
      await qwen.setViewportSize({ width: 1366, height: fold });
      const chinese = () =>
        qwen.evaluate(() => ({
          top: document.getElementById("中文简介").getBoundingClientRect().top,
          atBottom: scrollY + innerHeight >= document.documentElement.scrollHeight - 1,
        }));
      assert.ok((await chinese()).top > fold, "the Chinese section starts below the fold");
      await qwen.locator(".card-body a", { hasText: "below" }).click();
      await qwen.waitForFunction(() => decodeURIComponent(location.hash) === "#中文简介");
      const { top: heading, atBottom } = await chinese();
      assert.ok(heading >= 0 && (heading < 100 || (atBottom && heading < fold)), `the Chinese section is at ${heading}px`);
    });
  });

  test("tables scroll inside the card, words stay whole, math is laid out", async () => {
    await withCardContext({ viewport: { width: 390, height: 844 } }, async (context) => {
      const page = await harness.openPage(context, modelPath(ZEPHYR));
      const layout = await page.evaluate(() => {
        const table = document.querySelector(".card-body table");
        const cell = [...table.querySelectorAll("th")].find((th) => th.textContent.startsWith("Winogrande"));
        const word = document.createRange();
        const text = cell.firstChild;
        word.setStart(text, 0);
        word.setEnd(text, "Winogrande".length);
        const display = document.querySelector(".card-body math[display=block]");
        const ids = [...document.querySelectorAll("[id]")].map((element) => element.id);
        return {
          pageFits: document.documentElement.scrollWidth <= innerWidth,
          tableScrolls: table.scrollWidth > table.clientWidth,
          wordLines: word.getClientRects().length,
          inlineMath: document.querySelectorAll(".card-body p > math:not([display])").length,
          displayMath: display.getBoundingClientRect().width > 0 && getComputedStyle(display).display,
          fraction: document.querySelector(".card-body mfrac").getBoundingClientRect().height,
          duplicateIds: ids.filter((id, i) => ids.indexOf(id) !== i),
          h1s: document.querySelectorAll("h1").length,
          media: document.querySelector(".card-media a")?.href,
          centred: getComputedStyle(document.querySelector(".card-body .align-center")).textAlign,
        };
      });
      assert.equal(layout.pageFits, true, "the page does not scroll sideways at 390 px");
      assert.equal(layout.tableScrolls, true, "the wide table scrolls inside the card");
      assert.equal(layout.wordLines, 1, "Winogrande is not broken across lines");
      assert.ok(layout.inlineMath >= 5, `${layout.inlineMath} inline formulas`);
      assert.match(String(layout.displayMath), /block/);
      assert.ok(layout.fraction > 20, `a fraction stacks (${layout.fraction}px high)`);
      assert.deepEqual(layout.duplicateIds, [], "ids are unique on the page, islands mounted");
      assert.equal(layout.h1s, 1, "one h1: the page's title");
      assert.match(layout.media, /^https:\/\/huggingface\.co\/.*demo\.mp4$/);
      assert.equal(layout.centred, "center");
    });
  });

  for (const colorScheme of ["light", "dark"]) {
    for (const width of [1366, 390]) {
      test(`zephyr card screenshot, ${width} px, ${colorScheme}`, async () => {
        await withCardContext({ colorScheme, viewport: { width, height: 900 } }, async (context) => {
          const page = await harness.openPage(context, modelPath(ZEPHYR));
          await page.$$eval(".card-body img", (images) => images.forEach((image) => (image.loading = "eager")));
          await page.waitForFunction(() => [...document.querySelectorAll(".card-body img")].every((image) => image.complete));
          await page.locator(".model-card").screenshot({ path: join(SCREENSHOTS, `card-zephyr-${width}-${colorScheme}.png`) });
        });
      });
    }
  }
});
