/**
 * The search's files, fetched as they are needed and kept for the visit
 * (see generator/site/src/pages/listings/search/mod.rs for what each holds):
 *
 * - `search/index.json`, the manifest: counts, facets, sizes, and the first
 *   hops into the word trie. Fetched once; it names no model.
 * - `search/words/<letter>/<prefix>.json`, a leaf of the word trie: every
 *   model with a word starting with the prefix, by name and without
 *   figures; `search/top/<letter>/<prefix>.json`, a larger node: its
 *   children (each said to be a node or a leaf) and its most downloaded
 *   models, with their figures. Finding a query word's node walks the trie
 *   from the manifest's roots, one file per hop; a word typed a letter at a
 *   time goes at most one hop further per key. A leaf's models are ranked by
 *   the top of the nearest node above it: the popular ones it names come
 *   first, with their figures, the others by name.
 * - `search/<scope>/name/...`, a scope's models by name, in pages named by
 *   their first model, each naming the previous and the next; and
 *   `search/<scope>/<order>/<page>.json`, its first models by downloads or
 *   by likes.
 * - `search/tag/<name>/name/...`, the models carrying a tag, by name, each
 *   row naming its stats file (see `tagFileName`).
 * - `search/facets.json`, every facet value with its count; and
 *   `search/facet/<kind>/<value>/...`, a value's ranked pages (and pages by
 *   name, but for languages and licences, whose tags' serve): see
 *   search-facets.ts. Every row of every file ends with its model's facets.
 * - `stats/...`, every model's figures, by namespace (see stats.ts): a
 *   namespace's or a tag's listing is sorted from them.
 *
 * Everything read is checked: a malformed row is skipped, a malformed file
 * is an error (the island then says search is unavailable).
 */

import { distinctWords } from "./search-words";

export type SortKey = "downloads" | "likes" | "updated" | "name";

export const SORT_KEYS: readonly SortKey[] = ["downloads", "likes", "updated", "name"];

/** What the search filters a model by besides task and library (see search_facets.rs). */
export interface ModelFacets {
  languages: readonly string[];
  licenses: readonly string[];
  providers: readonly string[];
  /** Parameter class: index into `FacetValues.paramBounds`'s classes; null when unknown. */
  params: number | null;
  /** Index into `FacetValues.memorySizes` of the smallest size it fits in; null when unknown. */
  fits: number | null;
  /** Day (since 1970-01-01) of its `lastModified`; null when unknown. */
  updated: number | null;
}

export const NO_FACETS: ModelFacets = { languages: [], licenses: [], providers: [], params: null, fits: null, updated: null };

/** A facet value and how many models have it. */
export interface Counted {
  value: string;
  count: number;
}

/** `search/facets.json`: every facet's values with their counts. */
export interface FacetValues {
  /** Upper bounds of the parameter classes; class i is below bound i, the last class past them all. */
  paramBounds: readonly number[];
  /** The memory sizes, in GB, that the memory classes name. */
  memorySizes: readonly number[];
  language: readonly Counted[];
  license: readonly Counted[];
  provider: readonly Counted[];
  /** Models per parameter class, and per memory class, by index. */
  params: ReadonlyMap<number, number>;
  fits: ReadonlyMap<number, number>;
}

export interface Facet {
  key: string;
  label: string;
  /** Models with this task or library. */
  count: number;
}

export interface Manifest {
  count: number;
  pageSize: number;
  shardModels: number;
  rankedModels: number;
  tasks: readonly Facet[];
  libraries: readonly Facet[];
  /** Models of a task and a library together, by "task library" key. */
  pairs: ReadonlyMap<string, number>;
  roots: readonly Hop[];
}

/** A prefix of the word trie, and whether it is a node larger than a leaf (its file is a top). */
export interface Hop {
  prefix: string;
  node: boolean;
}

/** A model as a word file, a top or a listing gives it. */
export interface Model {
  id: string;
  /** Null where the file does not say (word files and pages by name hold no figures). */
  downloads: number | null;
  likes: number | null;
  task: string | null;
  library: string | null;
  /** Every word the model is known by (word files and tops only; empty in listings). */
  words: readonly string[];
  facets: ModelFacets;
}

export interface Shard {
  prefix: string;
  /** How many models have a word starting with the prefix: exact for a leaf, to two digits for a node. */
  count: number;
  complete: boolean;
  children: readonly Hop[];
  /** A leaf's models, by name; a node's most downloaded (its top), with their figures. */
  models: readonly Model[];
  /** For a leaf: the top of the nearest node above it, which ranks its popular models. */
  known: readonly Model[];
}

