// The word index as a prefilter for literal patterns when the trigram index cannot narrow the files
// (it is off, the default, or the patterns give no trigram): the whole words inside a literal — runs
// of letters and digits bounded on both sides *within the literal* by other characters — are tokens
// of every chunk body that holds the literal, because FTS5's unicode61 splits text at exactly those
// characters. `@page "/orders/drafts-list"` can then check only the files whose chunks hold
// `orders` and `drafts`, instead of reading every stored file (a razor route at 50k chunks: a
// ~300 ms scan, past the time budget on a busy machine). Owns the choice of those words; the search
// (search.ts) reads the candidates and checks every line as before, so answers are unchanged.
//
// Why only ASCII literals and only words with a separator on both sides: a word at the literal's edge
// may be part of a longer token in the text (`atalog` in `/catalog`), and FTS5's prefix queries go
// through the porter stemmer, whose stem of a prefix need not be a prefix of the word's stem; outside
// ASCII, which characters unicode61 keeps in tokens (marks, CJK runs, the cjk column) is not worth
// mirroring here — such literals are scanned as before.
import type { TextPattern } from '../query.ts';

/** Words kept per search at most (the longest: the rarest, usually; every extra word costs a doclist). */
const MAX_WORDS = 4;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const WORD = /[A-Za-z0-9]+/g;

/** The whole words inside one literal (bounded by other characters on both sides within it). */
export function innerWords(literal: string): string[] {
  if (!ASCII_ONLY.test(literal)) return [];
  const out: string[] = [];
  for (const m of literal.matchAll(WORD)) {
    const start = m.index;
    const end = start + m[0].length;
    if (start > 0 && end < literal.length) out.push(m[0].toLowerCase());
  }
  return out;
}

/**
 * An FTS5 expression over chunk bodies that every chunk holding the patterns satisfies, or null when
 * no literal pattern has an inner word. Every pattern must occur in a hit, so the words of one
 * pattern are enough: the literal pattern with the most (then longest) words is used.
 */
export function wordPrefilter(patterns: readonly TextPattern[]): string | null {
  let best: string[] = [];
  for (const p of patterns) {
    if (p.kind !== 'literal') continue;
    const words = [...new Set(innerWords(p.source))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    if (words.length > best.length || (words.length === best.length && words.join('').length > best.join('').length)) best = words;
  }
  if (best.length === 0) return null;
  return `{body} : (${best.slice(0, MAX_WORDS).map((w) => `"${w}"`).join(' AND ')})`;
}
