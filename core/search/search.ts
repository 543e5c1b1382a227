// Keyword search over the index: runs the FTS5 query (all terms, then any term), ranks with BM25
// over weighted columns plus path penalties and boosts, caps hits per file, pages by cursor and
// token budget, and renders hits in the contract shape. Freshness and status wording belong to
// the workspace facade.
import type { Database } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { FILE_FLAG } from '../index/schema.ts';
import { definitionTargets, textSignals } from './boosts.ts';
import { conventionalPairsFor } from './pairs.ts';
import { compilePathFilter } from './filters.ts';
import { clauseExpr, ftsExpression, parseQuery, queryTerms, type Clause, type ParsedQuery } from './query.ts';
import { makeSnippet } from './snippet.ts';
import type { MatchKind, SearchHit, SearchRequest } from './contract.ts';
import { baseName } from '../scan/languages.ts';
import { languageById } from '../languages/table.ts';
import { cachedStoredFile } from './file-cache.ts';
import { sliceLines } from '../index/fts-row.ts';

/** BM25 column weights: path, symbol, header, body, idents. */
export const COLUMN_WEIGHTS = { path: 3.0, symbol: 6.0, header: 2.0, body: 1.0, idents: 0.6 } as const;
const WEIGHT_ARGS = Object.values(COLUMN_WEIGHTS).join(', ');

export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 50;

export interface Candidate {
  chunkId: number;
  fileId: number;
  ordinal: number;
  path: string;
  /** The file's content hash (keys the decoded-file cache). */
  hash: string;
  lang: string;
  flags: number;
  startLine: number;
  endLine: number;
  symbolKind: string | null;
  symbolName: string | null;
  /** Loaded with the body. */
  memberKey: string | null;
  /** Loaded only for the candidates that need it (text signals, snippets). */
  body?: string;
  /** Holds only some of the query's terms (ranked after every complete match). */
  partial?: boolean;
  bm25: number;
  ftsScore: number;
  score: number;
  factors: Array<{ name: string; factor: number }>;
}

export interface RankedResult {
  parsed: ParsedQuery;
  match: MatchKind;
  /** Every ranked candidate after the per-file cap, best first. */
  ranked: Candidate[];
}

let currentFilter: ((path: string) => boolean) | null = null;
const withFilterFn = new WeakSet<object>();

function ensureFilterFunction(db: Database): void {
  if (withFilterFn.has(db)) return;
  db.createFunction('hci_path_ok', (_ctx: number, path: unknown) => (currentFilter && !currentFilter(String(path)) ? 0 : 1), {
    arity: 1,
    deterministic: false,
  });
  withFilterFn.add(db);
}

function runFts(db: Database, expr: string, filtered: boolean, pool: number): Candidate[] {
  const cols = 'c.id AS chunk_id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line, c.symbol_kind, c.symbol_name';
  // Unfiltered: rank inside FTS5 first and join only the pool (not every matching chunk) to its rows.
  const sql = filtered
    ? `SELECT ${cols}, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm
       FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
       WHERE chunks_fts MATCH ? AND hci_path_ok(f.path)
       ORDER BY bm LIMIT ?`
    : `SELECT ${cols}, t.bm
       FROM (SELECT rowid AS id, bm25(chunks_fts, ${WEIGHT_ARGS}) AS bm FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm LIMIT ?) t
       JOIN chunks c ON c.id = t.id JOIN files f ON f.id = c.file_id
       ORDER BY t.bm`;
  // Rows as arrays (in `cols` order, then bm): building an object per row cost more than the SQL.
  const rows = db.selectArrays(sql, [expr, pool]) as unknown[][];
  return rows.map(([chunkId, fileId, ordinal, path, hash, lang, flags, startLine, endLine, symbolKind, symbolName, bm]) => ({
    chunkId: Number(chunkId),
    fileId: Number(fileId),
    ordinal: Number(ordinal),
    path: String(path),
    hash: String(hash),
    lang: String(lang),
    flags: Number(flags),
    startLine: Number(startLine),
    endLine: Number(endLine),
    symbolKind: (symbolKind as string | null) ?? null,
    symbolName: (symbolName as string | null) ?? null,
    memberKey: null,
    bm25: Number(bm),
    ftsScore: -Number(bm),
    score: 0,
    factors: [],
  }));
}

/** How many of the best BM25 candidates get the (costlier) text-level signals. */
const TEXT_SIGNAL_POOL = 40;