/** A page of a scope's first models by downloads or likes. */
export interface RankedPage {
  pages: number;
  models: readonly Model[];
}

/** A page of a scope's models by name. */
export interface NamePage {
  /** The scope's size, on its first page only. */
  count: number | null;
  /** The previous and next pages, under the scope's `name/` folder. */
  previous: string | null;
  next: string | null;
  /** A namespace's stats file (its first page only). */
  stats: string | null;
  /** A tag's pages: the number of each model's stats file (`stats/<n>.json`), row by row. */
  buckets: readonly (number | null)[] | null;
  models: readonly Model[];
}

/** How a query word was found. */
export type WordMatch =
  /** No model has a word starting with it. */
  | { kind: "none" }
  /**
   * `shard` lists the models with a word starting with it (if `exact`) or
   * models among which those are (a leaf of a shorter prefix).
   */
  | { kind: "shard"; shard: Shard; exact: boolean };

export class SearchDataError extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

function positive(value: unknown, name: string): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
    throw new SearchDataError(`"${name}" is not a positive whole number`);
  }
  return value;
}

function strings(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || !value.every((item): item is string => typeof item === "string")) {
    throw new SearchDataError(`"${name}" is not a list of strings`);
  }
  return value;
}

function facets(value: unknown, name: string): Facet[] {
  if (!Array.isArray(value)) {
    throw new SearchDataError(`"${name}" is not a list`);
  }
  return value.flatMap((entry: unknown) =>
    Array.isArray(entry) && typeof entry[0] === "string" && typeof entry[1] === "string"
      ? [{ key: entry[0], label: entry[1], count: count(entry[2]) }]
      : [],
  );
}

/** Checks and converts the parsed `search/index.json`. */
export function parseManifest(json: unknown): Manifest {
  if (!isObject(json) || json.version !== 2) {
    throw new SearchDataError("not a version 2 search manifest");
  }
  const tasks = facets(json.tasks, "tasks");
  const libraries = facets(json.libraries, "libraries");
  const pairs = new Map<string, number>();
  if (Array.isArray(json.pairs)) {
    for (const entry of json.pairs as unknown[]) {
      if (Array.isArray(entry)) {
        const task = tasks[entry[0] as number];
        const library = libraries[entry[1] as number];
        if (task !== undefined && library !== undefined) {
          pairs.set(`${task.key} ${library.key}`, count(entry[2]));
        }
      }
    }
  }
  return {
    count: count(json.count),
    pageSize: positive(json.page_size, "page_size"),
    shardModels: positive(json.shard_models, "shard_models"),
    rankedModels: positive(json.ranked_models, "ranked_models"),
    tasks,
    libraries,
    pairs,
    roots: hops(json.roots, "roots"),
  };
}

/** `[[prefix, is a node], ...]`, checked. */
function hops(value: unknown, name: string): Hop[] {
  if (!Array.isArray(value)) {
    throw new SearchDataError(`"${name}" is not a list`);
  }
  return value.map((entry: unknown) => {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "boolean") {
      throw new SearchDataError(`"${name}" holds something other than [prefix, node]`);
    }
    return { prefix: entry[0], node: entry[1] };
  });
}

function figure(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/**
 * The rows of a file: `[id, downloads, likes, task, library, words?]` with
 * `figures`, else `[id, task, library, words?]`; `withWords` for word files
 * and tops.
 */
function parseModels(json: Record<string, unknown>, figures: boolean, withWords: boolean): Model[] {
  const table = strings(json.strings, "strings");
  if (!Array.isArray(json.models)) {
    throw new SearchDataError('"models" is not a list');
  }
  const pick = (value: unknown): string | null =>
    typeof value === "number" && Number.isInteger(value) ? (table[value] ?? null) : null;
  const at = figures ? 3 : 1;
  const models: Model[] = [];
  for (const row of json.models as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || row[0] === "") {
      continue; // a malformed row is skipped, not fatal
    }
    const id = row[0];
    let modelWords: string[] = [];
    if (withWords) {
      const extra = Array.isArray(row[at + 2]) ? (row[at + 2] as unknown[]).map(pick).filter((w): w is string => w !== null) : [];
      modelWords = [...distinctWords(id), ...extra];
    }
    models.push({
      id,
      downloads: figures ? figure(row[1]) : null,
      likes: figures ? figure(row[2]) : null,
      task: pick(row[at]),
      library: pick(row[at + 1]),
      words: modelWords,
      facets: parseFacets(row[at + (withWords ? 3 : 2)], pick),
    });
  }
  return models;
}

