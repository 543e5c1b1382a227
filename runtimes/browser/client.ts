// The page side of the hci Worker: waits for its ready message, wraps it with comlink and offers one
// object per workspace (its verbs through call(), indexing, export, import). Owns nothing but the
// calls (progress callbacks become comlink proxies) and a page helper, saving an exported index as a
// download.
import * as Comlink from 'comlink';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { IndexSummary, StatusReport } from '../../core/contract/index.ts';
import type { VerbInput, VerbName, VerbOutput } from '../../core/service/verbs.ts';
import {
  installErrorTransfer, READY_MESSAGE, HciWorkerError, type BrowserSource, type HciWorkerApi, type OpenRequest, type OpenResult,
  type StoredWorkspace, type WorkerEvent, type WorkspaceSummary,
} from './protocol.ts';

export { HciWorkerError, READY_MESSAGE };
export type { BrowserSource, HciWorkerApi, OpenRequest, OpenResult, StoredWorkspace, WorkerEvent, WorkspaceSummary };

/** Resolves once the Worker has posted READY_MESSAGE (it listens from then on). */
export function workerReady(worker: Worker, timeoutMs = 30_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new HciWorkerError('worker_timeout', `the hci Worker did not start within ${timeoutMs} ms`, 'check the browser console for a failed module or wasm load'));
    }, timeoutMs);
    const onMessage = (ev: MessageEvent) => {
      if (ev.data === READY_MESSAGE) {
        cleanup();
        resolve();
      }
    };
    const onError = (ev: ErrorEvent) => {
      cleanup();
      reject(new HciWorkerError('worker_failed', `the hci Worker failed to start: ${ev.message || 'module error'}`, 'check the browser console'));
    };
    const cleanup = () => {
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
  });
}

export interface ClientIndexOptions {
  full?: boolean;
  /** Target length of one write transaction (default: the core's, 100 ms); longer batches were not faster here. */
  batchMs?: number;
  onProgress?: (p: IndexProgress) => void;
}

/** One open workspace, as the page sees it. */
export class BrowserWorkspace {
  constructor(
    private readonly api: Comlink.Remote<HciWorkerApi>,
    readonly info: OpenResult,
  ) {}

  get name(): string {
    return this.info.workspace;
  }

  /** Builds or updates the index (incremental: unchanged files are skipped by size, time and hash). */
  index(opts: ClientIndexOptions = {}): Promise<IndexSummary> {
    const cb = opts.onProgress ? Comlink.proxy(opts.onProgress) : undefined;
    return this.api.index(this.name, { full: opts.full, ...(opts.batchMs !== undefined ? { batchMs: opts.batchMs } : {}) }, cb) as Promise<IndexSummary>;
  }

  cancel(): Promise<boolean> {
    return this.api.cancel(this.name) as Promise<boolean>;
  }

  /**
   * One verb of the verb table (core/service/verbs.ts) with the contract's request:
   * `ws.call('search', { query: 'GetCatalogItemsAsync', limit: 5 })`, `ws.call('file', { path })`,
   * `ws.call('status', {})`… A failure is the verb's answer with status `error`. With `lane`, only
   * the newest call of that lane runs: one still waiting when a newer one comes rejects with code
   * `superseded` (a search per keystroke: send each at once, show the answers that arrive).
   */
  call<V extends VerbName>(verb: V, req: VerbInput<V>, opts?: { lane?: string }): Promise<VerbOutput<V>> {
    return (opts?.lane !== undefined ? this.api.call(this.name, verb, req, opts.lane) : this.api.call(this.name, verb, req)) as Promise<VerbOutput<V>>;
  }

  /** The search verb, as Node's `Workspace.search` has it: `ws.search({ query: 'Foo', limit: 5 })`. */
  search(req: VerbInput<'search'>): Promise<VerbOutput<'search'>> {
    return this.call('search', req);
  }

  setSource(source: BrowserSource | null): Promise<void> {
    return this.api.setSource(this.name, source) as Promise<void>;
  }

  /** Hands an intercom event log (its NDJSON text) to the Worker under a workspace-relative name. */
  addLog(name: string, text: string): Promise<{ location: string; bytes: number }> {
    return this.api.addLog(this.name, name, text) as Promise<{ location: string; bytes: number }>;
  }

  /** The index file (a plain SQLite database, readable by Node's hci and any sqlite3). */
  exportIndex(): Promise<Uint8Array> {
    return this.api.exportIndex(this.name) as Promise<Uint8Array>;
  }

  importIndex(bytes: Uint8Array | ArrayBuffer): Promise<StatusReport> {
    return this.api.importIndex(this.name, bytes) as Promise<StatusReport>;
  }

  /** Releases the workspace so another tab can open it (the index stays in OPFS). */
  close(): Promise<void> {
    return this.api.close(this.name) as Promise<void>;
  }

  /** Deletes the workspace's index from OPFS. */
  remove(): Promise<void> {
    return this.api.remove(this.name) as Promise<void>;
  }
}

export class HciClient {
  constructor(
    readonly worker: Worker,
    readonly api: Comlink.Remote<HciWorkerApi>,
  ) {}

  /**
   * Opens (taking its OPFS area) a workspace. Rejects with code `workspace_open_elsewhere` when
   * another tab has it open, unless `takeOver` asks that tab to let go (it gets a `released` event).
   */
  async open(workspace: string, source?: BrowserSource, opts: Omit<OpenRequest, 'workspace' | 'source'> = {}): Promise<BrowserWorkspace> {
    const info = (await this.api.open({ workspace, source, ...opts })) as OpenResult;
    return new BrowserWorkspace(this.api, info);
  }

  list(): Promise<StoredWorkspace[]> {
    return this.api.list() as Promise<StoredWorkspace[]>;
  }

  /** Hears the Worker's events (a workspace taken over by another tab, wasm downloads); returns an unsubscribe function. */
  async onEvent(listener: (e: WorkerEvent) => void): Promise<() => void> {
    const id = (await this.api.subscribe(Comlink.proxy(listener))) as number;
    return () => void this.api.unsubscribe(id);
  }

  terminate(): void {
    this.api[Comlink.releaseProxy]();
    this.worker.terminate();
  }
}

/** Waits for the Worker to be ready and returns a client for it. */
export async function connectHci(worker: Worker, opts: { timeoutMs?: number } = {}): Promise<HciClient> {
  installErrorTransfer();
  await workerReady(worker, opts.timeoutMs);
  return new HciClient(worker, Comlink.wrap<HciWorkerApi>(worker));
}

/** Offers bytes (an exported index) as a download. */
export function downloadBytes(bytes: Uint8Array, filename = 'index.sqlite'): void {
  const url = URL.createObjectURL(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/vnd.sqlite3' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
