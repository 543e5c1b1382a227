// The index file format: tables, the format version and migrations. Owns DDL only (and the list of
// its B-trees a keyword search never reads: ROOTS_NOT_READ_AHEAD); reading and writing rows belongs
// to the store and the indexer. Bump FORMAT_VERSION on any change to tables or to how FTS rows are
// derived (the FTS table is contentless: deletes must repeat the exact tokens).
import type { Database } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import { refillChunksFts } from './fts-refill.ts';
import type { DeflateCodec } from './file-data.ts';

export const FORMAT_VERSION = 7;
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
 * The keyword index: contentless FTS5 (the text is not stored twice; deletes repeat the inserted
 * values, core/index/fts-row.ts). `cjk` holds CJK runs as bigrams (core/search/cjk.ts): empty for
 * code without CJK text.
 */
/** The keyword index's tokenizer (a remote reader tokenizes a query's phrases with it to find their doclists: doclist-pages.ts). */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

export const CHUNKS_FTS = `
CREATE VIRTUAL TABLE chunks_fts USING fts5(
  path, symbol, header, body, idents, cjk,
  content='', tokenize='${FTS_TOKENIZER}'
);`;

/**
 * The literal index (opt-in, setting `literal_index`; meta `literal_index` says whether it is
 * filled): every file's stored text as trigrams, one row per file (rowid = files.id), positions not
 * kept (detail=none: 0.29x the source bytes against 0.54x per chunk and 2.5x with positions, on the
 * generated 5,000-file solution). A literal or regex search ANDs the trigrams it needs
 * (core/search/literal/) and checks the candidates' stored text. Deletes repeat the text (as for
 * chunks_fts): `contentless_delete=1` would spare that, but SQLite before 3.43 (Debian's sqlite3
 * 3.40) could then no longer open the table.
 */
export const FILES_TRI = `
CREATE VIRTUAL TABLE files_tri USING fts5(
  text, content='', tokenize='trigram', detail=none
);`;

/**
 * The literal index's gram filter (format 7, with files_tri): one row per file (file_id = files.id),
 * a Bloom filter of its stored text's 4- and 8-character substrings (core/index/gram-bloom.ts), which
 * a literal search reads for the trigram candidates before their text: the trigrams say which
 * letters a file holds, the grams whether they stand together.
 */
export const FILES_GRAMS = `
CREATE TABLE files_grams(
  file_id INTEGER PRIMARY KEY,
  bloom BLOB NOT NULL
);`;

/**
 * The content tables (format 7; the vector tables are VECTORS_V4). Chunk text, headers, member keys and outlines live
 * compressed in one file_data row per file (core/index/file-data.ts); chunks keep what ranking reads for every
 * candidate. Member keys are found through the FTS index by their words (core/search/symbols.ts).
 */
