// The browser's ParsePool: one nested module Worker (parse-worker.ts) that extracts files' outlines
// (tree-sitter, most of a cold pass's CPU) while the hci Worker reads, hashes, cuts chunks and
// writes SQLite, so a cold pass uses two cores, as Node's worker_threads pool does
// (runtimes/node/parse-pool.ts). Owns the parse worker's life (started on the first file,
// terminated on close) and the message bookkeeping. Ordering, the fallback to in-thread parsing and
// when a pool is worth starting are the indexer's (core/index/indexer.ts, read-ahead.ts); how the
// Worker is created (its URL) is the bundler's, handed in by worker.ts.
import type { ParsePool, ParsePoolFactory } from '../../core/index/prepare.ts';
import { PendingReplies, type PoolReply } from '../../core/index/pool-replies.ts';
import type { WasmUrls } from './loaders.ts';

/** The first message: what the parse worker loads its grammars from, and the binary probe size. */
export interface ParseWorkerInit {
  type: 'init';
  wasm: WasmUrls;
  binaryProbeBytes: number;
}
export interface ParseWorkerRequest {
  type: 'extract';
  id: number;
  path: string;
  lang: string;
  bytes: Uint8Array;
}
export type ParseWorkerReply = PoolReply;

/** The wasm URLs made absolute: the parse worker's own base URL may differ from this Worker's. */
function absolute(urls: WasmUrls, base: string): WasmUrls {
  const abs = (u: string | undefined) => (u === undefined ? undefined : new URL(u, base).href);
  return {
    sqliteWasm: abs(urls.sqliteWasm),
    treeSitter: abs(urls.treeSitter),
    ...(urls.grammars ? { grammars: Object.fromEntries(Object.entries(urls.grammars).map(([k, v]) => [k, abs(v)!])) as WasmUrls['grammars'] } : {}),
  };
}

/**
 * A ParsePoolFactory over `spawn` (e.g. `() => new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module' })`).
 * Without tree-sitter URLs there is nothing to parse elsewhere: undefined (files are cut in-thread).
 */
export function createBrowserParsePool(spawn: () => Worker, wasm: WasmUrls): ParsePoolFactory | undefined {
  if (!wasm.treeSitter) return undefined;
  const urls = absolute(wasm, globalThis.location?.href ?? 'http://localhost/');
  return (opts) => {
    let worker: Worker | null = null;
    const replies = new PendingReplies();
    const fail = (e: Error) => replies.fail(e);
    const start = (): Worker => {
      const w = spawn();
      w.onmessage = (ev: MessageEvent<ParseWorkerReply>) => replies.settle(ev.data);
      // A worker that cannot start or dies: every file it held is parsed in-thread (the indexer's fallback).
      w.onerror = (ev) => {
        ev.preventDefault?.();
        fail(new Error(`parse worker failed: ${ev.message ?? 'unknown error'}`));
        w.terminate();
      };
      w.onmessageerror = () => fail(new Error('parse worker: a message could not be read'));
      const init: ParseWorkerInit = { type: 'init', wasm: urls, binaryProbeBytes: opts.binaryProbeBytes };
      w.postMessage(init);
      return w;
    };
    const pool: ParsePool = {
      extract(file, bytes) {
        return replies.request((id) => {
          worker ??= start();
          // A copy is transferred: the caller keeps its bytes (it classifies them itself, and parses them if this fails).
          const copy = bytes.slice();
          const msg: ParseWorkerRequest = { type: 'extract', id, path: file.path, lang: file.lang, bytes: copy };
          worker.postMessage(msg, [copy.buffer]);
        });
      },
      async close() {
        fail(new Error('parse pool closed'));
        worker?.terminate();
        worker = null;
      },
    };
    return pool;
  };
}
