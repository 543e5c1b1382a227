// Which trigrams a line must contain to match a literal or a regex: Russ Cox's analysis for Google
// Code Search ("Regular Expression Matching with a Trigram Index"). Each node of the pattern's tree
// (regex-syntax.ts) gets: whether it can match "", its exact set of matching strings when small, else
// sets of possible prefixes and suffixes, and a boolean query of trigrams every match holds; the
// query of the whole pattern ANDs/ORs trigrams for the literal index (files_tri, FTS5's trigram
// tokenizer). Owns the analysis and its FTS5 expression. The query only narrows: a file it lets
// through is checked line by line by the engine (matcher.ts), and a file it drops cannot match.
//
// The index folds case (FTS5 trigram, case_sensitive 0), so strings here are of folded keys: ASCII
// lowercased, uncased characters (CJK, digits, punctuation) as they are, other characters as they are
// unless the pattern matches them case-insensitively — those count as unknown (FTS5's fold and the
// engine's case folding need not agree outside ASCII). Known gap: under case-insensitive matching
// RE2 also folds `ſ` with `s` and `K` (Kelvin) with `k`, which the index may not.
import type { RegexNode } from './regex-syntax.ts';

export type TrigramQuery =
  | { op: 'all' }
  | { op: 'none' }
  | { op: 'and' | 'or'; trigrams: string[]; subs: TrigramQuery[] };

const ALL: TrigramQuery = { op: 'all' };
const NONE: TrigramQuery = { op: 'none' };

/** Exact sets larger than this become prefix/suffix sets; prefix/suffix sets are cut to this size. */
const MAX_EXACT = 7;
const MAX_SET = 20;

interface Info {
  canEmpty: boolean;
  /** Every string the node matches (keys), when known and small; else null. */
  exact: Set<string> | null;
  /** When exact is null: every match starts with one of these (and ends with one of `suffix`). */
  prefix: Set<string>;
  suffix: Set<string>;
  match: TrigramQuery;
}

const len = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const chars = (s: string): string[] => Array.from(s);

function minLen(set: Set<string>): number {
  let m = Infinity;
  for (const s of set) m = Math.min(m, len(s));
  return m === Infinity ? 0 : m;
}

