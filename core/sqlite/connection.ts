// One database connection and the transaction discipline that keeps several processes safe on one
// SQLite file: read/write transactions with bounded, asynchronous waiting for the cross-process
// lock (the VFS answers SQLITE_BUSY at once; a write whose COMMIT meets readers keeps its work and
// waits for them), quiet SQL through the C API, and SQLite failures turned
// into HciErrors. Shared by the index (core/index/store.ts) and the sidecars beside it
// (core/intercom/sidecar.ts); what their tables mean, and how they are opened, belongs to them.
import type { Database, SqliteEngine } from './engine.ts';
import { HciError } from '../platform.ts';
import type { IndexStorage } from '../index/storage.ts';

export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
export const SQLITE_CORRUPT = 11;
export const SQLITE_NOTADB = 26;
export const SQLITE_IOERR = 10;

/** Whether a SQLite failure is an I/O error (the VFS could not read: a remote index's storage says why, IndexStorage.failure). */
export function isIoError(e: unknown): boolean {
  return !(e instanceof HciError) && resultCode(e) === SQLITE_IOERR;
}
/** Longest pause between two attempts to take another process's lock. */
const MAX_POLL_MS = 4;

export interface StoreOptions {
  /** How long a transaction may wait for another process's lock before "index busy". */
  lockTimeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

/** How a connection names its file in errors ("the index at …", the lock file to delete). */
export interface ConnectionLabel {
  /** "index", "intercom sidecar". */
  what: string;
  /** The lock file a user may have to delete, workspace-relative (".hci/index.sqlite.lock"). */
  lockFile: string;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function resultCode(e: unknown): number | undefined {
  const rc = (e as { resultCode?: number }).resultCode;
  return typeof rc === 'number' ? rc & 0xff : undefined;
}

/**
 * SQLite's words when hci's own, fixed SQL meets a file that lacks what it was written with: a table,
 * a column or a module gone, the schema unreadable. Only damage (or a hand edit) does that.
 */
const SCHEMA_DAMAGE = /no such (?:table|column|index|module)|malformed database schema|vtable constructor failed|no such savepoint|fts5: corrupt/i;

/**
 * Whether a SQLite failure says the file is damaged or not a database: SQLITE_CORRUPT (also FTS5's
 * SQLITE_CORRUPT_VTAB), SQLITE_NOTADB, a schema that lacks what hci's SQL names, or their messages
 * when no result code came with the error.
 */
export function isCorruption(e: unknown): boolean {
  if (e instanceof HciError) return false;
  const rc = resultCode(e);
  if (rc === SQLITE_CORRUPT || rc === SQLITE_NOTADB) return true;
  const message = String((e as Error)?.message ?? '');
  if (rc !== undefined && SCHEMA_DAMAGE.test(message)) return true;
  return /database disk image is malformed|file is not a database|SQLITE_CORRUPT|SQLITE_NOTADB/.test(message);
}

/** What other SQLite failures mean for a user, in hci's words (their own text stays out of answers). */
const SQLITE_FAILURES: Record<number, [code: 'io_error' | 'internal', what: string]> = {
  3: ['io_error', 'permission to the index file was denied'],
  7: ['internal', 'SQLite ran out of memory'],
  8: ['io_error', 'the index file is read-only'],
  10: ['io_error', 'a read or write of the index file failed'],
  13: ['io_error', 'the disk holding the index is full'],
  14: ['io_error', 'the index file could not be opened'],
  23: ['io_error', 'access to the index file was refused'],
};

/**
 * Maps a SQLite exception to a user-facing error: damage is `index_corrupt` (with SQLite's reason
 * and the remedy), a disk or permission failure `io_error`, anything else from SQLite `internal`
 * naming only its result code. Other errors are returned unchanged.
 */
export function toHciError(e: unknown, location: string): unknown {
  if (e instanceof HciError) return e;
  if (isCorruption(e)) {
    return new HciError('index_corrupt', `the index at ${location} is damaged or not an SQLite file (${sqliteReason(e)})`, 'run `hci index --full` to rebuild it');
  }
  const rc = resultCode(e);
  if (rc === undefined) return e;
  const [code, what] = SQLITE_FAILURES[rc] ?? ['internal', `an index statement failed (SQLite result code ${rc})`];
  return new HciError(code, `${what}: ${location}`, code === 'io_error' ? 'check the disk and the permissions of the .hci folder, then retry' : 'run `hci index --full`; if this happens again, report it with the output of `hci status --json`');
}

/**
 * toHciError for a failure in `storage`'s file, except an I/O error the storage can say more about
 * (IndexStorage.failure: a remote index's URL unreachable, or its file changed under it).
 */
export function storageError(e: unknown, storage: IndexStorage): unknown {
  return (isIoError(e) && storage.failure?.()) || toHciError(e, storage.location);
}

/** SQLite's own words for a failure, without the result-code prefix oo1 puts before them ("SQLITE_CORRUPT: sqlite3 result code 11: "). */
export function sqliteReason(e: unknown): string {
  return String((e as Error)?.message ?? e).replace(/^SQLITE_[A-Z_]+: sqlite3 result code \d+: /, '');
}

export class SqliteConnection {
  private busyInTxn = false;
  /** A write transaction of this connection waits for its COMMIT (other processes' readers finishing). */
  private committing = false;

