// Shared set-up for the browser tests: a static server over the built site and
// a headless Chromium (Debian's /usr/bin/chromium) driven by playwright-core.
// Every page opened through `openPage` records console errors, page errors and
// every request, so each test can assert that none went wrong or off-host.
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { startServer } from "../../tools/serve.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));

// `make test-browser` passes the browser it found (PATH or MODELPAGES_CHROMIUM).
export const CHROMIUM = process.env.MODELPAGES_CHROMIUM || "/usr/bin/chromium";
export const DIST = resolve(siteSrc, process.env.MODELPAGES_DIST ?? "../dist");
export const SCREENSHOTS = resolve(siteSrc, process.env.MODELPAGES_SCREENSHOTS ?? "build/screenshots");

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Model pages the tests rely on (all in the repository's models/ corpus). */
export const CHAT_MODEL = "meta-llama/Llama-3.1-8B-Instruct";
export const IMAGE_MODEL = "black-forest-labs/FLUX.1-dev";
export const CLASSIFIER_MODEL = "distilbert/distilbert-base-uncased-finetuned-sst-2-english";
/** A name of 96 characters, the most the Hub allows after the slash (116 in all). */
export const LONG_NAME_MODEL =
  "modelpages-fixtures/a-fixture-whose-name-has-96-characters-as-many-as-the-hub-allows-after-the-slash-of-a-model-id-1";

/** Fails with the fix when the browser or the built site is missing. */
export function checkPrerequisites(dist = DIST) {
  if (!existsSync(CHROMIUM)) {
    assert.fail(
      `${CHROMIUM} is missing: the browser tests drive Debian's Chromium. ` +
        "Install it with `apt-get install -y chromium` (as root), then run `npm run test:browser` again.",
    );
  }
  if (!existsSync(join(dist, "index.html"))) {
    assert.fail(
      `${dist} holds no built site: run \`make islands && target/release/modelpages build\` ` +
        "in the repository root first, or point MODELPAGES_DIST at a built site.",
    );
  }
  // The site embeds a copy of build/islands/; testing an older copy would
  // test old code. Names carry a hash of the content: the loader's name is
  // the same only when every chunk it names is too.
  const built = join(siteSrc, "build", "islands");
  const copied = join(dist, "assets", "islands");
  if (existsSync(built) && existsSync(copied)) {
    const loaders = (dir) => readdirSync(dir).filter((name) => /^islands-.*\.js$/.test(name));
    const [loader] = loaders(built);
    if (loader !== undefined && !loaders(copied).includes(loader)) {
      assert.fail(
        `${dist} was built with older island modules than build/islands/: ` +
          "rebuild the site (`target/release/modelpages build` in the repository root) before the browser tests.",
      );
    }
  }
}

/**
 * Starts the server (over `dist`, by default the site MODELPAGES_DIST names)
 * and the browser. Returns { origin, port, browser, newContext, openPage,
 * problems, close }.
 */
export async function startHarness({ dist = DIST } = {}) {
  checkPrerequisites(dist);
  const server = await startServer(dist, 0);
  // launch() starts Chromium on a fresh temporary profile directory of its own
  // (removed on close), so every run is independent of the last; contexts
  // from newContext() are isolated from each other as well.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });

  /** Everything that went wrong on any page: checked after each test. */
  const problems = [];
  /** Every URL any page requested. */
  const requests = [];

  const watch = (page) => {
    page.on("console", (message) => {
      if (message.type() !== "error") {
        return;
      }
      // Browsers ask every site for /favicon.ico on their own; the generated
      // site has none yet, which is not an error of the page under test.
      const source = message.location().url;
      if (source === `${server.origin}/favicon.ico` && !existsSync(join(dist, "favicon.ico"))) {
        return;
      }
      problems.push(`console error on ${page.url()}: ${message.text()}${source ? ` (${source})` : ""}`);
    });
    page.on("pageerror", (error) => {
      problems.push(`page error on ${page.url()}: ${error.message}`);
    });
    page.on("request", (request) => {
      requests.push(request.url());
    });
  };

  const newContext = async (options = {}) => {
    const context = await browser.newContext(options);
    context.on("page", watch);
    return context;
  };

  const openPage = async (context, path) => {
    const page = await context.newPage();
    await page.goto(`${server.origin}${path}`, { waitUntil: "load" });
    return page;
  };

  /** Requests that went anywhere but our server. */
  const offHostRequests = () =>
    requests.filter((url) => {
      if (url.startsWith("data:") || url === "about:blank") {
        return false;
      }
      try {
        const { hostname, port } = new URL(url);
        return hostname !== "127.0.0.1" || Number(port) !== server.port;
      } catch {
        return true;
      }
    });

  /** Takes requests a route answered itself (never sent) out of the record. */
  const forgetRequests = (urls) => {
    const answered = new Set(urls);
    requests.splice(0, requests.length, ...requests.filter((url) => !answered.has(url)));
  };

  const close = async () => {
    await browser.close();
    await server.close();
  };

  return {
    origin: server.origin,
    port: server.port,
    browser,
    newContext,
    openPage,
    problems,
    requests,
    offHostRequests,
    forgetRequests,
    close,
  };
}

/**
 * Answers `route` with the image `body` when it asks another host for an
 * `https:` image (cards may show those), without sending the request, and
 * records `{ url, referer }` in `record`; false for any other request.
 */
export async function answerRemoteImage(route, record, body) {
  const request = route.request();
  const url = new URL(request.url());
  if (url.protocol !== "https:" || request.resourceType() !== "image") {
    return false;
  }
  record.push({ url: url.href, referer: (await request.allHeaders()).referer ?? null });
  await route.fulfill({ status: 200, contentType: "image/png", body });
  return true;
}

/** A 1x1 PNG, answered for the remote images of cards. */
export const STAND_IN_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

/**
 * For test files whose pages show cards with remote images: returns a
 * `newContext(options)` whose `https:` images are answered with
 * STAND_IN_PNG (never sent) and other requests to other hosts refused, and
 * takes the answered ones out of the harness's record after each test.
 * Call it before `useHarness`, so that happens before the harness checks.
 */
export function standInRemoteImages(afterEach, harness) {
  const answered = [];
  afterEach(() => {
    harness().forgetRequests(answered.splice(0).map((a) => a.url));
  });
  return async (options) => {
    const context = await harness().newContext(options);
    await context.route(/^https:\/\//, async (route) => {
      if (!(await answerRemoteImage(route, answered, STAND_IN_PNG))) await route.abort();
    });
    return context;
  };
}

