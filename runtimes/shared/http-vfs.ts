// A published index read over HTTP: the read-only `hci-http` SQLite VFS (the shared synchronous VFS,
// sync-vfs.ts, over RemoteFile: pages come from range requests, through its cache and read-ahead)
// and the IndexStorage over it, for every runtime — Node and Deno pass a RangeReader over a helper
// worker (range-channel.ts), the browser Worker a synchronous XMLHttpRequest. Owns opening the URL
// (the probe happens in exists(), so a bad URL is an answer before SQLite starts), the registry
// that lets the VFS find a file by the name SQLite opens, re-checking the file as each read
// transaction starts (the VFS lock), reading ahead what a first lookup and a search need (on opening,
// in three requests: every B-tree's root, the children of looked-up roots that have few, then the keyword
// index's structure and the pack's records; the pages of rows a search names, prefetchRows), and the storage's read-only rules: nothing indexes, claims or
// removes it, sidecars (recent queries) live in memory. Imports no platform module.
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { HciError } from '../../core/platform.ts';
import type { IndexStorage } from '../../core/index/storage.ts';
import type { Database, SqliteEngine } from '../../core/sqlite/engine.ts';
import { ROOTS_NOT_READ_AHEAD } from '../../core/index/schema.ts';
import { installSyncVfs, type SyncFileSystem } from './sync-vfs.ts';
export { indexUrl } from './index-url.ts';
import { RemoteFile, type RangeReader, type RemoteFileOptions, type RemoteStats } from './remote-file.ts';
import { fetchRowPages, interiorChildren, nextRowPages } from './btree-pages.ts';
import { PACKED_FILE_LIST } from '../../core/index/file-list.ts';
import { PACKED_CHUNK_FILES } from '../../core/index/chunk-files.ts';
import { VARIANT_GROUPS_TABLE } from '../../core/search/variants.ts';

export const HTTP_VFS_NAME = 'hci-http';

/** Open remote files by the name SQLite opens them under (`/hci-http/<n>`). */
const files = new Map<string, RemoteFile>();
let nextName = 1;

const readOnly = () => new HciError('not_available', 'a published index is read-only', 'index the repository where its files are');

const remoteFileSystem: SyncFileSystem = {
  open(path, { readwrite }) {
    const file = files.get(path);
    if (!file) throw new Error(`no remote file is open as ${path}`);
    if (readwrite) throw readOnly();
    return {
      read: (dest, offset) => file.read(dest, offset),
      write: () => {
        throw readOnly();
      },
      truncate: () => {
        throw readOnly();
      },
      sync: () => {},
      size: () => file.size,
      close: () => {},
    };
  },
  exists: (path) => files.has(path),
  remove: () => false,
  existsNonEmpty: () => false, // no journal is ever beside a remote file
  isWritable: () => false,
  resolve: (path) => path,
  dirname: (path) => path.replace(/\/[^/]*$/, '') || '/',
  syncDir: () => {},
  tempPath: () => {
    throw readOnly();
  },
  randomFill: (out) => {
    for (let i = 0; i < out.length; i++) out[i] = (Math.random() * 256) | 0;
  },
};

/** Installs the read-only VFS into a loaded sqlite3 module (idempotent) and returns its name. */
export function installHttpVfs(sqlite3: Sqlite3Static): string {
  return installSyncVfs(sqlite3, HTTP_VFS_NAME, remoteFileSystem, (lockPath) => {
    const file = files.get(lockPath.replace(/\.lock$/, ''));
    return {
      // A read transaction starts: re-check the file when the last reply is old (throws remote_changed).
      lock: (from, to) => {
        if (from === 0) file?.revalidate();
        return to;
      },
      unlock: () => {},
      reservedElsewhere: () => false,
      dispose: () => {},
    };
  }, { asDefault: false });
}

export interface HttpStorageOptions extends RemoteFileOptions {
  /** A RangeReader for this storage (made on first use; closed with the storage's last file). */
  reader: () => RangeReader;
}

/** What a remote storage adds to IndexStorage: its counts of requests and bytes (the bench reads them). */
export interface HttpIndexStorage extends IndexStorage {
  stats(): RemoteStats;
  close(): void;
}

