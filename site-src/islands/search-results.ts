/**
 * From the shards of a query's words to the results the island shows: pure
 * functions, no fetching.
 *
 * A query word's shard either lists every model matching it (a leaf,
 * `complete`, by name) or only the most downloaded (a node's top). When
 * some word's shard is complete, its models are checked against every other
 * word, task and library: the results are exact. When none is (every word
 * is common: "llama instruct"), the models of all the words' tops are
 * checked the same way; every result is a real match and they are ranked
 * rightly, but a match that no top lists (a model with few downloads and
 * only common words) is missing, and the island says so.
 *
 * Leaves hold no downloads (so that they stay as they are while downloads
 * move); a result's figures come from the tops fetched on the way, and for
 * exact results from the first models of the listing searched as well (see
 * `withScopeFigures` in search.tsx). Models whose figures are known come
 * first, ranked; the others follow by name.
 */

import type { Model, SortKey, WordMatch } from "./search-data";
import type { Counts } from "./stats";
import { matchesAll } from "./search-words";

export interface Filters {
  query: string;
  task: string;
  library: string;
  namespace: string;
  /** A tag the models must carry, as the record writes it ("" for none). */
  tag: string;
  /** A language, a licence id, a provider the models must have ("" for none). */
  language: string;
  license: string;
  provider: string;
  /** Parameter classes, `<first>-<last>` inclusive ("" for any). */
  params: string;
  /** A memory size in GB the models must fit in ("" for any). */
  fits: string;
  sort: SortKey;
  /** Zero-based. */
  page: number;
  /** Browsing by name without a query: the first model of the page shown ("" for the first page). */
  from: string;
  /** With facet filters by name: how many byte budgets to read (see search-facets.ts); never in the address. */
  scan: number;
}

export interface TextResults {
  /** Models matching every word (before the task, library and namespace filters). */
  hits: Model[];
  /** Whether `hits` are all the models that match. */
  complete: boolean;
  /** How many models match, when known though not all are listed (one word). */
  known: number | null;
}

/**
 * The models matching every query word (`terms`), given the matches of
 * some of them: all of them, or up to the first whose shard is complete.
 */
export function textResults(terms: readonly string[], matches: readonly WordMatch[]): TextResults {
  const shards = [];
  for (const match of matches) {
    if (match.kind === "none") {
      return { hits: [], complete: true, known: null };
    }
    shards.push(match);
  }
  const listed = shards.filter((m) => m.shard.complete).sort((a, b) => a.shard.models.length - b.shard.models.length);
  const complete = listed.length > 0;
  let candidates: Model[];
  if (listed[0] !== undefined) {
    candidates = [...listed[0].shard.models];
  } else {
    const byId = new Map<string, Model>();
    for (const { shard } of shards) {
      for (const model of shard.models) {
        byId.set(model.id, model);
      }
    }
    candidates = sortModels([...byId.values()], "downloads");
  }
  const only = shards.length === 1 ? shards[0] : undefined;
  const known = !complete && only !== undefined && only.exact ? only.shard.count : null;
  const ranked = shards.flatMap(({ shard }) => [...shard.known, ...(shard.complete ? [] : shard.models)]);
  const hits = withFigures(
    candidates.filter((model) => matchesAll(model.words, terms)),
    figuresOf(ranked),
  );
  return { hits, complete, known };
}

/** The figures of `ranked` (models listed with theirs), by id. */
export function figuresOf(ranked: readonly Model[]): Map<string, Counts> {
  return new Map(ranked.map((model) => [model.id, model]));
}

/** `models`, each with its downloads and likes as `figures` (by id) gives them, or as it was. */
export function withFigures(models: readonly Model[], figures: ReadonlyMap<string, Counts>): Model[] {
  return models.map((model) => {
    const found = figures.get(model.id);
    return found === undefined ? model : { ...model, downloads: found.downloads, likes: found.likes };
  });
}

export function namespaceOf(id: string): string {
  const slash = id.indexOf("/");
  return slash < 0 ? id : id.slice(0, slash);
}

