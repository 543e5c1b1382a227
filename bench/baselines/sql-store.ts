// "Same chunks, same schema, same queries" through any SQLite: the index DDL and page size copied
// from hci's own file, the rows of hci's files table and of every per-file table (chunks, symbols …),
// FTS values core's writer computed (carried in the dump), commits in as
// many transactions as hci used, and the same BM25 query hci's search runs. Run through Node's
// native node:sqlite it is the native limit; through the WASM build and hci's VFS it isolates the
// engine from the rest of hci's pipeline (scan, read, hash, chunk). Owns the adapter seam and SQL.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COLUMN_WEIGHTS } from '../../core/search/channels/fts.ts';
import { ftsExpression, parseQuery } from '../../core/search/query.ts';
import { loadEngine, type Database, type Sqlite3Static } from '../../core/sqlite/engine.ts';
import { FastStatement, type BindValue } from '../../core/sqlite/fast-statement.ts';
import { createNodeIndexStorage } from '../../runtimes/node/node-storage.ts';
import { decodeCell, ftsOf, type DumpFile, type DumpMeta, type Row } from '../lib/chunks.ts';

export interface SqlStatement {
  run(params: unknown[]): void;
  finalize(): void;
}

/** The little a loader needs from a SQLite binding. */
export interface SqlAdapter {
  readonly label: string;
  exec(sql: string): void;
  prepare(sql: string): SqlStatement;
  /** Rows as arrays. */
  all(sql: string, params: unknown[]): unknown[][];
  close(): void;
}

/** The pragmas hci's store sets on open (core/index/store.ts), so durability costs match. */
export const HCI_PRAGMAS = ['PRAGMA journal_mode = DELETE', 'PRAGMA synchronous = FULL', 'PRAGMA temp_store = MEMORY', 'PRAGMA cache_size = -16000'];

/**
 * Node's built-in SQLite (`node:sqlite`, native, nothing to install or compile): Node 22.13+ and 24
 * bundle SQLite 3.54.1 with FTS5, the same SQLite as the WASM pin, so the two differ only in the
 * engine build (native vs WASM) and in what sits around it. Loaded lazily: importing this module
 * never needs it.
 */
export async function openNative(file: string): Promise<SqlAdapter> {
  let sqlite: typeof import('node:sqlite');
  try {
    sqlite = await import('node:sqlite');
  } catch (e) {
    throw new Error(`the native baseline needs node:sqlite (Node >= 22.13; this is ${process.version}): ${(e as Error).message}`);
  }
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new sqlite.DatabaseSync(file);
  const version = String((db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v);
  type Stmt = ReturnType<typeof db.prepare>;
  const cache = new Map<string, Stmt>();
  const asArrays = (st: Stmt) => {
    const s = st as Stmt & { setReturnArrays?: (on: boolean) => void };
    if (s.setReturnArrays) s.setReturnArrays(true);
    return !!s.setReturnArrays;
  };
  return {
    label: `node:sqlite (SQLite ${version}, native, Node ${process.versions.node})`,
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const st = db.prepare(sql);
      return { run: (p) => void st.run(...(p as never[])), finalize: () => {} };
    },
    all(sql, params) {
      let st = cache.get(sql);
      let arrays = true;
      if (!st) {
        st = db.prepare(sql);
        arrays = asArrays(st);
        cache.set(sql, st);
      }
      const rows = st.all(...(params as never[])) as unknown[];
      return arrays && Array.isArray(rows[0]) ? (rows as unknown[][]) : rows.map((r) => (Array.isArray(r) ? r : Object.values(r as object)));
    },
    close: () => db.close(),
  };
}

/** Writes go through hci's own binding path (core/sqlite/fast-statement.ts), as hci's writer does. */
function wasmAdapter(db: Database, label: string, sqlite3: Sqlite3Static): SqlAdapter {
  return {
    label,
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const st = new FastStatement(sqlite3, db, db.prepare(sql));
      return { run: (p) => st.run(p as BindValue[]), finalize: () => st.finalize() };
    },
    all: (sql, params) => db.selectArrays(sql, params as never) as unknown[][],
    close: () => db.close(),
  };
}

/** The WASM build hci uses, on disk through hci's own node:fs VFS (with its dot-file locks). */
export async function openWasmOnDisk(workspaceDir: string): Promise<SqlAdapter> {
  const engine = await loadEngine();
  const db = createNodeIndexStorage(workspaceDir).open(engine);
  return wasmAdapter(db, `${engine.label} (WASM, hci VFS)`, engine.sqlite3);
}

/** The WASM build in memory (for the evaluation baselines). */
export async function openWasmMemory(): Promise<SqlAdapter> {
  const engine = await loadEngine();
  const db = new engine.sqlite3.oo1.DB(':memory:', 'c') as Database;
  return wasmAdapter(db, `${engine.label} (WASM, memory)`, engine.sqlite3);
}

export interface LoadResult {
  files: number;
  chunks: number;
  bytes: number;
  transactions: number;
  ms: number;
}

