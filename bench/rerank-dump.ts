// `node --experimental-transform-types bench/rerank-dump.ts`: records, for every query of the given
// golden sets over indexes already built, the candidate pool rerank scored (core/search/rerank.ts
// observeRerank: each pass's candidates with their fused score and every named factor, before the
// file tiers), the query's type, and the product's own answer (the files of a 50-hit search) — the
// input of bench/rerank-fit.ts, which replays and re-weighs the factors offline. The product's code
// path ranks: nothing here scores a candidate. Dump with factor_weights off: its factors are recorded
// as raised.
//
// One search at limit 10 per query is observed: a page of ten is the first depth tier (depth.ts,
// rank_depth 10), ranked once; of a search whose pool was deepened (pipeline.ts rankPasses) the last
// ranking is kept (the one answered from). A second search at limit 50 records the product's answer.
//
//   bench/rerank-dump.sh dump.ndjson (the 17 probe sets), or
//   node --experimental-transform-types bench/rerank-dump.ts --set Mud=<golden.jsonl>@<indexed root> [--set …]
//        [--settings '{"setting":v}'] --out dump.ndjson
import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { readGolden } from './lib/queries.ts';
import { optString, parseArgs, runMain } from './lib/util.ts';
import { parseQuery } from '../core/search/query.ts';
import { isStated } from '../core/search/query-type.ts';
import { defaultSettings } from '../core/settings.ts';
import { observeRerank, type Reranker, type RerankTrace } from '../core/search/rerank.ts';

/** One candidate as rerank scored it: path, file id, content hash, start line, variant group, fused score, factors. */
export interface DumpCandidate {
  p: string;
  f: number;
  h: string;
  l: number;
  g?: string;
  b: number;
  x: Array<[string, number]>;
}

export interface DumpPass {
  maxHitsPerFile: number;
  sameFileFactor: number;
  collapseCopies?: boolean;
  cands: DumpCandidate[];
}

export interface DumpQuery {
  set: string;
  id: string;
  query: string;
  kind: string;
  /** rerank's query type (query-type.ts), and whether the query is stated, not asked (isStated). */
  type: string;
  stated: boolean;
  relevant: string[];
  /** The product's answer: the paths of the 50-hit search, in order. */
  answer: string[];
  /** The observed ranking's passes, in order (partial_matches by_score: one). */
  passes: DumpPass[];
}

function snapshot(t: RerankTrace): DumpPass {
  return {
    maxHitsPerFile: t.options.maxHitsPerFile,
    sameFileFactor: t.options.sameFileFactor,
    collapseCopies: t.options.collapseCopies,
    cands: t.cands.map((c) => {
      const g = t.options.groupOf?.(c);
      return { p: c.path, f: c.fileId, h: c.hash, l: c.startLine, ...(g !== undefined ? { g } : {}), b: c.base, x: c.factors.map((f) => [f.name, f.factor] as [string, number]) };
    }),
  };
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const sets = ([] as string[]).concat((opts.set as string | string[] | undefined) ?? []);
  const out = optString(opts, 'out');
  if (!sets.length || !out) throw new Error('give --set NAME=golden.jsonl@root (one or more) and --out dump.ndjson');
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const changeWords = defaultSettings().change_words;
  const fd = fs.openSync(out, 'w');
  try {
    for (const spec of sets) {
      const m = /^([^=]+)=(.+)@(.+)$/.exec(spec);
      if (!m) throw new Error(`--set NAME=golden.jsonl@root, got ${spec}`);
      const [, name, golden, root] = m;
      const ws = await openWorkspace(root, { settings });
      try {
        for (const g of readGolden(golden)) {
          let last: Reranker | null = null;
          let passes: DumpPass[] = [];
          let type = '';
          observeRerank((t) => {
            if (t.reranker !== last) {
              last = t.reranker;
              passes = [];
              type = t.reranker.type;
            }
            passes.push(snapshot(t));
          });
          try {
            await ws.search({ query: g.query, limit: 10 });
          } finally {
            observeRerank(null);
          }
          const res = await ws.search({ query: g.query, limit: 50 });
          const row: DumpQuery = {
            set: name, id: g.id!, query: g.query, kind: g.kind, type, stated: isStated(parseQuery(g.query, { change_words: changeWords })),
            relevant: g.relevant, answer: res.hits.map((h) => h.path), passes,
          };
          fs.writeSync(fd, JSON.stringify(row) + '\n');
        }
      } finally {
        ws.close();
      }
      process.stderr.write(`${name} dumped\n`);
    }
  } finally {
    fs.closeSync(fd);
  }
  return 0;
}

await runMain(import.meta.url, 'rerank-dump', main);
