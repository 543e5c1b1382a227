// Query analysis, done once per search: turns any user text into the ParsedQuery every later stage
// reads (channels, text signals, hints) plus a safe FTS5 MATCH expression. Owns the query grammar
// (words, "quoted phrases", trailing-* prefixes, path:/ext:/-path: filters, `re:` patterns, quoted
// literals), CJK runs as bigram clauses (cjk.ts), stop-word handling and escaping: the expression is
// built only from tokens, so no user text can raise an FTS syntax error. Which channels answer is
// modes.ts's (routeMode), running the query the channels' (channels/), ranking rerank.ts's.
import { HciError } from '../platform.ts';
import { MAX_TEXT_HITS } from './page.ts';
import { splitIdentifier, STOP_WORDS } from '../text/analyzer.ts';
import { bigrams, cjkRunExpression, splitCjkWord } from './cjk.ts';
import { asciiTwin } from '../ascii-regex.ts';

// The Unicode-property patterns run their ASCII twin on ASCII text (core/ascii-regex.ts).
const TOKEN = asciiTwin('[\\p{L}\\p{N}\\p{Co}]+', 'gu');
const MAX_CLAUSES = 24;
/** A quoted phrase holding any of these is a literal (`"?.Invoke("`, `"/api/v1/"`): word tokens drop them. */
const NON_WORD = asciiTwin('[^\\p{L}\\p{N}\\p{M}\\s_]', 'u');

export type Clause =
  | { kind: 'word'; token: string; parts: string[]; prefix: boolean }
  | { kind: 'phrase'; tokens: string[] }
  /** A run of CJK letters, matched as its bigrams (cjk.ts) in the `cjk` column. */
  | { kind: 'cjk'; run: string };

/** One pattern the literal channel looks for in the stored text, line by line. */
export interface TextPattern {
  kind: 'literal' | 'regex';
  /** As written: a literal's exact characters, or a regex in RE2 syntax. */
  source: string;
}

/**
 * What the literal channel (channels/literal.ts) is asked: every pattern must occur in a chunk
 * (each on some line of it); a hit's match_lines are the lines where any of them does.
 */
export interface TextQuery {
  patterns: TextPattern[];
  /** Whether matching keeps case: the request's case_sensitive, else smart case (below). */
  caseSensitive: boolean;
  /**
   * The request left case_sensitive unset: smart case decides, as rg -S — a pattern holding an
   * upper-case letter matches case-sensitively (literal/smart-case.ts). The literal channel's
   * prepare sets caseSensitive so (its pattern reader loads with that channel, not with every query).
   */
  smartCase: boolean;
  wholeWord: boolean;
  /** Why the literal channel answers: the request's mode, a `re:` term, a quoted literal, or no searchable word. */
  reason: 'mode' | 're' | 'quoted' | 'no_words';
  /** The search's time budget (setting literal_budget_ms). */
  budgetMs: number;
  /** Chunks the search collects before it stops checking files (page.ts textHitCap at the ranking's depth; default MAX_TEXT_HITS). */
  maxHits: number;
}

/** What a request adds to its query text (the contract's search request fields). */
export interface QueryOptions {
  mode?: string;
  case_sensitive?: boolean;
  whole_word?: boolean;
  /** The literal channel's time budget (the workspace's literal_budget_ms; default 2000). */
  budget_ms?: number;
  /** The literal channel's hit cap (default MAX_TEXT_HITS; the pipeline sets the ranking depth's, page.ts textHitCap). */
  max_hits?: number;
  /** Words dropped like stop words from a query of several words (setting change_words: what a commit subject says about the change, not the code). */
  change_words?: readonly string[];
}

/** Two adjacent word clauses the index also holds written as one identifier (expand.ts finds them). */
export interface Compound {
  /** Index of the first of the two clauses. */
  first: number;
  /** The two tokens run together: `settingspage`. */
  token: string;
}

/** One expansion term: a neighbour of a query word. */
export interface NeighbourTerm {
  /** The query word it is a neighbour of. */
  from: string;
  token: string;
  cosine: number;
}

/** What a question is expanded with (ParsedQuery.neighbours; chosen by neighbour-terms.ts): the model's candidates, before the index's vocabulary is asked. */
export interface NeighbourExpansion {
  weight: number;
  terms: NeighbourTerm[];
  /** Where the terms come from: the code model's neighbours (default) or the repository's own doc comments (learned-terms.ts). */
  source?: 'repository';
}

