// `node --experimental-transform-types bench/question-misses.ts`: why natural-language questions miss.
// Over indexes already built (as rank-variants.ts), for every question-like query of each golden set
// (query type `question`, or a kind people write as a question: paraphrase, handwritten, architecture,
// behaviour, natural-language), the 50-hit keyword answer's distinct files are scored as the eval
// lists them (distinct files, the first up to 50); a query whose first relevant file is below rank 5 is a miss, classified by what beat it:
//   a-vocab  no relevant file in the answer, and each holds fewer than half the query's words (any
//            form the porter tokenizer folds together): the words are not the repository's words
//   a-deep   no relevant file in the answer, though one holds at least half the words
//   b-common outranked (files above it in the first five) mostly by source files holding less of the
//            query's IDF weight than the relevant file: common words won
//   b-equal  the same, the outrankers holding as much IDF weight as the relevant file: a real tie of words
//   c-role   mostly tests, samples, docs, generated or build files above it
//   d-near   mostly files in a relevant file's folder or sharing a name part with it
// Writes a table per set and kind plus the misses one by one (markdown) and the rows (JSON).
//
//   node --experimental-transform-types bench/question-misses.ts --set Mud=<golden.jsonl>@<indexed root> [--set …]
//        [--settings JSON] [--out rows.json] [--md table.md]
import { probeQueries, relevantRank } from './lib/probe-queries.ts';
import { markdownTable, optString, parseArgs, runMain, writeReport } from './lib/util.ts';
import { parseQuery, queryTerms } from '../core/search/query.ts';
import { queryType } from '../core/search/query-type.ts';
import { defaultSettings } from '../core/settings.ts';
import { pathRole } from '../core/scan/roles.ts';
import { splitIdentifier } from '../core/text/analyzer.ts';
import type { Database } from '../core/sqlite/engine.ts';

const QUESTION_KINDS = new Set(['paraphrase', 'handwritten', 'architecture', 'behaviour', 'natural-language']);
const CLASSES = ['a-vocab', 'a-deep', 'b-common', 'b-equal', 'c-role', 'd-near'] as const;
type MissClass = (typeof CLASSES)[number];

interface Miss {
  set: string;
  id: string;
  kind: string;
  type: string;
  query: string;
  rank: number | null;
  cls: MissClass | null;
  /** Query words no relevant file holds in any form. */
  absent: string[];
  above: string[];
  relevant: string[];
}

interface FileWords {
  /** term → whether the file holds it */
  held: Map<string, boolean>;
}

function termStats(db: Database, terms: readonly string[]): { n: number; idf: Map<string, number> } {
  const n = Number(db.selectValue('SELECT count(*) FROM chunks') ?? 0);
  const idf = new Map<string, number>();
  for (const t of terms) {
    const df = Number(db.selectValue('SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?', [`"${t}"`]) ?? 0);
    idf.set(t, Math.log(1 + (n - df + 0.5) / (df + 0.5)));
  }
  return { n, idf };
}

function fileWords(db: Database, path: string, terms: readonly string[]): FileWords {
  const held = new Map<string, boolean>();
  const id = db.selectValue('SELECT id FROM files WHERE path = ?', [path]);
  for (const t of terms) {
    held.set(t, id !== undefined && db.selectValue('SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT id FROM chunks WHERE file_id = ?) LIMIT 1', [`"${t}"`, id]) !== undefined);
  }
  return { held };
}

const weight = (f: FileWords, idf: Map<string, number>) => [...f.held].reduce((a, [t, h]) => a + (h ? idf.get(t)! : 0), 0);
const folderOf = (p: string) => p.slice(0, p.lastIndexOf('/') + 1);
const nameParts = (p: string) => new Set(splitIdentifier(p.slice(p.lastIndexOf('/') + 1).split('.')[0]).filter((w) => w.length > 2));

