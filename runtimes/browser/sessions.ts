// The hci Worker's open workspaces: one session per workspace (its OPFS slot, its file source, its
// settings, the intercom logs the page handed over, and the core service, core/service/, that answers
// its verbs), the queue that runs one workspace's lifecycle calls one after another, opening (taking
// the OPFS slot, waiting for or taking over from another tab: takeover.ts, opfs-storage.ts), replacing
// the source, closing and removing, the summary written beside each index for listing it unopened,
// and the listing itself; and read-only sessions over a published index's URL (`hci pack`, read in
// HTTP ranges by a synchronous XMLHttpRequest: xhr-reader.ts, runtimes/shared/remote-index.ts), which
// take no OPFS area. Owns the sessions' lifetime only: the API is worker-api.ts, idle work idle-work.ts.
import { HciWorkspace } from '../../core/workspace.ts';
import { HciError, type WorkspaceFs } from '../../core/platform.ts';
import { createMemoryWorkspaceFs } from '../../core/memory-fs.ts';
import { loadEngine, type EngineLoader } from '../../core/sqlite/engine.ts';
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import type { ParsePoolFactory } from '../../core/index/prepare.ts';
import type { Settings } from '../../core/settings.ts';
import { HciService, relativePathGuard } from '../../core/service/index.ts';
import type { VectorHost } from '../../core/vector/semantic.ts';
import {
  createOpfsIndexStorage, forgetPool, heldWorkspaceKeys, listWorkspaceNames, readWorkspaceMeta, removeWorkspaceName, takeWorkspace, workspaceKey,
  writeWorkspaceMeta, type WorkspaceSlot,
} from './opfs-storage.ts';
import { TakeOverChannel } from './takeover.ts';
import type { BrowserLogs } from './intercom.ts';
import type { BrowserSource, OpenRequest, StoredWorkspace, WorkspaceSummary } from './protocol.ts';

export interface Session {
  name: string;
  /** Its key among the sessions (workspaceKey of the name): its OPFS folder's name when it has one. */
  key: string;
  /** Its OPFS area; null for a published index. */
  slot: WorkspaceSlot | null;
  /** A published index's URL: read over HTTP, read-only, nothing in OPFS. */
  index?: string;
  fs: WorkspaceFs | null;
  source?: WorkspaceSummary['source'];
  settings?: Partial<Settings>;
  /** Intercom logs the page handed over (runtimes/browser/intercom.ts). */
  logs: BrowserLogs;
  svc: HciService;
}

/** What opening a workspace needs from the Worker: its loaders and, for passes over many files, a parse pool. */
export interface SessionHost {
  engineLoader: EngineLoader;
  grammars?: GrammarSource;
  vectors: VectorHost;
  parsePool?: ParsePoolFactory;
  /** Another tab took this workspace over: it is closed here. */
  released(workspace: string): void;
}

const DEFAULT_WAIT_MS = 2000;
const TAKE_OVER_WAIT_MS = 5000;

/** A source's files (a folder, a file list, a .zip): sources.ts loads when a workspace first gets one. */
async function workspaceFsFromSource(source: BrowserSource): Promise<WorkspaceFs> {
  return (await import('./sources.ts')).workspaceFsFromSource(source);
}

const publishedReadOnly = (what: string) =>
  new HciError('not_available', `a published index is read-only: ${what}`, 'open the repository as a folder or a .zip to index it here, or download the index file and import it');

function sourceLabel(source: BrowserSource, fs: WorkspaceFs): WorkspaceSummary['source'] {
  return { kind: source.kind, label: fs.rootLabel };
}

export class WorkerSessions {
  private readonly sessions = new Map<string, Session>();
  /** Opening is async (locks, OPFS): lifecycle calls for one workspace run one after another. */
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Workspaces this Worker is taking (waiting for their lock), and those asked back meanwhile. */
  private readonly opening = new Set<string>();
  private readonly askedBackWhileOpening = new Set<string>();
  private readonly takeOver: TakeOverChannel;

  constructor(private readonly host: SessionHost) {
    // Another tab asks for a workspace open here: close it (a running index stops after its batch).
    this.takeOver = new TakeOverChannel(async (key) => {
      const s = this.sessions.get(key);
      if (!s) {
        // Asked for while still taking it: the latest asker wins, once this open is done.
        if (this.opening.has(key)) this.askedBackWhileOpening.add(key);
        return;
      }
      s.svc.cancelIndexing();
      try {
        await this.close(s.name);
      } catch (e) {
        console.error(`hci: closing ${s.name} for another tab: ${(e as Error).message}`);
      } finally {
        // The page hears it even when closing failed: the slot is released either way.
        this.host.released(s.name);
      }
    });
  }

