// Looks: screenshots in light and dark mode, contrast of the island controls,
// visible focus, and a page that fits a 320 px wide screen.
// Screenshots go to $MODELPAGES_SCREENSHOTS (default site-src/build/screenshots).
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { CHAT_MODEL, IMAGE_MODEL, LONG_NAME_MODEL, SCREENSHOTS, chooseUse, modelPath, useHarness } from "./harness.mjs";

let harness;
useHarness({ before, after, afterEach }, (started) => {
  harness = started;
});
before(() => {
  mkdirSync(SCREENSHOTS, { recursive: true });
});

const SCHEMES = ["light", "dark"];

async function openMounted(context, path, selector) {
  const page = await harness.openPage(context, path);
  await page.waitForSelector(selector, { state: "attached" });
  return page;
}

/**
 * WCAG contrast ratios, measured in the page, of each element's text against
 * the first opaque background behind it and, for controls, of its border.
 */
function measureContrast(selectors) {
  const parse = (value) => {
    const match = value.match(/rgba?\(([^)]+)\)/);
    if (!match) return null;
    const [r, g, b, a = 1] = match[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return { r, g, b, a };
  };
  const luminance = ({ r, g, b }) => {
    const channel = (c) => {
      const s = c / 255;
      return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ratio = (x, y) => {
    const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p);
    return (hi + 0.05) / (lo + 0.05);
  };
  const backgroundOf = (element, skipSelf) => {
    for (let node = skipSelf ? element.parentElement : element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color && color.a > 0.5) return color;
    }
    return parse(getComputedStyle(document.documentElement).backgroundColor) ?? { r: 255, g: 255, b: 255, a: 1 };
  };
  const results = [];
  for (const selector of selectors) {
    for (const element of document.querySelectorAll(selector)) {
      if (!element.checkVisibility()) continue;
      const style = getComputedStyle(element);
      const background = backgroundOf(element, false);
      const text = ratio(parse(style.color), background);
      const borderColor = parse(style.borderTopColor);
      const border =
        style.borderTopStyle !== "none" && Number.parseFloat(style.borderTopWidth) > 0 && borderColor
          ? ratio(borderColor, backgroundOf(element, true))
          : null;
      results.push({ selector, label: (element.textContent ?? "").trim().slice(0, 30), text, border });
    }
  }
  return results;
}

describe("appearance", () => {
  for (const colorScheme of SCHEMES) {
    test(`model page screenshots and contrast, ${colorScheme} mode`, async () => {
      const context = await harness.newContext({ colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await openMounted(context, modelPath(CHAT_MODEL), ".inference-controls[data-mounted] [role=tablist]");
      await chooseUse(page, "Hosted inference");
      await page.emulateMedia({ colorScheme });
      assert.equal(
        await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches),
        colorScheme === "dark",
      );
      // A switched-on streaming switch and a non-default tab show every control state.
      await page.getByRole("button", { name: "Stream the response" }).click();
      await page.getByRole("tab", { name: "JavaScript" }).click();
      await page.getByRole("tab", { name: "fetch" }).focus();
      await page.keyboard.press("ArrowLeft"); // keyboard focus, so :focus-visible shows

      await page.screenshot({ path: join(SCREENSHOTS, `model-${colorScheme}.png`) });
      await page.locator("#use-inference").screenshot({ path: join(SCREENSHOTS, `inference-${colorScheme}.png`) });

      const measured = await page.evaluate(measureContrast, [
        ".picker-label",
        ".tab",
        ".picker-select",
        ".switch",
        ".example-label",
        ".token-note",
        ".copy-button",
      ]);
      assert.ok(measured.length >= 8, "controls to measure are missing");
      for (const { selector, label, text, border } of measured) {
        assert.ok(text >= 4.5, `${selector} "${label}": text contrast ${text.toFixed(2)} < 4.5 (${colorScheme})`);
        if (border !== null && selector !== ".tab") {
          assert.ok(border >= 3, `${selector} "${label}": border contrast ${border.toFixed(2)} < 3 (${colorScheme})`);
        }
      }
      // The switch track and tablist outline are the controls' visible bounds.
      const bounds = await page.evaluate(measureContrast, [".switch-track", ".tablist"]);
      for (const { selector, border } of bounds) {
        assert.ok(border !== null && border >= 3, `${selector}: border contrast ${border} < 3 (${colorScheme})`);
      }
      await context.close();
    });

    test(`index search screenshot and contrast, ${colorScheme} mode`, async () => {
      const context = await harness.newContext({ colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await openMounted(context, "/", ".search-results");
      await page.screenshot({ path: join(SCREENSHOTS, `index-${colorScheme}.png`) });
      const measured = await page.evaluate(measureContrast, [
        ".search-field label",
        ".search-input",
        ".search-select",
        ".search-status",
        ".search-result-id",
        ".search-result-meta",
        ".page-button",
        ".page-number",
      ]);
      assert.ok(measured.length >= 8);
      for (const { selector, label, text, border } of measured) {
        assert.ok(text >= 4.5, `${selector} "${label}": text contrast ${text.toFixed(2)} < 4.5 (${colorScheme})`);
        const inactive = selector === ".page-button" && label === "Previous"; // aria-disabled on page 1
        if (border !== null && !inactive) {
          assert.ok(border >= 3, `${selector} "${label}": border contrast ${border.toFixed(2)} < 3 (${colorScheme})`);
        }
      }
      await context.close();
    });
  }

  test("pages fit a 320 px wide screen; code scrolls inside its block", async () => {
    const context = await harness.newContext({ viewport: { width: 320, height: 640 } });
    const pages = [
      [modelPath(CHAT_MODEL), ".inference-controls[data-mounted] [role=tablist]"],
      [modelPath(IMAGE_MODEL), ".inference-controls[data-mounted] [role=tablist]"],
      // The longest name an id can have wraps in the header.
      [modelPath(LONG_NAME_MODEL), ".inference-controls[data-mounted] [role=tablist]"],
      ["/", ".search-results"],
    ];
    const shotName = { [modelPath(CHAT_MODEL)]: "chat", [modelPath(IMAGE_MODEL)]: "image", [modelPath(LONG_NAME_MODEL)]: "long-name" };
    for (const [path, ready] of pages) {
      const page = await openMounted(context, path, ready);
      if (path !== "/") await chooseUse(page, "Hosted inference");
      const widths = await page.evaluate(() => ({
        scroll: document.scrollingElement.scrollWidth,
        client: document.scrollingElement.clientWidth,
      }));
      assert.ok(
        widths.scroll <= widths.client,
        `${path}: page scrolls sideways at 320 px (${widths.scroll} > ${widths.client})`,
      );
      if (path !== "/") {
        const code = await page.evaluate(() => {
          const pre = [...document.querySelectorAll("#inference-examples pre")].find((p) => p.checkVisibility());
          return pre ? { scroll: pre.scrollWidth, client: pre.clientWidth, overflow: getComputedStyle(pre).overflowX } : null;
        });
        assert.ok(code !== null);
        assert.ok(code.scroll > code.client, "long code lines should overflow their block at 320 px");
        assert.equal(code.overflow, "auto");
        await page.screenshot({ path: join(SCREENSHOTS, `narrow-${shotName[path]}.png`) });
      } else {
        await page.screenshot({ path: join(SCREENSHOTS, "narrow-index.png") });
      }
      await page.close();
    }
    await context.close();
  });
});
