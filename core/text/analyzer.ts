// Code-aware token analysis shared by indexing, querying and the learned embeddings, so every side
// splits text the same way. Owns identifier splitting (camelCase, PascalCase, snake_case, digits),
// what an identifier-like run is (the char-code scan the idents stream and the embeddings' tokenizer
// both use), the derived "idents" token stream, and stop words. FTS5's unicode61 tokenizer does the
// rest (lowercasing, diacritics). It sits below index/, search/ and vector/, which all import it.
// Changing anything here changes stored tokens: bump ANALYZER_VERSION in core/index/schema.ts.
// The Unicode-property patterns run their ASCII twin on ASCII text (core/ascii-regex.ts: the same
// matches there, without building the \p{…} classes in every process).
import { asciiTwin } from '../ascii-regex.ts';

/** A run of the characters unicode61 keeps in tokens (letters, digits, private use). */
const WORD = asciiTwin('[\\p{L}\\p{N}\\p{Co}]+', 'gu');
/** What separates the pieces of an identifier, and the parts of one piece (splitIdentifier). */
const NON_ALNUM = asciiTwin('[^\\p{L}\\p{N}]+', 'u');
const IDENT_PART = asciiTwin('\\p{Lu}+(?=\\p{Lu}\\p{Ll})|\\p{Lu}?\\p{Ll}+|\\p{Lu}+|\\p{N}+|[\\p{L}\\p{M}]+', 'gu');

/**
 * Splits one identifier into its lowercase parts:
 * `GetCatalogItems` → get catalog items, `HTTPServer2Go` → http server 2 go, `max_items` → max items.
 */
export function splitIdentifier(word: string): string[] {
  const parts: string[] = [];
  for (const piece of word.split(NON_ALNUM.for(word))) {
    if (!piece) continue;
    for (const m of piece.matchAll(IDENT_PART.for(piece))) parts.push(m[0].toLowerCase());
  }
  return parts;
}

/**
 * Where tokens and identifier parts begin and end in `text` (UTF-16 offsets): the words unicode61
 * keeps and, inside each, the parts splitIdentifier cuts it into (`OverrideDefaultValue` → 0, 8, 15,
 * 20). A query term matches text only from one of these offsets to another (a prefix term: from
 * one), which is what the explorer marks by.
 */
export function tokenBoundaries(text: string): Set<number> {
  const at = new Set<number>();
  for (const w of text.matchAll(WORD.for(text))) {
    const base = w.index;
    at.add(base);
    at.add(base + w[0].length);
    for (const m of w[0].matchAll(IDENT_PART.for(w[0]))) {
      at.add(base + m.index);
      at.add(base + m.index + m[0].length);
    }
  }
  return at;
}

/**
 * The extra token stream indexed beside the text: the parts of every identifier that splits into
 * two or more parts, in order of first occurrence. unicode61 already splits snake_case, so those add
 * nothing here.
 */
export function identsOf(text: string): string {
  // Each distinct identifier once: its parts stay adjacent (phrase queries over parts still match),
  // and the index does not hold a position for every repetition (about 5% of the index on C#).
  const seen = new Set<string>();
  // A hand-rolled scan for the identifier-like runs (as forEachIdentRun). An all-ASCII run with no lower→upper,
  // upper-upper-lower or letter↔digit step cannot split (splitForIdents' test fails), so it is
  // skipped without being sliced or looked up; every other run goes through splitForIdents as before.
  let out = '';
  const n = text.length;
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    let cls = c < 128 ? ASCII_IDENT_CLASS[c] : 0;
    if (cls === 0 && (c < 128 || !isIdentCodePoint(text.codePointAt(i)!))) {
      i++;
      continue;
    }
    // A run starts at i.
    const start = i;
    let ascii = true;
    let splits = false;
    let p1 = 0; // class of the previous char (0 after '_' or at the start)
    let p2 = 0; // class of the one before it
    for (;;) {
      if (c < 128) {
        if (cls === 0) break;
        if (!splits && cls !== UNDERSCORE && p1 !== 0) {
          // lower→upper, upper upper→lower, letter↔digit: the steps splitForIdents looks for.
          if (p1 === LOWER ? cls !== LOWER : p1 === UPPER ? cls === DIGIT || (cls === LOWER && p2 === UPPER) : cls !== DIGIT) splits = true;
        }
        p2 = cls === UNDERSCORE ? 0 : p1;
        p1 = cls === UNDERSCORE ? 0 : cls;
        i++;
      } else {
        if (!isIdentCodePoint(text.codePointAt(i)!)) break;
        ascii = false;
        i += c >= 0xd800 && c <= 0xdbff && i + 1 < n ? 2 : 1;
        // Astral ident chars are always a surrogate pair; a lone surrogate is no ident char.
      }
      if (i >= n) break;
      c = text.charCodeAt(i);
      cls = c < 128 ? ASCII_IDENT_CLASS[c] : 0;
    }
    if (i - start < 3 || (ascii && !splits)) continue;
    const w = text.slice(start, i);
    if (seen.has(w)) continue;
    seen.add(w);
    const split = memoSplit(w);
    if (split) out = out ? `${out} ${split}` : split;
  }
  return out;
}

