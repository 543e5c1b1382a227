// The token stream the learned embeddings see: every identifier-like run of a text split by the
// analyzer's splitter (camelCase, PascalCase, snake_case, digits: the parts the FTS index stores in
// its idents column), lowercased, without stop words, one-letter parts, numbers and overlong parts.
// Owns only that filter and a memo of splits; the splitter, the scan for identifier-like runs and
// the stop words belong to the analyzer (core/text/analyzer.ts), so both channels cut text the same way.
import { forEachIdentRun, ownString, splitIdentifier, STOP_WORDS } from '../../text/analyzer.ts';

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
    forEachIdentRun(text, (w) => {
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
