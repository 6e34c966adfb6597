import { mountOver } from "./root";
import { UsePicker, initialChoice, readChoices } from "./use";

/** "Use this model" tabs over the panel's <details>, one per choice. */
export function mount(host: HTMLElement): boolean {
  const panel = host.closest<HTMLElement>(".use-panel");
  if (panel === null) {
    return false;
  }
  const choices = readChoices(panel);
  const initial = initialChoice(choices);
  if (initial === null || choices.length < 2) {
    return false;
  }
  return mountOver(
    host,
    <UsePicker panel={panel} choices={choices} initial={initial.choice} fromHash={initial.fromHash} />,
  );
}
