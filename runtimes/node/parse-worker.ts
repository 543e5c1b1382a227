// The worker thread behind parse-pool.ts: its own Chunker over Node's grammar files, extracting the
// outline of each file it is sent, one at a time, in arrival order. Owns nothing else: which files
// come here, and what happens when this worker fails, is the pool's and the indexer's.
import { parentPort, workerData } from 'node:worker_threads';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import { extractFromBytes } from '../../core/index/prepare.ts';
import type { PoolReply } from '../../core/index/pool-replies.ts';
import { createNodeGrammarSource } from './grammars.ts';

export type WorkerRequest = { id: number; path: string; lang: string; bytes: Uint8Array };
export type WorkerReply = PoolReply;
/** Faults a test can inject into the worker (the pool must then lose no file). */
export interface ParseWorkerFaults {
  /** The worker exits (code 70) when it is sent this path. */
  exitOnPath?: string;
}
export interface ParseWorkerData {
  binaryProbeBytes: number;
  faults?: ParseWorkerFaults;
}

const port = parentPort;
if (!port) throw new Error('parse-worker.js runs as a worker thread only');
const { binaryProbeBytes, faults } = workerData as ParseWorkerData;
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
// An injected fault (tests only, through createNodeParsePool's `faults`; nothing in the product sets
// it, and no environment variable reaches it): end this worker abruptly when sent this path.
const crashOn = faults?.exitOnPath;

let queue: Promise<void> = Promise.resolve();
port.on('message', (m: WorkerRequest) => {
  queue = queue.then(async () => {
    if (crashOn && m.path === crashOn) process.exit(70);
    let reply: WorkerReply;
    try {
      const result = await extractFromBytes(m.bytes, m, binaryProbeBytes, chunker);
      reply = { id: m.id, result };
    } catch (e) {
      reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
});
