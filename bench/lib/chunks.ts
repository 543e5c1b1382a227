// The chunks hci actually stored, read back from an index file, so every other engine in the
// benchmark indexes exactly the same units (whatever chunker produced them) with exactly the same
// FTS column values (core's ftsValues). Owns the dump format (JSONL, one line per file) and reading
// the index's own DDL, so the native baseline gets the identical schema.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { loadEngine, type Database } from '../../core/sqlite/engine.ts';
import { readStoredFile, storedFtsRows } from '../../core/index/file-data.ts';
import { fflateCodec } from '../../core/index/fflate-codec.ts';
import { createNodeIndexStorage } from '../../runtimes/node/node-storage.ts';

export interface DumpMeta {
  kind: 'meta';
  /** CREATE statements of the index, in creation order, without FTS shadow tables. */
  ddl: string[];
  /** The index's page size (the WASM build's default differs from native SQLite's). */
  pageSize: number;
  /** Tables with a file_id column, whose rows are written with each file (chunks, symbols …), in DDL order. */
  perFileTables: string[];
  /** Column names of the FTS table, in order (what ftsValues returns). */
  ftsColumns: string[];
  ftsTable: string;
  files: number;
  chunks: number;
  sourceBytes: number;
}

/** A row as dumped: BLOB cells travel as `{ b64 }` (see encodeCell/decodeCell). */
export type Row = Record<string, string | number | null | { b64: string }>;

export interface DumpFile {
  kind: 'file';
  file: Row;
  /** The file's rows in every per-file table (always including `chunks`). */
  tables: Record<string, Row[]>;
  /** The FTS column values of each chunk, aligned with `tables.chunks` (as core's writer computed them). */
  fts: string[][];
}

/** One chunk in the shape the search baselines use. */
export interface ChunkDoc {
  id: number;
  path: string;
  lang: string;
  startLine: number;
  endLine: number;
  /** The FTS column values, keyed by column name (path, symbol, header, body, idents …). */
  fields: Record<string, string>;
}

/** The FTS values of one dumped chunk (by position in `tables.chunks`). */
export function ftsOf(file: DumpFile, chunkIndex: number): string[] {
  return file.fts[chunkIndex] ?? [];
}

function encodeCell(v: unknown): Row[string] {
  return v instanceof Uint8Array ? { b64: Buffer.from(v).toString('base64') } : (v as Row[string]);
}

/** A dumped cell as SQLite should bind it (BLOBs back to bytes). */
export function decodeCell(v: Row[string]): string | number | null | Uint8Array {
  return v !== null && typeof v === 'object' ? new Uint8Array(Buffer.from(v.b64, 'base64')) : v;
}

/** Opens an hci index read-only-in-practice through hci's own storage (locks included). */
export async function openIndex(workspaceRoot: string): Promise<Database> {
  const engine = await loadEngine();
  return createNodeIndexStorage(workspaceRoot).open(engine);
}

