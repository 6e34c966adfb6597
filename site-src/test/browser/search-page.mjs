// Opening the index page's search in the browser tests and waiting for what
// it shows: shared by the search's and the facets' tests.

/**
 * Opens the index at `query` (e.g. "?q=llama") with every response under
 * /search/ recorded (path and bytes), once the search shows results.
 */
export async function openSearch(harness, context, query = "") {
  const page = await context.newPage();
  const fetched = [];
  page.on("response", async (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.startsWith("/search/")) {
      return;
    }
    try {
      fetched.push({ path, bytes: (await response.body()).length });
    } catch (error) {
      // A response still arriving as the test closes its page has no body
      // left to read (an unhandled rejection failed the whole file on a
      // loaded machine). One that fails during a test counts as NaN bytes,
      // so a byte budget over it fails rather than undercounts.
      fetched.push({ path, bytes: Number.NaN, error: String(error) });
    }
  });
  await page.goto(`${harness.origin}/${query}`);
  await page.waitForSelector(".model-search[data-mounted] .search-status");
  await page.waitForSelector(".search-results, .model-search .empty");
  return { page, fetched };
}

/** Waits until the search's status reads `text`. */
export async function waitForStatus(page, text) {
  await page.waitForFunction(
    (wanted) => document.querySelector(".model-search .search-status")?.textContent === wanted,
    text,
    { timeout: 5000 },
  );
}

/**
 * The cumulative layout shift of the index at `query` while its search
 * loads: from the first paint until the results are there, `settled(page)`
 * resolves (when given) and 600 ms more have passed.
 */
export async function layoutShift(harness, context, query, settled = async () => {}) {
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__shifts = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (!entry.hadRecentInput) window.__shifts.push(entry.value);
      }
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`${harness.origin}/${query}`);
  await page.waitForSelector(".search-results");
  await settled(page);
  // Figures and late rows settle; then whatever shifted has been recorded.
  await page.waitForTimeout(600);
  const cls = await page.evaluate(() => window.__shifts.reduce((sum, value) => sum + value, 0));
  await page.close();
  return cls;
}