const LOWER = 1, UPPER = 2, DIGIT = 3, UNDERSCORE = 4;
/**
 * The class of each ASCII char inside an identifier-like run (letters, digits, `_`: `[\\p{L}\\p{N}_]+`), 0 for
 * one that ends a run. Non-zero is all a scan for runs needs (forEachIdentRun); identsOf also reads
 * the classes to see where a run splits.
 */
export const ASCII_IDENT_CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_IDENT_CLASS[c] = c >= 97 && c <= 122 ? LOWER : c >= 65 && c <= 90 ? UPPER : c >= 48 && c <= 57 ? DIGIT : c === 95 ? UNDERSCORE : 0;
}
const IDENT_CHAR = asciiTwin('^[\\p{L}\\p{N}_]$', 'u');
const identCache = new Map<number, boolean>();

/** Whether a (non-ASCII) code point belongs to an identifier-like run: a letter or number, never a lone surrogate (cached). */
export function isIdentCodePoint(cp: number): boolean {
  let yes = identCache.get(cp);
  if (yes === undefined) {
    yes = !(cp >= 0xd800 && cp <= 0xdfff) && IDENT_CHAR.unicodeRegex().test(String.fromCodePoint(cp));
    if (identCache.size < 4096) identCache.set(cp, yes);
  }
  return yes;
}

/**
 * Calls `each` with every identifier-like run of `text` (`[\\p{L}\\p{N}_]+`; unsplit), in order:
 * callers memoize per run. A char-code scan (ASCII by table, other code points through the cached
 * test) is 2–3x faster than the regex over source text.
 */
export function forEachIdentRun(text: string, each: (word: string) => void): void {
  const n = text.length;
  let start = -1;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    let width = 1;
    let inRun: boolean;
    if (c < 128) inRun = ASCII_IDENT_CLASS[c] !== 0;
    else {
      const cp = text.codePointAt(i)!;
      width = cp > 0xffff ? 2 : 1;
      inRun = isIdentCodePoint(cp);
    }
    if (inRun) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      each(text.slice(start, i));
      start = -1;
    }
    i += width;
  }
  if (start >= 0) each(text.slice(start));
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/**
 * A copy of `s` that holds no reference to a longer string. V8 makes a slice of 13 or more
 * characters a view into its parent, so a memo key cut from a chunk text would keep that whole
 * text alive for as long as the memo lives (every text of a 50k-chunk build, during the keyword
 * pass). Identifier runs hold no lone surrogate, so the UTF-8 round trip is exact.
 */
export function ownString(s: string): string {
  return s.length < 13 ? s : fromUtf8.decode(utf8.encode(s));
}

// Code repeats its identifiers endlessly; splitting each distinct one once makes indexing far cheaper.
// Two generations bound the memo: a new split goes to the young one; once it holds MEMO_GENERATION
// words it becomes the old one and the older is dropped; a word found in the old one moves back to
// the young. Words in use stay, and the memo holds at most 2 x MEMO_GENERATION entries (~110 bytes
// each) however many distinct identifiers a corpus has. One map of up to 200,000 entries held 21 MB
// halfway through dotnet-8's cold pass, the largest part of the main thread's heap where the pass
// peaked (bench/results/mem-timeline-dotnet-8-mem11.md).
export const MEMO_GENERATION = 32_768;
let memoYoung = new Map<string, string>();
let memoOld = new Map<string, string>();

/** `w` split for the idents stream ('' when it does not split), through the memo. */
function memoSplit(w: string): string {
  let split = memoYoung.get(w);
  if (split !== undefined) return split;
  split = memoOld.get(w) ?? splitForIdents(w);
  if (memoYoung.size >= MEMO_GENERATION) {
    memoOld = memoYoung;
    memoYoung = new Map();
  }
  // The key owned, not the slice: a slice of a chunk text would keep the whole text alive
  // as long as the memo (14.5 MB of a 50k-chunk pass's texts at its end, measured).
  memoYoung.set(ownString(w), split);
  return split;
}

/** Words the split memo holds now (both generations; tests). */
export function splitMemoSize(): number {
  return memoYoung.size + memoOld.size;
}

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
  return Array.from(text.normalize('NFKC').matchAll(WORD.for(text)), (m) => m[0].toLowerCase());
}

export const STOP_WORDS = new Set(
  (
    'a an and are as at be by can do does for from how i in into is it its me my of on or our ' +
    'show so that the their them then there these this those to was we what when where which who ' +
    'why will with you your find get all any code file files implemented implement used use uses ' +
    'handled handle happens defined define located'
  ).split(' '),
);
