// Where an index lives: the interface a runtime implements to open the index database file and to
// guard whole indexing runs. Owns no I/O itself (Node: a file plus dot-locks; browser: OPFS).
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import type { HciError } from '../platform.ts';

export interface IndexStorage {
  /** Where the index is, for humans ("/repo/.hci/index.sqlite", "opfs:/hci/repo"). */
  readonly location: string;
  /** A published index read over HTTP (runtimes/shared/http-vfs.ts): opened read-only, never indexed, no sidecars kept. */
  readonly readOnly?: boolean;
  /**
   * The id of the machine's current boot, where the OS names it (Linux): then a cold build may run
   * without syncs, behind a mark naming the boot (core/index/cold-build.ts). Absent or null: every
   * pass is synced.
   */
  bootId?(): string | null;
  exists(): Promise<boolean>;
  /** Opens the database, creating the file (and its folder) when missing. */
  open(engine: SqliteEngine): Database;
  /** Deletes the index file and its sidecars (a rebuild of an unreadable or outdated index). */
  remove(): Promise<void>;
  /**
   * Moves a damaged index (and its journal) aside, replacing the last one moved aside, so a rebuild
   * starts from an empty file and the damaged one can still be looked at; returns where it went.
   * Absent where there is no file to keep (memory, the browser's OPFS): the rebuild removes it.
   */
  moveAside?(): Promise<string>;
  /**
   * What changes whenever the index file's bytes do (its size and modification time), for a check
   * that need not run twice over the same bytes; absent where the runtime cannot tell.
   */
  fileStamp?(): string | null;
  /**
   * Claims the right to run an indexing pass (one indexer per index at a time). Returns a release
   * function, or null when another live process is indexing (its pid in `holder`).
   */
  claimIndexer(): { release(): void } | null;
  /** Describes the process currently indexing, if any. */
  indexerHolder(): { pid: number; since: number } | null;
  /** Small text sidecars beside the index (recent queries for explain). */
  readSidecar(name: string): string | null;
  /** Replaces a sidecar as a whole (write beside it, then rename: readers see the old or the new text). */
  writeSidecar(name: string, text: string): void;
  /** Appends `text` and a newline to a sidecar, creating it: one O_APPEND write, no rename. */
  appendSidecar(name: string, text: string): void;
  /**
   * Why the last I/O error SQLite met in this storage happened, when the storage knows better than
   * SQLite's "disk I/O error" (a remote index: the URL unreachable, or the file changed under it).
   */
  failure?(): HciError | null;
  /**
   * Reads ahead the pages that hold these rows of a rowid table, in few requests, before a search
   * reads them one by one: what a storage whose every read is a round trip (a remote index, HTTP
   * ranges) offers; a local file omits it. A guess only: SQLite still reads each page it needs.
   */
  prefetchRows?(db: Database, table: string, rowids: readonly number[]): void;
  /** Lets go of what the storage holds beyond its connections (a remote index's helper worker and page cache). */
  close?(): void;
  /** True when the open file no longer describes the index (it changed under its URL): the next call reopens it. */
  stale?(): boolean;
}
