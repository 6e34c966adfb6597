// The model page's layout (issue 18), in headless Chromium: the card starts
// on the first screen, "Use this model" shows one choice at a time (and a
// bounded amount of code), the quantization picker rewrites the commands
// and the download link, namespace links and breadcrumbs, the header search
// with and without JavaScript, no island script where there is no island,
// and every example reachable without JavaScript. Also the screenshots the
// issue asks for (chat, GGUF, text-to-image, sentence-similarity models at
// 1366 and 390 px, light and dark).
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAT_MODEL, DIST, IMAGE_MODEL, SCREENSHOTS, answerRemoteImage, chooseUse, modelPath, useHarness } from "./harness.mjs";

const GGUF_MODEL = "modelpages-fixtures/tiny-llama-GGUF";
const BIG_GGUF_MODEL = "unsloth/gemma-3-27b-it-GGUF";
/** A GGUF model whose card has headings. */
const CARD_GGUF_MODEL = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
const SIMILARITY_MODEL = "BAAI/bge-large-en-v1.5";
const ZEPHYR = "HuggingFaceH4/zephyr-7b-beta";
/** Most example code visible at once at 1366 px. */
const CODE_BUDGET_PX = 1800;

/** A PNG answered for every remote image (zephyr's card shows some): no request leaves the machine. */
const STAND_IN = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);
const answered = [];

let harness;
// Registered before the harness's own check of off-host requests, so the
// images answered here (never sent) are out of the record by then.
afterEach(() => {
  harness.forgetRequests(answered.splice(0).map((a) => a.url));
});
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

async function newContext(options) {
  const context = await harness.newContext(options);
  await context.route(/^https:\/\//, async (route) => {
    if (!(await answerRemoteImage(route, answered, STAND_IN))) await route.abort();
  });
  return context;
}
before(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
});

const WIDE = { width: 1366, height: 900 };

async function openReady(context, path) {
  const page = await harness.openPage(context, path);
  await page.waitForSelector(".use-tabs[data-mounted] [role=tablist]");
  return page;
}

/** Total height of the example code on screen in "Use this model". */
function visibleCodeHeight(page) {
  return page.$$eval(".use-panel pre", (pres) =>
    pres.filter((pre) => pre.checkVisibility()).reduce((sum, pre) => sum + pre.getBoundingClientRect().height, 0),
  );
}

function apiFile(id) {
  return JSON.parse(readFileSync(join(DIST, "api", "models", `${id}.json`), "utf8"));
}

