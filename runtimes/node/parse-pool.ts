// Node's ParsePool: one worker_threads worker (parse-worker.js) that extracts files' outlines
// (tree-sitter, most of a cold pass's CPU) while the main thread reads, hashes, cuts chunks and
// writes SQLite, so a cold pass uses two cores. Owns the worker's life (started on the first file,
// terminated on close) and the message bookkeeping. Ordering, fallback to in-thread parsing and
// when a pool is worth starting are the indexer's (core/index/indexer.ts).
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { ParsePool, PoolResult } from '../../core/index/prepare.ts';
import { PendingReplies } from '../../core/index/pool-replies.ts';
import type { ParseWorkerData, WorkerReply, WorkerRequest } from './parse-worker.ts';

/**
 * The compiled worker script. A Worker cannot run .ts under Node 20: when this module runs from
 * its TypeScript source (tests through vitest), use the built file in dist/ (`npm run build`).
 */
export function parseWorkerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/runtimes/node/parse-worker.js', import.meta.url)
    : new URL('./parse-worker.js', import.meta.url);
}

/** `faults` is for tests only (see ParseWorkerFaults); the product passes just the probe size. */
export function createNodeParsePool(opts: ParseWorkerData): ParsePool {
  let worker: Worker | null = null;
  const replies = new PendingReplies();
  const fail = (e: Error) => replies.fail(e);
  const start = (): Worker => {
    // A small young generation: parsing makes short-lived garbage, and V8's default lets the
    // worker's heap grow ~50 MB more before collecting (peak RSS at 50k chunks 295-305 MB -> 240-255 MB,
    // same speed).
    // node:worker_threads is required when a pool starts, not when the CLI does.
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    const w = new Worker(parseWorkerUrl(), { workerData: opts, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    w.on('message', (m: WorkerReply) => replies.settle(m));
    w.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
    w.on('exit', (code) => fail(new Error(`parse worker exited (code ${code})`)));
    return w;
  };
  return {
    extract(file: { path: string; lang: string }, bytes: Uint8Array): Promise<PoolResult> {
      return replies.request((id) => {
        worker ??= start();
        // A copy is transferred: the caller keeps its bytes (it classifies them itself, and parses them if this fails).
        const copy = bytes.slice();
        const msg: WorkerRequest = { id, path: file.path, lang: file.lang, bytes: copy };
        worker.postMessage(msg, [copy.buffer]);
      });
    },
    async close(): Promise<void> {
      fail(new Error('parse pool closed'));
      const w = worker;
      worker = null;
      if (w) await w.terminate();
    },
  };
}
