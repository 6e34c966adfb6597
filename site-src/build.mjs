// Bundles the React islands into build/islands/: a small loader
// (islands-<hash>.js, the one script a page with islands names) and one
// ES-module chunk per island, with the code they share (React) in chunks
// of its own, so a page loads only the code of the islands it has.
// Every name carries a hash of its content, so hosts can cache forever.
// Usage: node build.mjs   (from any directory; paths are relative to this file)
import { mkdir, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

/** Budget for the gzipped code one page loads, in bytes (60 KB). */
export const GZIP_BUDGET_BYTES = 61440;

/** The islands each kind of page has: the budget holds for each. */
export const PAGE_ISLANDS = {
  "model page": ["copy", "use", "quant", "inference", "counts"],
  index: ["model-search"],
  "namespace page": ["namespace-counts"],
};

const siteSrc = dirname(fileURLToPath(import.meta.url));
const outdir = join(siteSrc, "build", "islands");

const result = await esbuild.build({
  absWorkingDir: siteSrc,
  entryPoints: { islands: join(siteSrc, "islands", "main.tsx") },
  outdir,
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  bundle: true,
  splitting: true,
  minify: true,
  format: "esm",
  target: "es2020",
  platform: "browser",
  define: { "process.env.NODE_ENV": '"production"' },
  jsx: "automatic",
  sourcemap: false,
  legalComments: "none",
  metafile: true,
  // Keep the bytes in memory so the sizes are measured on exactly what is written.
  write: false,
  logLevel: "warning",
});

// No file of an earlier build stays behind to be copied into sites.
await rm(outdir, { recursive: true, force: true });
await mkdir(outdir, { recursive: true });
const gzipped = new Map();
for (const file of result.outputFiles) {
  await writeFile(file.path, file.contents);
  gzipped.set(relative(siteSrc, file.path), gzipSync(file.contents, { level: 9 }).length);
}

const outputs = result.metafile.outputs;
const loader = Object.keys(outputs).find((path) => outputs[path].entryPoint?.endsWith("islands/main.tsx"));
if (loader === undefined || !basename(loader).startsWith("islands-")) {
  throw new Error(`no loader among the outputs: ${Object.keys(outputs).join(", ")}`);
}

/** `path` and every output it imports, statically or (with `dynamic`) not. */
function closure(path, dynamic, seen = new Set()) {
  if (seen.has(path)) return seen;
  seen.add(path);
  for (const { path: imported, kind } of outputs[path].imports) {
    if (kind === "import-statement" || (dynamic && kind === "dynamic-import")) closure(imported, false, seen);
  }
  return seen;
}

/** The output of island `name`: the chunk its mount module became. */
function islandOutput(name) {
  const entry = `islands/mount-${name === "model-search" ? "search" : name}.tsx`;
  const found = Object.keys(outputs).find((path) => outputs[path].entryPoint === entry);
  if (found === undefined) throw new Error(`no chunk for island ${name}`);
  return found;
}

let over = false;
for (const [page, names] of Object.entries(PAGE_ISLANDS)) {
  const files = new Set([loader, ...names.flatMap((name) => [...closure(islandOutput(name), false)])]);
  files.forEach((file) => closure(file, false, files));
  const bytes = [...files].reduce((sum, file) => sum + gzipped.get(file), 0);
  console.log(`${page} (${names.join(", ")}): ${files.size} files, ${bytes} bytes gzipped (budget ${GZIP_BUDGET_BYTES})`);
  if (bytes > GZIP_BUDGET_BYTES) {
    console.error(`error: a ${page} loads ${bytes} bytes gzipped, over the ${GZIP_BUDGET_BYTES}-byte budget`);
    over = true;
  }
}
console.log(`loader ${relative(siteSrc, loader)}: ${gzipped.get(loader)} bytes gzipped`);
if (over) {
  process.exitCode = 1;
}
