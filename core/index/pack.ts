// `hci pack`: a workspace's index turned into a read-only artifact for publishing — a compacted copy
// (VACUUM INTO, twice: once out of the live file, once after merging the keyword index into one
// segment), with a page size chosen for reading it over HTTP ranges, no auto-vacuum pointer maps,
// the stored file text kept (the explorer shows files), the counts every answer reports recorded in
// `meta` (a remote reader must not scan the chunk table to count it), and a manifest beside it. Owns
// what goes into the packed file and the manifest; the file operations are the runtime's PackTarget,
// the live index's connection core/index/store.ts's.
import type { Database, SqliteEngine } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import { HCI_VERSION } from '../version.ts';
import type { GitHead } from '../git/head.ts';
import { readMeta, setMeta } from './meta.ts';
import { UNSYNCED_BUILD_KEY } from './cold-build.ts';
import { CHUNKS_BY_SYMBOL, FILE_FLAG } from './schema.ts';
import { pageProblems } from './health.ts';
import { vacuumIntoSql } from './store.ts';
import { sha256Hex } from './sha256.ts';
import type { DeflateCodec } from './file-data.ts';
import { writePackedFileList } from './file-list.ts';
import { packVariantGroups } from '../search/variants.ts';
import { LEARNED_TERMS_TABLE } from '../search/learned-terms.ts';
import { deflateRecord } from './generation-record.ts';
import { FILE_STEMS_TABLE } from '../search/first-search-record.ts';
import { DECLS_TABLE, FILE_FACTS_META, FILE_FACTS_TABLE } from '../search/file-facts.ts';
import { writePackedChunkFiles } from './chunk-files.ts';

/** The manifest's own version (`hci_pack`): a reader refuses a newer one. */
export const PACK_MANIFEST_VERSION = 1;
/** Page sizes SQLite accepts that make sense for range reads. */
export const PACK_PAGE_SIZES = [4096, 8192, 16384, 32768, 65536] as const;
/**
 * The default page size of a packed index (bench/remote.ts measures bytes and requests per query for
 * each page size). 8 KB since a remote reader fetches each run of wanted pages as its own range and
 * a query's doclists ahead: a first query on Avalonia reads 1.2/1.0/2.0/1.1 MB (symbol/words/phrase/filtered)
 * in 15/13/11.5/15 requests, where 16 KB pages read 1.8/1.5/2.8/1.5 MB in 12/11/9/12 and 4 KB pages
 * 0.9/0.7/1.5/0.9 MB in up to 20 (bench/results/remote-Avalonia-fed12.md): most bytes are rows read by
 * id, a page each, so smaller pages cost less, until SQLite's own reads cost more requests.
 */
export const DEFAULT_PACK_PAGE_SIZE = 8192;

/** meta keys a packed index carries (read by core/search/session.ts and core/workspace.ts). */
export const PACK_META = { pack: 'pack', files: 'count_files', chunks: 'count_chunks', parseErrors: 'count_parse_errors' } as const;

/**
 * Indexes only a packed file has: covering the queries that would scan a table (see packIndex) or
 * read a row per match. chunks_by_symbol answers declarations.ts's exact-name lookup (the files of
 * the chunks named exactly after a word) from a few index pages, where the FTS match read the row of
 * every chunk whose symbol merely holds the word (~1.5 MB of chunk pages over HTTP for `Button`).
 */
export const PACK_INDEXES = [
  'CREATE INDEX IF NOT EXISTS files_by_lang ON files(lang, path, flags)',
  `CREATE INDEX IF NOT EXISTS ${CHUNKS_BY_SYMBOL} ON chunks(lower(symbol_name), file_id)`,
];

/** What the runtime lends a pack: where the file goes and the file operations around it. */
export interface PackTarget {
  /** The packed file (the runtime's VFS path for it). */
  path: string;
  /** A scratch file beside it (removed at the end). */
  tempPath: string;
  /** Opens (creating) a database file through the runtime's VFS, read-write, without the index's cross-process lock. */
  open(path: string, engine: SqliteEngine): Database;
  /** Removes a file if it exists. */
  remove(path: string): void;
  readBytes(path: string): Uint8Array;
  writeText(path: string, text: string): void;
}

export interface PackManifest {
  hci_pack: number;
  /** The packed file's name, beside this manifest. */
  file: string;
  repository: string;
  commit: string | null;
  branch: string | null;
  format_version: number;
  analyzer_version: number;
  chunking: string | null;
  /** Embedding models whose vectors the index holds (provider/model/dims/quantization). */
  models: string[];
  created_at: string;
  indexed_at: string | null;
  files: number;
  chunks: number;
  parse_errors: number;
  page_size: number;
  bytes: number;
  /** `sha256:<hex>` of the packed file. */
  digest: string;
  hci_version: string;
}

export interface PackOptions {
  pageSize?: number;
  /** The repository's name (owner/name from the git remote, else the folder's name). */
  repository: string;
  git: GitHead | null;
  /** The packed file's name as the manifest names it (its base name). */
  fileName: string;
  now?: () => Date;
}

/** What the live index's connection offers a pack (IndexStore.vacuumInto). */
export interface PackSource {
  readonly engine: SqliteEngine;
  /** The blobs' codec (the packed file list is deflated with it: file-list.ts). */
  readonly codec: DeflateCodec;
  vacuumInto(path: string, pageSize: number): Promise<void>;
}

export function checkPageSize(n: number): number {
  if (!PACK_PAGE_SIZES.includes(n as (typeof PACK_PAGE_SIZES)[number])) {
    throw new HciError('invalid_request', `page size ${n} is not one of ${PACK_PAGE_SIZES.join(', ')}`, `omit it for ${DEFAULT_PACK_PAGE_SIZE}`);
  }
  return n;
}