  protected constructor(
    readonly db: Database,
    readonly storage: IndexStorage,
    readonly engine: SqliteEngine,
    private readonly opts: StoreOptions,
    private readonly label: ConnectionLabel = { what: 'index', lockFile: '.hci/index.sqlite.lock' },
  ) {}

  /** Runs fn in a read transaction: a consistent snapshot, never a torn state. fn must be synchronous. */
  read<T>(fn: (db: Database) => T): Promise<T> {
    return this.transact('BEGIN DEFERRED', fn, true);
  }

  /** Runs fn in a write transaction; all of it commits or none. fn must be synchronous. */
  write<T>(fn: (db: Database) => T): Promise<T> {
    return this.transact('BEGIN IMMEDIATE', fn, false);
  }

  close(): void {
    this.db.close();
  }

  private async transact<T>(begin: string, fn: (db: Database) => T, readOnly: boolean): Promise<T> {
    let commitLater = false;
    const out = await this.retryBusy(() => {
      // This connection's own write waits for its COMMIT (below): wait as for another process's lock.
      if (this.committing) throw Object.assign(new Error('the connection is committing a write'), { resultCode: SQLITE_BUSY });
      // Transactions never interleave on one connection: fn is synchronous and runs to the end.
      if (this.busyInTxn) throw new HciError('internal', `nested transaction on one ${this.label.what} connection`);
      let began = false;
      try {
        this.busyInTxn = true;
        this.execQuiet(begin);
        began = true;
        // A read transaction takes its lock on first access; take it now so waiting happens here.
        if (readOnly) this.execQuiet('PRAGMA schema_version');
        const result = fn(this.db);
        try {
          this.execQuiet('COMMIT');
        } catch (e) {
          // Readers of other processes still read the file (the VFS lets readers share): keep the
          // transaction, whose PENDING lock lets no new reader in, and wait for them to finish below
          // rather than roll back and redo fn.
          if (readOnly || resultCode(e) !== SQLITE_BUSY) throw e;
          this.committing = true;
          commitLater = true;
        }
        return result;
      } catch (e) {
        if (began) this.rollbackQuietly();
        throw e;
      } finally {
        this.busyInTxn = false;
      }
    });
    if (commitLater) {
      try {
        await this.retryBusy(() => this.execQuiet('COMMIT'));
      } catch (e) {
        this.rollbackQuietly();
        throw e;
      } finally {
        this.committing = false;
      }
    }
    return out;
  }

  private rollbackQuietly(): void {
    try {
      this.db.exec('ROLLBACK');
    } catch {
      // nothing to roll back (the failure happened before the lock)
    }
  }

  /**
   * Runs SQL that may meet another process's lock through the C API. A busy lock is an expected,
   * retried outcome here, and the oo1 wrapper would log each one to the console
   * ("sqlite3_step() rc= 5 SQLITE_BUSY …"): noise on the CLI's stderr and in an MCP host's log.
   */
  protected execQuiet(sql: string): void {
    const { capi } = this.engine.sqlite3;
    const pDb = this.db.pointer!;
    const rc = capi.sqlite3_exec(pDb, sql, 0, 0, 0);
    if (rc !== 0) {
      const err = new Error(`${capi.sqlite3_js_rc_str(rc)}: ${capi.sqlite3_errmsg(pDb)}`) as Error & { resultCode: number };
      err.resultCode = rc;
      throw err;
    }
  }

  /** " (pid N is indexing)" when an indexing run is known to hold the index, for busy messages. */
  private describeHolder(): string {
    try {
      const h = this.storage.indexerHolder();
      return h ? ` (pid ${h.pid} is indexing it)` : '';
    } catch {
      return '';
    }
  }

  /**
   * Runs a synchronous attempt, retrying it with backoff (asynchronously, so the event loop keeps
   * running) while another process holds the lock, for at most lockTimeoutMs; then "index busy".
   */
  protected async retryBusy<T>(attempt: () => T): Promise<T> {
    const sleep = this.opts.sleep ?? defaultSleep;
    const deadline = Date.now() + this.opts.lockTimeoutMs;
    let delay = 1;
    for (;;) {
      try {
        return attempt();
      } catch (e) {
        const rc = resultCode(e);
        if ((rc === SQLITE_BUSY || rc === SQLITE_LOCKED) && Date.now() < deadline) {
          // Poll often: an indexer frees the lock between batches for only ~10–20 ms (the time it
          // takes to prepare the next batch), and a slower poll misses that window and waits for
          // a second batch. A failed attempt costs a stat and a read of the lock file.
          await sleep(Math.min(delay, Math.max(1, deadline - Date.now())));
          delay = Math.min(delay * 2, MAX_POLL_MS);
          continue;
        }
        if (rc === SQLITE_BUSY || rc === SQLITE_LOCKED) {
          throw new HciError(
            'index_busy',
            `the ${this.label.what} at ${this.storage.location} stayed locked by another process for ${this.opts.lockTimeoutMs} ms${this.describeHolder()}`,
            `retry in a moment; if no hci process is running, a stale lock file may be left on another host: delete \`${this.label.lockFile}\``,
          );
        }
        throw storageError(e, this.storage);
      }
    }
  }
}
