// The loop the probe scripts (miss-anatomy.ts, question-misses.ts, commit-misses.ts) share: each
// golden query of each `--set NAME=golden.jsonl@indexed-root`, with that set's index open (in place,
// searched only; closed after its last query, and a line on stderr), and where an answer's distinct
// files put the first relevant one. What a script does with a query is its own.
import { openWorkspace } from '../../runtimes/node/index.ts';
import { readGolden, type GoldenQuery } from './queries.ts';
import { distinct } from './metrics.ts';
import { probeSets, type ArgValue } from './util.ts';

export type ProbeWorkspace = Awaited<ReturnType<typeof openWorkspace>>;

/** Every golden query of every probe set, with its set's name and open workspace. */
export async function* probeQueries(opts: Record<string, ArgValue>, settings: Record<string, unknown>): AsyncGenerator<{ set: string; ws: ProbeWorkspace; g: GoldenQuery }> {
  for (const { name, golden, root } of probeSets(opts)) {
    const ws = await openWorkspace(root, { settings });
    try {
      for (const g of readGolden(golden)) yield { set: name, ws, g };
    } finally {
      ws.close();
    }
    process.stderr.write(`${name} done\n`);
  }
}

/** An answer's distinct files in order, and the 1-based rank of the first relevant one among them (null: none). */
export function relevantRank(hits: ReadonlyArray<{ path: string }>, relevant: readonly string[]): { files: string[]; rank: number | null } {
  const files = distinct(hits.map((h) => h.path));
  const at = files.findIndex((p) => relevant.includes(p));
  return { files, rank: at < 0 ? null : at + 1 };
}
