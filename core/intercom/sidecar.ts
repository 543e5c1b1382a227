// The derived sidecar `.hci/intercom-message-code.sqlite`: per log, its threads' messages and their
// re-resolved code anchors, keyed by (thread, file, member key) with line buckets for overlap, each
// row carrying ordinal and match kind (inferred | explicit; an explicit relate has one row per
// ordinal of its range) and, through messages, the message id. Owns the tables, opening (a missing,
// damaged or older file is simply recreated: it is a cache of the log) and replacing one log's rows
// in one transaction. The lookups are sidecar-queries.ts. Same WASM SQLite, storage and lock rules as
// the index (SqliteConnection). Deciding when to rebuild and ranking belong to intercom.ts and find.ts.
//
// Threads, files and member keys are numbered per log (thread_no, file_no, key_no; key_no 0 = none)
// so the keyed tables hold small integer keys: a rebuild writes ~70k rows for 20k anchors, and text
// keys made it several times slower. Numbers are assigned in a fixed order (threads as they first
// appear in the log, files and keys sorted), so a rebuild from the same log gives the same rows.
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import type { IndexStorage } from '../index/storage.ts';
import { HciError } from '../platform.ts';
import { SqliteConnection, resultCode, SQLITE_CORRUPT, SQLITE_NOTADB, type StoreOptions } from '../sqlite/connection.ts';
import { FastStatement, type BindValue } from '../sqlite/fast-statement.ts';
import type { ResolvedAnchor } from './anchors.ts';
import type { ProjectedAnchor, ProjectedMessage } from './projection.ts';

