import type { ReactElement } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import { CopyButton } from "./copy";
import { InferencePicker, initialExample, readExamples } from "./inference";
import { ModelSearch } from "./search";

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
    // A code example's button copies the example as shown: its text is the
    // example exactly, so pages do not carry each example twice.
    const text = host.dataset.copyText ?? host.closest("figure")?.querySelector("pre code")?.textContent ?? undefined;
    if (text === undefined) {
      return null;
    }
    return <CopyButton text={text} label={host.dataset.label ?? "Copy"} />;
  },
  inference: (host) => {
    // data-examples names the element holding the prerendered example figures.
    const containerId = host.dataset.examples;
    const container = containerId ? document.getElementById(containerId) : null;
    if (container === null) {
      return null;
    }
    const examples = readExamples(container);
    const initial = initialExample(examples);
    if (initial === null) {
      return null;
    }
    const sections = [...container.querySelectorAll<HTMLElement>("section[data-provider]")];
    return (
      <InferencePicker examples={examples} sections={sections} initial={initial.example} fromHash={initial.fromHash} />
    );
  },
  "model-search": (host) => {
    const base = host.dataset.base;
    if (!base) {
      return null;
    }
    // The prerendered listing the search replaces once it is ready.
    const fallback = [...document.querySelectorAll<HTMLElement>("[data-fallback]")].filter(
      (element) => element.dataset.fallback === "model-search",
    );
    return <ModelSearch base={base} fallback={fallback} />;
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
    const root = createRoot(host);
    // Render synchronously, so the island replaces the prerendered layout
    // before the browser paints again (no flash of every inference example).
    flushSync(() => root.render(element));
  }
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => mountIslands(), { once: true });
} else {
  mountIslands();
}
