// The inference island on model pages, in headless Chromium.
// Run with: npm run test:browser   (needs a built site; see harness.mjs)
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  CHAT_MODEL,
  CLASSIFIER_MODEL,
  IMAGE_MODEL,
  chooseUse,
  modelPath,
  shownFigure,
  useHarness,
  tablist,
  visibleFigures,
} from "./harness.mjs";

// Every page of every test: no console error, no uncaught error, no other host.
let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});

/** Opens a model page in a fresh context (empty localStorage) unless one is given. */
async function openModel(id, { context, hash = "", contextOptions } = {}) {
  const ctx = context ?? (await harness.newContext(contextOptions));
  const page = await harness.openPage(ctx, `${modelPath(id)}${hash}`);
  await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
  // Hosted inference is one choice of "Use this model" (remembered, like the examples').
  await chooseUse(page, "Hosted inference");
  return { context: ctx, page };
}

async function tabNames(page, name) {
  return tablist(page, name).getByRole("tab").allTextContents();
}

async function selectedTab(page, name) {
  return tablist(page, name).locator('[role=tab][aria-selected="true"]');
}

function providerSelect(page) {
  return page.getByLabel("Provider", { exact: true });
}

function streamingSwitch(page) {
  return page.getByRole("button", { name: "Stream the response" });
}

/** The role, label and id of the element holding the inference examples. */
function tabPanel(page) {
  return page.locator("#inference-examples").evaluate((el) => ({
    id: el.id,
    role: el.getAttribute("role"),
    labelledBy: el.getAttribute("aria-labelledby"),
  }));
}

async function currentHash(page) {
  return page.evaluate(() => decodeURIComponent(window.location.hash));
}

