/**
 * What the search island shows for one set of filters, and the number
 * formats it writes them in: shared by the panel (search.tsx) and the
 * facet browsing (search-facets.ts).
 */

import type { Model } from "./search-data";
import type { FacetCounts, Filters } from "./search-results";

export const numberFormat = new Intl.NumberFormat("en-US");

/** `count` with `one` or `many` after it ("1 model", "2 models"). */
export function plural(count: number, one: string, many: string): string {
  return `${numberFormat.format(count)} ${count === 1 ? one : many}`;
}

/** What the island shows for one set of filters. */
export interface View {
  filters: Filters;
  /** This page's models. */
  rows: readonly Model[];
  total: number;
  pages: number;
  /** Why some matches cannot be shown, when some cannot. */
  note: string | null;
  /** Counts for the selects; null: the manifest's. */
  counts: FacetCounts | null;
  /** Browsing by name: the pages before and after this one, by their first model. */
  byName: { previous: string | null; next: string | null; first: string } | null;
  /** Facet filters by name: whether reading further may find more matches; the status then says "at least". */
  partial?: { further: boolean };
  /** A ranked list of some of the matches: the list of all of them by name is offered. */
  allByName?: boolean;
}

