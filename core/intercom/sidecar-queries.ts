// The lookups a find, a relate and the gutter make in the sidecar (tables: sidecar.ts), each run
// inside the caller's read transaction: a log's and a thread's records, file and key numbers, rows by
// (file, member key), by file, by key anywhere, anchors overlapping a range (through the line
// buckets), anchors by number or id, and the messages of a page. Owns SQL only; ranking is find.ts.
// Statements are prepared once per connection (a find makes a dozen lookups; preparing each cost
// more than running it). oo1 finalizes them when the connection closes.
import type { Database } from '../sqlite/engine.ts';
import { bucketOf } from './sidecar.ts';

type Stmt = ReturnType<Database['prepare']>;
type Param = string | number | null;
const prepared = new WeakMap<Database, Map<string, Stmt>>();

function stmt(db: Database, sql: string): Stmt {
  let m = prepared.get(db);
  if (!m) prepared.set(db, (m = new Map()));
  let st = m.get(sql);
  if (!st) m.set(sql, (st = db.prepare(sql)));
  return st;
}

function rows<T>(db: Database, sql: string, params: Param[]): T[] {
  const st = stmt(db, sql);
  const out: T[] = [];
  try {
    st.bind(params);
    while (st.step()) out.push(st.get({}) as T);
  } finally {
    st.reset(true);
  }
  return out;
}

const row = <T>(db: Database, sql: string, params: Param[]): T | undefined => rows<T>(db, sql, params)[0];

function value(db: Database, sql: string, params: Param[]): unknown {
  const st = stmt(db, sql);
  try {
    st.bind(params);
    return st.step() ? st.get(0) : undefined;
  } finally {
    st.reset(true);
  }
}

/** One thread of one log, as its rows are keyed. */
export interface Scope {
  logId: number;
  threadNo: number;
}

export interface LogRecord {
  log_id: number;
  location: string;
  size: number;
  mtime_ms: number;
  index_generation: number;
}

export interface ThreadRecord {
  thread_no: number;
  thread_id: string;
  messages: number;
  skipped: Record<string, number>;
}

export interface AnchorRow {
  anchor_no: number;
  anchor_id: string;
  origin: 'attachment' | 'relate';
  message_id: string | null;
  start_ordinal: number;
  end_ordinal: number;
  source: string | null;
  file: string;
  member_key: string | null;
  syntax_scope: string | null;
  shape: string;
  line_start: number;
  line_end: number;
  stale: number;
  stale_reason: string | null;
  excerpt: string | null;
}

export interface CodeRow {
  ordinal: number;
  anchor_no: number;
}

export function logRecord(db: Database, location: string): LogRecord | undefined {
  return row<LogRecord>(db, 'SELECT log_id, location, size, mtime_ms, index_generation FROM logs WHERE location = ?', [location]);
}

export function logStats(db: Database, logId: number): unknown {
  const s = value(db, 'SELECT stats FROM logs WHERE log_id = ?', [logId]) as string | undefined;
  return s ? JSON.parse(s) : null;
}

export function threadRecord(db: Database, logId: number, threadId: string): ThreadRecord | undefined {
  const r = row<{ thread_no: number; thread_id: string; messages: number; skipped: string }>(
    db, 'SELECT thread_no, thread_id, messages, skipped FROM threads WHERE log_id = ? AND thread_id = ?', [logId, threadId],
  );
  return r && { thread_no: Number(r.thread_no), thread_id: r.thread_id, messages: Number(r.messages), skipped: JSON.parse(r.skipped) };
}

export function threadIds(db: Database, logId: number, limit = 10): string[] {
  return rows<{ thread_id: string }>(db, 'SELECT thread_id FROM threads WHERE log_id = ? ORDER BY thread_id LIMIT ?', [logId, limit]).map((r) => r.thread_id);
}

/** A file's drift fingerprint as of the last rebuild (undefined: no anchor names it). */
export function fileFingerprint(db: Database, logId: number, file: string): { size: number; mtime_ms: number } | undefined {
  return row<{ size: number; mtime_ms: number }>(db, 'SELECT size, mtime_ms FROM files WHERE log_id = ? AND file = ?', [logId, file]);
}

function fileNo(db: Database, logId: number, file: string): number | undefined {
  const v = value(db, 'SELECT file_no FROM files WHERE log_id = ? AND file = ?', [logId, file]);
  return v === undefined ? undefined : Number(v);
}

function keyNo(db: Database, logId: number, key: string): number | undefined {
  const v = value(db, 'SELECT key_no FROM member_keys WHERE log_id = ? AND member_key = ?', [logId, key]);
  return v === undefined ? undefined : Number(v);
}

