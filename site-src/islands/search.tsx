import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { SORT_KEYS, facetCounts, filterAndSort, parseIndex, textMatches } from "./search-index";
import type { Facet, ModelIndex, SortKey } from "./search-index";

/** Results shown per page: the list never holds more rows than this. */
export const PAGE_SIZE = 50;
/** Typing settles for this long before the list is filtered again. */
export const DEBOUNCE_MS = 150;

const SORT_LABELS: Readonly<Record<SortKey, string>> = {
  downloads: "Most downloads",
  likes: "Most likes",
  name: "Name",
};

const numberFormat = new Intl.NumberFormat("en-US");

function plural(count: number, one: string, many: string): string {
  return `${numberFormat.format(count)} ${count === 1 ? one : many}`;
}

/** The filters a reader sets; mirrored in the page's query string. */
interface Filters {
  query: string;
  task: string;
  library: string;
  sort: SortKey;
  /** Zero-based. */
  page: number;
}

function isSortKey(value: string | null): value is SortKey {
  return SORT_KEYS.some((key) => key === value);
}

function filtersFromUrl(): Filters {
  const params = new URLSearchParams(window.location.search);
  const sort = params.get("sort");
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    query: params.get("q") ?? "",
    task: params.get("task") ?? "",
    library: params.get("library") ?? "",
    sort: isSortKey(sort) ? sort : "downloads",
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
  };
}

/** Writes the filters into the query string so reloading or going back keeps them. */
function filtersToUrl(filters: Filters): void {
  const url = new URL(window.location.href);
  const params = url.searchParams;
  const set = (name: string, value: string, fallback: string): void => {
    if (value === fallback) {
      params.delete(name);
    } else {
      params.set(name, value);
    }
  };
  set("q", filters.query.trim(), "");
  set("task", filters.task, "");
  set("library", filters.library, "");
  set("sort", filters.sort, "downloads");
  set("page", String(filters.page + 1), "1");
  if (url.href !== window.location.href) {
    try {
      window.history.replaceState(window.history.state, "", url.href);
    } catch {
      // History can be unavailable in sandboxed frames; filtering still works.
    }
  }
}

function modelUrl(base: string, id: string): string {
  return `${base}${id.split("/").map(encodeURIComponent).join("/")}/`;
}

function facetPosition(facets: readonly Facet[], key: string): number {
  return key === "" ? -1 : facets.findIndex((facet) => facet.key === key);
}

type LoadState = { status: "loading" } | { status: "failed" } | { status: "ready"; index: ModelIndex };

export interface ModelSearchProps {
  /** URL of search-index.json. */
  indexUrl: string;
  /** Site base path; model pages are at base + id + "/". */
  base: string;
  /** The prerendered no-JavaScript listing, hidden once the index has loaded. */
  fallback: readonly HTMLElement[];
}

/** Loads the search index, then shows the search UI in place of the fallback listing. */
export function ModelSearch({ indexUrl, base, fallback }: ModelSearchProps) {
  const [state, setState] = useState<LoadState>({ status: "loading" });

  useEffect(() => {
    const controller = new AbortController();
    fetch(indexUrl, { credentials: "same-origin", signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) {
          throw new Error(`HTTP ${response.status}`);
        }
        return parseIndex((await response.json()) as unknown);
      })
      .then(
        (index) => setState({ status: "ready", index }),
        () => {
          if (!controller.signal.aborted) {
            setState({ status: "failed" });
          }
        },
      );
    return () => controller.abort();
  }, [indexUrl]);

  const ready = state.status === "ready";
  useLayoutEffect(() => {
    if (!ready) {
      return undefined;
    }
    for (const element of fallback) {
      element.hidden = true;
    }
    return () => {
      for (const element of fallback) {
        element.hidden = false;
      }
    };
  }, [ready, fallback]);

  if (state.status === "loading") {
    return (
      <p className="search-status" role="status">
        Loading the model list…
      </p>
    );
  }
  if (state.status === "failed") {
    return (
      <p className="search-status" role="status">
        Search is unavailable right now{fallback.length > 0 ? "; the most downloaded models are listed below" : ""}.
      </p>
    );
  }
  return <SearchPanel index={state.index} base={base} />;
}

interface SearchPanelProps {
  index: ModelIndex;
  base: string;
}

