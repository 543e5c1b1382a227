// Node's ParsePool: worker_threads workers (parse-worker.js), one per core the main thread leaves (parseWorkerCount),
// that extract files' outlines (tree-sitter, most of a cold pass's CPU) while the main thread reads,
// hashes, cuts chunks and writes SQLite, so a cold pass uses every core it may. Owns the workers' life:
// each file goes to the worker with the fewest bytes queued, a new worker starting only while the
// others all have work; each retired once tree-sitter's WebAssembly memory in it grew past
// RETIRE_AFTER_BYTES — a memory that never shrinks, so one huge file kept it large for the rest of the
// pass — or its V8 heap past RETIRE_AFTER_HEAP_BYTES (V8 keeps the pages it grew into): the worker ends at once and the files queued in it go to a new one (a retired worker that
// drained its queue beside its successor held two workers' memory for that while: dotnet-8's cold
// pass peaked there); terminated on close — and the message bookkeeping. Ordering, fallback to in-thread parsing and when a pool is
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
 * A worker whose V8 heap (committed) grew past this is retired too. Over AvaloniaUI/Avalonia the
 * worker's heap stays at 22-40 MB; over dotnet-8 it stepped up at vendored web bundles to 108 and
 * 187.5 MB in two passes and never shrank, and the pass's peak RSS sat there
 * (bench/results/store-memory-mem10.md). At 64 MB, dotnet-8's pass still peaked at its end with the
 * worker's heap at 46-63 MB (mem-timeline-dotnet-8-mem11.md); a retire costs ~0.2 s of CPU (a new
 * worker compiles its grammars: bench/results/index-threads-avalonia-mem12.md).
 */
export const RETIRE_AFTER_HEAP_BYTES = 48 * 1024 * 1024;

/**
 * The compiled worker script. A Worker cannot run .ts under Node 20: when this module runs from
 * its TypeScript source (tests through vitest), use the built file in dist/ (`npm run build`).
 */
export function parseWorkerUrl(): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL('../../dist/runtimes/node/parse-worker.js', import.meta.url)
    : new URL('./parse-worker.js', import.meta.url);
}

/** A request sent to a worker: the caller's bytes (it keeps them anyway), to send again if that worker is retired first. */
interface Sent {
  file: { path: string; lang: string };
  bytes: Uint8Array;
  rows: boolean;
}

/** A started worker, in a slot of the pool until it is retired or the pool closes. */
interface Running {
  worker: Worker;
  /** Requests sent to it and not answered yet, by id, and their bytes. */
  requests: Map<number, Sent>;
  outstandingBytes: number;
  /** Retired or closed: its messages are no longer read, and its exit is no failure. */
  ended: boolean;
}

/**
 * Parse workers a pass starts on a machine with this many cores: one per core the main thread leaves
 * (it reads, cuts, deflates and writes SQLite: about half of a cold pass's CPU on AvaloniaUI/Avalonia,
 * tree-sitter in the worker the other half), at most MAX_PARSE_WORKERS. Each worker holds its own
 * tree-sitter memory, V8 heap and compiled grammars: a second one measured +22-28 MB of peak RSS on
 * Avalonia (VmHWM 279-280 -> 301-308 MB in alternating runs), which on 2 cores would buy no parallelism
 * the main thread does not already take, hence one worker there and the cap above.
 */
export const MAX_PARSE_WORKERS = 2;

export function parseWorkerCount(cores: number): number {
  return Math.max(1, Math.min(MAX_PARSE_WORKERS, Math.floor(cores) - 1));
}

/**
 * `faults` is for tests only (see ParseWorkerFaults); the product passes just the probe size.
 * `retireAfterBytes`, `retireAfterHeapBytes` (tests): RETIRE_AFTER_BYTES, RETIRE_AFTER_HEAP_BYTES by default. `workers`: how many run at once
 * (default parseWorkerCount of the machine's cores). `retired`: workers retired so far; `started`:
 * workers started so far; `running`: workers alive now.
 */