describe("inference island", () => {
  test("first example shown by default, in the tabpanel of the selected client tab", async () => {
    const { context, page } = await openModel(CHAT_MODEL);
    const figure = await shownFigure(page);
    assert.equal(figure.id, "ex-auto-python-huggingface_hub");
    // The tab panel is the element holding the examples (a figure may not
    // take that role), labelled by the selected client tab.
    const panel = await tabPanel(page);
    assert.equal(panel.role, "tabpanel");
    assert.equal(figure.role, null);

    const clientTab = await selectedTab(page, "Client");
    assert.equal(await clientTab.textContent(), "huggingface_hub");
    assert.equal(panel.labelledBy, await clientTab.getAttribute("id"));
    assert.equal(await clientTab.getAttribute("aria-controls"), panel.id);
    const languageTab = await selectedTab(page, "Language");
    assert.equal(await languageTab.textContent(), "Python");
    assert.equal(await languageTab.getAttribute("aria-controls"), panel.id);

    // Roving tabIndex: exactly the selected tab of each tablist is in the Tab sequence.
    for (const name of ["Language", "Client"]) {
      const tabIndexes = await tablist(page, name)
        .getByRole("tab")
        .evaluateAll((tabs) => tabs.map((tab) => [tab.getAttribute("aria-selected"), tab.tabIndex]));
      for (const [selected, tabIndex] of tabIndexes) {
        assert.equal(tabIndex, selected === "true" ? 0 : -1);
      }
    }

    // The sections of other providers are hidden; the shown one's heading
    // is left to screen readers (the select names the provider), so the
    // headings keep their order.
    const headings = await page.locator("#inference-examples section.provider h3").evaluateAll((hs) =>
      hs.filter((h) => h.checkVisibility()).map((h) => [h.textContent, h.classList.contains("visually-hidden")]),
    );
    assert.deepEqual(headings, [["Provider: auto", true]]);
    const visibleSections = await page.locator("#inference-examples section.provider").evaluateAll((ss) =>
      ss.filter((s) => s.checkVisibility()).map((s) => s.dataset.provider),
    );
    assert.deepEqual(visibleSections, ["auto"]);
    // Loading without a fragment leaves the URL alone.
    assert.equal(await currentHash(page), "");
    await context.close();
  });

  test("language, client and provider choose the example shown", async () => {
    const { context, page } = await openModel(CHAT_MODEL);
    assert.deepEqual(await tabNames(page, "Language"), ["Python", "JavaScript", "cURL"]);
    assert.deepEqual(await tabNames(page, "Client"), ["huggingface_hub", "requests", "openai"]);
    assert.deepEqual(await providerSelect(page).locator("option").allTextContents(), [
      "auto",
      "hf-inference",
      "together",
      "fireworks-ai",
      "nebius",
      "sambanova",
      "novita",
    ]);

    await tablist(page, "Language").getByRole("tab", { name: "JavaScript" }).click();
    let figure = await shownFigure(page);
    assert.deepEqual([figure.language, figure.client, figure.provider], ["js", "huggingface.js", "auto"]);
    assert.match(figure.text, /@huggingface\/inference/);
    assert.deepEqual(await tabNames(page, "Client"), ["huggingface.js", "fetch", "openai"]);
    assert.equal(await currentHash(page), "#ex-auto-js-huggingface.js");

    await tablist(page, "Client").getByRole("tab", { name: "openai" }).click();
    figure = await shownFigure(page);
    assert.equal(figure.id, "ex-auto-js-openai");
    assert.match(figure.text, /from "openai"/);
    assert.equal((await tabPanel(page)).labelledBy, await (await selectedTab(page, "Client")).getAttribute("id"));

    await providerSelect(page).selectOption("together");
    figure = await shownFigure(page);
    assert.equal(figure.id, "ex-together-js-openai");
    assert.match(figure.text, /together/);
    assert.equal(await currentHash(page), "#ex-together-js-openai");
    const visibleSections = await page.locator("#inference-examples section.provider").evaluateAll((ss) =>
      ss.filter((s) => s.checkVisibility()).map((s) => s.dataset.provider),
    );
    assert.deepEqual(visibleSections, ["together"]);

    await tablist(page, "Language").getByRole("tab", { name: "cURL" }).click();
    figure = await shownFigure(page);
    assert.equal(figure.id, "ex-together-sh-curl");
    assert.match(figure.text, /^curl /m);
    assert.deepEqual(await tabNames(page, "Client"), ["curl"]);
    await context.close();
  });

  test("only what exists is offered, and a missing combination falls back", async () => {
    const { context, page } = await openModel(IMAGE_MODEL);
    assert.deepEqual(await providerSelect(page).locator("option").allTextContents(), [
      "auto",
      "hf-inference",
      "fal-ai",
      "together",
      "replicate",
      "nebius",
    ]);
    // No chat model, so no streaming switch.
    assert.equal(await streamingSwitch(page).count(), 0);

    await providerSelect(page).selectOption("fal-ai");
    assert.equal((await shownFigure(page)).id, "ex-fal-ai-python-huggingface_hub");
    assert.deepEqual(await tabNames(page, "Client"), ["huggingface_hub", "requests", "fal_client"]);
    await tablist(page, "Client").getByRole("tab", { name: "fal_client" }).click();
    assert.equal((await shownFigure(page)).id, "ex-fal-ai-python-fal_client");

    // "auto" has no fal_client example: keep the language, change the client.
    await providerSelect(page).selectOption("auto");
    let figure = await shownFigure(page);
    assert.equal(figure.id, "ex-auto-python-huggingface_hub");
    assert.equal(await (await selectedTab(page, "Client")).textContent(), "huggingface_hub");
    assert.equal(await providerSelect(page).inputValue(), "auto");

    // Picking a client "auto" lacks keeps language and client, and changes the provider.
    await tablist(page, "Client").getByRole("tab", { name: "requests" }).click();
    figure = await shownFigure(page);
    assert.equal(figure.id, "ex-hf-inference-python-requests");
    assert.equal(await providerSelect(page).inputValue(), "hf-inference");

    // cURL exists only for some providers; picking it keeps a provider that has it.
    await tablist(page, "Language").getByRole("tab", { name: "cURL" }).click();
    assert.equal((await shownFigure(page)).id, "ex-hf-inference-sh-curl");
    await providerSelect(page).selectOption("replicate");
    figure = await shownFigure(page);
    assert.equal(figure.provider, "replicate");
    assert.equal(figure.language, "python");
    await context.close();
  });

  test("the streaming switch swaps the streaming and non-streaming examples", async () => {
    const { context, page } = await openModel(CHAT_MODEL);
    const toggle = streamingSwitch(page);
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");

    await toggle.click();
    let figure = await shownFigure(page);
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    assert.equal(figure.id, "ex-auto-python-huggingface_hub-stream");
    assert.equal(figure.streaming, "true");
    assert.match(figure.text, /stream=True/);

    // Other choices keep streaming on.
    await tablist(page, "Client").getByRole("tab", { name: "openai" }).click();
    figure = await shownFigure(page);
    assert.equal(figure.id, "ex-auto-python-openai-stream");

    await toggle.click();
    figure = await shownFigure(page);
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    assert.equal(figure.id, "ex-auto-python-openai");
    assert.equal(figure.streaming, "false");
    assert.doesNotMatch(figure.text, /stream=True/);
    await context.close();
  });

  test("copy puts the shown example's exact text on the clipboard", async () => {
    const context = await harness.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: harness.origin });
    const { page } = await openModel(CHAT_MODEL, { context });
    await tablist(page, "Language").getByRole("tab", { name: "JavaScript" }).click();
    await tablist(page, "Client").getByRole("tab", { name: "fetch" }).click();
    await streamingSwitch(page).click();
    const figure = await shownFigure(page);
    assert.equal(figure.id, "ex-auto-js-fetch-stream");

    const button = page.locator(`[id="${figure.id}"] button.copy-button`);
    await button.click();
    await page.locator(`[id="${figure.id}"] button.copy-button`, { hasText: "Copied" }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, figure.text);
    assert.ok(copied.length > 100);
    await context.close();
  });

  test("the choice is remembered on other model pages", async () => {
    const context = await harness.newContext();
    const { page } = await openModel(CHAT_MODEL, { context });
    await tablist(page, "Language").getByRole("tab", { name: "JavaScript" }).click();
    await tablist(page, "Client").getByRole("tab", { name: "openai" }).click();
    await providerSelect(page).selectOption("nebius");
    await streamingSwitch(page).click();
    assert.equal((await shownFigure(page)).id, "ex-nebius-js-openai-stream");
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem("modelpages:inference") ?? "null"));
    assert.deepEqual(stored, { language: "js", client: "openai", provider: "nebius", streaming: true });

    // An image model has no openai client and no streaming: language and provider stay.
    await page.goto(`${harness.origin}${modelPath(IMAGE_MODEL)}`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    let figure = await shownFigure(page);
    assert.equal(figure.id, "ex-nebius-js-huggingface.js");
    // Falling back on another page does not overwrite what was chosen.
    assert.equal(await currentHash(page), "");

    // A classifier has neither nebius nor openai: JavaScript is kept.
    await page.goto(`${harness.origin}${modelPath(CLASSIFIER_MODEL)}`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    figure = await shownFigure(page);
    assert.equal(figure.language, "js");

    // Back on a chat model, the exact choice applies again.
    await page.goto(`${harness.origin}${modelPath(CHAT_MODEL)}`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    assert.equal((await shownFigure(page)).id, "ex-nebius-js-openai-stream");
    assert.equal(await streamingSwitch(page).getAttribute("aria-pressed"), "true");
    assert.equal(await providerSelect(page).inputValue(), "nebius");
    await context.close();
  });

  test("a link to an example selects it, over the remembered choice", async () => {
    const context = await harness.newContext();
    await context.addInitScript(() => {
      if (window.location.protocol !== "http:") return; // about:blank has no storage
      localStorage.setItem(
        "modelpages:inference",
        JSON.stringify({ language: "sh", client: "curl", provider: "auto", streaming: false }),
      );
      // "Use this model" remembers the library: the link must win over that too.
      localStorage.setItem("modelpages:use", JSON.stringify("library"));
    });
    const page = await harness.openPage(context, `${modelPath(CHAT_MODEL)}#ex-sambanova-python-openai-stream`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    const figure = await shownFigure(page);
    assert.equal(figure.id, "ex-sambanova-python-openai-stream");
    assert.equal(await (await selectedTab(page, "Language")).textContent(), "Python");
    assert.equal(await (await selectedTab(page, "Client")).textContent(), "openai");
    assert.equal(await providerSelect(page).inputValue(), "sambanova");
    assert.equal(await streamingSwitch(page).getAttribute("aria-pressed"), "true");
    // The linked example is on screen.
    assert.ok(await page.locator(`[id="${figure.id}"]`).isVisible());
    const inView = await page.locator(`[id="${figure.id}"]`).evaluate((el) => el.getBoundingClientRect().top < innerHeight);
    assert.ok(inView, "linked example is scrolled into view");

    // Following an in-page link to another example selects that one.
    await page.evaluate(() => {
      window.location.hash = "#ex-hf-inference-js-fetch";
    });
    await page.waitForFunction(() => document.getElementById("ex-hf-inference-js-fetch")?.checkVisibility());
    assert.equal((await shownFigure(page)).id, "ex-hf-inference-js-fetch");

    // Without a fragment, the remembered choices apply.
    await page.goto(`${harness.origin}${modelPath(CHAT_MODEL)}`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    assert.equal(await page.locator("#use-library").isVisible(), true, "the remembered use choice");
    await chooseUse(page, "Hosted inference");
    assert.equal((await shownFigure(page)).id, "ex-auto-sh-curl");

    // On a page with dots in the id (huggingface.js).
    await page.goto(`${harness.origin}${modelPath(IMAGE_MODEL)}#ex-replicate-js-huggingface.js`);
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    assert.equal((await shownFigure(page)).id, "ex-replicate-js-huggingface.js");
    await context.close();
  });

  test("works with the keyboard alone", async () => {
    const { context, page } = await openModel(CHAT_MODEL);
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement;
        if (el === null || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          role: el.getAttribute("role"),
          tag: el.tagName.toLowerCase(),
          text: el.textContent,
          selected: el.getAttribute("aria-selected"),
          list: el.closest("[role=tablist]")?.getAttribute("aria-labelledby") ?? null,
          focusVisible: el.matches(":focus-visible"),
          outline: `${style.outlineStyle} ${style.outlineWidth}`,
        };
      });

    // Tab from the top of the page to the first tab.
    let state = null;
    for (let presses = 0; presses < 200; presses += 1) {
      await page.keyboard.press("Tab");
      state = await focused();
      if (state?.role === "tab") break;
    }
    assert.ok(state?.role === "tab", "Tab never reached the tablist");
    assert.equal(state.text, "Python");
    assert.equal(state.selected, "true");
    assert.ok(state.focusVisible, "focus is not :focus-visible");
    assert.match(state.outline, /^solid [1-9]/, "focused tab has no visible outline");

    await page.keyboard.press("ArrowRight");
    state = await focused();
    assert.deepEqual([state.text, state.selected], ["JavaScript", "true"]);
    assert.equal((await shownFigure(page)).language, "js");
    assert.ok(state.focusVisible);

    await page.keyboard.press("End");
    assert.equal((await focused()).text, "cURL");
    assert.equal((await shownFigure(page)).id, "ex-auto-sh-curl");
    await page.keyboard.press("ArrowRight"); // wraps around
    assert.equal((await focused()).text, "Python");
    await page.keyboard.press("ArrowLeft"); // and back
    assert.equal((await focused()).text, "cURL");
    await page.keyboard.press("Home");
    assert.equal((await focused()).text, "Python");
    assert.equal((await shownFigure(page)).id, "ex-auto-python-huggingface_hub");

    // One Tab leaves the language tablist for the client tablist's selected tab.
    await page.keyboard.press("Tab");
    state = await focused();
    assert.deepEqual([state.role, state.text, state.selected], ["tab", "huggingface_hub", "true"]);
    assert.notEqual(state.list, null);
    await page.keyboard.press("ArrowRight");
    assert.equal((await focused()).text, "requests");
    assert.equal((await shownFigure(page)).id, "ex-auto-python-requests");
    await page.keyboard.press("End");
    assert.equal((await shownFigure(page)).id, "ex-auto-python-openai");

    // Then the provider select, changed with the arrow keys.
    await page.keyboard.press("Tab");
    state = await focused();
    assert.equal(state.tag, "select");
    assert.ok(state.focusVisible);
    await page.keyboard.press("ArrowDown");
    assert.equal((await shownFigure(page)).id, "ex-hf-inference-python-openai");

    // Then the streaming switch, toggled with Space.
    await page.keyboard.press("Tab");
    state = await focused();
    assert.equal(state.tag, "button");
    assert.ok(state.focusVisible);
    await page.keyboard.press("Space");
    assert.equal((await shownFigure(page)).id, "ex-hf-inference-python-openai-stream");

    // And the example's copy button is next.
    await page.keyboard.press("Tab");
    state = await focused();
    assert.equal(state.tag, "button");
    assert.match(state.text, /Copy/);
    await context.close();
  });

  test("without JavaScript every example stays visible under its provider", async () => {
    const context = await harness.newContext({ javaScriptEnabled: false });
    for (const id of [CHAT_MODEL, IMAGE_MODEL, CLASSIFIER_MODEL]) {
      const page = await harness.openPage(context, modelPath(id));
      // Hosted inference is one <details> of "Use this model": open it as a reader would.
      await page.locator("#use-inference > summary").click();
      const total = await page.locator("#inference-examples figure.example").count();
      assert.ok(total > 1);
      const shown = await visibleFigures(page);
      assert.equal(shown.length, total, `${id}: only ${shown.length} of ${total} examples visible`);
      const headings = await page.locator("#inference-examples section.provider h3").evaluateAll((hs) =>
        hs.map((h) => h.checkVisibility()),
      );
      assert.ok(headings.length > 0 && headings.every(Boolean), `${id}: provider headings hidden`);
      assert.equal(await page.locator(".inference-controls").innerHTML(), "");
      await page.close();
    }
    await context.close();
  });
});
