import { mountOver } from "./root";
import { ModelSearch } from "./search";

/** The index's model search; it replaces the prerendered listing once ready. */
export function mount(host: HTMLElement): boolean {
  const base = host.dataset.base;
  if (!base) {
    return false;
  }
  const fallback = [...document.querySelectorAll<HTMLElement>("[data-fallback]")].filter(
    (element) => element.dataset.fallback === "model-search",
  );
  return mountOver(host, <ModelSearch base={base} fallback={fallback} />);
}