function near(path: string, relevant: readonly string[]): boolean {
  const parts = nameParts(path);
  return relevant.some((r) => folderOf(r) === folderOf(path) || [...nameParts(r)].some((w) => parts.has(w)));
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const changeWords = defaultSettings().change_words;
  const rows: Miss[] = [];
  for await (const { set: name, ws, g } of probeQueries(opts, settings)) {
    const parsed = parseQuery(g.query, { change_words: changeWords });
    const type = queryType(parsed);
    if (type !== 'question' && !(QUESTION_KINDS.has(g.kind) && type !== 'symbol')) continue;
    const { files, rank } = relevantRank((await ws.search({ query: g.query, limit: 50 })).hits, g.relevant);
    const terms = queryTerms(parsed).words;
    const row: Miss = { set: name, id: g.id!, kind: g.kind, type, query: g.query, rank, cls: null, absent: [], above: [], relevant: g.relevant };
    if (rank === null || rank > 5) {
      const { value } = await ws.read((db) => {
        const { idf } = termStats(db, terms);
        const rel = g.relevant.map((p) => fileWords(db, p, terms));
        const absent = terms.filter((t) => rel.every((f) => !f.held.get(t)));
        const relWeight = Math.max(0, ...rel.map((f) => weight(f, idf)));
        const above = files.slice(0, Math.min(5, (rank ?? 51) - 1));
        let cls: MissClass;
        if (rank === null) {
          const best = Math.max(0, ...rel.map((f) => [...f.held.values()].filter(Boolean).length));
          cls = best * 2 < terms.length ? 'a-vocab' : 'a-deep';
        } else {
          const votes: Record<string, number> = {};
          for (const p of above) {
            const c = pathRole(p) ? 'c-role' : near(p, g.relevant) ? 'd-near' : weight(fileWords(db, p, terms), idf) < relWeight - 1e-9 ? 'b-common' : 'b-equal';
            votes[c] = (votes[c] ?? 0) + 1;
          }
          cls = (Object.entries(votes).sort((x, y) => y[1] - x[1] || CLASSES.indexOf(x[0] as MissClass) - CLASSES.indexOf(y[0] as MissClass))[0][0]) as MissClass;
        }
        return { cls, absent, above };
      });
      Object.assign(row, value);
    }
    rows.push(row);
  }
  const setNames = [...new Set(rows.map((r) => r.set))];
  const count = (rs: readonly Miss[]) => [String(rs.length), String(rs.filter((r) => r.cls).length), ...CLASSES.map((c) => String(rs.filter((r) => r.cls === c).length))];
  const head = ['', 'questions', 'misses (rank > 5)', ...CLASSES];
  const out: string[] = [];
  out.push('Question-like queries and their misses by cause, per set:\n');
  out.push(markdownTable(head, [...setNames.map((s) => [s, ...count(rows.filter((r) => r.set === s))]), ['all', ...count(rows)]]));
  out.push('\nPer kind, every set pooled:\n');
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  out.push(markdownTable(head, kinds.map((k) => [k, ...count(rows.filter((r) => r.kind === k))])));
  const absent = new Map<string, number>();
  for (const r of rows) for (const w of r.absent) absent.set(w, (absent.get(w) ?? 0) + 1);
  out.push('\nQuery words no relevant file holds in any porter form (over all misses, most frequent first):\n');
  out.push([...absent].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([w, n]) => `${w} ${n}`).join(', '));
  out.push('\nThe misses:\n```');
  for (const r of rows.filter((x) => x.cls)) {
    out.push(`${r.set.padEnd(17)} ${r.cls!.padEnd(8)} ${String(r.rank ?? '-').padStart(3)} ${r.kind.padEnd(11)} ${r.query.slice(0, 90)}`);
    out.push(`${''.padEnd(30)}want ${r.relevant.slice(0, 2).join(' ')}${r.absent.length ? ` | absent: ${r.absent.join(' ')}` : ''}`);
    if (r.above.length) out.push(`${''.padEnd(30)}above ${r.above.slice(0, 3).join(' ')}`);
  }
  out.push('```');
  writeReport(opts, out.join('\n') + '\n', rows);
  return 0;
}

await runMain(import.meta.url, 'question-misses', main);
