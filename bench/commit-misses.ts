// `node --experimental-transform-types bench/commit-misses.ts`: why commit-style queries miss (issue 32).
// Over indexes already built (as rank-variants.ts), for every golden query of kind `commit` of each set,
// the 50-hit keyword answer's distinct files are scored as the eval lists them; for each query the
// best-ranked relevant file ("the file") is described by where the query's words are:
//   file    share of the query's words (any form the porter tokenizer folds together) the file holds
//   chunk   the largest share one chunk of the file holds (file > chunk: the words are spread over its chunks)
//   path    share of the words its path holds (lowercase substring, a long word without -s/-ed/-ing)
//   test    a test file whose name holds the file's stem is in the answer, above the file
// and a query whose file is below rank 5 (or absent) is a miss, classified by what beat it:
//   absent   the file is not in the answer
//   role     mostly tests, samples, docs, generated or build files above it
//   near     mostly files in its folder or sharing a name part with it
//   more     mostly source files holding at least the file's IDF weight of the query's words
//   fewer    mostly source files holding less of it (the file holds more words: evidence lost)
// Writes per-set and pooled tables, the word-location table of hits and misses, and the misses one by one.
//
//   node --experimental-transform-types bench/commit-misses.ts --set Mud=<golden.jsonl>@<indexed root> [--set …]
//        [--settings JSON] [--kind commit] [--out rows.json] [--md table.md]
import { probeQueries, relevantRank } from './lib/probe-queries.ts';
import { markdownTable, mean, optString, parseArgs, runMain, writeReport } from './lib/util.ts';
import { parseQuery, queryTerms } from '../core/search/query.ts';
import { defaultSettings } from '../core/settings.ts';
import { pathRole } from '../core/scan/roles.ts';
import { splitIdentifier } from '../core/text/analyzer.ts';
import type { Database } from '../core/sqlite/engine.ts';

const CLASSES = ['absent', 'role', 'near', 'more', 'fewer'] as const;
type MissClass = (typeof CLASSES)[number];

interface Row {
  set: string;
  id: string;
  query: string;
  terms: string[];
  rank: number | null;
  file: string;
  fileShare: number;
  chunkShare: number;
  pathShare: number;
  testAbove: boolean;
  cls: MissClass | null;
  above: string[];
}

const folderOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
const stemOf = (p: string) => p.slice(p.lastIndexOf('/') + 1).split('.')[0];
const nameParts = (p: string) => new Set(splitIdentifier(stemOf(p)).filter((w) => w.length > 2));
const bareForm = (t: string) => (t.length > 5 ? t.replace(/(?:ing|ed|es|s)$/, '') : t);

function near(path: string, file: string): boolean {
  const parts = nameParts(path);
  return folderOf(file) === folderOf(path) || [...nameParts(file)].some((w) => parts.has(w));
}

function idfOf(db: Database, terms: readonly string[]): Map<string, number> {
  const n = Number(db.selectValue('SELECT count(*) FROM chunks') ?? 0);
  const idf = new Map<string, number>();
  for (const t of terms) {
    const df = Number(db.selectValue('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?', [`"${t}"`]) ?? 0);
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return idf;
}

/** Per term, the chunk ids of the file that hold it. */
function chunkHolders(db: Database, path: string, terms: readonly string[]): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  const id = db.selectValue('SELECT id FROM files WHERE path = ?', [path]);
  for (const t of terms) {
    const ids = id === undefined ? [] : db.selectValues('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT id FROM chunks WHERE file_id = ?)', [`"${t}"`, id]).map(Number);
    out.set(t, new Set(ids));
  }
  return out;
}