/** Fills in the chunk text and member key of the given candidates (each file's data is inflated once). */
function loadBodies(db: Database, cands: Candidate[]): void {
  const byFile = new Map<number, Candidate[]>();
  for (const c of cands) {
    if (c.body !== undefined) continue;
    const list = byFile.get(c.fileId);
    if (list) list.push(c);
    else byFile.set(c.fileId, [c]);
  }
  for (const [fileId, list] of byFile) {
    const stored = cachedStoredFile(db, fileId, list[0].hash);
    for (const c of list) {
      c.body = stored ? sliceLines(stored.lines, c.startLine, c.endLine) : '';
      c.memberKey = stored?.keys[c.ordinal] ?? null;
    }
  }
}

/** A config chunk's key path, by segment (null for other chunks). */
function configKeyPath(c: Candidate): string[] | null {
  const sep = languageById(c.lang)?.keyPathSeparator; // json `A:B`, yaml `a.b` (the language table)
  return sep && c.memberKey ? c.memberKey.split(sep) : null;
}

function applyTextSignals(db: Database, cands: Candidate[], q: ParsedQuery): void {
  const targets = definitionTargets(q.raw);
  const cache = new Map<string, RegExp[]>();
  const top = cands.slice(0, TEXT_SIGNAL_POOL);
  loadBodies(db, top);
  for (const c of top) {
    const sig = textSignals(c.body ?? '', q.raw, targets, cache, configKeyPath(c));
    if (sig.exact) c.factors.push({ name: 'exact_text', factor: 1.5 });
    if (sig.definition) c.factors.push({ name: 'definition_like', factor: 3.0 });
  }
}

function applyFactors(c: Candidate, q: ParsedQuery, settings: Settings): void {
  const words = q.clauses.filter((x) => x.kind === 'word').map((x) => x.token);
  if (c.flags & FILE_FLAG.test) c.factors.push({ name: 'test_path_penalty', factor: settings.test_path_penalty });
  if (c.flags & FILE_FLAG.generated) c.factors.push({ name: 'generated_path_penalty', factor: settings.generated_path_penalty });
  const name = c.symbolName?.toLowerCase();
  if (name && words.includes(name)) c.factors.push({ name: 'exact_symbol_name', factor: 1.5 });
  const stem = baseName(c.path).toLowerCase().split('.')[0];
  if (stem && words.includes(stem)) c.factors.push({ name: 'file_name_match', factor: 1.25 });
  c.score = c.factors.reduce((s, f) => s * f.factor, c.ftsScore);
}

/** A word in more than this share of all chunks (and more than COMMON_MIN of them) does not widen the any-term pass. */
const COMMON_SHARE = 0.04;
const COMMON_MIN = 1000;

/**
 * The clauses the any-term pass ORs: the informative ones. Scoring every chunk that holds a common
 * word ("internal", "list") is what makes that pass slow, and BM25 ranks such chunks low anyway.
 * Common words still count in the all-terms pass. At least the two rarest clauses are kept. Small
 * indexes (where scoring everything is cheap anyway) keep every clause.
 */
function informativeClauses(db: Database, q: ParsedQuery): Clause[] {
  if (q.clauses.length < 3) return q.clauses;
  const cutoff = Math.max(chunkCount(db) * COMMON_SHARE, COMMON_MIN);
  // Counting stops past the cutoff: only "common or not" matters, and a common word's doclist is long.
  const df = q.clauses.map((c) => ({ c, n: countMatches(db, clauseExpr(c), Math.floor(cutoff) + 1) }));
  const rare = df.filter((d) => d.n <= cutoff);
  if (rare.length >= 2) return q.clauses.filter((c) => rare.some((k) => k.c === c));
  // (Almost) every word is common: keep the two rarest, counted in full.
  const full = df.map((d) => (d.n > cutoff ? { c: d.c, n: countMatches(db, clauseExpr(d.c), Number.MAX_SAFE_INTEGER) } : d));
  const kept = full.sort((a, b) => a.n - b.n).slice(0, 2);
  return q.clauses.filter((c) => kept.some((k) => k.c === c));
}

function countMatches(db: Database, expr: string, limit: number): number {
  return Number(db.selectValue('SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)', [expr, limit]));
}

const chunkCounts = new WeakMap<Database, { generation: string; count: number }>();