const ANCHOR_SELECT = `
SELECT a.anchor_no, a.anchor_id, a.origin, a.message_id, a.start_ordinal, a.end_ordinal, a.source, f.file, k.member_key,
       a.syntax_scope, a.shape, a.line_start, a.line_end, a.stale, a.stale_reason, a.excerpt
  FROM anchors a
  JOIN files f ON f.log_id = a.log_id AND f.file_no = a.file_no
  LEFT JOIN member_keys k ON k.log_id = a.log_id AND k.key_no = a.key_no`;

export function anchorById(db: Database, s: Scope, anchorId: string): AnchorRow | undefined {
  return row<AnchorRow>(db, `${ANCHOR_SELECT} WHERE a.log_id = ? AND a.thread_no = ? AND a.anchor_id = ? ORDER BY a.anchor_no LIMIT 1`, [s.logId, s.threadNo, anchorId]);
}

export function anchorsByNo(db: Database, s: Scope, nos: Iterable<number>): Map<number, AnchorRow> {
  const list = [...nos];
  if (!list.length) return new Map();
  // One statement for any number of anchors: the numbers travel as one JSON array.
  const found = rows<AnchorRow>(db, `${ANCHOR_SELECT} WHERE a.log_id = ? AND a.thread_no = ? AND a.anchor_no IN (SELECT value FROM json_each(?))`, [
    s.logId, s.threadNo, JSON.stringify(list),
  ]);
  return new Map(found.map((a) => [Number(a.anchor_no), a]));
}

const codeRows = (db: Database, sql: string, params: Param[]): CodeRow[] =>
  rows<CodeRow>(db, sql, params).map((r) => ({ ordinal: Number(r.ordinal), anchor_no: Number(r.anchor_no) }));

/** Rows with this file and member key (the key match). */
export function rowsByKey(db: Database, s: Scope, file: string, memberKey: string): CodeRow[] {
  const f = fileNo(db, s.logId, file);
  const k = keyNo(db, s.logId, memberKey);
  if (f === undefined || k === undefined) return [];
  return codeRows(db, 'SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND file_no = ? AND key_no = ?', [s.logId, s.threadNo, f, k]);
}

/** Rows with this member key in any file (a key no longer defined anywhere). */
export function rowsByKeyAnywhere(db: Database, s: Scope, memberKey: string): CodeRow[] {
  const k = keyNo(db, s.logId, memberKey);
  if (k === undefined) return [];
  return codeRows(db, 'SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND key_no = ?', [s.logId, s.threadNo, k]);
}

/** Every row of a file (a whole-file find, the gutter). */
export function rowsByFile(db: Database, s: Scope, file: string): CodeRow[] {
  const f = fileNo(db, s.logId, file);
  if (f === undefined) return [];
  return codeRows(db, 'SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND file_no = ?', [s.logId, s.threadNo, f]);
}

/** Anchors of a file whose current range overlaps [start, end] by at least one line. */
export function anchorsOverlapping(db: Database, s: Scope, file: string, start: number, end: number): number[] {
  const f = fileNo(db, s.logId, file);
  if (f === undefined) return [];
  return rows<{ anchor_no: number }>(
    db,
    `SELECT DISTINCT a.anchor_no FROM line_buckets b
       JOIN anchors a ON a.log_id = b.log_id AND a.thread_no = b.thread_no AND a.anchor_no = b.anchor_no
      WHERE b.log_id = ? AND b.thread_no = ? AND b.file_no = ? AND b.bucket BETWEEN ? AND ? AND a.line_start <= ? AND a.line_end >= ?
      ORDER BY a.anchor_no`,
    [s.logId, s.threadNo, f, bucketOf(start), bucketOf(end), end, start],
  ).map((r) => Number(r.anchor_no));
}

/** The message id and role of each ordinal asked for (those a page of matches shows). */
export function messagesAt(db: Database, s: Scope, ordinals: Iterable<number>): Map<number, { message_id: string; role: string }> {
  const list = [...ordinals];
  if (!list.length) return new Map();
  const found = rows<{ ordinal: number; message_id: string; role: string }>(
    db, 'SELECT ordinal, message_id, role FROM messages WHERE log_id = ? AND thread_no = ? AND ordinal IN (SELECT value FROM json_each(?))',
    [s.logId, s.threadNo, JSON.stringify(list)],
  );
  return new Map(found.map((m) => [Number(m.ordinal), { message_id: m.message_id, role: m.role }]));
}
