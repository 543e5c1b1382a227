// The keyword channel: FTS5 with BM25 over weighted columns (path, symbol, header, body, split
// identifiers, CJK bigrams), each query word's share weighed by its weight when it has one
// (term-weights.ts). Owns the candidate SQL, the all-terms first pass and its any-term widening (whenever
// the page is short, through the informative terms only; with setting near_complete, the chunks
// holding every term but one too), scoring chunks a later stage adds (with
// what this ranking's passes already know of them: every complete match, a ranked list's hits), and
// what explain shows of it. Ranking signals beyond BM25 belong to rerank.ts.
import { clauseExpr, ftsExpression, type Clause, type ParsedQuery } from '../query.ts';
import type { SearchSession } from '../session.ts';
import { round } from '../candidates.ts';
import { rawRows } from '../../sqlite/raw-rows.ts';
import type { Channel, ChannelEntry, ChannelHit, WidenRequest } from './channel.ts';
import { withNeighbourHits } from '../neighbour-terms.ts';
import { phrasesOf, phraseWeights } from '../term-weights.ts';

/**
 * BM25 column weights: path, symbol, header, body, idents, cjk (CJK bigrams: as much as body text).
 * Identifier parts weigh as much as body words (they were 0.6): a query in words ("reset the value")
 * names code by the parts of its identifiers (`ResetValue`). Measured (issue 12): MRR@10 sample
 * 0.885 → 0.886, MudBlazor 0.662 → 0.672, FluentAvalonia 0.650 → 0.661; 1.2–2.2 helped the dev sets
 * more and cost the sample set; path 2/4.5, symbol 4/5 and header 1 were tried too.
 */
export const COLUMN_WEIGHTS = { path: 3.0, symbol: 6.0, header: 2.0, body: 1.0, idents: 1.0, cjk: 1.0 } as const;
const WEIGHT_ARGS = Object.values(COLUMN_WEIGHTS).join(', ');

/** A word in more than this share of all chunks (and more than COMMON_MIN of them) does not widen the any-term pass. */
const COMMON_SHARE = 0.04;
const COMMON_MIN = 1000;

/** Which pass found a hit (shared by its hits: one object per pass, not per row). BM25 is minus the score. */
const ALL_TERMS = Object.freeze({ terms: 'all' });
const ANY_TERM = Object.freeze({ terms: 'any' });

/** An FTS expression of a query's first keystrokes: one word of one or two characters (SearchSession.recent's `first`). */
const FIRST_KEYS = /^"[^" ]{1,2}"\*?$/;

function runFts(session: SearchSession, expr: string, pool: number, terms: 'all' | 'any'): readonly ChannelHit[] {
  // Without a path filter the answer depends on these three alone: a repeated query (a first letter,
  // a prefix backspaced to) is not ranked again in this generation. A query's first keystrokes (one
  // word of one or two characters) are kept apart, where longer queries do not push them out.
  if (!session.filtered) return session.recent(`fts:${terms}:${pool}:${expr}`, () => queryFts(session, expr, pool, terms), FIRST_KEYS.test(expr));
  return queryFts(session, expr, pool, terms);
}

const hitsById = (hits: readonly ChannelHit[]): Map<number, ChannelHit> => new Map(hits.map((h) => [h.row.chunkId, h]));

/**
 * The chunks that hold every clause of an all-terms expression, when a pass of this ranking (one
 * generation, one path filter) returned fewer than its pool: all of them (scoreChunks asks no others).
 */
const completeKey = (expr: string) => `fts-complete:${expr}`;

/** Tells this ranking run that no chunk holds every clause of `expr` (as a first pass that found none would): scoreChunks then runs no statement for it. */
export function noCompleteMatches(session: SearchSession, expr: string): void {
  session.duringRun(completeKey(expr), () => new Set<number>());
}
/** The hits of an expression's ranked pass in this ranking (rankedChunks), by chunk id. */
const rankedKey = (expr: string) => `fts-ranked:${expr}`;

/**
 * The best `count` chunks for an any-term expression (ranked as the wider pass ranks, the path filter
 * applied), by id; their hits are kept for this ranking, so scoring them again with the same
 * expression (scoreChunks) reads them instead of running the expression over the index once more
 * (definition-widen.ts: its chunks are then scored on the whole query, most often that expression).
 */
