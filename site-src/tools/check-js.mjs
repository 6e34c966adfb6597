// Checks generated JavaScript examples: each file must parse as an ES module
// and use no undefined global (ESLint's no-undef, with node and browser
// globals). With --literal TEXT, every string literal that mentions TEXT's
// first 8 characters must hold TEXT unchanged; with --literals JSON (an
// object from file-name prefix to TEXT), a file named PREFIX-... uses its own.
// Usage: node tools/check-js.mjs [--literal TEXT | --literals JSON] FILE...
// Prints one line per failure and a closing "N passed, M failed" line.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { ESLint } from "eslint";
import * as espree from "espree";
import globals from "globals";

const args = process.argv.slice(2);
let literal = null;
let literals = null;
if (args[0] === "--literal") {
  literal = args[1];
  args.splice(0, 2);
} else if (args[0] === "--literals") {
  literals = JSON.parse(args[1]);
  args.splice(0, 2);
}

/** The text the literals of `filePath` must hold, or null. */
function literalFor(filePath) {
  if (literals === null) return literal;
  const prefix = basename(filePath).split("-")[0];
  return Object.hasOwn(literals, prefix) ? literals[prefix] : literal;
}

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: {
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: { ...globals.node, ...globals.browser },
    },
    rules: { "no-undef": "error" },
  },
});

/** Every string value in the tree: literals and template-literal parts. */
function stringsIn(node, out) {
  if (node === null || typeof node !== "object") return out;
  if (node.type === "Literal" && typeof node.value === "string") out.add(node.value);
  if (node.type === "TemplateElement") out.add(node.value.cooked);
  for (const key of Object.keys(node)) {
    if (key !== "parent") stringsIn(node[key], out);
  }
  return out;
}

let passed = 0;
let failed = 0;
for (const filePath of args) {
  const source = readFileSync(filePath, "utf8");
  // lintText, not lintFiles: ESLint ignores files outside its working folder.
  const [result] = await eslint.lintText(source);
  const problems = result.messages.map((m) => `${m.line}:${m.column}: ${m.message}`);
  const literal = literalFor(filePath);
  if (literal !== null && problems.length === 0) {
    const marker = literal.slice(0, 8);
    const ast = espree.parse(source, { ecmaVersion: "latest", sourceType: "module" });
    for (const value of stringsIn(ast, new Set())) {
      if (value.includes(marker) && !value.includes(literal)) {
        problems.push(`a string literal holds the record value changed: ${JSON.stringify(value)}`);
      }
    }
  }
  if (problems.length === 0) {
    passed += 1;
  } else {
    failed += 1;
    for (const p of problems) console.log(`${filePath}:${p}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
