// The lookups a find, a relate and the gutter make in the sidecar (tables: sidecar.ts), each run
// inside the caller's read transaction: a log's and a thread's records, file and key numbers, rows by
// (file, member key), by file, by key anywhere, anchors overlapping a range (through the line
// buckets), anchors by number or id, and the messages of a page. Owns SQL only; ranking is find.ts.
import type { Database } from '../sqlite/engine.ts';
import { bucketOf } from './sidecar.ts';

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
  return db.selectObject('SELECT log_id, location, size, mtime_ms, index_generation FROM logs WHERE location = ?', [location]) as LogRecord | undefined;
}

export function logStats(db: Database, logId: number): unknown {
  const s = db.selectValue('SELECT stats FROM logs WHERE log_id = ?', [logId]) as string | undefined;
  return s ? JSON.parse(s) : null;
}

export function threadRecord(db: Database, logId: number, threadId: string): ThreadRecord | undefined {
  const r = db.selectObject('SELECT thread_no, thread_id, messages, skipped FROM threads WHERE log_id = ? AND thread_id = ?', [logId, threadId]) as
    | { thread_no: number; thread_id: string; messages: number; skipped: string }
    | undefined;
  return r && { thread_no: Number(r.thread_no), thread_id: r.thread_id, messages: Number(r.messages), skipped: JSON.parse(r.skipped) };
}

export function threadIds(db: Database, logId: number, limit = 10): string[] {
  return db.selectValues('SELECT thread_id FROM threads WHERE log_id = ? ORDER BY thread_id LIMIT ?', [logId, limit]) as string[];
}

/** A file's drift fingerprint as of the last rebuild (undefined: no anchor names it). */
export function fileFingerprint(db: Database, logId: number, file: string): { size: number; mtime_ms: number } | undefined {
  return db.selectObject('SELECT size, mtime_ms FROM files WHERE log_id = ? AND file = ?', [logId, file]) as { size: number; mtime_ms: number } | undefined;
}

function fileNo(db: Database, logId: number, file: string): number | undefined {
  const v = db.selectValue('SELECT file_no FROM files WHERE log_id = ? AND file = ?', [logId, file]);
  return v === undefined ? undefined : Number(v);
}

function keyNo(db: Database, logId: number, key: string): number | undefined {
  const v = db.selectValue('SELECT key_no FROM member_keys WHERE log_id = ? AND member_key = ?', [logId, key]);
  return v === undefined ? undefined : Number(v);
}

const ANCHOR_SELECT = `
SELECT a.anchor_no, a.anchor_id, a.origin, a.message_id, a.start_ordinal, a.end_ordinal, a.source, f.file, k.member_key,
       a.syntax_scope, a.shape, a.line_start, a.line_end, a.stale, a.stale_reason, a.excerpt
  FROM anchors a
  JOIN files f ON f.log_id = a.log_id AND f.file_no = a.file_no
  LEFT JOIN member_keys k ON k.log_id = a.log_id AND k.key_no = a.key_no`;

export function anchorById(db: Database, s: Scope, anchorId: string): AnchorRow | undefined {
  return db.selectObject(`${ANCHOR_SELECT} WHERE a.log_id = ? AND a.thread_no = ? AND a.anchor_id = ? ORDER BY a.anchor_no LIMIT 1`, [s.logId, s.threadNo, anchorId]) as
    | AnchorRow
    | undefined;
}

export function anchorsByNo(db: Database, s: Scope, nos: Iterable<number>): Map<number, AnchorRow> {
  const out = new Map<number, AnchorRow>();
  const st = db.prepare(`${ANCHOR_SELECT} WHERE a.log_id = ? AND a.thread_no = ? AND a.anchor_no = ?`);
  try {
    for (const no of nos) {
      st.bind([s.logId, s.threadNo, no]);
      if (st.step()) out.set(no, st.get({}) as unknown as AnchorRow);
      st.reset();
    }
  } finally {
    st.finalize();
  }
  return out;
}

const numbers = (rows: unknown[]): CodeRow[] => (rows as CodeRow[]).map((r) => ({ ordinal: Number(r.ordinal), anchor_no: Number(r.anchor_no) }));

/** Rows with this file and member key (the key match). */
export function rowsByKey(db: Database, s: Scope, file: string, memberKey: string): CodeRow[] {
  const f = fileNo(db, s.logId, file);
  const k = keyNo(db, s.logId, memberKey);
  if (f === undefined || k === undefined) return [];
  return numbers(db.selectObjects('SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND file_no = ? AND key_no = ?', [s.logId, s.threadNo, f, k]));
}

/** Rows with this member key in any file (a key no longer defined anywhere). */
export function rowsByKeyAnywhere(db: Database, s: Scope, memberKey: string): CodeRow[] {
  const k = keyNo(db, s.logId, memberKey);
  if (k === undefined) return [];
  return numbers(db.selectObjects('SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND key_no = ?', [s.logId, s.threadNo, k]));
}

/** Every row of a file (a whole-file find, the gutter). */
export function rowsByFile(db: Database, s: Scope, file: string): CodeRow[] {
  const f = fileNo(db, s.logId, file);
  if (f === undefined) return [];
  return numbers(db.selectObjects('SELECT ordinal, anchor_no FROM message_code WHERE log_id = ? AND thread_no = ? AND file_no = ?', [s.logId, s.threadNo, f]));
}

/** Anchors of a file whose current range overlaps [start, end] by at least one line. */
export function anchorsOverlapping(db: Database, s: Scope, file: string, start: number, end: number): number[] {
  const f = fileNo(db, s.logId, file);
  if (f === undefined) return [];
  return (db.selectValues(
    `SELECT DISTINCT a.anchor_no FROM line_buckets b
       JOIN anchors a ON a.log_id = b.log_id AND a.thread_no = b.thread_no AND a.anchor_no = b.anchor_no
      WHERE b.log_id = ? AND b.thread_no = ? AND b.file_no = ? AND b.bucket BETWEEN ? AND ? AND a.line_start <= ? AND a.line_end >= ?
      ORDER BY a.anchor_no`,
    [s.logId, s.threadNo, f, bucketOf(start), bucketOf(end), end, start],
  ) as number[]).map(Number);
}

/** The message id and role of each ordinal asked for (those a page of matches shows). */
export function messagesAt(db: Database, s: Scope, ordinals: Iterable<number>): Map<number, { message_id: string; role: string }> {
  const out = new Map<number, { message_id: string; role: string }>();
  const st = db.prepare('SELECT message_id, role FROM messages WHERE log_id = ? AND thread_no = ? AND ordinal = ?');
  try {
    for (const o of ordinals) {
      st.bind([s.logId, s.threadNo, o]);
      if (st.step()) out.set(o, { message_id: st.getString(0)!, role: st.getString(1)! });
      st.reset();
    }
  } finally {
    st.finalize();
  }
  return out;
}