export function rankedChunks(session: SearchSession, expr: string, count: number): number[] {
  const hits = runFts(session, expr, count, 'any');
  const kept = session.duringRun(rankedKey(expr), () => new Map<number, ChannelHit>())!;
  for (const h of hits) kept.set(h.row.chunkId, h);
  return hits.map((h) => h.row.chunkId);
}

const COLS = 'c.id AS chunk_id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line, c.symbol_kind, c.symbol_name';
/** COLS without the file's (a remote pack's file list gives those: SearchSession.packedFiles). */
const CHUNK_COLS = 'c.id AS chunk_id, c.file_id, c.ordinal, c.start_line, c.end_line, c.symbol_kind, c.symbol_name';

/** A row in COLS order, then bm, as a hit. */
function hitOf(raw: ReturnType<typeof rawRows>, detail: ChannelHit['detail']): ChannelHit {
  const row = {
    chunkId: raw.double(0), fileId: raw.double(1), ordinal: raw.int(2), path: raw.text(3) ?? '', hash: raw.text(4) ?? '', lang: raw.text(5) ?? '',
    flags: raw.int(6), startLine: raw.int(7), endLine: raw.int(8), symbolKind: raw.text(9), symbolName: raw.text(10),
  };
  return { row, score: -raw.double(11), detail };
}

/**
 * The given chunks' hits for an expression (the path filter applies), by chunk id; those that do
 * not match are missing. One statement for them all: BM25 counts each phrase's matching rows once
 * per statement (fts5's bm25 keeps them per query), so a statement per chunk counted them again for
 * every chunk — a common word's doclist each time (Avalonia, 20 chunks of "public void": 80 ms one
 * by one, 5 ms in one). The chunk ids filter the match (`+rowid`: not handed to FTS5 as a lookup,
 * which would run the query once per id); the values are the same per row either way. Unfiltered,
 * a remote pack's file list gives the files' fields (SearchSession.packedFiles), as in queryFts.
 */
function scoreMany(session: SearchSession, expr: string, chunkIds: readonly number[], detail: ChannelHit['detail'], listed = true): Map<number, ChannelHit> {
  const out = new Map<number, ChannelHit>();
  // Chunks a ranked pass of this expression returned in this ranking (rankedChunks): their hits as it gave them.
  const ranked = session.duringRun<Map<number, ChannelHit>>(rankedKey(expr));
  if (ranked) {
    for (const id of chunkIds) {
      const hit = ranked.get(id);
      if (hit) out.set(id, { ...hit, detail });
    }
    chunkIds = chunkIds.filter((id) => !ranked.has(id));
  }
  if (!chunkIds.length) return out;
  // A remote pack's file list gives the file fields (no files rows read: over HTTP a request each); unfiltered only.
  const files = listed && !session.filtered ? session.packedFiles() : null;
  const st = session.statement(files
    ? `SELECT ${CHUNK_COLS}, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm
     FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
     WHERE chunks_fts MATCH ? AND +chunks_fts.rowid IN (SELECT value FROM json_each(?))`
    : `SELECT ${COLS}, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm
     FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
     WHERE chunks_fts MATCH ? AND +chunks_fts.rowid IN (SELECT value FROM json_each(?)) AND hci_path_ok(f.path)`,
  );
  let missing = false;
  try {
    st.bind([expr, JSON.stringify(chunkIds)]);
    const raw = rawRows(session.db, st);
    while (raw.step() && !missing) {
      const hit = files ? listedHitOf(raw, files, detail) : hitOf(raw, detail);
      if (hit) out.set(hit.row.chunkId, hit);
      else missing = true;
    }
  } finally {
    st.reset(true);
  }
  // A file the list lacks: joined after all (the ranked pass's hits kept).
  if (missing) for (const [id, hit] of scoreMany(session, expr, chunkIds, detail, false)) out.set(id, hit);
  return out;
}

/**
 * A query with per-word weights (term-weights.ts): the hits of `expr` scored again as the sum of
 * each phrase's own BM25 (FTS5's bm25() is that sum) times its word's weight, best first (ties in
 * the order given). Unchanged when no phrase of `expr` is weighted.
 */
