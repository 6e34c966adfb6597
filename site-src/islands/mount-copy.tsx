import { CopyButton } from "./copy";
import { mountOver } from "./root";

/** A copy button: `data-copy-text`, else the code of the figure it sits in, read when clicked. */
export function mount(host: HTMLElement): boolean {
  const fixed = host.dataset.copyText;
  const code = host.closest("figure")?.querySelector("pre code");
  if (fixed === undefined && !code) {
    return false;
  }
  // Read when clicked: the quantization picker rewrites commands in place.
  const text = (): string => fixed ?? code?.textContent ?? "";
  return mountOver(host, <CopyButton text={text} label={host.dataset.label ?? "Copy"} />);
}