  /** Runs `fn` after every earlier lifecycle call for `key`. */
  serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.queues.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    this.queues.set(key, next.catch(() => {}));
    return next;
  }

  /** Whether a workspace is open or being opened (idle preloading waits for neither). */
  get idle(): boolean {
    return this.sessions.size === 0 && this.queues.size === 0;
  }

  /** The open session of a workspace, or `workspace_not_open`. */
  get(name: string): Session {
    const s = this.sessions.get(workspaceKey(name));
    if (!s) throw new HciError('workspace_not_open', `workspace "${name}" is not open in this Worker`, 'call open({ workspace }) first');
    return s;
  }

  /** The open session of a workspace, if any. */
  find(name: string): Session | undefined {
    return this.sessions.get(workspaceKey(name));
  }

  /** Whether `s` is still the open session of its workspace (not closed or reopened meanwhile). */
  current(s: Session): boolean {
    return this.sessions.get(s.key) === s;
  }

  /**
   * Opens a workspace (or gives an open one a new source or settings) and runs `opened` on it inside
   * the same turn of its queue, before anyone hears it is open.
   */
  open(req: OpenRequest, opened: (s: Session) => Promise<void>): Promise<Session> {
    const key = workspaceKey(req?.workspace);
    return this.serial(key, async () => {
      let s = this.sessions.get(key);
      // A published index under this name, or a stored workspace where one was: the other one closes.
      if (s && (s.index ?? null) !== (req.index ?? null)) {
        await this.closeSession(s);
        s = undefined;
      }
      if (req.index !== undefined) {
        if (req.source !== undefined) throw publishedReadOnly('it takes no files to index');
        if (!s) {
          const base = { name: req.workspace, key, slot: null, index: req.index, fs: null, settings: req.settings, logs: new Map() };
          s = { ...base, svc: await this.service(base) };
          this.sessions.set(key, s);
        }
      } else if (s) {
        if (req.source !== undefined || req.settings !== undefined) {
          await s.svc.close();
          if (req.source !== undefined) {
            s.fs = await workspaceFsFromSource(req.source);
            s.source = sourceLabel(req.source, s.fs);
          }
          if (req.settings !== undefined) s.settings = req.settings;
          s.svc = await this.service(s);
        }
      } else {
        const { sqlite3 } = await loadEngine(this.host.engineLoader);
        const fs = req.source ? await workspaceFsFromSource(req.source) : null;
        if (req.takeOver) this.takeOver.ask(key);
        this.opening.add(key);
        try {
          const slot = await takeWorkspace(sqlite3, req.workspace, req.waitMs ?? (req.takeOver ? TAKE_OVER_WAIT_MS : DEFAULT_WAIT_MS));
          try {
            const base = { name: req.workspace, key, slot, fs, settings: req.settings, logs: new Map(), source: req.source && fs ? sourceLabel(req.source, fs) : undefined };
            s = { ...base, svc: await this.service(base) };
          } catch (e) {
            slot.release();
            throw e;
          }
          this.sessions.set(key, s);
        } finally {
          this.opening.delete(key);
        }
        if (this.askedBackWhileOpening.delete(key)) {
          // Give the page a moment to take the answer in before it hears the workspace went.
          setTimeout(() => void this.takeOver.release(key), 200);
        }
        await this.recordSummary(s);
      }
      await opened(s);
      return s;
    });
  }

  /** Replaces the file source (null: none, the stored index only). */
  setSource(workspace: string, source: BrowserSource | null): Promise<void> {
    const s = this.get(workspace);
    if (s.index) return Promise.reject(publishedReadOnly('it has no file source'));
    return this.serial(s.key, async () => {
      await s.svc.close();
      s.fs = source ? await workspaceFsFromSource(source) : null;
      s.source = source && s.fs ? sourceLabel(source, s.fs) : undefined;
      s.svc = await this.service(s);
    });
  }

  /** A new service for a session whose index file was replaced (importIndex), its workspace open. */
  async reopen(s: Session): Promise<void> {
    s.svc = await this.service(s);
  }

  /** Closes the workspace and releases its OPFS slot. */
  close(workspace: string): Promise<void> {
    const key = workspaceKey(workspace);
    return this.serial(key, async () => {
      const s = this.sessions.get(key);
      if (s) await this.closeSession(s);
    });
  }

  /** Closes an open session (inside its queue's turn). */
  private async closeSession(s: Session): Promise<void> {
    this.sessions.delete(s.key);
    try {
      await s.svc.close();
    } finally {
      s.slot?.release();
    }
  }

  /** Deletes the workspace's index from OPFS (closing it first when it is open here). */
  remove(workspace: string): Promise<void> {
    const key = workspaceKey(workspace);
    return this.serial(key, async () => {
      const s = this.sessions.get(key);
      let slot: WorkspaceSlot;
      // A published index has nothing here to delete: it closes.
      if (s && !s.slot) return this.closeSession(s);
      if (s?.slot) {
        await s.svc.close();
        this.sessions.delete(key);
        slot = s.slot;
      } else {
        const { sqlite3 } = await loadEngine(this.host.engineLoader);
        slot = await takeWorkspace(sqlite3, workspace, DEFAULT_WAIT_MS);
      }
      try {
        await slot.pool.removeVfs();
        forgetPool(key);
      } finally {
        slot.release();
      }
      await removeWorkspaceName(key);
    });
  }

  /** Workspaces with an index in this origin's OPFS, and where each is open. */
  async list(): Promise<StoredWorkspace[]> {
    const [stored, held] = await Promise.all([listWorkspaceNames(), heldWorkspaceKeys()]);
    return stored.map((w) => ({ ...w, open_here: this.sessions.has(w.key), open_elsewhere: !this.sessions.has(w.key) && held.has(w.key) }));
  }

  /** Writes the workspace's summary beside its index (for list() while it is not open). */
  async recordSummary(s: Session): Promise<void> {
    if (!s.slot) return; // a published index is not listed among this browser's workspaces
    try {
      const st = await s.svc.call('status', { check_pending: false });
      // Opened without files (after a reload): where they came from last time still holds.
      const source = s.source ?? (await readWorkspaceMeta(s.slot.key))?.summary?.source;
      const summary: WorkspaceSummary | undefined = st.index
        ? { files: st.index.files, chunks: st.index.chunks, indexed_at: st.index.indexed_at, index_bytes: st.size?.index_bytes ?? 0, ...(source ? { source } : {}) }
        : undefined;
      await writeWorkspaceMeta(s.slot.key, { workspace: s.name, ...(summary ? { summary } : {}), ...(s.slot.health ? { health: s.slot.health } : {}) });
    } catch {
      // only the listing misses it
    }
  }

  /** A service over the session's source and OPFS slot, with its workspace open (bad settings throw here). */
  private async service(s: Pick<Session, 'name' | 'slot' | 'index' | 'fs' | 'settings' | 'logs'>): Promise<HciService> {
    const { engineLoader, grammars, vectors, parsePool } = this.host;
    const { slot, index } = s;
    const svc = new HciService({
      root: s.name,
      surface: 'browser',
      watch: 'off',
      host: {
        name: 'browser',
        pathGuard: relativePathGuard,
        openWorkspace: async () => {
          if (slot) {
            return HciWorkspace.open(
              { fs: s.fs ?? createMemoryWorkspaceFs(s.name, {}), storage: createOpfsIndexStorage(slot), engineLoader, grammars, vectors, parsePool },
              { settings: s.settings },
            );
          }
          // A published index: its reader loads with the first one opened.
          const [{ openPublishedIndex }, { createXhrRangeReader }] = await Promise.all([import('../shared/remote-index.ts'), import('./xhr-reader.ts')]);
          return openPublishedIndex(index!, { settings: s.settings }, { reader: () => createXhrRangeReader(), host: { engineLoader, vectors } });
        },
        // Opened from its stored index alone: nothing to index, no pending changes to count.
        hasSource: () => s.fs !== null,
        // A published index: no indexing run, no watcher (reindex answers not_available).
        readOnly: () => !slot,
        // Loaded on the first intercom call: the engine and its schemas stay out of the Worker's start.
        createIntercom: async (ws) => {
          if (!slot) throw new HciError('not_available', 'message ↔ code traceability needs the workspace\'s own index in this browser: a published index has none', 'open the repository as a folder or a .zip');
          return (await import('./intercom.ts')).createBrowserIntercom(ws, slot, s.logs);
        },
      },
    });
    try {
      await svc.workspace();
      return svc;
    } catch (e) {
      await svc.close();
      throw e;
    }
  }
}
