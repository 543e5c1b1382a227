// The index file format: tables, the format version and migrations. Owns DDL only; reading and
// writing rows belongs to the store and the indexer. Bump FORMAT_VERSION on any change to tables or
// to how FTS rows are derived (the FTS table is contentless: deletes must repeat the exact tokens).
import type { Database } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';

export const FORMAT_VERSION = 5;
/** Version of the token analysis (identifier splitting). A mismatch needs a rebuild. */
export const ANALYZER_VERSION = 1;

const META_TABLE = 'CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;';
const SKIPPED_TABLE = 'CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;';
const FILES_TABLE = `
CREATE TABLE files(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path TEXT NOT NULL UNIQUE,
  lang TEXT NOT NULL,
  size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL,
  hash TEXT NOT NULL,
  line_count INTEGER NOT NULL,
  flags INTEGER NOT NULL DEFAULT 0,
  secret_chunks INTEGER NOT NULL DEFAULT 0,
  generation INTEGER NOT NULL
);`;

/**
 * Format 3, everything but meta, files and skipped. Chunk text, headers, member keys and outlines live
 * compressed in one file_data row per file (core/index/file-data.ts); chunks keep what ranking reads for every
 * candidate. Member keys are found through the FTS index by their words (core/search/symbols.ts).
 * The FTS table is contentless (the text is not stored twice); deletes repeat the inserted values.
 */
const CONTENT_V3 = `
CREATE TABLE file_data(
  file_id INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);
CREATE TABLE chunks(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  file_id INTEGER NOT NULL,
  ordinal INTEGER NOT NULL,
  start_line INTEGER NOT NULL,
  end_line INTEGER NOT NULL,
  kind TEXT NOT NULL,
  symbol_kind TEXT,
  symbol_name TEXT
);
CREATE INDEX chunks_by_file ON chunks(file_id, ordinal);
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  path, symbol, header, body, idents,
  content='', tokenize='porter unicode61 remove_diacritics 2'
);
`;

/**
 * Format 4: the semantic channel's tables (core/vector/store.ts reads and writes them). One row per
 * embedding model (provider, model, dims, quantization, the int8 scale, the learned model's bytes,
 * which one is current); one row per embedded chunk: its vector in sqlite-vec's BLOB layout (int8
 * bytes or float32 little-endian, so a native SQLite with sqlite-vec runs vec_distance_* over it)
 * and the hash of the text it was embedded from (the embedding cache: a chunk with the same text
 * under the same model reuses the vector). A chunk's vector row is deleted in the transaction that
 * deletes the chunk, so vectors never outlive their chunks.
 */
const VECTORS_V4 = `
CREATE TABLE vector_models(
  id INTEGER PRIMARY KEY,
  provider TEXT NOT NULL,
  model TEXT NOT NULL,
  dims INTEGER NOT NULL,
  quantization TEXT NOT NULL,
  scale REAL,
  current INTEGER NOT NULL DEFAULT 0,
  data BLOB,
  info TEXT NOT NULL DEFAULT '{}',
  created_at TEXT NOT NULL
);
CREATE TABLE chunk_vectors(
  chunk_id INTEGER PRIMARY KEY,
  model_id INTEGER NOT NULL,
  text_hash BLOB NOT NULL,
  vec BLOB NOT NULL
);
CREATE INDEX chunk_vectors_by_text ON chunk_vectors(model_id, text_hash);
`;

/**
 * File flags (files.flags bits). test/generated: the path rules or a content marker said so
 * (core/scan/roles.ts; `generatedContent` records that a content marker did); projectTest/projectExe:
 * facts of a project file, which search applies to the files under its folder (core/search/roles.ts).
 */
export const FILE_FLAG = { test: 1, generated: 2, invalidUtf8: 4, parseFallback: 8, projectTest: 16, projectExe: 32, generatedContent: 64 } as const;

export interface Migration {
  from: number;
  to: number;
  up(db: Database): void;
}

/** Migrations from older formats, applied in order inside one transaction. */
const MIGRATIONS: Migration[] = [
  {
    // Formats 1 and 2 stored chunk text per chunk (and 2 a symbols table); their rows cannot be
    // converted without the source files, so the content tables are replaced and emptied, and the
    // next indexing pass re-reads every file (the index is a cache of the workspace).
    from: 1,
    to: 3,
    up: replaceContentTables,
  },
  { from: 2, to: 3, up: replaceContentTables },
  // Format 3 had no vectors: the vector tables are added empty; keyword data stays as it is (the
  // next indexing run with semantic search on fills them).
  { from: 3, to: 4, up: addVectorTables },
  // Format 4 had the file flags of path rules only: every file is re-read for the content ones.
  { from: 4, to: 5, up: rereadForRoleFlags },
];

