// A cold build (a pass into an index that holds no file yet) written without syncs, and what an open
// does with a file whose unsynced build a restart of the machine may have torn. Owns the mark (the
// meta key below), the pragmas around such a pass and the rule an open applies; which storages may
// run one is theirs to say (IndexStorage.bootId: a local file on an OS that names its boots), and the
// pass itself is the indexer's (indexer.ts). The browser keeps its own first-pass protocol (docs/runtimes.md).
//
// Why: each commit of a synced index syncs the rollback journal twice and the file once (plus a
// directory sync): a cold Avalonia pass commits 46 batches on a quiet machine and hundreds on a loaded
// one (the batches are cut by wall time), and fdatasync was 21.6% of the main thread's sampled time
// there (bench/results/cold-pass-profile-avalonia-cold12.md).
//
// The rule: the rollback journal stays (DELETE), so every batch is still one transaction that a
// killed process leaves whole or rolled back by the next opener: with synchronous=OFF the written
// pages and journals sit in the OS's cache, which outlives the process. Only a crash of the machine
// (power, kernel) can lose them and leave a torn file. So the pass first commits, synced, a mark that
// names the boot it runs in; ends with a synced commit that removes it (its sync flushes every page
// the pass wrote); and an open that finds a mark from another boot (the machine restarted before
// the build ended) does not trust the file: a reader finds no index, an indexer moves it aside and
// starts from an empty one. A mark of this boot (a killed build, its pages in the OS cache) is a
// partial index like any other: the next pass goes on from it, unsynced, and clears the mark.
import type { Database } from '../sqlite/engine.ts';
import type { IndexStorage } from './storage.ts';

/** The meta key an unsynced build holds while it runs: the boot id it runs in. */
export const UNSYNCED_BUILD_KEY = 'unsynced_build';

/** The boot an unsynced build left its mark in, or null when the file carries no mark (or no meta table yet). */
export function unsyncedBuildMark(db: Database): string | null {
  if (db.selectValue("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") === undefined) return null;
  const v = db.selectValue('SELECT value FROM meta WHERE key = ?', [UNSYNCED_BUILD_KEY]);
  return v === undefined || v === null ? null : String(v);
}

/** True when the file carries a mark that this boot did not write: its unsynced build may be torn. */
export function untrustedBuild(db: Database, storage: IndexStorage): boolean {
  const mark = unsyncedBuildMark(db);
  return mark !== null && mark !== (storage.bootId?.() ?? null);
}

/** What a connection needs to run the pass's pragmas and transactions. */
export interface ColdBuildConnection {
  readonly db: Database;
  readonly storage: IndexStorage;
  write<T>(fn: (db: Database) => T): Promise<T>;
}

/**
 * Starts an unsynced pass when the storage names the boot and the index holds no file yet (or holds
 * this boot's mark: a killed unsynced build); returns whether it did. Call while holding the indexer
 * claim. The mark is committed (synced) before the syncs are switched off.
 */
export async function beginColdBuild(store: ColdBuildConnection): Promise<boolean> {
  const boot = store.storage.bootId?.() ?? null;
  if (!boot) return false;
  const marked = await store.write((db) => {
    const cold = unsyncedBuildMark(db) === boot || db.selectValue('SELECT 1 FROM files LIMIT 1') === undefined;
    if (cold) db.exec('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)', { bind: [UNSYNCED_BUILD_KEY, boot] });
    return cold;
  });
  if (marked) store.db.exec('PRAGMA synchronous = OFF');
  return marked;
}

/**
 * Ends it, however the pass ended: synced again (the store's own setting, store.ts), then the mark
 * removed by a commit whose sync flushes all the pass wrote. If that commit cannot be made (the lock
 * stayed taken past the store's wait, a failing disk), the mark stays — the safe side: this boot's
 * next pass clears it, another boot rebuilds — and the pass's own outcome is what the caller gets.
 */
export async function endColdBuild(store: ColdBuildConnection): Promise<void> {
  store.db.exec('PRAGMA synchronous = FULL');
  try {
    await store.write((db) => db.exec('DELETE FROM meta WHERE key = ?', { bind: [UNSYNCED_BUILD_KEY] }));
  } catch {
    // the mark stays (see above)
  }
}