function SearchPanel({ index, base }: SearchPanelProps) {
  const [filters, setFilters] = useState<Filters>(filtersFromUrl);
  const [input, setInput] = useState<string>(filters.query);
  const listTop = useRef<HTMLDivElement>(null);
  const ids = `search${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;

  // Debounced typing: filter once the reader pauses.
  useEffect(() => {
    if (input === filters.query) {
      return undefined;
    }
    const timer = window.setTimeout(() => {
      setFilters((previous) => ({ ...previous, query: input, page: 0 }));
    }, DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [input, filters.query]);

  useEffect(() => filtersToUrl(filters), [filters]);

  const task = facetPosition(index.tasks, filters.task);
  const library = facetPosition(index.libraries, filters.library);
  const hits = useMemo(() => textMatches(index, filters.query), [index, filters.query]);
  const counts = useMemo(() => facetCounts(index, hits, task, library), [index, hits, task, library]);
  const results = useMemo(
    () => filterAndSort(index, hits, task, library, filters.sort),
    [index, hits, task, library, filters.sort],
  );
  const taskOptions = useMemo(() => sortedFacets(index.tasks), [index]);
  const libraryOptions = useMemo(() => sortedFacets(index.libraries), [index]);

  const pageCount = Math.max(1, Math.ceil(results.length / PAGE_SIZE));
  const page = Math.min(filters.page, pageCount - 1);
  const rows = Array.from(results.subarray(page * PAGE_SIZE, (page + 1) * PAGE_SIZE));

  const update = (change: Partial<Filters>): void => setFilters((previous) => ({ ...previous, page: 0, ...change }));
  const goToPage = (target: number): void => {
    setFilters((previous) => ({ ...previous, page: target }));
    const top = listTop.current;
    if (top !== null && top.getBoundingClientRect().top < 0) {
      top.scrollIntoView({ block: "start" });
    }
  };

  return (
    <div className="search-panel">
      <div className="search-controls" role="search">
        <div className="search-field search-text">
          <label htmlFor={`${ids}-q`}>Filter by name or tag</label>
          <input
            id={`${ids}-q`}
            type="search"
            className="search-input"
            value={input}
            placeholder="e.g. llama, bert, gguf"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => setInput(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                update({ query: input });
              }
            }}
          />
        </div>
        <FacetSelect
          id={`${ids}-task`}
          label="Task"
          allLabel="All tasks"
          allCount={counts.allTasks}
          options={taskOptions}
          counts={counts.tasks}
          selected={task}
          value={filters.task}
          onChange={(key) => update({ task: key })}
        />
        <FacetSelect
          id={`${ids}-library`}
          label="Library"
          allLabel="All libraries"
          allCount={counts.allLibraries}
          options={libraryOptions}
          counts={counts.libraries}
          selected={library}
          value={filters.library}
          onChange={(key) => update({ library: key })}
        />
        <div className="search-field">
          <label htmlFor={`${ids}-sort`}>Sort by</label>
          <select
            id={`${ids}-sort`}
            className="search-select"
            value={filters.sort}
            onChange={(event) => {
              const value = event.currentTarget.value;
              if (isSortKey(value)) {
                update({ sort: value });
              }
            }}
          >
            {SORT_KEYS.map((key) => (
              <option key={key} value={key}>
                {SORT_LABELS[key]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div ref={listTop} className="search-summary">
        <p className="search-status" role="status" aria-live="polite" aria-atomic="true">
          {plural(results.length, "model", "models")}
          {pageCount > 1 ? ` · page ${numberFormat.format(page + 1)} of ${numberFormat.format(pageCount)}` : ""}
        </p>
      </div>
      {rows.length === 0 ? (
        <p className="empty">No model matches these filters.</p>
      ) : (
        <ol className="search-results" start={page * PAGE_SIZE + 1} aria-label="Models">
          {rows.map((position) => {
            const id = index.ids[position] ?? "";
            const modelTask = index.tasks[index.task[position] ?? -1];
            const modelLibrary = index.libraries[index.library[position] ?? -1];
            return (
              <li key={id} className="search-result">
                <a className="search-result-id" href={modelUrl(base, id)}>
                  {id}
                </a>
                <span className="search-result-meta">
                  {modelTask !== undefined ? <span>{modelTask.label}</span> : null}
                  {modelLibrary !== undefined ? <span>{modelLibrary.label}</span> : null}
                  <span>{plural(index.downloads[position] ?? 0, "download", "downloads")}</span>
                  <span>{plural(index.likes[position] ?? 0, "like", "likes")}</span>
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {pageCount > 1 ? (
        <nav className="pagination" aria-label="Result pages">
          {/* aria-disabled rather than disabled: a disabled button would drop keyboard focus. */}
          <button
            type="button"
            className="page-button"
            aria-disabled={page === 0}
            onClick={() => {
              if (page > 0) {
                goToPage(page - 1);
              }
            }}
          >
            Previous
          </button>
          <span className="page-number">
            Page {numberFormat.format(page + 1)} of {numberFormat.format(pageCount)}
          </span>
          <button
            type="button"
            className="page-button"
            aria-disabled={page >= pageCount - 1}
            onClick={() => {
              if (page < pageCount - 1) {
                goToPage(page + 1);
              }
            }}
          >
            Next
          </button>
        </nav>
      ) : null}
    </div>
  );
}

interface FacetSelectProps {
  id: string;
  label: string;
  allLabel: string;
  allCount: number;
  options: readonly { facet: Facet; position: number }[];
  /** Matching models per facet position, given the other filters. */
  counts: ArrayLike<number>;
  /** Position of the chosen facet, or -1 for all. */
  selected: number;
  value: string;
  onChange: (key: string) => void;
}

/** A task or library filter: facets with matches (and the chosen one), with counts. */
function FacetSelect({ id, label, allLabel, allCount, options, counts, selected, value, onChange }: FacetSelectProps) {
  return (
    <div className="search-field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="search-select"
        value={selected < 0 ? "" : value}
        onChange={(event) => onChange(event.currentTarget.value)}
      >
        <option value="">
          {allLabel} ({numberFormat.format(allCount)})
        </option>
        {options.map(({ facet, position }) => {
          const found = counts[position] ?? 0;
          return found > 0 || position === selected ? (
            <option key={facet.key} value={facet.key}>
              {facet.label} ({numberFormat.format(found)})
            </option>
          ) : null;
        })}
      </select>
    </div>
  );
}

function sortedFacets(facets: readonly Facet[]): { facet: Facet; position: number }[] {
  return facets
    .map((facet, position) => ({ facet, position }))
    .sort((a, b) => a.facet.label.localeCompare(b.facet.label, "en"));
}