function addVectorTables(db: Database): void {
  db.exec('DROP TABLE IF EXISTS chunk_vectors; DROP TABLE IF EXISTS vector_models');
  db.exec(VECTORS_V4);
}

/**
 * Format 5 adds file flags read from content (generator markers, OpenAPI documents, minified files)
 * and project facts (IsTestProject, test frameworks, OutputType). Rows and chunks stay; every file
 * is re-read (not re-chunked) by the next indexing pass, whose unchanged-content path refreshes
 * the flags: a stat that can never match forces the read.
 */
function rereadForRoleFlags(db: Database): void {
  db.exec('UPDATE files SET mtime_ms = -1');
}

function replaceContentTables(db: Database): void {
  db.exec('DROP TABLE IF EXISTS chunks_fts; DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS symbols; DROP TABLE IF EXISTS file_data; DROP TABLE IF EXISTS chunk_vectors');
  db.exec('DELETE FROM files');
  db.exec(CONTENT_V3);
  db.exec("UPDATE meta SET value = 'empty' WHERE key = 'build_state'");
  db.exec("UPDATE meta SET value = 'migrated' WHERE key = 'chunking_fingerprint'");
}

export type SchemaState = 'fresh' | 'current' | 'migrated';

/** Creates the schema in an empty database, or migrates an older one. Call inside a write transaction. */
/** Which format this build writes and how to get there from older ones (tests pass their own). */
export interface FormatPlan {
  target: number;
  migrations: readonly Migration[];
}

const PLAN: FormatPlan = { target: FORMAT_VERSION, migrations: MIGRATIONS };

export function ensureSchema(db: Database, plan: FormatPlan = PLAN): SchemaState {
  const hasMeta = db.selectValue("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'") !== undefined;
  if (!hasMeta) {
    const tables = db.selectValue("SELECT count(*) FROM sqlite_master WHERE type='table'") as number;
    if (tables > 0) {
      throw new HciError('index_unrecognized', 'the index file holds tables that are not an hci index', 'run `hci index --full` to rebuild it');
    }
    db.exec(META_TABLE);
    db.exec(FILES_TABLE);
    db.exec(SKIPPED_TABLE);
    db.exec(CONTENT_V3);
    db.exec(VECTORS_V4);
    const put = 'INSERT INTO meta(key, value) VALUES (?, ?)';
    db.exec(put, { bind: ['format_version', String(FORMAT_VERSION)] });
    db.exec(put, { bind: ['analyzer_version', String(ANALYZER_VERSION)] });
    db.exec(put, { bind: ['generation', '0'] });
    db.exec(put, { bind: ['build_state', 'empty'] });
    return 'fresh';
  }
  let version = readFormatVersion(db);
  checkVersions(db, version, plan);
  if (version === plan.target) return 'current';
  for (const m of plan.migrations) {
    if (m.from === version) {
      m.up(db);
      version = m.to;
      db.exec("UPDATE meta SET value = ? WHERE key = 'format_version'", { bind: [String(version)] });
    }
  }
  return 'migrated';
}

function readFormatVersion(db: Database): number {
  const v = Number(db.selectValue("SELECT value FROM meta WHERE key = 'format_version'"));
  if (!Number.isInteger(v) || v < 1) {
    throw new HciError('index_unrecognized', 'the index has no valid format version', 'run `hci index --full` to rebuild it');
  }
  return v;
}

/** Throws a clear error when this index cannot be used by this version of hci. */
export function checkVersions(db: Database, version = readFormatVersion(db), plan: FormatPlan = PLAN): void {
  if (version > plan.target) {
    throw new HciError(
      'index_too_new',
      `the index was written by a newer hci (format ${version}; this hci reads up to ${plan.target})`,
      'upgrade hci, or run `hci index --full` to rebuild the index with this version',
    );
  }
  let reachable = version;
  for (const m of plan.migrations) if (m.from === reachable) reachable = m.to;
  if (reachable !== plan.target) {
    throw new HciError(
      'index_outdated',
      `the index format ${version} is older than this hci's format ${plan.target} and cannot be migrated`,
      'run `hci index --full` to rebuild it',
    );
  }
  const analyzer = Number(db.selectValue("SELECT value FROM meta WHERE key = 'analyzer_version'"));
  if (analyzer !== ANALYZER_VERSION) {
    throw new HciError(
      'index_outdated',
      `the index was tokenised by analyzer ${analyzer}; this hci uses ${ANALYZER_VERSION}`,
      'run `hci index --full` to rebuild it',
    );
  }
}
