/**
 * The search's files, fetched as they are needed and kept for the visit
 * (see generator/site/src/pages/listings/search/mod.rs for what each holds):
 *
 * - `search/index.json`, the manifest: counts, facets, sizes, and the first
 *   hops into the word trie. Fetched once; it names no model.
 * - `search/words/<letter>/<prefix>.json`, a shard of the word trie: the
 *   models with a word starting with the prefix, most downloaded first, all
 *   of them (`complete`) or the first `shard_models`. Finding a query word's
 *   shard walks the trie from the manifest's roots, one shard per hop; a
 *   word typed a letter at a time goes at most one hop further per key.
 * - `search/<scope>/<order>/<page>.json`, a page of a listing for browsing
 *   without a query.
 *
 * Everything read is checked: a malformed row is skipped, a malformed file
 * is an error (the island then says search is unavailable).
 */

import { distinctWords } from "./search-words";

export type SortKey = "downloads" | "likes" | "name";

export const SORT_KEYS: readonly SortKey[] = ["downloads", "likes", "name"];

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
  sortedModels: number;
  tasks: readonly Facet[];
  libraries: readonly Facet[];
  /** Models of a task and a library together, by "task library" key. */
  pairs: ReadonlyMap<string, number>;
  roots: readonly string[];
}

/** A model as a shard or listing gives it. */
export interface Model {
  id: string;
  downloads: number;
  likes: number;
  task: string | null;
  library: string | null;
  /** Every word the model is known by (shards only; empty in listings). */
  words: readonly string[];
}

export interface Shard {
  prefix: string;
  count: number;
  complete: boolean;
  children: readonly string[];
  models: readonly Model[];
}

export interface ListPage {
  count: number;
  pages: number;
  models: readonly Model[];
}

/** How a query word was found. */
export type WordMatch =
  /** No model has a word starting with it. */
  | { kind: "none" }
  /**
   * `shard` lists the models with a word starting with it (if `exact`) or
   * models among which those are (a complete shard of a shorter prefix).
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
  if (!isObject(json) || json.version !== 1) {
    throw new SearchDataError("not a version 1 search manifest");
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
    sortedModels: positive(json.sorted_models, "sorted_models"),
    tasks,
    libraries,
    pairs,
    roots: strings(json.roots, "roots"),
  };
}

/** The rows of a shard or listing; `withWords` for shards. */
function parseModels(json: Record<string, unknown>, withWords: boolean): Model[] {
  const table = strings(json.strings, "strings");
  if (!Array.isArray(json.models)) {
    throw new SearchDataError('"models" is not a list');
  }
  const pick = (value: unknown): string | null =>
    typeof value === "number" && Number.isInteger(value) ? (table[value] ?? null) : null;
  const models: Model[] = [];
  for (const row of json.models as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || row[0] === "") {
      continue; // a malformed row is skipped, not fatal
    }
    const id = row[0];
    const task = pick(row[3]);
    const library = pick(row[4]);
    let modelWords: string[] = [];
    if (withWords) {
      const extra = Array.isArray(row[5]) ? row[5].map(pick).filter((w): w is string => w !== null) : [];
      modelWords = [...distinctWords(id), ...extra];
    }
    models.push({ id, downloads: count(row[1]), likes: count(row[2]), task, library, words: modelWords });
  }
  return models;
}

export function parseShard(json: unknown): Shard {
  if (!isObject(json) || typeof json.prefix !== "string" || typeof json.complete !== "boolean") {
    throw new SearchDataError("not a search shard");
  }
  return {
    prefix: json.prefix,
    count: count(json.count),
    complete: json.complete,
    children: strings(json.children, "children"),
    models: parseModels(json, true),
  };
}

export function parseListPage(json: unknown): ListPage {
  if (!isObject(json)) {
    throw new SearchDataError("not a listing page");
  }
  return { count: count(json.count), pages: count(json.pages), models: parseModels(json, false) };
}

/** Where the shard of `prefix` is, under the site's base. */
export function shardPath(prefix: string): string {
  return `search/words/${prefix.slice(0, 1)}/${prefix}.json`;
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
      pending = fetchJson(`${this.base}${path}`).then(parse);
      // A failed fetch is tried again next time, not remembered.
      pending.catch(() => this.files.delete(path));
      this.files.set(path, pending);
    }
    return pending;
  }

  shard(prefix: string): Promise<Shard> {
    return this.file(shardPath(prefix), parseShard);
  }

  listPage(scope: string, order: SortKey, page: number): Promise<ListPage> {
    return this.file(`search/${scope}/${order}/${page}.json`, parseListPage);
  }

  /**
   * The shard that answers query word `word`: the walk from the roots stops
   * at the first node whose prefix the word ends in (its models are the
   * word's), or at a complete node (the word's models are among its own).
   */
  async match(word: string): Promise<WordMatch> {
    let hops = this.manifest.roots;
    for (;;) {
      const next = hops.find((prefix) => prefix.startsWith(word) || word.startsWith(prefix));
      if (next === undefined) {
        return { kind: "none" };
      }
      const shard = await this.shard(next);
      if (word.length <= shard.prefix.length) {
        return { kind: "shard", shard, exact: true };
      }
      if (shard.complete) {
        return { kind: "shard", shard, exact: false };
      }
      if (shard.children.length === 0) {
        // Every word under this node is the prefix itself.
        return { kind: "none" };
      }
      hops = shard.children;
    }
  }
}

async function fetchJson(url: string, signal?: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) {
    throw new SearchDataError(`${url}: HTTP ${response.status}`);
  }
  return (await response.json()) as unknown;
}
