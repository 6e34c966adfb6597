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