function shares(holders: Map<string, Set<number>>, n: number): { file: number; chunk: number; weight: (idf: Map<string, number>) => number } {
  const held = [...holders].filter(([, s]) => s.size > 0);
  const perChunk = new Map<number, number>();
  for (const [, s] of holders) for (const c of s) perChunk.set(c, (perChunk.get(c) ?? 0) + 1);
  return {
    file: n ? held.length / n : 0,
    chunk: n ? Math.max(0, ...perChunk.values()) / n : 0,
    weight: (idf) => held.reduce((a, [t]) => a + idf.get(t)!, 0),
  };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const kind = optString(opts, 'kind') ?? 'commit';
  const changeWords = (settings.change_words as string[] | undefined) ?? defaultSettings().change_words;
  const rows: Row[] = [];
  for await (const { set: name, ws, g } of probeQueries(opts, settings)) {
    if (g.kind !== kind) continue;
    const parsed = parseQuery(g.query, { change_words: changeWords });
    const terms = queryTerms(parsed).words;
    const { files, rank } = relevantRank((await ws.search({ query: g.query, limit: 50 })).hits, g.relevant);
    const file = rank === null ? g.relevant[0] : files[rank - 1];
    const { value } = await ws.read((db) => {
      const idf = idfOf(db, terms);
      const mine = shares(chunkHolders(db, file, terms), terms.length);
      const lower = file.toLowerCase();
      const pathShare = terms.length ? terms.filter((t) => lower.includes(bareForm(t))).length / terms.length : 0;
      const stem = stemOf(file).toLowerCase();
      const upTo = files.slice(0, (rank ?? 51) - 1);
      const testAbove = stem.length > 2 && upTo.some((p) => pathRole(p)?.role === 'test' && stemOf(p).toLowerCase().includes(stem));
      const above = files.slice(0, Math.min(5, (rank ?? 51) - 1));
      let cls: MissClass | null = null;
      if (rank === null) cls = 'absent';
      else if (rank > 5) {
        const votes: Record<string, number> = {};
        const mineWeight = mine.weight(idf);
        for (const p of above) {
          const c = pathRole(p) ? 'role' : near(p, file) ? 'near' : shares(chunkHolders(db, p, terms), terms.length).weight(idf) < mineWeight - 1e-9 ? 'fewer' : 'more';
          votes[c] = (votes[c] ?? 0) + 1;
        }
        cls = Object.entries(votes).sort((x, y) => y[1] - x[1] || CLASSES.indexOf(x[0] as MissClass) - CLASSES.indexOf(y[0] as MissClass))[0][0] as MissClass;
      }
      return { fileShare: mine.file, chunkShare: mine.chunk, pathShare, testAbove, cls, above };
    });
    rows.push({ set: name, id: g.id!, query: g.query, terms, rank, file, ...value });
  }
  const out: string[] = [];
  const setNames = [...new Set(rows.map((r) => r.set))];
  const f3 = (x: number) => x.toFixed(3);
  const mrr = (rs: readonly Row[]) => mean(rs.map((r) => (r.rank !== null && r.rank <= 10 ? 1 / r.rank : 0)));
  const r5 = (rs: readonly Row[]) => mean(rs.map((r) => (r.rank !== null && r.rank <= 5 ? 1 : 0)));
  const count = (rs: readonly Row[]) => [String(rs.length), f3(r5(rs)), f3(mrr(rs)), String(rs.filter((r) => r.cls).length), ...CLASSES.map((c) => String(rs.filter((r) => r.cls === c).length))];
  out.push(`Queries of kind \`${kind}\` and their misses (first relevant file below rank 5) by what beat it, per set (R@5 / MRR@10 of the first relevant file over the 50-hit answer's distinct files):\n`);
  out.push(markdownTable(['set', 'queries', 'R@5', 'MRR@10', 'misses', ...CLASSES], [...setNames.map((s) => [s, ...count(rows.filter((r) => r.set === s))]), ['all', ...count(rows)]]));
  out.push('\nWhere the query\'s words are, for the first relevant file (mean shares; hits = rank ≤ 5):\n');
  const loc = (rs: readonly Row[]) => [String(rs.length), f3(mean(rs.map((r) => r.fileShare))), f3(mean(rs.map((r) => r.chunkShare))), String(rs.filter((r) => r.fileShare > r.chunkShare + 1e-9).length), f3(mean(rs.map((r) => r.pathShare))), String(rs.filter((r) => r.pathShare > 0).length), String(rs.filter((r) => r.testAbove).length)];
  const hits = rows.filter((r) => !r.cls);
  out.push(markdownTable(['', 'n', 'file share', 'best chunk share', 'file > chunk', 'path share', 'path holds a word', 'its test above it'], [['hits', ...loc(hits)], ...CLASSES.map((c) => [`miss: ${c}`, ...loc(rows.filter((r) => r.cls === c))]), ['all misses', ...loc(rows.filter((r) => r.cls))]]));
  out.push('\nThe misses (rank, class, file share / best chunk share / path share):\n```');
  for (const r of rows.filter((x) => x.cls)) {
    out.push(`${r.set.padEnd(17)} ${String(r.rank ?? '-').padStart(3)} ${r.cls!.padEnd(6)} ${f3(r.fileShare)}/${f3(r.chunkShare)}/${f3(r.pathShare)} ${r.query.slice(0, 90)}`);
    out.push(`${''.padEnd(22)}want ${r.file} | words: ${r.terms.join(' ')}`);
    if (r.above.length) out.push(`${''.padEnd(22)}above ${r.above.slice(0, 3).join(' ')}`);
  }
  out.push('```');
  writeReport(opts, out.join('\n') + '\n', rows);
  return 0;
}

await runMain(import.meta.url, 'commit-misses', main);