/** Writes the packed index and its manifest (`<path>.json`); returns the manifest. */
export async function packIndex(source: PackSource, target: PackTarget, opts: PackOptions): Promise<PackManifest> {
  const pageSize = checkPageSize(opts.pageSize ?? DEFAULT_PACK_PAGE_SIZE);
  const now = opts.now ?? (() => new Date());
  for (const p of [target.tempPath, `${target.tempPath}-journal`, target.path, `${target.path}-journal`]) target.remove(p);
  // 1. A consistent copy of the live index (VACUUM INTO reads it in one read transaction).
  await source.vacuumInto(target.tempPath, pageSize);
  let manifest: Omit<PackManifest, 'bytes' | 'digest'>;
  const tmp = target.open(target.tempPath, source.engine);
  try {
    tmp.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF');
    // A copy taken between a cold build's last batch and the removal of its mark (cold-build.ts) is whole: the copy carries no mark.
    tmp.exec(`DELETE FROM meta WHERE key = '${UNSYNCED_BUILD_KEY}'`);
    // 2. Each keyword index as one segment: a term's doclist is in one place, read in one run of pages.
    tmp.exec("INSERT INTO chunks_fts(chunks_fts) VALUES('optimize')");
    if (tmp.selectValue('SELECT 1 FROM files_tri_docsize LIMIT 1') !== undefined) tmp.exec("INSERT INTO files_tri(files_tri) VALUES('optimize')");
    // Reads a remote reader would otherwise answer by scanning a table (core/search/roles.ts's project
    // files: `WHERE lang IN (…)`, msbuild) get a covering index: a few pages instead of the whole table.
    for (const sql of PACK_INDEXES) tmp.exec(sql);
    const meta = readMeta(tmp);
    const files = Number(tmp.selectValue('SELECT count(*) FROM files'));
    const chunks = Number(tmp.selectValue('SELECT count(*) FROM chunks'));
    const parseErrors = Number(tmp.selectValue(`SELECT count(*) FROM files WHERE flags & ${FILE_FLAG.parseErrors}`));
    const models = (tmp.selectObjects('SELECT provider, model, dims, quantization FROM vector_models ORDER BY id') as Array<Record<string, unknown>>)
      .map((m) => `${m.provider}/${m.model}/${m.dims}/${m.quantization}`);
    if (meta.build_state !== 'complete') {
      throw new HciError('index_incomplete', `the index is not complete (build state ${meta.build_state ?? 'unknown'}): a pack would publish a partial index`, 'run `hci index` to finish it, then pack');
    }
    manifest = {
      hci_pack: PACK_MANIFEST_VERSION,
      file: opts.fileName,
      repository: opts.repository,
      commit: opts.git?.commit ?? meta.git_commit ?? null,
      branch: opts.git?.branch ?? meta.git_branch ?? null,
      format_version: Number(meta.format_version),
      analyzer_version: Number(meta.analyzer_version ?? 0),
      chunking: meta.chunking_fingerprint ?? null,
      models,
      created_at: now().toISOString(),
      indexed_at: meta.indexed_at ?? null,
      files,
      chunks,
      parse_errors: parseErrors,
      page_size: pageSize,
      hci_version: HCI_VERSION,
    };
    tmp.exec('BEGIN');
    setMeta(tmp, {
      [PACK_META.files]: files,
      [PACK_META.chunks]: chunks,
      [PACK_META.parseErrors]: parseErrors,
      [PACK_META.pack]: JSON.stringify({ repository: manifest.repository, commit: manifest.commit, branch: manifest.branch, created_at: manifest.created_at, page_size: pageSize }),
    });
    // Nothing in a packed index is rebuilt in place: no pass's leftovers.
    tmp.exec("DELETE FROM meta WHERE key IN ('rechunk')");
    // The file list a remote reader's first search reads, in a few pages (file-list.ts).
    writePackedFileList(tmp, source.codec);
    packVariantGroups(tmp, source.codec);
    deflateRecord(tmp, LEARNED_TERMS_TABLE, source.codec);
    // The files by stem serve a local first search (search/first-search-record.ts): a remote reader reads the file list above.
    tmp.exec(`DROP TABLE IF EXISTS ${FILE_STEMS_TABLE}`);
    // So do the files' facts (search/file-facts.ts): a remote reader's declarations and dead lines read the files, as before.
    tmp.exec(`DROP TABLE IF EXISTS ${FILE_FACTS_TABLE}; DROP TABLE IF EXISTS ${DECLS_TABLE}`);
    tmp.exec('DELETE FROM meta WHERE key = ?', { bind: [FILE_FACTS_META] });
    // Which file each chunk is in, for a filtered search's first pass (chunk-files.ts).
    writePackedChunkFiles(tmp, source.codec);
    tmp.exec('COMMIT');
    // 3. The final file: compacted again after the merge, in the chosen page size.
    tmp.exec(vacuumIntoSql(target.path, pageSize));
  } finally {
    tmp.close();
    target.remove(target.tempPath);
    target.remove(`${target.tempPath}-journal`);
  }
  const out = target.open(target.path, source.engine);
  try {
    const problems = pageProblems(out);
    if (problems.length) throw new HciError('internal', `the packed index fails SQLite's check: ${problems.join('; ')}`);
  } finally {
    out.close();
  }
  const bytes = target.readBytes(target.path);
  const full: PackManifest = { ...manifest, bytes: bytes.length, digest: `sha256:${sha256Hex(bytes)}` };
  target.writeText(`${target.path}.json`, `${JSON.stringify(full, null, 2)}\n`);
  return full;
}
