// `modelpages serve` in headless Chromium: a page reloads after a rebuild,
// shows a broken record's error over the page (as text) and drops it once
// the record is fixed. Runs the release binary (MODELPAGES_BIN) on a copy of
// one corpus model. Run with: npm run test:browser
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CHROMIUM, CHROMIUM_ARGS, CLASSIFIER_MODEL, SCREENSHOTS, modelPath } from "./harness.mjs";

const siteSrc = fileURLToPath(new URL("../../", import.meta.url));
const BIN = resolve(siteSrc, process.env.MODELPAGES_BIN ?? "../target/release/modelpages");
const OVERLAY = "#modelpages-build-errors";

let work;
let server;
let output = "";
let browser;
let origin;

/** Resolves with the URL once the server prints its serving line. */
function startServer(models) {
  server = spawn(BIN, ["serve", "--port", "0", "--models", models, "--out", join(work, "dist"), "--site-src", siteSrc], {
    cwd: work,
    stdio: ["ignore", "ignore", "pipe"],
  });
  server.stderr.setEncoding("utf8");
  return new Promise((resolveUrl, reject) => {
    server.stderr.on("data", (chunk) => {
      output += chunk;
      const found = output.match(/serving (http:\/\/127\.0\.0\.1:\d+)\//);
      if (found) {
        resolveUrl(found[1]);
      }
    });
    server.on("exit", (code) => reject(new Error(`modelpages serve exited with ${code}:\n${output}`)));
  });
}

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: run \`cargo build --release\` in the repository root first`);
  work = mkdtempSync(join(tmpdir(), "modelpages-serve-"));
  const models = join(work, "models");
  cpSync(resolve(siteSrc, "../models", CLASSIFIER_MODEL), join(models, CLASSIFIER_MODEL), { recursive: true });
  origin = await startServer(models);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, timeout: 60_000 });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    server.kill("SIGKILL");
  }
  if (work) {
    rmSync(work, { recursive: true, force: true });
  }
});

test("reloads after a rebuild, shows a broken record's error as text, and clears it when fixed", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
  page.on("pageerror", (error) => problems.push(error.message));
  // Listening before the change, so a reload that follows is the change's.
  const listening = page.waitForResponse((response) => response.url().endsWith("/__modelpages/events"));
  await page.goto(`${origin}${modelPath(CLASSIFIER_MODEL)}`, { waitUntil: "load" });
  await listening;
  const recordPath = join(work, "models", CLASSIFIER_MODEL, "model.json");
  const original = readFileSync(recordPath, "utf8");

  const changed = JSON.parse(original);
  changed.tags = [...(changed.tags ?? []), "mp-browser-change"];
  const reloaded = page.waitForEvent("load", { timeout: 60_000 });
  writeFileSync(recordPath, JSON.stringify(changed));
  await reloaded;
  assert.ok((await page.content()).includes("mp-browser-change"), "the reloaded page shows the change");

  // An invalid id; the error quotes it, markup and all.
  const hostile = { ...changed, id: 'evil/<img src=x onerror="window.__pwned=1">' };
  writeFileSync(recordPath, JSON.stringify(hostile));
  const overlay = page.locator(OVERLAY);
  await overlay.waitFor({ state: "visible", timeout: 60_000 });
  const text = await overlay.textContent();
  assert.match(text, /model\.json: invalid id "evil\/<img src=x onerror=\\"window\.__pwned=1\\">"/);
  assert.equal(await overlay.locator("img").count(), 0, "error text is text, not markup");
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, "serve-error-overlay.png") });

  const fixed = page.waitForEvent("load", { timeout: 60_000 });
  writeFileSync(recordPath, original);
  await fixed;
  await page.waitForSelector(OVERLAY, { state: "detached" });
  assert.ok(!(await page.content()).includes("mp-browser-change"), "the page shows the fixed record");
  assert.deepEqual(problems, [], "no console errors: the live script keeps to the page's CSP");

  const exited = new Promise((resolveExit) => server.on("exit", (code) => resolveExit(code)));
  server.kill("SIGINT");
  assert.equal(await exited, 0, output);
});
