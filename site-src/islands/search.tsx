import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { SORT_KEYS, SearchData, scopePath, tagFileName, tagScope } from "./search-data";
import type { Facet, FacetValues, Manifest, Model, NamePage, SortKey } from "./search-data";
import { browsesFacets, facetResults } from "./search-facets";
import { FacetFilters } from "./search-facet-filters";
import { numberFormat, plural } from "./search-view";
import type { View } from "./search-view";
import { StatsReader } from "./stats";
import type { Counts } from "./stats";
import { facetCounts, figuresOf, namespaceOf, passes, sortModels, textResults, withFigures } from "./search-results";
import type { FacetCounts, Filters, TextResults } from "./search-results";
import { queryWords, words } from "./search-words";

/** Typing settles for this long before the results are worked out again. */
export const DEBOUNCE_MS = 150;
/** Pages of a namespace's or a tag's listing read to filter and sort it. */
const SCOPE_PAGES = 20;

const SORT_LABELS: Readonly<Record<SortKey, string>> = {
  downloads: "Most downloads",
  likes: "Most likes",
  updated: "Recently updated",
  name: "Name",
};

function isSortKey(value: string | null): value is SortKey {
  return SORT_KEYS.some((key) => key === value);
}

/** A model id as a page by name is named by; anything else is the first page. */
const PAGE_ID = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

function filtersFromUrl(): Filters {
  const params = new URLSearchParams(window.location.search);
  const sort = params.get("sort");
  const page = Number.parseInt(params.get("page") ?? "", 10);
  const from = params.get("from") ?? "";
  return {
    query: params.get("q") ?? "",
    task: params.get("task") ?? "",
    library: params.get("library") ?? "",
    namespace: params.get("namespace") ?? "",
    tag: params.get("tag") ?? "",
    language: params.get("language") ?? "",
    license: params.get("license") ?? "",
    provider: params.get("provider") ?? "",
    params: params.get("params") ?? "",
    fits: params.get("fits") ?? "",
    scan: 1,
    sort: isSortKey(sort) ? sort : "downloads",
    page: Number.isInteger(page) && page > 1 ? page - 1 : 0,
    from: PAGE_ID.test(from) && !from.includes("..") ? from : "",
  };
}

/** The file of the page by name starting at `from` ("": the first). */
function namePath(from: string): string {
  return from === "" ? "first.json" : `from/${from}.json`;
}

