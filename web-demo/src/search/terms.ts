// Marking the query's terms in text: the terms are the core's own (core/search/query.ts: words,
// identifier parts, phrase tokens), matched as case-insensitive substrings, as the core picks snippet
// lines; for exact text and regex queries, the pattern itself (RE2 syntax read by JavaScript's
// RegExp, which agrees on what a search pattern usually holds; a pattern it cannot read marks
// nothing, the lines the Worker matched are still shown). Owns turning a string into marked pieces;
// no rendering.
import { parseQuery, queryTerms } from '../../../core/search/query.ts';
import type { SearchOptions } from '../app/state.ts';

export interface Piece {
  text: string;
  mark: boolean;
}

let cached: { q: string; re: RegExp | null } = { q: '', re: null };

function termPattern(q: string): RegExp | null {
  if (cached.q === q) return cached.re;
  const { words, parts } = queryTerms(parseQuery(q));
  const terms = [...words, ...parts]
    .filter((t) => t.length >= 2)
    .sort((a, b) => b.length - a.length)
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  cached = { q, re: terms.length ? new RegExp(terms.join('|'), 'giu') : null };
  return cached.re;
}

let cachedExact: { key: string; re: RegExp | null } = { key: '', re: null };

function exactPattern(q: string, o: SearchOptions): RegExp | null {
  const key = JSON.stringify([q, o.mode, o.caseSensitive, o.wholeWord]);
  if (cachedExact.key === key) return cachedExact.re;
  let source = o.mode === 'regex' ? q : q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // RE2's inline flags (?i) at the start: JavaScript has only the flag.
  let caseless = !o.caseSensitive;
  const inline = /^\(\?i\)/.exec(source);
  if (inline) {
    caseless = true;
    source = source.slice(inline[0].length);
  }
  if (o.wholeWord) source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  let re: RegExp | null = null;
  try {
    re = source ? new RegExp(source, caseless ? 'giu' : 'gu') : null;
  } catch {
    re = null;
  }
  cachedExact = { key, re };
  return re;
}

/** Marks the query in `text`: its terms (keyword mode), or where the exact text or regex matches. */
export function markTerms(text: string, q: string, o?: SearchOptions): Piece[] {
  const re = o && o.mode !== 'keyword' ? exactPattern(q, o) : termPattern(q);
  if (!re) return [{ text, mark: false }];
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m[0] === '') continue; // an empty match marks nothing (and matchAll moves on)
    if (m.index > at) out.push({ text: text.slice(at, m.index), mark: false });
    out.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
