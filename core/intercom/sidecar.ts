// The derived sidecar `.hci/intercom-message-code.sqlite`: per log, its threads' messages and their
// re-resolved code anchors, keyed by (thread, file, member key) with line buckets for overlap, each
// row carrying message id, ordinal and match kind (inferred | explicit; an explicit relate has one
// row per ordinal of its range). Owns the tables, opening (a missing, damaged or older file is
// simply recreated: it is a cache of the log), replacing one log's rows in one transaction, and the
// lookups a find needs. Same WASM SQLite, storage and lock rules as the index (SqliteConnection).
// Deciding when to rebuild and ranking belong to intercom.ts.
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import type { IndexStorage } from '../index/storage.ts';
import { HciError } from '../platform.ts';
import { SqliteConnection, resultCode, SQLITE_CORRUPT, SQLITE_NOTADB, type StoreOptions } from '../sqlite/connection.ts';
import type { ResolvedAnchor } from './anchors.ts';
import type { ProjectedAnchor, ProjectedMessage } from './projection.ts';

export const SIDECAR_FILE = 'intercom-message-code.sqlite';
/** Bump on any change to the tables or to what their rows mean: the file is then rebuilt. */
export const SIDECAR_FORMAT = 1;
/** Lines per bucket of the overlap index. */
export const BUCKET_LINES = 64;

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE logs(
  log_id INTEGER PRIMARY KEY,
  location TEXT NOT NULL UNIQUE,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  index_generation INTEGER NOT NULL,
  stats TEXT NOT NULL
);
CREATE TABLE threads(
  log_id INTEGER NOT NULL, thread_id TEXT NOT NULL, messages INTEGER NOT NULL, skipped TEXT NOT NULL,
  PRIMARY KEY(log_id, thread_id)
) WITHOUT ROWID;
CREATE TABLE messages(
  log_id INTEGER NOT NULL, thread_id TEXT NOT NULL, ordinal INTEGER NOT NULL, message_id TEXT NOT NULL, role TEXT NOT NULL, line INTEGER NOT NULL,
  PRIMARY KEY(log_id, thread_id, ordinal)
) WITHOUT ROWID;
CREATE TABLE anchors(
  log_id INTEGER NOT NULL, thread_id TEXT NOT NULL, anchor_no INTEGER NOT NULL,
  anchor_id TEXT NOT NULL, origin TEXT NOT NULL, line INTEGER NOT NULL, message_id TEXT,
  start_ordinal INTEGER NOT NULL, end_ordinal INTEGER NOT NULL, source TEXT,
  file TEXT NOT NULL, member_key TEXT, syntax_scope TEXT, shape TEXT NOT NULL,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, stale INTEGER NOT NULL, stale_reason TEXT,
  excerpt TEXT, hint_start INTEGER, hint_end INTEGER,
  PRIMARY KEY(log_id, thread_id, anchor_no)
) WITHOUT ROWID;
CREATE INDEX anchors_by_id ON anchors(log_id, thread_id, anchor_id);
CREATE TABLE message_code(
  log_id INTEGER NOT NULL, thread_id TEXT NOT NULL, file TEXT NOT NULL, member_key TEXT NOT NULL,
  ordinal INTEGER NOT NULL, anchor_no INTEGER NOT NULL, message_id TEXT NOT NULL, match_kind TEXT NOT NULL,
  PRIMARY KEY(log_id, thread_id, file, member_key, ordinal, anchor_no)
) WITHOUT ROWID;
CREATE INDEX message_code_by_key ON message_code(log_id, thread_id, member_key);
CREATE TABLE line_buckets(
  log_id INTEGER NOT NULL, thread_id TEXT NOT NULL, file TEXT NOT NULL, bucket INTEGER NOT NULL, anchor_no INTEGER NOT NULL,
  PRIMARY KEY(log_id, thread_id, file, bucket, anchor_no)
) WITHOUT ROWID;
CREATE TABLE files(
  log_id INTEGER NOT NULL, file TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms INTEGER NOT NULL,
  PRIMARY KEY(log_id, file)
) WITHOUT ROWID;
`;

/** The tables holding one log's rows (all but meta and logs) and their key order. */
const LOG_TABLE_KEYS = {
  threads: 'thread_id',
  messages: 'thread_id, ordinal',
  anchors: 'thread_id, anchor_no',
  message_code: 'thread_id, file, member_key, ordinal, anchor_no',
  line_buckets: 'thread_id, file, bucket, anchor_no',
  files: 'file',
} as const;
export const LOG_TABLES = Object.keys(LOG_TABLE_KEYS) as Array<keyof typeof LOG_TABLE_KEYS>;

export interface LogRecord {
  log_id: number;
  location: string;
  size: number;
  mtime_ms: number;
  index_generation: number;
}

export interface ThreadRecord {
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

/** Everything one log contributes, ready to write. */
export interface LogSnapshot {
  location: string;
  size: number;
  mtimeMs: number;
  indexGeneration: number;
  stats: unknown;
  threads: Array<{
    threadId: string;
    messages: ProjectedMessage[];
    skipped: Record<string, number>;
    anchors: Array<{ projected: ProjectedAnchor; resolved: ResolvedAnchor }>;
  }>;
  files: Array<{ file: string; size: number; mtimeMs: number }>;
}

export class Sidecar extends SqliteConnection {
  private constructor(db: Database, storage: IndexStorage, engine: SqliteEngine, opts: StoreOptions) {
    super(db, storage, engine, opts, { what: 'intercom sidecar', lockFile: `.hci/${SIDECAR_FILE}.lock` });
  }

  /** Opens the sidecar, creating it, or recreating it when it is damaged or of another format. */
  static async open(storage: IndexStorage, engine: SqliteEngine, opts: StoreOptions): Promise<Sidecar> {
    try {
      return await Sidecar.openOnce(storage, engine, opts);
    } catch (e) {
      const rc = resultCode(e);
      const damaged = rc === SQLITE_CORRUPT || rc === SQLITE_NOTADB || (e instanceof HciError && e.code === 'index_corrupt');
      if (!damaged) throw e;
      await storage.remove(); // a cache of the log: deleting it loses nothing
      return Sidecar.openOnce(storage, engine, opts);
    }
  }

  private static async openOnce(storage: IndexStorage, engine: SqliteEngine, opts: StoreOptions): Promise<Sidecar> {
    const db = storage.open(engine);
    const s = new Sidecar(db, storage, engine, opts);
    try {
      await s.retryBusy(() => s.execQuiet('PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA temp_store = MEMORY'));
      await s.write((d) => {
        const hasMeta = d.selectValue("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'") !== undefined;
        const format = hasMeta ? (d.selectValue("SELECT value FROM meta WHERE key = 'format'") as string | undefined) : undefined;
        if (format === String(SIDECAR_FORMAT)) return;
        // Missing or another format: drop whatever is there and start empty (rebuilt from the logs).
        const tables = d.selectValues("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") as string[];
        for (const t of tables) d.exec(`DROP TABLE IF EXISTS "${t}"`);
        d.exec(SCHEMA);
        d.exec({ sql: "INSERT INTO meta(key, value) VALUES ('format', ?)", bind: [String(SIDECAR_FORMAT)] });
      });
    } catch (e) {
      try {
        db.close();
      } catch {
        // already unusable
      }
      throw e;
    }
    return s;
  }

  /** Replaces one log's rows with a snapshot, in one transaction (nothing half-written). */
  replaceLog(snap: LogSnapshot): Promise<number> {
    return this.write((db) => {
      let logId = db.selectValue('SELECT log_id FROM logs WHERE location = ?', [snap.location]) as number | undefined;
      if (logId === undefined) logId = Number(db.selectValue('SELECT coalesce(max(log_id), 0) + 1 FROM logs'));
      for (const t of LOG_TABLES) db.exec({ sql: `DELETE FROM ${t} WHERE log_id = ?`, bind: [logId] });
      db.exec({
        sql: 'INSERT OR REPLACE INTO logs(log_id, location, size, mtime_ms, index_generation, stats) VALUES (?, ?, ?, ?, ?, ?)',
        bind: [logId, snap.location, snap.size, snap.mtimeMs, snap.indexGeneration, JSON.stringify(snap.stats)],
      });
      const insert = (sql: string) => db.prepare(sql);
      const st = {
        thread: insert('INSERT INTO threads VALUES (?, ?, ?, ?)'),
        message: insert('INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?)'),
        anchor: insert('INSERT INTO anchors VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)'),
        code: insert('INSERT OR IGNORE INTO message_code VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
        bucket: insert('INSERT OR IGNORE INTO line_buckets VALUES (?, ?, ?, ?, ?)'),
        file: insert('INSERT INTO files VALUES (?, ?, ?, ?)'),
      };
      const run = (s: (typeof st)[keyof typeof st], values: unknown[]) => {
        s.bind(values as never).stepReset();
      };
      try {
        for (const t of snap.threads) {
          run(st.thread, [logId, t.threadId, t.messages.length, JSON.stringify(t.skipped)]);
          for (const m of t.messages) run(st.message, [logId, t.threadId, m.ordinal, m.message_id, m.role, m.line]);
          const ordinalIds = t.messages.map((m) => m.message_id);
          for (const { projected: p, resolved: r } of t.anchors) {
            run(st.anchor, [
              logId, t.threadId, p.anchorNo, p.anchorId, p.origin, p.line, p.messageId, p.startOrdinal, p.endOrdinal, p.source,
              r.file, r.member_key, r.syntax_scope, r.shape, r.line_start, r.line_end, r.stale ? 1 : 0, r.stale_reason,
              p.anchor.excerpt ?? null, p.anchor.line_start ?? null, p.anchor.line_end ?? null,
            ]);
            const kind = p.origin === 'relate' ? 'explicit' : 'inferred';
            for (let o = p.startOrdinal; o <= p.endOrdinal; o++) {
              run(st.code, [logId, t.threadId, r.file, r.member_key ?? '', o, p.anchorNo, ordinalIds[o - 1], kind]);
            }
            for (let b = bucketOf(r.line_start); b <= bucketOf(r.line_end); b++) run(st.bucket, [logId, t.threadId, r.file, b, p.anchorNo]);
          }
        }
        for (const f of snap.files) run(st.file, [logId, f.file, f.size, f.mtimeMs]);
      } finally {
        for (const s of Object.values(st)) s.finalize();
      }
      return logId;
    });
  }
}

export function bucketOf(line: number): number {
  return Math.floor((Math.max(1, line) - 1) / BUCKET_LINES);
}

// ── lookups (run inside one read transaction) ──────────────────────────────────────────────────

export function logRecord(db: Database, location: string): LogRecord | undefined {
  return db.selectObject('SELECT log_id, location, size, mtime_ms, index_generation FROM logs WHERE location = ?', [location]) as LogRecord | undefined;
}

export function logStats(db: Database, logId: number): unknown {
  const s = db.selectValue('SELECT stats FROM logs WHERE log_id = ?', [logId]) as string | undefined;
  return s ? JSON.parse(s) : null;
}

export function threadRecord(db: Database, logId: number, threadId: string): ThreadRecord | undefined {
  const r = db.selectObject('SELECT thread_id, messages, skipped FROM threads WHERE log_id = ? AND thread_id = ?', [logId, threadId]) as
    | { thread_id: string; messages: number; skipped: string }
    | undefined;
  return r && { thread_id: r.thread_id, messages: Number(r.messages), skipped: JSON.parse(r.skipped) };
}

export function threadIds(db: Database, logId: number, limit = 10): string[] {
  return db.selectValues('SELECT thread_id FROM threads WHERE log_id = ? ORDER BY thread_id LIMIT ?', [logId, limit]) as string[];
}

export function fileFingerprint(db: Database, logId: number, file: string): { size: number; mtime_ms: number } | undefined {
  return db.selectObject('SELECT size, mtime_ms FROM files WHERE log_id = ? AND file = ?', [logId, file]) as { size: number; mtime_ms: number } | undefined;
}

const ANCHOR_COLUMNS = 'anchor_no, anchor_id, origin, message_id, start_ordinal, end_ordinal, source, file, member_key, syntax_scope, shape, line_start, line_end, stale, stale_reason, excerpt';

export function anchorById(db: Database, logId: number, threadId: string, anchorId: string): AnchorRow | undefined {
  return db.selectObject(`SELECT ${ANCHOR_COLUMNS} FROM anchors WHERE log_id = ? AND thread_id = ? AND anchor_id = ? ORDER BY anchor_no LIMIT 1`, [logId, threadId, anchorId]) as
    | AnchorRow
    | undefined;
}

export function anchorsByNo(db: Database, logId: number, threadId: string, nos: Iterable<number>): Map<number, AnchorRow> {
  const out = new Map<number, AnchorRow>();
  const st = db.prepare(`SELECT ${ANCHOR_COLUMNS} FROM anchors WHERE log_id = ? AND thread_id = ? AND anchor_no = ?`);
  try {
    for (const no of nos) {
      st.bind([logId, threadId, no]);
      if (st.step()) out.set(no, st.get({}) as unknown as AnchorRow);
      st.reset();
    }
  } finally {
    st.finalize();
  }
  return out;
}

export interface CodeRow {
  ordinal: number;
  anchor_no: number;
  message_id: string;
  match_kind: 'inferred' | 'explicit';
}

/** Rows with this file and member key (the key match). */
export function rowsByKey(db: Database, logId: number, threadId: string, file: string, memberKey: string): CodeRow[] {
  return db.selectObjects(
    'SELECT ordinal, anchor_no, message_id, match_kind FROM message_code WHERE log_id = ? AND thread_id = ? AND file = ? AND member_key = ?',
    [logId, threadId, file, memberKey],
  ) as unknown as CodeRow[];
}

/** Rows with this member key in any file (a key no longer defined anywhere). */
export function rowsByKeyAnywhere(db: Database, logId: number, threadId: string, memberKey: string): CodeRow[] {
  return db.selectObjects(
    'SELECT ordinal, anchor_no, message_id, match_kind FROM message_code WHERE log_id = ? AND thread_id = ? AND member_key = ?',
    [logId, threadId, memberKey],
  ) as unknown as CodeRow[];
}

/** Every row of a file (a whole-file find, the gutter). */
export function rowsByFile(db: Database, logId: number, threadId: string, file: string): CodeRow[] {
  return db.selectObjects('SELECT ordinal, anchor_no, message_id, match_kind FROM message_code WHERE log_id = ? AND thread_id = ? AND file = ?', [logId, threadId, file]) as unknown as CodeRow[];
}

/** Anchors of a file whose current range overlaps [start, end] by at least one line. */
export function anchorsOverlapping(db: Database, logId: number, threadId: string, file: string, start: number, end: number): number[] {
  return db.selectValues(
    `SELECT DISTINCT a.anchor_no FROM line_buckets b
       JOIN anchors a ON a.log_id = b.log_id AND a.thread_id = b.thread_id AND a.anchor_no = b.anchor_no
      WHERE b.log_id = ? AND b.thread_id = ? AND b.file = ? AND b.bucket BETWEEN ? AND ? AND a.line_start <= ? AND a.line_end >= ?
      ORDER BY a.anchor_no`,
    [logId, threadId, file, bucketOf(start), bucketOf(end), end, start],
  ) as number[];
}

export function messageIds(db: Database, logId: number, threadId: string, from: number, to: number): Map<number, { message_id: string; role: string }> {
  const rows = db.selectObjects('SELECT ordinal, message_id, role FROM messages WHERE log_id = ? AND thread_id = ? AND ordinal BETWEEN ? AND ?', [logId, threadId, from, to]) as Array<{
    ordinal: number;
    message_id: string;
    role: string;
  }>;
  return new Map(rows.map((r) => [Number(r.ordinal), { message_id: r.message_id, role: r.role }]));
}

/** Every row of one log's tables, in key order: what a deterministic rebuild must reproduce. */
export function dumpLogRows(db: Database, logId: number): Record<string, unknown[][]> {
  const out: Record<string, unknown[][]> = {};
  for (const t of LOG_TABLES) {
    out[t] = db.selectArrays(`SELECT * FROM ${t} WHERE log_id = ? ORDER BY ${LOG_TABLE_KEYS[t]}`, [logId]) as unknown[][];
  }
  return out;
}
