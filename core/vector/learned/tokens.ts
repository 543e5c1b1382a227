// The token stream the learned embeddings see: every identifier-like run of a text split by the
// analyzer's splitter (camelCase, PascalCase, snake_case, digits: the parts the FTS index stores in
// its idents column), lowercased, without stop words, one-letter parts, numbers and overlong parts.
// Owns only that filter and a memo of splits; the splitter and stop words belong to the analyzer,
// so both channels cut text the same way.
import { splitIdentifier, STOP_WORDS } from '../../search/analyzer.ts';

/** Identifier-ish runs: letters, digits and underscores (the analyzer's IDENT). */
const IDENT = /[\p{L}\p{N}_]+/gu;
const DIGITS = /^\p{N}+$/u;
/** Longer parts are hashes, base64 or generated names: noise for co-occurrence. */
const MAX_PART = 32;

const MEMO_LIMIT = 200_000;

/** Splits texts into model tokens; keeps a memo of each distinct identifier's parts (code repeats them endlessly). */
export class ModelTokenizer {
  private readonly memo = new Map<string, readonly string[]>();

  /** The parts of one identifier-like run that the model keeps. */
  parts(word: string): readonly string[] {
    let parts = this.memo.get(word);
    if (parts === undefined) {
      parts = splitIdentifier(word).filter(keepPart);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(word, parts);
    }
    return parts;
  }

  /** Calls `each` with every kept token of `text`, in order. */
  forEach(text: string, each: (token: string) => void): void {
    IDENT.lastIndex = 0;
    for (let m = IDENT.exec(text); m; m = IDENT.exec(text)) {
      for (const p of this.parts(m[0])) each(p);
    }
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

