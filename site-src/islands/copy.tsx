import { useCallback, useEffect, useRef, useState } from "react";

/** How long the "Copied" / "Copy failed" feedback stays before the button resets. */
export const FEEDBACK_MS = 1500;

export interface CopyButtonProps {
  /** Text written to the clipboard (`data-copy-text`, else the example's code as shown when clicked). */
  text: () => string;
  /** Accessible name of the button (from `data-label`). */
  label: string;
}

type CopyStatus = "idle" | "copied" | "failed";

const BUTTON_TEXT: Readonly<Record<CopyStatus, string>> = {
  idle: "Copy",
  copied: "Copied",
  failed: "Copy failed",
};

const ANNOUNCEMENT: Readonly<Record<CopyStatus, string>> = {
  idle: "",
  copied: "Copied",
  failed: "Copy failed",
};

async function writeToClipboard(text: string): Promise<boolean> {
  // `navigator.clipboard` is undefined outside secure contexts, even though the
  // DOM typings declare it as always present.
  const clipboard: Clipboard | undefined = navigator.clipboard;
  if (clipboard === undefined || typeof clipboard.writeText !== "function") {
    return false;
  }
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function CopyButton({ text, label }: CopyButtonProps) {
  const [status, setStatus] = useState<CopyStatus>("idle");
  const resetTimer = useRef<number | undefined>(undefined);

  const clearResetTimer = useCallback((): void => {
    if (resetTimer.current !== undefined) {
      window.clearTimeout(resetTimer.current);
      resetTimer.current = undefined;
    }
  }, []);

  // Never leave a timer running after the island is unmounted.
  useEffect(() => clearResetTimer, [clearResetTimer]);

  const onClick = useCallback(async (): Promise<void> => {
    clearResetTimer();
    const ok = await writeToClipboard(text());
    clearResetTimer();
    setStatus(ok ? "copied" : "failed");
    resetTimer.current = window.setTimeout(() => {
      resetTimer.current = undefined;
      setStatus("idle");
    }, FEEDBACK_MS);
  }, [text, clearResetTimer]);

  return (
    <>
      <button
        type="button"
        className="copy-button"
        aria-label={label}
        onClick={() => {
          void onClick();
        }}
      >
        {BUTTON_TEXT[status]}
      </button>
      {/* Only for assistive technology: the button text already changes visibly. */}
      <span className="copy-status visually-hidden" aria-live="polite">
        {ANNOUNCEMENT[status]}
      </span>
    </>
  );
}