/** Attributes and text of every example figure that is shown. */
/**
 * Registers the hooks every browser test file needs: start the harness before
 * the tests (handing it to `onStart`), close it after, and after each test
 * check that no page logged an error or asked another host for anything.
 */
export function useHarness({ before, after, afterEach }, onStart, options = {}) {
  let harness;
  before(async () => {
    harness = await startHarness(options);
    onStart(harness);
  });
  after(async () => {
    await harness?.close();
  });
  afterEach(() => {
    const problems = harness.problems.splice(0);
    assert.deepEqual(problems, [], "console or page errors");
    assert.deepEqual(harness.offHostRequests(), [], "requests to hosts other than the test server");
  });
}

export async function visibleFigures(page) {
  return page.$$eval("#inference-examples figure.example", (figures) =>
    figures
      .filter((figure) => figure.checkVisibility())
      .map((figure) => ({
        id: figure.id,
        provider: figure.dataset.provider,
        language: figure.dataset.language,
        client: figure.dataset.client,
        streaming: figure.dataset.streaming,
        role: figure.getAttribute("role"),
        labelledBy: figure.getAttribute("aria-labelledby"),
        text: figure.querySelector("pre code")?.textContent ?? "",
      })),
  );
}

/** The one visible figure (fails unless exactly one is shown). */
export async function shownFigure(page) {
  const shown = await visibleFigures(page);
  assert.equal(shown.length, 1, `expected exactly one visible example, got ${shown.map((f) => f.id).join(", ")}`);
  return shown[0];
}

/** The inference island's tablist named `name` ("Language" or "Client"). */
export function tablist(page, name) {
  return page.getByRole("tablist", { name, exact: true });
}

/**
 * Picks `name` ("Hosted inference", "Ollama"...) in a model page's "Use this
 * model" tabs, unless it is already the one shown; the choice is then
 * remembered for the context's other pages.
 */
export async function chooseUse(page, name) {
  const tab = page.locator(".use-tabs [role=tablist]").getByRole("tab", { name, exact: true });
  if ((await tab.getAttribute("aria-selected")) !== "true") {
    await tab.click();
  }
  await page.waitForFunction((label) => {
    const selected = document.querySelector('.use-tabs [role=tab][aria-selected="true"]');
    const panel = selected && document.getElementById(selected.getAttribute("aria-controls"));
    return selected?.textContent === label && panel?.checkVisibility();
  }, name);
}

export function modelPath(id) {
  return `/${id}/`;
}
