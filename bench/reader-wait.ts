// How long a reader waits while another process rebuilds the index: a generated solution is indexed,
// then `hci index --full` runs in a child process (optionally under `nice -n 19`) while this process
// searches in a loop, timing each search (lock wait included). Idle searches first, for comparison.
// The indexer's own summary gives its batches and its longest write transaction. Bench-style: it
// prints figures, asserts nothing.
//   npm run build && node dist/bench/reader-wait.js [--files 3000] [--nice] [--rounds 1] [--hci other/bin/hci.js]
// (--hci: the rebuilding CLI of another build, for an A/B of the writer side.)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.js';
import { generateCorpus } from './corpus-gen.js';
import { optInt, optString, parseArgs, percentile, repoRoot } from './lib/util.js';

let HCI = path.join(repoRoot(), 'bin', 'hci.js');
const pct = percentile;
const fmt = (xs: number[]) => `n ${xs.length} · p50 ${pct(xs, 50).toFixed(0)} · p95 ${pct(xs, 95).toFixed(0)} · p99 ${pct(xs, 99).toFixed(0)} · max ${Math.max(...xs).toFixed(0)} ms`;

function run(args: string[], nice: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [cmd, argv] = nice ? ['nice', ['-n', '19', process.execPath, HCI, ...args]] : [process.execPath, [HCI, ...args]];
  const child = spawn(cmd, argv as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function main() {
  const { opts } = parseArgs(process.argv.slice(2), ['nice']);
  const files = optInt(opts, 'files', 3000);
  const rounds = optInt(opts, 'rounds', 1);
  const nice = opts.nice === true;
  HCI = optString(opts, 'hci') ?? HCI;
  const root = mkdtempSync(path.join(tmpdir(), 'hci-reader-wait-'));
  try {
    const corpus = generateCorpus(root, { files, seed: 7 });
    const first = await run(['index', root, '--quiet'], false);
    if (first.code !== 0) throw new Error(first.stderr);
    const ws = await openWorkspace(root, { settings: { lock_timeout_ms: 60_000 } });
    const queries = corpus.queries;
    const search = async (i: number) => {
      const t0 = performance.now();
      const r = await ws.search({ query: queries[i % queries.length], limit: 10 });
      if (r.status === 'error') throw new Error(JSON.stringify(r.error));
      return performance.now() - t0;
    };
    const idle: number[] = [];
    for (let i = 0; i < 100; i++) idle.push(await search(i));
    const busy: number[] = [];
    const batches: Array<{ batches: number; max_batch_ms: number; took_ms: number }> = [];
    for (let round = 0; round < rounds; round++) {
      const rebuild = run(['index', root, '--full', '--json'], nice);
      let done = false;
      void rebuild.then(() => (done = true));
      // A search resolves without a turn of the event loop (the WASM engine is synchronous): yield one
      // per search, or the child's exit is never seen.
      for (let i = 0; !done; i++) {
        busy.push(await search(i));
        await new Promise((r) => setImmediate(r));
      }
      const r = await rebuild;
      if (r.code !== 0) throw new Error(r.stderr);
      const s = JSON.parse(r.stdout) as { batches: number; max_batch_ms: number; took_ms: number };
      batches.push({ batches: s.batches, max_batch_ms: s.max_batch_ms, took_ms: s.took_ms });
    }
    ws.close();
    process.stdout.write(
      `reader wait, ${files} files (${corpus.bytes} bytes), rebuild by ${HCI} ${nice ? 'under nice -n 19' : 'at normal priority'}\n` +
        `  idle searches:              ${fmt(idle)}\n` +
        `  searches during --full:     ${fmt(busy)}\n` +
        batches.map((b, i) => `  rebuild ${i + 1}: ${b.batches} batches, longest write transaction ${b.max_batch_ms} ms, ${b.took_ms} ms in all\n`).join(''),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