export interface ParsedQuery {
  raw: string;
  clauses: Clause[];
  /** adjacent[i]: clauses i and i + 1 were neighbouring words of the query (nothing between them). */
  adjacent?: boolean[];
  /** Set by expand.ts: neighbouring words the index also holds as one identifier (names rerank matches). */
  compounds?: Compound[];
  /** Set before the search (neighbour-terms.ts, setting neighbour_terms): a question's expansion through the code model's neighbours; else, in the read transaction, through the repository's learned terms (learned-terms.ts, setting learned_terms). */
  neighbours?: NeighbourExpansion;
  /** Set in the read transaction (term-weights.ts, settings unnamed_term_weight and weak_term_weight): each clause's weight in the keyword score; absent: every clause weighs 1. */
  termWeights?: number[];
  /**
   * Set in the read transaction from setting near_complete (channels/fts.ts widenExpr): chunks that
   * hold every clause but one join the any-term pass, common words included (`short`: when it widens
   * anyway; `always`: also when complete matches fill the page); absent: off.
   */
  nearComplete?: 'short' | 'always';
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
  /** Set when the literal channel answers this query (modes.ts routes it); null for keyword search. */
  text: TextQuery | null;
}

function tokensOf(text: string): Array<{ token: string; original: string }> {
  return Array.from(text.normalize('NFKC').matchAll(TOKEN.for(text)), (m) => ({ token: m[0].toLowerCase(), original: m[0] }));
}

type TextLexeme = { type: 'phrase' | 'word' | 'regex'; text: string };
type Lexeme = TextLexeme | { type: 'filter'; key: string; value: string };

/** Splits raw text into quoted phrases, filters, `re:` patterns and bare words; unbalanced quotes become words. */
function lex(raw: string): Lexeme[] {
  const out: Lexeme[] = [];
  const re = /"([^"]*)"|(?<![^\s])re:("[^"]*"|\S+)|(-?)(path|ext|file|lang):("[^"]*"|\S*)|(\S+)/giu;
  for (const m of raw.matchAll(re)) {
    if (m[1] !== undefined) out.push({ type: 'phrase', text: m[1] });
    else if (m[2] !== undefined) out.push({ type: 'regex', text: m[2].length >= 2 && m[2].startsWith('"') && m[2].endsWith('"') ? m[2].slice(1, -1) : m[2] });
    else if (m[4] !== undefined) {
      const value = m[5].replace(/^"|"$/g, '');
      if (!value) continue;
      const key = m[4].toLowerCase();
      out.push({ type: 'filter', key: m[3] ? `-${key === 'file' ? 'path' : key}` : key === 'file' ? 'path' : key, value });
    } else if (m[6] !== undefined) out.push({ type: 'word', text: m[6] });
  }
  return out;
}

/** A CJK run's clause, with its bigrams for explain's label. */
function cjkClause(run: string): Clause {
  return { kind: 'cjk', run };
}

/**
 * The literal channel's part of a query, if it answers it: the request's literal or regex mode (the
 * whole text is the pattern; filters come from the request), a `re:` term, quoted literals (with the
 * query's other words as more literals, like grep's AND of patterns), or text without a searchable
 * word (`=>`, `?.`).
 */
function textQuery(raw: string, items: readonly Lexeme[], clauses: number, opts: QueryOptions): TextQuery | null {
  const base = { caseSensitive: !!opts.case_sensitive, smartCase: opts.case_sensitive === undefined, wholeWord: !!opts.whole_word, budgetMs: opts.budget_ms ?? 2000, maxHits: opts.max_hits ?? MAX_TEXT_HITS };
  if (opts.mode === 'literal' || opts.mode === 'regex') {
    if (!raw.trim()) return null;
    return { ...base, patterns: [{ kind: opts.mode, source: raw }], reason: 'mode' };
  }
  const regexes = items.filter((i): i is TextLexeme => i.type === 'regex');
  const words = items.filter((i): i is TextLexeme => i.type === 'phrase' || i.type === 'word');
  if (regexes.length) {
    if (regexes.length > 1 || words.length) {
      throw new HciError('invalid_query', 'a re: query takes one pattern and no other words', 'put everything into the one regex (quote it if it has spaces: re:"a b"); filters path:, ext: and -path: may stay');
    }
    const source = regexes[0].text;
    if (!source) throw new HciError('invalid_query', 're: needs a pattern after it', 'write re:<pattern>, e.g. re:Get\\w+Async');
    return { ...base, patterns: [{ kind: 'regex', source }], reason: 're' };
  }
  if (words.some((w) => w.type === 'phrase' && NON_WORD.for(w.text).test(w.text))) {
    const patterns = words.filter((w) => w.text.trim()).map((w): TextPattern => ({ kind: 'literal', source: w.text }));
    return { ...base, patterns, reason: 'quoted' };
  }
  if (clauses === 0) {
    const rest = words.map((w) => w.text).join(' ').trim();
    if (rest) return { ...base, patterns: [{ kind: 'literal', source: rest }], reason: 'no_words' };
  }
  return null;
}

