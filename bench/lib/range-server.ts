// Starts the static file server that answers HTTP range requests (test/helpers/range-server-thread.mjs)
// in a worker thread, for the remote bench (bench/remote.ts) and the tests (test/helpers/range-server.ts
// adds its counts and options): a remote index blocks the thread that reads it, so the server cannot
// run on that thread. Here, not under test/, because the built bench (dist/bench) runs it too: the
// thread's script is found from the repository's root. Owns starting and stopping the thread.
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { repoRoot } from './util.ts';

export interface RangeServerThread {
  origin: string;
  close(): Promise<void>;
}

/**
 * Serves `root`'s files on 127.0.0.1 (a free port). `opts` as range-server-thread.mjs reads them;
 * `stats`: 5 float64s it counts requests, bytes, 206 and 200 replies and multipart 206 replies into.
 */
export async function startRangeServerThread(root: string, opts: object = {}, stats = new SharedArrayBuffer(5 * 8)): Promise<RangeServerThread> {
  const worker = new Worker(path.join(repoRoot(), 'test', 'helpers', 'range-server-thread.mjs'), { workerData: { root, opts, stats } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        worker.once('message', () => resolve());
        worker.postMessage('close');
      });
      await worker.terminate();
    },
  };
}
