// Marking the query's terms in text: the terms are the core's own (core/search/query.ts: words,
// identifier parts, phrase tokens), matched case-insensitively where the core would match them — from
// a token or identifier-part boundary to another (core/text tokenBoundaries: `Pane` is not marked in
// `Panel`, `fa` not in `OverrideDefaultValue`; `Pricing` is in `ToPricingLines`; a prefix term `Catal*`
// only needs to start at one); for exact text and regex queries, the pattern itself (RE2 syntax read by JavaScript's
// RegExp, which agrees on what a search pattern usually holds; a pattern it cannot read marks
// nothing, the lines the Worker matched are still shown). Owns turning a string into marked pieces;
// no rendering.
import { parseQuery, queryTerms } from '../../../core/search/query.ts';
import { tokenBoundaries } from '../../../core/text/analyzer.ts';
import { isExact, type SearchOptions } from '../app/state.ts';

export interface Piece {
  text: string;
  mark: boolean;
}

interface Term {
  text: string;
  prefix: boolean;
}

let cached: { q: string; terms: Term[] } = { q: '', terms: [] };

/** The query's terms, longest first (a longer term wins where two start at the same place). */
function termsOf(q: string): Term[] {
  if (cached.q === q) return cached.terms;
  const parsed = parseQuery(q);
  const { words, parts } = queryTerms(parsed);
  const prefixes = new Set(parsed.clauses.flatMap((c) => (c.kind === 'word' && c.prefix ? [c.token] : [])));
  const terms = [...new Set([...words, ...parts])]
    .filter((t) => t.length >= 2)
    .sort((a, b) => b.length - a.length)
    .map((t) => ({ text: t.toLowerCase(), prefix: prefixes.has(t) }));
  cached = { q, terms };
  return terms;
}

/** The query's terms in `text`, each from a token boundary to another (a prefix term: from one). */
function markWords(text: string, q: string): Piece[] {
  const terms = termsOf(q);
  if (!terms.length) return [{ text, mark: false }];
  const at = tokenBoundaries(text);
  const starts = [...at].sort((a, b) => a - b);
  const out: Piece[] = [];
  let done = 0;
  for (const s of starts) {
    if (s < done) continue;
    const t = terms.find((t) => text.slice(s, s + t.text.length).toLowerCase() === t.text && (t.prefix || at.has(s + t.text.length)));
    if (!t) continue;
    if (s > done) out.push({ text: text.slice(done, s), mark: false });
    out.push({ text: text.slice(s, s + t.text.length), mark: true });
    done = s + t.text.length;
  }
  if (done < text.length) out.push({ text: text.slice(done), mark: false });
  return out;
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
  if (!o || !isExact(o.mode)) return markWords(text, q);
  const re = exactPattern(q, o);
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
