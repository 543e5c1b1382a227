// Runs a prepared INSERT/UPDATE/DELETE many times with little JS glue: values are bound through the
// WASM exports directly, strings encoded into one reusable scratch buffer in WASM memory and bound
// SQLITE_TRANSIENT (SQLite copies them at once). oo1's bind() allocates and frees a C string per
// value and checks every argument: for an index pass that was ~0.7 s per 19k chunks. Owns only
// binding and stepping of write statements; preparing and finalizing stay with oo1.
import type { Database, Sqlite3Static } from './engine.ts';

export type BindValue = string | number | bigint | null | Uint8Array | Utf8Text;

/** Text already in UTF-8 (a parse worker encoded it: core/index/packed-fts.ts), bound as TEXT without a string. */
export class Utf8Text {
  constructor(readonly bytes: Uint8Array) {}
}

interface RawExports {
  sqlite3_bind_text(p: number, i: number, text: number, n: number, destructor: number): number;
  sqlite3_bind_blob(p: number, i: number, data: number, n: number, destructor: number): number;
  sqlite3_bind_int(p: number, i: number, v: number): number;
  sqlite3_bind_int64(p: number, i: number, v: bigint): number;
  sqlite3_bind_double(p: number, i: number, v: number): number;
  sqlite3_bind_null(p: number, i: number): number;
  sqlite3_step(p: number): number;
  sqlite3_reset(p: number): number;
  sqlite3_clear_bindings(p: number): number;
  sqlite3_last_insert_rowid(db: number): bigint;
}

const SQLITE_TRANSIENT = -1;
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;
const encoder = new TextEncoder();

/** One scratch buffer per WASM module (grown, never shrunk). */
const scratch = new WeakMap<object, { ptr: number; size: number }>();

export class FastStatement {
  private readonly raw: RawExports;
  private readonly pStmt: number;

  constructor(
    private readonly sqlite3: Sqlite3Static,
    private readonly db: Database,
    private readonly stmt: ReturnType<Database['prepare']>,
  ) {
    this.raw = (sqlite3.wasm as unknown as { exports: RawExports }).exports;
    this.pStmt = stmt.pointer as number;
  }

  /** Binds the values (parameters 1..n), steps to the end, and resets. */
  run(values: readonly BindValue[]): void {
    const raw = this.raw;
    const p = this.pStmt;
    try {
      for (let i = 0; i < values.length; i++) this.check(this.bindOne(i + 1, values[i]));
      let rc: number;
      do rc = raw.sqlite3_step(p);
      while (rc === SQLITE_ROW);
      if (rc !== SQLITE_DONE) this.check(raw.sqlite3_reset(p) || rc);
    } finally {
      raw.sqlite3_reset(p);
      raw.sqlite3_clear_bindings(p);
    }
  }

  finalize(): void {
    this.stmt.finalize();
  }

  private bindOne(i: number, v: BindValue): number {
    const raw = this.raw;
    const p = this.pStmt;
    if (v === null || v === undefined) return raw.sqlite3_bind_null(p, i);
    if (typeof v === 'string') {
      const n = this.encode(v);
      return raw.sqlite3_bind_text(p, i, scratch.get(this.sqlite3)!.ptr, n, SQLITE_TRANSIENT);
    }
    if (typeof v === 'number') {
      if ((v | 0) === v) return raw.sqlite3_bind_int(p, i, v);
      return Number.isSafeInteger(v) ? raw.sqlite3_bind_int64(p, i, BigInt(v)) : raw.sqlite3_bind_double(p, i, v);
    }
    if (typeof v === 'bigint') return raw.sqlite3_bind_int64(p, i, v);
    // Bytes (a blob, or text already in UTF-8) copied into the scratch buffer; SQLite copies them again (TRANSIENT).
    const bytes = v instanceof Utf8Text ? v.bytes : v;
    const buf = this.reserve(bytes.length);
    this.sqlite3.wasm.heap8u().set(bytes, buf.ptr);
    return v instanceof Utf8Text ? raw.sqlite3_bind_text(p, i, buf.ptr, bytes.length, SQLITE_TRANSIENT) : raw.sqlite3_bind_blob(p, i, buf.ptr, bytes.length, SQLITE_TRANSIENT);
  }

  /** UTF-8 of `s` into the scratch buffer (at most 3 bytes per UTF-16 unit, so it always fits); returns its byte length. */
  private encode(s: string): number {
    const buf = this.reserve(s.length * 3);
    return encoder.encodeInto(s, this.sqlite3.wasm.heap8u().subarray(buf.ptr, buf.ptr + buf.size)).written;
  }

  private reserve(bytes: number): { ptr: number; size: number } {
    const wasm = this.sqlite3.wasm as unknown as { alloc(n: number): number; dealloc(p: number): void };
    let buf = scratch.get(this.sqlite3);
    if (!buf || buf.size < bytes) {
      if (buf) wasm.dealloc(buf.ptr);
      const size = Math.max(bytes, (buf?.size ?? 0) * 2, 64 * 1024);
      buf = { ptr: wasm.alloc(size), size };
      scratch.set(this.sqlite3, buf);
    }
    return buf;
  }

  private check(rc: number): void {
    if (rc === 0) return;
    // The same error type (with resultCode) oo1 throws, so callers classify it the same way.
    const msg = this.sqlite3.capi.sqlite3_errmsg(this.db.pointer as number);
    const SQLite3Error = this.sqlite3.SQLite3Error as unknown as new (rc: number, message: string) => Error;
    throw new SQLite3Error(rc, msg);
  }
}

/** The rowid of the last row inserted on this connection. */
export function lastInsertRowId(sqlite3: Sqlite3Static, db: Database): number {
  return Number((sqlite3.wasm as unknown as { exports: RawExports }).exports.sqlite3_last_insert_rowid(db.pointer as number));
}
