// Marking the query's terms in text: the terms are the core's own (core/search/query.ts: words,
// identifier parts, phrase tokens), matched as case-insensitive substrings, as the core picks snippet
// lines. Owns turning a string into marked pieces; no rendering.
import { parseQuery, queryTerms } from '../../../core/search/query.ts';

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

export function markTerms(text: string, q: string): Piece[] {
  const re = termPattern(q);
  if (!re) return [{ text, mark: false }];
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), mark: false });
    out.push({ text: m[0], mark: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), mark: false });
  return out;
}
