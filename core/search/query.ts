// Query analysis, done once per search: turns any user text into the ParsedQuery every later stage
// reads (channels, text signals, hints) plus a safe FTS5 MATCH expression. Owns the query grammar
// (words, "quoted phrases", trailing-* prefixes, path:/ext:/-path: filters), stop-word handling and
// escaping: the expression is built only from tokens, so no user text can raise an FTS syntax error.
// Running the query belongs to the channels (channels/), ranking to rerank.ts.
import { splitIdentifier, STOP_WORDS } from './analyzer.ts';

const TOKEN = /[\p{L}\p{N}\p{Co}]+/gu;
const MAX_CLAUSES = 24;

export type Clause =
  | { kind: 'word'; token: string; parts: string[]; prefix: boolean }
  | { kind: 'phrase'; tokens: string[] };

/** Two adjacent word clauses the index also holds written as one identifier (expand.ts finds them). */
export interface Compound {
  /** Index of the first of the two clauses. */
  first: number;
  /** The two tokens run together: `settingspage`. */
  token: string;
}

export interface ParsedQuery {
  raw: string;
  clauses: Clause[];
  /** adjacent[i]: clauses i and i + 1 were neighbouring words of the query (nothing between them). */
  adjacent?: boolean[];
  /** Set by expand.ts: neighbouring words the index also holds as one identifier (names rerank matches). */
  compounds?: Compound[];
  paths: string[];
  exts: string[];
  excludePaths: string[];
  /** Words dropped as stop words (reported by explain); a question drops some. */
  dropped: string[];
  /** The words as written (case kept, filters left out, a phrase's words one by one): what definitions are looked up by. */
  written: string[];
  /**
   * The whole query as one verbatim phrase: whitespace collapsed, lowercase, the quotes of a query
   * wholly in quotes removed (a quote anywhere else is part of it). Filters stay in it, as they
   * always did: leaving them out would change rankings (a decision for measurement, not for a refactor).
   */
  verbatim: string;
}

function tokensOf(text: string): Array<{ token: string; original: string }> {
  return Array.from(text.normalize('NFKC').matchAll(TOKEN), (m) => ({ token: m[0].toLowerCase(), original: m[0] }));
}

/** Splits raw text into quoted phrases, filters and bare words; unbalanced quotes become words. */
function lex(raw: string): Array<{ type: 'phrase' | 'word'; text: string } | { type: 'filter'; key: string; value: string }> {
  const out: Array<{ type: 'phrase' | 'word'; text: string } | { type: 'filter'; key: string; value: string }> = [];
  const re = /"([^"]*)"|(-?)(path|ext|file|lang):("[^"]*"|\S*)|(\S+)/giu;
  for (const m of raw.matchAll(re)) {
    if (m[1] !== undefined) out.push({ type: 'phrase', text: m[1] });
    else if (m[3] !== undefined) {
      const value = m[4].replace(/^"|"$/g, '');
      if (!value) continue;
      const key = m[3].toLowerCase();
      out.push({ type: 'filter', key: m[2] ? `-${key === 'file' ? 'path' : key}` : key === 'file' ? 'path' : key, value });
    } else if (m[5] !== undefined) out.push({ type: 'word', text: m[5] });
  }
  return out;
}