/** A row's facets, `[languages, licences, providers, params, fits, updated day]`, lists of `strings` indexes. */
function parseFacets(value: unknown, pick: (value: unknown) => string | null): ModelFacets {
  if (!Array.isArray(value)) {
    return NO_FACETS;
  }
  const list = (item: unknown): string[] => (Array.isArray(item) ? item.map(pick).filter((v): v is string => v !== null) : []);
  const code = (item: unknown): number | null => (typeof item === "number" && Number.isInteger(item) && item >= 0 ? item : null);
  return {
    languages: list(value[0]),
    licenses: list(value[1]),
    providers: list(value[2]),
    params: code(value[3]),
    fits: code(value[4]),
    updated: code(value[5]),
  };
}

/** Checks and converts the parsed `search/facets.json`. */
export function parseFacetValues(json: unknown): FacetValues {
  if (!isObject(json)) {
    throw new SearchDataError("not a search facets file");
  }
  const numbers = (value: unknown): number[] =>
    Array.isArray(value) ? value.filter((n): n is number => typeof n === "number" && Number.isFinite(n) && n > 0) : [];
  const counted = (value: unknown): Counted[] =>
    Array.isArray(value)
      ? value.flatMap((entry: unknown) =>
          Array.isArray(entry) && typeof entry[0] === "string" ? [{ value: entry[0], count: count(entry[1]) }] : [],
        )
      : [];
  const classes = (value: unknown): Map<number, number> =>
    new Map(
      Array.isArray(value)
        ? value.flatMap((entry: unknown) =>
            Array.isArray(entry) && typeof entry[0] === "number" && Number.isInteger(entry[0]) ? [[entry[0], count(entry[1])] as [number, number]] : [],
          )
        : [],
    );
  return {
    paramBounds: numbers(json.param_bounds),
    memorySizes: numbers(json.memory_sizes),
    language: counted(json.language),
    license: counted(json.license),
    provider: counted(json.provider),
    params: classes(json.params),
    fits: classes(json.fits),
  };
}

/** A leaf's word file (its models) or a node's top (its children and most downloaded models). */
export function parseShard(json: unknown): Shard {
  if (!isObject(json) || typeof json.prefix !== "string" || typeof json.complete !== "boolean") {
    throw new SearchDataError("not a search word file");
  }
  if (json.complete) {
    const models = parseModels(json, false, true);
    return { prefix: json.prefix, count: models.length, complete: true, children: [], models, known: [] };
  }
  return {
    prefix: json.prefix,
    count: count(json.about),
    complete: false,
    children: hops(json.children, "children"),
    models: parseModels(json, true, true),
    known: [],
  };
}

/** A page of a ranked order; `figures` but for the order by recency, whose rows have none. */
export function parseRankedPage(json: unknown, figures = true): RankedPage {
  if (!isObject(json)) {
    throw new SearchDataError("not a ranked listing page");
  }
  return { pages: count(json.pages), models: parseModels(json, figures, false) };
}