export function createNodeParsePool(opts: ParseWorkerData & { retireAfterBytes?: number; retireAfterHeapBytes?: number; workers?: number }): ParsePool & { readonly retired: number; readonly started: number; readonly size: number; readonly running: number } {
  const { retireAfterBytes = RETIRE_AFTER_BYTES, retireAfterHeapBytes = RETIRE_AFTER_HEAP_BYTES, workers, ...data } = opts;
  const size = Math.max(1, Math.floor(workers ?? parseWorkerCount(cores())));
  /** The workers new files go to (null: none started in that slot yet, or its worker was retired). */
  const slots: Array<Running | null> = new Array<Running | null>(size).fill(null);
  const live = new Set<Running>();
  let retired = 0;
  let started = 0;
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
    const run: Running = { worker: w, requests: new Map(), outstandingBytes: 0, ended: false };
    live.add(run);
    started++;
    w.on('message', (m: WorkerReply) => {
      if (run.ended) return;
      const sent = run.requests.get(m.id);
      run.requests.delete(m.id);
      run.outstandingBytes -= sent?.bytes.length ?? 0;
      replies.settle(m);
      const slot = slots.indexOf(run);
      if (slot >= 0 && (m.memoryBytes > retireAfterBytes || m.heapBytes > retireAfterHeapBytes)) {
        // It ends now; what it still holds goes to a new worker (sent again from the caller's bytes).
        slots[slot] = null;
        retired++;
        run.ended = true;
        live.delete(run);
        void w.terminate();
        for (const [id, again] of run.requests) send(id, again);
        run.requests.clear();
      }
    });
    w.on('error', (e) => {
      if (!run.ended) fail(e instanceof Error ? e : new Error(String(e)));
    });
    w.on('exit', (code) => {
      if (!closed && !run.ended) fail(new Error(`parse worker exited (code ${code})`));
    });
    return run;
  };
  /**
   * The worker for the next file: the one with the fewest bytes waiting; a new one in a free slot
   * while every running worker has work queued (a small pass never starts more than it keeps busy).
   */
  const pick = (): Running => {
    let best: Running | null = null;
    let free = -1;
    for (let i = 0; i < slots.length; i++) {
      const r = slots[i];
      if (!r) {
        if (free < 0) free = i;
      } else if (!best || r.outstandingBytes < best.outstandingBytes) {
        best = r;
      }
    }
    if (free >= 0 && (!best || best.requests.size > 0)) return (slots[free] = start());
    return best!;
  };
  /** Posts request `id` to the picked worker. A copy is transferred: the caller keeps its bytes (it classifies them itself, and parses them if this fails). */
  const send = (id: number, req: Sent) => {
    const run = pick();
    const copy = req.bytes.slice();
    const msg: WorkerRequest = { id, path: req.file.path, lang: req.file.lang, bytes: copy, rows: req.rows };
    run.worker.postMessage(msg, [copy.buffer]);
    run.requests.set(id, req);
    run.outstandingBytes += copy.length;
  };
  return {
    get retired() {
      return retired;
    },
    get started() {
      return started;
    },
    size,
    /** Workers running now (a retired one ends at once: never more than `size`). */
    get running() {
      return live.size;
    },
    extract(file: { path: string; lang: string }, bytes: Uint8Array, opts?: { rows?: boolean }): Promise<PoolResult> {
      return replies.request((id) => send(id, { file, bytes, rows: !!(opts?.rows && data.rows) }));
    },
    async close(): Promise<void> {
      closed = true;
      fail(new Error('parse pool closed'));
      slots.fill(null);
      const all = [...live];
      live.clear();
      for (const r of all) r.ended = true;
      await Promise.all(all.map((r) => r.worker.terminate()));
    },
  };
}

/** The machine's cores as Node reports them (os.availableParallelism: what this process may use). */
function cores(): number {
  const os = createRequire(import.meta.url)('node:os') as typeof import('node:os');
  return os.availableParallelism();
}
