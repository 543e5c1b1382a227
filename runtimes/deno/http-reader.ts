// Deno's RangeReader for a published index read over HTTP (runtimes/shared/http-vfs.ts): one module
// Worker fetches while the calling thread waits in Atomics.wait (runtimes/shared/range-channel.ts).
// The Worker runs from a blob: URL of its source text (rangeWorkerSource): a worker script file would
// need --allow-read on hci's own folder. It inherits the process's permissions: --allow-net for the
// index's host. Owns the Worker's life: started with the first index opened from a URL, terminated on close.
import type { RangeReader } from '../shared/remote-file.ts';
import { createRangeChannel, rangeWorkerSource, type RangeRequest } from '../shared/range-channel.ts';

interface DenoWorker {
  postMessage(msg: RangeRequest): void;
  terminate(): void;
}

export function createDenoRangeReader(opts: { timeoutMs?: number } = {}): RangeReader {
  const source = rangeWorkerSource('(handler) => { self.onmessage = (e) => handler(e.data); }');
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const WorkerCtor = (globalThis as unknown as { Worker: new (url: string, o: { type: 'module' }) => DenoWorker }).Worker;
  const worker = new WorkerCtor(url, { type: 'module' });
  return createRangeChannel((msg) => worker.postMessage(msg), {
    timeoutMs: opts.timeoutMs,
    close: () => {
      worker.terminate();
      URL.revokeObjectURL(url);
    },
  });
}
