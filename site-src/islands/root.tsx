import type { ReactElement } from "react";
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";

/**
 * Mounts `element` over the prerendered `host`, synchronously, so the island
 * replaces the prerendered layout before the browser paints again (no flash
 * of every example). Shared by every island module (one React for all).
 */
export function mountOver(host: HTMLElement, element: ReactElement | null): boolean {
  if (element === null) {
    return false;
  }
  const root = createRoot(host);
  flushSync(() => root.render(element));
  return true;
}