/** Variations a store-memory run makes to the load (bench/store-memory.ts). */
export interface LoadHooks {
  /** Statements run after the pragmas and the schema, before the first row (pragmas, FTS5 options). */
  setup?: readonly string[];
  /** Called after each commit with the files loaded so far. */
  onCommit?: (files: number) => void;
  /**
   * Replay hci's unsynced cold build (core/index/cold-build.ts): a synced commit before the first
   * batch, the batches with synchronous=OFF, then a synced commit after them, so both sides pay the
   * same durability.
   */
  unsynced?: boolean;
}

/**
 * Creates the schema and inserts every dumped file with its chunks and FTS rows, committing every
 * `filesPerTxn` files. Timing covers parsing the dump lines and all SQL.
 */
export function loadDump(db: SqlAdapter, meta: DumpMeta, lines: Iterable<string>, filesPerTxn: number, hooks: LoadHooks = {}): LoadResult {
  if (meta.pageSize) db.exec(`PRAGMA page_size = ${meta.pageSize}`);
  for (const p of HCI_PRAGMAS) db.exec(p);
  db.exec('BEGIN IMMEDIATE');
  for (const sql of meta.ddl) db.exec(sql);
  db.exec('COMMIT');
  for (const sql of hooks.setup ?? []) db.exec(sql);
  const t0 = performance.now();
  // hci's mark set (synced) and removed (synced, flushing the batches): a header field stands in for its meta row.
  const markCommit = (v: number) => db.exec(`BEGIN IMMEDIATE; PRAGMA user_version = ${v}; COMMIT`);
  if (hooks.unsynced) {
    markCommit(1);
    db.exec('PRAGMA synchronous = OFF');
  }
  const res: LoadResult = { files: 0, chunks: 0, bytes: 0, transactions: 0, ms: 0 };
  let fileSql: { cols: string[]; st: SqlStatement } | null = null;
  const tableSql = new Map<string, { cols: string[]; st: SqlStatement }>();
  const fts = db.prepare(`INSERT INTO ${meta.ftsTable}(rowid, ${meta.ftsColumns.join(', ')}) VALUES (?${', ?'.repeat(meta.ftsColumns.length)})`);
  const insertOf = (table: string, row: Row) => {
    const cols = Object.keys(row);
    return { cols, st: db.prepare(`INSERT INTO ${table}(${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`) };
  };
  let inTxn = 0;
  try {
    for (const line of lines) {
      const f = JSON.parse(line) as DumpFile;
      if (inTxn === 0) db.exec('BEGIN IMMEDIATE');
      fileSql ??= insertOf('files', f.file);
      fileSql.st.run(fileSql.cols.map((c) => decodeCell(f.file[c])));
      for (const t of meta.perFileTables) {
        (f.tables[t] ?? []).forEach((row, i) => {
          let ins = tableSql.get(t);
          if (!ins) tableSql.set(t, (ins = insertOf(t, row)));
          ins.st.run(ins.cols.map((k) => decodeCell(row[k])));
          if (t === 'chunks') {
            fts.run([row.id, ...ftsOf(f, i)]);
            res.chunks++;
          }
        });
      }
      res.files++;
      res.bytes += Number(f.file.size ?? 0);
      if (++inTxn >= filesPerTxn) {
        db.exec('COMMIT');
        res.transactions++;
        inTxn = 0;
        hooks.onCommit?.(res.files);
      }
    }
    if (inTxn > 0) {
      db.exec('COMMIT');
      res.transactions++;
      hooks.onCommit?.(res.files);
    }
    if (hooks.unsynced) {
      db.exec('PRAGMA synchronous = FULL');
      markCommit(0);
    }
  } finally {
    fileSql?.st.finalize();
    for (const t of tableSql.values()) t.st.finalize();
    fts.finalize();
  }
  res.ms = performance.now() - t0;
  return res;
}

const WEIGHT_ARGS = Object.values(COLUMN_WEIGHTS).join(', ');

/** hci's candidate query (mirrors the FTS channel, core/search/channels/fts.ts, unfiltered: rank inside FTS5, join the pool). */
export function ftsSql(ftsTable = 'chunks_fts'): string {
  return `SELECT c.id AS chunk_id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line,
      c.symbol_kind, c.symbol_name, t.bm
    FROM (SELECT rowid AS id, bm25(${ftsTable}, ${WEIGHT_ARGS}) AS bm FROM ${ftsTable} WHERE ${ftsTable} MATCH ? ORDER BY bm LIMIT ?) t
    JOIN chunks c ON c.id = t.id JOIN files f ON f.id = c.file_id
    ORDER BY t.bm`;
}

/** hci's candidate pool for `needed` hits (search.ts: min(2000, needed * 8 + 64)). */
export const poolFor = (needed: number) => Math.min(2000, needed * 8 + 64);

/**
 * The keyword query as hci runs it against SQLite: all terms, then any term when nothing has all.
 * Returns the candidate chunks' paths in BM25 order (no JS-side boosts, no per-file cap).
 */
export function bm25Search(db: SqlAdapter, query: string, needed: number, ftsTable = 'chunks_fts'): string[] {
  const parsed = parseQuery(query);
  const sql = ftsSql(ftsTable);
  for (const mode of ['all', 'any'] as const) {
    const expr = ftsExpression(parsed, mode);
    if (!expr) return [];
    if (mode === 'any' && parsed.clauses.length < 2) return [];
    const rows = db.all(sql, [expr, poolFor(needed)]);
    if (rows.length) return rows.map((r) => String(r[3]));
  }
  return [];
}