export function readDdl(db: Database): { ddl: string[]; ftsTable: string; ftsColumns: string[]; pageSize: number; perFileTables: string[] } {
  const rows = db.selectObjects("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid") as Array<{ type: string; name: string; sql: string }>;
  const virtual = rows.filter((r) => /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const kept = rows.filter((r) => r.name !== 'sqlite_sequence' && !virtual.some((v) => r.name.startsWith(`${v}_`) && r.type === 'table'));
  const ftsTable = virtual.find((v) => /fts/i.test(v)) ?? virtual[0];
  if (!ftsTable) throw new Error('the index has no FTS table');
  const ftsColumns = (db.selectObjects(`PRAGMA table_info(${ftsTable})`) as Array<{ name: string }>).map((c) => c.name);
  const perFileTables = kept
    .filter((r) => r.type === 'table' && !virtual.includes(r.name))
    .map((r) => r.name)
    .filter((t) => (db.selectObjects(`PRAGMA table_info(${t})`) as Array<{ name: string }>).some((c) => c.name === 'file_id'));
  if (!perFileTables.includes('chunks')) throw new Error('the index has no chunks table with a file_id column');
  return { ddl: kept.map((r) => r.sql), ftsTable, ftsColumns, pageSize: Number(db.selectValue('PRAGMA page_size')), perFileTables };
}

/** Writes every file and chunk row of the index at `workspaceRoot` to a JSONL dump. */
export async function dumpChunks(workspaceRoot: string, outFile: string): Promise<DumpMeta> {
  const db = await openIndex(workspaceRoot);
  try {
    db.exec('BEGIN');
    const { ddl, ftsTable, ftsColumns, pageSize, perFileTables } = readDdl(db);
    const files = db.selectObjects('SELECT * FROM files ORDER BY id') as Row[];
    const byTable = new Map<string, Map<number, Row[]>>();
    let chunkCount = 0;
    for (const t of perFileTables) {
      const byFile = new Map<number, Row[]>();
      const hasId = (db.selectObjects(`PRAGMA table_info(${t})`) as Array<{ name: string }>).some((c) => c.name === 'id');
      const rows = (db.selectObjects(`SELECT * FROM ${t} ORDER BY file_id${hasId ? ', id' : ''}`) as Array<Record<string, unknown>>).map((r) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, encodeCell(v)])),
      ) as Row[];
      if (t === 'chunks') chunkCount = rows.length;
      for (const r of rows) {
        const list = byFile.get(Number(r.file_id));
        if (list) list.push(r);
        else byFile.set(Number(r.file_id), [r]);
      }
      byTable.set(t, byFile);
    }
    const ftsByFile = new Map<number, Map<number, string[]>>();
    for (const f of files) {
      const stored = readStoredFile(db, Number(f.id), fflateCodec);
      const rows = stored ? storedFtsRows(db, Number(f.id), String(f.path), stored) : [];
      ftsByFile.set(Number(f.id), new Map(rows.map((r) => [r.id, r.values])));
    }
    db.exec('COMMIT');
    const meta: DumpMeta = {
      kind: 'meta', ddl, pageSize, perFileTables, ftsTable, ftsColumns, files: files.length, chunks: chunkCount,
      sourceBytes: files.reduce((s, f) => s + Number(f.size ?? 0), 0),
    };
    fs.mkdirSync(path.dirname(outFile), { recursive: true });
    const fd = fs.openSync(outFile, 'w');
    try {
      fs.writeSync(fd, `${JSON.stringify(meta)}\n`);
      for (const f of files) {
        const tables: Record<string, Row[]> = {};
        for (const t of perFileTables) tables[t] = byTable.get(t)!.get(Number(f.id)) ?? [];
        const byId = ftsByFile.get(Number(f.id))!;
        const line: DumpFile = { kind: 'file', file: f, tables, fts: tables.chunks.map((c) => byId.get(Number(c.id)) ?? []) };
        fs.writeSync(fd, `${JSON.stringify(line)}\n`);
      }
    } finally {
      fs.closeSync(fd);
    }
    return meta;
  } finally {
    db.close();
  }
}

/** The dump as raw lines: the meta plus one unparsed JSON line per file (parse cost stays in the timed loops). */
export function readDumpLines(file: string): { meta: DumpMeta; lines: string[] } {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const meta = JSON.parse(lines[0]) as DumpMeta;
  return { meta, lines: lines.slice(1) };
}

/**
 * The dump as a stream of raw lines, read from disk in 1 MiB pieces: an engine that loads it holds
 * one line at a time, never the whole dump, so every engine's peak RSS starts from the same bare
 * process (hci's pipeline reads its source files the same way). Parsing stays in the timed loops.
 */
export function streamDumpLines(file: string): { meta: DumpMeta; lines: Iterable<string> } {
  const it = lineIterator(file);
  const first = it.next();
  if (first.done) throw new Error(`${file} is empty`);
  const meta = JSON.parse(first.value) as DumpMeta;
  return { meta, lines: { [Symbol.iterator]: () => it } };
}

function* lineIterator(file: string): Generator<string, void, undefined> {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const text = rest + decoder.write(buf.subarray(0, n));
      let start = 0;
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
        if (nl > start) yield text.slice(start, nl);
        start = nl + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.end();
    if (rest) yield rest;
  } finally {
    fs.closeSync(fd);
  }
}

/** Turns one dump line into search documents. */
export function docsOfLine(line: string, ftsColumns: readonly string[]): ChunkDoc[] {
  const f = JSON.parse(line) as DumpFile;
  return f.tables.chunks.map((c, i) => {
    const values = ftsOf(f, i);
    const fields: Record<string, string> = {};
    ftsColumns.forEach((col, i) => (fields[col] = values[i] ?? ''));
    return {
      id: Number(c.id),
      path: String(f.file.path),
      lang: String(f.file.lang),
      startLine: Number(c.start_line),
      endLine: Number(c.end_line),
      fields,
    };
  });
}