export function parseNamePage(json: unknown): NamePage {
  if (!isObject(json)) {
    throw new SearchDataError("not a listing page");
  }
  const link = (value: unknown): string | null =>
    typeof value === "string" && /^(first|from\/[^?#]+)\.json$/.test(value) && !value.includes("..") ? value : null;
  return {
    count: typeof json.count === "number" ? count(json.count) : null,
    previous: link(json.previous),
    next: link(json.next),
    stats: typeof json.stats === "string" && /^stats\/[0-9]+\.json$/.test(json.stats) ? json.stats : null,
    buckets: Array.isArray(json.buckets)
      ? (json.buckets as unknown[]).map((n) => (typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : null))
      : null,
    models: parseModels(json, false, false),
  };
}

/** Longest name of a tag's folder, as the generator cuts them. */
const MAX_TAG_FILE_NAME = 200;

/**
 * The folder of a tag's listing under `search/tag/`, by the generator's rule
 * (`tag_file_name` in generator/render/src/facts/tags.rs): lowercase letters,
 * digits, `-` and `_` as they are, every other byte of its UTF-8 as `~` and
 * two hex digits. Null for a tag that has none (empty, or too long).
 */
export function tagFileName(tag: string): string | null {
  let name = "";
  for (const byte of new TextEncoder().encode(tag)) {
    const kept = (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x5f;
    name += kept ? String.fromCharCode(byte) : `~${byte.toString(16).padStart(2, "0")}`;
    if (name.length > MAX_TAG_FILE_NAME) {
      return null;
    }
  }
  return name === "" ? null : name;
}

/** Where the file of a hop is, under the site's base: a leaf's word file or a node's top. */
export function shardPath(hop: Hop): string {
  return `search/${hop.node ? "top" : "words"}/${hop.prefix.slice(0, 1)}/${hop.prefix}.json`;
}

/** The listing of the models carrying `tag` (a name from `tagFileName`), as its path under `search/`. */
export function tagScope(name: string): string {
  return `tag/${name}`;
}

/** The listing a set of filters browses, as its path under `search/`. */
export function scopePath(task: string, library: string, namespace: string): string {
  if (namespace !== "") {
    return `namespace/${namespace}`;
  }
  if (task !== "" && library !== "") {
    return `task-library/${task}/${library}`;
  }
  if (task !== "") {
    return `task/${task}`;
  }
  return library !== "" ? `library/${library}` : "all";
}

/** Fetches and caches the search's files for one visit. */
export class SearchData {
  private readonly files = new Map<string, Promise<unknown>>();
  /** Bytes of every file fetched so far (what a scan's budget counts). */
  fetchedBytes = 0;

  constructor(
    readonly base: string,
    readonly manifest: Manifest,
  ) {}

  /** Loads the manifest under `base` (the site's base path). */
  static async load(base: string, signal?: AbortSignal): Promise<SearchData> {
    return new SearchData(base, parseManifest(await fetchJson(`${base}search/index.json`, signal)));
  }

  /** The parsed file at `path` (under `search/`), fetched once per visit. */
  private file<T>(path: string, parse: (json: unknown) => T): Promise<T> {
    let pending = this.files.get(path) as Promise<T> | undefined;
    if (pending === undefined) {
      pending = fetchJson(`${this.base}${path}`, undefined, (bytes) => {
        this.fetchedBytes += bytes;
      }).then(parse);
      // A failed fetch is tried again next time, not remembered.
      pending.catch(() => this.files.delete(path));
      this.files.set(path, pending);
    }
    return pending;
  }

  shard(hop: Hop): Promise<Shard> {
    return this.file(shardPath(hop), parseShard);
  }

  rankedPage(scope: string, order: SortKey, page: number): Promise<RankedPage> {
    return this.file(`search/${scope}/${order}/${page}.json`, (json) => parseRankedPage(json, order !== "updated"));
  }

  /**
   * The first models of `scope` (of `count` in all) in `order`, with their
   * figures: every ranked page it has.
   */
  async rankedModels(scope: string, order: SortKey, count: number): Promise<Model[]> {
    const pages = Math.ceil(Math.min(count, this.manifest.rankedModels) / this.manifest.pageSize);
    const fetched = await Promise.all(Array.from({ length: pages }, (_, i) => this.rankedPage(scope, order, i + 1)));
    return fetched.flatMap((page) => page.models);
  }

  /** `search/facets.json`, fetched once. */
  facetValues(): Promise<FacetValues> {
    return this.file("search/facets.json", parseFacetValues);
  }

  /** A page by name of `scope`: `first.json` or a `from/...` path a page named. */
  namePage(scope: string, page: string): Promise<NamePage> {
    return this.file(`search/${scope}/name/${page}`, parseNamePage);
  }

  /**
   * The node that answers query word `word`: the walk from the roots stops
   * at the first node whose prefix the word ends in (its top's models are
   * the word's most downloaded), or at a leaf (the word's models are among
   * its own), which comes with the top of the node above it, one file a hop.
   */
  async match(word: string): Promise<WordMatch> {
    let hops = this.manifest.roots;
    let above: readonly Model[] = [];
    for (;;) {
      const next = hops.find((hop) => hop.prefix.startsWith(word) || word.startsWith(hop.prefix));
      if (next === undefined) {
        return { kind: "none" };
      }
      const node = await this.shard(next);
      const exact = word.length <= node.prefix.length;
      if (node.complete) {
        return { kind: "shard", shard: { ...node, known: above }, exact };
      }
      if (exact) {
        return { kind: "shard", shard: node, exact };
      }
      if (node.children.length === 0) {
        // Every word under this node is the prefix itself.
        return { kind: "none" };
      }
      above = node.models;
      hops = node.children;
    }
  }
}

async function fetchJson(url: string, signal?: AbortSignal, counted?: (bytes: number) => void): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) {
    throw new SearchDataError(`${url}: HTTP ${response.status}`);
  }
  const text = await response.text();
  counted?.(text.length);
  return JSON.parse(text) as unknown;
}
