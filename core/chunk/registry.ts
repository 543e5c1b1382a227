// Which outline extractor serves which language: the language table's `extractor` (core/languages/),
// imported on first use and then kept. Each extractor lives in core/chunk/lang/ and knows one
// language; a language without one is cut into line windows.
import type { OutlineExtractor } from './input.ts';
import { languageById } from '../languages/table.ts';

const loaded = new Map<string, OutlineExtractor | null>();

/** The extractor of a language id (undefined when its row has none, or for `text`). */
export async function extractorFor(lang: string): Promise<OutlineExtractor | undefined> {
  let extractor = loaded.get(lang);
  if (extractor === undefined) {
    const load = languageById(lang)?.extractor;
    // A failed import is an install fault, not a parse failure: it propagates, loudly.
    extractor = load ? await load() : null;
    loaded.set(lang, extractor);
  }
  return extractor ?? undefined;
}
