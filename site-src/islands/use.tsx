import { useCallback, useEffect, useId, useLayoutEffect, useState } from "react";
import { flushSync } from "react-dom";
import { fragmentId, useFragmentSelection } from "./fragment";
import { SHOW_LOCAL_APP } from "./use-events";
import { readStored, writeStored } from "./storage";
import { TabList } from "./tabs";
import type { TabItem } from "./tabs";

/**
 * "Use this model": the page renders one `<details class="use-choice">` per
 * way of using the model (its library, hosted inference, each local app),
 * so without JavaScript every example is one click away. This island turns
 * their summaries into one row of tabs and shows one choice at a time. The
 * page opens on the choice the generator opened (a GGUF repository on its
 * first local app); the visitor's choice is remembered across model pages
 * (like the inference language), except hosted inference on a model no
 * provider serves; a link into a choice (`#ex-...`, `#local-ollama`)
 * selects it.
 */

/** localStorage key of the reader's last choice, shared by every model page. */
export const USE_STORAGE_KEY = "modelpages:use";

export interface UseChoice {
  /** `library`, `inference` or `local-<app>` (the details' data-choice). */
  value: string;
  label: string;
  details: HTMLDetailsElement;
  /** The examples inside the details: the tab panel. */
  body: HTMLElement;
  /** False for hosted inference on a model no provider serves. */
  served: boolean;
}

/** The choices the page rendered into `panel`, in page order. */
export function readChoices(panel: ParentNode): UseChoice[] {
  const choices: UseChoice[] = [];
  for (const details of panel.querySelectorAll<HTMLDetailsElement>("details.use-choice[data-choice]")) {
    const value = details.dataset.choice ?? "";
    const label = details.querySelector(".use-choice-name")?.textContent?.trim() ?? "";
    const body = details.querySelector<HTMLElement>(":scope > .use-body");
    if (value !== "" && label !== "" && details.id !== "" && body !== null) {
      choices.push({ value, label, details, body, served: details.dataset.served !== "false" });
    }
  }
  return choices;
}

/** The choice holding the element the URL fragment names, if any. */
export function choiceFromHash(choices: readonly UseChoice[]): UseChoice | undefined {
  const id = fragmentId();
  const target = id === undefined ? null : document.getElementById(id);
  return target === null ? undefined : choices.find((choice) => choice.details.contains(target));
}

/**
 * The choice to show first: the URL fragment's, else the remembered one
 * (unless it is hosted inference that no provider serves), else the one
 * the page opened on, else the page's first.
 */
export function initialChoice(choices: readonly UseChoice[]): { choice: UseChoice; fromHash: boolean } | null {
  const linked = choiceFromHash(choices);
  if (linked !== undefined) {
    return { choice: linked, fromHash: true };
  }
  const stored = readStored(USE_STORAGE_KEY);
  const remembered =
    typeof stored === "string" ? choices.find((choice) => choice.value === stored && choice.served) : undefined;
  const first = remembered ?? choices.find((choice) => choice.details.open) ?? choices[0];
  return first === undefined ? null : { choice: first, fromHash: false };
}

/**
 * Marks the panel as tabbed and shows `current` only, its examples as the
 * tab panel (`panelId`); with none, everything as the page rendered it.
 */
function showChoice(
  panel: HTMLElement,
  choices: readonly UseChoice[],
  current: UseChoice | null,
  tabId: string,
  panelId: string,
): void {
  panel.classList.toggle("is-tabbed", current !== null);
  for (const choice of choices) {
    const shown = current === null || choice === current;
    choice.details.hidden = !shown;
    if (current !== null) {
      choice.details.open = shown;
    }
    if (current !== null && shown) {
      choice.body.id = panelId;
      choice.body.setAttribute("role", "tabpanel");
      choice.body.setAttribute("aria-labelledby", tabId);
    } else {
      choice.body.removeAttribute("id");
      choice.body.removeAttribute("role");
      choice.body.removeAttribute("aria-labelledby");
    }
  }
  // The quantization picker applies to the local apps only.
  const quant = panel.querySelector<HTMLElement>(".quant-box");
  if (quant !== null) {
    quant.hidden = current !== null && !current.value.startsWith("local-");
  }
}

export interface UsePickerProps {
  panel: HTMLElement;
  choices: readonly UseChoice[];
  initial: UseChoice;
  fromHash: boolean;
}

export function UsePicker({ panel, choices, initial, fromHash }: UsePickerProps) {
  const [current, setCurrent] = useState<UseChoice>(initial);
  const prefix = `use${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const tabId = (value: string): string => `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const items: TabItem[] = choices.map((choice) => ({ value: choice.value, label: choice.label }));
  const currentTab = tabId(current.value);
  const panelId = `${prefix}-panel`;

  useLayoutEffect(() => {
    showChoice(panel, choices, current, currentTab, panelId);
  }, [panel, choices, current, currentTab, panelId]);

  // Unmounting gives the page back its no-JavaScript layout.
  useLayoutEffect(() => () => showChoice(panel, choices, null, "", ""), [panel, choices]);

  // The quantization table's "Use" links show their commands here: a
  // local app, the first one unless one is shown already.
  useEffect(() => {
    const firstLocal = choices.find((choice) => choice.value.startsWith("local-"));
    const onRequest = (): void => {
      if (firstLocal !== undefined) {
        flushSync(() => setCurrent((shown) => (shown.value.startsWith("local-") ? shown : firstLocal)));
      }
    };
    panel.addEventListener(SHOW_LOCAL_APP, onRequest);
    return () => panel.removeEventListener(SHOW_LOCAL_APP, onRequest);
  }, [panel, choices]);

  // A link into a choice was the page's target before the others were hidden.
  useLayoutEffect(() => {
    if (fromHash) {
      const id = fragmentId();
      ((id === undefined ? null : document.getElementById(id)) ?? panel).scrollIntoView({ block: "start" });
    }
  }, [fromHash, panel]);

  // In-page links into a choice (#local-ollama, #ex-...) select it.
  useFragmentSelection(useCallback(() => choiceFromHash(choices), [choices]), setCurrent);

  const choose = useCallback(
    (value: string): void => {
      const next = choices.find((choice) => choice.value === value);
      if (next === undefined) {
        return;
      }
      setCurrent(next);
      writeStored(USE_STORAGE_KEY, next.value);
    },
    [choices],
  );

  return (
    <div className="use-picker">
      <span className="visually-hidden" id={`${prefix}-label`}>
        How to use this model
      </span>
      <TabList
        labelledBy={`${prefix}-label`}
        items={items}
        selected={current.value}
        tabId={tabId}
        controls={panelId}
        onSelect={choose}
      />
    </div>
  );
}
