import { StatsReader, compareNames } from "./stats";
import type { Counts } from "./stats";

const numberFormat = new Intl.NumberFormat("en-US");

/**
 * A namespace's page by name: the downloads and likes of its models, read
 * from the namespace's stats file (`data-stats`) into two more columns of
 * the table after the host, and a button that sorts the table by
 * downloads or back by name. Without JavaScript the host says where the
 * figures are; a file that cannot be read leaves that.
 */
export function mount(host: HTMLElement): boolean {
  const { stats, namespace } = host.dataset;
  const table = host.nextElementSibling?.querySelector("table.model-table");
  const body = table?.querySelector("tbody");
  if (!stats || !namespace || !table || !body) {
    return false;
  }
  const rows = [...body.querySelectorAll<HTMLTableRowElement>("tr")];
  const nameOf = (row: HTMLTableRowElement): string => (row.querySelector("a")?.textContent ?? "").slice(namespace.length + 1);
  new StatsReader().namespaceCounts(stats, namespace, rows.map(nameOf)).then(
    (counts) => show(host, table, body, rows, (row) => counts.get(nameOf(row)) ?? null),
    () => undefined,
  );
  return true;
}

function show(
  host: HTMLElement,
  table: Element,
  body: HTMLTableSectionElement,
  rows: HTMLTableRowElement[],
  countsOf: (row: HTMLTableRowElement) => Counts | null,
): void {
  const header = table.querySelector("thead tr");
  for (const label of ["Downloads", "Likes"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.className = "num";
    th.textContent = label;
    header?.append(th);
  }
  for (const row of rows) {
    const counts = countsOf(row);
    for (const figure of [counts?.downloads ?? null, counts?.likes ?? null]) {
      const td = document.createElement("td");
      td.className = "num";
      td.textContent = figure === null ? "" : numberFormat.format(figure);
      row.append(td);
    }
  }
  const byName = [...rows];
  const byDownloads = [...rows].sort(
    (a, b) => (countsOf(b)?.downloads ?? -1) - (countsOf(a)?.downloads ?? -1) || compareNames(idOf(a), idOf(b)),
  );
  const button = document.createElement("button");
  button.type = "button";
  button.className = "page-button";
  let sorted = false;
  const label = (): string => (sorted ? "Sort by name" : "Sort by downloads");
  button.textContent = label();
  button.addEventListener("click", () => {
    sorted = !sorted;
    body.append(...(sorted ? byDownloads : byName));
    button.textContent = label();
  });
  host.replaceChildren(button);
}

function idOf(row: HTMLTableRowElement): string {
  return row.querySelector("a")?.textContent ?? "";
}
