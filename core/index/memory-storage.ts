// An index held in memory (SQLite's memdb VFS): for hosts without a file system to keep one on, for
// throwaway indexes and for tests of the core alone. Owns nothing persistent; one indexer at a time
// within the process.
import type { IndexStorage } from './storage.ts';
import type { Database, SqliteEngine } from '../sqlite/engine.ts';

export function createMemoryIndexStorage(name = 'hci-memory'): IndexStorage {
  // memdb shares a database whose name starts with "/" among the process's connections and keeps
  // it while one of them is open: `keeper` is that one, so the data outlives workspace connections.
  let keeper: Database | null = null;
  let indexing = false;
  const sidecars = new Map<string, string>();
  const filename = `/${name.replace(/[^\w.-]/g, '_')}.sqlite`;
  return {
    location: `memory:${filename}`,
    async exists() {
      return keeper !== null;
    },
    open(engine: SqliteEngine): Database {
      keeper ??= new engine.sqlite3.oo1.DB({ filename, flags: 'c', vfs: 'memdb' }) as Database;
      return new engine.sqlite3.oo1.DB({ filename, flags: 'c', vfs: 'memdb' }) as Database;
    },
    async remove() {
      keeper?.close();
      keeper = null;
    },
    claimIndexer() {
      if (indexing) return null;
      indexing = true;
      return { release: () => void (indexing = false) };
    },
    indexerHolder() {
      return indexing ? { pid: 0, since: Date.now() } : null;
    },
    readSidecar: (n) => sidecars.get(n) ?? null,
    writeSidecar: (n, t) => void sidecars.set(n, t),
    appendSidecar: (n, line) => void sidecars.set(n, `${sidecars.get(n) ?? ''}${line}\n`),
  };
}
