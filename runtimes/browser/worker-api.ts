// The hci Worker's API: workspaces on OPFS, indexed from a page-supplied source, searched,
// explained, exported and imported. Owns the sessions (one open workspace = its OPFS slot, its
// source and a core service, core/service/, which runs the calls, the indexing task with its progress
// and cancellation, and words hints for the browser) and the Worker's own rules (no indexing without
// a source, one run at a time, no import during a run), handing a workspace over to another tab that
// asks for it (takeover.ts), a summary beside each index for listing it unopened, and events to the
// page (a take-over, wasm downloads). Bundler-agnostic: worker.ts wires it with Vite's URLs.
import * as Comlink from 'comlink';
import { HciWorkspace } from '../../core/workspace.ts';
import { HciError, type WorkspaceFs } from '../../core/platform.ts';
import { createMemoryWorkspaceFs } from '../../core/memory-fs.ts';
import { loadEngine, type EngineLoader } from '../../core/sqlite/engine.ts';
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { FacetsRequest, FileRequest, FilesRequest, IndexSummary, SearchRequest, SimilarRequest, StatusReport } from '../../core/contract/index.ts';
import type { Settings } from '../../core/settings.ts';
import { HciService, relativePathGuard } from '../../core/service/index.ts';
import type { VectorHost } from '../../core/vector/semantic.ts';
import { createUrlEngineLoader, createUrlGrammarSource, fetchBytes, type WasmUrls } from './loaders.ts';
import { createBrowserParsePool } from './parse-pool.ts';
import {
  createOpfsIndexStorage, forgetPool, heldWorkspaceKeys, INDEX_NAME, listWorkspaceNames, readWorkspaceMeta, removeWorkspaceName, takeWorkspace, workspaceKey,
  UNJOURNALED_PASS_MARK, writeWorkspaceMeta, type WorkspaceSlot,
} from './opfs-storage.ts';
import { TakeOverChannel } from './takeover.ts';
import type { BrowserLogs } from './intercom.ts';
import {
  installErrorTransfer, PROTOCOL_VERSION, type BrowserIndexOptions, type BrowserSource, type HciWorkerApi, type OpenRequest, type OpenResult,
  type WorkerEvent, type WorkspaceSummary,
} from './protocol.ts';

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

interface Session {
  name: string;
  slot: WorkspaceSlot;
  fs: WorkspaceFs | null;
  source?: WorkspaceSummary['source'];
  settings?: Partial<Settings>;
  /** Intercom logs the page handed over (runtimes/browser/intercom.ts). */
  logs: BrowserLogs;
  svc: HciService;
  /** Warming the search cache in idle time (see warmWhenIdle): the next slice, and whether it is all done. */
  warm?: { timer?: ReturnType<typeof setTimeout>; done: boolean };
}

/**
 * Idle time warms the search (HciWorkspace.warmSearch: a few symbol names searched key by key and
 * the single letters, then the stored files decoded ahead of the searches whose text signals read
 * them), a step at a time (one warm-up search, or WARM_SLICE_MS of decoding), one after another, once no search has come for
 * WARM_IDLE_MS, until every file is in. A search arriving meanwhile waits for one step at most, and
 * pushes the next one back; an indexing run stops it (its end starts it again).
 */
const WARM_IDLE_MS = 120;
const WARM_SLICE_MS = 6;

/**
 * With no workspace open this long after the Worker starts, the page waits on its home screen for a
 * workspace to be picked — from a folder or a .zip, to index, more often than not — so the code an
 * indexing run imports (HciWorkspace.preloadIndexing, and the sources) loads meanwhile, and the
 * parse worker a first pass takes starts (parse-pool.ts warm(): it loads tree-sitter). A stored
 * workspace opened without a source ends that worker; a page opening one from its route has it
 * open by then anyway (so its searches never share the Worker with this). Chromium, 750 of
 * FluentAvalonia's files as a .zip dropped on a fresh page (web bench, 2 interleaved pairs of 3
 * runs): the code alone, scan began 153–158 ms after the drop instead of 247–267, and the run ended
 * 180–194 ms after the indexer's own clock instead of 270–350; with the parse worker too, scan at
 * 97–139 ms, run end 3107/2823 ms after the drop vs 3141/3124 (the indexer's own clock is noise-bound).
 */
const PRELOAD_IDLE_MS = 400;

const DEFAULT_WAIT_MS = 2000;
const TAKE_OVER_WAIT_MS = 5000;

/** A source's files (a folder, a file list, a .zip): sources.ts loads when a workspace first gets one. */
async function workspaceFsFromSource(source: BrowserSource): Promise<WorkspaceFs> {
  return (await import('./sources.ts')).workspaceFsFromSource(source);
}

