// The browser's ParsePool: one nested module Worker (parse-worker.ts) that extracts files' outlines
// (tree-sitter, most of a cold pass's CPU) while the hci Worker reads, hashes, cuts chunks and
// writes SQLite, so a cold pass uses two cores, as Node's worker_threads pool does
// (runtimes/node/parse-pool.ts). Owns the parse worker's life (started with its pool — or ahead of
// it, warm(): before a first pass, or on the home screen, so it loads tree-sitter before the pass
// needs it — and terminated on close or cool(); each start and end told to `life`) and
// the message bookkeeping. Ordering, the fallback to in-thread parsing and
// when a pool is worth starting are the indexer's (core/index/indexer.ts, read-ahead.ts); how the
// Worker is created (its URL) is the bundler's, handed in by worker.ts.
import type { ParsePool, ParsePoolFactory } from '../../core/index/prepare.ts';
import { PendingReplies, type PoolReply } from '../../core/index/pool-replies.ts';
import type { WasmUrls } from './loaders.ts';
import type { RowSettings } from '../../core/index/ready-rows.ts';

/** The first message: what the parse worker loads tree-sitter and its grammars from (it loads the runtime at once). */
export interface ParseWorkerInit {
  type: 'init';
  wasm: WasmUrls;
}
/** The second, from the pool that takes the worker: the binary probe size, and the languages of the files to come (their grammars load at once). */
export interface ParseWorkerConfig {
  type: 'config';
  binaryProbeBytes: number;
  langs: string[];
  /** The settings with which a request asking for rows has them made (core/index/ready-rows.ts). */
  rows?: RowSettings;
}
export interface ParseWorkerRequest {
  type: 'extract';
  id: number;
  path: string;
  lang: string;
  bytes: Uint8Array;
  /** Make the file's rows (the worker was configured with row settings), not only its outline. */
  rows?: boolean;
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
export type BrowserParsePoolFactory = ParsePoolFactory & {
  /**
   * Starts a parse worker now for the next pool to take: it loads its module and tree-sitter while
   * the pass opens, reads the settings and scans (~0.3 s before the first file reached a worker
   * started by its pool, and in a cold pass that worker is the thread the pass waits for).
   */
  warm(): void;
  /** Ends a warmed worker no pool took (the pass had few files to parse). */
  cool(): void;
};

/**
 * `life` hears each worker start and end (the Worker's 'parse-worker' events): one warmed and ended
 * within a short pass may be gone before a debugger ever lists it.
 */
export function createBrowserParsePool(spawn: () => Worker, wasm: WasmUrls, life?: (state: 'started' | 'ended') => void): BrowserParsePoolFactory | undefined {
  if (!wasm.treeSitter) return undefined;
  const urls = absolute(wasm, globalThis.location?.href ?? 'http://localhost/');
  let warmed: Worker | null = null;
  const launch = (): Worker => {
    const w = spawn();
    life?.('started');
    const init: ParseWorkerInit = { type: 'init', wasm: urls };
    w.postMessage(init);
    return w;
  };
  const ended = new WeakSet<Worker>();
  const end = (w: Worker): void => {
    w.terminate();
    if (ended.has(w)) return;
    ended.add(w);
    life?.('ended');
  };
  const factory: ParsePoolFactory = (opts) => {
    const replies = new PendingReplies();
    const fail = (e: Error) => replies.fail(e);
    const start = (): Worker => {
      const w = warmed ?? launch();
      warmed = null;
      w.onmessage = (ev: MessageEvent<ParseWorkerReply>) => replies.settle(ev.data);
      // A worker that cannot start or dies: every file it held is parsed in-thread (the indexer's fallback).
      w.onerror = (ev) => {
        ev.preventDefault?.();
        fail(new Error(`parse worker failed: ${ev.message ?? 'unknown error'}`));
        end(w);
      };
      w.onmessageerror = () => fail(new Error('parse worker: a message could not be read'));
      const config: ParseWorkerConfig = { type: 'config', binaryProbeBytes: opts.binaryProbeBytes, langs: [...(opts.langs ?? [])], ...(opts.rows ? { rows: opts.rows } : {}) };
      w.postMessage(config);
      return w;
    };
    // Started at once: its grammars load while the first files are read.
    let worker: Worker | null = start();
    const pool: ParsePool = {
      extract(file, bytes, req) {
        return replies.request((id) => {
          worker ??= start();
          // A copy is transferred: the caller keeps its bytes (it classifies them itself, and parses them if this fails).
          const copy = bytes.slice();
          const msg: ParseWorkerRequest = { type: 'extract', id, path: file.path, lang: file.lang, bytes: copy, rows: !!(req?.rows && opts.rows) };
          worker.postMessage(msg, [copy.buffer]);
        });
      },
      async close() {
        fail(new Error('parse pool closed'));
        if (worker) end(worker);
        worker = null;
      },
    };
    return pool;
  };
  return Object.assign(factory, {
    warm() {
      if (warmed) return;
      const w = launch();
      // One that fails before a pool takes it is dropped: the pool starts another (and falls back as usual).
      w.onerror = (ev: ErrorEvent) => {
        ev.preventDefault?.();
        end(w);
        if (warmed === w) warmed = null;
      };
      warmed = w;
    },
    cool() {
      if (warmed) end(warmed);
      warmed = null;
    },
  });
}