function cross(a: Set<string>, b: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function union(a: Set<string>, b: Set<string>): Set<string> {
  return new Set([...a, ...b]);
}

/** The folded key of one character, or null when a case-insensitive match of it cannot be keyed. */
export function keyOf(c: string, fold: boolean): string | null {
  const cp = c.codePointAt(0)!;
  if (cp < 128) return c.toLowerCase();
  const lower = c.toLowerCase();
  if (lower === c.toUpperCase()) return c; // no case: CJK, digits, symbols
  return fold ? null : c;
}

// ── boolean queries ─────────────────────────────────────────────────────────────────────────────

function combine(op: 'and' | 'or', a: TrigramQuery, b: TrigramQuery): TrigramQuery {
  const identity = op === 'and' ? 'all' : 'none';
  const absorbing = op === 'and' ? 'none' : 'all';
  if (a.op === absorbing || b.op === absorbing) return op === 'and' ? NONE : ALL;
  if (a.op === identity) return b;
  if (b.op === identity) return a;
  const trigrams = new Set<string>();
  const subs: TrigramQuery[] = [];
  for (const q of [a, b]) {
    if (q.op === op) {
      q.trigrams.forEach((t) => trigrams.add(t));
      subs.push(...q.subs);
    } else if (q.op !== 'all' && q.op !== 'none' && q.trigrams.length === 1 && q.subs.length === 0) {
      trigrams.add(q.trigrams[0]);
    } else subs.push(q);
  }
  return { op, trigrams: [...trigrams].sort(), subs };
}

const and = (a: TrigramQuery, b: TrigramQuery) => combine('and', a, b);
const or = (a: TrigramQuery, b: TrigramQuery) => combine('or', a, b);

/** The OR over the strings of the AND of each string's trigrams; ALL when some string is shorter than 3. */
function trigramsOf(set: Set<string>): TrigramQuery {
  if (set.size === 0) return NONE;
  if (minLen(set) < 3) return ALL;
  let q: TrigramQuery = NONE;
  for (const s of set) {
    const cs = chars(s);
    const tri = new Set<string>();
    for (let i = 0; i + 3 <= cs.length; i++) tri.add(cs[i] + cs[i + 1] + cs[i + 2]);
    q = or(q, { op: 'and', trigrams: [...tri].sort(), subs: [] });
  }
  return q;
}

// ── the analysis ────────────────────────────────────────────────────────────────────────────────

const anyMatch = (): Info => ({ canEmpty: true, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL });
const anyChar = (): Info => ({ canEmpty: false, exact: null, prefix: new Set(['']), suffix: new Set(['']), match: ALL });
const emptyString = (): Info => ({ canEmpty: true, exact: new Set(['']), prefix: new Set(), suffix: new Set(), match: ALL });
const noMatch = (): Info => ({ canEmpty: false, exact: null, prefix: new Set(), suffix: new Set(), match: NONE });

const prefixesOf = (x: Info) => x.exact ?? x.prefix;
const suffixesOf = (x: Info) => x.exact ?? x.suffix;

function exactInfo(set: Set<string>): Info {
  return simplify({ canEmpty: set.has(''), exact: set, prefix: new Set(), suffix: new Set(), match: ALL }, false);
}

/** Moves what a too-large set knows into the match query and keeps the set small (see the module comment). */
function simplify(info: Info, force: boolean): Info {
  const ex = info.exact;
  if (ex && (ex.size > MAX_EXACT || minLen(ex) >= 4 || (force && minLen(ex) >= 3))) {
    info.match = and(info.match, trigramsOf(ex));
    const prefix = new Set<string>();
    const suffix = new Set<string>();
    for (const s of ex) {
      const cs = chars(s);
      prefix.add(cs.length < 3 ? s : cs.slice(0, 2).join(''));
      suffix.add(cs.length < 3 ? s : cs.slice(-2).join(''));
    }
    info = { ...info, exact: null, prefix, suffix };
  }
  if (!info.exact) {
    info.prefix = shrink(info, info.prefix, false);
    info.suffix = shrink(info, info.suffix, true);
  }
  return info;
}

/** Records a set's trigrams in the match query, then cuts its strings (to 2, 1, 0 characters) until it is small. */
function shrink(info: Info, set: Set<string>, suffix: boolean): Set<string> {
  info.match = and(info.match, trigramsOf(set));
  let out = set;
  for (let n = 2; n >= 0 && out.size > MAX_SET; n--) {
    const cut = new Set<string>();
    for (const s of out) {
      const cs = chars(s);
      cut.add(cs.length <= n ? s : (suffix ? cs.slice(cs.length - n) : cs.slice(0, n)).join(''));
    }
    out = cut;
  }
  if (out === set) {
    // Strings of 3+ characters have given their trigrams: keep their two edge characters.
    const cut = new Set<string>();
    for (const s of set) {
      const cs = chars(s);
      cut.add(cs.length < 3 ? s : (suffix ? cs.slice(-2) : cs.slice(0, 2)).join(''));
    }
    out = cut;
  }
  return out;
}

function concat(x: Info, y: Info): Info {
  let match = and(x.match, y.match);
  const canEmpty = x.canEmpty && y.canEmpty;
  if (x.exact && y.exact) return simplify({ canEmpty, exact: cross(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match }, false);
  const prefix = x.exact ? cross(x.exact, y.prefix) : x.canEmpty ? union(x.prefix, prefixesOf(y)) : x.prefix;
  const suffix = y.exact ? cross(x.suffix, y.exact) : y.canEmpty ? union(y.suffix, suffixesOf(x)) : y.suffix;
  // Where x ends and y starts, one of the joins occurs: its trigrams (when every join has one).
  const xs = suffixesOf(x);
  const yp = prefixesOf(y);
  if (xs.size <= MAX_SET && yp.size <= MAX_SET && minLen(xs) + minLen(yp) >= 3) match = and(match, trigramsOf(cross(xs, yp)));
  return simplify({ canEmpty, exact: null, prefix, suffix, match }, false);
}

function alternate(x: Info, y: Info): Info {
  const match = or(x.match, y.match);
  const canEmpty = x.canEmpty || y.canEmpty;
  if (x.exact && y.exact) return simplify({ canEmpty, exact: union(x.exact, y.exact), prefix: new Set(), suffix: new Set(), match }, false);
  return simplify({ canEmpty, exact: null, prefix: union(prefixesOf(x), prefixesOf(y)), suffix: union(suffixesOf(x), suffixesOf(y)), match }, false);
}

function analyze(n: RegexNode): Info {
  switch (n.t) {
    case 'empty':
      return emptyString();
    case 'anything':
      return anyMatch();
    case 'any':
      return anyChar();
    case 'char': {
      const k = keyOf(n.c, n.fold);
      return k === null ? anyChar() : exactInfo(new Set([k]));
    }
    case 'set': {
      if (n.chars === null) return anyChar();
      if (n.chars.length === 0) return noMatch();
      const keys = new Set<string>();
      for (const c of n.chars) {
        const k = keyOf(c, n.fold);
        if (k === null) return anyChar();
        keys.add(k);
      }
      return exactInfo(keys);
    }
    case 'cat':
      return n.subs.reduce((acc, s) => concat(acc, analyze(s)), emptyString());
    case 'alt':
      return n.subs.length ? n.subs.map(analyze).reduce(alternate) : noMatch();
    case 'rep': {
      if (n.max === 0) return emptyString();
      if (n.min === 0) return n.max === 1 ? alternate(analyze(n.sub), emptyString()) : anyMatch();
      // One or more: at least one copy, so its prefixes and suffixes hold; exactness is lost.
      const x = analyze(n.sub);
      if (x.exact) return simplify({ canEmpty: x.canEmpty, exact: null, prefix: x.exact, suffix: new Set(x.exact), match: x.match }, false);
      return x;
    }
  }
}

/** The trigram query every line matching the pattern's tree satisfies. */
export function trigramQuery(tree: RegexNode): TrigramQuery {
  let info = simplify(analyze(tree), true);
  if (info.exact) info = { ...info, match: and(info.match, trigramsOf(info.exact)) };
  return info.match;
}

/**
 * A lighter query for the literal index, for a literal whose folded keys (keyOf per character; an
 * unkeyable one as null) are given: of its query's trigrams, only those starting at every third
 * character and the last — a tiling that still covers every character. FTS5 advances one doclist
 * per trigram for each candidate, and the overlapping ones add little: at 50k chunks the tiling
 * stepped the candidates 2-2.5x faster for 0-5% more of them (checked line by line as before). Any
 * subset of an AND's trigrams is implied by it, so no file that can match is dropped; the full
 * query stays what lines are filtered by.
 */
export function tiledLiteralQuery(q: TrigramQuery, keys: ReadonlyArray<string | null>): TrigramQuery {
  // An unkeyable character can leave gaps the tiling does not cover: then keep the full query.
  if (q.op !== 'and' || q.subs.length > 0 || q.trigrams.length <= 3 || keys.includes(null)) return q;
  const have = new Set(q.trigrams);
  const picked = new Set<string>();
  const pick = (i: number) => {
    const t = keys[i]! + keys[i + 1]! + keys[i + 2]!;
    if (have.has(t)) picked.add(t);
  };
  for (let i = 0; i + 3 <= keys.length; i += 3) pick(i);
  pick(keys.length - 3);
  if (picked.size === 0) return q;
  return { op: 'and', trigrams: [...picked].sort(), subs: [] };
}

/** The folded keys of a literal's characters (keyOf; null for one a case-insensitive match cannot key). */
export function literalKeys(literal: string, fold: boolean): Array<string | null> {
  return Array.from(literal, (c) => keyOf(c, fold));
}

/** ANDs the queries of several patterns (every pattern must occur in a hit). */
export function allOf(queries: readonly TrigramQuery[]): TrigramQuery {
  return queries.reduce(and, ALL);
}

/** The trigrams a query names (for explain). */
export function trigramsIn(q: TrigramQuery): string[] {
  if (q.op === 'all' || q.op === 'none') return [];
  return [...new Set([...q.trigrams, ...q.subs.flatMap(trigramsIn)])];
}

const ftsString = (t: string) => `"${t.replace(/"/g, '""')}"`;

/**
 * The FTS5 MATCH expression over files_tri (each trigram one token: detail=none has no phrases); null
 * when the query cannot narrow (ALL). NONE (a pattern that matches nothing) has no expression: the
 * caller answers it without asking the index.
 */
export function ftsTrigramExpression(q: TrigramQuery): string | null {
  if (q.op === 'all' || q.op === 'none') return null;
  // `combine` keeps ALL and NONE out of and/or nodes, so every part has an expression.
  // Every trigram: each narrows, and FTS5 merges the doclists lazily (the search stops early at its hit cap).
  const parts = [...q.trigrams.map(ftsString), ...q.subs.map((s) => `(${ftsTrigramExpression(s)})`)];
  return parts.join(q.op === 'and' ? ' AND ' : ' OR ');
}

/** Evaluates a query against the trigrams a text holds (tests check the analysis against the engine with it). */
export function satisfies(q: TrigramQuery, has: (trigram: string) => boolean): boolean {
  if (q.op === 'all') return true;
  if (q.op === 'none') return false;
  const results = [...q.trigrams.map(has), ...q.subs.map((s) => satisfies(s, has))];
  return q.op === 'and' ? results.every(Boolean) : results.some(Boolean);
}
