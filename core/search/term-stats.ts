// BM25 made comparable across index files (many repositories in one search, core/service/federation.ts).
// FTS5's bm25() weighs each term by the statistics of its own index (row count, average row length,
// rows holding the term), so the same chunk scores differently in a small repository than in the
// union of several, and sqlite-wasm cannot register an FTS5 scoring function from JavaScript. So
// each index first reports its statistics for the query's phrases — its row and token totals (the
// FTS5 averages record, chunks_fts_data id 1) and per phrase how many rows hold it — the federation
// adds them up, and the keyword channel's hits in every index are scored again with the sum
// (channels/fts-global.ts): each phrase's own bm25() part of a hit, with the hit's length
// (chunks_fts_docsize), taken back to its weighted frequency and weighed with all the statistics —
// the score the hit would have in one index of the union (FTS5's formula: k1 1.2, b 0.75, the column
// weights of the keyword channel). Owns reading those statistics and the arithmetic; the channel
// wrapper applies it, the federation merges the lists, query.ts parses the query.
import type { BindableValue, Database } from '../sqlite/engine.ts';
import { rawRows } from '../sqlite/raw-rows.ts';
import type { SearchSession } from './session.ts';
import { ftsExpression, type ParsedQuery } from './query.ts';
import { COLUMN_WEIGHTS } from './channels/fts.ts';
import { phrasesOf } from './term-weights.ts';
import type { PassPools } from './rerank.ts';

/**
 * What the statistics are read through: a search session's statements, prepared once per connection
 * (SearchSession value / arrays / statement — an FTS5 statement's preparing cost about as much as a
 * count), or a bare connection (each statement prepared anew).
 */
export type StatReads = Database | Pick<SearchSession, 'value' | 'arrays' | 'statement' | 'db'>;

const valueOf = (r: StatReads, sql: string, params?: BindableValue[]): unknown => ('arrays' in r ? r.value(sql, params) : r.selectValue(sql, params));
const arraysOf = (r: StatReads, sql: string, params?: BindableValue[]): unknown[][] => ('arrays' in r ? r.arrays(sql, params) : (r.selectArrays(sql, params) as unknown[][]));

/**
 * Each row of `sql` (two columns: a number, then a number or a blob) given to `row`: through a
 * session's statement, read straight from WASM memory (rawRows: oo1's checked getters were a quarter
 * of the rescoring's CPU, hitParts reading a few hundred rows per repository and query); else
 * through arraysOf. The same values either way (a blob is read before the next row).
 */
function eachRow(r: StatReads, sql: string, params: BindableValue[], row: (id: number, value: number | Uint8Array | null) => void, blob = false): void {
  if (!('statement' in r)) {
    for (const [id, v] of arraysOf(r, sql, params)) row(Number(id), v instanceof Uint8Array ? v : v === null || v === undefined ? null : Number(v));
    return;
  }
  const st = r.statement(sql);
  try {
    st.bind(params);
    const raw = rawRows(r.db, st);
    while (raw.step()) row(raw.double(0), blob ? raw.blobView(1) : raw.double(1));
  } finally {
    st.reset(true);
  }
}

const K1 = 1.2;
const B = 0.75;
const WEIGHT_ARGS = Object.values(COLUMN_WEIGHTS).join(', ');

/** What one index's BM25 scores of a query are made of, or — merged (mergeStats) — those of several. */
export interface CorpusStats {
  /** Rows (chunks), and tokens in all their columns. */
  rows: number;
  tokens: number;
  /** Per FTS5 phrase of the query (and, in a search over several indexes, per clause of it: fts.ts clauseExprs): how many rows hold it. */
  docs: Record<string, number>;
  /**
   * Per expression asked for (HeadsAsk): how many of its matching chunks a first pass keeps at its
   * head — at most `cap` per file — over its first HEAD_SCAN matching chunks (a search over several
   * indexes tells each how many complete matches the others keep: fts.ts widenFts).
   */
  heads?: Record<string, number>;
}

/** Which expressions' head counts to read, and a file's share of the head (setting max_hits_per_file). */
export interface HeadsAsk {
  exprs: string[];
  cap: number;
  /**
   * The clauses every expression ANDs (their counts among the phrases asked): where this index holds
   * one of them nowhere, no chunk matches an expression and its head count is 0 with no statement.
   */
  clauses?: string[];
}

