// GGUF files and "Run it locally" on model pages, in headless Chromium: complete
// without JavaScript, copy buttons copy the exact command, the section fits a
// 320 px screen, and its text keeps its contrast in light and dark mode.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, chooseUse, modelPath, useHarness } from "./harness.mjs";

/** The corpus fixture with real GGUF files: quantizations, header facts, apps. */
const GGUF_MODEL = "modelpages-fixtures/tiny-llama-GGUF";

let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
});

function contrastOf(selectors) {
  const parse = (value) => {
    const [r, g, b, a = 1] = value.match(/rgba?\(([^)]+)\)/)[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const luminance = ({ r, g, b }) =>
    [r, g, b]
      .map((c) => c / 255)
      .map((s) => (s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4))
      .reduce((sum, s, i) => sum + s * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color.a > 0.5) return color;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor);
  };
  return selectors.flatMap((selector) =>
    [...document.querySelectorAll(selector)].map((element) => {
      const [hi, lo] = [luminance(parse(getComputedStyle(element).color)), luminance(background(element))].sort((p, q) => q - p);
      return { selector, ratio: (hi + 0.05) / (lo + 0.05) };
    }),
  );
}

describe("GGUF files and local apps", () => {
  test("the page is complete without JavaScript", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(GGUF_MODEL));
    const rows = await page.$$eval(".quant-table tbody tr", (trs) => trs.map((tr) => tr.innerText.replace(/\s+/g, " ").trim()));
    assert.equal(rows.length, 2);
    // Each row ends with its "Use" link (named for its quantization).
    assert.match(rows[0], /^Q8_0 7\.14 kB tiny-llama-Q8_0\.gguf Q8_0 85\.7%, F32 14\.3% Use Q8_0$/);
    assert.match(rows[1], /^Q4_K_M default 6\.05 kB/);
    assert.match(await page.locator(".gguf-facts").innerText(), /Architecture\s+llama[\s\S]*2,048 tokens/);
    // Each app is a <details> of "Use this model", the first one open (a
    // GGUF repository opens on it): open the others as a reader would.
    assert.equal(await page.locator(".use-panel details[open]").getAttribute("id"), "local-llama.cpp");
    for (const app of ["ollama", "lmstudio"]) await page.locator(`#local-${app} > summary`).click();
    const ollama = await page.locator("#local-ollama pre").innerText();
    assert.equal(ollama.split("\n")[0], `ollama run 'hf.co/${GGUF_MODEL}:Q4_K_M'`);
    assert.equal(await page.locator("#local-lmstudio a.app-link").getAttribute("href"), `lmstudio://open_from_hf?model=${GGUF_MODEL}`);
    assert.ok(await page.locator("#local-llama\\.cpp figure").count() >= 3, "llama.cpp has its install variants");
    await context.close();
  });

  test("a local app's copy button copies its exact command", async () => {
    const context = await harness.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: harness.origin });
    const page = await harness.openPage(context, modelPath(GGUF_MODEL));
    await chooseUse(page, "llama.cpp");
    const figure = page.locator("#local-llama\\.cpp figure").first();
    await figure.locator("button.copy-button").click();
    await figure.locator("button.copy-button", { hasText: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await figure.locator("pre code").textContent());
    assert.match(copied, /^brew install llama\.cpp\n/);
    await context.close();
  });

  test("a page with long file names and many apps fits a 320 px wide screen", async () => {
    const context = await harness.newContext({ viewport: { width: 320, height: 640 } });
    const page = await harness.openPage(context, modelPath("unsloth/gemma-3-27b-it-GGUF"));
    const [scroll, client] = await page.evaluate(() => [document.scrollingElement.scrollWidth, document.scrollingElement.clientWidth]);
    assert.ok(scroll <= client, `page scrolls sideways at 320 px (${scroll} > ${client})`);
    await page.locator("section.gguf").screenshot({ path: join(SCREENSHOTS, "narrow-gguf.png") });
    await context.close();
  });

  for (const colorScheme of ["light", "dark"]) {
    test(`contrast and screenshots, ${colorScheme} mode`, async () => {
      const context = await harness.newContext({ colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await harness.openPage(context, modelPath(GGUF_MODEL));
      await page.locator("section.gguf").screenshot({ path: join(SCREENSHOTS, `gguf-${colorScheme}.png`) });
      await chooseUse(page, "Ollama");
      await page.locator("#local-ollama").screenshot({ path: join(SCREENSHOTS, `local-app-${colorScheme}.png`) });
      const measured = await page.evaluate(contrastOf, [
        ".pill",
        ".quant-table caption",
        ".quant-table td",
        ".file-note",
        ".gguf-facts dt",
        ".local-app > summary",
        ".local-app .example-label",
        ".app-link",
      ]);
      assert.ok(measured.length >= 10, "elements to measure are missing");
      for (const { selector, ratio } of measured) {
        assert.ok(ratio >= 4.5, `${selector}: text contrast ${ratio.toFixed(2)} < 4.5 (${colorScheme})`);
      }
      await context.close();
    });
  }
});
