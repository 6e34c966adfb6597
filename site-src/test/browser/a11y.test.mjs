// axe-core (an npm devDependency, run inside the page) on the key pages of
// the default corpus: a model page of each kind (GGUF, a transformers chat
// model, a diffusion model), the home page, a task listing and a namespace
// listing, at 1366 and 390 px in light and dark mode, and a model page with
// hosted inference shown. No rule may be broken: code and tables that
// scroll take the keyboard's focus, the tab panels are elements that may
// be one, headings keep their order.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { CHAT_MODEL, IMAGE_MODEL, chooseUse, modelPath, standInRemoteImages, useHarness } from "./harness.mjs";

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const PAGES = [
  modelPath("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF"),
  modelPath(CHAT_MODEL),
  modelPath(IMAGE_MODEL),
  "/",
  "/tasks/text-generation/",
  "/HuggingFaceH4/",
];

let harness;
const newContext = standInRemoteImages(afterEach, () => harness);
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

/** axe's violations on `page` as it is, one line each with the first elements. */
async function violations(page) {
  // Evaluated, not added as a script tag: the pages' policy runs no inline script.
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const result = await globalThis.axe.run(document);
    return result.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
  });
}

/** Waits until every island of the page is mounted. */
async function settled(page) {
  await page.waitForFunction(() => [...document.querySelectorAll("[data-island]")].every((host) => host.hasAttribute("data-mounted") || host.dataset.island === "quant"));
}

describe("axe-core", () => {
  for (const colorScheme of ["light", "dark"]) {
    for (const width of [1366, 390]) {
      test(`no violation on the key pages at ${width} px, ${colorScheme}`, async () => {
        const context = await newContext({ colorScheme, viewport: { width, height: width > 1000 ? 900 : 844 } });
        for (const path of PAGES) {
          const page = await harness.openPage(context, path);
          await settled(page);
          assert.deepEqual(await violations(page), [], `${path} at ${width} px, ${colorScheme}`);
          await page.close();
        }
        await context.close();
      });
    }
  }

  test("no violation with hosted inference shown", async () => {
    const context = await newContext({ viewport: { width: 1366, height: 900 } });
    const page = await harness.openPage(context, modelPath(CHAT_MODEL));
    await settled(page);
    await chooseUse(page, "Hosted inference");
    assert.deepEqual(await violations(page), []);
    await context.close();
  });
});