/** Matching chunks a head count reads at most: past them the count is far above any page's need. */
const HEAD_SCAN = 1000;

/** How many of an expression's matching chunks (its first HEAD_SCAN) are among their file's first `cap` (inside a read transaction). */
export function headCount(db: StatReads, expr: string, cap: number): number {
  const perFile = new Map<number, number>();
  let n = 0;
  for (const [fileId] of arraysOf(db, 'SELECT c.file_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ? LIMIT ?', [expr, HEAD_SCAN])) {
    const k = (perFile.get(Number(fileId)) ?? 0) + 1;
    perFile.set(Number(fileId), k);
    if (k <= cap) n++;
  }
  return n;
}

/** Per chunk: its tokens (all columns) and, per phrase, that phrase's bm25() part (positive; 0 when absent). */
export type HitParts = Map<number, { length: number; parts: number[] }>;

/** Every FTS5 phrase of a parsed query's keyword expression, in order. */
export function queryPhrases(q: ParsedQuery): string[] {
  const expr = ftsExpression(q, 'all');
  return expr ? phrasesOf(expr) : [];
}

/** SQLite varints (FTS5's record format), one after the other. */
function varints(b: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < b.length) {
    let v = 0;
    for (let n = 0; ; n++) {
      const c = b[i++];
      if (n === 8) {
        v = v * 256 + c;
        break;
      }
      v = v * 128 + (c & 0x7f);
      if (!(c & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** One index's statistics for the phrases (inside a read transaction). */
export function corpusStats(db: StatReads, phrases: readonly string[]): CorpusStats {
  const avg = valueOf(db, 'SELECT block FROM chunks_fts_data WHERE id = 1');
  const [rows = 0, ...cols] = avg instanceof Uint8Array ? varints(avg) : [];
  const docs: Record<string, number> = {};
  for (const p of phrases) docs[p] = Number(valueOf(db, 'SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?', [p]) ?? 0);
  return { rows, tokens: sum(cols), docs };
}

/** Phrases a StatsCache keeps per index generation before it starts again. */
const CACHED_PHRASES = 20_000;

/**
 * One index's statistics kept between searches (corpusStats without its counting passes for a
 * phrase counted before): an index is read-only between writes, and every write bumps its
 * generation, which a read checks first. A common word is in most queries of a session; counting
 * its rows again was a pass over its whole doclist, per repository, per query.
 */
export class StatsCache {
  private generation: string | null = null;
  private totals: { rows: number; tokens: number } | null = null;
  private readonly docs = new Map<string, number>();
  private readonly heads = new Map<string, number>();

  /** corpusStats(db, phrases) (and the head counts asked for), from what this index's earlier searches counted when they can (inside a read transaction). */
  read(db: StatReads, phrases: readonly string[], heads?: HeadsAsk): CorpusStats {
    const generation = String(valueOf(db, "SELECT value FROM meta WHERE key = 'generation'") ?? '');
    if (generation !== this.generation || this.docs.size > CACHED_PHRASES) {
      this.generation = generation;
      this.totals = null;
      this.docs.clear();
      this.heads.clear();
    }
    const missing = phrases.filter((p) => !this.docs.has(p));
    if (!this.totals || missing.length) {
      const counted = corpusStats(db, missing);
      this.totals ??= { rows: counted.rows, tokens: counted.tokens };
      for (const [p, n] of Object.entries(counted.docs)) this.docs.set(p, n);
    }
    const docs: Record<string, number> = {};
    for (const p of phrases) docs[p] = this.docs.get(p)!;
    if (!heads?.exprs.length) return { ...this.totals, docs };
    const counted: Record<string, number> = {};
    // A clause this index holds nowhere: nothing matches them all (long questions: most indexes lack a word).
    const lacks = heads.clauses?.some((c) => docs[c] === 0) ?? false;
    for (const e of heads.exprs) {
      if (lacks) {
        counted[e] = 0;
        continue;
      }
      const key = `${heads.cap}:${e}`;
      if (!this.heads.has(key)) this.heads.set(key, headCount(db, e, heads.cap));
      counted[e] = this.heads.get(key)!;
    }
    return { ...this.totals, docs, heads: counted };
  }
}

/** Several indexes' statistics as one index of them all would have them. */
export function mergeStats(list: readonly CorpusStats[]): CorpusStats {
  const docs: Record<string, number> = {};
  const heads: Record<string, number> = {};
  for (const s of list) {
    for (const [p, n] of Object.entries(s.docs)) docs[p] = (docs[p] ?? 0) + n;
    for (const [e, n] of Object.entries(s.heads ?? {})) heads[e] = (heads[e] ?? 0) + n;
  }
  const merged: CorpusStats = { rows: sum(list.map((s) => s.rows)), tokens: sum(list.map((s) => s.tokens)), docs };
  return Object.keys(heads).length ? { ...merged, heads } : merged;
}

/** What a search over several indexes weighs one index's keyword hits with: the statistics of them all, and its own. */
export interface KeywordStats {
  all: CorpusStats;
  own: CorpusStats;
  /** This index's share of one candidate pool split across the indexes (absent: a whole pool of its own). */
  share?: PoolShare;
}

/**
 * One index's share of the union's candidate pool (a search over several, federation.ts): of the
 * keyword channel's first pass at `pool` candidates it keeps its best `first` — its chunks among the
 * best `pool` of all the indexes' passes — and of the any-term widening its best `wider`, so its
 * declarations and rerank work on its part of one pool, not on a pool of its own. `cap`: a file's
 * share of the head (setting max_hits_per_file), to tell the widening what the share left out.
 */
export interface PoolShare {
  pool: number;
  first: number;
  wider?: number;
  cap: number;
  /** Of each pass, how many of its best candidates rerank's text-level signals reach: its share of the union's (rerank.ts RerankPools; absent: its own pools). */
  rerank?: PassPools;
}

/** One index's keyword scores of a query's first pass and its widening (null: it does not widen), best first, at `pool` candidates. */
export interface FirstPass {
  pool: number;
  first: number[];
  wider: number[] | null;
}

/** How many of each index's scores are among the best `pool` of them all (ties at the cut kept). */
export function poolShares(lists: ReadonlyArray<readonly number[]>, pool: number): number[] {
  const all = lists.flat().sort((a, b) => b - a);
  if (all.length <= pool) return lists.map((l) => l.length);
  const cut = all[pool - 1];
  return lists.map((l) => l.filter((x) => x >= cut).length);
}

/**
 * The chunks' keyword scores when they are bm25() of an expression of exactly the phrases (the
 * keyword channel's own passes: their score is the sum of the phrases' parts), with the index's own
 * statistics: hitParts then reads one phrase's parts fewer (derivedPhrase).
 */
export interface HitTotals {
  scores: ReadonlyMap<number, number>;
  own: CorpusStats;
}

/**
 * Below this IDF (its phrase in more than ~38% of the index's chunks) a phrase's part is not derived
 * from the total: the union may weigh it many times more (a repository's own name, common in it and
 * rare in the union), and with it the total's rounding error.
 */
const DERIVED_MIN_IDF = 0.5;

/**
 * The phrase whose parts hitParts takes from the totals instead of reading them (-1: none): a
 * phrase's statement walks its whole doclist (twice: bm25() counts its rows first), so the one in
 * the most chunks, among those whose IDF keeps the total's rounding error far below the three
 * decimals answers show. One phrase alone is its total exactly.
 */
function derivedPhrase(phrases: readonly string[], own: CorpusStats): number {
  if (phrases.length === 1) return 0;
  let best = -1;
  phrases.forEach((p, i) => {
    const docs = own.docs[p];
    if (docs === undefined || phrases.indexOf(p) !== i || idf(own.rows, docs) < DERIVED_MIN_IDF) return;
    if (best < 0 || docs > own.docs[phrases[best]]) best = i;
  });
  return best;
}

/**
 * Each chunk's length and each phrase's bm25() part (inside a read transaction). `totals`: the
 * chunks' bm25() over exactly these phrases — one phrase's parts are then the total less the others'
 * (derivedPhrase), 0 below the least part a chunk holding the phrase can have (rounding, not a match).
 * `own`: this index's statistics (default the totals'), whose phrases of count 0 are not read.
 */
export function hitParts(db: StatReads, phrases: readonly string[], chunkIds: readonly number[], totals?: HitTotals, own?: CorpusStats): HitParts {
  const hits: HitParts = new Map();
  for (const id of chunkIds) hits.set(id, { length: 0, parts: phrases.map(() => 0) });
  if (!chunkIds.length) return hits;
  const list = JSON.stringify(chunkIds);
  // The lengths in one statement (its SQL the same whatever the ids: prepared once per connection).
  eachRow(db, 'SELECT id, sz FROM chunks_fts_docsize WHERE id IN (SELECT value FROM json_each(?))', [list], (id, sz) => {
    hits.get(id)!.length = sz instanceof Uint8Array ? sum(varints(sz)) : 0;
  }, true);
  // One statement per phrase, bm25() computed for the hits only: `+rowid` keeps the list out of
  // FTS5's own plan (given `rowid IN`, it runs the phrase once per id, counting its rows each time),
  // so FTS5 walks the phrase's rows once and SQLite keeps those in the list (FTS5 counts the
  // phrase's rows once per statement). bm25() over every row of the phrase cost 2.5x as much for a
  // phrase in 7,550 of Humanizer's chunks and 200 hits (sqlite3, one-off), more the longer its list.
  // A phrase no chunk of this index holds (`own`'s count 0) has no part anywhere: no statement.
  const derived = totals && totals.own.rows && totals.own.tokens && chunkIds.every((id) => totals.scores.has(id)) ? derivedPhrase(phrases, totals.own) : -1;
  const counts = own ?? totals?.own;
  phrases.forEach((p, i) => {
    if (i === derived || counts?.docs[p] === 0) return;
    eachRow(db, `SELECT rowid, -bm25(chunks_fts, ${WEIGHT_ARGS}) FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`, [p, list], (rowid, part) => {
      const h = hits.get(rowid);
      if (h) h.parts[i] = Number(part);
    });
  });
  if (derived >= 0) deriveParts(hits, derived, totals!, phrases[derived]);
  return hits;
}

/**
 * The `k`th phrase's parts: each chunk's total less its other parts, where that is at least half the
 * least part a chunk holding the phrase has (one occurrence in a column of weight 1, at its length:
 * FTS5's formula); below it the chunk lacks the phrase and the difference is the sum's rounding.
 */
function deriveParts(hits: HitParts, k: number, totals: HitTotals, phrase: string): void {
  const { own, scores } = totals;
  const avg = own.tokens / own.rows;
  const weight = idf(own.rows, own.docs[phrase] ?? 0);
  for (const [id, h] of hits) {
    const total = scores.get(id)!;
    if (h.parts.length === 1) {
      h.parts[0] = total;
      continue;
    }
    let rest = 0;
    h.parts.forEach((x, i) => { if (i !== k) rest += x; });
    const least = (weight * (K1 + 1)) / (1 + K1 * (1 - B + (B * h.length) / avg));
    const part = total - rest;
    h.parts[k] = part >= least / 2 ? part : 0;
  }
}

/** FTS5's IDF (fts5_aux.c): never below 1e-6. */
function idf(rows: number, docs: number): number {
  const x = Math.log((rows - docs + 0.5) / (docs + 0.5));
  return x <= 0 ? 1e-6 : x;
}

/**
 * Per chunk, its BM25 with the `global` statistics instead of the `local` ones its parts were
 * scored with: each phrase's part taken back to its weighted frequency, then weighed again (null for
 * a chunk that holds no phrase: its score stays as it was), times the phrase's query weight
 * (term-weights.ts; none: 1).
 */
export function globalScores(local: CorpusStats, global: CorpusStats, phrases: readonly string[], hits: HitParts, weights: ReadonlyMap<string, number> | null = null): Map<number, number | null> {
  const avg = local.rows ? local.tokens / local.rows : 0;
  const avgAll = global.rows ? global.tokens / global.rows : 0;
  const out = new Map<number, number | null>();
  for (const [id, h] of hits) {
    let any = false;
    let score = 0;
    phrases.forEach((p, i) => {
      const part = h.parts[i];
      if (!(part > 0) || !avg || !avgAll) return;
      any = true;
      const f = Math.min(part / idf(local.rows, local.docs[p] ?? 0), K1 + 1 - 1e-9);
      const w = (f * K1 * (1 - B + (B * h.length) / avg)) / (K1 + 1 - f);
      score += ((weights?.get(p) ?? 1) * idf(global.rows, global.docs[p] ?? 0) * w * (K1 + 1)) / (w + K1 * (1 - B + (B * h.length) / avgAll));
    });
    out.set(id, any ? score : null);
  }
  return out;
}
