// The model page's layout, in headless Chromium: on a wide screen "Use
// this model" under the title with the facts beside it and the card still
// starting on the first screen; on a phone the card first, "Use this model"
// one tap away, and the same order for screen readers; the card's contents
// beside it from its start, sticky, with its second level; "Use this
// model" showing one choice at a time (and a bounded amount of code), the
// quantization picker rewriting the commands and the download link,
// namespace links and breadcrumbs, the header search with and without
// JavaScript, no island script where there is no island, and every example
// reachable without JavaScript. Also screenshots (chat, GGUF,
// text-to-image, sentence-similarity models at 1366 and 390 px, light and
// dark).
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CHAT_MODEL, DIST, IMAGE_MODEL, SCREENSHOTS, chooseUse, modelPath, standInRemoteImages, useHarness } from "./harness.mjs";

const GGUF_MODEL = "modelpages-fixtures/tiny-llama-GGUF";
const BIG_GGUF_MODEL = "unsloth/gemma-3-27b-it-GGUF";
/** A GGUF model whose card has headings. */
const CARD_GGUF_MODEL = "bartowski/Meta-Llama-3.1-8B-Instruct-GGUF";
const SIMILARITY_MODEL = "BAAI/bge-large-en-v1.5";
const ZEPHYR = "HuggingFaceH4/zephyr-7b-beta";
/** Most example code visible at once at 1366 px. */
const CODE_BUDGET_PX = 1800;

let harness;
// Zephyr's card shows remote images: answered unsent.
const newContext = standInRemoteImages(afterEach, () => harness);
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

before(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
});

const WIDE = { width: 1366, height: 900 };

async function openReady(context, path) {
  const page = await harness.openPage(context, path);
  await page.waitForSelector(".use-tabs[data-mounted] [role=tablist]");
  return page;
}

/**
 * Total height of the example code on screen in "Use this model": of each
 * shown example, the part inside its choice's box (which scrolls on wide
 * screens).
 */
function visibleCodeHeight(page) {
  return page.$$eval(".use-panel pre", (pres) =>
    pres
      .filter((pre) => pre.checkVisibility())
      .reduce((sum, pre) => {
        const box = pre.getBoundingClientRect();
        const frame = pre.closest(".use-body").getBoundingClientRect();
        return sum + Math.max(0, Math.min(box.bottom, frame.bottom) - Math.max(box.top, frame.top));
      }, 0),
  );
}

function apiFile(id) {
  return JSON.parse(readFileSync(join(DIST, "api", "models", `${id}.json`), "utf8"));
}

