// Bundles the React islands into build/islands.js (an IIFE for a plain <script>).
// Usage: node build.mjs   (from any directory; paths are relative to this file)
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

/** Budget for the gzipped bundle, in bytes (60 KB). */
export const GZIP_BUDGET_BYTES = 61440;

const siteSrc = dirname(fileURLToPath(import.meta.url));
const entryPoint = join(siteSrc, "islands", "main.tsx");
const outfile = join(siteSrc, "build", "islands.js");

const result = await esbuild.build({
  absWorkingDir: siteSrc,
  entryPoints: [entryPoint],
  outfile,
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  platform: "browser",
  define: { "process.env.NODE_ENV": '"production"' },
  jsx: "automatic",
  sourcemap: false,
  legalComments: "none",
  // Keep the bytes in memory so the sizes are measured on exactly what is written.
  write: false,
  logLevel: "warning",
});

if (result.outputFiles.length !== 1) {
  throw new Error(`expected exactly one output file, got ${result.outputFiles.length}`);
}
const contents = result.outputFiles[0].contents;

await mkdir(dirname(outfile), { recursive: true });
await writeFile(outfile, contents);

const gzipBytes = gzipSync(contents, { level: 9 }).length;
console.log(
  `${relative(siteSrc, outfile)}: ${contents.length} bytes, ${gzipBytes} bytes gzipped ` +
    `(budget ${GZIP_BUDGET_BYTES} bytes gzipped)`,
);

if (gzipBytes > GZIP_BUDGET_BYTES) {
  console.error(
    `error: gzipped bundle is ${gzipBytes} bytes, over the ${GZIP_BUDGET_BYTES}-byte budget`,
  );
  process.exitCode = 1;
}
