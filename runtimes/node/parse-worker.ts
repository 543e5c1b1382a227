// The worker thread behind parse-pool.ts: its own Chunker over Node's grammar files, extracting the
// outline of each file it is sent, one at a time, in arrival order. Owns nothing else: which files
// come here, and what happens when this worker fails, is the pool's and the indexer's.
import { parentPort, workerData } from 'node:worker_threads';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import { extractFromBytes, type ExtractedJson } from '../../core/index/prepare.ts';
import { createNodeGrammarSource } from './grammars.ts';

export type WorkerRequest = { id: number; path: string; lang: string; bytes: Uint8Array };
export type WorkerReply = { id: number; result: ExtractedJson } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('parse-worker.js runs as a worker thread only');
const { binaryProbeBytes } = workerData as { binaryProbeBytes: number };
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
// Test hook: end this worker abruptly when it is sent this path (the pool must then lose no file).
const crashOn = process.env.HCI_TEST_PARSE_WORKER_CRASH_ON;

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
