/**
 * localStorage access that never throws: storage can be disabled, full, or
 * blocked (private windows, sandboxed frames, strict cookie settings). A
 * preference that cannot be read or written is simply not remembered.
 */

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The parsed JSON value stored under `key`, or undefined when absent or unreadable. */
export function readStored(key: string): unknown {
  try {
    const raw = storage()?.getItem(key);
    return raw === null || raw === undefined ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

/** Stores `value` as JSON under `key`; failures are ignored. */
export function writeStored(key: string, value: unknown): void {
  try {
    storage()?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage blocked: the choice just is not remembered.
  }
}