export function parseQuery(raw: string): ParsedQuery {
  const verbatim = raw.replace(/\s+/g, ' ').trim().replace(/^"([^"]*)"$/, '$1').toLowerCase();
  const q: ParsedQuery = { raw, clauses: [], paths: [], exts: [], excludePaths: [], dropped: [], written: [], verbatim };
  const words: Clause[] = [];
  const position = new Map<Clause, number>();
  let pos = 0;
  for (const item of lex(raw)) {
    if (item.type !== 'filter') q.written.push(...item.text.split(/\s+/).filter(Boolean));
    if (item.type === 'filter') {
      pos += 2;
      if (item.key === 'path') q.paths.push(item.value);
      else if (item.key === '-path') q.excludePaths.push(item.value);
      else if (item.key === 'ext' || item.key === '-ext') q.exts.push(...item.value.split(',').filter(Boolean));
      continue;
    }
    if (item.type === 'phrase') {
      const tokens = tokensOf(item.text).map((t) => t.token);
      pos += 2;
      if (tokens.length === 1) words.push({ kind: 'word', token: tokens[0], parts: [], prefix: false });
      else if (tokens.length > 1) q.clauses.push({ kind: 'phrase', tokens });
      continue;
    }
    const toks = tokensOf(item.text);
    toks.forEach((t, i) => {
      const parts = splitIdentifier(t.original);
      const prefix = i === toks.length - 1 && item.text.endsWith('*') && t.token.length >= 2;
      const w: Clause = { kind: 'word', token: t.token, parts: parts.length > 1 ? parts : [], prefix };
      position.set(w, pos++);
      words.push(w);
    });
    pos++; // words of two items are neighbours only through this gap of one
  }
  // Natural-language questions: drop stop words, unless nothing would be left.
  const bare = words.filter((w): w is Extract<Clause, { kind: 'word' }> => w.kind === 'word');
  const content = bare.filter((w) => !STOP_WORDS.has(w.token));
  const naturalLanguage = bare.length >= 3 || bare.length - content.length >= 1 && bare.length >= 2;
  const keep = naturalLanguage && content.length > 0 ? content : bare;
  if (keep !== bare) q.dropped = bare.filter((w) => STOP_WORDS.has(w.token)).map((w) => w.token);
  const seen = new Set<string>();
  for (const w of keep) {
    const key = `${w.token}${w.prefix ? '*' : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    q.clauses.push(w);
  }
  q.clauses = q.clauses.slice(0, MAX_CLAUSES);
  q.adjacent = q.clauses.map((c, i) => {
    const a = position.get(c);
    const b = i + 1 < q.clauses.length ? position.get(q.clauses[i + 1]) : undefined;
    return a !== undefined && b !== undefined && b - a <= 2 && b > a;
  });
  return q;
}

const quote = (tokens: string[]) => `"${tokens.join(' ')}"`;

export function clauseExpr(c: Clause): string {
  if (c.kind === 'phrase') return quote(c.tokens);
  const whole = c.prefix ? `${quote([c.token])}*` : quote([c.token]);
  if (c.parts.length < 2) return whole;
  // A one- or two-letter last part (`InternalPriceL*`) would expand to every token starting with it:
  // the phrase without it finds the same chunks (and more) at a fraction of the cost.
  const shortTail = c.prefix && c.parts.length >= 3 && c.parts[c.parts.length - 1].length < 3;
  const split = shortTail ? quote(c.parts.slice(0, -1)) : c.prefix ? `${quote(c.parts)}*` : quote(c.parts);
  return `(${whole} OR ${split})`;
}

/** The FTS5 MATCH expression over the clauses: all (`all`) or any (`any`); null when nothing to match. */
export function ftsExpression(q: ParsedQuery, match: 'all' | 'any', clauses: readonly Clause[] = q.clauses): string | null {
  if (clauses.length === 0) return null;
  return clauses.map(clauseExpr).join(match === 'all' ? ' AND ' : ' OR ');
}

/** The lowercase tokens a hit may contain for this query, for snippets: whole words (and compounds), and identifier parts. */
export function queryTerms(q: ParsedQuery): { words: string[]; parts: string[] } {
  const words = new Set<string>();
  const parts = new Set<string>();
  for (const c of q.clauses) {
    if (c.kind === 'phrase') c.tokens.forEach((t) => words.add(t));
    else {
      words.add(c.token);
      c.parts.forEach((p) => parts.add(p));
    }
  }
  for (const c of q.compounds ?? []) words.add(c.token);
  for (const w of words) parts.delete(w);
  return { words: [...words], parts: [...parts] };
}