/** The number of chunks, counted once per index generation (every commit bumps it). */
function chunkCount(db: Database): number {
  const generation = String(db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? '');
  const seen = chunkCounts.get(db);
  if (seen && seen.generation === generation) return seen.count;
  const count = Number(db.selectValue('SELECT count(*) FROM chunks'));
  chunkCounts.set(db, { generation, count });
  return count;
}

/** Runs the query and returns every candidate in rank order (after the per-file cap). */
export function rankCandidates(db: Database, req: SearchRequest, settings: Settings, needed: number): RankedResult {
  const parsed = parseQuery(req.query);
  const filter = compilePathFilter({
    paths: [...(req.paths ?? []), ...parsed.paths],
    exts: [...(req.exts ?? []), ...parsed.exts],
    excludePaths: [...(req.exclude_paths ?? []), ...parsed.excludePaths],
    excludeKinds: req.exclude_kinds,
  });
  const pool = Math.min(2000, needed * 8 + 64);
  ensureFilterFunction(db);
  currentFilter = filter;
  try {
    const perFile = new Map<number, number>();
    const rank = (cands: Candidate[]): Candidate[] => {
      applyTextSignals(db, cands, parsed);
      for (const c of cands) applyFactors(c, parsed, settings);
      // Deterministic order across runtimes: score, then path, then line.
      cands.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine);
      return cands.filter((c) => {
        const n = (perFile.get(c.fileId) ?? 0) + 1;
        perFile.set(c.fileId, n);
        return n <= settings.max_hits_per_file;
      });
    };
    const allExpr = ftsExpression(parsed, 'all');
    if (!allExpr) return { parsed, match: 'none', ranked: [] };
    const all = rank(runFts(db, allExpr, filter !== null, pool));
    // Continue with partial matches only for questions (stop words dropped) or when nothing matched
    // all words: scoring every chunk that holds any word is what makes common-term queries slow.
    const question = parsed.dropped.length > 0;
    if (all.length >= needed || parsed.clauses.length < 2 || (all.length > 0 && !question)) {
      return { parsed, match: all.length ? 'all' : 'none', ranked: all };
    }
    // Too few chunks hold every term (common for questions over small, structural chunks): the page
    // goes on with chunks that hold some of them, always ranked below the complete matches.
    const seen = new Set(all.map((c) => c.chunkId));
    const anyExpr = informativeClauses(db, parsed).map(clauseExpr).join(' OR ');
    const some = rank(runFts(db, anyExpr, filter !== null, pool).filter((c) => !seen.has(c.chunkId)));
    for (const c of some) c.partial = true;
    const ranked = [...all, ...some];
    return { parsed, match: all.length ? (some.length ? 'all_then_any' : 'all') : some.length ? 'any' : 'none', ranked };
  } catch (e) {
    if (e instanceof HciError) throw e;
    throw new HciError('query_failed', `the query could not run: ${(e as Error).message}`, 'report this: queries are escaped and should never fail');
  } finally {
    currentFilter = null;
  }
}

const CSHARP_LANGS = new Set(['csharp', 'razor']);
export const CSHARP_NOTE = 'text match: confirm symbol facts (usages, overrides, renames) with the compiler';

/** Renders ranked candidates into contract hits (loads the files' text for snippets). */
export function renderHits(db: Database, cands: Candidate[], firstRank: number, parsed: ParsedQuery, queryKey: string): SearchHit[] {
  const terms = queryTerms(parsed);
  loadBodies(db, cands);
  const pairs = conventionalPairsFor(db, [...new Set(cands.map((c) => c.path))]);
  return cands.map((c, i) => {
    const hit: SearchHit = {
      hit_id: `${c.chunkId}.${queryKey}`,
      rank: firstRank + i,
      path: c.path,
      start_line: c.startLine,
      end_line: c.endLine,
      hit_kind: 'text_fts',
      score: round(c.score),
      fts_score: round(c.ftsScore),
      lang: c.lang,
      snippet: makeSnippet(c.body ?? '', c.startLine, terms),
    };
    if (c.symbolName) hit.symbol = { kind: c.symbolKind ?? 'symbol', name: c.symbolName, ...(c.memberKey ? { member_key: c.memberKey } : {}) };
    const paired = pairs.get(c.path);
    if (paired?.length) hit.paired = paired.map((p) => p.path);
    if (CSHARP_LANGS.has(c.lang)) hit.note = CSHARP_NOTE;
    return hit;
  });
}

export function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