function weighted(session: SearchSession, q: ParsedQuery, expr: string, hits: readonly ChannelHit[]): readonly ChannelHit[] {
  const weights = phraseWeights(q);
  const phrases = phrasesOf(expr);
  if (!weights || hits.length === 0 || !phrases.some((p) => weights.has(p))) return hits;
  const ids = hits.map((h) => h.row.chunkId);
  const scores = new Map<number, number>();
  for (const p of phrases) {
    const w = weights.get(p) ?? 1;
    for (const [id, h] of scoreMany(session, p, ids, undefined)) scores.set(id, (scores.get(id) ?? 0) + w * h.score);
  }
  return hits
    .map((h, i) => ({ h: { ...h, score: scores.get(h.row.chunkId) ?? h.score }, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}

/** The details of chunks a later stage added (scoreChunks), per stage: one object per stage and pass. */
const addedDetails = new Map<string, { all: ChannelHit['detail']; any: ChannelHit['detail'] }>();
function addedDetail(added: string): { all: ChannelHit['detail']; any: ChannelHit['detail'] } {
  let d = addedDetails.get(added);
  if (!d) addedDetails.set(added, (d = { all: Object.freeze({ terms: 'all', added }), any: Object.freeze({ terms: 'any', added }) }));
  return d;
}

/** A row in CHUNK_COLS order, then bm, with its file's fields from the file list (undefined: a file the list does not hold). */
function listedHitOf(raw: ReturnType<typeof rawRows>, files: ReadonlyMap<number, { path: string; hash: string; lang: string; flags: number }>, detail: ChannelHit['detail']): ChannelHit | undefined {
  const f = files.get(raw.double(1));
  if (!f) return undefined;
  const row = {
    chunkId: raw.double(0), fileId: raw.double(1), ordinal: raw.int(2), path: f.path, hash: f.hash, lang: f.lang,
    flags: f.flags, startLine: raw.int(3), endLine: raw.int(4), symbolKind: raw.text(5), symbolName: raw.text(6),
  };
  return { row, score: -raw.double(7), detail };
}

function queryFts(session: SearchSession, expr: string, pool: number, terms: 'all' | 'any', listed = true): readonly ChannelHit[] {
  const { db } = session;
  // A packed index tells a chunk's file from its id (hci_chunk_ok, core/index/chunk-files.ts): a
  // filtered pass then ranks inside FTS5 too, as an unfiltered one does, and joins only its pool.
  const byId = session.filtered && session.chunkFiles() !== null;
  const filtered = session.filtered && !byId;
  // A remote pack's file list gives the pool's file fields: no files rows read (a file it lacks: joined after all).
  const files = listed && !filtered ? session.packedFiles() : null;
  const cols = files ? CHUNK_COLS : COLS;
  // Unfiltered: rank inside FTS5 first and join only the pool (not every matching chunk) to its rows.
  const sql = filtered
    ? `SELECT ${cols}, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
       WHERE chunks_fts MATCH ? AND hci_path_ok(f.path)
       ORDER BY bm LIMIT ?`
    : `SELECT ${cols}, t.bm
       FROM (SELECT rowid AS id, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm FROM chunks_fts WHERE chunks_fts MATCH ?${byId ? ' AND hci_chunk_ok(rowid)' : ''} ORDER BY bm LIMIT ?) t
       JOIN chunks c ON c.id = t.id${files ? '' : ' JOIN files f ON f.id = c.file_id'}
       ORDER BY t.bm`;
  const detail = terms === 'all' ? ALL_TERMS : ANY_TERM;
  if (session.readAheadDue(`pool:${terms}:${pool}:${byId}:${filtered}:${!files}:${expr}`)) readAheadPool(session, expr, filtered ? null : pool, byId, !files);
  const st = session.statement(sql);
  let missing = false;
  const out: ChannelHit[] = [];
  try {
    st.bind([expr, pool]);
    // Straight from WASM memory, in `cols` order, then bm (oo1's getters cost as much as the query).
    const raw = rawRows(db, st);
    while (raw.step() && !missing) {
      const hit = files ? listedHitOf(raw, files, detail) : hitOf(raw, detail);
      if (hit) out.push(hit);
      else missing = true;
    }
  } finally {
    st.reset(true);
  }
  return missing ? queryFts(session, expr, pool, terms, false) : out;
}

/**
 * For a storage whose reads are round trips (a remote index): the rows a pass reads by id fetched
 * ahead in few requests — its terms' doclists, the lengths of the matching chunks (BM25 reads each), then the ranking
 * statement alone for the pool's chunk rows and their files' rows (its FTS pages are then cached
 * for the joined statement, which reads those rows one page at a time). A filtered pass (`pool`
 * null) joins every matching chunk to its rows before it ranks: those rows, all of them — unless the
 * index tells chunks' files by id (`byId`: a packed index), when it ranks like an unfiltered one.
 */
function readAheadPool(session: SearchSession, expr: string, pool: number | null, byId: boolean, fileRows = true): void {
  // The doclists every statement below reads, in one request (not a page at a time as FTS5 reads them).
  session.prefetchDoclists(expr);
  // BM25 reads the length of every matching chunk (that passes the filter, told by id): those rows
  // first (the doclists alone tell which).
  const ok = byId ? ' AND hci_chunk_ok(rowid)' : '';
  const matching = session.statement(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?${ok}`);
  let matched: number[];
  try {
    matched = (matching.bind([expr]), collectNumbers(matching));
  } finally {
    matching.reset(true);
  }
  session.prefetchRows('chunks_fts_docsize', matched);
  let chunkIds = matched;
  if (pool !== null) {
    const ids = session.statement(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?${ok} ORDER BY bm25(chunks_fts, ${WEIGHT_ARGS}) LIMIT ?`);
    try {
      chunkIds = (ids.bind([expr, pool]), collectNumbers(ids));
    } finally {
      ids.reset(true);
    }
  }
  session.prefetchRows('chunks', chunkIds);
  // (`fileRows` false: the pass takes its files' fields from the file list, SearchSession.packedFiles.)
  if (!fileRows) return;
  const files = session.statement('SELECT DISTINCT file_id FROM chunks WHERE id IN (SELECT value FROM json_each(?))');
  try {
    files.bind([JSON.stringify(chunkIds)]);
    session.prefetchRows('files', collectNumbers(files));
  } finally {
    files.reset(true);
  }
}

function collectNumbers(st: ReturnType<SearchSession['statement']>): number[] {
  const out: number[] = [];
  while (st.step()) out.push(Number(st.get(0)));
  return out;
}

/**
 * How common each clause is, as the any-term pass judges it: the chunks of the index (the cutoff is
 * a share of them) and a clause's matching chunks, counted up to a limit. This index's own by
 * default; a search over several indexes passes the counts of them all (channels/fts-global.ts), so
 * that a word is common or not as it is in one index of the union.
 */
export interface ClauseCounts {
  chunks(session: SearchSession): number;
  count(session: SearchSession, expr: string, limit: number): number;
  /**
   * Complete matches the first passes of the OTHER indexes keep at their head (a search over several
   * indexes: one index of the union widens only when all of them together keep no more than the
   * page needs, and judges "nothing complete" by them all); 0 alone.
   */
  othersKept: number;
}

const localCounts: ClauseCounts = { chunks: (session) => session.chunkCount(), count: docFreq, othersKept: 0 };

/**
 * The clauses the any-term pass ORs: the informative ones. Scoring every chunk that holds a common
 * word ("internal", "list") is what makes that pass slow, and BM25 ranks such chunks low anyway.
 * Common words still count in the all-terms pass. To fill a page after complete matches, only the
 * rare clauses widen (none rare: no widening — the other chunks hold only words most chunks hold);
 * when nothing held every clause, at least the two rarest are kept.
 */
function informativeClauses(session: SearchSession, q: ParsedQuery, haveComplete: boolean, counts: ClauseCounts): Clause[] {
  if (!haveComplete && q.clauses.length < 3) return q.clauses;
  const cutoff = Math.floor(Math.max(counts.chunks(session) * COMMON_SHARE, COMMON_MIN));
  // Counting stops past the cutoff: only "common or not" matters, and a common word's doclist is long.
  const df = q.clauses.map((c) => ({ c, n: counts.count(session, clauseExpr(c), cutoff + 1) }));
  const rare = df.filter((d) => d.n <= cutoff);
  if (haveComplete || rare.length >= 2) return rare.map((d) => d.c);
  // (Almost) every word is common and nothing holds them all: keep the two rarest, counted in full.
  const full = df.map((d) => (d.n > cutoff ? { c: d.c, n: counts.count(session, clauseExpr(d.c), Number.MAX_SAFE_INTEGER) } : d));
  const kept = full.sort((a, b) => a.n - b.n).slice(0, 2);
  return q.clauses.filter((c) => kept.some((k) => k.c === c));
}

/** How many chunks match (counted up to `limit`), once per index generation and expression. */
function docFreq(session: SearchSession, expr: string, limit: number): number {
  return session.cached(`df:${limit}:${expr}`, () => Number(session.value('SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)', [expr, limit])));
}

/**
 * The keyword channel's widening (ftsChannel.widen) with the given clause counts: fewer chunks than
 * the page needs hold every term, so the page goes on with chunks that hold some of them (the
 * fill-the-page policy), through the informative clauses only — scoring every chunk that holds a
 * common word is what makes common-term queries slow.
 */
export function widenFts(session: SearchSession, q: ParsedQuery, pool: number, page: WidenRequest, counts: ClauseCounts = localCounts, anyExpr = widenExpr(session, q, page, counts)): readonly ChannelHit[] | null {
  if (!anyExpr) return null;
  const { rare, near } = splitNear(q, anyExpr);
  const pass = (expr: string | null) => (expr ? runFts(session, expr, pool, 'any').filter((h) => !page.seen.has(h.row.chunkId)) : []);
  // (With near-complete groups every hit may hold every clause: weights are read over them all, each once.)
  const hits = near ? weighted(session, q, ftsExpression(q, 'any')!, withNear(session, q, pass(rare), pass(near))) : weighted(session, q, anyExpr, pass(anyExpr));
  // A question's neighbour terms (setting neighbour_terms) join this pass at their low weight.
  return q.neighbours ? withNeighbourHits(session, q, pool, hits, page.seen, (expr, n) => runFts(session, expr, n, 'any')) : hits;
}

/**
 * The any-term expression widenFts runs (its informative clauses ORed; its hits' BM25 is over these
 * phrases alone), or null when it does not widen.
 */
export function widenExpr(session: SearchSession, q: ParsedQuery, page: WidenRequest, counts: ClauseCounts = localCounts): string | null {
  // (Also when exactly the page's worth hold every term: whether more hits exist decides the next cursor.)
  const kept = page.kept + counts.othersKept;
  const full = kept > page.needed;
  if ((full && q.nearComplete !== 'always') || q.clauses.length < 2) return null;
  const clauses = full ? [] : informativeClauses(session, q, kept > 0, counts);
  const near = q.nearComplete && q.clauses.length >= NEAR_MIN_CLAUSES && clauses.length < q.clauses.length ? nearGroups(q) : null;
  const rare = clauses.length === 0 ? null : ftsExpression(q, 'any', clauses)!;
  return near ? (rare ? `${rare} OR ${near}` : near) : rare;
}

/** Near-complete widening (ParsedQuery.nearComplete) needs this many clauses: with two, every-clause-but-one is any clause. */
const NEAR_MIN_CLAUSES = 3;

/**
 * A widening expression's two parts: its informative clauses ORed (null: none) and the near-complete
 * groups widenExpr puts after them (null: none), which widenFts runs apart and scores again.
 */
function splitNear(q: ParsedQuery, anyExpr: string): { rare: string | null; near: string | null } {
  const near = q.nearComplete && q.clauses.length >= NEAR_MIN_CLAUSES ? nearGroups(q) : null;
  if (!near || !anyExpr.endsWith(near)) return { rare: anyExpr, near: null };
  const rare = anyExpr.slice(0, anyExpr.length - near.length).replace(/ OR $/, '');
  return { rare: rare || null, near };
}

/**
 * Every clause but one, ANDed, for each clause left out, ORed: the chunks that hold all of the
 * query's words but one — common words among them, which the informative clauses leave out (a
 * Humanizer question's `humanize`, in most of its chunks' paths). Each group is an intersection, so
 * the common words' doclists are read, never scored whole.
 */
function nearGroups(q: ParsedQuery): string {
  const exprs = q.clauses.map(clauseExpr);
  return `(${exprs.map((_, i) => `( ${exprs.filter((__, j) => j !== i).join(' AND ')})`).join(' OR ')})`;
}

/**
 * The rare clauses' hits with the near-complete groups' hits among them, best first: a chunk holding
 * every clause but one is scored over every clause ORed once (the groups repeat each clause, so their
 * BM25 is not the first pass's scale; a rare-clause hit's score leaves its common words out), as the
 * plain any-term pass over all the query's words would score it; the others keep their scores.
 */
function withNear(session: SearchSession, q: ParsedQuery, rare: readonly ChannelHit[], near: readonly ChannelHit[]): ChannelHit[] {
  if (!near.length) return [...rare];
  const scored = scoreMany(session, ftsExpression(q, 'any')!, near.map((h) => h.row.chunkId), ANY_TERM);
  const out = new Map<number, ChannelHit>(rare.map((h) => [h.row.chunkId, h]));
  for (const h of near) out.set(h.row.chunkId, scored.get(h.row.chunkId) ?? h);
  return [...out.values()].sort((a, b) => b.score - a.score);
}

/** The FTS expressions whose counts widenFts reads: each clause's (a search over several indexes adds them up first). */
export function clauseExprs(q: ParsedQuery): string[] {
  return q.clauses.length < 2 ? [] : q.clauses.map(clauseExpr);
}

export const ftsChannel: Channel = {
  name: 'fts',
  hitKind: 'text_fts',
  scoreField: 'fts_score',

  /** Chunks that hold every clause. */
  search(session, q, pool) {
    const expr = ftsExpression(q, 'all');
    if (!expr) return [];
    const hits = runFts(session, expr, pool, 'all');
    // Fewer than the pool: every chunk that holds every clause (under this search's path filter) is here.
    if (hits.length < pool) session.duringRun(completeKey(expr), () => new Set(hits.map((h) => h.row.chunkId)));
    return weighted(session, q, expr, hits);
  },

  /** Fewer chunks than the page needs hold every term: widenFts with this index's counts. */
  widen(session, q, pool, page: WidenRequest) {
    return widenFts(session, q, pool, page);
  },

  /** The chunks that hold every clause, else any (a declaration's chunk in a mixed query holds its name, not the words). */
  scoreChunks(session, q, chunkIds, added = 'declaration') {
    const all = ftsExpression(q, 'all');
    const any = ftsExpression(q, 'any');
    if (!all || !any) return [];
    const detail = addedDetail(added);
    // When this search's first pass listed every complete match, only those among the chunks can
    // hold every clause: the statement runs for them alone, or not at all (the chunks a later stage
    // adds lie outside that pass, so it mostly does not run).
    const known = session.duringRun<ReadonlySet<number>>(completeKey(all));
    const allIds = known ? chunkIds.filter((id) => known.has(id)) : chunkIds;
    const byAll = hitsById(weighted(session, q, all, [...scoreMany(session, all, allIds, detail.all).values()]));
    const rest = q.clauses.length > 1 ? chunkIds.filter((id) => !byAll.has(id)) : [];
    const byAny = hitsById(weighted(session, q, any, [...scoreMany(session, any, rest, detail.any).values()]));
    const out: ChannelHit[] = [];
    for (const id of chunkIds) {
      const hit = byAll.get(id) ?? byAny.get(id);
      if (hit) out.push(hit);
    }
    return out;
  },

  /** The raw BM25 (lower is better; the score is its negation), the pass that found it, the weights. */
  explain(entry: ChannelEntry) {
    const d = entry.detail;
    // A hit the question's neighbour terms touched: its own BM25, theirs, and which ones it holds.
    if (d?.neighbours !== undefined) return { bm25: round(Number(d.bm25)), terms: d.terms, column_weights: COLUMN_WEIGHTS, neighbour_bm25: round(Number(d.neighbour_bm25)), neighbours: d.neighbours };
    // (A chunk a later stage added: which one — a declaration, definition_widen.)
    if (d?.added !== undefined) return { bm25: round(-entry.score), terms: d.terms, added: d.added, column_weights: COLUMN_WEIGHTS };
    return { bm25: round(-entry.score), terms: d?.terms, column_weights: COLUMN_WEIGHTS };
  },
};
