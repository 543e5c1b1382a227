// The browser's ParsePool: one nested module Worker (parse-worker.ts) that extracts files' outlines
// (tree-sitter, most of a cold pass's CPU) while the hci Worker reads, hashes, cuts chunks and
// writes SQLite, so a cold pass uses two cores, as Node's worker_threads pool does
// (runtimes/node/parse-pool.ts). Owns the parse worker's life (started on the first file, or ahead
// of the pass by prestart(), terminated on close) and the message bookkeeping. Ordering, the fallback to in-thread parsing and
// when a pool is worth starting are the indexer's (core/index/indexer.ts, read-ahead.ts); how the
// Worker is created (its URL) is the bundler's, handed in by worker.ts.
import type { ParsePool, ParsePoolFactory } from '../../core/index/prepare.ts';
import { PendingReplies, type PoolReply } from '../../core/index/pool-replies.ts';
import type { GrammarName } from '../../core/chunk/treesitter.ts';
import { SETTING_DEFAULTS } from '../../core/settings-defaults.ts';
import type { WasmUrls } from './loaders.ts';

/**
 * The first message: what the parse worker loads its grammars from, the binary probe size, and the
 * grammars to load before any file comes (`warm`). Sent again to a prestarted worker when the pass's
 * probe size differs: only the size changes then.
 */
export interface ParseWorkerInit {
  type: 'init';
  wasm: WasmUrls;
  binaryProbeBytes: number;
  warm?: GrammarName[];
}

/**
 * The grammars a prestarted worker compiles while the pass scans: C#, the language most files of the
 * repositories hci is for are in (the others load on their first file, as before).
 */
const WARM_GRAMMARS: GrammarName[] = ['c_sharp'];
/** A prestarted worker no pass took within this long is let go (its grammars hold memory). */
const SPARE_IDLE_MS = 60_000;
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

/** A ParsePoolFactory that can start its next pass's worker ahead of time. */
export interface BrowserParsePool extends ParsePoolFactory {
  /**
   * Starts the worker the next pass will use, loading tree-sitter and WARM_GRAMMARS now — while the
   * workspace opens and its files are scanned — instead of on the pass's first file, when the hci
   * Worker would wait for it. Does nothing when one is started already.
   */
  prestart(): void;
}

/**
 * A ParsePoolFactory over `spawn` (e.g. `() => new Worker(new URL('./parse-worker.ts', import.meta.url), { type: 'module' })`).
 * Without tree-sitter URLs there is nothing to parse elsewhere: undefined (files are cut in-thread).
 */
export function createBrowserParsePool(spawn: () => Worker, wasm: WasmUrls): BrowserParsePool | undefined {
  if (!wasm.treeSitter) return undefined;
  const urls = absolute(wasm, globalThis.location?.href ?? 'http://localhost/');
  const defaultProbe = SETTING_DEFAULTS.binary_probe_bytes;
  let spare: { worker: Worker; failed: boolean; idle: ReturnType<typeof setTimeout> } | null = null;
  /** The prestarted worker, if it is still fine (one that failed before a pass took it is dropped). */
  const takeSpare = (): Worker | null => {
    const s = spare;
    spare = null;
    if (!s) return null;
    clearTimeout(s.idle);
    if (!s.failed) return s.worker;
    s.worker.terminate();
    return null;
  };
  const prestart = () => {
    if (spare) return;
    const worker = spawn();
    const init: ParseWorkerInit = { type: 'init', wasm: urls, binaryProbeBytes: defaultProbe, warm: WARM_GRAMMARS };
    worker.postMessage(init);
    const s = { worker, failed: false, idle: setTimeout(() => spare === s && takeSpare()?.terminate(), SPARE_IDLE_MS) };
    worker.onerror = (ev) => {
      ev.preventDefault?.();
      s.failed = true;
    };
    spare = s;
  };
  const factory: ParsePoolFactory = (opts) => {
    let worker: Worker | null = null;
    const replies = new PendingReplies();
    const fail = (e: Error) => replies.fail(e);
    const start = (): Worker => {
      const ready = takeSpare();
      const w = ready ?? spawn();
      w.onmessage = (ev: MessageEvent<ParseWorkerReply>) => replies.settle(ev.data);
      // A worker that cannot start or dies: every file it held is parsed in-thread (the indexer's fallback).
      w.onerror = (ev) => {
        ev.preventDefault?.();
        fail(new Error(`parse worker failed: ${ev.message ?? 'unknown error'}`));
        w.terminate();
      };
      w.onmessageerror = () => fail(new Error('parse worker: a message could not be read'));
      if (!ready || opts.binaryProbeBytes !== defaultProbe) {
        const init: ParseWorkerInit = { type: 'init', wasm: urls, binaryProbeBytes: opts.binaryProbeBytes };
        w.postMessage(init);
      }
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
  return Object.assign(factory, { prestart });
}
