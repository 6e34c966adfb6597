import { StatsReader, countsText } from "./stats";

/**
 * A model's downloads and likes, read from its stats file (`data-stats`)
 * into the host, which without JavaScript says where they are. A file that
 * cannot be read leaves that text as it is.
 */
export function mount(host: HTMLElement): boolean {
  const { stats, id } = host.dataset;
  if (!stats || !id) {
    return false;
  }
  host.setAttribute("aria-busy", "true");
  new StatsReader().modelCounts(stats, id).then(
    (counts) => {
      host.removeAttribute("aria-busy");
      if (counts !== null) {
        host.textContent = countsText(counts);
        host.dataset.counts = "loaded";
      }
    },
    () => host.removeAttribute("aria-busy"),
  );
  return true;
}