/** The IndexStorage of a published index at `url` (read-only). */
export function createHttpIndexStorage(url: string, opts: HttpStorageOptions): HttpIndexStorage {
  let reader: RangeReader | null = null;
  let file: RemoteFile | null = null;
  const names: string[] = [];
  const sidecars = new Map<string, string>();
  const totals: RemoteStats = { requests: 0, bytes: 0, pageReads: 0, cacheHits: 0 };
  /** Files whose B-tree roots were read ahead (readRoots). */
  const rootsRead = new WeakSet<RemoteFile>();
  /** Root pages of the tables rows were prefetched from, per open file. */
  let roots = new Map<string, number | null>();
  /** The open file, or a new one when there is none or the last one changed under its URL. */
  const current = (): RemoteFile => {
    if (file && !file.failed) return file;
    if (file) addStats(totals, file.stats);
    reader ??= opts.reader();
    file = RemoteFile.open(url, reader, opts);
    roots = new Map();
    return file;
  };
  return {
    location: url,
    readOnly: true,
    async exists() {
      current();
      return true;
    },
    open(engine: SqliteEngine): Database {
      const f = current();
      const name = `/hci-http/${nextName++}`;
      files.set(name, f);
      names.push(name);
      const db = new engine.sqlite3.oo1.DB({ filename: name, flags: 'r', vfs: installHttpVfs(engine.sqlite3) }) as Database;
      if (!rootsRead.has(f)) {
        rootsRead.add(f);
        readRoots(f, db);
      }
      return db;
    },
    async remove() {
      throw readOnly();
    },
    claimIndexer: () => null,
    indexerHolder: () => null,
    readSidecar: (name) => sidecars.get(name) ?? null,
    writeSidecar: (name, text) => void sidecars.set(name, text),
    appendSidecar: (name, text) => void sidecars.set(name, `${sidecars.get(name) ?? ''}${text}\n`),
    failure: () => file?.takeError() ?? null,
    prefetchRows(db, table, rowids) {
      if (!file || file.failed || !rowids.length) return;
      const f = file;
      let root = roots.get(table);
      if (root === undefined) {
        root = Number(db.selectValue("SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?", [table]) ?? 0) || null;
        roots.set(table, root);
      }
      if (!root) return;
      try {
        const usable = f.pageSize - f.page(1)[20];
        fetchRowPages((n) => f.page(n), (pages) => f.prefetch(pages), root, rowids, usable);
      } catch {
        // A guess that failed (the file changed, a request failed): SQLite's own reads report it.
      }
    },
    stale: () => file?.failed?.code === 'remote_changed',
    stats() {
      const out = { ...totals };
      if (file) addStats(out, file.stats);
      return out;
    },
    close() {
      for (const n of names.splice(0)) files.delete(n);
      file?.close();
      file = null;
      reader?.close?.();
      reader = null;
    },
  };
}

/**
 * A root with at most this many children, of the B-trees a search looks rows up in by key, has them
 * read on opening: a deep B-tree's interior level (the keyword index's, the symbol index's) or a
 * small one's leaves. (Not the files table and its indexes: a search takes files from the pack's list.)
 */
const FEW_CHILDREN = 16;
const LOOKED_UP = ['chunks_fts_data', 'chunks_fts_idx', 'chunks_fts_docsize', 'chunks', 'chunks_by_symbol', 'file_data'];

/** Rows of a pack a first search reads (core/index/file-list.ts, chunk-files.ts, search/variants.ts): one record each, an overflow chain. */
const PACK_RECORDS = [PACKED_FILE_LIST, PACKED_CHUNK_FILES, VARIANT_GROUPS_TABLE];

/** The keyword index's averages (FTS5_AVERAGES_ROWID) and structure (FTS5_STRUCTURE_ROWID) rows: BM25 and every doclist lookup read them first. */
const FTS_HEAD_ROWS = [1, 10];

/**
 * Reads ahead on opening, in three requests, what every first search reads before its own rows:
 * (1) the root page of every table and index a keyword search reads (not those of
 * core/index/schema.ts ROOTS_NOT_READ_AHEAD), one run as a packed file lays them out (VACUUM writes
 * the roots first, after the schema): a first lookup in any of them then costs only its lower
 * pages; (2) the children of the roots of LOOKED_UP that have at most FEW_CHILDREN — a deep
 * B-tree's interior level, so its first lookup costs one leaf, or a small one whole (not over a
 * server that answers one range per request); (3) the keyword index's
 * averages and structure rows and the pack's records (the file list, the chunks' files, the variant
 * groups): their leaves and overflow chains. Each was a request of its own, one after another, in
 * a first search (Avalonia at 8 KB pages: 6 such requests before its doclists, now these 3). A
 * guess: a failure here is SQLite's to meet and report.
 */
function readRoots(f: RemoteFile, db: Database): void {
  try {
    const rows = db.selectArrays(`SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0 AND name NOT IN (${ROOTS_NOT_READ_AHEAD.map(() => '?').join(', ')})`, [...ROOTS_NOT_READ_AHEAD]) as Array<[string, number]>;
    const roots = new Map(rows.map(([name, root]) => [String(name), Number(root)]));
    f.prefetch(roots.values());
    const children: number[] = [];
    // Not from a server that answers one range per request: those pages lie apart, a request each,
    // more than the lookups they spare (Avalonia at 4 KB pages, a first query's requests per kind: main's
    // 39.5-80.5 became 56-95.5 with them; bench/results/remote-Avalonia-fed13.md).
    for (const name of f.manyRanges === false ? [] : LOOKED_UP) {
      const root = roots.get(name);
      const list = root ? interiorChildren(f.page(root), root) : null;
      if (list && list.length <= FEW_CHILDREN) children.push(...list);
    }
    f.prefetch(children);
    const usable = f.pageSize - f.page(1)[20];
    const walks: Array<[number | undefined, number[]]> = [[roots.get('chunks_fts_data'), FTS_HEAD_ROWS]];
    for (const table of PACK_RECORDS) {
      const root = roots.get(table);
      if (root) walks.push([root, (db.selectValues(`SELECT rowid FROM ${table}`) as number[]).map(Number)]);
    }
    f.prefetch(walks.flatMap(([root, ids]) => (root ? nextRowPages((n) => f.cached(n), root, ids, usable) : [])));
  } catch {
    // Reported by the next statement SQLite runs.
  }
}

function addStats(into: RemoteStats, s: RemoteStats): void {
  into.requests += s.requests;
  into.bytes += s.bytes;
  into.pageReads += s.pageReads;
  into.cacheHits += s.cacheHits;
}
