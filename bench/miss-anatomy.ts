// `node --experimental-transform-types bench/miss-anatomy.ts`: where each miss is lost (issue 32).
// Over indexes already built (opened read-only in place, as rank-variants.ts), every golden query is
// searched as the eval does (keyword, 50 hits, distinct files); a query whose first relevant file is
// not in the first five is a miss, and the product's own ranking of its first depth tier (rerank.ts
// observeRerank: every pass's candidates, fused score and named factors, before the file tiers) says
// where the relevant file was lost:
//   a  pool     no chunk of a relevant file was a candidate of the ranking. By what the relevant file
//               holds (the first that applies): a-chunk one of its chunks holds every query term (the
//               all-terms pass had it, the pool's depth cut it); a-file its chunks hold every term
//               together, none alone (a per-file aggregation would find it); a-path at least half the
//               query's words are in its path (a path/stem match would); a-most it holds at least half
//               the terms; a-vocab fewer (the query's words are not the file's words). And where the
//               any-term pass (every clause ORed, BM25 with the channel's column weights) would list
//               the file's best chunk: its rank among chunks and among distinct files — what a deeper
//               pool, or one of distinct files, would need to reach it.
//   c  name     a candidate of the relevant file, outranked in the first five by a file of the same
//               file name or stem elsewhere (another chunk/file of the same name).
//   b  rerank   a candidate, below five otherwise: the factor that decided is the largest share of
//               log(score of the fifth file's best chunk / the relevant file's best chunk) — `bm25`
//               when the fused score itself, else the named factor (explain's name); `tiers` when the
//               relevant chunk scored higher and the file tiers or a deeper tier put it lower.
// Writes per-set and per-type tables, the deciding factors, and the misses one by one.
//
//   node --experimental-transform-types bench/miss-anatomy.ts --set Mud=<golden.jsonl>@<indexed root> [--set …]
//        [--settings JSON] [--out rows.json] [--md table.md]       (bench/miss-anatomy.sh: the 17 probe sets)
import { probeQueries, relevantRank } from './lib/probe-queries.ts';
import { markdownTable, optString, parseArgs, runMain, writeReport } from './lib/util.ts';
import { ftsExpression, parseQuery, queryTerms } from '../core/search/query.ts';
import { COLUMN_WEIGHTS } from '../core/search/channels/fts.ts';
import { queryType } from '../core/search/query-type.ts';
import { defaultSettings } from '../core/settings.ts';
import { observeRerank, type Reranker } from '../core/search/rerank.ts';
import { splitIdentifier } from '../core/text/analyzer.ts';
import type { Database } from '../core/sqlite/engine.ts';

const CLASSES = ['a-chunk', 'a-file', 'a-path', 'a-most', 'a-vocab', 'c-name', 'b-rerank'] as const;
type MissClass = (typeof CLASSES)[number];

interface Cand {
  path: string;
  base: number;
  score: number;
  factors: Map<string, number>;
}

interface Row {
  set: string;
  id: string;
  kind: string;
  type: string;
  query: string;
  rank: number | null;
  cls: MissClass | null;
  /** b-rerank: the deciding factor (bm25, a factor's name, or tiers). */
  decider?: string;
  /** a-*: the pool's size in distinct files. */
  poolFiles?: number;
  /** a-*: the relevant file's best chunk in the any-term list: its rank among chunks and among distinct files (null: it holds no term). */
  anyRank?: { chunk: number; file: number } | null;
  /** b-rerank: the relevant file's and the fifth file's best candidate (fused score, factors), and the share of the query's terms each file holds in the index. */
  gold?: { path: string; base: number; factors: Record<string, number>; held: number };
  fifth?: { path: string; base: number; factors: Record<string, number>; held: number };
  above: string[];
  relevant: string[];
}

const baseOf = (p: string) => p.slice(p.lastIndexOf('/') + 1);
const stemOf = (p: string) => baseOf(p).split('.')[0].toLowerCase();

/** Whether one chunk of the file holds every term; whether its chunks do together; how many terms it holds. */
function holds(db: Database, path: string, terms: readonly string[]): { chunk: boolean; file: boolean; held: number } {
  const id = db.selectValue('SELECT id FROM files WHERE path = ?', [path]);
  if (id === undefined || !terms.length) return { chunk: false, file: false, held: 0 };
  const inFile = 'rowid IN (SELECT id FROM chunks WHERE file_id = ?)';
  let held = 0;
  for (const t of terms) if (db.selectValue(`SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND ${inFile} LIMIT 1`, [`"${t}"`, id]) !== undefined) held++;
  const all = terms.map((t) => `"${t}"`).join(' AND ');
  const chunk = held === terms.length && db.selectValue(`SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND ${inFile} LIMIT 1`, [all, id]) !== undefined;
  return { chunk, file: held === terms.length, held };
}

const WEIGHTS = Object.values(COLUMN_WEIGHTS).join(', ');

