import { InferencePicker, initialExample, readExamples } from "./inference";
import { mountOver } from "./root";

/** The hosted-inference controls; data-examples names the element holding the prerendered figures. */
export function mount(host: HTMLElement): boolean {
  const containerId = host.dataset.examples;
  const container = containerId ? document.getElementById(containerId) : null;
  if (container === null) {
    return false;
  }
  const examples = readExamples(container);
  const initial = initialExample(examples);
  if (initial === null) {
    return false;
  }
  const sections = [...container.querySelectorAll<HTMLElement>("section[data-provider]")];
  return mountOver(
    host,
    <InferencePicker examples={examples} container={container} sections={sections} initial={initial.example} fromHash={initial.fromHash} />,
  );
}
