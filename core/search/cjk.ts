// CJK text as FTS5 can match it: overlapping bigrams of every run of Han, Hiragana, Katakana and
// Hangul letters. unicode61 keeps a whole run (`此修改将不可逆`) as one token, so no part of it can be
// found; bigrams (此修 修改 改将 将不 不可 可逆) make every substring of two or more characters a phrase
// of adjacent tokens. Indexing (core/index/fts-row.ts, the `cjk` column) and querying (query.ts)
// both call this module, so the two sides stay symmetrical (dsh-coderag's rule). Owns finding CJK
// runs and turning them into tokens; FTS5 does the rest (the tokens are plain unicode61 words).
// Changing what this emits changes stored tokens: bump FORMAT_VERSION (core/index/schema.ts).
import { asciiTwin, isAscii } from '../ascii-regex.ts';

/** A run of CJK letters (Script_Extensions, so the prolonged sound mark ー counts; letters only, so 、。「」 do not). */
const CJK_RUN = asciiTwin('(?:(?=[\\p{L}\\p{Nl}\\p{M}])[\\p{scx=Hani}\\p{scx=Hira}\\p{scx=Kana}\\p{scx=Hang}])+', 'gu');
/** Cheap test before the exact one: any code point in the CJK, kana or Hangul blocks (and their extensions). */
const MAYBE_CJK = /[\u1100-\u11ff\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3031-\u303c\u3040-\u30ff\u3131-\u318e\u31a0-\u31bf\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\uff66-\uff9f\u{20000}-\u{3134f}]/u;
/** A letter or digit run as unicode61 cuts words (the run a CJK run may sit inside, as in `Save保存`). */
const WORD = asciiTwin('[\\p{L}\\p{N}\\p{Co}\\p{M}]+', 'gu');

/** The CJK runs of a text, NFKC-normalised (half-width katakana become full-width, as queries are). */
export function cjkRuns(text: string): string[] {
  if (!MAYBE_CJK.test(text)) return [];
  return Array.from(text.normalize('NFKC').matchAll(CJK_RUN.unicodeRegex()), (m) => m[0]);
}

/** The overlapping bigrams of one run (a one-letter run is its own token). By code point, not UTF-16 unit. */
export function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length < 2) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
  return out;
}

/**
 * The `cjk` column of a chunk: each run's bigrams followed by the run's last letter, run after run.
 * The last letter ends the run, so a phrase of bigrams never matches across two runs (`ab` + `bc`
 * from `…ab` and `bc…` in different runs), and it lets a one-letter query match at a run's end.
 * A word that mixes CJK with other letters (`Save保存`, `第3章`) also gives its other parts (`save`,
 * `3`), which unicode61 cannot see inside the mixed word. Empty for text without CJK.
 */
export function cjkIndexText(text: string): string {
  if (!MAYBE_CJK.test(text)) return '';
  const out: string[] = [];
  for (const m of text.normalize('NFKC').matchAll(WORD.unicodeRegex())) {
    const word = m[0];
    const runs = Array.from(word.matchAll(CJK_RUN.unicodeRegex()));
    if (runs.length === 0) continue;
    let last = 0;
    for (const r of runs) {
      if (r.index > last) out.push(word.slice(last, r.index));
      const chars = Array.from(r[0]);
      out.push(...bigrams(r[0]));
      if (chars.length > 1) out.push(chars[chars.length - 1]);
      last = r.index + r[0].length;
    }
    if (last < word.length) out.push(word.slice(last));
  }
  return out.join(' ');
}

/** One query word cut into its CJK runs and the other pieces between them (`保存Command` → 保存 + command). */
export function splitCjkWord(word: string): { runs: string[]; rest: string[] } {
  const runs: string[] = [];
  const rest: string[] = [];
  // An ASCII word has no CJK run and is its own NFKC form: no normalising, no CJK_RUN (whose
  // \p{scx=…} classes V8 builds on first use, ~2 ms in every process: core/ascii-regex.ts).
  if (isAscii(word)) {
    if (word) rest.push(word);
    return { runs, rest };
  }
  const w = word.normalize('NFKC');
  let last = 0;
  for (const r of w.matchAll(CJK_RUN.unicodeRegex())) {
    if (r.index > last) rest.push(w.slice(last, r.index));
    runs.push(r[0]);
    last = r.index + r[0].length;
  }
  if (last < w.length) rest.push(w.slice(last));
  return { runs, rest };
}

/**
 * The FTS5 expression of one CJK query run: its bigrams as one phrase (adjacent tokens: the exact
 * substring), or a prefix query for a single letter (bigrams starting with it, or a run ending in it).
 */
export function cjkRunExpression(run: string): string {
  const chars = Array.from(run);
  if (chars.length === 1) return `"${run}"*`;
  return `"${bigrams(run).join(' ')}"`;
}
