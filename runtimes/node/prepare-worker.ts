// The worker thread behind prepare-pool.ts: its own Chunker over Node's grammar files, running
// core's prepareFile for each file it is sent, one at a time, in arrival order. Owns nothing else:
// which files come here, and what happens when this worker fails, is the pool's and the indexer's.
import { parentPort, workerData } from 'node:worker_threads';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import { prepareFile, type PrepareSettings, type Prepared } from '../../core/index/prepare.ts';
import type { ScannedFile } from '../../core/scan/walker.ts';
import { createNodeGrammarSource } from './grammars.ts';

export type WorkerRequest = { id: number; file: ScannedFile; bytes: Uint8Array };
export type WorkerReply = { id: number; result: Prepared } | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('prepare-worker.js runs as a worker thread only');
const settings = (workerData as { settings: PrepareSettings }).settings;
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
// Test hook: end this worker abruptly when it is sent this path (the pool must then lose no file).
const crashOn = process.env.HCI_TEST_PREPARE_WORKER_CRASH_ON;

let queue: Promise<void> = Promise.resolve();
port.on('message', (m: WorkerRequest) => {
  queue = queue.then(async () => {
    if (crashOn && m.file.path === crashOn) process.exit(70);
    let reply: WorkerReply;
    try {
      reply = { id: m.id, result: await prepareFile(m.bytes, m.file, settings, chunker) };
    } catch (e) {
      reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
});
