import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { fragmentId, useFragmentSelection } from "./fragment";
import { readStored, writeStored } from "./storage";
import { TabList } from "./tabs";
import type { TabItem } from "./tabs";

/** localStorage key of the reader's last choice, shared by every model page. */
export const STORAGE_KEY = "modelpages:inference";

/** What the reader picks: one value per control. */
export interface Choice {
  language: string;
  client: string;
  provider: string;
  streaming: boolean;
}

export type Dimension = keyof Choice;

/** One prerendered example figure and the choice it stands for. */
export interface Example extends Choice {
  id: string;
  figure: HTMLElement;
}

const LANGUAGE_LABELS: Readonly<Record<string, string>> = {
  python: "Python",
  js: "JavaScript",
  sh: "cURL",
};

function languageLabel(language: string): string {
  return Object.prototype.hasOwnProperty.call(LANGUAGE_LABELS, language)
    ? (LANGUAGE_LABELS[language] ?? language)
    : language;
}

/** Reads the example figures the generator rendered into `container`, in page order. */
export function readExamples(container: ParentNode): Example[] {
  const examples: Example[] = [];
  for (const figure of container.querySelectorAll<HTMLElement>("figure[data-provider][data-language][data-client]")) {
    const { provider, language, client, streaming } = figure.dataset;
    if (figure.id === "" || !provider || !language || !client) {
      continue;
    }
    examples.push({ id: figure.id, figure, provider, language, client, streaming: streaming === "true" });
  }
  return examples;
}

/** Priority of the dimensions when no example matches every wanted value. */
const FALLBACK_ORDER: readonly Dimension[] = ["language", "client", "provider", "streaming"];

/**
 * The example that best matches `wanted`: the `pinned` dimension (the control the
 * reader just used) counts most, then language, client, provider and streaming,
 * in that order. Ties go to the example that comes first on the page.
 */
export function resolveExample(
  examples: readonly Example[],
  wanted: Partial<Choice>,
  pinned?: Dimension,
): Example | undefined {
  const order = pinned === undefined ? FALLBACK_ORDER : [pinned, ...FALLBACK_ORDER.filter((d) => d !== pinned)];
  let best: Example | undefined;
  let bestScore = -1;
  for (const example of examples) {
    let score = 0;
    order.forEach((dimension, rank) => {
      if (wanted[dimension] !== undefined && example[dimension] === wanted[dimension]) {
        score += 1 << (order.length - 1 - rank);
      }
    });
    if (score > bestScore) {
      best = example;
      bestScore = score;
    }
  }
  return best;
}

function choiceOf(example: Example): Choice {
  return {
    language: example.language,
    client: example.client,
    provider: example.provider,
    streaming: example.streaming,
  };
}

/** The stored choice, keeping only well-typed fields. */
export function readSavedChoice(): Partial<Choice> {
  const stored = readStored(STORAGE_KEY);
  if (typeof stored !== "object" || stored === null) {
    return {};
  }
  const record = stored as Record<string, unknown>;
  const choice: Partial<Choice> = {};
  if (typeof record.language === "string") choice.language = record.language;
  if (typeof record.client === "string") choice.client = record.client;
  if (typeof record.provider === "string") choice.provider = record.provider;
  if (typeof record.streaming === "boolean") choice.streaming = record.streaming;
  return choice;
}

/** The example whose id is the URL fragment, if any. */
function exampleFromHash(examples: readonly Example[]): Example | undefined {
  const id = fragmentId();
  return id === undefined ? undefined : examples.find((example) => example.id === id);
}

/** The example to show when the page loads: the URL fragment, else the saved choice. */
export function initialExample(examples: readonly Example[]): { example: Example; fromHash: boolean } | null {
  const linked = exampleFromHash(examples);
  if (linked !== undefined) {
    return { example: linked, fromHash: true };
  }
  const example = resolveExample(examples, readSavedChoice());
  return example === undefined ? null : { example, fromHash: false };
}

/** Values of `key` in page order, without repeats. */
function distinct(examples: readonly Example[], key: "language" | "client" | "provider"): string[] {
  return [...new Set(examples.map((example) => example[key]))];
}

/**
 * Shows `current` and hides every other example. Provider headings are
 * left to screen readers only (the select names the provider), so the
 * headings keep their order.
 */
function showOnly(examples: readonly Example[], current: Example, sections: readonly HTMLElement[]): void {
  for (const example of examples) {
    example.figure.hidden = example !== current;
  }
  for (const section of sections) {
    section.hidden = !section.contains(current.figure);
    for (const heading of section.querySelectorAll<HTMLElement>(":scope > h3")) {
      heading.classList.add("visually-hidden");
    }
  }
}

/** Undoes `showOnly` and the tabpanel marking: the markup as the generator wrote it. */
function showAll(examples: readonly Example[], sections: readonly HTMLElement[], container: HTMLElement): void {
  for (const example of examples) {
    example.figure.hidden = false;
  }
  container.removeAttribute("role");
  container.removeAttribute("aria-labelledby");
  for (const section of sections) {
    section.hidden = false;
    for (const heading of section.querySelectorAll<HTMLElement>(":scope > h3")) {
      heading.classList.remove("visually-hidden");
    }
  }
}

