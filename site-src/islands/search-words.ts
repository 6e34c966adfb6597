/**
 * The words search knows a model by, by the generator's rules
 * (generator/site/src/pages/listings/search/words.rs; both are tested on
 * test/fixtures/search-words.json): a word is a run of ASCII letters and
 * digits, lowercased and cut to MAX_WORD characters; everything else only
 * separates words. A model matches a query when each query word begins one
 * of the model's words.
 */

/** Longest word kept; longer ones are cut. */
export const MAX_WORD = 32;

/** The words of `text`, in order, repeats included. */
export function words(text: string): string[] {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word.slice(0, MAX_WORD).toLowerCase());
}

/** Each word of `text` once, in order of appearance. */
export function distinctWords(text: string): string[] {
  return [...new Set(words(text))];
}

/**
 * The words of a query, each a prefix a model's word must start with. A
 * word that begins another is dropped: whatever matches "llama" matches "ll".
 */
export function queryWords(query: string): string[] {
  const all = words(query);
  return all.filter(
    (word, i) => !all.some((other, j) => other.startsWith(word) && (other.length > word.length || j < i)),
  );
}

/** Whether every query word begins one of `modelWords`. */
export function matchesAll(modelWords: readonly string[], terms: readonly string[]): boolean {
  return terms.every((term) => modelWords.some((word) => word.startsWith(term)));
}
