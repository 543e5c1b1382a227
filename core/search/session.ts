// What searches keep per open index connection, owned by the workspace that opened it (one session
// per IndexStore): the codec of the index's blobs, the decoded-file cache, the index's file list (one
// read: the project map, the file and parse-error counts and the stems come from it), the chunk count — and other per-generation values a channel keeps
// here under its own key (the literal channel's cache of inflated texts, literal/text-cache.ts, which
// the decoded-file cache also reads a file's text from) —
// the last few channel answers of the generation (`recent`: typing repeats queries), which read-aheads a remote index's passes
// did under which path filter (readAheadDue), the `hci_path_ok(path)` SQL function with the path filter of the search running now
// (and `hci_chunk_ok(rowid)`, the same filter asked of a chunk id through a packed index's chunk → file runs), values kept
// for the one ranking running now (`duringRun`: what one stage learned for a later one), and the
// statements every search runs, prepared once. Nothing here lives in a module variable, so two workspaces in one process (or one
// host with several indexes) never see each other's filter, cache or codec. What a search does is
// the pipeline's (pipeline.ts).
import type { BindableValue, Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from '../index/file-data.ts';
import type { PathFilter } from './filters.ts';
import { StoredFileCache } from './file-cache.ts';
import { ProjectMap } from './roles.ts';
import { FILE_FLAG, FTS_TOKENIZER } from '../index/schema.ts';
import { doclistRowids, exactPhrases, ftsTerms } from '../index/doclist-pages.ts';
import { PACKED_FILE_LIST, readPackedFileList, type FileListRow } from '../index/file-list.ts';
import { PACKED_CHUNK_FILES, readPackedChunkFiles, type ChunkFiles } from '../index/chunk-files.ts';
import { projectLanguageFiles, recordedCounts } from './first-search-record.ts';
import { recordedVariantGroups, variantGroups, VARIANT_GROUPS_TABLE, type Variant } from './variants.ts';

/** An indexed file as SearchSession.indexedFiles lists it. */
export interface IndexedFile {
  fileId: number;
  path: string;
  lang: string;
  /** FILE_FLAG bits (content markers, project facts, parse errors). */
  flags: number;
  /** Its content hash, where the list carries it (a pack's: file-list.ts). */
  hash?: string;
}

/** The key of the literal channel's text cache among the per-generation values (literal/text-cache.ts). */
export const LITERAL_TEXTS = 'literal-texts';

/** Positional parameters of a statement (what oo1's bind takes as an array). */
type Params = readonly BindableValue[];

/**
 * A count a packed index records in meta (core/index/pack.ts: a reader over HTTP must not scan a
 * table to count it), else `count` run now.
 */
function recorded(db: Database, key: string, count: string): number {
  const v = db.selectValue('SELECT value FROM meta WHERE key = ?', [key]);
  return Number(v !== undefined ? v : db.selectValue(count));
}

/** The per-generation key of the file list (SearchSession.indexedFiles). */
const INDEXED_FILES = 'indexed-files';

/** The number of files in the index, read now (SearchSession.fileCount keeps it per generation). */
export const countFiles = (db: Database): number => recorded(db, 'count_files', 'SELECT count(*) FROM files');
/** The number of chunks in the index, read now (SearchSession.chunkCount keeps it per generation). */
export const countChunks = (db: Database): number => recorded(db, 'count_chunks', 'SELECT count(*) FROM chunks');

/** The number of files parsed with syntax errors (FILE_FLAG.parseErrors), read now (SearchSession.parseErrorCount keeps it per generation). */
export const countParseErrors = (db: Database): number => recorded(db, 'count_parse_errors', `SELECT count(*) FROM files WHERE flags & ${FILE_FLAG.parseErrors}`);

/** How many channel answers `recent` keeps (a few hundred candidate rows each). */
export const RECENT_ANSWERS = 64;
/**
 * How many answers to a query's first keystrokes (`recent` with `first`) are kept apart from those:
 * every query typed starts with one of a few dozen letters, but a typing session's longer prefixes
 * (a dozen keystrokes a query, one or two answers each) pushed them out of the RECENT_ANSWERS within
 * two or three queries — and a one-letter word has the longest doclists of all.
 */
export const FIRST_KEY_ANSWERS = 96;

/** readAheadDue's key for searches without a path filter. */
const NO_FILTER = {};

/** Path filters whose read-aheads a session keeps per generation. */
const READ_AHEAD_FILTERS = 64;

export class SearchSession {
  readonly files: StoredFileCache;
  private filter: PathFilter | null = null;
  /** duringRun's values (emptied when a ranking starts and ends). */
  private readonly run = new Map<string, unknown>();
  /** hci_chunk_ok's verdicts per file id under the filter of the moment (emptied when the filter is set). */
  private readonly fileOk = new Map<number, boolean>();
  /** The index generation the per-generation caches belong to (null: not read yet). */
  private generation: string | null = null;
  private readonly caches = new Map<string, unknown>();
  /** Recent channel answers of this generation, least recently used first (see `recent`). */
  private readonly answers = new Map<string, unknown>();
  /** The same for the answers to first keystrokes (`recent` with `first`), apart. */
  private readonly firstKeys = new Map<string, unknown>();
  private readonly statements = new Map<string, ReturnType<Database['prepare']>>();

  constructor(
    readonly db: Database,
    readonly codec: DeflateCodec,
    /** The storage's read-ahead of rows by id (IndexStorage.prefetchRows: a remote index), if it has one. */
    private readonly prefetch?: (table: string, rowids: readonly number[]) => void,
    /** Opens an in-memory database for FTS5's tokenizer (prefetchDoclists), where the storage reads ahead. */
    private readonly openScratch?: () => Database,
  ) {
    // A file the literal channel read in this generation (its text cache, literal/text-cache.ts) is not inflated twice.
    // (Its shape only: importing text-cache.ts here would close an import circle.)
    this.files = new StoredFileCache(db, codec, (id) => (this.caches.get(LITERAL_TEXTS) as { peekText(id: number): string | undefined } | undefined)?.peekText(id));
    // Registered once per connection; it reads this session's filter of the moment.
    db.createFunction('hci_path_ok', (_ctx: number, path: unknown) => (this.filter && !this.filter(String(path)) ? 0 : 1), {
      arity: 1,
      deterministic: false,
    });
    db.createFunction('hci_chunk_ok', (_ctx: number, rowid: unknown) => (this.chunkOk(Number(rowid)) ? 1 : 0), { arity: 1, deterministic: false });
  }

  /**
   * A packed index's chunk → file runs (core/index/chunk-files.ts), once per generation; null for a
   * live index. With them a filtered search tells which matching chunks pass the path filter from
   * their ids (hci_chunk_ok), without reading their rows.
   */
  chunkFiles(): ChunkFiles | null {
    return this.cached('chunk-files', () => {
      this.prefetchTable(PACKED_CHUNK_FILES);
      return readPackedChunkFiles(this.db, this.codec);
    });
  }

  /** Whether the path filter of the moment lets the chunk's file through (by chunkFiles; false for a chunk they do not know). */
  private chunkOk(chunkId: number): boolean {
    const filter = this.filter;
    if (!filter) return true;
    const fileId = this.chunkFiles()?.fileOf(chunkId);
    if (fileId === undefined) return false;
    let ok = this.fileOk.get(fileId);
    if (ok === undefined) {
      const path = this.cached('file-paths', () => new Map(this.indexedFiles().map((f) => [f.fileId, f.path]))).get(fileId);
      ok = path !== undefined && filter(path);
      this.fileOk.set(fileId, ok);
    }
    return ok;
  }

  /**
   * A statement for SQL a search runs every time (the FTS channel's queries), prepared once per
   * connection: preparing them was ~0.25 ms of each keystroke's search in Chromium's Worker. The
   * caller binds, steps and resets it (`reset(true)`, in a finally), never finalizes it; closing
   * the connection does (oo1 finalizes a database's statements when it closes).
   */
  statement(sql: string): ReturnType<Database['prepare']> {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = this.db.prepare(sql)));
    return st;
  }

  /**
   * The first column of the first row of `sql` (undefined when there is none), through a statement
   * prepared once per connection (`statement`): what a search asks every time — the generation, a
   * word's chunk count, a name's files — was prepared anew on each call through oo1's selectValue
   * (~0.4 ms for an FTS5 count on Avalonia, as much as running it).
   */
  value(sql: string, params?: Params): unknown {
    const st = this.statement(sql);
    try {
      if (params?.length) st.bind(params);
      return st.step() ? st.get(0) : undefined;
    } finally {
      st.reset(true);
    }
  }

  /** Every row of `sql` as an array of its columns, through a statement prepared once per connection (see `value`). */
  arrays(sql: string, params?: Params): unknown[][] {
    const st = this.statement(sql);
    try {
      if (params?.length) st.bind(params);
      const out: unknown[][] = [];
      while (st.step()) out.push(st.get([]) as unknown[]);
      return out;
    } finally {
      st.reset(true);
    }
  }

  /** Whether reading rows ahead pays (a remote index): a search then gathers the ids it will read first. */
  get readsAhead(): boolean {
    return this.prefetch !== undefined;
  }

  /** Lets the storage fetch the pages of these rows of `table` before they are read one by one (nothing for a local file). */
  prefetchRows(table: string, rowids: readonly number[]): void {
    if (this.prefetch && rowids.length) this.prefetch(table, rowids);
  }

  /**
   * Fetches every row of a small table of records (one deflated value each: the file list, the chunk
   * → file runs, the variant groups) ahead in one request over HTTP — its value is an overflow chain
   * SQLite would read a page at a time. Nothing for a local file or a table the index lacks.
   */
  private prefetchTable(table: string): void {
    if (!this.prefetch) return;
    if (this.value("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [table]) === undefined) return;
    this.prefetchRows(table, (this.db.selectValues(`SELECT rowid FROM ${table}`) as number[]).map(Number));
  }

  /** An in-memory database of its own for FTS5's tokenizer (doclist-pages.ts ftsTerms), made on first use. */
  private scratch: Database | null = null;

  /**
   * Reads ahead the keyword index's pages that hold the doclists of an FTS5 expression's terms (a
   * remote index: one request where FTS5 reads them a page at a time; doclist-pages.ts), once per
   * term and generation. Nothing for a local file.
   */
  prefetchDoclists(expr: string): void {
    if (!this.prefetch || !this.openScratch) return;
    const done = this.cached('doclists-read', () => new Set<string>());
    const texts = exactPhrases(expr).filter((t) => !done.has(t));
    if (!texts.length) return;
    texts.forEach((t) => done.add(t));
    this.scratch ??= this.openScratch();
    this.prefetchRows('chunks_fts_data', doclistRowids(this.db, 'chunks_fts', ftsTerms(this.scratch, FTS_TOKENIZER, texts)));
  }

  /** Reads ahead the stored data of files about to be decoded (those not in the file cache). */
  prefetchFiles(files: Iterable<{ fileId: number; hash: string }>): void {
    if (!this.prefetch) return;
    const ids: number[] = [];
    for (const f of files) if (!this.files.has(f.fileId, f.hash)) ids.push(f.fileId);
    this.prefetchRows('file_data', ids);
  }

  /**
   * Read-aheads done in this generation, per path filter: by the spec it was compiled from (its
   * `key`: the same however often filters.ts compiles it again), else by the function itself.
   */
  private readAheads = new Map<unknown, Set<string>>();

  /**
   * Whether the read-ahead named `key` is still to do under the path filter of the moment in this
   * generation (true once, then false): a repeated filtered pass (which `recent` does not keep) finds
   * its pages cached, and the statements that named its rows need not run again. False for a local file.
   */
  readAheadDue(key: string): boolean {
    if (!this.prefetch) return false;
    const owner = this.filter === null ? NO_FILTER : (this.filter.key ?? this.filter);
    let done = this.readAheads.get(owner);
    if (!done) {
      // Filters of one generation: a few in practice; a long run of distinct ones starts again.
      if (this.readAheads.size >= READ_AHEAD_FILTERS) this.readAheads.clear();
      this.readAheads.set(owner, (done = new Set()));
    }
    if (done.has(key)) return false;
    done.add(key);
    return true;
  }

  /** Whether a path filter applies now (channels' SQL then calls hci_path_ok). */
  get filtered(): boolean {
    return this.filter !== null;
  }

  /**
   * Runs fn (synchronously, inside the caller's read transaction) with `filter` as hci_path_ok's
   * filter. The index generation is read once here: every commit bumps it, and a new one empties
   * the per-generation caches (chunk count, project map, term counts).
   */
  withPathFilter<T>(filter: PathFilter | null, fn: () => T): T {
    const generation = String(this.value("SELECT value FROM meta WHERE key = 'generation'") ?? '');
    if (generation !== this.generation) {
      this.generation = generation;
      this.caches.clear();
      this.answers.clear();
      this.firstKeys.clear();
      this.readAheads.clear();
    }
    this.filter = filter;
    this.fileOk.clear();
    this.run.clear();
    try {
      return fn();
    } finally {
      this.filter = null;
      this.run.clear();
    }
  }

  /**
   * A value kept for the ranking running now only (one withPathFilter call: one generation, one
   * filter): made by `make` when first asked for; without `make`, undefined until made.
   */
  duringRun<T>(key: string, make?: () => T): T | undefined {
    if (this.run.has(key) || !make) return this.run.get(key) as T | undefined;
    const value = make();
    this.run.set(key, value);
    return value;
  }

  /** A value computed once per index generation (call inside withPathFilter). */
  cached<T>(key: string, make: () => T): T {
    if (this.caches.has(key)) return this.caches.get(key) as T;
    const value = make();
    this.caches.set(key, value);
    return value;
  }

  /**
   * A channel's answer to one statement, kept for this generation among the RECENT_ANSWERS last
   * used (call inside withPathFilter, without a path filter: the key must say all the answer
   * depends on). Typing repeats queries — every query starts with one of a few dozen single
   * characters, and backspacing returns to prefixes already searched — and the shortest of them hold
   * the most common tokens, whose BM25 pass over thousands of chunks was most of their search. The
   * caller must not change what it gets (it is the same value for the next caller). `first`: the
   * answer to a query's first keystrokes (a one- or two-character word), kept among the
   * FIRST_KEY_ANSWERS of those instead, which longer queries do not push out.
   */
  recent<T>(key: string, make: () => T, first = false): T {
    const answers = first ? this.firstKeys : this.answers;
    if (answers.has(key)) {
      const value = answers.get(key) as T;
      answers.delete(key);
      answers.set(key, value);
      return value;
    }
    const value = make();
    answers.set(key, value);
    if (answers.size > (first ? FIRST_KEY_ANSWERS : RECENT_ANSWERS)) answers.delete(answers.keys().next().value!);
    return value;
  }

  /** The index's project files and their facts (path roles): from the generation's record of them (first-search-record.ts), else the file list (indexedFiles), no read of its own. */
  projects(): ProjectMap {
    return this.cached('projects', () => ProjectMap.fromFiles(projectLanguageFiles(this)));
  }

  /**
   * Every indexed file's id, path, language and flags, in id order (read once per generation; the
   * one read of the file list a search makes: declarations' stems, rerank's variant groups, the
   * project map and the answer's file and parse-error counts all come from it — each was a scan of
   * the files table of its own, together ~30% of a first search on Avalonia). One JSON value out of
   * WASM: row by row through oo1 it was ~25 ms of a first search on Avalonia's 4.8k files. Without
   * the hashes (most of a files row): a packed index answers id, path, lang and flags from its
   * covering index (files_by_lang) instead of reading the whole table, which over HTTP was most of a
   * first query's bytes — or, cheaper to read, from the list the pack (deflated) or the indexing
   * pass (JSON text) recorded for this generation (file-list.ts).
   */
  indexedFiles(): readonly IndexedFile[] {
    return this.cached(INDEXED_FILES, () => {
      // The list recorded for this generation (core/index/file-list.ts): a pack's is a few pages instead of the covering index.
      // Its one row (an overflow chain of a few pages) fetched ahead in one request over HTTP.
      this.prefetchTable(PACKED_FILE_LIST);
      const rows = readPackedFileList(this.db, this.codec) ?? JSON.parse(String(this.db.selectValue('SELECT json_group_array(json_array(id, path, lang, flags)) FROM files') ?? '[]')) as FileListRow[];
      return rows.sort((a, b) => a[0] - b[0]).map(([fileId, path, lang, flags, hash]) => (hash === undefined ? { fileId, path, lang, flags } : { fileId, path, lang, flags, hash }));
    });
  }

  /**
   * A remote index's files by id with their hashes — all a keyword pass's candidates need of a files
   * row — when its file list carries them (a pack's: file-list.ts), once per generation; else null.
   * Its passes then read no files rows for their pool (over HTTP, pages spread over the whole table).
   */
  packedFiles(): ReadonlyMap<number, IndexedFile & { hash: string }> | null {
    if (!this.readsAhead) return null;
    return this.cached('packed-files', () => {
      const files = this.indexedFiles();
      return files.length && files.every((f) => f.hash !== undefined) ? new Map(files.map((f) => [f.fileId, f as IndexedFile & { hash: string }])) : null;
    });
  }

  /**
   * Whether a path is indexed, for the paths of a page (pairs.ts): every indexed file's path
   * (indexedFiles, once per generation) on a remote index — a lookup there is a descent of the
   * files' path index, a request per level — or when this generation's search has read the list
   * already; else a lookup in the files' path index (a first search on a local index reads no file
   * list: first-search-record.ts — reading it for this was ~4 ms of a first query on Avalonia).
   */
  indexedPaths(): { has(path: string): boolean } {
    if (this.readsAhead || this.knownFiles()) return this.cached('indexed-paths', () => new Set(this.indexedFiles().map((f) => f.path)));
    return this.cached('indexed-path-lookup', () => ({ has: (path: string) => this.value('SELECT 1 FROM files WHERE path = ?', [path]) !== undefined }));
  }

  /**
   * The variant groups of the index's files (variants.ts: translations, versioned docs pages), once
   * per generation: those the indexer recorded for this generation, else found now from the file list.
   */
  variantGroups(): Map<string, Variant> {
    return this.cached('variant-groups', () => {
      this.prefetchTable(VARIANT_GROUPS_TABLE);
      return recordedVariantGroups(this.db, this.codec) ?? variantGroups(this.indexedFiles().map((f) => f.path));
    });
  }

  /** The file list when this generation's search has read it already (indexedFiles), else undefined. */
  private knownFiles(): readonly IndexedFile[] | undefined {
    return this.caches.get(INDEXED_FILES) as readonly IndexedFile[] | undefined;
  }

  /**
   * Decodes the index's files into the file cache ahead of searches, for at most `budgetMs`, going on
   * where the last call stopped: the text signals of a new query's best candidates then read bodies
   * from memory (inflating them was most of a search's tail in the browser Worker). Called by a host
   * with idle time, one short slice at a time (Searcher.idleStep, for runtimes/browser/warm-up.ts). True when every file
   * is cached or the cache is mostly full: nothing left to do for this index generation.
   */
  warmFiles(budgetMs: number): boolean {
    return this.withPathFilter(null, () => {
      const files = this.cached('warm:files', () => this.db.selectObjects('SELECT id, hash FROM files ORDER BY id') as Array<{ id: number; hash: string }>);
      const at = this.cached('warm:at', () => ({ next: 0 }));
      const deadline = Date.now() + budgetMs;
      while (at.next < files.length && !this.files.nearlyFull && Date.now() < deadline) {
        const f = files[at.next++];
        if (!this.files.has(f.id, f.hash)) this.files.get(f.id, f.hash);
      }
      return at.next >= files.length || this.files.nearlyFull;
    });
  }

  /** The number of files (counted in the file list when the search read it: the same rows, no second scan; else the generation's record, first-search-record.ts). */
  fileCount(): number {
    return this.cached('files', () => this.knownFiles()?.length ?? recordedCounts(this)?.files ?? countFiles(this.db));
  }

  /** The number of chunks (the generation's record when it has one, first-search-record.ts). */
  chunkCount(): number {
    return this.cached('chunks', () => recordedCounts(this)?.chunks ?? countChunks(this.db));
  }

  /** The number of files parsed with syntax errors (counted in the file list when the search read it, else the generation's record). */
  parseErrorCount(): number {
    return this.cached('parse-errors', () => {
      const files = this.knownFiles();
      if (!files) return recordedCounts(this)?.parseErrors ?? countParseErrors(this.db);
      let n = 0;
      for (const f of files) if (f.flags & FILE_FLAG.parseErrors) n++;
      return n;
    });
  }
}
