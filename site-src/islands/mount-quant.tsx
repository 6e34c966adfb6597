import { QuantPicker, parseQuantData } from "./quant";
import { mountOver } from "./root";

/** The quantization picker; data-data names the JSON block the page carries. */
export function mount(host: HTMLElement): boolean {
  const source = host.dataset.data ? document.getElementById(host.dataset.data) : null;
  const data = source?.textContent ? parseQuantData(source.textContent) : null;
  if (data === null || data.quants.length < 2) {
    return false;
  }
  return mountOver(host, <QuantPicker data={data} />);
}
