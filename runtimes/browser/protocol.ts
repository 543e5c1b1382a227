// What the page and the hci Worker agree on: the API the Worker exposes through comlink, the shapes
// of file sources, the "ready" handshake and how errors cross the boundary (code and hint survive,
// so a page can branch on `index_busy` or `workspace_open_elsewhere`). Requests and answers are the
// contract's types (core/contract/), as for the CLI and MCP. Owns no behaviour.
import * as Comlink from 'comlink';
import { HciError } from '../../core/platform.ts';
import type { IndexProgress } from '../../core/index/indexer.ts';
import type { ExplainResponse, IndexSummary, OutlineResponse, ResolveRequest, ResolveResponse, SearchRequest, SearchResponse, StatusReport } from '../../core/contract/index.ts';
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
  /** Overrides on top of the workspace's `.hci/settings.toml`. */
  settings?: Partial<Settings>;
  /**
   * How long to wait for OPFS when another tab or a closing page still holds this workspace
   * (default 2000 ms); then `workspace_open_elsewhere`.
   */
  waitMs?: number;
}

export interface OpenResult {
  workspace: string;
  /** The OPFS key of this workspace (its folder under `hci/`). */
  key: string;
  location: string;
  /** Whether an index is already there (from an earlier session or an import). */
  has_index: boolean;
  has_source: boolean;
}

export interface BrowserIndexOptions {
  full?: boolean;
  batchMs?: number;
}

/** A workspace with an index in this origin's OPFS. */
export interface StoredWorkspace {
  key: string;
  workspace: string;
  open_here: boolean;
}

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
  search(workspace: string, req: SearchRequest): Promise<SearchResponse>;
  status(workspace: string, opts?: { checkPending?: boolean }): Promise<StatusReport>;
  explain(workspace: string, hitId: string, opts?: { query?: string }): Promise<ExplainResponse>;
  outline(workspace: string, path: string): Promise<OutlineResponse>;
  resolve(workspace: string, query: ResolveRequest): Promise<ResolveResponse>;
  /** The index file's bytes: a plain SQLite database, the same format as `<workspace>/.hci/index.sqlite`. */
  exportIndex(workspace: string): Promise<Uint8Array>;
  /** Replaces the workspace's index with an exported file (from a browser or from Node). */
  importIndex(workspace: string, bytes: Uint8Array | ArrayBuffer): Promise<StatusReport>;
  /** Closes the workspace and releases its OPFS area, so another tab can open it. */
  close(workspace: string): Promise<void>;
  /** Deletes the workspace's index from OPFS. */
  remove(workspace: string): Promise<void>;
  /** Workspaces with an index in this origin's OPFS. */
  list(): Promise<StoredWorkspace[]>;
}

/**
 * 2: search takes mode `literal` | `regex`, `case_sensitive` and `whole_word` (the explorer's regex
 * toggle), and its hits may be `text_literal` with `match_lines`; regex errors arrive as
 * `invalid_regex`, an exhausted time budget as `search_timeout`.
 */
export const PROTOCOL_VERSION = 2;

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
