// The index on OPFS: one opfs-sahpool VFS per workspace, each in its own folder (`hci/<key>/`), so
// several workspaces of one origin keep separate index files. Owns workspace keys, taking and
// releasing a workspace (a Web Lock plus the pool's sync access handles, which only one Worker of the
// origin can hold at a time), and the IndexStorage over a pool, with how a workspace's first pass
// journals (none, behind a mark in the header: see beginUnjournaledPass), and the index's page-check
// record kept beside it across reloads (WorkspaceSlot.health). No COOP/COEP headers are needed.
import type { SAHPoolUtil, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { HciError } from '../../core/platform.ts';
import type { IndexStorage } from '../../core/index/storage.ts';
import type { Database, SqliteEngine } from '../../core/sqlite/engine.ts';
import type { WorkspaceSummary } from './protocol.ts';

/** OPFS folder holding one pool folder per workspace (and a `<key>.json` with its name). */
export const OPFS_ROOT = 'hci';
/** SQLite's page size for an index created here (see open() below). */
export const OPFS_PAGE_SIZE = 65536;
/** The index file's name inside a pool (sahpool names are absolute paths). */
export const INDEX_NAME = '/index.sqlite';

/** A stable, OPFS- and VFS-name-safe key for a workspace name: a readable slug plus a hash. */
export function workspaceKey(name: string): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new HciError('invalid_request', 'a workspace needs a name', 'pass e.g. the repository name: open({ workspace: "my-repo", … })');
  }
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'ws';
  return `${slug}-${(h >>> 0).toString(36)}`;
}

function openElsewhere(name: string): HciError {
  return new HciError(
    'workspace_open_elsewhere',
    `workspace "${name}" is open in another tab or window of this site (its index in OPFS can be used by one tab at a time)`,
    'close it there (or call close() on it), then open it here again; other workspaces can be opened meanwhile',
  );
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Takes the Web Lock `hci:<key>`, waiting up to waitMs for a tab that is closing or reloading to
 * let go. Resolves to a release function, or null when another tab keeps it.
 */
async function takeWebLock(key: string, waitMs: number): Promise<(() => void) | null> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks) return () => {}; // no Web Locks: the pool's own exclusivity still guards the files
  const deadline = Date.now() + waitMs;
  for (;;) {
    const release = await new Promise<(() => void) | null>((resolve) => {
      locks
        .request(`hci:${key}`, { ifAvailable: true }, (lock) => {
          if (!lock) {
            resolve(null);
            return undefined;
          }
          return new Promise<void>((done) => resolve(() => done()));
        })
        .catch(() => resolve(null));
    });
    if (release || Date.now() >= deadline) return release;
    await sleep(Math.min(100, Math.max(1, deadline - Date.now())));
  }
}

function isHeldElsewhere(e: unknown): boolean {
  const name = (e as { name?: string })?.name ?? '';
  const msg = String((e as Error)?.message ?? e);
  return name === 'NoModificationAllowedError' || name === 'InvalidStateError' || /NoModificationAllowed|Access Handles cannot be created|another open Access Handle/i.test(msg);
}

export interface WorkspaceSlot {
  key: string;
  pool: SAHPoolUtil;
  /**
   * The index's page-check record (core/index/health.ts's `health.json` sidecar: the file stamp last
   * found sound), kept in the workspace's `hci/<key>.json` so a reopened workspace is not checked
   * again over the same bytes; null: none (never checked, or the file was replaced since).
   */
  health: string | null;
  /** Gives the workspace up: the pool's handles and the Web Lock (the index stays in OPFS). */
  release(): void;
}

const pools = new Map<string, SAHPoolUtil>();

/**
 * Takes a workspace's OPFS area for this Worker. Another tab holding it (the Web Lock, or the pool's
 * access handles) is waited for up to waitMs, then answered with `workspace_open_elsewhere`.
 */
