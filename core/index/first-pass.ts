// A first indexing pass (into an empty index) written without a rollback journal and without
// fsyncs, behind a mark in the file's header; and what an open does when it finds that mark left
// by a pass that was cut off. Owns the mark, the pragmas around such a pass and the recovery rule;
// which storages may run one is theirs to say (IndexStorage.unjournaledFirstPass: a local file),
// and the pass itself is the indexer's (indexer.ts). The browser's OPFS storage keeps its own copy
// of this protocol with the same mark (runtimes/browser/opfs-storage.ts).
//
// Why: a pass commits a batch about every 100 ms, and each commit of a journaled, synced database
// writes the journal, syncs it, writes the pages, syncs them and deletes the journal: on Avalonia
// (4,831 files) 241 batches on a quiet machine, 400–955 on a loaded one, fdatasync alone 19.7% of
// the main thread's time there. An empty index has no earlier state worth rolling back to, so
// nothing of a first pass needs the journal: if the pass dies, the next run builds it again.
//
// The rule: the mark (application_id 'hci1') is set by a journaled, synced commit before the pass
// and cleared by one after it (whose sync flushes everything the pass wrote), so it is on disk for
// as long as the file may hold a torn transaction. Each batch is still one transaction (its locks
// keep other processes' readers off half-written pages; rolled back in memory if it fails). An
// open that finds the mark while no live process holds the indexer claim found a pass that was
// cut off (killed, crashed, power lost): a reader reports "no index"; an indexer removes the file
// and starts from an empty one. A pass that fails or is cancelled ends normally: its batches stay,
// journaled from then on.
import type { Database } from '../sqlite/engine.ts';
import type { IndexStorage } from './storage.ts';

/** The header's application_id while a first pass runs without a journal ('hci1' in ASCII). */
export const UNJOURNALED_PASS_MARK = 0x68636931;

/** True when the file carries the mark (false when the header cannot be read: the open's own checks say why). */
export function hasFirstPassMark(db: Database): boolean {
  try {
    return Number(db.selectValue('PRAGMA application_id')) === UNJOURNALED_PASS_MARK;
  } catch {
    return false;
  }
}

/** What a connection needs to run the pass's pragmas and transactions. */
export interface FirstPassConnection {
  readonly db: Database;
  readonly storage: IndexStorage;
  read<T>(fn: (db: Database) => T): Promise<T>;
  write<T>(fn: (db: Database) => T): Promise<T>;
}

/**
 * Starts an unjournaled first pass when the storage allows one and the index holds no file yet;
 * returns whether it did. Call while holding the indexer claim. The mark is committed (journaled,
 * synced) before the journal is switched off.
 */
export async function beginFirstPass(store: FirstPassConnection): Promise<boolean> {
  if (!store.storage.unjournaledFirstPass) return false;
  const marked = await store.write((db) => {
    if (Number(db.selectValue('SELECT count(*) FROM files')) !== 0) return false;
    db.exec(`PRAGMA application_id = ${UNJOURNALED_PASS_MARK}`);
    return true;
  });
  // Outside a transaction: a rollback journal mode changes without a lock (only WAL needs one).
  if (marked) store.db.exec('PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF');
  return marked;
}

/**
 * Ends it: journaled and synced again (the store's own settings, store.ts), then the mark cleared by
 * a commit whose sync flushes all the pass wrote. If that commit cannot be made (the lock stayed
 * taken past the store's wait), the mark stays and the next open builds the index again, as after a crash.
 */
export async function endFirstPass(store: FirstPassConnection): Promise<void> {
  store.db.exec('PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL');
  await store.write((db) => db.exec('PRAGMA application_id = 0'));
}

/**
 * At open, before the schema is read: the state of a file that carries the mark. 'live' — a process
 * holds the indexer claim (its pass is running; what it committed is whole to readers); 'cut_off' —
 * nobody does, so the pass died and the file may be torn. The claim is released only after the mark
 * is cleared, so the mark is read again once the claim is seen free.
 */
export function firstPassState(db: Database, storage: IndexStorage): 'none' | 'live' | 'cut_off' {
  if (!hasFirstPassMark(db)) return 'none';
  if (storage.indexerHolder() !== null) return 'live';
  return hasFirstPassMark(db) ? 'cut_off' : 'none';
}
