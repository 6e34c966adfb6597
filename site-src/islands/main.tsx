import type { ReactElement } from "react";
import { createRoot } from "react-dom/client";
import { CopyButton } from "./copy";

/**
 * Turns one prerendered host element into the React element mounted over it.
 * Returns null when the markup lacks what the island needs; the element is
 * then left exactly as the generator rendered it.
 */
type IslandFactory = (host: HTMLElement) => ReactElement | null;

/**
 * Island registry: `data-island="NAME"` mounts `islands[NAME]`.
 * Adding an island is one entry here. Props are read from the host element's
 * data attributes (`data-foo-bar` is `host.dataset.fooBar`).
 */
const islands: Readonly<Record<string, IslandFactory>> = {
  copy: (host) => {
    const text = host.dataset.copyText;
    if (text === undefined) {
      return null;
    }
    return <CopyButton text={text} label={host.dataset.label ?? "Copy"} />;
  },
};

/** Set on a host element once an island has been mounted over it. */
const MOUNTED_ATTRIBUTE = "data-mounted";

function lookupIsland(name: string): IslandFactory | undefined {
  // Own properties only, so names such as "toString" or "__proto__" never match.
  return Object.prototype.hasOwnProperty.call(islands, name) ? islands[name] : undefined;
}

/** Mounts every not-yet-mounted island under `scope`. Safe to call repeatedly. */
export function mountIslands(scope: ParentNode = document): void {
  for (const host of scope.querySelectorAll<HTMLElement>("[data-island]")) {
    if (host.hasAttribute(MOUNTED_ATTRIBUTE)) {
      continue;
    }
    const factory = lookupIsland(host.dataset.island ?? "");
    if (factory === undefined) {
      continue; // unknown island: silently leave the prerendered markup alone
    }
    const element = factory(host);
    if (element === null) {
      continue;
    }
    host.setAttribute(MOUNTED_ATTRIBUTE, "");
    createRoot(host).render(element);
  }
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountIslands(), { once: true });
} else {
  mountIslands();
}
