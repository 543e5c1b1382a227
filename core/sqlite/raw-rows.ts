// Steps a prepared SELECT and reads its columns through the WASM exports directly: oo1's step() and
// typed getters check the statement and each column's type on every call (at 50k chunks, a literal
// search's thousands of candidate rows spent more in those checks than in SQLite; a keyword search's
// pool of ~150 rows of 12 columns spent about as long in oo1's getters as in the FTS5 query), and a blob read
// through oo1 is copied out of WASM memory even when the caller only looks at a few bytes of it.
// Owns only stepping and reading; preparing, binding and finalizing stay with oo1 (the statement is
// oo1's). Which engine a connection runs on is registered by whoever opens it (IndexStore); on a
// connection nobody registered, the same reads go through oo1's getters (slower, same values), so
// callers have one path.
import type { Database, Sqlite3Static } from './engine.ts';

interface RawExports {
  sqlite3_step(p: number): number;
  sqlite3_reset(p: number): number;
  sqlite3_column_int(p: number, i: number): number;
  sqlite3_column_blob(p: number, i: number): number;
  sqlite3_column_bytes(p: number, i: number): number;
  sqlite3_column_text(p: number, i: number): number;
  sqlite3_column_double(p: number, i: number): number;
}

const SQLITE_ROW = 100;
const SQLITE_DONE = 101;

const utf8 = new TextDecoder();

const engines = new WeakMap<Database, Sqlite3Static>();

/** Records which engine a connection runs on (rawRows then reads its statements directly). */
export function registerEngine(db: Database, sqlite3: Sqlite3Static): void {
  engines.set(db, sqlite3);
}

export interface RawRows {
  /** The next row: false when there is none. Throws the SQLite error a failed step gives. */
  step(): boolean;
  /** A column as a 32-bit integer. */
  int(col: number): number;
  /** A column as a double. */
  double(col: number): number;
  /** A text column (UTF-8 decoded), or null for NULL. */
  text(col: number): string | null;
  /**
   * A blob column as a view into WASM memory (empty for NULL or an empty blob): valid only until
   * the next step, reset or any other call into SQLite — read it at once, or copy it.
   */
  blobView(col: number): Uint8Array;
  /** Resets the statement (bindings kept). */
  reset(): void;
}

type Stmt = ReturnType<Database['prepare']>;

/** Reads of an oo1 statement of `db`: direct when the connection's engine was registered, else through oo1. */
export function rawRows(db: Database, stmt: Stmt): RawRows {
  const sqlite3 = engines.get(db);
  if (!sqlite3) return oo1Rows(stmt);
  const raw = (sqlite3.wasm as unknown as { exports: RawExports }).exports;
  const p = stmt.pointer as number;
  const empty = new Uint8Array(0);
  return {
    double: (col) => raw.sqlite3_column_double(p, col),
    text(col) {
      const ptr = raw.sqlite3_column_text(p, col);
      if (!ptr) return null;
      const n = raw.sqlite3_column_bytes(p, col);
      return n === 0 ? '' : utf8.decode(sqlite3.wasm.heap8u().subarray(ptr, ptr + n));
    },
    step() {
      const rc = raw.sqlite3_step(p);
      if (rc === SQLITE_ROW) return true;
      if (rc === SQLITE_DONE) return false;
      const code = raw.sqlite3_reset(p) || rc;
      const SQLite3Error = sqlite3.SQLite3Error as unknown as new (rc: number, message: string) => Error;
      throw new SQLite3Error(code, sqlite3.capi.sqlite3_errmsg(db.pointer as number));
    },
    int: (col) => raw.sqlite3_column_int(p, col),
    blobView(col) {
      const ptr = raw.sqlite3_column_blob(p, col);
      if (!ptr) return empty;
      const n = raw.sqlite3_column_bytes(p, col);
      return sqlite3.wasm.heap8u().subarray(ptr, ptr + n);
    },
    reset: () => void raw.sqlite3_reset(p),
  };
}

/** The same reads through oo1's checked getters (a blob is then a copy, not a view). */
function oo1Rows(stmt: Stmt): RawRows {
  return {
    step: () => stmt.step(),
    int: (col) => Number(stmt.getInt(col)),
    double: (col) => Number(stmt.getFloat(col)),
    text: (col) => (stmt.getString(col) as string | null) ?? null,
    blobView: (col) => (stmt.getBlob(col) as Uint8Array | null) ?? new Uint8Array(0),
    reset: () => void stmt.reset(),
  };
}