const CONTENT = `
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
${CHUNKS_FTS}
${FILES_TRI}
${FILES_GRAMS}
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

/** A packed index's covering index of chunks by lower-cased symbol name (core/index/pack.ts PACK_INDEXES; a live index has none). */
export const CHUNKS_BY_SYMBOL = 'chunks_by_symbol';
/**
 * File flags (files.flags bits). test/generated: the path rules or a content marker said so
 * (core/scan/roles.ts; `generatedContent` records that a content marker did); projectTest/projectExe:
 * facts of a project file, which search applies to the files under its folder (core/search/roles.ts);
 * parseErrors: its parser met syntax the grammar does not know and the outline was recovered around it
 * (FileOutline.parseErrors; counted as `parse_errors` in every answer's index info; C# member bodies
 * are not parsed, core/chunk/lang/csharp-bodies.ts, so what is inside them is never met); largeWindows: over
 * max_indexed_file_bytes, indexed as line windows without a parse (core/scan/size-policy.ts).
 */
export const FILE_FLAG = { test: 1, generated: 2, invalidUtf8: 4, parseFallback: 8, projectTest: 16, projectExe: 32, generatedContent: 64, parseErrors: 128, largeWindows: 256 } as const;

export interface Migration {
  from: number;
  to: number;
  /** `codec`: the index's blob codec, for a migration that reads the stored text. */
  up(db: Database, codec?: DeflateCodec): void;
}

/** Migrations from older formats, applied in order inside one transaction. */
const MIGRATIONS: Migration[] = [
  {
    // Formats 1 and 2 stored chunk text per chunk (and 2 a symbols table); their rows cannot be
    // converted without the source files, so the content tables are replaced and emptied, and the
    // next indexing pass re-reads every file (the index is a cache of the workspace).
    from: 1,
    to: 7,
    up: replaceContentTables,
  },
  { from: 2, to: 7, up: replaceContentTables },
  // Format 3 had no vectors: the vector tables are added empty; keyword data stays as it is (the
  // next indexing run with semantic search on fills them).
  { from: 3, to: 4, up: addVectorTables },
  // Format 4 had the file flags of path rules only: every file is re-read for the content ones.
  { from: 4, to: 5, up: rereadForRoleFlags },
  // Format 5 had no CJK bigrams and no literal index: chunks_fts is rebuilt from the stored text.
  { from: 5, to: 6, up: addCjkColumnAndLiteralIndex },
  // Format 6's literal index had trigrams only: it is emptied, and refilled with the gram filter by
  // the next indexing pass that wants it (until then literal searches scan, as with the index off).
  { from: 6, to: 7, up: addGramFilter },
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
  db.exec('DROP TABLE IF EXISTS chunks_fts; DROP TABLE IF EXISTS files_tri; DROP TABLE IF EXISTS files_grams; DROP TABLE IF EXISTS chunks; DROP TABLE IF EXISTS symbols; DROP TABLE IF EXISTS file_data');
  db.exec('DROP TABLE IF EXISTS chunk_vectors; DROP TABLE IF EXISTS vector_models; DROP TABLE IF EXISTS file_facts; DROP TABLE IF EXISTS file_declarations');
  db.exec('DELETE FROM files');
  db.exec(CONTENT);
  db.exec(VECTORS_V4);
  db.exec("UPDATE meta SET value = 'empty' WHERE key = 'build_state'");
  db.exec("UPDATE meta SET value = 'migrated' WHERE key = 'chunking_fingerprint'");
  db.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('literal_index', 'off')");
}

/**
 * Format 5 → 6: chunks_fts gains the `cjk` column and files_tri (the literal index) appears, empty.
 * The index keeps every file's text, so chunks_fts is rebuilt from the stored blobs (no file is read
 * again, nothing is re-chunked; chunk ids and so their vectors stay); the literal index is filled
 * by the next indexing pass that wants it.
 */
function addCjkColumnAndLiteralIndex(db: Database, codec?: DeflateCodec): void {
  if (!codec) throw new HciError('internal', 'the format 5 → 6 migration reads the stored text: it needs the index codec', 'open the index through IndexStore');
  db.exec('DROP TABLE chunks_fts');
  db.exec(CHUNKS_FTS);
  db.exec('DROP TABLE IF EXISTS files_tri');
  db.exec(FILES_TRI);
  refillChunksFts(db, codec);
  db.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('literal_index', 'off')");
}

/**
 * Format 6 → 7: files_grams appears and the literal index is turned off and emptied (its trigrams
 * stay valid, but a filled index must hold both tables: files_tri is emptied so the next pass that
 * wants it fills both from the stored text, as syncLiteralIndex does for a new setting).
 */
function addGramFilter(db: Database): void {
  db.exec('DROP TABLE IF EXISTS files_grams');
  db.exec(FILES_GRAMS);
  db.exec("INSERT INTO files_tri(files_tri) VALUES ('delete-all')");
  db.exec("INSERT OR REPLACE INTO meta(key, value) VALUES ('literal_index', 'off')");
}

/** An object of the current format: a table (its columns), a virtual table (its columns) or an index. */
export interface SchemaObject {
  type: 'table' | 'index';
  name: string;
  /** Column names, in order (tables and virtual tables). */
  columns?: string[];
  /** FTS5: the shadow tables SQLite keeps for it. */
  shadows?: string[];
}

/** Every object the current format creates, read from the DDL above (core/index/health.ts checks a file against it). */
export function currentSchema(): SchemaObject[] {
  const ddl = [META_TABLE, FILES_TABLE, SKIPPED_TABLE, CONTENT, VECTORS_V4].join('\n');
  const out: SchemaObject[] = [];
  for (const m of ddl.matchAll(/CREATE (VIRTUAL TABLE|TABLE|INDEX) (\w+)(?: USING fts5)?\s*(?:ON [^;]*|\(([\s\S]*?)\)(?: WITHOUT ROWID)?);/g)) {
    if (m[1] === 'INDEX') {
      out.push({ type: 'index', name: m[2] });
      continue;
    }
    const columns = m[3].split(',').map((c) => c.trim().split(/\s+/)[0]).filter((c) => c && !c.includes('='));
    out.push({ type: 'table', name: m[2], columns, ...(m[1] === 'VIRTUAL TABLE' ? { shadows: ['data', 'idx', 'docsize', 'config'].map((x) => `${m[2]}_${x}`) } : {}) });
  }
  return out;
}

export type SchemaState = 'fresh' | 'current' | 'migrated';

/** Creates the schema in an empty database, or migrates an older one. Call inside a write transaction. */
/** Which format this build writes and how to get there from older ones (tests pass their own). */
export interface FormatPlan {
  target: number;
  migrations: readonly Migration[];
}

const PLAN: FormatPlan = { target: FORMAT_VERSION, migrations: MIGRATIONS };

export function ensureSchema(db: Database, plan: FormatPlan = PLAN, codec?: DeflateCodec): SchemaState {
  const hasMeta = db.selectValue("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'") !== undefined;
  if (!hasMeta) {
    const tables = db.selectValue("SELECT count(*) FROM sqlite_master WHERE type='table'") as number;
    if (tables > 0) {
      throw new HciError('index_unrecognized', 'the index file holds tables that are not an hci index', 'run `hci index --full` to rebuild it');
    }
    db.exec(META_TABLE);
    db.exec(FILES_TABLE);
    db.exec(SKIPPED_TABLE);
    db.exec(CONTENT);
    db.exec(VECTORS_V4);
    const put = 'INSERT INTO meta(key, value) VALUES (?, ?)';
    db.exec(put, { bind: ['format_version', String(FORMAT_VERSION)] });
    db.exec(put, { bind: ['analyzer_version', String(ANALYZER_VERSION)] });
    db.exec(put, { bind: ['generation', '0'] });
    db.exec(put, { bind: ['build_state', 'empty'] });
    db.exec(put, { bind: ['literal_index', 'off'] });
    return 'fresh';
  }
  let version = readFormatVersion(db);
  checkVersions(db, version, plan);
  if (version === plan.target) return 'current';
  for (const m of plan.migrations) {
    if (m.from === version) {
      m.up(db, codec);
      version = m.to;
      db.exec("UPDATE meta SET value = ? WHERE key = 'format_version'", { bind: [String(version)] });
    }
  }
  return 'migrated';
}

function readFormatVersion(db: Database): number {
  const raw = db.selectValue("SELECT value FROM meta WHERE key = 'format_version'");
  const v = Number(raw);
  if (/^\d+$/.test(String(raw)) && v < 1) throw new HciError('index_unrecognized', 'the index has no valid format version', 'run `hci index --full` to rebuild it');
  if (!/^\d+$/.test(String(raw))) {
    // hci's own meta table without a readable version: damage (a flipped byte, a hand edit).
    throw new HciError('index_corrupt', `the index is damaged: meta format_version is ${raw === undefined ? 'missing' : `not well formed (${JSON.stringify(String(raw).slice(0, 40))})`}`, 'run `hci index --full` to rebuild it');
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

/**
 * B-trees a keyword search never reads (measured: bench/results/remote-Avalonia-fed9.md): the
 * literal channel's trigram index below its config and data (files_tri_idx, files_tri_docsize,
 * files_grams), the vector channel's tables, the skipped list, AUTOINCREMENT's counters and the
 * file-list index the packed list replaced. A remote reader of a packed index (core/index/pack.ts) reads every other B-tree's
 * root ahead on opening (runtimes/shared/http-vfs.ts); these are read when a search of their own asks.
 */
export const ROOTS_NOT_READ_AHEAD = ['files_tri_idx', 'files_tri_docsize', 'files_grams', 'vector_models', 'chunk_vectors', 'chunk_vectors_by_text', 'skipped', 'sqlite_sequence', 'files_by_lang'] as const;