/** The best-ranked chunk of any of `paths` in the any-term list `expr`: its 1-based rank among chunks and among distinct files. */
function anyTermRank(db: Database, paths: readonly string[], expr: string): { chunk: number; file: number } | null {
  let best: number | undefined;
  for (const p of paths) {
    const bm = db.selectValue(`SELECT bm25(chunks_fts, ${WEIGHTS}) AS bm FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ?) ORDER BY bm LIMIT 1`, [expr, p]);
    if (bm !== undefined && bm !== null && (best === undefined || Number(bm) < best)) best = Number(bm);
  }
  if (best === undefined) return null;
  const above = `SELECT t.id FROM (SELECT rowid AS id, bm25(chunks_fts, ${WEIGHTS}) AS bm FROM chunks_fts WHERE chunks_fts MATCH ?) t WHERE t.bm < ?`;
  const chunk = Number(db.selectValue(`SELECT count(*) FROM (${above})`, [expr, best]) ?? 0) + 1;
  const file = Number(db.selectValue(`SELECT count(DISTINCT c.file_id) FROM chunks c WHERE c.id IN (${above})`, [expr, best]) ?? 0) + 1;
  return { chunk, file };
}

/** At least half of the query's words (3+ letters, identifier parts counted) in the path's segments. */
function pathHolds(path: string, words: readonly string[]): boolean {
  if (!words.length) return false;
  const parts = new Set(path.split(/[/.\-_]/).flatMap((s) => splitIdentifier(s)).map((w) => w.toLowerCase()));
  const hit = words.filter((w) => parts.has(w) || [...parts].some((p) => p.length >= 4 && (p.startsWith(w) || w.startsWith(p)))).length;
  return hit * 2 >= words.length;
}

/** The component of log(top / gold) that favours top most: bm25 (the fused score) or a factor's name. */
function decider(top: Cand, gold: Cand): string {
  if (gold.score >= top.score) return 'tiers';
  const parts: Array<[string, number]> = [['bm25', Math.log(top.base / gold.base)]];
  for (const name of new Set([...top.factors.keys(), ...gold.factors.keys()])) {
    parts.push([name, Math.log((top.factors.get(name) ?? 1) / (gold.factors.get(name) ?? 1))]);
  }
  parts.sort((a, b) => b[1] - a[1]);
  return parts[0][0];
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const changeWords = defaultSettings().change_words;
  const rows: Row[] = [];
  for await (const { set: name, ws, g } of probeQueries(opts, settings)) {
    const parsed = parseQuery(g.query, { change_words: changeWords });
    const terms = queryTerms(parsed).words;
    let last: Reranker | null = null;
    let pool: Cand[] = [];
    observeRerank((t) => {
      if (t.reranker !== last) {
        last = t.reranker;
        pool = [];
      }
      for (const c of t.cands) pool.push({ path: c.path, base: c.base, score: c.score, factors: new Map(c.factors.map((f) => [f.name, f.factor])) });
    });
    try {
      await ws.search({ query: g.query, limit: 10, mode: 'keyword' });
    } finally {
      observeRerank(null);
    }
    const { files, rank } = relevantRank((await ws.search({ query: g.query, limit: 50, mode: 'keyword' })).hits, g.relevant);
    const row: Row = { set: name, id: g.id!, kind: g.kind, type: queryType(parsed), query: g.query, rank, cls: null, above: [], relevant: g.relevant };
    rows.push(row);
    if (rank !== null && rank <= 5) continue;
    row.above = files.slice(0, 5);
    const best = new Map<string, Cand>();
    for (const c of pool) if (!best.has(c.path) || c.score > best.get(c.path)!.score) best.set(c.path, c);
    const golds = g.relevant.map((p) => best.get(p)).filter((c): c is Cand => c !== undefined);
    if (!golds.length) {
      row.poolFiles = best.size;
      const words = [...new Set(parsed.clauses.flatMap((c) => (c.kind === 'word' ? (c.parts.length ? c.parts : [c.token]) : [])).map((w) => w.toLowerCase()).filter((w) => w.length >= 3))];
      const anyExpr = ftsExpression(parsed, 'any');
      const { value } = await ws.read((db) => g.relevant.map((p) => ({ ...holds(db, p, terms), path: pathHolds(p, words) })));
      row.anyRank = anyExpr ? (await ws.read((db) => anyTermRank(db, g.relevant, anyExpr))).value : null;
      const n = Math.max(1, terms.length);
      row.cls = value.some((h) => h.chunk) ? 'a-chunk' : value.some((h) => h.file) ? 'a-file' : value.some((h) => h.path) ? 'a-path' : value.some((h) => h.held * 2 >= n) ? 'a-most' : 'a-vocab';
      continue;
    }
    const gold = golds.sort((a, b) => b.score - a.score)[0];
    const sameName = row.above.some((p) => !g.relevant.includes(p) && g.relevant.some((r) => baseOf(r) === baseOf(p) || stemOf(r) === stemOf(p)));
    if (sameName) {
      row.cls = 'c-name';
      continue;
    }
    row.cls = 'b-rerank';
    const fifth = row.above.map((p) => best.get(p)).filter((c): c is Cand => c !== undefined).pop();
    row.decider = fifth ? decider(fifth, gold) : 'tiers';
    if (fifth) {
      const { value } = await ws.read((db) => [gold, fifth].map((c) => holds(db, c.path, terms).held / Math.max(1, terms.length)));
      const shown = (c: Cand, held: number) => ({ path: c.path, base: c.base, factors: Object.fromEntries(c.factors), held });
      row.gold = shown(gold, value[0]);
      row.fifth = shown(fifth, value[1]);
    }
  }
  writeReport(opts, report(rows), rows);
  return 0;
}

