// The worker thread behind parse-pool.ts: its own Chunker over Node's grammar files, extracting the
// outline of each file it is sent, one at a time, in arrival order. Every reply says how large
// tree-sitter's memory and this worker's V8 heap are (the pool retires a worker that grew either). Owns nothing else:
// which files come here, and what happens when this worker fails, is the pool's and the indexer's.
// Given row settings (a big pass's pool: core/index/ready-rows.ts), it makes the rows of the files a
// request asks it to, blob, chunks and FTS values, with Node's zlib as the workspace does, so the main
// thread only writes them (read-ahead.ts RowsShare: which files).
// (Deflating only the text here, as the browser's parse worker once did, cost more than it saved when
// this worker was the longer thread: +1.7-1.9 s of CPU and up to +30 MB of peak RSS on Avalonia.)
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost, treeSitterMemoryBytes } from '../../core/chunk/treesitter.ts';
import { extractFromBytes } from '../../core/index/prepare.ts';
import { readyRows, transferables, type RowSettings } from '../../core/index/ready-rows.ts';
import { zlibCodec } from './zlib-codec.ts';
import type { PoolReply } from '../../core/index/pool-replies.ts';
import { createNodeGrammarSource } from './grammars.ts';
import { nodeContentHash } from './content-hash.ts';

/** `rows`: make the file's rows (the worker was given row settings), not only its outline. */
export type WorkerRequest = { id: number; path: string; lang: string; bytes: Uint8Array; rows?: boolean };
/** A reply, with the size of tree-sitter's WebAssembly memory and of this worker's V8 heap (committed) after the file. */
export type WorkerReply = PoolReply & { memoryBytes: number; heapBytes: number };
/** Faults a test can inject into the worker (the pool must then lose no file). */
export interface ParseWorkerFaults {
  /** The worker exits (code 70) when it is sent this path. */
  exitOnPath?: string;
  /** When sent this path, the worker keeps objects alive until its V8 heap (committed) is at least `bytes`. */
  heapOnPath?: { path: string; bytes: number };
}
export interface ParseWorkerData {
  binaryProbeBytes: number;
  /** The settings with which a request asking for rows (PoolResult.ready) has them made, not only its outline. */
  rows?: RowSettings;
  faults?: ParseWorkerFaults;
}

const port = parentPort;
if (!port) throw new Error('parse-worker.js runs as a worker thread only');
const { binaryProbeBytes, rows, faults } = workerData as ParseWorkerData;
const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
// Injected faults (tests only, through createNodeParsePool's `faults`; nothing in the product sets
// them, and no environment variable reaches them): end this worker abruptly when sent a path, or grow its heap.
const crashOn = faults?.exitOnPath;
const kept: unknown[] = [];

let queue: Promise<void> = Promise.resolve();
port.on('message', (m: WorkerRequest) => {
  queue = queue.then(async () => {
    if (crashOn && m.path === crashOn) process.exit(70);
    if (faults?.heapOnPath?.path === m.path) while (getHeapStatistics().total_heap_size < faults.heapOnPath.bytes) kept.push(Array.from({ length: 4096 }, (_, i) => ({ i })));
    let reply: PoolReply;
    let transfer: ArrayBuffer[] = [];
    try {
      if (rows && m.rows) {
        const ready = await readyRows(m.bytes, m, rows, chunker, zlibCodec, nodeContentHash);
        transfer = transferables(ready);
        reply = { id: m.id, result: { ready, extracted: '' } };
      } else {
        reply = { id: m.id, result: await extractFromBytes(m.bytes, m, binaryProbeBytes, chunker, { contentHash: nodeContentHash }) };
      }
    } catch (e) {
      reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage({ ...reply, memoryBytes: treeSitterMemoryBytes(), heapBytes: getHeapStatistics().total_heap_size } satisfies WorkerReply, transfer);
  });
});
