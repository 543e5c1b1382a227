// Run by Deno with the documented narrow permissions:
//   deno run <flags> test/helpers/deno-session.ts '<json>'
// where json = { root, index?: 'before' | 'after', full?, queries: SearchRequest[], repeats? }.
// Opens the workspace through the Deno library entry (runtimes/deno/mod.ts, what users import),
// optionally indexes it (timed), runs every query
// `repeats` times (timed) and prints { summary, index_ms, answers, times } as JSON. One process for
// many queries keeps the suites fast; the CLI (runtimes/deno/cli.ts) covers one-shot use.
import { openWorkspace } from '../../runtimes/deno/mod.ts';
import { deno } from '../../runtimes/deno/deno-api.ts';
import type { SearchRequest, SearchResponse } from '../../core/search/contract.ts';
import type { IndexSummary } from '../../core/index/indexer.ts';

const cfg = JSON.parse(deno().args[0]) as { root: string; index?: 'before' | 'after'; full?: boolean; queries: SearchRequest[]; repeats?: number };
const t0 = performance.now();
const ws = await openWorkspace(cfg.root);
const open_ms = performance.now() - t0;
let summary: IndexSummary | null = null;
let index_ms: number | null = null;
const index = async () => {
  const t = performance.now();
  summary = await ws.index({ full: cfg.full });
  index_ms = performance.now() - t;
};
try {
  if (cfg.index === 'before') await index();
  const answers: SearchResponse[] = [];
  const times: number[] = [];
  for (const q of cfg.queries) {
    let first: SearchResponse | null = null;
    for (let i = 0; i < (cfg.repeats ?? 1); i++) {
      const t = performance.now();
      const r = await ws.search(q);
      times.push(performance.now() - t);
      first ??= r;
    }
    answers.push(first!);
  }
  if (cfg.index === 'after') await index();
  console.log(JSON.stringify({ open_ms, summary, index_ms, answers, times }));
} finally {
  ws.close();
}
