// What the ranking depth costs a first page (core/search/depth.ts): the warm latency of a new query's
// default-limit page ranked at two values of rank_depth (--depths A,B; default 8,50: 8 is the default
// page's own limit, how a page was ranked before one ranked list per query — the same pool, widening,
// fusion depth and literal cap), in one process on one index already built,
// the two workspaces asked in turn for each golden query (which one goes first alternates), each
// query new to both (each workspace keeps its own caches). Reports p50/p95 per depth and their
// ratios, and the median of the per-query ratios; nothing is written to the index.
//
//   node --experimental-transform-types bench/model/limit-cost.ts --root <indexed root> --golden FILE
//        [--depths 8,50] [--mode keyword|hybrid] [--label NAME] [--record NAME]
import * as path from 'node:path';
import * as os from 'node:os';
import { openWorkspace } from '../../runtimes/node/index.ts';
import { readGolden } from '../lib/queries.ts';
import { markdownTable, now, optString, parseArgs, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';

function pct(xs: readonly number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0;
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const root = path.resolve(optString(opts, 'root') ?? '');
  const golden = readGolden(optString(opts, 'golden') ?? '');
  const mode = (optString(opts, 'mode') ?? 'keyword') as 'keyword' | 'hybrid';
  const label = optString(opts, 'label') ?? path.basename(root);
  const depths = (optString(opts, 'depths') ?? '8,50').split(',').map(Number);
  const semantic = mode === 'hybrid' ? { semantic: { enabled: true, provider: optString(opts, 'provider') ?? 'pretrained' } } : {};
  const wss = await Promise.all(depths.map((d) => openWorkspace(root, { settings: { rank_depth: d, ...semantic } as never })));
  const times = depths.map(() => [] as number[]);
  const ratios: number[] = [];
  try {
    // Warm-up: compiled code, the file cache and the project map, on queries not timed.
    for (const g of golden.slice(0, 10)) for (const ws of wss) await ws.search({ query: `${g.query} warm`, mode });
    for (const [i, g] of golden.entries()) {
      const order = i % 2 ? [1, 0] : [0, 1];
      const t: number[] = [];
      for (const k of order) {
        const t0 = now();
        const r = await wss[k].search({ query: g.query, mode });
        t[k] = now() - t0;
        if (r.status === 'error') throw new Error(`${g.query}: ${r.error?.message}`);
      }
      t.forEach((x, k) => times[k].push(x));
      ratios.push(t[1] / Math.max(t[0], 0.01));
    }
  } finally {
    for (const ws of wss) ws.close();
  }
  const [a, b] = times;
  const f = (x: number) => x.toFixed(2);
  const load = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const [da, db] = depths;
  const rows = [
    [`rank_depth ${da}${da === 8 ? ' (the page\'s own limit, as before)' : ''}`, f(pct(a, 0.5)), f(pct(a, 0.95))],
    [`rank_depth ${db}`, f(pct(b, 0.5)), f(pct(b, 0.95))],
    [`ratio ${db} / ${da}`, (pct(b, 0.5) / pct(a, 0.5)).toFixed(2), (pct(b, 0.95) / pct(a, 0.95)).toFixed(2)],
  ];
  const text = [`### First-page latency, ${mode}, ${label}: ${golden.length} queries, warm, new to each workspace (load ${load})`, '',
    markdownTable(['ranked at', 'p50 ms', 'p95 ms'], rows), '',
    `Median of the per-query ratios (${db} / ${da}): ${pct(ratios, 0.5).toFixed(2)}.`, ''].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), root, mode, depths, queries: golden.length, load, p50: [pct(a, 0.5), pct(b, 0.5)], p95: [pct(a, 0.95), pct(b, 0.95)], medianRatio: pct(ratios, 0.5) }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'limit-cost', main);
