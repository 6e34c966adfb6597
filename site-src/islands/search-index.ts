/**
 * The model search index (`search-index.json`) and the filtering behind the
 * search island. Everything works on flat typed arrays so that 100,000 models
 * filter in a few milliseconds and nothing is allocated per model per keystroke
 * beyond the result list itself.
 */

export interface Facet {
  key: string;
  label: string;
}

export type SortKey = "downloads" | "likes" | "name";

export const SORT_KEYS: readonly SortKey[] = ["downloads", "likes", "name"];

export interface ModelIndex {
  tasks: readonly Facet[];
  libraries: readonly Facet[];
  size: number;
  ids: readonly string[];
  /** Lower-cased "id tags", what the text filter searches. */
  haystacks: readonly string[];
  /** Index into `tasks`, or -1. */
  task: Int32Array;
  /** Index into `libraries`, or -1. */
  library: Int32Array;
  downloads: Float64Array;
  likes: Float64Array;
  /** Model positions in each sort order, computed on first use. */
  orders: Map<SortKey, Int32Array>;
}

export class IndexFormatError extends Error {}

function parseFacets(value: unknown, name: string): Facet[] {
  if (!Array.isArray(value)) {
    throw new IndexFormatError(`"${name}" is not an array`);
  }
  return value.map((entry: unknown, position) => {
    if (!Array.isArray(entry) || typeof entry[0] !== "string" || typeof entry[1] !== "string") {
      throw new IndexFormatError(`"${name}"[${position}] is not a [key, label] pair`);
    }
    return { key: entry[0], label: entry[1] };
  });
}

function facetIndex(value: unknown, count: number): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < count ? value : -1;
}

function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/** Checks and converts the parsed JSON of `search-index.json`. */
export function parseIndex(json: unknown): ModelIndex {
  if (typeof json !== "object" || json === null) {
    throw new IndexFormatError("the index is not a JSON object");
  }
  const record = json as Record<string, unknown>;
  const tasks = parseFacets(record.tasks, "tasks");
  const libraries = parseFacets(record.libraries, "libraries");
  const models = record.models;
  if (!Array.isArray(models)) {
    throw new IndexFormatError('"models" is not an array');
  }
  const size = models.length;
  const ids: string[] = [];
  const haystacks: string[] = [];
  const task = new Int32Array(size);
  const library = new Int32Array(size);
  const downloads = new Float64Array(size);
  const likes = new Float64Array(size);
  let kept = 0;
  for (const row of models as unknown[]) {
    if (!Array.isArray(row) || typeof row[0] !== "string" || row[0] === "") {
      continue; // a malformed row is skipped, not fatal
    }
    const id = row[0];
    const tags = typeof row[5] === "string" ? row[5] : "";
    ids.push(id);
    haystacks.push(`${id} ${tags}`.toLowerCase());
    task[kept] = facetIndex(row[1], tasks.length);
    library[kept] = facetIndex(row[2], libraries.length);
    downloads[kept] = count(row[3]);
    likes[kept] = count(row[4]);
    kept += 1;
  }
  return {
    tasks,
    libraries,
    size: kept,
    ids,
    haystacks,
    task: task.subarray(0, kept),
    library: library.subarray(0, kept),
    downloads: downloads.subarray(0, kept),
    likes: likes.subarray(0, kept),
    orders: new Map(),
  };
}

/** Lower-cased words of a query; a model must contain every one. */
export function queryTerms(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== "");
}

/** Positions of the models whose id or tags contain every term, in index order. */
export function textMatches(index: ModelIndex, query: string): Int32Array {
  const terms = queryTerms(query);
  const hits = new Int32Array(index.size);
  let found = 0;
  const { haystacks } = index;
  for (let position = 0; position < index.size; position += 1) {
    const haystack = haystacks[position] ?? "";
    let matches = true;
    for (const term of terms) {
      if (!haystack.includes(term)) {
        matches = false;
        break;
      }
    }
    if (matches) {
      hits[found] = position;
      found += 1;
    }
  }
  return hits.subarray(0, found);
}

export interface FacetCounts {
  /** Per task: text hits with that task that pass the library filter. */
  tasks: Int32Array;
  /** Per library: text hits with that library that pass the task filter. */
  libraries: Int32Array;
  /** Text hits that pass the library filter (the "All tasks" count). */
  allTasks: number;
  /** Text hits that pass the task filter (the "All libraries" count). */
  allLibraries: number;
}

/** Counts for the task and library selects, each given the other filter. */
export function facetCounts(index: ModelIndex, hits: Int32Array, task: number, library: number): FacetCounts {
  const tasks = new Int32Array(index.tasks.length);
  const libraries = new Int32Array(index.libraries.length);
  let allTasks = 0;
  let allLibraries = 0;
  for (const position of hits) {
    const modelTask = index.task[position] ?? -1;
    const modelLibrary = index.library[position] ?? -1;
    if (library < 0 || modelLibrary === library) {
      allTasks += 1;
      if (modelTask >= 0) {
        tasks[modelTask] = (tasks[modelTask] ?? 0) + 1;
      }
    }
    if (task < 0 || modelTask === task) {
      allLibraries += 1;
      if (modelLibrary >= 0) {
        libraries[modelLibrary] = (libraries[modelLibrary] ?? 0) + 1;
      }
    }
  }
  return { tasks, libraries, allTasks, allLibraries };
}

function compareNames(index: ModelIndex): (a: number, b: number) => number {
  const names = index.ids.map((id) => id.toLowerCase());
  return (a, b) => {
    const left = names[a] ?? "";
    const right = names[b] ?? "";
    return left < right ? -1 : left > right ? 1 : a - b;
  };
}

/** Model positions in `sort` order (most first; names A to Z), cached on the index. */
export function sortOrder(index: ModelIndex, sort: SortKey): Int32Array {
  const cached = index.orders.get(sort);
  if (cached !== undefined) {
    return cached;
  }
  const order = new Int32Array(index.size);
  for (let position = 0; position < index.size; position += 1) {
    order[position] = position;
  }
  if (sort === "downloads") {
    const { downloads } = index;
    order.sort((a, b) => (downloads[b] ?? 0) - (downloads[a] ?? 0) || a - b);
  } else if (sort === "likes") {
    const { likes } = index;
    order.sort((a, b) => (likes[b] ?? 0) - (likes[a] ?? 0) || a - b);
  } else {
    order.sort(compareNames(index));
  }
  index.orders.set(sort, order);
  return order;
}

/** The text hits that pass the task and library filters, in `sort` order. */
export function filterAndSort(
  index: ModelIndex,
  hits: Int32Array,
  task: number,
  library: number,
  sort: SortKey,
): Int32Array {
  const keep = new Uint8Array(index.size);
  let total = 0;
  for (const position of hits) {
    if ((task < 0 || index.task[position] === task) && (library < 0 || index.library[position] === library)) {
      keep[position] = 1;
      total += 1;
    }
  }
  const results = new Int32Array(total);
  let found = 0;
  for (const position of sortOrder(index, sort)) {
    if (keep[position] === 1) {
      results[found] = position;
      found += 1;
      if (found === total) {
        break;
      }
    }
  }
  return results;
}
