// What the search should find, worked out from the records themselves by the
// rules README.md states (not by the island's code): the browser tests
// compare the island's results with these.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../", import.meta.url));
const readData = (path) => readFileSync(join(repo, path), "utf8");
/** ISO 639-1 codes (README: a tag is a language when it is one, or the card lists it among its languages). */
const LANGUAGE_CODES = new Set(
  readData("generator/render/data/language_codes.txt")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#")),
);
/** Tags filed under Libraries: the catalogue's keys and the frameworks and formats of library_tags.json. */
const LIBRARY_TAGS = new Set([
  ...JSON.parse(readData("generator/snippets/data/libraries.json")).map((l) => l.key),
  ...JSON.parse(readData("generator/render/data/library_tags.json")).tags.map((t) => t.tag),
]);
/** The parameter classes' upper bounds and the memory sizes (README: search facets). */
export const PARAM_BOUNDS = [1e9, 3e9, 6e9, 9e9, 12e9, 24e9, 32e9, 64e9, 128e9, 500e9];
export const MEMORY_SIZES = [8, 12, 16, 24, 48, 80, 141];

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

/** Ids in the order of listings by name: case folded, then as written. */
export function compareNames(a, b) {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/** `list` most downloaded first, ties by name. */
export const byDownloads = (list) => [...list].sort((a, b) => b.downloads - a.downloads || compareNames(a.id, b.id));

/** `list` most liked first, then most downloaded, then by name. */
export const byLikes = (list) =>
  [...list].sort((a, b) => b.likes - a.likes || b.downloads - a.downloads || compareNames(a.id, b.id));

/** `list` by name. */
export const byName = (list) => [...list].sort((a, b) => compareNames(a.id, b.id));

/**
 * The order the search shows `hits` in when only the models `known` have
 * figures (README: the tops fetched rank their models; word files hold no
 * figures): those most downloaded first, then the rest by name.
 */
export function rankedAsShown(hits, known) {
  const have = hits.filter((m) => known.has(m.id));
  const rest = hits.filter((m) => !known.has(m.id));
  return [...byDownloads(have), ...byName(rest)];
}

/**
 * The fields `license`, `language`, `datasets` and `tags` of a card's front
 * matter, for those written as a scalar, a `[a, b]` list or a `- item` list
 * (all the default corpus uses); null values say nothing.
 */
function frontMatterLists(readme) {
  if (!existsSync(readme)) return {};
  const text = readFileSync(readme, "utf8");
  const found = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text);
  if (found === null) return {};
  const fields = {};
  let current = null;
  const unquote = (v) => v.trim().replace(/^(["'])(.*)\1$/, "$2");
  for (const line of found[1].split(/\r?\n/)) {
    const key = /^([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (key !== null) {
      current = ["license", "language", "datasets", "tags"].includes(key[1]) ? key[1] : null;
      if (current === null) continue;
      const value = key[2].trim();
      if (value === "" || value === "null" || value === "~") {
        fields[current] = [];
      } else if (value.startsWith("[")) {
        fields[current] = value.slice(1, -1).split(",").map(unquote).filter(Boolean);
      } else {
        fields[current] = [unquote(value)];
      }
      continue;
    }
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item !== null && current !== null) fields[current].push(unquote(item[1]));
    else if (!/^\s/.test(line)) current = null;
  }
  for (const [k, v] of Object.entries(fields)) if (v.length === 0) delete fields[k];
  return fields;
}

/**
 * The tags a model is listed under as filters (README: tag links are
 * filters): the card's licenses as `license:<id>`, its languages, its
 * datasets as `dataset:<id>`, the record's tags and the card's, but the
 * Hub's own (`region:*`, `endpoints_compatible`...), base models and papers.
 */
function filterTagsOf(record, readme) {
  const card = { ...(record.cardData ?? {}), ...frontMatterLists(readme) };
  const list = (v) => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]).map(String);
  const internal = (t) =>
    ["endpoints_compatible", "autotrain_compatible", "text-generation-inference", "has_space", "custom_code"].includes(t) ||
    ["region:", "deploy:", "base_model:", "doi:", "template:"].some((p) => t.startsWith(p)) ||
    /^arxiv:[A-Za-z0-9./-]{1,40}$/.test(t);
  const all = [
    ...list(card.license).map((l) => `license:${l}`),
    ...list(card.language),
    ...list(card.datasets).map((d) => `dataset:${d}`),
    ...list(record.tags),
    ...list(card.tags),
  ];
  return new Set(all.filter((t) => t !== "" && !t.includes("\n") && !internal(t)));
}

/**
 * What the search's facets filter a model by (README: search facets): its
 * languages (filter tags that are language codes, or languages its card
 * lists, but not library tags such as `tf`), licences (`license:` tags),
 * the providers serving it live, its parameter class (safetensors total,
 * else the GGUF total) and the day of its `lastModified`. The memory class
 * is read from the model's page (`fitsOnPage`).
 */
function facetsOf(record, filters, readme) {
  const card = { ...(record.cardData ?? {}), ...frontMatterLists(readme) };
  const cardLanguages = (Array.isArray(card.language) ? card.language : card.language ? [card.language] : []).map(String);
  const languages = [...filters].filter(
    (t) => !t.startsWith("license:") && !t.startsWith("dataset:") && !LIBRARY_TAGS.has(t) && (LANGUAGE_CODES.has(t) || cardLanguages.includes(t)),
  );
  const licenses = [...filters].filter((t) => t.startsWith("license:")).map((t) => t.slice("license:".length));
  const mapping = record.inferenceProviderMapping;
  const entries = Array.isArray(mapping)
    ? mapping.map((e) => [e?.provider, e])
    : mapping && typeof mapping === "object"
      ? Object.entries(mapping)
      : [];
  const providers = [...new Set(entries.filter(([p, e]) => typeof p === "string" && p !== "" && e && typeof e === "object" && (e.status ?? "live") === "live").map(([p]) => p))];
  const total = record.safetensors?.total > 0 ? record.safetensors.total : record.gguf?.total > 0 ? record.gguf.total : null;
  const params = total === null ? null : PARAM_BOUNDS.filter((b) => total >= b).length;
  const updated = typeof record.lastModified === "string" ? Math.floor(Date.parse(record.lastModified) / 86_400_000) : null;
  return { languages, licenses, providers, params, updated };
}

/**
 * The smallest memory size a model's page says its smallest estimate fits
 * in (the first context column of each row of "Will it run on your
 * machine?"), or null when the page claims none (no table, or the KV cache
 * unknown).
 */
export function fitsOnPage(dist, id) {
  const html = readFileSync(join(dist, id, "index.html"), "utf8");
  const table = /<table class="model-table memory-table">([\s\S]*?)<\/table>/.exec(html);
  if (table === null || html.includes('class="memory-missing"')) return null;
  const sizes = [...table[1].matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)]
    .map((row) => /memory-fits">fits ([0-9]+) GB/.exec(row[1]))
    .filter((m) => m !== null)
    .map((m) => Number(m[1]));
  return sizes.length === 0 ? null : Math.min(...sizes);
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
        likes: r.likes ?? 0,
        tags: r.tags ?? [],
      };
      model.filters = filterTagsOf(r, join(root, namespace, name, "README.md"));
      model.facets = facetsOf(r, model.filters, join(root, namespace, name, "README.md"));
      model.words = modelWords(model);
      all.push(model);
    }
  }
  return byDownloads(all);
}

/** Whether every word of `query` begins one of the model's words. */
export const matches = (model, query) => wordsOf(query).every((t) => model.words.some((w) => w.startsWith(t)));