export interface InferencePickerProps {
  examples: readonly Example[];
  /** The element holding the figures (with an id): the tabs' panel. */
  container: HTMLElement;
  /** Provider sections around the figures (hidden when they hold no shown example). */
  sections: readonly HTMLElement[];
  initial: Example;
  /** True when `initial` came from the URL fragment. */
  fromHash: boolean;
}

/**
 * Controls over the prerendered inference examples: language and client tabs,
 * a provider select and, for chat models, a streaming switch. Exactly one
 * example figure stays visible; the element holding the figures is the
 * tabs' tabpanel.
 */
export function InferencePicker({ examples, container, sections, initial, fromHash }: InferencePickerProps) {
  const [current, setCurrent] = useState<Example>(initial);
  const root = useRef<HTMLDivElement>(null);
  const prefix = `inference${useId().replace(/[^A-Za-z0-9_-]/g, "")}`;
  const languageTabId = (value: string): string => `${prefix}-language-${value.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const clientTabId = (value: string): string => `${prefix}-client-${value.replace(/[^A-Za-z0-9_-]/g, "_")}`;

  const languages = useMemo<TabItem[]>(
    () => distinct(examples, "language").map((value) => ({ value, label: languageLabel(value) })),
    [examples],
  );
  const clients = useMemo<TabItem[]>(
    () =>
      distinct(
        examples.filter((example) => example.language === current.language),
        "client",
      ).map((value) => ({ value, label: value })),
    [examples, current.language],
  );
  const providers = useMemo(() => distinct(examples, "provider"), [examples]);
  const hasStreaming = useMemo(() => examples.some((example) => example.streaming), [examples]);
  const streamingCounterpart = examples.find(
    (example) =>
      example.language === current.language &&
      example.client === current.client &&
      example.provider === current.provider &&
      example.streaming !== current.streaming,
  );

  const currentClientTab = clientTabId(current.client);
  useLayoutEffect(() => {
    showOnly(examples, current, sections);
    container.setAttribute("role", "tabpanel");
    container.setAttribute("aria-labelledby", currentClientTab);
  }, [examples, container, sections, current, currentClientTab]);

  // Unmounting gives the page back its no-JavaScript layout.
  useLayoutEffect(() => () => showAll(examples, sections, container), [examples, sections, container]);

  // A linked example was the page's target before the others were hidden:
  // bring the controls and that example into view together.
  useLayoutEffect(() => {
    if (fromHash) {
      root.current?.scrollIntoView({ block: "start" });
    }
  }, [fromHash]);

  // In-page links to an example (#ex-...) select it.
  useFragmentSelection(useCallback(() => exampleFromHash(examples), [examples]), setCurrent);

  const choose = useCallback(
    <K extends Dimension>(dimension: K, value: Choice[K]): void => {
      const wanted: Choice = { ...choiceOf(current), [dimension]: value };
      const next = resolveExample(examples, wanted, dimension);
      if (next === undefined) {
        return;
      }
      setCurrent(next);
      writeStored(STORAGE_KEY, choiceOf(next));
      const url = new URL(window.location.href);
      url.hash = next.id;
      try {
        window.history.replaceState(window.history.state, "", url.href);
      } catch {
        // History can be unavailable in sandboxed frames; the choice still applies.
      }
    },
    [examples, current],
  );

  return (
    <div className="inference-picker" ref={root}>
      <div className="picker-group">
        <span className="picker-label" id={`${prefix}-language`}>
          Language
        </span>
        <TabList
          labelledBy={`${prefix}-language`}
          items={languages}
          selected={current.language}
          tabId={languageTabId}
          controls={container.id}
          onSelect={(value) => choose("language", value)}
        />
      </div>
      <div className="picker-group">
        <span className="picker-label" id={`${prefix}-client`}>
          Client
        </span>
        <TabList
          labelledBy={`${prefix}-client`}
          items={clients}
          selected={current.client}
          tabId={clientTabId}
          controls={container.id}
          onSelect={(value) => choose("client", value)}
        />
      </div>
      <div className="picker-row">
        <div className="picker-group">
          <label className="picker-label" htmlFor={`${prefix}-provider`}>
            Provider
          </label>
          <select
            id={`${prefix}-provider`}
            className="picker-select"
            value={current.provider}
            onChange={(event) => choose("provider", event.currentTarget.value)}
          >
            {providers.map((provider) => (
              <option key={provider} value={provider}>
                {provider}
              </option>
            ))}
          </select>
        </div>
        {hasStreaming ? (
          <button
            type="button"
            className="switch"
            aria-pressed={current.streaming}
            disabled={streamingCounterpart === undefined}
            onClick={() => choose("streaming", !current.streaming)}
          >
            <span className="switch-track" aria-hidden="true">
              <span className="switch-thumb" />
            </span>
            Stream the response
          </button>
        ) : null}
      </div>
    </div>
  );
}
