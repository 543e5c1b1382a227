// The hci Worker's API: workspaces on OPFS, indexed from a page-supplied source, answering every
// verb of the verb table (core/service/verbs.ts) through one call(), exported and imported. Owns the
// API itself and the Worker's own rules around it (one indexing run at a time, progress reports
// throttled for the page, no import during a run, an index exported whole, a call of a lane that a
// newer one replaced before it ran answering `superseded`: call-lanes.ts), and events to the page
// (a take-over, wasm downloads). The open workspaces are sessions.ts, what the Worker does while idle
// idle-work.ts, the verbs the core service. Bundler-agnostic: worker.ts wires it with Vite's URLs.
import * as Comlink from 'comlink';
import { HciError } from '../../core/platform.ts';
import type { EngineLoader } from '../../core/sqlite/engine.ts';
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { IndexSummary, StatusReport } from '../../core/contract/index.ts';
import type { VectorHost } from '../../core/vector/semantic.ts';
import { createUrlEngineLoader, createUrlGrammarSource, fetchBytes, type WasmUrls } from './loaders.ts';
import { createBrowserParsePool } from './parse-pool.ts';
import { forgetHealth, INDEX_NAME, UNJOURNALED_PASS_MARK } from './opfs-storage.ts';
import { WorkerSessions } from './sessions.ts';
import { IdleWork } from './idle-work.ts';
import { CallLanes } from './call-lanes.ts';
import { installErrorTransfer, PROTOCOL_VERSION, type BrowserIndexOptions, type HciWorkerApi, type OpenRequest, type OpenResult, type WorkerEvent } from './protocol.ts';

export interface WorkerConfig {
  wasm: WasmUrls;
  /**
   * What the semantic channel may use here (default: fetch, for the http provider, and the code
   * model fetched from `wasm.codeModel`, for the pretrained one). A page that bundles
   * onnxruntime-web passes `onnx` (loader and the model folder's files) for the onnx provider.
   */
  vectors?: VectorHost;
  /**
   * Starts a parse worker (parse-worker.ts) for passes over many files (core POOL_MIN_FILES), so
   * tree-sitter runs on a second core; worker.ts passes one. Without it every file is parsed here.
   */
  spawnParseWorker?: () => Worker;
}

