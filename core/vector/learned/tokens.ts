// The token stream the learned embeddings see: every identifier-like run of a text split by the
// analyzer's splitter (camelCase, PascalCase, snake_case, digits: the parts the FTS index stores in
// its idents column), lowercased, without stop words, one-letter parts, numbers and overlong parts.
// Owns only that filter, the scan for identifier-like runs and a memo of splits; the splitter
// and stop words belong to the analyzer, so both channels cut text the same way.
import { ownString, splitIdentifier, STOP_WORDS } from '../../search/analyzer.ts';

const DIGITS = /^\p{N}+$/u;
/** Longer parts are hashes, base64 or generated names: noise for co-occurrence. */
const MAX_PART = 32;

const MEMO_LIMIT = 200_000;

/** Splits texts into model tokens; keeps a memo of each distinct identifier's parts (code repeats them endlessly). */
export class ModelTokenizer {
  private readonly memo = new Map<string, readonly string[]>();

  /** The parts of one identifier-like run that the model keeps, without the memo (for a caller that keeps its own). */
  split(word: string): string[] {
    return splitIdentifier(word).filter(keepPart);
  }

  /** The parts of one identifier-like run that the model keeps. */
  parts(word: string): readonly string[] {
    let parts = this.memo.get(word);
    if (parts === undefined) {
      parts = this.split(word).map(ownString);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(ownString(word), parts);
    }
    return parts;
  }

  /** Calls `each` with every kept token of `text`, in order. */
  forEach(text: string, each: (token: string) => void): void {
    forEachWord(text, (w) => {
      for (const p of this.parts(w)) each(p);
    });
  }

  tokens(text: string): string[] {
    const out: string[] = [];
    this.forEach(text, (t) => out.push(t));
    return out;
  }
}

function keepPart(p: string): boolean {
  return p.length >= 2 && p.length <= MAX_PART && !STOP_WORDS.has(p) && !DIGITS.test(p);
}

/**
 * Calls `each` with every identifier-like run of `text` (letters, digits and underscores, the
 * analyzer's IDENT; unsplit), in order: callers memoize per run. A char-code scan (ASCII by table, other code points through a
 * cached test) is 2–3x faster than the regex over source text.
 */
export function forEachWord(text: string, each: (word: string) => void): void {
  const n = text.length;
  let start = -1;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    let width = 1;
    let inRun: boolean;
    if (c < 128) inRun = ASCII_IDENT[c] === 1;
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

/** 1 for the ASCII chars of an identifier-like run (letters, digits, '_'). */
export const ASCII_IDENT = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_IDENT[c] = /[\p{L}\p{N}_]/u.test(String.fromCharCode(c)) ? 1 : 0;
const IDENT_CHAR = /^[\p{L}\p{N}_]$/u;
const identCache = new Map<number, boolean>();

/** Whether a non-ASCII code point belongs to an identifier-like run (cached). */
export function isIdentCodePoint(cp: number): boolean {
  let yes = identCache.get(cp);
  if (yes === undefined) {
    // A lone surrogate is no identifier char (IDENT, with the u flag, never matches one).
    yes = !(cp >= 0xd800 && cp <= 0xdfff) && IDENT_CHAR.test(String.fromCodePoint(cp));
    if (identCache.size < 4096) identCache.set(cp, yes);
  }
  return yes;
}