export function parseQuery(raw: string, opts: QueryOptions = {}): ParsedQuery {
  const verbatim = raw.replace(/\s+/g, ' ').trim().replace(/^"([^"]*)"$/, '$1').toLowerCase();
  const q: ParsedQuery = { raw, clauses: [], paths: [], exts: [], excludePaths: [], dropped: [], written: [], verbatim, text: null };
  if (opts.mode === 'literal' || opts.mode === 'regex') {
    // The whole text is the pattern: no filters, phrases or words are read out of it.
    q.text = textQuery(raw, [], 0, opts);
    return q;
  }
  const words: Clause[] = [];
  const cjk: Clause[] = [];
  const position = new Map<Clause, number>();
  let pos = 0;
  const items = lex(raw);
  for (const item of items) {
    if (item.type === 'regex') continue;
    if (item.type !== 'filter') q.written.push(...item.text.split(/\s+/).filter(Boolean));
    if (item.type === 'filter') {
      pos += 2;
      if (item.key === 'path') q.paths.push(item.value);
      else if (item.key === '-path') q.excludePaths.push(item.value);
      else if (item.key === 'ext' || item.key === '-ext') q.exts.push(...item.value.split(',').filter(Boolean));
      continue;
    }
    if (item.type === 'phrase') {
      // CJK runs become their own clauses; the rest of the phrase stays a phrase.
      const tokens: string[] = [];
      for (const t of tokensOf(item.text)) {
        const split = splitCjkWord(t.original);
        split.runs.forEach((r) => cjk.push(cjkClause(r)));
        for (const piece of split.rest) tokens.push(...tokensOf(piece).map((p) => p.token));
      }
      pos += 2;
      if (tokens.length === 1) words.push({ kind: 'word', token: tokens[0], parts: [], prefix: false });
      else if (tokens.length > 1) q.clauses.push({ kind: 'phrase', tokens });
      continue;
    }
    const toks = tokensOf(item.text).flatMap((t) => {
      const split = splitCjkWord(t.original);
      split.runs.forEach((r) => cjk.push(cjkClause(r)));
      return split.rest.flatMap((piece) => tokensOf(piece));
    });
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
  const change = opts.change_words?.length ? new Set(opts.change_words.map((w) => w.toLowerCase())) : null;
  const stop = (t: string) => STOP_WORDS.has(t) || !!change?.has(t);
  const content = bare.filter((w) => !stop(w.token));
  const naturalLanguage = bare.length >= 3 || bare.length - content.length >= 1 && bare.length >= 2;
  const keep = naturalLanguage && content.length > 0 ? content : bare;
  if (keep !== bare) q.dropped = bare.filter((w) => stop(w.token)).map((w) => w.token);
  const seen = new Set<string>();
  for (const w of keep) {
    const key = `${w.token}${w.prefix ? '*' : ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    q.clauses.push(w);
  }
  for (const c of cjk) {
    const key = `cjk:${(c as { run: string }).run}`;
    if (seen.has(key)) continue;
    seen.add(key);
    q.clauses.push(c);
  }
  q.clauses = q.clauses.slice(0, MAX_CLAUSES);
  q.adjacent = q.clauses.map((c, i) => {
    const a = position.get(c);
    const b = i + 1 < q.clauses.length ? position.get(q.clauses[i + 1]) : undefined;
    return a !== undefined && b !== undefined && b - a <= 2 && b > a;
  });
  q.text = textQuery(raw, items, q.clauses.length, opts);
  return q;
}

const quote = (tokens: string[]) => `"${tokens.join(' ')}"`;

export function clauseExpr(c: Clause): string {
  if (c.kind === 'phrase') return quote(c.tokens);
  if (c.kind === 'cjk') return cjkRunExpression(c.run);
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
    else if (c.kind === 'cjk') words.add(c.run);
    else {
      words.add(c.token);
      c.parts.forEach((p) => parts.add(p));
    }
  }
  for (const c of q.compounds ?? []) words.add(c.token);
  for (const w of words) parts.delete(w);
  return { words: [...words], parts: [...parts] };
}

/** How explain names a clause: a word, a "phrase", or a CJK run with the bigrams it matched as. */
export function clauseLabel(c: Clause): string {
  if (c.kind === 'phrase') return `"${c.tokens.join(' ')}"`;
  if (c.kind === 'cjk') return Array.from(c.run).length > 1 ? `${c.run} (bigrams: ${bigrams(c.run).join(' ')})` : `${c.run} (prefix)`;
  return c.token;
}
