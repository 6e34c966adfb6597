// Build checks for the islands bundle. Run with: node --test test/
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";

const siteSrc = new URL("../", import.meta.url);
const bundleUrl = new URL("build/islands.js", siteSrc);
const GZIP_BUDGET_BYTES = 61440;

/**
 * Absolute URLs that may appear in the bundle. None of them is ever fetched:
 * React puts its error-decoder link into error *messages* only, and the W3C
 * addresses are XML namespace identifiers compared as plain strings.
 */
const ALLOWED_URL_PREFIXES = ["https://reactjs.org/docs/error-decoder.html"];
const ALLOWED_EXACT_URLS = new Set([
  "http://www.w3.org/1998/Math/MathML",
  "http://www.w3.org/1999/xhtml",
  "http://www.w3.org/1999/xlink",
  "http://www.w3.org/2000/svg",
  "http://www.w3.org/XML/1998/namespace",
]);

function runBuild() {
  const result = spawnSync(process.execPath, ["build.mjs"], {
    cwd: siteSrc,
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(
    result.status,
    0,
    `node build.mjs exited with ${result.status}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`,
  );
  return { stdout: result.stdout, bytes: readFileSync(bundleUrl) };
}

let first;
before(() => {
  first = runBuild();
});

test("build writes build/islands.js", () => {
  assert.ok(existsSync(bundleUrl), "build/islands.js is missing");
  assert.ok(first.bytes.length > 0, "build/islands.js is empty");
});

test("build reports the raw and gzipped sizes of what it wrote", () => {
  const gzipped = gzipSync(first.bytes, { level: 9 }).length;
  assert.match(first.stdout, new RegExp(`\\b${first.bytes.length} bytes\\b`));
  assert.match(first.stdout, new RegExp(`\\b${gzipped} bytes gzipped\\b`));
});

test(`bundle is at most ${GZIP_BUDGET_BYTES} bytes gzipped`, () => {
  const gzipped = gzipSync(first.bytes, { level: 9 }).length;
  assert.ok(gzipped <= GZIP_BUDGET_BYTES, `gzipped size ${gzipped} > ${GZIP_BUDGET_BYTES}`);
});

test("bundle contains the island runtime", () => {
  const source = first.bytes.toString("utf8");
  assert.ok(source.includes("[data-island]"), "island selector missing");
  assert.ok(source.includes("data-mounted"), "mounted marker missing");
  assert.ok(source.includes("Copy failed"), "copy island missing");
});

test("bundle loads no remote resources", () => {
  const source = first.bytes.toString("utf8");

  const urls = source.match(/\bhttps?:\/\/[^\s"'`<>()\\]*/g) ?? [];
  const unexpected = urls.filter(
    (url) =>
      !ALLOWED_EXACT_URLS.has(url) && !ALLOWED_URL_PREFIXES.some((prefix) => url.startsWith(prefix)),
  );
  assert.deepEqual([...new Set(unexpected)], [], "unexpected absolute URLs in bundle");

  // Protocol-relative addresses ("//cdn.example/x.js") would load remotely as well.
  const protocolRelative = source.match(/["'`]\/\/[a-z0-9-]+(?:\.[a-z0-9-]+)+/gi) ?? [];
  assert.deepEqual(protocolRelative, [], "protocol-relative URLs in bundle");

  // The bundle is a single self-contained IIFE: no code loading.
  assert.ok(!/\bimport\s*\(/.test(source), "dynamic import() in bundle");
  assert.ok(!/\bimportScripts\s*\(/.test(source), "importScripts() in bundle");
});

test("building twice gives identical bytes", () => {
  const second = runBuild();
  assert.ok(first.bytes.equals(second.bytes), "second build differs from the first");
});
