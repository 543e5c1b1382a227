// Where an index lives: the interface a runtime implements to open the index database file and to
// guard whole indexing runs. Owns no I/O itself (Node: a file plus dot-locks; browser: OPFS).
import type { Database, SqliteEngine } from '../sqlite/engine.ts';

export interface IndexStorage {
  /** Where the index is, for humans ("/repo/.hci/index.sqlite", "opfs:/hci/repo"). */
  readonly location: string;
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
}