describe("model page layout", () => {
  test("at 1366x900 'Use this model' is under the title and the card starts on the first screen", async () => {
    const context = await newContext({ viewport: WIDE });
    for (const id of [CHAT_MODEL, ZEPHYR, CARD_GGUF_MODEL, IMAGE_MODEL, SIMILARITY_MODEL]) {
      const page = await openReady(context, modelPath(id));
      // At least 100 px of the card on the first screen.
      const top = await page.evaluate(() => document.querySelector(".card-body > *").getBoundingClientRect().top + window.scrollY);
      assert.ok(top < 800, `${id}: the card starts at ${top} px`);
      // "Use this model" is above the card, as wide, with the facts beside it.
      const box = (selector) => page.evaluate((s) => document.querySelector(s).getBoundingClientRect().toJSON(), selector);
      const [use, card, facts] = [await box(".use-panel"), await box(".model-main"), await box(".model-facts")];
      assert.ok(use.bottom <= card.top && use.left === card.left && use.width === card.width, `${id}: panel ${JSON.stringify(use)}, card ${JSON.stringify(card)}`);
      assert.ok(use.width >= 800, `${id}: the panel is ${use.width} px wide`);
      assert.ok(facts.left > use.right && facts.top < use.bottom, `${id}: the facts are beside the panel`);
      // Neither column waits for the other: the card starts right under
      // the panel however tall the facts are, and the side column goes on
      // right under the facts however tall the panel is.
      assert.ok(card.top - use.bottom <= 24, `${id}: ${card.top - use.bottom} px between the panel and the card`);
      const afterFacts = await page.evaluate(() => {
        const facts = document.querySelector(".model-facts");
        const next = facts.nextElementSibling;
        return next ? next.getBoundingClientRect().top - facts.getBoundingClientRect().bottom : 0;
      });
      assert.ok(afterFacts <= 24, `${id}: ${afterFacts} px between the facts and what follows them`);
      await page.close();
    }
    await context.close();
  });

  test("on a 390 px phone the card comes first, 'Use this model' one tap away; 320 px without sideways scrolling", async () => {
    const context = await newContext({ viewport: { width: 390, height: 844 } });
    for (const id of [CARD_GGUF_MODEL, CHAT_MODEL, IMAGE_MODEL]) {
      const page = await openReady(context, modelPath(id));
      // On screen: the title, then the card; then the panel, facts, tags.
      const order = await page.evaluate(() =>
        ["h1", ".model-card", ".use-panel", ".facts", ".tag-groups"].map((s) => document.querySelector(s).getBoundingClientRect().top),
      );
      assert.deepEqual([...order].sort((a, b) => a - b), order, `${id}: tops ${order}`);
      const cardTop = await page.evaluate(() => document.querySelector(".card-body").getBoundingClientRect().top);
      assert.ok(cardTop < 500, `${id}: the card starts ${cardTop} px down`);
      // Screen readers take the same order: the markup's.
      const markup = await page.evaluate(() => {
        const all = [...document.querySelectorAll("h1, .model-card, .use-panel, .facts, .tag-groups")];
        return all.map((e) => e.tagName === "H1" ? "title" : e.className.split(" ")[0]);
      });
      assert.deepEqual(markup, ["title", "model-card", "use-panel", "facts", "tag-groups"], id);
      // One tap from the title to "Use this model".
      const jump = page.locator("a.use-jump");
      assert.ok(await jump.isVisible(), `${id}: the jump is shown`);
      assert.ok((await jump.boundingBox()).y < 400, `${id}: the jump is near the title`);
      await jump.click();
      await page.waitForFunction(() => {
        const top = document.querySelector(".use-panel").getBoundingClientRect().top;
        return top >= 0 && top < 40;
      });
      await page.close();
    }
    const page = await context.newPage();
    for (const path of [modelPath(BIG_GGUF_MODEL), modelPath(CHAT_MODEL), "/"]) {
      await page.setViewportSize({ width: 320, height: 640 });
      await page.goto(`${harness.origin}${path}`);
      const [scroll, client] = await page.evaluate(() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]);
      assert.ok(scroll <= client, `${path} scrolls sideways at 320 px (${scroll} > ${client})`);
    }
    await context.close();
  });

  test("a long card's contents are beside it from its start, sticky, with its second level", async () => {
    const context = await newContext({ viewport: WIDE });
    const page = await openReady(context, modelPath(ZEPHYR));
    const links = await page.locator("nav.card-toc-wide a").evaluateAll((as) =>
      as.map((a) => ({ href: a.getAttribute("href"), target: document.getElementById(a.getAttribute("href").slice(1))?.tagName })),
    );
    assert.ok(links.length >= 4, `${links.length} links`);
    for (const { href, target } of links) assert.match(target ?? "", /^H[1-6]$/, `${href} leads to a heading`);
    // The card's sections (## shown as h3) and their subsections (h4).
    const levels = new Set(links.map((l) => l.target));
    assert.ok(levels.has("H3") && levels.has("H4"), `levels ${[...levels]}`);
    // Shown on the first screen, before the card starts, and still in view
    // with the card scrolled halfway.
    const [toc, card] = await page.evaluate(() =>
      ["nav.card-toc-wide", ".model-card"].map((s) => document.querySelector(s).getBoundingClientRect().toJSON()),
    );
    assert.ok(toc.top <= card.top && toc.top < 900, `contents at ${toc.top}, card at ${card.top}`);
    await page.evaluate(() => {
      const card = document.querySelector(".model-card").getBoundingClientRect();
      window.scrollTo(0, window.scrollY + card.top + card.height / 2);
    });
    const stuck = await page.evaluate(() => document.querySelector("nav.card-toc-wide").getBoundingClientRect().top);
    assert.ok(stuck >= 0 && stuck < 100, `the contents stick at the top: ${stuck}`);
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
    // The quantization table's row link picks a quantization back.
    await page.locator('.quant-table tr[data-quant="Q4_K_M"] a.quant-use').click();
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

  test("counts and downloads in listing tables are right-aligned, header and cells alike", async () => {
    const context = await newContext({ viewport: WIDE });
    for (const path of ["/tasks/", "/libraries/", "/namespaces/", "/facets/", "/tasks/text-generation/"]) {
      const page = await harness.openPage(context, path);
      const cells = await page.locator("table.model-table .num").evaluateAll((els) => els.map((el) => getComputedStyle(el).textAlign));
      assert.ok(cells.length >= 2, `${path}: ${cells.length} number cells`);
      assert.deepEqual([...new Set(cells)], ["right"], `${path}: number cells aligned ${[...new Set(cells)]}`);
      await page.close();
    }
    await context.close();
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
