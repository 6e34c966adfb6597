/**
 * The island loader, the only script a page names (and only a page with
 * islands names it). It finds the `data-island="NAME"` hosts, imports the
 * module of each island the page has (one chunk per island, React shared
 * in a chunk of its own: see build.mjs), then mounts the hosts in page
 * order: "Use this model" first hides the choices not shown before the
 * inference picker arranges its examples. Adding an island is one entry in
 * `islands` and a `mount-NAME.tsx` module.
 */

interface IslandModule {
  /** Mounts the island over `host`; false leaves the prerendered markup alone. */
  mount: (host: HTMLElement) => boolean;
}

const islands: Readonly<Record<string, () => Promise<IslandModule>>> = {
  copy: () => import("./mount-copy"),
  counts: () => import("./mount-counts"),
  use: () => import("./mount-use"),
  quant: () => import("./mount-quant"),
  inference: () => import("./mount-inference"),
  "model-search": () => import("./mount-search"),
  "namespace-counts": () => import("./mount-namespace-counts"),
};

/** Set on a host element once an island has been mounted over it. */
const MOUNTED_ATTRIBUTE = "data-mounted";

function lookupIsland(name: string): (() => Promise<IslandModule>) | undefined {
  // Own properties only, so names such as "toString" or "__proto__" never match.
  return Object.prototype.hasOwnProperty.call(islands, name) ? islands[name] : undefined;
}

/** Mounts every not-yet-mounted island under `scope`. Safe to call repeatedly. */
export async function mountIslands(scope: ParentNode = document): Promise<void> {
  const hosts = [...scope.querySelectorAll<HTMLElement>("[data-island]")].filter(
    (host) => !host.hasAttribute(MOUNTED_ATTRIBUTE) && lookupIsland(host.dataset.island ?? "") !== undefined,
  );
  const names = [...new Set(hosts.map((host) => host.dataset.island ?? ""))];
  const modules = new Map<string, IslandModule>();
  await Promise.all(
    names.map(async (name) => {
      const load = lookupIsland(name);
      if (load !== undefined) {
        modules.set(name, await load());
      }
    }),
  );
  for (const host of hosts) {
    if (host.hasAttribute(MOUNTED_ATTRIBUTE)) {
      continue;
    }
    const module = modules.get(host.dataset.island ?? "");
    if (module?.mount(host)) {
      host.setAttribute(MOUNTED_ATTRIBUTE, "");
    }
  }
}

void mountIslands();