export function createWorkerApi(config: WorkerConfig): HciWorkerApi {
  installErrorTransfer();
  const listeners = new Map<number, (e: WorkerEvent) => void>();
  let nextListener = 1;
  const emit = (e: WorkerEvent) => {
    for (const l of listeners.values()) void Promise.resolve(l(e)).catch(() => {});
  };
  const engineLoader: EngineLoader = createUrlEngineLoader(config.wasm.sqliteWasm);
  const grammars: GrammarSource | undefined = createUrlGrammarSource(config.wasm, (f) => emit({ type: 'asset', ...f }));
  const codeModel = config.wasm.codeModel;
  const vectors: VectorHost = config.vectors ?? { fetch: (input, init) => fetch(input, init), codeModel: codeModel ? () => fetchBytes(codeModel, 'the code model') : undefined };
  // One core (or no Worker constructor here): a parse worker would only take turns with this one.
  const cores = (globalThis.navigator as Navigator | undefined)?.hardwareConcurrency ?? 1;
  const parsePool = config.spawnParseWorker && grammars && cores > 1 ? createBrowserParsePool(config.spawnParseWorker, config.wasm, (state) => emit({ type: 'parse-worker', state })) : undefined;
  const sessions = new WorkerSessions({
    engineLoader, grammars, vectors, parsePool,
    released: (workspace) => emit({ type: 'released', workspace, reason: 'taken_over' }),
  });
  const idle = new IdleWork(sessions, parsePool);
  const lanes = new CallLanes();

  return {
    protocol: () => PROTOCOL_VERSION,

    async open(req: OpenRequest): Promise<OpenResult> {
      let result!: OpenResult;
      await sessions.open(req, async (s) => {
        const storage = (await s.svc.workspace()).host.storage;
        const has_index = await storage.exists();
        await idle.opened(s, has_index, !!req.source);
        result = { workspace: s.name, key: s.key, location: storage.location, has_index, has_source: s.fs !== null, ...(s.index ? { index: s.index } : {}) };
      });
      return result;
    },

    setSource: (workspace, source) => sessions.setSource(workspace, source),

    async index(workspace: string, opts: BrowserIndexOptions = {}, onProgress?: (p: IndexProgress) => void): Promise<IndexSummary> {
      const s = sessions.get(workspace);
      if (s.svc.indexing()) throw new HciError('index_busy', `workspace "${s.name}" is being indexed already`, 'wait for that run, or cancel() it');
      // A first pass (or a rebuild) is the one that parses many files in the parse worker: started
      // before the pass (below), it loads while the pass opens and scans; one no pass took goes at the end.
      const cold = !!parsePool && (!!opts.full || !(await (await s.svc.workspace()).host.storage.exists()));
      // Progress crosses to the page at most every 50 ms (and always for the first and last report).
      let last = 0;
      const report = onProgress
        ? (p: IndexProgress) => {
            const now = Date.now();
            if (p.phase !== 'index' || now - last >= 50) {
              last = now;
              void Promise.resolve(onProgress(p)).catch(() => {});
            }
          }
        : undefined;
      if (cold) parsePool?.warm();
      try {
        return await s.svc.index({ full: opts.full, batchMs: opts.batchMs, onProgress: report });
      } finally {
        parsePool?.cool();
        // Also after a cancel: the committed batches are searchable, and the listing says so.
        if (sessions.current(s)) {
          await sessions.recordSummary(s);
          idle.after(s, true);
        }
      }
    },

    async cancel(workspace: string): Promise<boolean> {
      return sessions.find(workspace)?.svc.cancelIndexing() ?? false;
    },

    async call(workspace, verb, req, lane) {
      const s = sessions.get(workspace);
      try {
        // Keystrokes' searches: one a newer keystroke replaced before it ran does not run (call-lanes.ts).
        if (lane !== undefined) await lanes.turn(`${s.key}\u0000${lane}`);
        return await s.svc.call(verb, req);
      } finally {
        idle.after(s, false, undefined, verb);
      }
    },

    async addLog(workspace: string, name: string, text: string) {
      const s = sessions.get(workspace);
      return (await import('./intercom.ts')).addBrowserLog(s.logs, name, text);
    },

    exportIndex(workspace: string): Promise<Uint8Array> {
      const s = sessions.get(workspace);
      const slot = s.slot;
      if (!slot) return Promise.reject(new HciError('not_available', `workspace "${s.name}" is a published index (${s.index}), not stored in this browser`, 'download the index from its URL'));
      return sessions.serial(s.key, async () => {
        if (!slot.pool.getFileNames().includes(INDEX_NAME)) {
          throw new HciError('no_index', `workspace "${s.name}" has no index to export`, 'index it first');
        }
        // Between transactions the file is whole (rollback journal, committed with a flush), and no
        // transaction spans an await: what is read here is one committed state, even mid-run.
        const bytes = slot.pool.exportFile(INDEX_NAME);
        // Mid-way through a first pass the header carries its mark (opfs-storage.ts); the copy is
        // one committed state, whole: without the mark, so an import keeps it.
        if (bytes.length >= 72 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(68) === UNJOURNALED_PASS_MARK) bytes.fill(0, 68, 72);
        return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
      });
    },

    importIndex(workspace: string, bytes: Uint8Array | ArrayBuffer): Promise<StatusReport> {
      const s = sessions.get(workspace);
      const slot = s.slot;
      if (!slot) return Promise.reject(new HciError('not_available', `workspace "${s.name}" is a published index (${s.index}): read-only`, 'import the file under another workspace name'));
      return sessions.serial(s.key, async () => {
        if (s.svc.indexing()) throw new HciError('index_busy', `workspace "${s.name}" is being indexed`, 'cancel() the run or wait for it, then import');
        const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
        const pool = slot.pool;
        const previous = pool.getFileNames().includes(INDEX_NAME) ? pool.exportFile(INDEX_NAME) : null;
        await s.svc.close();
        const restore = async () => {
          pool.unlink(`${INDEX_NAME}-journal`);
          if (previous) await pool.importDb(INDEX_NAME, previous);
          else pool.unlink(INDEX_NAME);
          await sessions.reopen(s);
        };
        // Bytes written around SQLite: the page check runs on them (and on the restored ones).
        forgetHealth(slot);
        try {
          await pool.importDb(INDEX_NAME, data);
        } catch (e) {
          await restore();
          throw new HciError('index_unrecognized', `this file is not an SQLite database (${(e as Error).message})`, 'import a file exported by hci (`.hci/index.sqlite`, or exportIndex() in a browser)');
        }
        // A journal left beside the old file would be "hot" and roll the imported one back.
        pool.unlink(`${INDEX_NAME}-journal`);
        await sessions.reopen(s);
        const status: StatusReport = await s.svc.call('status', { check_pending: false });
        if (status.status === 'error' || status.status === 'no_index' || status.status === 'damaged') {
          await s.svc.close();
          await restore();
          const code = status.error?.code ?? 'index_unrecognized';
          throw new HciError(code, `the imported file is not a usable hci index: ${status.error?.message ?? status.status}`, status.hint ?? 'export the index again with this version of hci');
        }
        s.source = { kind: 'import', label: 'an index file' };
        await sessions.recordSummary(s);
        return status;
      });
    },

    async close(workspace: string): Promise<void> {
      const s = sessions.find(workspace);
      // A warm-up step searching the workspace ends before it closes.
      if (s) await idle.stop(s);
      return sessions.close(workspace);
    },

    remove: (workspace) => sessions.remove(workspace),

    list: () => sessions.list(),

    subscribe(listener: (e: WorkerEvent) => void): number {
      const id = nextListener++;
      listeners.set(id, listener);
      return id;
    },

    unsubscribe(id: number): void {
      listeners.delete(id);
    },
  };
}
