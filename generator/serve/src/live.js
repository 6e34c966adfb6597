// Live reload for `modelpages serve`: the server adds this script to every
// HTML page it serves (never to the built site). It listens to the server's
// build outcomes; after a good rebuild it reloads the page, after a failed
// one it shows the errors over the page until they are fixed.
(() => {
  "use strict";
  const OVERLAY_ID = "modelpages-build-errors";
  // The build this page was loaded from: "server:build".
  let shown = null;

  const removeOverlay = () => document.getElementById(OVERLAY_ID)?.remove();

  const showOverlay = (status) => {
    removeOverlay();
    const overlay = document.createElement("div");
    overlay.id = OVERLAY_ID;
    overlay.setAttribute("role", "alert");
    // CSSOM assignments, not a style attribute: the page's CSP forbids inline styles.
    Object.assign(overlay.style, {
      position: "fixed",
      top: "1rem",
      left: "1rem",
      right: "1rem",
      maxHeight: "calc(100vh - 2rem)",
      zIndex: "2147483647",
      overflow: "auto",
      padding: "1rem 1.25rem",
      background: "#2b0f12",
      color: "#ffe9ea",
      border: "2px solid #ff6b73",
      borderRadius: "8px",
      font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      boxShadow: "0 8px 32px rgba(0, 0, 0, 0.5)",
    });
    const title = document.createElement("p");
    title.style.fontWeight = "bold";
    title.style.margin = "0 0 0.75rem";
    // Error text comes from records: always text, never markup.
    title.textContent = `modelpages: ${status.summary}`;
    const details = document.createElement("pre");
    details.style.whiteSpace = "pre-wrap";
    details.style.margin = "0";
    details.textContent = status.errors.join("\n\n");
    const hint = document.createElement("p");
    hint.style.margin = "0.75rem 0 0";
    hint.textContent = "Fix the file and save: this page reloads once the build succeeds.";
    const close = document.createElement("button");
    close.type = "button";
    close.textContent = "Hide";
    close.style.marginTop = "0.75rem";
    close.addEventListener("click", removeOverlay);
    overlay.append(title, details, hint, close);
    document.body.append(overlay);
  };

  const events = new EventSource("/__modelpages/events");
  events.addEventListener("status", (event) => {
    const status = JSON.parse(event.data);
    const key = `${status.server}:${status.build}`;
    const changed = shown !== null && key !== shown;
    shown = key;
    if (!status.ok) {
      showOverlay(status);
    } else if (changed) {
      window.location.reload();
    } else {
      removeOverlay();
    }
  });
})();
