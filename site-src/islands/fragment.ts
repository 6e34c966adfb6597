import { useEffect } from "react";

/**
 * The URL fragment as an element id, shared by the islands that deep links
 * select something in (`#ex-...` examples, `#local-<app>` choices).
 */

/** The fragment's id, decoded (`%E6...` or not), or undefined without one. */
export function fragmentId(): string | undefined {
  const hash = window.location.hash.slice(1);
  if (hash === "") {
    return undefined;
  }
  try {
    return decodeURIComponent(hash);
  } catch {
    return hash;
  }
}

/** On every change of the fragment, `select` what `find` finds for it (if anything). */
export function useFragmentSelection<T>(find: () => T | undefined, select: (found: T) => void): void {
  useEffect(() => {
    const onHashChange = (): void => {
      const found = find();
      if (found !== undefined) {
        select(found);
      }
    };
    window.addEventListener("hashchange", onHashChange);
    return () => window.removeEventListener("hashchange", onHashChange);
  }, [find, select]);
}
