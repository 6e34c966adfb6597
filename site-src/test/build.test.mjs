// Build checks for the island modules (a loader and a chunk per island).
// Run with: node --test test/
import { test, before } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { gzipSync } from "node:zlib";

const siteSrc = new URL("../", import.meta.url);
const outUrl = new URL("build/islands/", siteSrc);
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
  const files = new Map(readdirSync(outUrl).sort().map((name) => [name, readFileSync(new URL(name, outUrl))]));
  const loader = [...files.keys()].find((name) => name.startsWith("islands-"));
  return { stdout: result.stdout, files, loader, bytes: Buffer.concat([...files.values()]) };
}

/** The files `name` imports, statically (and, with `dynamic`, by import()), transitively. */
function importsOf(files, name, dynamic, seen = new Set()) {
  if (seen.has(name)) return seen;
  seen.add(name);
  const source = files.get(name).toString("utf8");
  const statics = [...source.matchAll(/(?:import|from)\s*["']\.\/([\w-]+\.js)["']/g)].map((m) => m[1]);
  const dynamics = dynamic ? [...source.matchAll(/import\(["']\.\/([\w-]+\.js)["']\)/g)].map((m) => m[1]) : [];
  for (const imported of statics) importsOf(files, imported, false, seen);
  for (const imported of dynamics) importsOf(files, imported, false, seen);
  return seen;
}

let first;
before(() => {
  first = runBuild();
});

test("build writes a small loader and a chunk per island", () => {
  assert.ok(first.loader, "build/islands/islands-<hash>.js is missing");
  // What every page with an island loads before knowing which it has: the
  // loader and its static imports (esbuild's module helpers), no React.
  const upFront = [...importsOf(first.files, first.loader, false)];
  const bytes = upFront.reduce((sum, name) => sum + gzipSync(first.files.get(name), { level: 9 }).length, 0);
  assert.ok(bytes > 0 && bytes < 2048, `the loader and its static imports are ${bytes} bytes gzipped`);
  assert.ok(!upFront.some((name) => first.files.get(name).toString("utf8").includes("react.")), "React is loaded up front");
  assert.ok(importsOf(first.files, first.loader, true).size >= 6, "the islands' chunks");
  for (const name of first.files.keys()) assert.match(name, /^(islands|chunk)-[A-Z0-9]+\.js$/);
});

test("build reports the gzipped size each kind of page loads", () => {
  const loader = gzipSync(first.files.get(first.loader), { level: 9 }).length;
  assert.match(first.stdout, new RegExp(`loader build/islands/${first.loader}: ${loader} bytes gzipped`));
  assert.match(first.stdout, /^model page \(copy, use, quant, inference, counts\): \d+ files, \d+ bytes gzipped/m);
  assert.match(first.stdout, /^index \(model-search\): \d+ files, \d+ bytes gzipped/m);
});

test(`a page loads at most ${GZIP_BUDGET_BYTES} bytes gzipped`, () => {
  // Measured here from the files, independently of what build.mjs reports:
  // everything the loader can import is an upper bound for any one page.
  const all = importsOf(first.files, first.loader, true);
  const gzipped = [...all].reduce((sum, name) => sum + gzipSync(first.files.get(name), { level: 9 }).length, 0);
  for (const [, bytes] of first.stdout.matchAll(/: \d+ files, (\d+) bytes gzipped/g)) {
    assert.ok(Number(bytes) <= GZIP_BUDGET_BYTES, `a page loads ${bytes} > ${GZIP_BUDGET_BYTES}`);
    assert.ok(Number(bytes) <= gzipped);
  }
  assert.ok(gzipped <= GZIP_BUDGET_BYTES * 1.5, `all islands together ${gzipped} bytes gzipped`);
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

  // Code is loaded only from beside the loader: import() of ./chunk-<hash>.js.
  const imports = [...source.matchAll(/\bimport\s*\(([^)]*)\)/g)].map((m) => m[1]);
  assert.ok(imports.length > 0);
  for (const specifier of imports) assert.match(specifier, /^["']\.\/chunk-[A-Z0-9]+\.js["']$/);
  assert.ok(!/\bimportScripts\s*\(/.test(source), "importScripts() in bundle");
});

test("building twice gives identical bytes", () => {
  const second = runBuild();
  assert.deepEqual([...second.files.keys()], [...first.files.keys()]);
  assert.ok(first.bytes.equals(second.bytes), "second build differs from the first");
});
