// What the page and the hci Worker agree on: the API the Worker exposes through comlink, the shapes
// of file sources, the "ready" handshake and how errors cross the boundary (code and hint survive,
// so a page can branch on `index_busy` or `workspace_open_elsewhere`). Every verb of the verb table
// (core/service/verbs.ts) goes through one call(), its request and answer the contract's types
// (core/contract/), as for the CLI and MCP; the rest is the Worker's own (workspaces on OPFS, their
// sources, indexing with progress, export and import, events). Owns no behaviour.
import * as Comlink from 'comlink';
import { HciError } from '../../core/platform.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { IndexSummary, StatusReport } from '../../core/contract/index.ts';
import type { VerbInput, VerbName, VerbOutput } from '../../core/service/verbs.ts';
import type { Settings } from '../../core/settings.ts';

/** Posted by the Worker once `Comlink.expose` runs (Deno drops messages sent before a listener exists). */
export const READY_MESSAGE = 'hci-worker-ready';

/**
 * Where a workspace's files come from. All of them are structured-cloneable, so the page hands them
 * to the Worker as they are (a directory handle from `showDirectoryPicker()`, the `files` of an
 * `<input webkitdirectory>`, the bytes of a .zip).
 */
export type BrowserSource =
  /** File System Access API (or an OPFS folder): read on demand; re-indexing is incremental. */
  | { kind: 'directory'; handle: FileSystemDirectoryHandle }
  /**
   * Files from `<input type="file" webkitdirectory>` or a drop. Paths come from `webkitRelativePath`
   * without its first segment (the folder the user picked), else from `paths[i]`, else the name.
   */
  | { kind: 'files'; files: FileList | File[]; paths?: string[] }
  /** A .zip archive; a single top folder (GitHub archives: `repo-main/`) is stripped by default. */
  | { kind: 'zip'; bytes: Uint8Array | ArrayBuffer | Blob; name?: string; stripTopFolder?: boolean }
  /** Files given as text or bytes (tests, generated content). */
  | { kind: 'memory'; files: Record<string, string | Uint8Array>; name?: string };

export interface OpenRequest {
  /** The workspace's name; each name gets its own OPFS area (`hci/<key>`). */
  workspace: string;
  /** Files to index. Optional: an index already in OPFS (or imported) is searchable without them. */
  source?: BrowserSource;
  /**
   * A published index's http(s) URL (`hci pack`, served with HTTP range requests; CORS when on
   * another origin): opened read-only under this name, read page by page, nothing stored in OPFS;
   * indexing answers `not_available`. Errors: `remote_no_ranges`, `remote_unreachable`,
   * `remote_changed`, `index_unrecognized`.
   */
  index?: string;
  /** Overrides on top of the workspace's `.hci/settings.toml`. */
  settings?: Partial<Settings>;
  /**
   * How long to wait for OPFS when another tab or a closing page still holds this workspace
   * (default 2000 ms); then `workspace_open_elsewhere`.
   */
  waitMs?: number;
  /**
   * When another tab holds the workspace, ask it to let go (it closes the workspace, stopping a run
   * after its current batch, and its page gets a `released` event) and wait for it up to waitMs
   * (default 5000 ms with takeOver). Without it such an open fails with `workspace_open_elsewhere`.
   */
  takeOver?: boolean;
}

export interface OpenResult {
  workspace: string;
  /** The OPFS key of this workspace (its folder under `hci/`). */
  key: string;
  location: string;
  /** Whether an index is already there (from an earlier session or an import). */
  has_index: boolean;
  has_source: boolean;
  /** A published index's URL, when the workspace is one (OpenRequest.index): read-only, not in OPFS. */
  index?: string;
}

export interface BrowserIndexOptions {
  full?: boolean;
  batchMs?: number;
}

/** What the Worker records beside a workspace's index after each run or import, for listing it unopened. */
export interface WorkspaceSummary {
  files: number;
  chunks: number;
  /** When the last indexing run finished (ISO 8601), or null. */
  indexed_at: string | null;
  /** The index file's size in bytes. */
  index_bytes: number;
  /** Where its files came from last (a directory's or archive's name), or an imported index file. */
  source?: { kind: BrowserSource['kind'] | 'import'; label: string };
}

/** A workspace with an index in this origin's OPFS. */
export interface StoredWorkspace {
  key: string;
  workspace: string;
  open_here: boolean;
  /** Another tab or window of this origin has it open (its Web Lock is held elsewhere). */
  open_elsewhere: boolean;
  summary?: WorkspaceSummary;
}

/** What the Worker tells the page unasked (subscribe()). */
export type WorkerEvent =
  /** Another tab took the workspace over: it is closed here (a running index was cancelled). */
  | { type: 'released'; workspace: string; reason: 'taken_over' }
  /** A wasm file the Worker fetched: tree-sitter's runtime or a grammar, loaded on first use. */
  | { type: 'asset'; what: string; url: string; bytes: number; ms: number }
  /** A parse worker started (for a pass, or warmed ahead of a first one) or ended (its pass done, cooled, failed). */
  | { type: 'parse-worker'; state: 'started' | 'ended' };