export async function takeWorkspace(sqlite3: Sqlite3Static, name: string, waitMs: number): Promise<WorkspaceSlot> {
  const key = workspaceKey(name);
  const releaseLock = await takeWebLock(key, waitMs);
  if (!releaseLock) throw openElsewhere(name);
  const deadline = Date.now() + waitMs;
  try {
    let pool = pools.get(key);
    for (;;) {
      try {
        if (pool) {
          if (pool.isPaused()) await pool.unpauseVfs();
        } else {
          pool = await sqlite3.installOpfsSAHPoolVfs({
            name: `hci-${key}`,
            directory: `${OPFS_ROOT}/${key}`,
            initialCapacity: 4,
            // Never let a failed start (another tab holds the handles) delete the pool's files,
            // and let a later attempt try again instead of returning the cached failure.
            preserveOnInitFailure: true,
            forceReinitIfPreviouslyFailed: true,
          } as Parameters<Sqlite3Static['installOpfsSAHPoolVfs']>[0] & { forceReinitIfPreviouslyFailed: boolean });
          pools.set(key, pool);
        }
        break;
      } catch (e) {
        if (!isHeldElsewhere(e)) {
          throw new HciError('storage_unavailable', `cannot open the OPFS storage of workspace "${name}": ${(e as Error)?.message ?? e}`, 'this browser needs OPFS with sync access handles in Workers (Chromium 108+, Firefox 111+, Safari 16.4+)');
        }
        if (Date.now() >= deadline) throw openElsewhere(name);
        await sleep(100);
      }
    }
    const p = pool!;
    return {
      key,
      pool: p,
      health: (await readWorkspaceMeta(key))?.health ?? null,
      release() {
        try {
          if (!p.isPaused()) p.pauseVfs();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (e) {
    releaseLock();
    throw e;
  }
}

/** Forgets a pool after removeVfs() (a later take installs a fresh one). */
export function forgetPool(key: string): void {
  pools.delete(key);
}

/**
 * The header's application_id while a first pass runs without a journal ('hci1' in ASCII): set by
 * a journaled, flushed commit before the pass and cleared by one after it, so it is on disk for as
 * long as the file may hold a torn transaction.
 */
export const UNJOURNALED_PASS_MARK = 0x68636931;

function unfinishedFirstPass(db: Database): boolean {
  try {
    return Number(db.selectValue('PRAGMA application_id')) === UNJOURNALED_PASS_MARK;
  } catch {
    return false; // unreadable: the store's own open says what is wrong with it
  }
}

/**
 * A pass into an empty index (a workspace's first) runs without a rollback journal and without
 * flushes: nothing it writes has to be rolled back to an earlier state, because there is none worth
 * keeping. Each batch is still one transaction (rolled back in memory if it fails, and whole to this
 * Worker's readers). If the pass is cut off by a crash or a closed tab, the mark left in the header
 * makes the next open start from an empty file (open() above): the first index is then built again,
 * never half-read. A cancelled or failed pass ends normally: its batches stay, journaled from then on.
 * On FluentAvalonia (686 files) it took a first pass's flushes (each an fsync: 1–20 ms on a shared
 * disk, seconds when it is busy) from ~130 to 29, and about halved the bytes written for as many
 * batches (no journal copies). Rollback
 * journal kept afterwards: DELETE (PERSIST, tried, makes every read transaction open and close the
 * journal to see whether it is hot, and the pool flushes a file on close).
 */
function beginUnjournaledPass(db: Database): boolean {
  try {
    if (Number(db.selectValue('SELECT count(*) FROM files')) !== 0) return false;
    db.exec(`PRAGMA application_id = ${UNJOURNALED_PASS_MARK}`);
    db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF');
    return true;
  } catch {
    return false;
  }
}

function endUnjournaledPass(db: Database): void {
  try {
    // Journaled and flushed again first (the store's own settings, core/index/store.ts): the commit
    // clearing the mark flushes everything the pass wrote with it.
    db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL');
    db.exec('PRAGMA application_id = 0');
  } catch {
    // The mark stays: the next open starts over, as after a crash.
  }
}

/** The page-check record's sidecar name (core/index/health.ts), kept in OPFS (WorkspaceSlot.health). */
const HEALTH_SIDECAR = 'health.json';

/**
 * What changes whenever SQLite changes the index file's bytes: the header's file change counter
 * (bumped by every committed write; the rollback journal restores it with the pages it restores),
 * page count, freelist and schema cookie — bytes 24–43 of page 1, read through `db` (sqlite_dbpage).
 * Bytes written around SQLite (an imported file) are not seen: that path forgets the record
 * (forgetHealth). Null when unreadable.
 */
function headerStamp(db: Database): string | null {
  try {
    const v = db.selectValue('SELECT hex(substr(data, 25, 20)) FROM sqlite_dbpage WHERE pgno = 1');
    return typeof v === 'string' && v ? v : null;
  } catch {
    return null;
  }
}

/** The index file was replaced around SQLite (imported, or started over): its page check runs again. */
export function forgetHealth(slot: WorkspaceSlot): void {
  slot.health = null;
  void saveHealth(slot.key, null);
}

/** The core's IndexStorage over one workspace's pool: the index, or another database beside it (the intercom sidecar). */
export function createOpfsIndexStorage(slot: WorkspaceSlot, file = INDEX_NAME): IndexStorage {
  const { pool } = slot;
  /** The connection open() made last (the store's): the one an indexing pass writes through. */
  let opened: Database | null = null;
  let indexing = false;
  let since = 0;
  const unlinkFiles = () => {
    pool.unlink(`${file}-journal`);
    pool.unlink(file);
    if (file === INDEX_NAME) forgetHealth(slot);
  };
  const sidecars = new Map<string, string>();
  // The index's page-check record outlives the Worker (WorkspaceSlot.health): a reload does not run
  // SQLite's quick_check over the whole file again (FluentAvalonia's 27.7 MB: ~0.1 s of the Worker,
  // twice per reopen — the open's summary and the page's status — where the first keystrokes land).
  const persisted = file === INDEX_NAME;
  return {
    location: `opfs:/${OPFS_ROOT}/${slot.key}${file}`,
    async exists() {
      return pool.getFileNames().includes(file);
    },
    open(_engine: SqliteEngine): Database {
      // Flags 'c' (create, no 't' = no SQL tracing). The pool locks per connection within this
      // Worker; other tabs are kept out by takeWorkspace().
      const connect = () => new (pool.OpfsSAHPoolDb as unknown as new (o: { filename: string; flags: string }) => Database)({ filename: file, flags: 'c' });
      let db = connect();
      if (file === INDEX_NAME && unfinishedFirstPass(db)) {
        // A first pass written without a journal was cut off (a crash, a closed tab): what it left
        // may be torn. Start from an empty file; the next index run builds it again.
        db.close();
        unlinkFiles();
        db = connect();
      }
      opened = db;
      // A new file gets 64 KiB pages (an existing one keeps its own: the pragma only acts before the
      // first write). Each sync-access-handle write and flush costs the same whatever its size, and an
      // indexing pass writes and journals pages one by one: on FluentAvalonia (686 files) 64 KiB pages
      // took a cold pass from 7.4 s to 4.9 s (medians of interleaved runs, load 8–10) for a 28% larger file (5.7 → 7.3 MB).
      db.exec(`PRAGMA page_size = ${OPFS_PAGE_SIZE}`);
      return db;
    },
    async remove() {
      unlinkFiles();
    },
    claimIndexer() {
      if (indexing) return null;
      indexing = true;
      since = Date.now();
      const db = opened;
      const unjournaled = file === INDEX_NAME && db !== null && beginUnjournaledPass(db);
      return {
        release: () => {
          indexing = false;
          if (unjournaled && opened === db) endUnjournaledPass(db);
        },
      };
    },
    indexerHolder() {
      return indexing ? { pid: 0, since } : null;
    },
    ...(persisted ? { fileStamp: () => (opened ? headerStamp(opened) : null) } : {}),
    // Recent queries (for explain) stay in memory: a Worker is a long-lived host. The page-check
    // record is kept in OPFS too (WorkspaceSlot.health).
    readSidecar: (n) => (persisted && n === HEALTH_SIDECAR ? slot.health : (sidecars.get(n) ?? null)),
    writeSidecar: (n, t) => {
      if (!persisted || n !== HEALTH_SIDECAR) return void sidecars.set(n, t);
      slot.health = t;
      void saveHealth(slot.key, t);
    },
    appendSidecar: (n, line) => void sidecars.set(n, `${sidecars.get(n) ?? ''}${line}\n`),
  };
}

// ---------------------------------------------------------------------------------------------
// Workspace names and summaries beside the pools (`hci/<key>.json`), for listing what this origin
// holds without opening (and so taking) each workspace

async function rootDir(create: boolean): Promise<FileSystemDirectoryHandle | null> {
  try {
    const opfs = await navigator.storage.getDirectory();
    return await opfs.getDirectoryHandle(OPFS_ROOT, { create });
  } catch {
    return null;
  }
}

/** What `hci/<key>.json` holds: the workspace's name and, once indexed, its summary and page-check record. */
export interface WorkspaceMeta {
  workspace: string;
  summary?: WorkspaceSummary;
  /** WorkspaceSlot.health. */
  health?: string;
}

/** Writes of one `hci/<key>.json`, one after another (each reads what the one before wrote). */
const metaWrites = new Map<string, Promise<void>>();

function queueMetaWrite(key: string, change: (old: WorkspaceMeta | null) => WorkspaceMeta | null): Promise<void> {
  const next = (metaWrites.get(key) ?? Promise.resolve()).then(async () => {
    const meta = change(await readWorkspaceMeta(key));
    if (!meta) return;
    const dir = await rootDir(true);
    if (!dir) return;
    const fh = await dir.getFileHandle(`${key}.json`, { create: true });
    const w = await (fh as FileSystemFileHandle & { createWritable(): Promise<{ write(d: string): Promise<void>; close(): Promise<void> }> }).createWritable();
    await w.write(JSON.stringify(meta));
    await w.close();
  });
  const settled = next.catch(() => {});
  metaWrites.set(key, settled);
  void settled.then(() => metaWrites.get(key) === settled && metaWrites.delete(key));
  return next;
}

/** Writes `hci/<key>.json` (after the writes queued before it): the caller gives the slot's page-check record too. */
export function writeWorkspaceMeta(key: string, meta: WorkspaceMeta): Promise<void> {
  return queueMetaWrite(key, () => meta);
}

/** Keeps (or, null, drops) the page-check record in `hci/<key>.json`; nothing to do without the file (the summary written next carries it). */
function saveHealth(key: string, health: string | null): Promise<void> {
  return queueMetaWrite(key, (old) => {
    if (!old || (old.health ?? null) === health) return null;
    const { health: _, ...rest } = old;
    return health === null ? rest : { ...rest, health };
  }).catch(() => {});
}

export async function readWorkspaceMeta(key: string): Promise<WorkspaceMeta | null> {
  try {
    const dir = await rootDir(false);
    const fh = await dir?.getFileHandle(`${key}.json`);
    return fh ? (JSON.parse(await (await fh.getFile()).text()) as WorkspaceMeta) : null;
  } catch {
    return null;
  }
}

export async function removeWorkspaceName(key: string): Promise<void> {
  await metaWrites.get(key); // a write queued before would create the file again
  const dir = await rootDir(false);
  await dir?.removeEntry(`${key}.json`).catch(() => {});
}

export async function listWorkspaceNames(): Promise<Array<{ key: string } & WorkspaceMeta>> {
  const dir = (await rootDir(false)) as (FileSystemDirectoryHandle & { entries(): AsyncIterableIterator<[string, FileSystemHandle]> }) | null;
  if (!dir) return [];
  const out: Array<{ key: string } & WorkspaceMeta> = [];
  for await (const [name, h] of dir.entries()) {
    if (h.kind !== 'file' || !name.endsWith('.json')) continue;
    try {
      const meta = JSON.parse(await (await (h as FileSystemFileHandle).getFile()).text()) as Partial<WorkspaceMeta>;
      if (typeof meta.workspace !== 'string') continue;
      out.push({ key: name.slice(0, -5), workspace: meta.workspace, ...(meta.summary ? { summary: meta.summary } : {}) });
    } catch {
      // a damaged name file: the pool is still there, just unnamed
    }
  }
  return out.sort((a, b) => (a.workspace < b.workspace ? -1 : a.workspace > b.workspace ? 1 : 0));
}

/** Keys of the workspaces whose Web Lock some Worker of this origin holds (this one's included). */
export async function heldWorkspaceKeys(): Promise<Set<string>> {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks?.query) return new Set();
  const { held = [] } = await locks.query();
  return new Set(held.map((l) => l.name ?? '').filter((n) => n.startsWith('hci:')).map((n) => n.slice(4)));
}
