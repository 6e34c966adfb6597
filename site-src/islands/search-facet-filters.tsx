/**
 * The search's facet controls: language, licence and provider (the values
 * of `search/facets.json`, most common first), a parameter range and a
 * memory size, in a disclosure open where there is room or when one is set.
 */

import { useState } from "react";
import type { FacetValues } from "./search-data";
import { FACET_FILTERS } from "./search-results";
import type { Filters } from "./search-results";
import { numberFormat } from "./search-view";

/** English names of language codes, where the browser has them. */
const languageNames: Intl.DisplayNames | null = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
  } catch {
    return null;
  }
})();

/**
 * A language tag as a visitor reads it: "French · fr", or the tag alone
 * where the browser names no such language (a tag is the record's own
 * text, not always a code).
 */
function languageLabel(tag: string): string {
  try {
    const name = languageNames?.of(tag);
    return name !== undefined && name.toLowerCase() !== tag.toLowerCase() ? `${name} · ${tag}` : tag;
  } catch {
    // Not a well-formed language code.
    return tag;
  }
}

/** The facets whose values are the records' own text, chosen from a list. */
type ValueFacet = "language" | "license" | "provider";

/** Parameters as the Hub writes a size: 500M, 1B, 12B. */
function paramsText(n: number): string {
  return n >= 1e9 ? `${numberFormat.format(n / 1e9)}B` : `${numberFormat.format(n / 1e6)}M`;
}

/** The language, licence, provider, parameter and memory filters. */
export function FacetFilters({
  ids,
  values,
  filters,
  update,
}: {
  ids: string;
  values: FacetValues;
  filters: Filters;
  update: (change: Partial<Filters>) => void;
}) {
  // Open where there is room, or when one of them is set: on a phone the
  // first filters and the results come first.
  const [open] = useState(() => FACET_FILTERS.some((name) => filters[name] !== "") || window.matchMedia("(min-width: 48rem)").matches);
  const classes = values.paramBounds.length + 1;
  const range = /^([0-9]+)-([0-9]+)$/.exec(filters.params);
  const [low, high] = range === null ? [0, classes - 1] : [Number(range[1]), Number(range[2])];
  const setRange = (first: number, last: number): void =>
    update({ params: first === 0 && last === classes - 1 ? "" : `${first}-${last}` });
  const label = (kind: ValueFacet, value: string): string => (kind === "language" ? languageLabel(value) : value);
  const valueSelect = (kind: ValueFacet, name: string, allLabel: string) => (
    <div className="search-field">
      <label htmlFor={`${ids}-${kind}`}>{name}</label>
      <select id={`${ids}-${kind}`} className="search-select" value={filters[kind]} onChange={(event) => update({ [kind]: event.currentTarget.value })}>
        <option value="">{allLabel}</option>
        {values[kind].map((entry) => (
          <option key={entry.value} value={entry.value}>
            {label(kind, entry.value)} ({numberFormat.format(entry.count)})
          </option>
        ))}
        {filters[kind] !== "" && !values[kind].some((entry) => entry.value === filters[kind]) ? (
          <option value={filters[kind]}>{label(kind, filters[kind])}</option>
        ) : null}
      </select>
    </div>
  );
  return (
    <details className="search-more" open={open}>
      <summary>Language, licence, provider, size and memory</summary>
      <div className="search-controls">
      {valueSelect("language", "Language", "All languages")}
      {valueSelect("license", "Licence", "All licences")}
      {valueSelect("provider", "Provider", "All providers")}
      <div className="search-field">
        <label htmlFor={`${ids}-params-low`}>Parameters from</label>
        <select id={`${ids}-params-low`} className="search-select" value={low} onChange={(event) => setRange(Number(event.currentTarget.value), Math.max(high, Number(event.currentTarget.value)))}>
          {Array.from({ length: classes }, (_, c) => (
            <option key={c} value={c}>
              {c === 0 ? "Any size" : paramsText(values.paramBounds[c - 1] ?? 0)}
            </option>
          ))}
        </select>
      </div>
      <div className="search-field">
        <label htmlFor={`${ids}-params-high`}>Parameters below</label>
        <select id={`${ids}-params-high`} className="search-select" value={high} onChange={(event) => setRange(Math.min(low, Number(event.currentTarget.value)), Number(event.currentTarget.value))}>
          {Array.from({ length: classes }, (_, c) => (
            <option key={c} value={c}>
              {c === classes - 1 ? "Any size" : paramsText(values.paramBounds[c] ?? 0)}
            </option>
          ))}
        </select>
      </div>
      <div className="search-field">
        <label htmlFor={`${ids}-fits`}>Fits in</label>
        <select id={`${ids}-fits`} className="search-select" value={filters.fits} onChange={(event) => update({ fits: event.currentTarget.value })}>
          <option value="">Any memory</option>
          {values.memorySizes.map((gb) => (
            <option key={gb} value={String(gb)}>
              {gb} GB
            </option>
          ))}
        </select>
      </div>
      </div>
    </details>
  );
}

