/**
 * Browsing with facet filters (language, licence, provider, parameter
 * range, memory size) or by recency, without a query: which listing to read
 * first, and reading it within a byte budget.
 *
 * Every row of every listing carries its model's facets, so any listing can
 * be filtered by any combination exactly. The island reads the listing of
 * the chosen filter with the fewest models (the base: counts from the
 * manifest and `search/facets.json`), a range or a memory size being the
 * union of its classes' listings, and keeps the rows that pass every
 * filter:
 * - in a ranked order (downloads, likes, recency), the base's first
 *   `ranked_models` in that order (the first of a union are among the first
 *   of its parts); when the base holds more, the island says the list is
 *   the matches among those and links the full list by name;
 * - by name, the base's pages by name, merged across a union's parts, until
 *   a page of matches is found or `SCAN_BYTES` more bytes were fetched; the
 *   island then says how far it read and offers to read further.
 */

import { scopePath, tagFileName } from "./search-data";
import type { FacetValues, Model, SearchData, SortKey } from "./search-data";
import { FACET_FILTERS, paramRange, passes, sortModels } from "./search-results";
import type { Filters } from "./search-results";
import { numberFormat, plural } from "./search-view";
import type { View } from "./search-view";

/** Most bytes one step of a scan fetches (past it, at most one page more): with the manifest and the facets file, a cold query stays under 300 KB. */
export const SCAN_BYTES = 200_000;

/** One listing of a base: its scope for ranked pages, its scope for pages by name, its size. */
export interface Part {
  ranked: string;
  named: string;
  count: number;
}

/** The listing a set of filters reads first: a scope, or a union of scopes. */
export interface Base {
  /** What it is, for the notes ("licence mit"). */
  label: string;
  parts: readonly Part[];
  count: number;
}

/** Whether `filters` need the facet path: a facet filter, or the order by recency, without a query, tag or namespace. */
export function browsesFacets(filters: Filters): boolean {
  const plain = filters.query.trim() === "" && filters.tag === "" && filters.namespace === "";
  return plain && (FACET_FILTERS.some((name) => filters[name] !== "") || filters.sort === "updated");
}

function countOf(list: readonly { value: string; count: number }[], value: string): number {
  // A value the file leaves out is rarer than every value it lists.
  return list.find((entry) => entry.value === value)?.count ?? Math.min(...list.map((entry) => entry.count), 0);
}

/** The classes of a range, or of a memory size (every size up to it), with their counts. */
function classParts(kind: "params" | "fits", classes: readonly number[], counts: ReadonlyMap<number, number>): Part[] {
  return classes
    .map((c) => ({ ranked: `facet/${kind}/${c}`, named: `facet/${kind}/${c}`, count: counts.get(c) ?? 0 }))
    .filter((part) => part.count > 0);
}

/** Every listing the filters could be read from, and the one with the fewest models. */
export function chooseBase(filters: Filters, values: FacetValues, scopeCount: number, scopeLabel: string): Base {
  const whole = (label: string, ranked: string, named: string, count: number): Base => ({
    label,
    parts: count > 0 ? [{ ranked, named, count }] : [],
    count,
  });
  const scope = scopePath(filters.task, filters.library, "");
  const bases: Base[] = [whole(scopeLabel, scope, scope, scopeCount)];
  const named = (kind: "language" | "license" | "provider", value: string): void => {
    const tag = kind === "license" ? `license:${value}` : value;
    const [own, tagName] = [tagFileName(value), tagFileName(tag)];
    if (own === null || tagName === null) {
      bases.push({ label: `${kind} ${value}`, parts: [], count: 0 });
      return;
    }
    const ranked = `facet/${kind}/${own}`;
    bases.push(whole(`${kind === "license" ? "licence" : kind} ${value}`, ranked, kind === "provider" ? ranked : `tag/${tagName}`, countOf(values[kind], value)));
  };
  if (filters.language !== "") named("language", filters.language);
  if (filters.license !== "") named("license", filters.license);
  if (filters.provider !== "") named("provider", filters.provider);
  const range = paramRange(filters.params);
  if (filters.params !== "") {
    const classes = range === null ? [] : Array.from({ length: range[1] - range[0] + 1 }, (_, i) => range[0] + i);
    const parts = classParts("params", classes, values.params);
    bases.push({ label: "that parameter range", parts, count: parts.reduce((sum, p) => sum + p.count, 0) });
  }
  if (filters.fits !== "") {
    const index = values.memorySizes.indexOf(Number(filters.fits));
    const parts = classParts("fits", index < 0 ? [] : Array.from({ length: index + 1 }, (_, i) => i), values.fits);
    bases.push({ label: `models fitting in ${filters.fits} GB`, parts, count: parts.reduce((sum, p) => sum + p.count, 0) });
  }
  return bases.reduce((best, base) => (base.count < best.count ? base : best));
}

/** What a read of a base found. */
export interface Found {
  /** Matches, in the order asked for. */
  models: Model[];
  /** Whether they are every match (else: the matches among what was read). */
  complete: boolean;
  /** Models of the base read. */
  read: number;
}