describe("model page layout", () => {
  test("the card's first heading is on the first screen at 1366x900", async () => {
    const context = await newContext({ viewport: WIDE });
    for (const id of [CHAT_MODEL, ZEPHYR, CARD_GGUF_MODEL, IMAGE_MODEL, SIMILARITY_MODEL]) {
      const page = await openReady(context, modelPath(id));
      const top = await page.evaluate(() => {
        const heading = document.querySelector(".card-body :is(h1, h2, h3, h4)");
        return heading ? heading.getBoundingClientRect().top + window.scrollY : null;
      });
      assert.ok(top !== null, `${id}: the card has a heading`);
      assert.ok(top < 900, `${id}: the card's first heading is at ${top} px`);
      // And the card is the main column: the side column is beside it.
      const [main, side] = await page.evaluate(() =>
        [".model-main", ".model-side-top"].map((s) => document.querySelector(s).getBoundingClientRect().left),
      );
      assert.ok(side > main + 400, `${id}: side column at ${side}, main at ${main}`);
      await page.close();
    }
    await context.close();
  });

  test("on a phone: the facts, then 'Use this model', then the card; 320 px without sideways scrolling", async () => {
    const context = await newContext({ viewport: { width: 390, height: 844 } });
    const page = await openReady(context, modelPath(BIG_GGUF_MODEL));
    const order = await page.evaluate(() =>
      [".model-side-top", ".use-panel", ".model-card", ".model-side-bottom"].map(
        (s) => document.querySelector(s).getBoundingClientRect().top,
      ),
    );
    assert.deepEqual([...order].sort((a, b) => a - b), order, `tops ${order}`);
    for (const path of [modelPath(BIG_GGUF_MODEL), modelPath(CHAT_MODEL), "/"]) {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(`${harness.origin}${path}`);
      const [scroll, client] = await page.evaluate(() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]);
      assert.ok(scroll <= client, `${path} scrolls sideways at 320 px (${scroll} > ${client})`);
    }
    await context.close();
  });

  test("a long card gets a table of contents linking its headings", async () => {
    const context = await newContext({ viewport: WIDE });
    const page = await openReady(context, modelPath(ZEPHYR));
    const links = await page.locator("nav.card-toc-wide a").evaluateAll((as) =>
      as.map((a) => ({ href: a.getAttribute("href"), target: document.getElementById(a.getAttribute("href").slice(1))?.tagName })),
    );
    assert.ok(links.length >= 4, `${links.length} links`);
    for (const { href, target } of links) assert.match(target ?? "", /^H[1-6]$/, `${href} leads to a heading`);
    await page.locator("nav.card-toc-wide a").nth(2).click();
    const hash = await page.evaluate(() => window.location.hash);
    assert.equal(hash, links[2].href);
    // Phones get the same links folded above the card.
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.locator("nav.card-toc-wide").isVisible(), false);
    assert.equal(await page.locator("details.card-toc-narrow a").count(), links.length);
    await context.close();
  });

  test("'Use this model' shows one choice at a time, with at most 1,800 px of code", async () => {
    const context = await newContext({ viewport: WIDE });
    for (const id of [CHAT_MODEL, BIG_GGUF_MODEL, IMAGE_MODEL]) {
      const page = await openReady(context, modelPath(id));
      const tabs = await page.locator(".use-tabs [role=tab]").allTextContents();
      assert.ok(tabs.length >= 2, `${id}: tabs ${tabs}`);
      for (const name of tabs) {
        await chooseUse(page, name);
        const shown = await page.locator(".use-panel details.use-choice").evaluateAll((ds) => ds.filter((d) => d.checkVisibility()).length);
        assert.equal(shown, 1, `${id} ${name}: one choice shown`);
        const height = await visibleCodeHeight(page);
        const links = await page.locator(".use-panel a.app-link").evaluateAll((as) => as.filter((a) => a.checkVisibility()).length);
        assert.ok(height > 0 || links > 0, `${id} ${name}: some code or a link is shown`);
        assert.ok(height <= CODE_BUDGET_PX, `${id} ${name}: ${height} px of code visible`);
      }
      await page.close();
    }
    await context.close();
  });

  test("the local app chosen is remembered across pages, and #local-<app> links select theirs", async () => {
    const context = await newContext({ viewport: WIDE });
    let page = await openReady(context, modelPath(BIG_GGUF_MODEL));
    await chooseUse(page, "Ollama");
    assert.equal(await page.evaluate(() => localStorage.getItem("modelpages:use")), '"local-ollama"');
    await page.goto(`${harness.origin}${modelPath(GGUF_MODEL)}`);
    await page.waitForSelector(".use-tabs[data-mounted] [role=tablist]");
    assert.ok(await page.locator("#local-ollama pre").isVisible(), "Ollama is shown on the next GGUF page");
    assert.equal(await page.locator("#local-llama\\.cpp").isVisible(), false);
    page = await openReady(context, `${modelPath(GGUF_MODEL)}#local-llama.cpp`);
    assert.ok(await page.locator("#local-llama\\.cpp pre").first().isVisible(), "the link's app is shown");
    assert.equal(await page.locator("#local-ollama").isVisible(), false);
    await context.close();
  });

  test("the quantization picker rewrites every command and the download link; table rows pick too", async () => {
    const context = await newContext({ viewport: WIDE });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: harness.origin });
    const page = await openReady(context, modelPath(GGUF_MODEL));
    await chooseUse(page, "Ollama");
    const ollama = () => page.locator("#local-ollama pre code").first().textContent();
    const download = () => page.locator("#use-quant-download").getAttribute("href");
    assert.match(await ollama(), /:Q4_K_M'/);
    assert.match(await download(), /\/modelpages-fixtures\/tiny-llama-GGUF\/resolve\/main\/tiny-llama-Q4_K_M\.gguf$/);
    await page.getByLabel("Quantization").selectOption("Q8_0");
    assert.match(await ollama(), /^ollama run 'hf\.co\/modelpages-fixtures\/tiny-llama-GGUF:Q8_0'/);
    assert.match(await download(), /tiny-llama-Q8_0\.gguf$/);
    assert.equal(await page.locator(".quant-table caption .quant-current").textContent(), "Q8_0");
    // No app's commands name the default any more (they may list it among
    // the others: "replace Q8_0 with one of: Q4_K_M").
    const apps = await page.locator(".use-panel details.local-app .use-choice-name").allTextContents();
    assert.ok(apps.length >= 5, `apps ${apps}`);
    let rewritten = 0;
    for (const name of apps) {
      await chooseUse(page, name);
      const text = await page.locator(".use-panel details.local-app:not([hidden])").evaluate((d) => d.textContent);
      assert.doesNotMatch(text, /[:-]Q4_K_M\b|Q4_K_M\.gguf/, `${name} still names Q4_K_M`);
      if (/[:/-]Q8_0\b|Q8_0\.gguf/.test(text)) rewritten += 1;
    }
    assert.ok(rewritten >= 5, `${rewritten} apps name Q8_0`);
    // Copy copies the command as rewritten.
    await chooseUse(page, "Ollama");
    await page.locator("#local-ollama button.copy-button").first().click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await ollama());
    // The quantization table's row button picks a quantization back.
    await page.locator('.quant-table tr[data-quant="Q4_K_M"] button.quant-use').click();
    assert.match(await ollama(), /:Q4_K_M'/);
    assert.equal(await page.getByLabel("Quantization").inputValue(), "Q4_K_M");
    // Back on the default, the highlighted markup is the page's own again.
    assert.ok(await page.locator("#local-ollama pre code span").count() > 0);
    await context.close();
  });

  test("the title and breadcrumbs link the namespace page, which lists the model", async () => {
    const context = await newContext({ viewport: WIDE });
    const page = await openReady(context, modelPath(ZEPHYR));
    assert.equal(await page.locator("h1 a.model-namespace").getAttribute("href"), "/HuggingFaceH4/");
    const crumbs = await page.locator("nav.breadcrumbs a").evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute("href")]));
    assert.deepEqual(crumbs, [["Home", "/"], ["HuggingFaceH4", "/HuggingFaceH4/"]]);
    assert.equal(await page.locator("nav.breadcrumbs [aria-current=page]").textContent(), "zephyr-7b-beta");
    await page.locator("h1 a.model-namespace").click();
    await page.waitForURL(`${harness.origin}/HuggingFaceH4/`);
    assert.ok(await page.locator(`a[href="/${ZEPHYR}/"]`).count() >= 1, "the namespace page lists the model");
    await context.close();
  });

  test("the header search: with JavaScript the index runs the query, without it the index says so", async () => {
    const context = await newContext({ viewport: WIDE });
    const page = await harness.openPage(context, modelPath(ZEPHYR));
    await page.locator(".site-search input[name=q]").fill("zephyr");
    await page.locator(".site-search button").click();
    await page.waitForURL(/\/\?q=zephyr$/);
    await page.waitForSelector(".search-results");
    const ids = await page.locator(".search-result-id").allTextContents();
    assert.ok(ids.includes(ZEPHYR), `results ${ids}`);
    assert.equal(await page.locator(".search-nojs").isVisible(), false);
    await context.close();

    const noJs = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    const plain = await harness.openPage(noJs, "/tasks/");
    await plain.locator(".site-search input[name=q]").fill("zephyr");
    await plain.locator(".site-search button").click();
    await plain.waitForURL(/\/\?q=zephyr$/);
    assert.ok(await plain.locator(".search-nojs").isVisible(), "the index says search needs JavaScript");
    assert.ok(await plain.locator(".search-nojs a").count() >= 3, "and offers the listings");
    assert.ok(await plain.locator("table.model-table a").count() > 0, "and the list of models");
    await noJs.close();
  });

  test("pages without islands load no script; a page loads only its islands' code", async () => {
    const context = await newContext({ viewport: WIDE });
    const loaded = async (path) => {
      const page = await context.newPage();
      const scripts = [];
      page.on("request", (request) => {
        if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
      });
      await page.goto(`${harness.origin}${path}`, { waitUntil: "networkidle" });
      const tags = await page.locator("script[src]").count();
      await page.close();
      return { scripts, tags };
    };
    for (const path of ["/tasks/", "/libraries/", "/namespaces/", "/tasks/text-generation/"]) {
      const { scripts, tags } = await loaded(path);
      assert.deepEqual(scripts, [], `${path} loads scripts`);
      assert.equal(tags, 0, `${path} names a script`);
    }
    const model = await loaded(modelPath(CHAT_MODEL));
    const index = await loaded("/");
    // A namespace's page has one small island: its models' figures.
    const namespace = await loaded("/HuggingFaceH4/");
    assert.equal(namespace.scripts[0], index.scripts[0], "the same loader");
    assert.ok(namespace.scripts.length >= 2 && namespace.scripts.length < index.scripts.length, `${namespace.scripts} / ${index.scripts}`);
    assert.ok(model.scripts.length >= 3 && index.scripts.length >= 3, `${model.scripts} / ${index.scripts}`);
    assert.equal(model.scripts[0], index.scripts[0], "the same loader");
    const onlyIndex = index.scripts.filter((s) => !model.scripts.includes(s));
    const onlyModel = model.scripts.filter((s) => !index.scripts.includes(s));
    assert.ok(onlyIndex.length >= 1, "the search's code is not loaded on model pages");
    assert.ok(onlyModel.length >= 3, "the model page's islands are not loaded on the index");
    assert.ok(!namespace.scripts.some((s) => onlyIndex.includes(s)), "nor the search's on a namespace's page");
    await context.close();
  });

  test("without JavaScript every example is in the page, as many as the API file has", async () => {
    const context = await newContext({ viewport: WIDE, javaScriptEnabled: false });
    for (const id of [CHAT_MODEL, BIG_GGUF_MODEL, GGUF_MODEL, IMAGE_MODEL, SIMILARITY_MODEL]) {
      const page = await harness.openPage(context, modelPath(id));
      const api = apiFile(id).examples;
      const expected = api.library.length + api.inference.length + api.local_apps.length;
      const inPage = await page.locator(".use-panel figure.example, .use-panel a.app-link").count();
      assert.equal(inPage, expected, `${id}: ${inPage} examples in the page, ${expected} in the API file`);
      // Each is one click away: open every choice and all are shown.
      const closed = page.locator(".use-panel details.use-choice:not([open]) > summary");
      for (let left = await closed.count(); left > 0; left -= 1) {
        await closed.first().click();
      }
      assert.equal(await closed.count(), 0);
      const shown = await page.locator(".use-panel figure.example, .use-panel a.app-link").evaluateAll((es) => es.filter((e) => e.checkVisibility()).length);
      assert.equal(shown, expected, `${id}: ${shown} of ${expected} shown once opened`);
      await page.close();
    }
    await context.close();
  });

  for (const colorScheme of ["light", "dark"]) {
    test(`screenshots at 1366 and 390 px, ${colorScheme}`, async () => {
      const shots = [
        ["chat", ZEPHYR],
        ["gguf", BIG_GGUF_MODEL],
        ["image", IMAGE_MODEL],
        ["similarity", SIMILARITY_MODEL],
      ];
      for (const [width, height] of [[1366, 900], [390, 844]]) {
        const context = await newContext({ colorScheme, viewport: { width, height } });
        for (const [name, id] of shots) {
          const page = await openReady(context, modelPath(id));
          await page.screenshot({ path: join(SCREENSHOTS, `layout-${name}-${width}-${colorScheme}.png`) });
          await page.screenshot({ path: join(SCREENSHOTS, `layout-${name}-${width}-${colorScheme}-full.png`), fullPage: true, clip: { x: 0, y: 0, width, height: 3200 } });
          await page.close();
        }
        await context.close();
      }
    });
  }
});
