// An open index: one database connection (core/sqlite/connection.ts: transactions and the bounded
// wait for the cross-process lock) plus opening it — schema, pragmas, version checks and migrations.
// What the rows mean belongs to the indexer and the search modules; the blobs' codec is the host's,
// carried here so every reader and writer of this index uses the same one.
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import type { DeflateCodec } from './file-data.ts';
import type { IndexStorage } from './storage.ts';
import { checkVersions, ensureSchema, FORMAT_VERSION, type SchemaState } from './schema.ts';
import { SqliteConnection, storageError, type StoreOptions } from '../sqlite/connection.ts';
import { registerEngine } from '../sqlite/raw-rows.ts';
import { damaged, pageProblems, structureProblems } from './health.ts';
import { untrustedBuild } from './cold-build.ts';

export { isCorruption, isIoError, toHciError } from '../sqlite/connection.ts';

export interface IndexStoreOptions extends StoreOptions {
  /** How the per-file blobs are (de)compressed (default: fflate, pure JS; any codec reads any other's). */
  codec?: DeflateCodec;
}
export type { StoreOptions };

/** The SQL that writes a compacted copy of the open database to `path` in `pageSize` pages, without auto-vacuum's pointer maps. */
export function vacuumIntoSql(path: string, pageSize: number): string {
  return `PRAGMA page_size = ${Math.trunc(pageSize)}; PRAGMA auto_vacuum = NONE; VACUUM INTO '${path.replace(/'/g, "''")}'`;
}

/** SQLite's page cache (KiB) of an open index: what searches read through (a big pass runs with settings.index_page_cache_kib). */
export const SEARCH_PAGE_CACHE_KIB = 16000;

export class IndexStore extends SqliteConnection {
  readonly codec: DeflateCodec;

  private constructor(
    db: Database,
    storage: IndexStorage,
    engine: SqliteEngine,
    opts: IndexStoreOptions,
    readonly schemaState: SchemaState,
  ) {
    super(db, storage, engine, opts);
    this.codec = opts.codec!;
    registerEngine(db, engine.sqlite3);
  }

  /**
   * Opens (creating when `create`) the index. Throws HciError `no_index` when it does not exist
   * and `create` is false, and `index_outdated`/`index_too_new`/`index_corrupt` when unusable.
   */
  static async open(storage: IndexStorage, engine: SqliteEngine, opts: IndexStoreOptions & { create: boolean }): Promise<IndexStore> {
    if (!opts.create && !(await storage.exists())) {
      throw new HciError('no_index', `no index at ${storage.location}`, 'run `hci index` to build it');
    }
    // The default codec loads only when the host brought none.
    if (!opts.codec) opts = { ...opts, codec: (await import('./fflate-codec.ts')).fflateCodec };
    const db = storage.open(engine);
    let state: SchemaState = 'current';
    const probe = new IndexStore(db, storage, engine, opts, 'current');
    try {
      // Most of these pragmas read the schema, so they need the cross-process lock like any read:
      // wait for it the same bounded way instead of failing at once while another process writes.
      await probe.retryBusy(() =>
        probe.execQuiet(`PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -${SEARCH_PAGE_CACHE_KIB}`),
      );
      // A build written without syncs that the machine's restart cut off (cold-build.ts): the file may
      // be torn. A reader finds no index (checked in its version read below); an indexer starts again
      // from an empty file (under the indexer claim, so a pass running meanwhile is never removed).
      const untrusted = () => new HciError('no_index', `no index at ${storage.location} (the first indexing run did not finish before the machine restarted)`, 'run `hci index` to build it');
      if (opts.create) {
        const found = await probe.read((d) => ({ pages: Number(d.selectValue('PRAGMA page_count')), untrusted: !storage.readOnly && untrustedBuild(d, storage) }));
        const claim = found.untrusted ? storage.claimIndexer() : null;
        if (claim) {
          try {
            db.close();
            await storage.remove();
          } finally {
            claim.release();
          }
          return IndexStore.open(storage, engine, opts);
        }
        // Only takes effect in a new, empty file (and only outside a transaction): the indexer then
        // hands pages freed by a pass back to the file (PRAGMA incremental_vacuum).
        // Set only on an empty file: on an existing one the pragma may still rewrite the header (a commit).
        if (found.pages === 0) await probe.retryBusy(() => probe.execQuiet('PRAGMA auto_vacuum = INCREMENTAL'));
      }
      if (opts.create) state = await probe.write((d) => ensureSchema(d, undefined, probe.codec));
      else {
        const version = await probe.read((d) => {
          // A file with no tables: an indexer died before its first commit (its journal was just
          // rolled back by this open). That is "no index yet", not a damaged one.
          if (d.selectValue("SELECT count(*) FROM sqlite_master") === 0) {
            throw new HciError('no_index', `no index at ${storage.location} (the first indexing run did not finish)`, 'run `hci index` to build it');
          }
          if (!storage.readOnly && untrustedBuild(d, storage)) throw untrusted();
          checkVersions(d);
          return Number(d.selectValue("SELECT value FROM meta WHERE key = 'format_version'"));
        });
        // An older format that can be migrated is migrated by its first opener, reader or writer.
        if (version < FORMAT_VERSION && storage.readOnly) {
          throw new HciError('index_outdated', `the index at ${storage.location} has format ${version}; this hci reads format ${FORMAT_VERSION}`, 'pack it again with this version of hci (hci index, then hci pack) and publish it');
        }
        if (version < FORMAT_VERSION) state = await probe.write((d) => ensureSchema(d, undefined, probe.codec));
      }
      // A table, a column or a meta value gone (a flipped byte, a hand edit) fails here, as damage, not in a query.
      const problems = await probe.read(structureProblems);
      if (problems.length) throw damaged(storage.location, problems);
    } catch (e) {
      try {
        db.close();
      } catch {
        // already unusable
      }
      throw storageError(e, storage);
    }
    return new IndexStore(db, storage, engine, opts, state);
  }

  /**
   * Sets SQLite's page cache of this connection (KiB). A smaller cache gives pages above it back at
   * once; within SQLite's WASM heap they are reused, never returned to the system.
   */
  setPageCache(kib: number): void {
    this.execQuiet(`PRAGMA cache_size = -${Math.max(1, Math.trunc(kib))}`);
  }

  /**
   * Writes a compacted copy of the index to `path` (VACUUM INTO: one read transaction of this file)
   * in `pageSize` pages and without auto-vacuum's pointer maps: core/index/pack.ts's first step.
   * Waits for another process's lock like any read.
   */
  async vacuumInto(path: string, pageSize: number): Promise<void> {
    await this.retryBusy(() => this.execQuiet(vacuumIntoSql(path, pageSize)));
  }

  /**
   * Throws HciError `index_corrupt` unless the schema and meta are whole and SQLite's quick_check
   * finds every page sound (health.ts). Damage that no query of a pass reads (a pointer-map page, a
   * page of an index it only appends to) is otherwise carried through a rebuild in place.
   */
  async verify(): Promise<void> {
    const problems = await this.read((db) => {
      const structure = structureProblems(db);
      return structure.length ? structure : pageProblems(db).map((p) => `SQLite's page check: ${p}`);
    });
    if (problems.length) throw damaged(this.storage.location, problems);
  }
}