/** The first model of the page by name a page names (`first.json`, `from/<id>.json`). */
function fromOf(path: string): string {
  return path === "first.json" ? "" : path.replace(/^from\//, "").replace(/\.json$/, "");
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
  set("namespace", filters.namespace, "");
  set("tag", filters.tag, "");
  set("language", filters.language, "");
  set("license", filters.license, "");
  set("provider", filters.provider, "");
  set("params", filters.params, "");
  set("fits", filters.fits, "");
  set("sort", filters.sort, "downloads");
  set("page", String(filters.page + 1), "1");
  set("from", filters.from, "");
  if (url.href !== window.location.href) {
    try {
      window.history.replaceState(window.history.state, "", url.href);
    } catch {
      // History can be unavailable in sandboxed frames; searching still works.
    }
  }
}

function modelUrl(base: string, id: string): string {
  return `${base}${id.split("/").map(encodeURIComponent).join("/")}/`;
}

type LoadState = { status: "loading" } | { status: "failed" } | { status: "ready"; data: SearchData; values: FacetValues };

/** Facet values when `search/facets.json` cannot be read: the facet filters then match nothing they cannot check. */
const NO_VALUES: FacetValues = { paramBounds: [], memorySizes: [], language: [], license: [], provider: [], params: new Map(), fits: new Map() };

export interface ModelSearchProps {
  /** Site base path; the search files are under base + "search/", model pages at base + id + "/". */
  base: string;
  /** The prerendered no-JavaScript listing: not painted while the search loads, hidden once it is ready, shown if it fails. */
  fallback: readonly HTMLElement[];
}

/** Loads the search manifest, then shows the search in place of the fallback listing. */
export function ModelSearch({ base, fallback }: ModelSearchProps) {
  const [state, setState] = useState<LoadState>({ status: "loading" });

  useEffect(() => {
    const controller = new AbortController();
    SearchData.load(base, controller.signal).then(
      async (data) => {
        const values = await data.facetValues().catch(() => NO_VALUES);
        if (!controller.signal.aborted) {
          setState({ status: "ready", data, values });
        }
      },
      () => {
        if (!controller.signal.aborted) {
          setState({ status: "failed" });
        }
      },
    );
    return () => controller.abort();
  }, [base]);

  // The fallback is not painted while scripts run (see style.css): it is
  // hidden for good once the search is ready, and shown again if it fails.
  const status = state.status;
  useLayoutEffect(() => {
    if (status === "loading") {
      return undefined;
    }
    for (const element of fallback) {
      if (status === "ready") {
        element.hidden = true;
      } else {
        element.dataset.searchFailed = "";
      }
    }
    return () => {
      for (const element of fallback) {
        element.hidden = false;
        delete element.dataset.searchFailed;
      }
    };
  }, [status, fallback]);

  if (state.status === "loading") {
    return (
      <p className="search-status" role="status">
        Loading the search…
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
  return <SearchPanel data={state.data} values={state.values} />;
}

/** How many models a listing without a query holds, from the manifest. */
function scopeCount(manifest: Manifest, filters: Filters): number {
  const facet = (facets: readonly Facet[], key: string) => facets.find((f) => f.key === key)?.count ?? 0;
  if (filters.task !== "" && filters.library !== "") {
    return manifest.pairs.get(`${filters.task} ${filters.library}`) ?? 0;
  }
  if (filters.task !== "") {
    return facet(manifest.tasks, filters.task);
  }
  return filters.library !== "" ? facet(manifest.libraries, filters.library) : manifest.count;
}

/**
 * A namespace's or a tag's models (its first `SCOPE_PAGES` pages by name),
 * with their figures from the stats files: a namespace's page names its
 * one file, a tag's page the file of each model.
 */
async function scopeModels(data: SearchData, stats: StatsReader, scope: string): Promise<{ models: Model[]; more: boolean }> {
  const pages: NamePage[] = [await data.namePage(scope, "first.json")];
  while (pages.length < SCOPE_PAGES) {
    const next = pages[pages.length - 1]?.next;
    if (next === null || next === undefined) {
      break;
    }
    pages.push(await data.namePage(scope, next));
  }
  // Each model with its stats file, then the files read by namespace.
  const models: Model[] = [];
  const files: string[] = [];
  for (const page of pages) {
    page.models.forEach((model, i) => {
      const bucket = page.buckets?.[i];
      models.push(model);
      files.push(pages[0]?.stats ?? (bucket === null || bucket === undefined ? "" : `stats/${bucket}.json`));
    });
  }
  const wanted = new Map<string, { file: string; namespace: string; names: string[] }>();
  models.forEach((model, i) => {
    const file = files[i] ?? "";
    const namespace = namespaceOf(model.id);
    if (file === "" || namespace === model.id) {
      return;
    }
    const key = `${file} ${namespace}`;
    const entry = wanted.get(key) ?? { file, namespace, names: [] };
    entry.names.push(model.id.slice(namespace.length + 1));
    wanted.set(key, entry);
  });
  const counts = new Map<string, Counts>();
  await Promise.all(
    [...wanted.values()].map(async ({ file, namespace, names }) => {
      const found = await stats.namespaceCounts(`${data.base}${file}`, namespace, names).catch(() => new Map());
      for (const [name, figures] of found) {
        counts.set(`${namespace}/${name as string}`, figures as Counts);
      }
    }),
  );
  return { models: withFigures(models, counts), more: pages[pages.length - 1]?.next !== null };
}

/** The models matching every query word `terms`, fetching the word files it needs. */
async function textSearch(data: SearchData, terms: readonly string[]): Promise<TextResults> {
  // Longest words first (the rarer, as a rule): once one word's shard
  // lists all its models, they are checked against the other words, whose
  // shards are then not needed at all.
  const matches = [];
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const match = await data.match(term);
    matches.push(match);
    if (match.kind === "none" || match.shard.complete) {
      break;
    }
  }
  return textResults(terms, matches);
}

/**
 * Exact hits with the figures of the first models, in the order shown, of
 * the listing the filters narrow (all models, or a task's or library's): its
 * ranked pages, which the page without a query reads as well. Word files
 * hold no figures and the tops fetched on the way name only their nodes'
 * most downloaded, so without these a small site, whose words all have
 * files of their own, would list every hit by name. A hit none of them
 * names has fewer downloads (or likes) than all they name: it rightly
 * follows them.
 */
async function withScopeFigures(data: SearchData, filters: Filters, hits: Model[]): Promise<Model[]> {
  const order = filters.sort;
  if ((order !== "downloads" && order !== "likes") || hits.every((model) => model.downloads !== null)) {
    return hits;
  }
  const scope = scopePath(filters.task, filters.library, "");
  const ranked = await data.rankedModels(scope, order, scopeCount(data.manifest, filters)).catch(() => []);
  return withFigures(hits, figuresOf(ranked));
}

/** Why a text search's results may be short of its matches. */
function textNote(manifest: Manifest, found: TextResults): string | null {
  if (found.complete) {
    return null;
  }
  return found.known !== null
    ? `About ${plural(found.known, "model matches", "models match")}; the ${numberFormat.format(manifest.shardModels)} most downloaded are searched. Add a word to narrow the search.`
    : "Only the most downloaded models for each word are searched. Add a less common word to find the rest.";
}

/** One page of the results for `filters`, fetching what it needs. */
async function resultsFor(data: SearchData, stats: StatsReader, filters: Filters, values: FacetValues): Promise<View> {
  const { manifest } = data;
  const size = manifest.pageSize;
  const sizes = values.memorySizes;
  if (browsesFacets(filters)) {
    const label = [labelOf(manifest.tasks, filters.task), labelOf(manifest.libraries, filters.library)].filter((v) => v !== "").join(" and ");
    return facetResults(data, values, filters, { count: scopeCount(manifest, filters), label: label || "all models" });
  }
  const paged = (all: Model[], note: string | null, counts: FacetCounts | null): View => {
    const pages = Math.max(1, Math.ceil(all.length / size));
    const page = Math.min(filters.page, pages - 1);
    return { filters, rows: all.slice(page * size, (page + 1) * size), total: all.length, pages, note, counts, byName: null };
  };
  const terms = queryWords(filters.query);
  if (filters.tag !== "") {
    // The tag's listing is read whole (up to its first pages) and filtered,
    // sorted and counted here; with a query, the text search's matches
    // that carry the tag.
    const name = tagFileName(filters.tag);
    const listed = name === null ? null : await scopeModels(data, stats, tagScope(name)).catch(() => null);
    if (listed === null) {
      return paged([], null, null);
    }
    let pool = listed.models;
    const notes: string[] = [];
    if (listed.more) {
      notes.push(`Only the first ${numberFormat.format(pool.length)} models tagged ${filters.tag} by name are searched.`);
    }
    if (terms.length > 0) {
      const found = await textSearch(data, terms);
      const matching = new Set(found.hits.map((model) => model.id));
      pool = pool.filter((model) => matching.has(model.id));
      const note = textNote(manifest, found);
      if (note !== null) {
        notes.push(note);
      }
    }
    const shown = sortModels(pool.filter((model) => passes(model, filters, sizes)), filters.sort);
    return paged(shown, notes.length > 0 ? notes.join(" ") : null, facetCounts(pool, filters, sizes));
  }
  if (terms.length > 0) {
    const found = await textSearch(data, terms);
    const hits = found.complete ? await withScopeFigures(data, filters, found.hits) : found.hits;
    const shown = sortModels(hits.filter((model) => passes(model, filters, sizes)), filters.sort);
    return paged(shown, textNote(manifest, found), facetCounts(hits, filters, sizes));
  }
  if (filters.namespace !== "") {
    // A namespace's listing is read whole (up to its first pages) and
    // filtered, sorted and counted here, its figures from its stats file:
    // most namespaces hold a few models.
    const { models, more } = await scopeModels(data, stats, scopePath("", "", filters.namespace));
    const note = more ? `Only the first ${numberFormat.format(models.length)} models of ${filters.namespace} by name are listed.` : null;
    const shown = sortModels(models.filter((model) => passes(model, filters, sizes)), filters.sort);
    return paged(shown, note, facetCounts(models, filters, sizes));
  }
  const scope = scopePath(filters.task, filters.library, filters.namespace);
  const count = scopeCount(manifest, filters);
  if (count === 0) {
    return paged([], null, null);
  }
  if (filters.sort !== "downloads" && count <= size) {
    // A listing of one page has no other orders: sort its one page here.
    const only = await data.rankedPage(scope, "downloads", 1);
    return paged(sortModels([...only.models], filters.sort), null, null);
  }
  if (filters.sort === "name") {
    const current = await data.namePage(scope, namePath(filters.from));
    return {
      filters,
      rows: current.models,
      total: count,
      pages: 1,
      note: null,
      counts: null,
      byName: {
        previous: current.previous === null ? null : fromOf(current.previous),
        next: current.next === null ? null : fromOf(current.next),
        first: current.models[0]?.id ?? "",
      },
    };
  }
  const listed = Math.min(count, manifest.rankedModels);
  const pages = Math.max(1, Math.ceil(listed / size));
  const page = Math.min(filters.page, pages - 1);
  const current = await data.rankedPage(scope, filters.sort, page + 1);
  const note =
    listed < count
      ? `The first ${numberFormat.format(listed)} of ${plural(count, "model", "models")} are listed in this order; sort by name to see them all.`
      : null;
  return { filters, rows: current.models, total: count, pages, note, counts: null, byName: null };
}

function SearchPanel({ data, values }: { data: SearchData; values: FacetValues }) {
  const { manifest } = data;
  const [filters, setFilters] = useState<Filters>(filtersFromUrl);
  const [input, setInput] = useState<string>(filters.query);
  const [view, setView] = useState<View | null>(null);
  const [failed, setFailed] = useState(false);
  const listTop = useRef<HTMLDivElement>(null);
  const stats = useMemo(() => new StatsReader(), []);
  const ids = `search${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;

  // Debounced typing: the results follow once the reader pauses.
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

  useEffect(() => {
    let current = true;
    resultsFor(data, stats, filters, values).then(
      (next) => {
        if (current) {
          setView(next);
          setFailed(false);
        }
      },
      () => {
        if (current) {
          setFailed(true);
        }
      },
    );
    return () => {
      current = false;
    };
  }, [data, stats, filters, values]);

  const onType = (value: string): void => {
    setInput(value);
    // Each key fetches the next hop of the word being typed at once, so
    // its shard is there when the results are worked out.
    const typed = words(value);
    const typing = /[A-Za-z0-9]$/.test(value) ? typed[typed.length - 1] : undefined;
    if (typing !== undefined) {
      data.match(typing).catch(() => undefined);
    }
  };

  const counts = view?.counts ?? null;
  const taskCounts = useMemo(() => manifestCounts(manifest, filters, "task"), [manifest, filters]);
  const libraryCounts = useMemo(() => manifestCounts(manifest, filters, "library"), [manifest, filters]);
  const taskOptions = useMemo(() => sortedFacets(manifest.tasks), [manifest]);
  const libraryOptions = useMemo(() => sortedFacets(manifest.libraries), [manifest]);

  const update = (change: Partial<Filters>): void => setFilters((previous) => ({ ...previous, page: 0, from: "", scan: 1, ...change }));
  const scrollToList = (): void => {
    const top = listTop.current;
    if (top !== null && top.getBoundingClientRect().top < 0) {
      top.scrollIntoView({ block: "start" });
    }
  };
  const goToPage = (target: number): void => {
    setFilters((previous) => ({ ...previous, page: target }));
    scrollToList();
  };
  const goToName = (from: string): void => {
    setFilters((previous) => ({ ...previous, from }));
    scrollToList();
  };

  const page = view === null ? 0 : Math.min(view.filters.page, view.pages - 1);
  const pageCount = view?.pages ?? 1;
  return (
    <div className="search-panel">
      <div className="search-controls" role="search">
        <div className="search-field search-text">
          <label htmlFor={`${ids}-q`}>Search by name, tag, task or library</label>
          <input
            id={`${ids}-q`}
            type="search"
            className="search-input"
            value={input}
            placeholder="e.g. llama, bert, gguf"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => onType(event.currentTarget.value)}
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
          allCount={counts?.allTasks ?? taskCounts.all}
          options={taskOptions}
          counts={counts?.tasks ?? taskCounts.each}
          value={filters.task}
          onChange={(key) => update({ task: key })}
        />
        <FacetSelect
          id={`${ids}-library`}
          label="Library"
          allLabel="All libraries"
          allCount={counts?.allLibraries ?? libraryCounts.all}
          options={libraryOptions}
          counts={counts?.libraries ?? libraryCounts.each}
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
        <FacetFilters ids={ids} values={values} filters={filters} update={update} />
      </div>
      {filters.namespace !== "" ? (
        <p className="search-scope">
          In namespace <strong>{filters.namespace}</strong>{" "}
          <button type="button" className="page-button" onClick={() => update({ namespace: "" })}>
            Search all namespaces
          </button>
        </p>
      ) : null}
      {filters.tag !== "" ? (
        <p className="search-scope">
          Tagged <strong>{filters.tag}</strong>{" "}
          <button type="button" className="page-button" onClick={() => update({ tag: "" })}>
            Show every tag
          </button>
        </p>
      ) : null}
      <div ref={listTop} className="search-summary">
        <p className="search-status" role="status" aria-live="polite" aria-atomic="true">
          {failed
            ? "Search is unavailable right now."
            : view === null
              ? "Searching…"
              : view.byName !== null
                ? `${plural(view.total, "model", "models")} by name${view.byName.first !== "" ? `, from ${view.byName.first}` : ""}`
                : `${view.partial ? "At least " : ""}${plural(view.total, "model", "models")}${pageCount > 1 ? ` · page ${numberFormat.format(page + 1)} of ${numberFormat.format(pageCount)}` : ""}`}
        </p>
        {view?.note ? (
          <p className="search-note">
            {view.note}
            {view.partial?.further || view.allByName ? " " : null}
            {view.partial?.further ? (
              <button type="button" className="page-button" onClick={() => setFilters((previous) => ({ ...previous, scan: previous.scan + 1 }))}>
                Read further
              </button>
            ) : null}
            {view.allByName ? (
              <a
                href={byNameHref()}
                onClick={(event) => {
                  event.preventDefault();
                  update({ sort: "name" });
                }}
              >
                See every match by name
              </a>
            ) : null}
          </p>
        ) : null}
      </div>
      {view === null ? null : view.rows.length === 0 ? (
        <p className="empty">No model matches these filters.</p>
      ) : (
        <ol className="search-results" start={view.byName !== null ? undefined : page * manifest.pageSize + 1} aria-label="Models">
          {view.rows.map((model) => (
            <li key={model.id} className="search-result">
              <a className="search-result-id" href={modelUrl(data.base, model.id)}>
                {model.id}
              </a>
              <span className="search-result-meta">
                {model.task !== null ? <span>{labelOf(manifest.tasks, model.task)}</span> : null}
                {model.library !== null ? <span>{labelOf(manifest.libraries, model.library)}</span> : null}
                {model.downloads !== null ? <span>{plural(model.downloads, "download", "downloads")}</span> : null}
                {model.likes !== null ? <span>{plural(model.likes, "like", "likes")}</span> : null}
                {filters.sort === "updated" && model.facets.updated !== null ? <span>updated {dayText(model.facets.updated)}</span> : null}
              </span>
            </li>
          ))}
        </ol>
      )}
      {view?.byName ? (
        <NameSteps previous={view.byName.previous} next={view.byName.next} go={goToName} />
      ) : pageCount > 1 ? (
        <nav className="pagination" aria-label="Result pages">
          <StepButton label="Previous" onStep={page > 0 ? () => goToPage(page - 1) : null} />
          <span className="page-number">
            Page {numberFormat.format(page + 1)} of {numberFormat.format(pageCount)}
          </span>
          <StepButton label="Next" onStep={page < pageCount - 1 ? () => goToPage(page + 1) : null} />
        </nav>
      ) : null}
    </div>
  );
}

/** The address of the current search sorted by name. */
function byNameHref(): string {
  const url = new URL(window.location.href);
  url.searchParams.set("sort", "name");
  url.searchParams.delete("page");
  return url.href;
}

/** A day since 1970-01-01 as YYYY-MM-DD. */
function dayText(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** Previous and next pages of a listing by name, which has no page numbers. */
function NameSteps({ previous, next, go }: { previous: string | null; next: string | null; go: (from: string) => void }) {
  if (previous === null && next === null) {
    return null;
  }
  return (
    <nav className="pagination" aria-label="Result pages">
      <StepButton label="Previous" onStep={previous !== null ? () => go(previous) : null} />
      <StepButton label="Next" onStep={next !== null ? () => go(next) : null} />
    </nav>
  );
}

/** A previous or next button; without a step to take it stays focusable but
 * says it is disabled (aria-disabled: a disabled button would drop keyboard focus). */
function StepButton({ label, onStep }: { label: string; onStep: (() => void) | null }) {
  return (
    <button type="button" className="page-button" aria-disabled={onStep === null} onClick={() => onStep?.()}>
      {label}
    </button>
  );
}

function labelOf(facets: readonly Facet[], key: string): string {
  return key === "" ? "" : (facets.find((facet) => facet.key === key)?.label ?? key);
}

/** Select counts without a query, from the manifest: each given the other filter. */
function manifestCounts(
  manifest: Manifest,
  filters: Filters,
  kind: "task" | "library",
): { all: number; each: ReadonlyMap<string, number> } {
  const [own, other] = kind === "task" ? [manifest.tasks, filters.library] : [manifest.libraries, filters.task];
  const otherFacets = kind === "task" ? manifest.libraries : manifest.tasks;
  if (other === "") {
    return { all: manifest.count, each: new Map(own.map((facet) => [facet.key, facet.count])) };
  }
  const pair = (key: string) => manifest.pairs.get(kind === "task" ? `${key} ${other}` : `${other} ${key}`) ?? 0;
  return {
    all: otherFacets.find((facet) => facet.key === other)?.count ?? 0,
    each: new Map(own.map((facet) => [facet.key, pair(facet.key)])),
  };
}

interface FacetSelectProps {
  id: string;
  label: string;
  allLabel: string;
  allCount: number;
  options: readonly Facet[];
  /** Matching models per facet key, given the other filters. */
  counts: ReadonlyMap<string, number>;
  value: string;
  onChange: (key: string) => void;
}

/** A task or library filter: facets with matches (and the chosen one), with counts. */
function FacetSelect({ id, label, allLabel, allCount, options, counts, value, onChange }: FacetSelectProps) {
  return (
    <div className="search-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="search-select" value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">
          {allLabel} ({numberFormat.format(allCount)})
        </option>
        {options.map((facet) => {
          const found = counts.get(facet.key) ?? 0;
          return found > 0 || facet.key === value ? (
            <option key={facet.key} value={facet.key}>
              {facet.label} ({numberFormat.format(found)})
            </option>
          ) : null;
        })}
        {value !== "" && !options.some((facet) => facet.key === value) ? <option value={value}>{value} (0)</option> : null}
      </select>
    </div>
  );
}

function sortedFacets(facets: readonly Facet[]): Facet[] {
  return [...facets].sort((a, b) => a.label.localeCompare(b.label, "en"));
}
