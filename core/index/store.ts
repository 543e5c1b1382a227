// An open index: one database connection plus the transaction discipline that keeps several
// processes safe. Owns opening (schema, pragmas), read/write transactions with bounded, asynchronous
// waiting for the cross-process lock, and turning SQLite failures into HciErrors. What the rows mean
// belongs to the indexer and the search modules.
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import type { IndexStorage } from './storage.ts';
import { checkVersions, ensureSchema, FORMAT_VERSION, type SchemaState } from './schema.ts';

const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
/** Longest pause between two attempts to take another process's lock. */
const MAX_POLL_MS = 4;

export interface StoreOptions {
  /** How long a transaction may wait for another process's lock before "index busy". */
  lockTimeoutMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function resultCode(e: unknown): number | undefined {
  const rc = (e as { resultCode?: number }).resultCode;
  return typeof rc === 'number' ? rc & 0xff : undefined;
}

/** Maps a SQLite exception to a user-facing error (or returns it unchanged). */
export function toHciError(e: unknown, location: string): unknown {
  if (e instanceof HciError) return e;
  const rc = resultCode(e);
  if (rc === SQLITE_CORRUPT || rc === SQLITE_NOTADB) {
    return new HciError('index_corrupt', `the index at ${location} is damaged or not an SQLite file (${(e as Error).message})`, 'run `hci index --full` to rebuild it');
  }
  return e;
}

export class IndexStore {
  private busyInTxn = false;

  private constructor(
    readonly db: Database,
    readonly storage: IndexStorage,
    readonly engine: SqliteEngine,
    private readonly opts: StoreOptions,
    readonly schemaState: SchemaState,
  ) {}

  /**
   * Opens (creating when `create`) the index. Throws HciError `no_index` when it does not exist
   * and `create` is false, and `index_outdated`/`index_too_new`/`index_corrupt` when unusable.
   */
  static async open(storage: IndexStorage, engine: SqliteEngine, opts: StoreOptions & { create: boolean }): Promise<IndexStore> {
    if (!opts.create && !(await storage.exists())) {
      throw new HciError('no_index', `no index at ${storage.location}`, 'run `hci index` to build it');
    }
    const db = storage.open(engine);
    let state: SchemaState = 'current';
    const probe = new IndexStore(db, storage, engine, opts, 'current');
    try {
      // Most of these pragmas read the schema, so they need the cross-process lock like any read:
      // wait for it the same bounded way instead of failing at once while another process writes.
      await probe.retryBusy(() =>
        probe.execQuiet('PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -16000'),
      );
      // Only takes effect in a new, empty file (and only outside a transaction): the indexer then
      // hands pages freed by a pass back to the file (PRAGMA incremental_vacuum).
      // Set only on an empty file: on an existing one the pragma may still rewrite the header (a commit).
      if (opts.create && (await probe.read((d) => Number(d.selectValue('PRAGMA page_count')))) === 0) {
        await probe.retryBusy(() => probe.execQuiet('PRAGMA auto_vacuum = INCREMENTAL'));
      }
      if (opts.create) state = await probe.write((d) => ensureSchema(d));
      else {
        const version = await probe.read((d) => {
          // A file with no tables: an indexer died before its first commit (its journal was just
          // rolled back by this open). That is "no index yet", not a damaged one.
          if (d.selectValue("SELECT count(*) FROM sqlite_master") === 0) {
            throw new HciError('no_index', `no index at ${storage.location} (the first indexing run did not finish)`, 'run `hci index` to build it');
          }
          checkVersions(d);
          return Number(d.selectValue("SELECT value FROM meta WHERE key = 'format_version'"));
        });
        // An older format that can be migrated is migrated by its first opener, reader or writer.
        if (version < FORMAT_VERSION) state = await probe.write((d) => ensureSchema(d));
      }
    } catch (e) {
      try {
        db.close();
      } catch {
        // already unusable
      }
      throw toHciError(e, storage.location);
    }
    return new IndexStore(db, storage, engine, opts, state);
  }

  /** Runs fn in a read transaction: a consistent snapshot, never a torn state. fn must be synchronous. */
  read<T>(fn: (db: Database) => T): Promise<T> {
    return this.transact('BEGIN DEFERRED', fn, true);
  }

  /** Runs fn in a write transaction; all of it commits or none. fn must be synchronous. */
  write<T>(fn: (db: Database) => T): Promise<T> {
    return this.transact('BEGIN IMMEDIATE', fn, false);
  }

  /**
   * Throws HciError `index_corrupt` unless SQLite's quick_check finds the file sound. Damage that
   * no query of a pass reads (a pointer-map page, a page of an index it only appends to) is
   * otherwise carried through a rebuild in place.
   */
  async verify(): Promise<void> {
    const problems = await this.read((db) => db.selectValues('PRAGMA quick_check(3)').map(String));
    if (problems.length === 1 && problems[0] === 'ok') return;
    throw new HciError('index_corrupt', `the index at ${this.storage.location} fails SQLite's check: ${problems.join('; ')}`, 'run `hci index --full` to rebuild it');
  }

  close(): void {
    this.db.close();
  }

  private transact<T>(begin: string, fn: (db: Database) => T, readOnly: boolean): Promise<T> {
    return this.retryBusy(() => {
      // Transactions never interleave on one connection: fn is synchronous and runs to the end.
      if (this.busyInTxn) throw new HciError('internal', 'nested transaction on one index connection');
      let began = false;
      try {
        this.busyInTxn = true;
        this.execQuiet(begin);
        began = true;
        // A read transaction takes its lock on first access; take it now so waiting happens here.
        if (readOnly) this.execQuiet('PRAGMA schema_version');
        const out = fn(this.db);
        this.db.exec('COMMIT');
        return out;
      } catch (e) {
        if (began) {
          try {
            this.db.exec('ROLLBACK');
          } catch {
            // nothing to roll back (the failure happened before the lock)
          }
        }
        throw e;
      } finally {
        this.busyInTxn = false;
      }
    });
  }

  /**
   * Runs SQL that may meet another process's lock through the C API. A busy lock is an expected,
   * retried outcome here, and the oo1 wrapper would log each one to the console
   * ("sqlite3_step() rc= 5 SQLITE_BUSY …"): noise on the CLI's stderr and in an MCP host's log.
   */
  private execQuiet(sql: string): void {
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
  private async retryBusy<T>(attempt: () => T): Promise<T> {
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
            `the index at ${this.storage.location} stayed locked by another process for ${this.opts.lockTimeoutMs} ms${this.describeHolder()}`,
            'retry in a moment; if no hci process is running, a stale lock file may be left on another host: delete `.hci/index.sqlite.lock`',
          );
        }
        throw toHciError(e, this.storage.location);
      }
    }
  }
}