/** The Worker's API (every call is async across the boundary). Workspaces are addressed by name. */
export interface HciWorkerApi {
  /** Version of this protocol, for pages that load a Worker built separately. */
  protocol(): number;
  open(req: OpenRequest): Promise<OpenResult>;
  /** Replaces the file source (e.g. the same folder picked again after a reload). */
  setSource(workspace: string, source: BrowserSource | null): Promise<void>;
  index(workspace: string, opts?: BrowserIndexOptions, onProgress?: (p: IndexProgress) => void): Promise<IndexSummary>;
  /** Cancels a running index(); it rejects with code `cancelled` and keeps every committed batch. */
  cancel(workspace: string): Promise<boolean>;
  /**
   * One verb of the verb table on an open workspace: `call(ws, 'search', { query: 'Foo' })`,
   * `call(ws, 'status', { check_pending: true })`, `call(ws, 'file', { path })`… (protocol 5). The
   * request and the answer are the contract's; a failure is the verb's answer with status `error`.
   * `lane` (protocol 6): calls where only the newest matters (a search per keystroke): one still
   * waiting to run when a newer call of its lane arrives rejects with code `superseded`, unrun.
   */
  call<V extends VerbName>(workspace: string, verb: V, req: VerbInput<V>, lane?: string): Promise<VerbOutput<V>>;
  /** The index file's bytes: a plain SQLite database, the same format as `<workspace>/.hci/index.sqlite`. */
  exportIndex(workspace: string): Promise<Uint8Array>;
  /** Replaces the workspace's index with an exported file (from a browser or from Node). */
  importIndex(workspace: string, bytes: Uint8Array | ArrayBuffer): Promise<StatusReport>;
  /**
   * Hands an intercom event log (its NDJSON text) to the Worker under a workspace-relative name, for
   * the intercom verbs (intercomMessages, intercomMarkers, intercomFind, intercomRelate): a log is
   * named by its path in the workspace, a file of the source or one handed over here (kept in the
   * Worker, where relate appends; a source file is copied there on its first relate). The sidecar
   * lives in the workspace's OPFS area beside the index.
   */
  addLog(workspace: string, name: string, text: string): Promise<{ location: string; bytes: number }>;
  /** Closes the workspace and releases its OPFS area, so another tab can open it. */
  close(workspace: string): Promise<void>;
  /** Deletes the workspace's index from OPFS. */
  remove(workspace: string): Promise<void>;
  /** Workspaces with an index in this origin's OPFS. */
  list(): Promise<StoredWorkspace[]>;
  /** Registers a listener for WorkerEvents (a comlink proxy); returns its id for unsubscribe(). */
  subscribe(listener: (e: WorkerEvent) => void): number;
  unsubscribe(id: number): void;
}

/**
 * 2: the browse calls (files, file, facets) and events; 3: search takes `mode` (keyword | hybrid |
 * semantic), and `similar`; 4: search takes mode `literal` | `regex`, `case_sensitive` and
 * `whole_word` (the explorer's regex toggle), and its hits may be `text_literal` with `match_lines`;
 * regex errors arrive as `invalid_regex`, an exhausted time budget as `search_timeout`; 5: every verb
 * goes through `call(workspace, verb, request)` with the contract's request (status takes
 * `check_pending`, explain `{ hit_id, query }`, outline `{ path }`), replacing search, similar,
 * status, explain, outline, resolve, files, file, facets and the intercom methods; answers are the
 * service's (search's and similar's may carry the running `task`); 6: call() takes a `lane`, and a
 * call a newer one of its lane replaced before it ran rejects with `superseded`.
 */
export const PROTOCOL_VERSION = 6;

/** An error as it crosses the Worker boundary: message plus hci's stable code and hint. */
export interface WireError {
  message: string;
  name: string;
  code?: string;
  hint?: string;
  stack?: string;
}

/** The error a page sees: core's own HciError, `code` and `hint` as the core set them. */
export { HciError as HciWorkerError };

const THROW_MARKER_HANDLER = 'throw';
let installed = false;

/**
 * Makes thrown errors keep `code` and `hint` across comlink (its default handler keeps only
 * message, name and stack). Both sides install it; installing twice is harmless.
 */
export function installErrorTransfer(): void {
  if (installed) return;
  installed = true;
  const base = Comlink.transferHandlers.get(THROW_MARKER_HANDLER)!;
  Comlink.transferHandlers.set(THROW_MARKER_HANDLER, {
    canHandle: base.canHandle,
    serialize(thrown: unknown) {
      const value = (thrown as { value: unknown }).value;
      if (value instanceof Error) {
        const e = value as Error & { code?: unknown; hint?: unknown };
        const wire: WireError = { message: e.message, name: e.name, stack: e.stack };
        if (typeof e.code === 'string') wire.code = e.code;
        if (typeof e.hint === 'string') wire.hint = e.hint;
        return [{ isError: true, value: wire }, []];
      }
      return [{ isError: false, value }, []];
    },
    deserialize(serialized: unknown): never {
      const s = serialized as { isError: boolean; value: unknown };
      if (s.isError) {
        const w = s.value as WireError;
        const err = new HciError(w.code ?? 'internal', w.message, w.hint);
        if (w.stack) err.stack = w.stack;
        throw err;
      }
      throw s.value;
    },
  });
}
