/**
 * What the islands of "Use this model" ask of each other. The quantization
 * table's "Use" links (the quant island) show their commands in the panel,
 * so they ask the use island to show a local app when another choice is
 * shown; the use island answers synchronously, so the command is on screen
 * when the event returns.
 */

/** Dispatched on the panel (`.use-panel`): show a local app if none is shown. */
export const SHOW_LOCAL_APP = "modelpages:show-local-app";

export function requestLocalApp(panel: HTMLElement): void {
  panel.dispatchEvent(new CustomEvent(SHOW_LOCAL_APP));
}