/** The filters `passes` checks. */
export type Checked = Pick<Filters, "task" | "library" | "namespace"> & Partial<Pick<Filters, FacetFilter>>;
export type FacetFilter = "language" | "license" | "provider" | "params" | "fits";
export const FACET_FILTERS: readonly FacetFilter[] = ["language", "license", "provider", "params", "fits"];

/** `<first>-<last>` as the classes it spans, or null (any, or not a range). */
export function paramRange(params: string): [number, number] | null {
  const found = /^([0-9]{1,2})-([0-9]{1,2})$/.exec(params);
  if (found === null) {
    return null;
  }
  const [first, last] = [Number(found[1]), Number(found[2])];
  return first <= last ? [first, last] : null;
}

/**
 * Whether a model passes the task, library and namespace filters and the
 * facet filters; `sizes` are the memory sizes the memory classes name
 * (a fits filter of another size passes nothing).
 */
export function passes(model: Model, filters: Checked, sizes: readonly number[] = []): boolean {
  const facets = model.facets;
  const range = paramRange(filters.params ?? "");
  const fits = filters.fits ? sizes.indexOf(Number(filters.fits)) : -1;
  return (
    (filters.task === "" || model.task === filters.task) &&
    (filters.library === "" || model.library === filters.library) &&
    (filters.namespace === "" || namespaceOf(model.id) === filters.namespace) &&
    (!filters.language || facets.languages.includes(filters.language)) &&
    (!filters.license || facets.licenses.includes(filters.license)) &&
    (!filters.provider || facets.providers.includes(filters.provider)) &&
    (!filters.params || (range !== null && facets.params !== null && facets.params >= range[0] && facets.params <= range[1])) &&
    (!filters.fits || (fits >= 0 && facets.fits !== null && facets.fits <= fits))
  );
}

export interface FacetCounts {
  /** Per task key: hits with that task that pass the other filters. */
  tasks: ReadonlyMap<string, number>;
  /** Per library key: hits with that library that pass the other filters. */
  libraries: ReadonlyMap<string, number>;
  /** Hits that pass the library and namespace filters (the "All tasks" count). */
  allTasks: number;
  /** Hits that pass the task and namespace filters (the "All libraries" count). */
  allLibraries: number;
}

/** Counts for the task and library selects, each given the other filters. */
export function facetCounts(hits: readonly Model[], filters: Checked, sizes: readonly number[] = []): FacetCounts {
  const tasks = new Map<string, number>();
  const libraries = new Map<string, number>();
  let allTasks = 0;
  let allLibraries = 0;
  for (const model of hits) {
    if (passes(model, { ...filters, task: "" }, sizes)) {
      allTasks += 1;
      if (model.task !== null) {
        tasks.set(model.task, (tasks.get(model.task) ?? 0) + 1);
      }
    }
    if (passes(model, { ...filters, library: "" }, sizes)) {
      allLibraries += 1;
      if (model.library !== null) {
        libraries.set(model.library, (libraries.get(model.library) ?? 0) + 1);
      }
    }
  }
  return { tasks, libraries, allTasks, allLibraries };
}

function byName(a: Model, b: Model): number {
  const [x, y] = [a.id.toLowerCase(), b.id.toLowerCase()];
  if (x !== y) {
    return x < y ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Known figures first, highest first; unknown ones after, equal. */
function byFigure(a: number | null, b: number | null): number {
  if (a === null || b === null) {
    return a === b ? 0 : a === null ? 1 : -1;
  }
  return b - a;
}

function byDownloads(a: Model, b: Model): number {
  return byFigure(a.downloads, b.downloads) || byName(a, b);
}

/** `models` in `sort` order, as the generator orders listings: models whose figures are unknown after the others, by name. */
export function sortModels(models: Model[], sort: SortKey): Model[] {
  if (sort === "downloads") {
    return models.sort(byDownloads);
  }
  if (sort === "updated") {
    // By day, then by name, as the generator's order by recency.
    return models.sort((a, b) => byFigure(a.facets.updated, b.facets.updated) || byName(a, b));
  }
  if (sort === "likes") {
    return models.sort((a, b) => byFigure(a.likes, b.likes) || byDownloads(a, b));
  }
  return models.sort(byName);
}
