import { useRef } from "react";
import type { KeyboardEvent } from "react";

export interface TabItem {
  value: string;
  label: string;
}

export interface TabListProps {
  /** Id of the element that names the tablist. */
  labelledBy: string;
  items: readonly TabItem[];
  selected: string;
  /** Id of a tab, from its value. */
  tabId: (value: string) => string;
  /** Id of the panel every tab controls (the one example on show). */
  controls: string;
  onSelect: (value: string) => void;
}

/**
 * A WAI-ARIA tablist with automatic activation: one tab in the Tab sequence
 * (roving tabIndex); Left/Right (wrapping), Home and End move focus and select.
 */
export function TabList({ labelledBy, items, selected, tabId, controls, onSelect }: TabListProps) {
  const buttons = useRef(new Map<string, HTMLButtonElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const count = items.length;
    // Move from the focused tab (normally the selected one, by roving tabIndex).
    const focused = items.findIndex((item) => buttons.current.get(item.value) === event.target);
    const current = Math.max(0, focused >= 0 ? focused : items.findIndex((item) => item.value === selected));
    let next: number;
    switch (event.key) {
      case "ArrowRight":
        next = (current + 1) % count;
        break;
      case "ArrowLeft":
        next = (current - 1 + count) % count;
        break;
      case "Home":
        next = 0;
        break;
      case "End":
        next = count - 1;
        break;
      default:
        return;
    }
    event.preventDefault();
    const target = items[next];
    if (target === undefined) {
      return;
    }
    // Tabs are keyed by value, so the button survives the re-render that the
    // selection causes and can be focused right away.
    buttons.current.get(target.value)?.focus();
    if (target.value !== selected) {
      onSelect(target.value);
    }
  };

  return (
    <div className="tablist" role="tablist" aria-labelledby={labelledBy} onKeyDown={onKeyDown}>
      {items.map((item) => {
        const isSelected = item.value === selected;
        return (
          <button
            key={item.value}
            ref={(element) => {
              if (element === null) {
                buttons.current.delete(item.value);
              } else {
                buttons.current.set(item.value, element);
              }
            }}
            type="button"
            role="tab"
            id={tabId(item.value)}
            className="tab"
            aria-selected={isSelected}
            aria-controls={controls}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => {
              if (!isSelected) {
                onSelect(item.value);
              }
            }}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
