// Node's RangeReader for a published index read over HTTP (runtimes/shared/http-vfs.ts): one
// worker_threads helper fetches while the calling thread waits in Atomics.wait
// (runtimes/shared/range-channel.ts). The helper runs from source text (rangeWorkerSource): no
// worker script to find, from the TypeScript sources or the built package alike. Owns the worker's
// life: started with the first index opened from a URL, unref'd (it never keeps a finished command
// alive), terminated on close.
import { createRequire } from 'node:module';
import type { RangeReader } from '../shared/remote-file.ts';
import { createRangeChannel, rangeWorkerSource } from '../shared/range-channel.ts';

export function createNodeRangeReader(opts: { timeoutMs?: number } = {}): RangeReader {
  const { Worker } = createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');
  const source = rangeWorkerSource("(handler) => require('node:worker_threads').parentPort.on('message', handler)");
  const worker = new Worker(source, { eval: true });
  worker.unref();
  return createRangeChannel((msg) => worker.postMessage(msg), { timeoutMs: opts.timeoutMs, close: () => void worker.terminate() });
}