export const SIDECAR_FILE = 'intercom-message-code.sqlite';
/** Bump on any change to the tables or to what their rows mean: the file is then rebuilt. */
export const SIDECAR_FORMAT = 2;
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
  log_id INTEGER NOT NULL, thread_no INTEGER NOT NULL, thread_id TEXT NOT NULL, messages INTEGER NOT NULL, skipped TEXT NOT NULL,
  PRIMARY KEY(log_id, thread_no)
) WITHOUT ROWID;
CREATE UNIQUE INDEX threads_by_id ON threads(log_id, thread_id);
CREATE TABLE files(
  log_id INTEGER NOT NULL, file_no INTEGER NOT NULL, file TEXT NOT NULL, size INTEGER NOT NULL, mtime_ms INTEGER NOT NULL,
  PRIMARY KEY(log_id, file_no)
) WITHOUT ROWID;
CREATE UNIQUE INDEX files_by_path ON files(log_id, file);
CREATE TABLE member_keys(
  log_id INTEGER NOT NULL, key_no INTEGER NOT NULL, member_key TEXT NOT NULL,
  PRIMARY KEY(log_id, key_no)
) WITHOUT ROWID;
CREATE UNIQUE INDEX member_keys_by_key ON member_keys(log_id, member_key);
CREATE TABLE messages(
  log_id INTEGER NOT NULL, thread_no INTEGER NOT NULL, ordinal INTEGER NOT NULL, message_id TEXT NOT NULL, role TEXT NOT NULL, line INTEGER NOT NULL,
  PRIMARY KEY(log_id, thread_no, ordinal)
) WITHOUT ROWID;
CREATE TABLE anchors(
  log_id INTEGER NOT NULL, thread_no INTEGER NOT NULL, anchor_no INTEGER NOT NULL,
  anchor_id TEXT NOT NULL, origin TEXT NOT NULL, line INTEGER NOT NULL, message_id TEXT,
  start_ordinal INTEGER NOT NULL, end_ordinal INTEGER NOT NULL, source TEXT,
  file_no INTEGER NOT NULL, key_no INTEGER NOT NULL, syntax_scope TEXT, shape TEXT NOT NULL,
  line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, stale INTEGER NOT NULL, stale_reason TEXT,
  excerpt TEXT, hint_start INTEGER, hint_end INTEGER,
  PRIMARY KEY(log_id, thread_no, anchor_no)
) WITHOUT ROWID;
CREATE INDEX anchors_by_id ON anchors(log_id, thread_no, anchor_id);
CREATE TABLE message_code(
  log_id INTEGER NOT NULL, thread_no INTEGER NOT NULL, file_no INTEGER NOT NULL, key_no INTEGER NOT NULL,
  ordinal INTEGER NOT NULL, anchor_no INTEGER NOT NULL, match_kind TEXT NOT NULL,
  PRIMARY KEY(log_id, thread_no, file_no, key_no, ordinal, anchor_no)
) WITHOUT ROWID;
CREATE INDEX message_code_by_key ON message_code(log_id, thread_no, key_no);
CREATE TABLE line_buckets(
  log_id INTEGER NOT NULL, thread_no INTEGER NOT NULL, file_no INTEGER NOT NULL, bucket INTEGER NOT NULL, anchor_no INTEGER NOT NULL,
  PRIMARY KEY(log_id, thread_no, file_no, bucket, anchor_no)
) WITHOUT ROWID;
`;

/** The tables holding one log's rows (all but meta and logs), with their keys. */
const LOG_TABLE_KEYS = {
  threads: 'thread_no',
  files: 'file_no',
  member_keys: 'key_no',
  messages: 'thread_no, ordinal',
  anchors: 'thread_no, anchor_no',
  message_code: 'thread_no, file_no, key_no, ordinal, anchor_no',
  line_buckets: 'thread_no, file_no, bucket, anchor_no',
} as const;
export const LOG_TABLES = Object.keys(LOG_TABLE_KEYS) as Array<keyof typeof LOG_TABLE_KEYS>;

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
  /** Drift fingerprints of the files read (size and mtime; -1 when missing). */
  files: Array<{ file: string; size: number; mtimeMs: number }>;
}

export function bucketOf(line: number): number {
  return Math.floor((Math.max(1, line) - 1) / BUCKET_LINES);
}

/** Numbers for a sorted set of strings, from 1. */
function numbered(values: Iterable<string>): Map<string, number> {
  return new Map([...new Set(values)].sort().map((v, i) => [v, i + 1]));
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
      await s.retryBusy(() =>
        s.execQuiet('PRAGMA busy_timeout = 0; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -32000'),
      );
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
    const fileNo = numbered([...snap.files.map((f) => f.file), ...snap.threads.flatMap((t) => t.anchors.map((a) => a.resolved.file))]);
    const keyNo = numbered(snap.threads.flatMap((t) => t.anchors.flatMap((a) => (a.resolved.member_key ? [a.resolved.member_key] : []))));
    const fingerprint = new Map(snap.files.map((f) => [f.file, f]));
    return this.write((db) => {
      let logId = db.selectValue('SELECT log_id FROM logs WHERE location = ?', [snap.location]) as number | undefined;
      if (logId === undefined) logId = Number(db.selectValue('SELECT coalesce(max(log_id), 0) + 1 FROM logs'));
      // The only log (the usual case): whole-table deletes, which SQLite does without visiting rows.
      const alone = Number(db.selectValue('SELECT count(*) FROM logs WHERE log_id <> ?', [logId])) === 0;
      for (const t of LOG_TABLES) db.exec({ sql: alone ? `DELETE FROM ${t}` : `DELETE FROM ${t} WHERE log_id = ?`, bind: alone ? [] : [logId] });
      db.exec({
        sql: 'INSERT OR REPLACE INTO logs(log_id, location, size, mtime_ms, index_generation, stats) VALUES (?, ?, ?, ?, ?, ?)',
        bind: [logId, snap.location, snap.size, snap.mtimeMs, snap.indexGeneration, JSON.stringify(snap.stats)],
      });
      const statements: FastStatement[] = [];
      const insert = (sql: string) => {
        const st = new FastStatement(this.engine.sqlite3, db, db.prepare(sql));
        statements.push(st);
        return (values: BindValue[]) => st.run(values);
      };
      try {
        const file = insert('INSERT INTO files VALUES (?, ?, ?, ?, ?)');
        for (const [path, no] of fileNo) file([logId, no, path, fingerprint.get(path)?.size ?? -1, fingerprint.get(path)?.mtimeMs ?? -1]);
        const key = insert('INSERT INTO member_keys VALUES (?, ?, ?)');
        for (const [k, no] of keyNo) key([logId, no, k]);
        const thread = insert('INSERT INTO threads VALUES (?, ?, ?, ?, ?)');
        const message = insert('INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?)');
        const anchor = insert('INSERT INTO anchors VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        const code = insert('INSERT OR IGNORE INTO message_code VALUES (?, ?, ?, ?, ?, ?, ?)');
        const bucket = insert('INSERT OR IGNORE INTO line_buckets VALUES (?, ?, ?, ?, ?)');
        snap.threads.forEach((t, i) => {
          const threadNo = i + 1;
          thread([logId, threadNo, t.threadId, t.messages.length, JSON.stringify(t.skipped)]);
          for (const m of t.messages) message([logId, threadNo, m.ordinal, m.message_id, m.role, m.line]);
          // Rows go in in key order: B-tree appends instead of inserts all over the tree.
          const codes: number[][] = [];
          const buckets: number[][] = [];
          for (const { projected: p, resolved: r } of t.anchors) {
            const f = fileNo.get(r.file)!;
            const k = r.member_key ? keyNo.get(r.member_key)! : 0;
            anchor([
              logId, threadNo, p.anchorNo, p.anchorId, p.origin, p.line, p.messageId, p.startOrdinal, p.endOrdinal, p.source,
              f, k, r.syntax_scope, r.shape, r.line_start, r.line_end, r.stale ? 1 : 0, r.stale_reason,
              p.anchor.excerpt ?? null, p.anchor.line_start ?? null, p.anchor.line_end ?? null,
            ]);
            const explicit = p.origin === 'relate' ? 1 : 0;
            for (let o = p.startOrdinal; o <= p.endOrdinal; o++) codes.push([f, k, o, p.anchorNo, explicit]);
            for (let b = bucketOf(r.line_start); b <= bucketOf(r.line_end); b++) buckets.push([f, b, p.anchorNo]);
          }
          codes.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2] || x[3] - y[3]);
          for (const [f, k, o, no, explicit] of codes) code([logId, threadNo, f, k, o, no, explicit ? 'explicit' : 'inferred']);
          buckets.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
          for (const [f, b, no] of buckets) bucket([logId, threadNo, f, b, no]);
        });
      } finally {
        for (const s of statements) s.finalize();
      }
      return logId;
    });
  }
}
