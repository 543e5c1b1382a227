// Does a search's order depend on the page size asked for? For every golden query of a corpus (the
// sample workspace by default), the first hits at `--small` (10) against the same number of hits at
// `--large` (50), in keyword mode and in hybrid mode (semantic search on with `--provider`): how many
// queries' first hits, and first five files, differ. A ranking whose head moves with the limit gives
// an agent at the default limit, a page after a cursor and an evaluation at limit 50 three different
// orders.
//
//   node dist/bench/model/limit-check.js [--root DIR --golden FILE] [--provider pretrained] [--small 10 --large 50] [--record NAME]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { readGolden } from '../lib/queries.ts';
import { copyTree, markdownTable, optString, parseArgs, repoRoot, sampleWorkspaceDir, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const src = path.resolve(optString(opts, 'root') ?? sampleWorkspaceDir());
  const golden = readGolden(optString(opts, 'golden') ?? path.join(repoRoot(), 'bench/golden/sample-workspace.jsonl'));
  const provider = optString(opts, 'provider') ?? 'pretrained';
  const small = Number(optString(opts, 'small') ?? 10);
  const large = Number(optString(opts, 'large') ?? 50);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-limit-'));
  const rows: string[][] = [];
  const out: Record<string, unknown> = { root: src, provider, small, large };
  try {
    const root = path.join(work, 'corpus');
    copyTree(src, root);
    const ws = await openWorkspace(root, { settings: { semantic: { enabled: true, provider } } as never });
    try {
      await ws.index({ full: true });
      for (const mode of ['keyword', 'hybrid'] as const) {
        let asked = 0;
        let hits = 0;
        let files = 0;
        for (const g of golden) {
          const a = await ws.search({ query: g.query, limit: small, mode });
          const b = await ws.search({ query: g.query, limit: large, mode });
          // Hybrid routed to keyword (identifier-like, ≤ 2 terms) is keyword's answer: only fused queries count.
          if (mode === 'hybrid' && a.hint?.startsWith('keyword results only')) continue;
          asked++;
          const key = (h: { path: string; start_line: number }) => `${h.path}:${h.start_line}`;
          if (a.hits.map(key).join('\n') !== b.hits.slice(0, a.hits.length).map(key).join('\n')) hits++;
          const top5 = (r: typeof a) => [...new Set(r.hits.map((h) => h.path))].slice(0, 5).join('\n');
          if (top5(a) !== top5(b)) files++;
        }
        out[mode] = { queries: asked, firstHitsDiffer: hits, firstFiveFilesDiffer: files };
        rows.push([mode, String(asked), `${hits}`, `${files}`]);
      }
    } finally {
      ws.close();
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  const text = [`### The first hits at limit ${small} against limit ${large}: ${path.basename(src)} (${golden.length} golden queries; semantic search on, ${provider})`, '',
    markdownTable(['mode', 'queries (hybrid: fused ones)', `first ${small} hits differ`, 'first five files differ'], rows), ''].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), ...out }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'limit-check', main);
