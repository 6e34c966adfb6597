/**
 * The stats files: every model's downloads and likes, kept apart from the
 * pages so that a day of moved figures rewrites a thousand small files
 * rather than every page (see generator/site/src/pages/listings/stats.rs).
 *
 * `stats/<n>.json` holds the models of the namespaces filed in it:
 * `{"version": 1, "namespaces": {"org": {"name": [downloads, likes], ...}}}`;
 * a namespace with many models has `{"pages": [null, "name-k", ...]}`
 * instead, and its models are in `stats/<n>/<ns>/first.json` and
 * `stats/<n>/<ns>/from/<name>.json`, each `{"version": 1, "models": {...}}`,
 * a page holding the names from its first up to the next page's first.
 */

export interface Counts {
  downloads: number | null;
  likes: number | null;
}

export class StatsError extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function figure(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** A model's `[downloads, likes]`, checked. */
export function parseCounts(value: unknown): Counts | null {
  return Array.isArray(value) ? { downloads: figure(value[0]), likes: figure(value[1]) } : null;
}

/** Names in the order the files are cut in: case folded, then as written. */
export function compareNames(a: string, b: string): number {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x !== y) {
    return x < y ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The page (its first name, null for the first page) that holds `name`. */
export function pageOf(pages: readonly (string | null)[], name: string): string | null {
  let found: string | null = null;
  for (const first of pages) {
    if (first === null || compareNames(first, name) <= 0) {
      found = first;
    } else {
      break;
    }
  }
  return found;
}

async function fetchJson(url: string): Promise<unknown> {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) {
    throw new StatsError(`${url}: HTTP ${response.status}`);
  }
  const json = (await response.json()) as unknown;
  if (!isObject(json) || json.version !== 1) {
    throw new StatsError(`${url}: not a version 1 stats file`);
  }
  return json;
}

/** Reads stats files for one visit, each fetched once. */
export class StatsReader {
  private readonly files = new Map<string, Promise<unknown>>();

  private file(url: string): Promise<unknown> {
    let pending = this.files.get(url);
    if (pending === undefined) {
      pending = fetchJson(url);
      pending.catch(() => this.files.delete(url));
      this.files.set(url, pending);
    }
    return pending;
  }

  /**
   * The figures of the models `names` of namespace `namespace`, whose stats
   * file is `url`: by name, for those the files hold.
   */
  async namespaceCounts(url: string, namespace: string, names: readonly string[]): Promise<Map<string, Counts>> {
    const main = (await this.file(url)) as Record<string, unknown>;
    const all = isObject(main.namespaces) ? main.namespaces : {};
    const own = Object.prototype.hasOwnProperty.call(all, namespace) ? all[namespace] : undefined;
    const found = new Map<string, Counts>();
    if (!isObject(own)) {
      return found;
    }
    const pick = (models: Record<string, unknown>, name: string): void => {
      const counts = Object.prototype.hasOwnProperty.call(models, name) ? parseCounts(models[name]) : null;
      if (counts !== null) {
        found.set(name, counts);
      }
    };
    if (!Array.isArray(own.pages)) {
      names.forEach((name) => pick(own, name));
      return found;
    }
    const pages = (own.pages as unknown[]).filter((p): p is string | null => p === null || typeof p === "string");
    const folder = `${url.replace(/\.json$/, "")}/${encodeURIComponent(namespace)}/`;
    const byPage = new Map<string | null, string[]>();
    for (const name of names) {
      const page = pageOf(pages, name);
      byPage.set(page, [...(byPage.get(page) ?? []), name]);
    }
    await Promise.all(
      [...byPage].map(async ([page, wanted]) => {
        const path = page === null ? "first.json" : `from/${encodeURIComponent(page)}.json`;
        const chunk = (await this.file(folder + path)) as Record<string, unknown>;
        if (isObject(chunk.models)) {
          const models = chunk.models;
          wanted.forEach((name) => pick(models, name));
        }
      }),
    );
    return found;
  }

  /** The figures of model `id`, whose stats file is `url`; null if the file does not hold it. */
  async modelCounts(url: string, id: string): Promise<Counts | null> {
    const slash = id.indexOf("/");
    const [namespace, name] = slash < 0 ? ["", id] : [id.slice(0, slash), id.slice(slash + 1)];
    return (await this.namespaceCounts(url, namespace, [name])).get(name) ?? null;
  }
}

const numberFormat = new Intl.NumberFormat("en-US");

/** "8,712 downloads last month · 12 likes", as the facts column words it. */
export function countsText(counts: Counts): string {
  const parts: string[] = [];
  if (counts.downloads !== null) {
    parts.push(`${numberFormat.format(counts.downloads)} ${counts.downloads === 1 ? "download" : "downloads"} last month`);
  }
  if (counts.likes !== null) {
    parts.push(`${numberFormat.format(counts.likes)} ${counts.likes === 1 ? "like" : "likes"}`);
  }
  return parts.length > 0 ? parts.join(" · ") : "No downloads or likes recorded";
}