/** The base's first models in a ranked `order`, filtered. */
export async function rankedFound(data: SearchData, base: Base, filters: Filters, order: Exclude<SortKey, "name">, sizes: readonly number[]): Promise<Found> {
  const { pageSize, rankedModels } = data.manifest;
  const start = data.fetchedBytes;
  const byId = new Map<string, Model>();
  let complete = true;
  for (const part of base.parts) {
    // A part of one page has only its page by downloads, which holds it whole.
    const one = part.count <= pageSize;
    const pages = one ? 1 : Math.ceil(Math.min(part.count, rankedModels) / pageSize);
    complete &&= one || part.count <= rankedModels;
    for (let page = 1; page <= pages; page += 1) {
      if (data.fetchedBytes - start >= SCAN_BYTES) {
        complete = false;
        break;
      }
      const read = await data.rankedPage(part.ranked, one ? "downloads" : order, page).catch(() => null);
      for (const model of read?.models ?? []) {
        byId.set(model.id, model);
      }
    }
  }
  const all = [...byId.values()];
  return { models: sortModels(all.filter((m) => passes(m, filters, sizes)), order), complete, read: all.length };
}

/** A listing by name being read a page at a time. */
interface Cursor {
  scope: string;
  rows: readonly Model[];
  at: number;
  next: string | null;
}

function compareIds(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The base's models by name that pass the filters, its parts merged, until
 * `want` are found, the base ends, or `budget` more bytes were fetched.
 */
export async function namedFound(data: SearchData, base: Base, filters: Filters, want: number, budget: number, sizes: readonly number[]): Promise<Found> {
  const start = data.fetchedBytes;
  const cursors: Cursor[] = base.parts.map((part) => ({ scope: part.named, rows: [], at: 0, next: "first.json" }));
  const models: Model[] = [];
  let read = 0;
  for (;;) {
    for (const cursor of cursors) {
      while (cursor.at >= cursor.rows.length && cursor.next !== null) {
        if (data.fetchedBytes - start >= budget) {
          return { models, complete: false, read };
        }
        const page = await data.namePage(cursor.scope, cursor.next).catch(() => null);
        cursor.rows = page?.models ?? [];
        cursor.at = 0;
        cursor.next = page?.next ?? null;
      }
    }
    let first: Cursor | null = null;
    for (const cursor of cursors) {
      const row = cursor.rows[cursor.at];
      if (row !== undefined && (first === null || compareIds(row.id, first.rows[first.at]?.id ?? "") < 0)) {
        first = cursor;
      }
    }
    const model = first?.rows[first.at];
    if (first === null || model === undefined) {
      return { models, complete: true, read };
    }
    first.at += 1;
    read += 1;
    if (passes(model, filters, sizes) && models[models.length - 1]?.id !== model.id) {
      models.push(model);
      if (models.length >= want) {
        const more = cursors.some((c) => c.at < c.rows.length || c.next !== null);
        return { models, complete: !more, read };
      }
    }
  }
}

/** The results of `filters` (see `browsesFacets`) on the listing of `scope` (task, library, both or all), as the panel shows them. */
export async function facetResults(data: SearchData, values: FacetValues, filters: Filters, scope: { count: number; label: string }): Promise<View> {
  const { manifest } = data;
  const size = manifest.pageSize;
  const sizes = values.memorySizes;
  const base = chooseBase(filters, values, scope.count, scope.label);
  const empty = { filters, rows: [], total: 0, pages: 1, note: null, counts: null, byName: null };
  if (base.parts.length === 0) {
    return empty;
  }
  if (filters.sort === "name") {
    const want = (filters.page + 1) * size + 1;
    const found = await namedFound(data, base, filters, want, SCAN_BYTES * filters.scan, sizes);
    const shown = Math.min(found.models.length, (filters.page + 1) * size);
    const pages = Math.max(1, Math.ceil(found.models.length / size));
    const page = Math.min(filters.page, pages - 1);
    const budgetSpent = !found.complete && found.models.length < want;
    const note = budgetSpent
      ? `Read ${plural(found.read, "model", "models")} of ${base.label} by name (of ${numberFormat.format(base.count)}); ${plural(found.models.length, "matches", "match")} so far.`
      : null;
    return {
      filters,
      rows: found.models.slice(page * size, Math.min(shown, (page + 1) * size)),
      total: found.models.length,
      pages,
      note,
      counts: null,
      byName: null,
      partial: found.complete ? undefined : { further: budgetSpent },
    };
  }
  const found = await rankedFound(data, base, filters, filters.sort, sizes);
  const pages = Math.max(1, Math.ceil(found.models.length / size));
  const page = Math.min(filters.page, pages - 1);
  const order = filters.sort === "updated" ? "most recently updated" : filters.sort === "likes" ? "most liked" : "most downloaded";
  const filtered = FACET_FILTERS.some((name) => filters[name] !== "");
  const note = found.complete
    ? null
    : filtered
      ? `The matches among the ${plural(found.read, "model", "models")} ${order} of ${base.label} (${numberFormat.format(base.count)} in all) are listed; others may match.`
      : `The first ${numberFormat.format(found.read)} of ${plural(base.count, "model", "models")} are listed in this order; sort by name to see them all.`;
  return {
    filters,
    rows: found.models.slice(page * size, (page + 1) * size),
    // Without a filter every model of the scope matches: its size, as the other orders say.
    total: filtered ? found.models.length : base.count,
    pages,
    note,
    counts: null,
    byName: null,
    allByName: !found.complete && filtered,
  };
}
