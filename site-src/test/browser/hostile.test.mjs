// Every page built from the hostile corpus (generator/cli/tests/hostile_corpus),
// opened in headless Chromium: no dialog opens, no script from a record runs
// (the records' payloads all try to set window.__pwned or open a dialog), and
// no request leaves the test server but a card's `https:` images, which are
// answered here (never sent) and must ask without a referrer. `make
// test-browser` builds the site; MODELPAGES_HOSTILE_DIST names it.
import { after, afterEach, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { readFileSync } from "node:fs";
import { answerRemoteImage, chooseUse, tablist, useHarness } from "./harness.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));
const HOSTILE_DIST = process.env.MODELPAGES_HOSTILE_DIST && resolve(siteSrc, process.env.MODELPAGES_HOSTILE_DIST);
if (!HOSTILE_DIST) {
  throw new Error(
    "MODELPAGES_HOSTILE_DIST is not set: run `make test-browser`, which builds the hostile corpus's site " +
      "(target/browser-site/hostile) and points this test at it.",
  );
}

/** Namespaces of the hostile corpus's models (see its cases.rs). */
const HOSTILE_NAMESPACES = "(cards|values|types|json|twins|fs)";
const HOSTILE_MODEL = new RegExp(`^${HOSTILE_NAMESPACES}/[^/]+/index\\.html$`);
const HOSTILE_LINK = new RegExp(`href="/${HOSTILE_NAMESPACES}/`);

/**
 * The HTML files of the site that hold anything from a record, as URL paths
 * (`/a/b/` for `a/b/index.html`): model pages and every page listing one.
 * Listing pages of libraries without a hostile model are the template alone.
 */
function pagePaths(dist) {
  const paths = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(path);
      } else if (entry.name.endsWith(".html")) {
        const rel = relative(dist, path).split(sep).join("/");
        const hostile = HOSTILE_MODEL.test(rel) || HOSTILE_LINK.test(readFileSync(path, "utf8")) || rel === "404.html";
        if (!hostile) {
          continue;
        }
        paths.push(`/${rel.replace(/(^|\/)index\.html$/, "$1")}`);
      }
    }
  };
  walk(dist);
  return paths.sort();
}

let harness;
useHarness(
  { before, after, afterEach },
  (started) => {
    harness = started;
  },
  { dist: HOSTILE_DIST },
);

/** An empty image answered for every remote image request. */
const EMPTY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);

/**
 * A context whose pages report any dialog and whose requests may only go to
 * the test server: `https:` images are recorded and answered with an empty
 * one; anything else is recorded and aborted before it leaves.
 */
async function trappedContext() {
  const context = await harness.newContext();
  const trapped = { dialogs: [], offHost: [], remoteImages: [] };
  context.on("page", (page) => {
    page.on("dialog", async (dialog) => {
      trapped.dialogs.push(`${page.url()}: ${dialog.type()} ${dialog.message()}`);
      await dialog.dismiss();
    });
  });
  await context.route("**/*", async (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === "data:" || (url.hostname === "127.0.0.1" && Number(url.port) === harness.port)) {
      await route.continue();
    } else if (!(await answerRemoteImage(route, trapped.remoteImages, EMPTY_PNG))) {
      trapped.offHost.push(url.href);
      await route.abort();
    }
  });
  // Set before any page script: the global a payload would set, and a
  // record of every attempt to open a dialog even if one were swallowed.
  await context.addInitScript(() => {
    window.__dialogCalls = [];
    for (const name of ["alert", "confirm", "prompt", "print"]) {
      const original = window[name];
      window[name] = (...args) => {
        window.__dialogCalls.push(name);
        return original.apply(window, args);
      };
    }
  });
  return { context, trapped };
}

/** What a page's scripts did: the trap global and dialog calls. */
async function sprung(page) {
  return page.evaluate(() => ({ pwned: typeof window.__pwned, dialogCalls: window.__dialogCalls }));
}

describe("hostile corpus in the browser", () => {
  test("no page runs a record's script, opens a dialog or asks another host", async () => {
    const paths = pagePaths(HOSTILE_DIST);
    const modelPages = paths.filter((p) => /^\/[^/]+\/[^/]+\/$/.test(p) && !/^\/(libraries|tasks)\//.test(p));
    assert.ok(modelPages.length >= 40, `${modelPages.length} model pages in ${HOSTILE_DIST}`);
    const { context, trapped } = await trappedContext();
    const page = await context.newPage();
    for (const path of paths) {
      await page.goto(`${harness.origin}${path}`, { waitUntil: "load" });
      // Error handlers of broken images fire after load; give them a moment.
      await page.waitForTimeout(path.split("/").length > 3 ? 50 : 10);
      assert.deepEqual(await sprung(page), { pwned: "undefined", dialogCalls: [] }, `a record's script ran on ${path}`);
    }
    assert.deepEqual(trapped.dialogs, [], "dialogs opened");
    assert.deepEqual(trapped.offHost, [], "requests to other hosts");
    assert.deepEqual(trapped.remoteImages.filter((image) => image.referer !== null), [], "remote images sent a referrer");
    harness.forgetRequests(trapped.remoteImages.map((image) => image.url));
    // Cards may name images by relative paths the site does not serve (the
    // sanitiser keeps those, as it keeps `<img src=x>` without its handler):
    // a 404 from the test server itself is expected, anything else is not.
    const notFound = (problem) => problem.includes(`${harness.origin}/`) && problem.includes("status of 404");
    const expected = harness.problems.filter(notFound);
    harness.problems.splice(0, harness.problems.length, ...harness.problems.filter((p) => !notFound(p)));
    assert.ok(expected.every((p) => /\/cards\//.test(p)), `404s outside the hostile cards: ${expected}`);
    await context.close();
  });

  test("searching for the payloads renders them as text", async () => {
    const { context, trapped } = await trappedContext();
    const page = await harness.openPage(context, "/");
    const input = page.getByLabel("Search by name, tag, task or library");
    for (const query of ["MPHOSTILE", "script", "onerror", "values"]) {
      await input.fill(query);
      await input.press("Enter");
      await page.waitForTimeout(100);
      assert.deepEqual(await sprung(page), { pwned: "undefined", dialogCalls: [] }, `search for ${query}`);
    }
    assert.ok((await page.locator(".search-results li").count()) > 0, "the search found the hostile models");
    assert.deepEqual(trapped.dialogs, []);
    assert.deepEqual(trapped.offHost, []);
    await context.close();
  });

  test("switching every example tab of a hostile model runs nothing", async () => {
    const { context, trapped } = await trappedContext();
    const page = await harness.openPage(context, "/values/transformers-chat/");
    await page.waitForSelector(".inference-controls[data-mounted] [role=tablist]", { state: "attached" });
    // Hosted inference is one choice of "Use this model".
    await chooseUse(page, "Hosted inference");
    const languages = tablist(page, "Language").getByRole("tab");
    let shown = 0;
    for (let i = 0; i < (await languages.count()); i += 1) {
      await languages.nth(i).click();
      const clients = tablist(page, "Client").getByRole("tab");
      for (let j = 0; j < (await clients.count()); j += 1) {
        await clients.nth(j).click();
        shown += 1;
      }
    }
    assert.ok(shown >= 4, `${shown} examples shown`);
    assert.deepEqual(await sprung(page), { pwned: "undefined", dialogCalls: [] });
    assert.deepEqual(trapped.dialogs, []);
    assert.deepEqual(trapped.offHost, []);
    await context.close();
  });
});
