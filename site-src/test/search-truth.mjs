// What the search should find, worked out from the records themselves by the
// rules README.md states (not by the island's code): the browser tests
// compare the island's results with these.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The words of a text: runs of ASCII letters and digits, lowercased, cut to 32. */
export const wordsOf = (text) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.slice(0, 32).toLowerCase());

/** The words a model is known by: of its id, task, library and first 12 tags, each once, at most 64. */
export function modelWords(model) {
  const tags = model.tags.filter((t) => t !== "" && !t.includes("\n")).slice(0, 12);
  const found = [];
  for (const text of [model.id, model.task, model.library, ...tags]) {
    for (const word of text === null ? [] : wordsOf(text)) {
      if (found.length < 64 && !found.includes(word)) found.push(word);
    }
  }
  return found;
}

/** The record's task as the build reads it: `pipeline_tag`, else the task of the first provider-mapping entry that names one; chat (`conversational`, either way) read as text generation. */
function taskOf(r) {
  const mapping = r.inferenceProviderMapping;
  const entries = Array.isArray(mapping) ? mapping : mapping && typeof mapping === "object" ? Object.values(mapping) : [];
  const task = r.pipeline_tag || entries.map((e) => (e && typeof e === "object" && typeof e.task === "string" ? e.task : "")).find((t) => t !== "");
  if (task === undefined) return null;
  return task === "conversational" ? "text-generation" : task;
}

/** Every record under `root` (namespace/name/model.json) as listings show it, most downloaded first. */
export function readModels(root) {
  const all = [];
  for (const namespace of readdirSync(root)) {
    for (const name of readdirSync(join(root, namespace))) {
      const r = JSON.parse(readFileSync(join(root, namespace, name, "model.json"), "utf8"));
      // Hidden records (test fixtures) are built but never listed.
      if (r.hidden === true) continue;
      const model = {
        id: r.id,
        task: taskOf(r),
        library: r.library_name ?? null,
        downloads: r.downloads ?? 0,
        // Whether the record gives a download count: the static listings
        // put a record without one after those whose count is 0.
        counted: typeof r.downloads === "number",
        likes: r.likes ?? 0,
        tags: r.tags ?? [],
      };
      model.words = modelWords(model);
      all.push(model);
    }
  }
  return all.sort((a, b) => b.downloads - a.downloads || (a.id < b.id ? -1 : 1));
}

/** The static listings' order (the build's): most downloads first, a
 * record without a download count after one with 0, then by id. */
export const listingOrder = (a, b) =>
  b.downloads - a.downloads || Number(b.counted) - Number(a.counted) || (a.id < b.id ? -1 : 1);

/** Whether every word of `query` begins one of the model's words. */
export const matches = (model, query) => wordsOf(query).every((t) => model.words.some((w) => w.startsWith(t)));
