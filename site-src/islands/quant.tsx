import { useEffect, useId, useLayoutEffect, useState } from "react";
import { readStored, writeStored } from "./storage";
import { requestLocalApp } from "./use-events";

/**
 * The quantization picker of a GGUF model's "Use this model" panel. The page
 * shows the default quantization's commands (highlighted) and carries, in a
 * `<script type="application/json">` block, what changes for every other
 * one: the text of each command figure and the href of each app link, by
 * element id, and the download link. Picking a quantization (here or with a
 * row's "Use" link in the quantization table) rewrites them in place, so
 * the copy buttons copy what is shown; the default brings back the page as
 * rendered. A row's link, which without JavaScript shows that
 * quantization's command under the table, then shows the commands in "Use
 * this model" instead, switching it to a local app if another choice is
 * shown.
 */

/** localStorage key of the last quantization picked, tried on every GGUF page. */
export const QUANT_STORAGE_KEY = "modelpages:quant";

interface Download {
  url: string;
  file: string;
}

export interface QuantChoice {
  label: string;
  size: string | null;
  download: Download | null;
  commands: Record<string, string>;
  links: Record<string, string>;
  partial: boolean;
}

export interface QuantData {
  default: string;
  download: Download | null;
  quants: QuantChoice[];
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    typeof value === "object" && value !== null && Object.values(value).every((item) => typeof item === "string")
  );
}

function isDownload(value: unknown): value is Download | null {
  if (value === null) return true;
  if (typeof value !== "object") return false;
  const record = value as Record<string, unknown>;
  return typeof record.url === "string" && typeof record.file === "string";
}

/** The picker's data from the JSON block, or null when it is not what the generator writes. */
export function parseQuantData(text: string): QuantData | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const data = value as Record<string, unknown>;
  if (typeof data.default !== "string" || !isDownload(data.download) || !Array.isArray(data.quants)) return null;
  const quants: QuantChoice[] = [];
  for (const item of data.quants as unknown[]) {
    if (typeof item !== "object" || item === null) return null;
    const q = item as Record<string, unknown>;
    if (
      typeof q.label !== "string" ||
      !(q.size === null || typeof q.size === "string") ||
      !isDownload(q.download) ||
      !isStringRecord(q.commands) ||
      !isStringRecord(q.links)
    ) {
      return null;
    }
    quants.push({
      label: q.label,
      size: q.size,
      download: q.download,
      commands: q.commands,
      links: q.links,
      partial: q.partial === true,
    });
  }
  return { default: data.default, download: data.download, quants };
}

/** What the page showed before any rewrite, to bring the default back. */
interface Original {
  code: Map<string, Node[]>;
  hrefs: Map<string, string>;
}

function remember(data: QuantData): Original {
  const code = new Map<string, Node[]>();
  const hrefs = new Map<string, string>();
  for (const quant of data.quants) {
    for (const id of Object.keys(quant.commands)) {
      const element = document.getElementById(id)?.querySelector("pre code");
      if (element && !code.has(id)) code.set(id, [...element.childNodes].map((node) => node.cloneNode(true)));
    }
    for (const id of Object.keys(quant.links)) {
      const href = document.getElementById(id)?.getAttribute("href");
      if (href && !hrefs.has(id)) hrefs.set(id, href);
    }
  }
  return { code, hrefs };
}

/** Rewrites every command, link, download link and label on the page for `quant`. */
function apply(data: QuantData, original: Original, quant: QuantChoice): void {
  for (const [id, nodes] of original.code) {
    const element = document.getElementById(id)?.querySelector("pre code");
    if (!element) continue;
    const text = quant.commands[id];
    if (text === undefined) {
      element.replaceChildren(...nodes.map((node) => node.cloneNode(true)));
    } else {
      element.textContent = text;
    }
  }
  for (const [id, href] of original.hrefs) {
    document.getElementById(id)?.setAttribute("href", quant.links[id] ?? href);
  }
  const download = quant.download ?? data.download;
  const link = document.getElementById("use-quant-download");
  if (link !== null && download !== null) {
    link.setAttribute("href", download.url);
    const file = link.parentElement?.querySelector(".quant-file");
    if (file) file.textContent = download.file;
  }
  for (const element of document.querySelectorAll(".quant-current")) {
    element.textContent = quant.label;
  }
  for (const row of document.querySelectorAll<HTMLElement>(".quant-table tr[data-quant]")) {
    row.classList.toggle("quant-selected", row.dataset.quant === quant.label);
  }
}

export interface QuantPickerProps {
  data: QuantData;
}

export function QuantPicker({ data }: QuantPickerProps) {
  const id = `quant${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const [original] = useState<Original>(() => remember(data));
  const [label, setLabel] = useState<string>(() => {
    const stored = readStored(QUANT_STORAGE_KEY);
    return typeof stored === "string" && data.quants.some((q) => q.label === stored) ? stored : data.default;
  });
  const quant = data.quants.find((q) => q.label === label);

  useLayoutEffect(() => {
    if (quant !== undefined) apply(data, original, quant);
  }, [data, original, quant]);

  const choose = (next: string): void => {
    setLabel(next);
    writeStored(QUANT_STORAGE_KEY, next);
  };

  // Each row's "Use" link picks its quantization and shows the commands.
  useEffect(() => {
    const links = [...document.querySelectorAll<HTMLAnchorElement>(".quant-table a.quant-use[data-quant]")].filter(
      (link) => data.quants.some((q) => q.label === link.dataset.quant),
    );
    const onClick = (event: MouseEvent): void => {
      const link = event.currentTarget as HTMLAnchorElement;
      event.preventDefault();
      choose(link.dataset.quant ?? data.default);
      const panel = document.getElementById("use-quant")?.closest<HTMLElement>(".use-panel");
      if (panel == null) return;
      requestLocalApp(panel);
      const shown = panel.querySelector<HTMLElement>(
        "details.local-app:not([hidden]) figure.example, details.local-app:not([hidden]) a.app-link",
      );
      (shown ?? panel).scrollIntoView({ block: "nearest" });
    };
    links.forEach((link) => link.addEventListener("click", onClick));
    return () => links.forEach((link) => link.removeEventListener("click", onClick));
    // `choose` only sets state and storage: the links are wired once.
  }, [data]);

  return (
    <div className="quant-control">
      <label className="picker-label" htmlFor={id}>
        Quantization
      </label>
      <select id={id} className="picker-select" value={label} onChange={(event) => choose(event.currentTarget.value)}>
        {data.quants.map((q) => (
          <option key={q.label} value={q.label}>
            {q.label}
            {q.size ? ` · ${q.size}` : ""}
            {q.label === data.default ? " (default)" : ""}
          </option>
        ))}
      </select>
      {quant?.partial ? <p className="quant-note">Some commands are too long to rewrite and keep the default.</p> : null}
    </div>
  );
}
