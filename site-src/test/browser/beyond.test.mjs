// What a model page shows beyond the Hub's, in headless Chromium against the
// default corpus: the memory table and its help, the prompt a chat template
// makes (collapsed until opened, with or without JavaScript), the Markdown
// twin linked from the head and served as Markdown, and /llms.txt. Also the
// screenshots of both sections at 1366 and 390 px, light and dark.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SCREENSHOTS, modelPath, useHarness } from "./harness.mjs";

/** A safetensors chat model whose config gives its attention's shape. */
const CHAT = "Qwen/Qwen2.5-1.5B-Instruct";
/** A GGUF repository (a hidden fixture) whose headers give it. */
const GGUF = "modelpages-fixtures/tiny-llama-GGUF";

let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

describe("beyond the Hub's page", () => {
  for (const javaScriptEnabled of [false, true]) {
    test(`memory and prompt are there and the prompt is collapsed, JavaScript ${javaScriptEnabled ? "on" : "off"}`, async () => {
      const context = await harness.newContext({ javaScriptEnabled });
      const page = await harness.openPage(context, modelPath(CHAT));
      // Shown as built: nothing waits for a script.
      assert.ok(await page.locator(".memory-table").isVisible(), "the memory table shows");
      assert.ok(await page.locator(".prompt-details > summary").isVisible(), "the prompt's summary shows");
      const rows = await page.$$eval(".memory-table tbody tr", (trs) => trs.map((tr) => [...tr.cells].map((c) => c.innerText.replace(/\s+/g, " ").trim())));
      // 1,543,714,304 parameters; 28 layers × 2 KV heads × (128 + 128) × 2 bytes = 28 KiB a token.
      assert.deepEqual(rows[0], ["BF16 / FP16 default", "2.88 GiB", "2.98 GiB fits 8 GB", "3.75 GiB fits 8 GB"]);
      assert.equal(rows.length, 3);
      const help = page.locator(".memory-help");
      assert.equal(await help.getAttribute("open"), null, "the help is collapsed");
      await help.locator("summary").click();
      assert.match(await help.innerText(), /28 layers × 2 KV heads × \(128 \+ 128\) key and value elements × 2 bytes = 28\.0 KiB for each token/);
      const details = page.locator(".prompt-details");
      assert.equal(await details.getAttribute("open"), null, "the prompt is collapsed");
      assert.equal(await page.locator(".prompt-text").isVisible(), false);
      await details.locator("summary").click();
      const prompt = await page.locator(".prompt-text").innerText();
      assert.ok(prompt.startsWith("<|im_start|>system\nYou are a helpful assistant.\n\n# Tools"), prompt);
      assert.match(prompt, /<tool_call>\n\{"name": "get_current_weather", "arguments": \{"city": "Paris"\}\}\n<\/tool_call>/);
      assert.ok(prompt.endsWith("<|im_start|>assistant\n") || prompt.endsWith("<|im_start|>assistant"), JSON.stringify(prompt.slice(-40)));
      await context.close();
    });
  }

  test("a GGUF header's numbers, and a template from the header", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(GGUF));
    const heads = await page.$$eval(".memory-table thead th", (ths) => ths.map((th) => th.innerText.trim()));
    assert.deepEqual(heads, ["Quantization", "Weights", "2K context (maximum)"]);
    assert.match(await page.locator(".chat-prompt .lead").innerText(), /from the GGUF file's header/);
    await context.close();
  });

  test("the Markdown twin is linked from the head and served as Markdown; llms.txt as text", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    const page = await harness.openPage(context, modelPath(CHAT));
    const href = await page.locator('link[rel="alternate"][type="text/markdown"]').getAttribute("href");
    assert.equal(href, "index.md");
    const twin = await context.request.get(new URL(href, page.url()).href);
    assert.equal(twin.status(), 200);
    assert.equal(twin.headers()["content-type"], "text/markdown; charset=utf-8");
    assert.ok((await twin.text()).startsWith(`# ${CHAT}\n`));
    const llms = await context.request.get(`${harness.origin}/llms.txt`);
    assert.equal(llms.headers()["content-type"], "text/plain; charset=utf-8");
    assert.match(await llms.text(), /^# .+\n\n> /);
    await context.close();
  });

  for (const colorScheme of ["light", "dark"]) {
    test(`screenshots of the sections at 1366 and 390 px, ${colorScheme}`, async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      for (const width of [1366, 390]) {
        const context = await harness.newContext({ viewport: { width, height: 900 }, colorScheme });
        const page = await harness.openPage(context, modelPath(CHAT));
        await page.locator(".prompt-details summary").click();
        await page.locator(".memory-help summary").click();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow}px at ${width}`);
        await page.locator("#memory").scrollIntoViewIfNeeded();
        await page.locator("#memory").screenshot({ path: join(SCREENSHOTS, `beyond-memory-${width}-${colorScheme}.png`) });
        await page.locator("#prompt").screenshot({ path: join(SCREENSHOTS, `beyond-prompt-${width}-${colorScheme}.png`) });
        await context.close();
      }
    });
  }
});