function report(rows: readonly Row[]): string {
  const head = ['', 'queries', 'misses', ...CLASSES];
  const count = (rs: readonly Row[]) => [String(rs.length), String(rs.filter((r) => r.cls).length), ...CLASSES.map((c) => String(rs.filter((r) => r.cls === c).length))];
  const sets = [...new Set(rows.map((r) => r.set))];
  const out: string[] = [];
  out.push('Misses (first relevant file not in the first five distinct files of the keyword answer) by where they are lost, per set:\n');
  out.push(markdownTable(head, [...sets.map((s) => [s, ...count(rows.filter((r) => r.set === s))]), ['all', ...count(rows)]]));
  out.push('\nPer query type (query-type.ts), every set pooled, and every set but sample:\n');
  const types = ['symbol', 'question', 'mixed'];
  out.push(markdownTable(head, [...types.map((t) => [t, ...count(rows.filter((r) => r.type === t))]), ...types.map((t) => [`${t} (no sample)`, ...count(rows.filter((r) => r.type === t && r.set !== 'sample'))])]));
  out.push('\nPer golden kind, every set pooled:\n');
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  out.push(markdownTable(head, kinds.map((k) => [k, ...count(rows.filter((r) => r.kind === k))])));
  const dec = new Map<string, Record<string, number>>();
  for (const r of rows) {
    if (r.cls !== 'b-rerank') continue;
    const d = dec.get(r.decider!) ?? {};
    d[r.type] = (d[r.type] ?? 0) + 1;
    d.all = (d.all ?? 0) + 1;
    dec.set(r.decider!, d);
  }
  out.push('\nb-rerank: the component of log(fifth file\'s best score / relevant file\'s best score) that favoured the fifth file most, per query type:\n');
  out.push(markdownTable(['decider', 'all', ...types], [...dec].sort((a, b) => b[1].all - a[1].all).map(([k, d]) => [k, String(d.all), ...types.map((t) => String(d[t] ?? 0))])));
  const pool = rows.filter((r) => r.cls?.startsWith('a-'));
  type Bands = ReadonlyArray<readonly [string, number]>;
  const chunkBands: Bands = [['<= 144', 144], ['145-576', 576], ['577-2000', 2000], ['> 2000', Infinity]];
  const fileBands: Bands = [['<= 25', 25], ['26-100', 100], ['101-400', 400], ['> 400', Infinity]];
  const bandRows = (key: 'chunk' | 'file', bands: Bands) => ['a-chunk', 'a-file', 'a-path', 'a-most', 'a-vocab', 'all'].map((cls) => {
    const rs = cls === 'all' ? pool : pool.filter((r) => r.cls === cls);
    const band = (n: number) => bands.findIndex(([, top]) => n <= top);
    return [cls, String(rs.length), ...bands.map((_, i) => String(rs.filter((r) => r.anyRank && band(r.anyRank[key]) === i).length)), String(rs.filter((r) => !r.anyRank).length)];
  });
  out.push('\nNever a candidate: where the any-term pass (every clause ORed, BM25) lists the relevant file\'s best chunk — its rank among chunks (the first tier\'s pool is 144 chunks, the deeper tiers\' 384, 1,344 and 2,000):\n');
  out.push(markdownTable(['', 'misses', ...chunkBands.map(([b]) => b), 'holds no term'], bandRows('chunk', chunkBands)));
  out.push('\nThe same, its rank among distinct files (the files listed before it, plus one; the first tier\'s pool holds ~25 files):\n');
  out.push(markdownTable(['', 'misses', ...fileBands.map(([b]) => b), 'holds no term'], bandRows('file', fileBands)));
  out.push('\nThe misses:\n```');
  for (const r of rows.filter((x) => x.cls)) {
    out.push(`${r.set.padEnd(17)} ${r.cls!.padEnd(8)} ${(r.decider ?? '').padEnd(22)} ${String(r.rank ?? '-').padStart(3)} ${r.type.padEnd(8)} ${r.query.slice(0, 80)}`);
    out.push(`${''.padEnd(27)}want ${r.relevant.slice(0, 2).join(' ')}${r.anyRank ? ` (any-term rank: chunk ${r.anyRank.chunk}, file ${r.anyRank.file})` : ''}`);
    out.push(`${''.padEnd(27)}top5 ${r.above.join(' ')}`);
  }
  out.push('```');
  return out.join('\n') + '\n';
}

await runMain(import.meta.url, 'miss-anatomy', main);
