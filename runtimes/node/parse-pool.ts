// Node's ParsePool: a worker_threads worker (parse-worker.js) that extracts files' outlines
// (tree-sitter, most of a cold pass's CPU) while the main thread reads,
// hashes, cuts chunks and writes SQLite, so a cold pass uses two cores. Owns the worker's life:
// started on the first file; retired once tree-sitter's WebAssembly memory in it grew past
// RETIRE_AFTER_BYTES — a memory that never shrinks, so one huge file kept it large for the rest of the
// pass: later files go to a new worker and the old one ends when its queue is done; terminated on
// close — and the message bookkeeping. Ordering, fallback to in-thread parsing and when a pool is
// worth starting are the indexer's (core/index/indexer.ts, read-ahead.ts).
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { ParsePool, PoolResult } from '../../core/index/prepare.ts';
import { PendingReplies } from '../../core/index/pool-replies.ts';
import type { ParseWorkerData, WorkerReply, WorkerRequest } from './parse-worker.ts';

/**
 * A worker whose tree-sitter memory grew past this is retired. Tree-sitter starts with 32 MB, and a
 * whole pass over AvaloniaUI/Avalonia stays there; a file whose tree needs more grows it for good.
 */
export const RETIRE_AFTER_BYTES = 48 * 1024 * 1024;

/**
 * The compiled worker script. A Worker cannot run .ts under Node 20: when this module runs from
 * its TypeScript source (tests through vitest), use the built file in dist/ (`npm run build`).
 */
export function parseWorkerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/runtimes/node/parse-worker.js', import.meta.url)
    : new URL('./parse-worker.js', import.meta.url);
}

/** A started worker; retired once it is no longer the pool's `current` (new files go to another). */
interface Running {
  worker: Worker;
  /** Requests sent to it and not answered yet. */
  outstanding: number;
}

/**
 * `faults` is for tests only (see ParseWorkerFaults); the product passes just the probe size.
 * `retireAfterBytes` (tests): RETIRE_AFTER_BYTES by default. `retired`: workers retired so far.
 */
export function createNodeParsePool(opts: ParseWorkerData & { retireAfterBytes?: number }): ParsePool & { readonly retired: number } {
  const { retireAfterBytes = RETIRE_AFTER_BYTES, ...data } = opts;
  let current: Running | null = null;
  const live = new Set<Running>();
  let retired = 0;
  let closed = false;
  const replies = new PendingReplies();
  const fail = (e: Error) => replies.fail(e);
  const start = (): Running => {
    // A small young generation: parsing makes short-lived garbage, and V8's default lets the
    // worker's heap grow ~50 MB more before collecting (peak RSS at 50k chunks 295-305 MB -> 240-255 MB,
    // same speed).
    // node:worker_threads is required when a pool starts, not when the CLI does.
    const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
    const w = new Worker(parseWorkerUrl(), { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: 8 } });
    const run: Running = { worker: w, outstanding: 0 };
    live.add(run);
    /** Retired and every request it held answered: its end is due (and no failure). */
    const finished = () => current !== run && run.outstanding === 0;
    w.on('message', (m: WorkerReply) => {
      run.outstanding--;
      replies.settle(m);
      if (current === run && m.memoryBytes > retireAfterBytes) {
        // Later files go to a new worker; this one ends once it has answered what it holds.
        current = null;
        retired++;
      }
      if (finished()) {
        live.delete(run);
        void w.terminate();
      }
    });
    w.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
    w.on('exit', (code) => {
      if (!closed && !finished()) fail(new Error(`parse worker exited (code ${code})`));
    });
    return run;
  };
  return {
    get retired() {
      return retired;
    },
    extract(file: { path: string; lang: string }, bytes: Uint8Array): Promise<PoolResult> {
      return replies.request((id) => {
        current ??= start();
        // A copy is transferred: the caller keeps its bytes (it classifies them itself, and parses them if this fails).
        const copy = bytes.slice();
        const msg: WorkerRequest = { id, path: file.path, lang: file.lang, bytes: copy };
        current.worker.postMessage(msg, [copy.buffer]);
        current.outstanding++;
      });
    },
    async close(): Promise<void> {
      closed = true;
      fail(new Error('parse pool closed'));
      current = null;
      const all = [...live];
      live.clear();
      await Promise.all(all.map((r) => r.worker.terminate()));
    },
  };
}
