// Code-aware token analysis shared by indexing and querying, so both sides split text the same way.
// Owns identifier splitting (camelCase, PascalCase, snake_case, digits), the derived "idents" token
// stream, and stop words. FTS5's unicode61 tokenizer does the rest (lowercasing, diacritics).
// Changing anything here changes stored tokens: bump ANALYZER_VERSION in core/index/schema.ts.

/** A run of the characters unicode61 keeps in tokens (letters, digits, private use). */
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;
/** Identifier-ish runs: letters, digits and underscores (split further below). */
const IDENT = /[\p{L}\p{N}_]+/gu;

/**
 * Splits one identifier into its lowercase parts:
 * `GetCatalogItems` → get catalog items, `HTTPServer2Go` → http server 2 go, `max_items` → max items.
 */
export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(/[^\p{L}\p{N}]+/u)) {
    if (!piece) continue;
    const re = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{M}]+/gu;
    for (const m of piece.matchAll(re)) parts.push(m[0].toLowerCase());
  }
  return parts;
}

/**
 * The extra token stream indexed beside the text: the parts of every identifier that splits into
 * two or more parts, in order of first occurrence. unicode61 already splits snake_case, so those add
 * nothing here.
 */
export function identsOf(text: string): string {
  const out: string[] = [];
  // Each distinct identifier once: its parts stay adjacent (phrase queries over parts still match),
  // and the index does not hold a position for every repetition (about 5% of the index on C#).
  const seen = new Set<string>();
  for (const m of text.matchAll(IDENT)) {
    const w = m[0];
    if (w.length < 3 || seen.has(w)) continue;
    seen.add(w);
    let split = splitMemo.get(w);
    if (split === undefined) {
      split = splitForIdents(w);
      if (splitMemo.size >= MEMO_LIMIT) splitMemo.clear();
      splitMemo.set(w, split);
    }
    if (split) out.push(split);
  }
  return out.join(' ');
}

// Code repeats its identifiers endlessly; splitting each distinct one once makes indexing far cheaper.
const splitMemo = new Map<string, string>();
const MEMO_LIMIT = 200_000;

function splitForIdents(w: string): string {
  if (!/\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u.test(w)) return '';
  const out: string[] = [];
  for (const sub of w.split('_')) {
    if (!sub) continue;
    const parts = splitIdentifier(sub);
    if (parts.length > 1) out.push(parts.join(' '));
  }
  return out.join(' ');
}

/** The tokens FTS5 will see in a piece of user text, lowercased, in order. */
export function wordsOf(text: string): string[] {
  return Array.from(text.normalize('NFKC').matchAll(WORD), (m) => m[0].toLowerCase());
}

export const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in into is it its me my of on or our ' +
    'show so that the their them then there these this those to was we what when where which who ' +
    'why will with you your find get all any code file files implemented implement used use uses ' +
    'handled handle happens defined define located'
  ).split(' '),
);