function sourceLabel(source: BrowserSource, fs: WorkspaceFs): WorkspaceSummary['source'] {
  return { kind: source.kind, label: fs.rootLabel };
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
  const parsePool = config.spawnParseWorker && grammars && cores > 1 ? createBrowserParsePool(config.spawnParseWorker, config.wasm) : undefined;
  const sessions = new Map<string, Session>();
  // Opening is async (locks, OPFS): calls for one workspace run one after another.
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const prev = queues.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    queues.set(key, next.catch(() => {}));
    return next;
  };

  const warmWhenIdle = (s: Session, restart = false, after = WARM_IDLE_MS): void => {
    const w = (s.warm ??= { done: false });
    if (restart) w.done = false;
    clearTimeout(w.timer);
    if (w.done) return;
    const timer = setTimeout(async () => {
      if (sessions.get(s.slot.key) !== s || s.svc.indexing()) return;
      try {
        w.done = (await (await s.svc.workspace()).warmSearch(WARM_SLICE_MS)).done;
      } catch {
        w.done = true; // no index yet (or closed meanwhile): the next index run starts it again
      }
      // The next slice at once (a message waiting is handled first), unless a search came meanwhile:
      // it has set the timer again, WARM_IDLE_MS on.
      if (!w.done && w.timer === timer) warmWhenIdle(s, false, 0);
    }, after);
    w.timer = timer;
  };

  const preload = setTimeout(() => {
    if (sessions.size > 0 || queues.size > 0) return;
    void Promise.all([HciWorkspace.preloadIndexing(), import('./sources.ts')]).catch(() => {});
    parsePool?.warm(); // a first pass takes it; a stored workspace opened without a source ends it (open)
  }, PRELOAD_IDLE_MS);
  (preload as { unref?: () => void }).unref?.();

  const session = (name: string): Session => {
    const s = sessions.get(workspaceKey(name));
    if (!s) throw new HciError('workspace_not_open', `workspace "${name}" is not open in this Worker`, 'call open({ workspace }) first');
    return s;
  };

  /** A service over the session's source and OPFS slot, with its workspace open (bad settings throw here). */
  const openService = async (s: Pick<Session, 'name' | 'slot' | 'fs' | 'settings' | 'logs'>): Promise<HciService> => {
    const svc = new HciService({
      root: s.name,
      surface: 'browser',
      watch: 'off',
      host: {
        name: 'browser',
        pathGuard: relativePathGuard,
        openWorkspace: () =>
          HciWorkspace.open(
            { fs: s.fs ?? createMemoryWorkspaceFs(s.name, {}), storage: createOpfsIndexStorage(s.slot), engineLoader, grammars, vectors, parsePool },
            { settings: s.settings },
          ),
        // Loaded on the first intercom call: the engine and its schemas stay out of the Worker's start.
        createIntercom: async (ws) => (await import('./intercom.ts')).createBrowserIntercom(ws, s.slot, s.logs),
      },
    });
    try {
      await svc.workspace();
      return svc;
    } catch (e) {
      await svc.close();
      throw e;
    }
  };

  /** Writes the workspace's summary beside its index (for list() while it is not open). */
  const recordSummary = async (s: Session): Promise<void> => {
    try {
      const st = await s.svc.status({ check_pending: false });
      // Opened without files (after a reload): where they came from last time still holds.
      const source = s.source ?? (await readWorkspaceMeta(s.slot.key))?.summary?.source;
      const summary: WorkspaceSummary | undefined = st.index
        ? { files: st.index.files, chunks: st.index.chunks, indexed_at: st.index.indexed_at, index_bytes: st.size?.index_bytes ?? 0, ...(source ? { source } : {}) }
        : undefined;
      await writeWorkspaceMeta(s.slot.key, { workspace: s.name, ...(summary ? { summary } : {}) });
    } catch {
      // only the listing misses it
    }
  };

  // Another tab asks for a workspace open here: close it (a running index stops after its batch).
  // Workspaces this Worker is taking (waiting for their lock), and those asked back meanwhile.
  const opening = new Set<string>();
  const askedBackWhileOpening = new Set<string>();
  const takeOver = new TakeOverChannel(async (key) => {
    const s = sessions.get(key);
    if (!s) {
      // Asked for while still taking it: the latest asker wins, once this open is done.
      if (opening.has(key)) askedBackWhileOpening.add(key);
      return;
    }
    s.svc.cancelIndexing();
    try {
      await api.close(s.name);
    } catch (e) {
      console.error(`hci: closing ${s.name} for another tab: ${(e as Error).message}`);
    } finally {
      // The page hears it even when closing failed: the slot is released either way.
      emit({ type: 'released', workspace: s.name, reason: 'taken_over' });
    }
  });

  const api: HciWorkerApi = {
    protocol: () => PROTOCOL_VERSION,

    open(req: OpenRequest): Promise<OpenResult> {
      const key = workspaceKey(req?.workspace);
      return serial(key, async () => {
        let s = sessions.get(key);
        if (s) {
          if (req.source !== undefined || req.settings !== undefined) {
            await s.svc.close();
            if (req.source !== undefined) {
              s.fs = await workspaceFsFromSource(req.source);
              s.source = sourceLabel(req.source, s.fs);
            }
            if (req.settings !== undefined) s.settings = req.settings;
            s.svc = await openService(s);
          }
        } else {
          const { sqlite3 } = await loadEngine(engineLoader);
          const fs = req.source ? await workspaceFsFromSource(req.source) : null;
          if (req.takeOver) takeOver.ask(key);
          opening.add(key);
          try {
            const slot = await takeWorkspace(sqlite3, req.workspace, req.waitMs ?? (req.takeOver ? TAKE_OVER_WAIT_MS : DEFAULT_WAIT_MS));
            try {
              const base = { name: req.workspace, slot, fs, settings: req.settings, logs: new Map(), source: req.source && fs ? sourceLabel(req.source, fs) : undefined };
              s = { ...base, svc: await openService(base) };
            } catch (e) {
              slot.release();
              throw e;
            }
            sessions.set(key, s);
          } finally {
            opening.delete(key);
          }
          if (askedBackWhileOpening.delete(key)) {
            // Give the page a moment to take the answer in before it hears the workspace went.
            setTimeout(() => void takeOver.release(key), 200);
          }
          await recordSummary(s);
        }
        const ws = await s.svc.workspace();
        const storage = ws.host.storage;
        const has_index = await storage.exists();
        // Opened to be searched, not to be indexed from scratch: no first pass takes the parse worker the home screen started.
        if (has_index && !req.source) parsePool?.cool();
        if (has_index) {
          // One search before the page hears the workspace is open (HciWorkspace.warmUp): the first
          // keystrokes then find the search code compiled and the index's pages read. Only a warm-up:
          // a failure shows at the first real search.
          await ws.warmUp().catch(() => null);
          warmWhenIdle(s, true);
        }
        return { workspace: s.name, key, location: storage.location, has_index, has_source: s.fs !== null };
      });
    },

    setSource(workspace: string, source: BrowserSource | null): Promise<void> {
      const s = session(workspace);
      return serial(s.slot.key, async () => {
        await s.svc.close();
        s.fs = source ? await workspaceFsFromSource(source) : null;
        s.source = source && s.fs ? sourceLabel(source, s.fs) : undefined;
        s.svc = await openService(s);
      });
    },

    async index(workspace: string, opts: BrowserIndexOptions = {}, onProgress?: (p: IndexProgress) => void): Promise<IndexSummary> {
      const s = session(workspace);
      if (!s.fs) {
        throw new HciError('no_source', `workspace "${s.name}" has no files to index in this session`, 'open it with a source (a folder, a file list or a .zip); searching the stored index works without one');
      }
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
        if (sessions.get(s.slot.key) === s) {
          await recordSummary(s);
          warmWhenIdle(s, true);
        }
      }
    },

    async cancel(workspace: string): Promise<boolean> {
      return sessions.get(workspaceKey(workspace))?.svc.cancelIndexing() ?? false;
    },

    async search(workspace: string, req: SearchRequest) {
      const s = session(workspace);
      try {
        return await s.svc.search(req);
      } finally {
        warmWhenIdle(s);
      }
    },

    async similar(workspace: string, req: SimilarRequest) {
      return session(workspace).svc.similar(req);
    },

    async status(workspace: string, opts: { checkPending?: boolean } = {}) {
      const s = session(workspace);
      return s.svc.status({ check_pending: !!opts.checkPending && s.fs !== null });
    },

    async explain(workspace: string, hitId: string, opts: { query?: string } = {}) {
      return session(workspace).svc.explain({ hit_id: hitId, query: opts.query });
    },

    async outline(workspace: string, path: string) {
      return session(workspace).svc.outline({ path });
    },

    async resolve(workspace, query) {
      return session(workspace).svc.resolve(query);
    },

    async files(workspace: string, req: FilesRequest = {}) {
      return session(workspace).svc.files(req);
    },

    async file(workspace: string, req: FileRequest) {
      return session(workspace).svc.file(req);
    },

    async facets(workspace: string, req: FacetsRequest) {
      return session(workspace).svc.facets(req);
    },

    async addLog(workspace: string, name: string, text: string) {
      const s = session(workspace);
      return (await import('./intercom.ts')).addBrowserLog(s.logs, name, text);
    },

    async intercomMessages(workspace, req) {
      return session(workspace).svc.intercomMessages(req);
    },

    async intercomMarkers(workspace, req) {
      return session(workspace).svc.intercomMarkers(req);
    },

    async intercomFind(workspace, req) {
      return session(workspace).svc.intercomFind(req);
    },

    async intercomRelate(workspace, req) {
      return session(workspace).svc.intercomRelate(req);
    },

    exportIndex(workspace: string): Promise<Uint8Array> {
      const s = session(workspace);
      return serial(s.slot.key, async () => {
        if (!s.slot.pool.getFileNames().includes(INDEX_NAME)) {
          throw new HciError('no_index', `workspace "${s.name}" has no index to export`, 'index it first');
        }
        // Between transactions the file is whole (rollback journal, committed with a flush), and no
        // transaction spans an await: what is read here is one committed state, even mid-run.
        const bytes = s.slot.pool.exportFile(INDEX_NAME);
        // Mid-way through a first pass the header carries its mark (opfs-storage.ts); the copy is
        // one committed state, whole: without the mark, so an import keeps it.
        if (bytes.length >= 72 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(68) === UNJOURNALED_PASS_MARK) bytes.fill(0, 68, 72);
        return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
      });
    },

    importIndex(workspace: string, bytes: Uint8Array | ArrayBuffer): Promise<StatusReport> {
      const s = session(workspace);
      return serial(s.slot.key, async () => {
        if (s.svc.indexing()) throw new HciError('index_busy', `workspace "${s.name}" is being indexed`, 'cancel() the run or wait for it, then import');
        const data = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
        const pool = s.slot.pool;
        const previous = pool.getFileNames().includes(INDEX_NAME) ? pool.exportFile(INDEX_NAME) : null;
        await s.svc.close();
        const restore = async () => {
          pool.unlink(`${INDEX_NAME}-journal`);
          if (previous) await pool.importDb(INDEX_NAME, previous);
          else pool.unlink(INDEX_NAME);
          s.svc = await openService(s);
        };
        try {
          await pool.importDb(INDEX_NAME, data);
        } catch (e) {
          await restore();
          throw new HciError('index_unrecognized', `this file is not an SQLite database (${(e as Error).message})`, 'import a file exported by hci (`.hci/index.sqlite`, or exportIndex() in a browser)');
        }
        // A journal left beside the old file would be "hot" and roll the imported one back.
        pool.unlink(`${INDEX_NAME}-journal`);
        s.svc = await openService(s);
        const status: StatusReport = await s.svc.status({ check_pending: false });
        if (status.status === 'error' || status.status === 'no_index') {
          await s.svc.close();
          await restore();
          const code = status.error?.code ?? 'index_unrecognized';
          throw new HciError(code, `the imported file is not a usable hci index: ${status.error?.message ?? status.status}`, status.hint ?? 'export the index again with this version of hci');
        }
        s.source = { kind: 'import', label: 'an index file' };
        await recordSummary(s);
        return status;
      });
    },

    close(workspace: string): Promise<void> {
      const key = workspaceKey(workspace);
      return serial(key, async () => {
        const s = sessions.get(key);
        if (!s) return;
        sessions.delete(key);
        clearTimeout(s.warm?.timer);
        try {
          await s.svc.close();
        } finally {
          s.slot.release();
        }
      });
    },

    remove(workspace: string): Promise<void> {
      const key = workspaceKey(workspace);
      return serial(key, async () => {
        let s = sessions.get(key);
        let slot: WorkspaceSlot;
        if (s) {
          await s.svc.close();
          sessions.delete(key);
          slot = s.slot;
        } else {
          const { sqlite3 } = await loadEngine(engineLoader);
          slot = await takeWorkspace(sqlite3, workspace, DEFAULT_WAIT_MS);
        }
        s = undefined;
        try {
          await slot.pool.removeVfs();
          forgetPool(key);
        } finally {
          slot.release();
        }
        await removeWorkspaceName(key);
      });
    },

    async list() {
      const [stored, held] = await Promise.all([listWorkspaceNames(), heldWorkspaceKeys()]);
      return stored.map((w) => ({ ...w, open_here: sessions.has(w.key), open_elsewhere: !sessions.has(w.key) && held.has(w.key) }));
    },

    subscribe(listener: (e: WorkerEvent) => void): number {
      const id = nextListener++;
      listeners.set(id, listener);
      return id;
    },

    unsubscribe(id: number): void {
      listeners.delete(id);
    },
  };
  return api;
}
