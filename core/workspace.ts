// The library's front door, a facade: one workspace (its files, its index, its settings) and the
// calls every surface shares — index, search, similar, explain, outline, resolve, status. Owns
// opening (settings, the engine, one index connection), freshness, the query log behind hit ids and
// turning a failure into the call's answer; the work is done by index/ (indexing), search/ (one
// Searcher per open index, search/searcher.ts: preparing and running searches) and scan/.
import type { FirstPass, KeywordStats } from './search/term-stats.ts';
import { asHciError, HciError, type WorkspaceFs } from './platform.ts';
import type { Settings } from './settings.ts';
import { settingDefaults } from './settings-defaults.ts';
import { loadEngine, type Database, type EngineLoader, type SqliteEngine } from './sqlite/engine.ts';
import type { IndexStorage } from './index/storage.ts';
import { IndexStore } from './index/store.ts';
import { checkedPages, damaged } from './index/health.ts';
import type { IndexOptions, IndexProgress, IndexSummary } from './index/indexer.ts';
import { readMeta, setMeta } from './index/meta.ts';
import type { ParsePoolFactory } from './index/prepare.ts';
import { FILE_FLAG, FORMAT_VERSION } from './index/schema.ts';
import { languageById } from './languages/table.ts';
import { checkMode, checkRequest, parseSkipped, Searcher, type DeferRender } from './search/searcher.ts';
import type { SemanticIndex, VectorHost } from './vector/semantic.ts';
import type { TokenNeighbours } from './vector/neighbours.ts';
import type { SimilarRequest, SimilarResponse } from './search/similar.ts';
import { failedResponse } from './search/present.ts';
import { countChunks, countFiles, countParseErrors, type SearchSession } from './search/session.ts';
import type { DeflateCodec } from './index/file-data.ts';
import type { ExplainResponse, IndexFreshness, OutlineResponse, ResolveResponse, SearchRequest, SearchResponse, StatusReport } from './contract/index.ts';
import { parseHitId, QueryLog, queryKey } from './search/query-log.ts';
import type { Chunker } from './chunk/chunker.ts';
import { fileInfo, readOutline, resolveMemberKey, symbolAt, type SymbolLocation } from './search/symbols.ts';
import { definitionsNamed } from './search/definitions.ts';
import type { GrammarSource } from './chunk/treesitter.ts';
import { headMovedNote, readGitHead, readOriginName, type GitHead, type GitTextReader } from './git/head.ts';
import type { PackManifest, PackTarget } from './index/pack.ts';

export interface WorkspaceHost {
  fs: WorkspaceFs;
  storage: IndexStorage;
  engineLoader?: EngineLoader;
  /** Tree-sitter wasm files; without them every file is cut into line windows. */
  grammars?: GrammarSource;
  /**
   * Parses files off the main thread during big passes (Node: one worker thread). It must
   * parse with the same grammars as `grammars`. Without it everything runs in-thread.
   */
  parsePool?: ParsePoolFactory;
  /** The codec of the index's per-file blobs (default: fflate, pure JS); Node passes its zlib. */
  deflate?: DeflateCodec;
  /** What the semantic channel's providers need from the runtime (fetch, env, onnxruntime-web). */
  vectors?: VectorHost;
  /** Called between an indexing pass's batches (core/index/indexer.ts IndexEnv.relieveMemory). */
  relieveMemory?: (force: boolean) => void;
  /**
   * Reads the checkout's git files (core/git/head.ts), also outside the workspace (a linked
   * worktree's git dir). Default: the workspace's own `.git` through `fs`.
   */
  git?: GitTextReader;
}

/** How long a read of the checkout's HEAD is reused (every call re-reads it after that). */
const HEAD_TTL_MS = 250;

export interface OpenOptions {
  /** Overrides on top of `.hci/settings.toml`. */
  settings?: Partial<Settings>;
  /**
   * Also keep recent queries in a sidecar beside the index, so a later process (a CLI `explain`
   * after a CLI `search`) can explain hit ids. Long-lived hosts keep them in memory only.
   */
  persistQueries?: boolean;
}

export type { StatusReport, OutlineResponse, ResolveResponse, ExplainResponse };

const SETTINGS_FILE = '.hci/settings.toml';
const SKIPPED_SAMPLE_LIMIT = 50;

export class HciWorkspace {
  private store: IndexStore | null = null;
  private opening: Promise<IndexStore> | null = null;
  private readonly queries: QueryLog;
  /** Per open connection: its searches (their session: the path-filter SQL function, the decoded-file cache, counts). */
  private readonly searchers = new WeakMap<IndexStore, Searcher>();
  /** Made on the first index run: a search never loads the chunkers or tree-sitter. */
  private chunker: Promise<Chunker> | null = null;
  /** The semantic channel (off unless `[semantic] enabled = true`), loaded on first use: a keyword search never loads it. */
  private semanticIndex: Promise<SemanticIndex> | null = null;
  /** The checkout's HEAD as last read (freshness compares it with the commit the index was built at). */
  private head: { at: number; value: GitHead | null } | null = null;

  private constructor(
    readonly host: WorkspaceHost,
    readonly settings: Settings,
    readonly engine: SqliteEngine,
    persistQueries: boolean,
  ) {
    this.queries = new QueryLog(host.storage, persistQueries);
  }

  private semanticFor(): Promise<SemanticIndex> {
    return (this.semanticIndex ??= (async () => {
      const { SemanticIndex } = await import('./vector/semantic.ts');
      return new SemanticIndex(this.settings.semantic, this.host.vectors ?? {}, this.host.fs.rootLabel);
    })());
  }

  private chunkerFor(): Promise<Chunker> {
    return (this.chunker ??= (async () => {
      const [{ Chunker }, { TreeSitterHost }] = await Promise.all([import('./chunk/chunker.ts'), import('./chunk/treesitter.ts')]);
      return new Chunker(this.host.grammars ? new TreeSitterHost(this.host.grammars) : null);
    })());
  }

  /**
   * Loads the code an indexing run imports (index(): the indexer, the chunker, the tree-sitter host,
   * the semantic index) without running any of it, for a host's idle time before a first run: the
   * modules are fetched and compiled then instead of while the run waits. Opens nothing.
   */
  static async preloadIndexing(): Promise<void> {
    await Promise.all([import('./index/indexer.ts'), import('./chunk/chunker.ts'), import('./chunk/treesitter.ts'), import('./vector/semantic.ts')]);
  }

  static async open(host: WorkspaceHost, opts: OpenOptions = {}): Promise<HciWorkspace> {
    let settings: Settings = settingDefaults();
    const st = await host.fs.stat(SETTINGS_FILE);
    if (st?.kind === 'file' || opts.settings) {
      // The schema (zod) and the TOML parser load only when there is something to validate.
      const { parseSettingsToml, validateSettings } = await import('./settings.ts');
      let fileSettings: Record<string, unknown> = {};
      if (st?.kind === 'file') {
        const text = new TextDecoder().decode(await host.fs.readFile(SETTINGS_FILE));
        fileSettings = { ...parseSettingsToml(text, SETTINGS_FILE) };
      }
      settings = validateSettings({ ...fileSettings, ...(opts.settings ?? {}) }, opts.settings ? 'settings' : SETTINGS_FILE);
    }
    const engine = await loadEngine(host.engineLoader);
    return new HciWorkspace(host, settings, engine, opts.persistQueries ?? false);
  }

  close(): void {
    this.store?.close();
    this.store = null;
    this.host.storage.close?.();
  }

  /** The checkout's HEAD now (null: not a git checkout, or an index without its files). */
  async gitHead(): Promise<GitHead | null> {
    if (this.host.storage.readOnly) return null;
    try {
      return await readGitHead(this.gitReader());
    } catch {
      return null;
    }
  }

  private gitReader(): GitTextReader {
    return this.host.git ?? (async (p) => {
      if (p.startsWith('/') || /^[a-zA-Z]:/.test(p)) return null;
      try {
        return new TextDecoder().decode(await this.host.fs.readFile(p, 1 << 20));
      } catch {
        return null;
      }
    });
  }

  /** Re-reads HEAD when the last read is older than HEAD_TTL_MS (freshnessIn reads it synchronously). */
  private async refreshHead(): Promise<void> {
    if (this.head && Date.now() - this.head.at < HEAD_TTL_MS) return;
    this.head = { at: Date.now(), value: await this.gitHead() };
  }

  /**
   * Writes a read-only copy of the index for publishing, and its manifest (core/index/pack.ts):
   * the repository's name from the git remote (else the folder's), the commit and branch of HEAD.
   */
  async pack(target: PackTarget, opts: { pageSize?: number; fileName: string; repository?: string }): Promise<PackManifest> {
    const [store, { packIndex }] = await Promise.all([this.openStore(false), import('./index/pack.ts')]);
    const git = await this.gitHead();
    const origin = await readOriginName(this.gitReader()).catch(() => null);
    const folder = this.host.fs.rootLabel.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || 'workspace';
    return packIndex(store, target, { pageSize: opts.pageSize, fileName: opts.fileName, repository: opts.repository ?? origin ?? folder, git });
  }

  /** One connection per workspace, even when several calls ask for it at once. */
  private async openStore(create: boolean): Promise<IndexStore> {
    await this.refreshHead();
    // A published index replaced under its URL: this call reads the new file.
    if (this.store && this.host.storage.stale?.()) {
      this.store.close();
      this.store = null;
    }
    for (;;) {
      if (this.store) return this.store;
      if (!this.opening) {
        this.opening = IndexStore.open(this.host.storage, this.engine, { create, lockTimeoutMs: this.settings.lock_timeout_ms, codec: this.host.deflate })
          .then((s) => (this.store = s))
          .finally(() => (this.opening = null));
        return this.opening;
      }
      try {
        return await this.opening;
      } catch (e) {
        // Another caller's read-only open found no index; this caller may create one.
        if (!(create && e instanceof HciError && e.code === 'no_index')) throw e;
      }
    }
  }

  /**
   * Builds or updates the index. `full` rebuilds, and also recovers an outdated or damaged index:
   * a damaged file is moved aside (where the runtime keeps files) and rebuilt from an empty one, and
   * the summary's `repaired` says so.
   */
  async index(opts: IndexOptions = {}): Promise<IndexSummary> {
    if (this.host.storage.readOnly) {
      throw new HciError('not_available', `the index at ${this.host.storage.location} is read-only (a published index): it is not indexed here`, 'index the repository where its files are, then pack and publish it again');
    }
    const headBefore = await this.gitHead();
    let repaired: IndexSummary['repaired'];
    const fromEmptyFile = async (why: HciError) => {
      this.close();
      const damaged = why.code === 'index_corrupt' || why.code === 'index_unrecognized';
      const movedTo = damaged && this.host.storage.moveAside ? await this.host.storage.moveAside() : (await this.host.storage.remove(), null);
      repaired = { reason: why.message, moved_to: movedTo };
      return this.openStore(true);
    };
    let store: IndexStore;
    try {
      store = await this.openStore(true);
    } catch (e) {
      const rebuildable = e instanceof HciError && ['index_outdated', 'index_too_new', 'index_corrupt', 'index_unrecognized'].includes(e.code);
      if (!opts.full || !rebuildable) throw e;
      store = await fromEmptyFile(e as HciError);
    }
    const [{ indexWorkspace }, chunker, semantic] = await Promise.all([import('./index/indexer.ts'), this.chunkerFor(), this.semanticFor()]);
    let last: IndexProgress = { phase: 'scan', filesTotal: 0, filesDone: 0, chunks: 0, bytes: 0 };
    // With the vector phase after the keyword pass, "done" is reported once both are.
    const deferDone = semantic.enabled;
    const keywordOpts: IndexOptions = opts.onProgress
      ? { ...opts, onProgress: (p) => { last = p; if (!(deferDone && p.phase === 'done')) opts.onProgress!(p); } }
      : opts;
    const pass = async (s: IndexStore) => {
      const vectors = await semantic.passEnv(s, {
        full: opts.full,
        signal: opts.signal,
        onProgress: (p) => opts.onProgress?.({ ...last, phase: 'vectors', vectorsDone: p.done, vectorsTotal: p.total, vectorsPerS: Math.round(p.rate), etaS: Math.round(p.etaS) }),
      });
      const summary = await indexWorkspace(this.host.fs, s, this.settings, chunker, keywordOpts, { parsePool: this.host.parsePool, vectors: vectors.vectors, afterPass: vectors.afterPass, relieveMemory: this.host.relieveMemory });
      await this.recordHead(s, headBefore);
      const run = vectors.summary();
      if (run) summary.vectors = run as IndexSummary['vectors'];
      if (deferDone) opts.onProgress?.({ ...last, phase: 'done' });
      return summary;
    };
    const withRepair = (summary: IndexSummary) => (repaired ? { ...summary, repaired } : summary);
    try {
      return withRepair(await pass(store));
    } catch (e) {
      // Damage found by the check before a full pass, or while rewriting rows (a stored blob that
      // cannot be read, so its FTS rows cannot be removed): a full rebuild starts from an empty file
      // instead — once: damage found again in a new file is not the old file's.
      if (!opts.full || repaired || !(e instanceof HciError && e.code === 'index_corrupt')) throw e;
      return withRepair(await pass(await fromEmptyFile(e)));
    }
  }

  /**
   * After a finished pass: the commit HEAD was at when it began, as the commit the index is built at
   * (a switch during the pass leaves the record as it was: the next run takes it in).
   */
  private async recordHead(store: IndexStore, before: GitHead | null): Promise<void> {
    const after = await this.gitHead();
    if (before?.commit !== after?.commit || before?.branch !== after?.branch) return;
    await store.write((db) => {
      if (after) setMeta(db, { git_commit: after.commit ?? '', git_branch: after.branch ?? '' });
      else db.exec("DELETE FROM meta WHERE key IN ('git_commit', 'git_branch')");
    });
  }

  /**
   * Freshness as seen inside the caller's read transaction (the same snapshot as its results);
   * `session`: the counts from its per-generation cache (only right after it ran a search in this transaction).
   */
  private freshnessIn(db: Database, meta = readMeta(db), session?: SearchSession): IndexFreshness {
    return {
      location: this.host.storage.location,
      generation: Number(meta.generation ?? 0),
      indexed_at: meta.indexed_at ?? null,
      build_state: meta.build_state ?? 'unknown',
      files: session ? session.fileCount() : countFiles(db),
      chunks: session ? session.chunkCount() : countChunks(db),
      parse_errors: session ? session.parseErrorCount() : countParseErrors(db),
      pending_changes: null,
      indexer_running: false,
      ...this.gitFreshness(meta),
      ...(this.host.storage.readOnly ? { read_only: true } : {}),
    };
  }

  /** The commit the index was built at (meta, or a pack's record) beside the checkout's HEAD now. */
  private gitFreshness(meta: Record<string, string>): Pick<IndexFreshness, 'git'> {
    let built: GitHead | null = meta.git_commit !== undefined ? { commit: meta.git_commit || null, branch: meta.git_branch || null } : null;
    if (!built && meta.pack) {
      try {
        const p = JSON.parse(meta.pack) as { commit?: string | null; branch?: string | null };
        if (p.commit) built = { commit: p.commit, branch: p.branch ?? null };
      } catch {
        // a pack record this version cannot read: no commit to report
      }
    }
    const now = this.head?.value ?? null;
    if (!built && !now) return {};
    const note = headMovedNote(built, now);
    return { git: { commit: built?.commit ?? null, branch: built?.branch ?? null, head: now?.commit ?? null, head_branch: now?.branch ?? null, ...(note ? { note } : {}) } };
  }

  private withRunningFlag(f: IndexFreshness): IndexFreshness {
    f.indexer_running = this.host.storage.indexerHolder() !== null;
    return f;
  }

  /** The shipped code model's token neighbours (query expansion, setting neighbour_terms); null where it cannot be read. */
  private async tokenNeighbours(): Promise<TokenNeighbours | null> {
    // Loaded on first use: a keyword search without the setting never reads the model (nor a browser Worker's start its code).
    const [{ loadPretrained }, { neighboursOf }] = await Promise.all([import('./vector/pretrained/provider.ts'), import('./vector/neighbours.ts')]);
    const p = await loadPretrained(this.host.vectors?.codeModel);
    return 'code' in p ? null : neighboursOf(p.model);
  }

  /** The Searcher of the open index (opened read-only when it is not open yet: `no_index` without one). */
  async searcher(): Promise<Searcher> {
    const store = await this.openStore(false);
    let s = this.searchers.get(store);
    if (!s) {
      s = new Searcher(store, {
        settings: this.settings,
        semantic: () => this.semanticFor(),
        freshnessIn: (db, meta, session) => this.freshnessIn(db, meta, session),
        withRunningFlag: (f) => this.withRunningFlag(f),
        tokenNeighbours: () => this.tokenNeighbours(),
      });
      this.searchers.set(store, s);
    }
    return s;
  }

  /**
   * `keywordStats`: a search over several indexes weighs BM25 with the statistics of them all (core/service/federation.ts);
   * `deferRender`: its hits unrendered, their renderer given to it (Searcher.search).
   */
  async search(req: SearchRequest, opts: { keywordStats?: KeywordStats; deferRender?: DeferRender } = {}): Promise<SearchResponse> {
    const t0 = Date.now();
    try {
      // A bad request or an unavailable mode fails before the index is opened.
      checkRequest(req);
      checkMode(this.settings, req.mode);
      const searcher = await this.searcher();
      const key = queryKey(req);
      this.queries.remember(key, req);
      return await searcher.search(req, key, t0, opts.keywordStats, opts.deferRender);
    } catch (e) {
      return failedResponse(req, e, t0);
    }
  }

  /** A search over several indexes: this index's keyword scores of the query's first pass (Searcher.firstPass; null when it has none or no index). */
  async firstPass(req: SearchRequest, keywordStats: KeywordStats): Promise<FirstPass | null> {
    try {
      return await (await this.searcher()).firstPass(req, keywordStats);
    } catch {
      return null;
    }
  }

  /** "More like this": the chunks nearest to a hit, to the innermost chunk at a file's line, or to a code snippet. */
  async similar(req: SimilarRequest): Promise<SimilarResponse> {
    // Loaded on first use: a search never needs it (a browser Worker starts without it).
    const { similarTo } = await import('./search/similar.ts');
    return similarTo(req, {
      searcher: () => {
        checkMode(this.settings, 'semantic');
        return this.searcher();
      },
      normalizePath: (p) => normalizeRelPath(p, this.host.fs.backslashInNames),
      freshnessIn: (db) => this.freshnessIn(db),
      withRunningFlag: (f) => this.withRunningFlag(f),
    });
  }

  /**
   * The index's state. `checkPages`: also SQLite's page check (health.ts; once per change of the
   * file), so damage no other read of status meets is reported: status `damaged`, with the remedy.
   */
  async status(opts: { checkPending?: boolean; checkPages?: boolean } = {}): Promise<StatusReport> {
    const report: StatusReport = {
      status: 'ok', index: null, format_version: null, engine: this.engine.label, files_by_lang: {}, skipped: {},
      skipped_samples: [], last_run: null, pending: null,
    };
    try {
      const [store, semantic] = await Promise.all([this.openStore(false), this.semanticFor()]);
      const data = await store.read((db) => ({
        index: this.freshnessIn(db),
        meta: readMeta(db),
        langs: db.selectObjects('SELECT lang, count(*) AS n FROM files GROUP BY lang ORDER BY n DESC') as Array<{ lang: string; n: number }>,
        samples: db.selectObjects(`SELECT path, reason FROM skipped ORDER BY reason, path LIMIT ${SKIPPED_SAMPLE_LIMIT}`) as Array<{ path: string; reason: string }>,
        files: opts.checkPending ? (db.selectObjects('SELECT path, size, mtime_ms FROM files') as Array<{ path: string; size: number; mtime_ms: number }>) : [],
        indexBytes: Number(db.selectValue('PRAGMA page_count')) * Number(db.selectValue('PRAGMA page_size')),
        vectors: semantic.enabled || db.selectValue('SELECT 1 FROM vector_models LIMIT 1') !== undefined ? semantic.status(db) : undefined,
        sourceBytes: Number(db.selectValue('SELECT coalesce(sum(size), 0) FROM files')),
        windowed: Number(db.selectValue(`SELECT count(*) FROM files WHERE flags & ${FILE_FLAG.largeWindows}`)),
      }));
      const s = this.settings;
      report.large_files = { windowed: data.windowed, over_bytes: s.max_indexed_file_bytes, max_bytes: s.large_file_max_bytes, langs: [...s.large_file_langs] };
      report.size = { index_bytes: data.indexBytes, source_bytes: data.sourceBytes };
      if (data.vectors) report.vectors = data.vectors;
      report.index = this.withRunningFlag(data.index);
      report.format_version = Number(data.meta.format_version ?? FORMAT_VERSION);
      for (const l of data.langs) report.files_by_lang[l.lang] = Number(l.n);
      report.skipped = parseSkipped(data.meta.skipped_counts);
      report.skipped_samples = data.samples;
      report.last_run = parseLastRun(data.meta.last_run);
      if (opts.checkPending) {
        const { scanWorkspace } = await import('./scan/walker.ts');
        const scan = await scanWorkspace(this.host.fs, this.settings);
        const known = new Map(data.files.map((f) => [f.path, f]));
        const pending = { added: 0, modified: 0, deleted: 0 };
        for (const f of scan.files) {
          const k = known.get(f.path);
          if (!k) pending.added++;
          else if (k.size !== f.size || k.mtime_ms !== Math.trunc(f.mtimeMs)) pending.modified++;
          known.delete(f.path);
        }
        pending.deleted = known.size;
        report.pending = pending;
        report.index.pending_changes = pending.added + pending.modified + pending.deleted;
      }
      if (report.index.build_state !== 'complete') {
        report.status = report.index.indexer_running ? 'indexing' : 'ok';
        report.hint = report.index.indexer_running ? 'an indexing run is in progress' : 'the last indexing run did not finish; run `hci index`';
      }
      if (opts.checkPages) {
        const problems = await checkedPages(store);
        if (problems.length) throw damaged(this.host.storage.location, problems);
      }
    } catch (e) {
      const err = asHciError(e);
      report.status = err.code === 'no_index' ? 'no_index' : err.code === 'index_corrupt' || err.code === 'index_unrecognized' ? 'damaged' : 'error';
      report.error = { code: err.code, message: err.message };
      report.hint = err.hint;
    }
    return report;
  }

  /** The symbol tree of one file, as the index holds it. */
  async outline(path: string): Promise<OutlineResponse> {
    const rel = typeof path === 'string' ? normalizeRelPath(path, this.host.fs.backslashInNames) : null;
    const base: OutlineResponse = { status: 'error', path: rel ?? String(path), symbols: [], index: null };
    try {
      if (rel === null) throw new HciError('path_outside_workspace', `"${path}" is not a path inside the workspace`, 'pass a workspace-relative path such as src/App.cs');
      const store = await this.openStore(false);
      const out = await store.read((db) => {
        const file = fileInfo(db, rel);
        return { file, symbols: file ? readOutline(db, file.id, store.codec) : [], index: this.freshnessIn(db) };
      });
      const index = this.withRunningFlag(out.index);
      if (!out.file) {
        // Whether it exists, told only for files inside: a path through a workspace symlink that leads
        // outside answers as if nothing were there (stat alone would reveal what exists out there).
        const st = await this.host.fs.stat(rel).catch(() => null);
        const inside = st !== null && (await this.host.fs.resolveLink(rel).catch(() => null)) !== 'outside';
        return {
          ...base, index, status: 'error',
          error: { code: 'not_indexed', message: `${rel} is not in the index` },
          hint: inside ? 'the file exists but is not indexed (see `status` for skipped files), or the index is older than the file: reindex' : 'no such file in the workspace',
        };
      }
      const res: OutlineResponse = { ...base, status: 'ok', lang: out.file.lang, symbols: out.symbols, index };
      if (out.symbols.length === 0) {
        res.hint = languageById(out.file.lang)?.extractor
          ? `no symbols found in this ${out.file.lang} file: it is indexed as line windows`
          : `no outline for ${out.file.lang} files (they are indexed as line windows)`;
      }
      return res;
    } catch (e) {
      const err = asHciError(e);
      return { ...base, error: { code: err.code, message: err.message }, hint: err.hint };
    }
  }

  /** Where a member key (from an outline or a hit) is now; symbols defined with a name; or, with path and line, the member there. */
  async resolve(query: { member_key: string } | { name: string } | { path: string; line: number }): Promise<ResolveResponse> {
    try {
      const store = await this.openStore(false);
      const out = await store.read((db) => {
        let locations: SymbolLocation[];
        let unread = 0;
        if ('member_key' in query) locations = resolveMemberKey(db, String(query.member_key), store.codec);
        else if ('name' in query) ({ locations, unread } = definitionsNamed(db, String(query.name), store.codec));
        else {
          const rel = normalizeRelPath(String(query.path), this.host.fs.backslashInNames);
          if (rel === null) throw new HciError('path_outside_workspace', `"${query.path}" is not a path inside the workspace`, 'pass a workspace-relative path');
          if (!Number.isInteger(query.line) || query.line < 1) throw new HciError('invalid_request', 'line must be a positive integer', 'lines are 1-based');
          const at = symbolAt(db, rel, query.line, store.codec);
          locations = at ? [at] : [];
        }
        return { locations, unread, index: this.freshnessIn(db) };
      });
      const res: ResolveResponse = { status: out.locations.length ? 'ok' : 'empty', locations: out.locations, index: this.withRunningFlag(out.index) };
      if (out.unread > 0 && 'name' in query) {
        // A name in more files than one lookup reads: say so rather than answer "nothing" or a partial list as complete.
        const more = `${out.unread} more file${out.unread === 1 ? ' that mentions it was' : 's that mention it were'} not read`;
        res.hint = out.locations.length
          ? `definitions in the files read first (those naming ${query.name} in their path or a symbol); ${more}: there may be more`
          : `no outline defines ${query.name} in the files read first (those naming it in their path or a symbol); ${more} — search ${query.name} to see where it appears`;
      } else if (!out.locations.length) {
        res.hint = 'member_key' in query ? 'no symbol has this member key now: it was renamed or removed, or its file is not indexed'
          : 'name' in query ? `no outline defines a symbol named ${query.name} (it may come from a library, or be a local)` : 'no symbol encloses this line';
      }
      return res;
    } catch (e) {
      const err = asHciError(e);
      return { status: 'error', locations: [], index: null, error: { code: err.code, message: err.message }, hint: err.hint };
    }
  }

  /**
   * Runs a read of the index in one read transaction and returns its value with the freshness of
   * that snapshot (the browse calls, core/browse/, read through it). Throws `no_index` without one.
   */
  async read<T>(fn: (db: Database, codec: DeflateCodec) => T): Promise<{ value: T; index: IndexFreshness }> {
    const store = await this.openStore(false);
    const out = await store.read((db) => ({ value: fn(db, store.codec), index: this.freshnessIn(db) }));
    return { value: out.value, index: this.withRunningFlag(out.index) };
  }

  /**
   * A read of the index in one read transaction, its value only: no freshness (its counts and the
   * checkout's HEAD are the answer's, not a helper read's — a search over several repositories
   * reads each index's statistics this way once per query, core/service/repo-search.ts). Throws
   * `no_index` without one.
   */
  async readValue<T>(fn: (db: Database, codec: DeflateCodec) => T): Promise<T> {
    const store = await this.openStore(false);
    return store.read((db) => fn(db, store.codec));
  }

  /**
   * readValue through the search session of the open index (its statements prepared once per
   * connection, not per read): a search over several repositories counts each index's phrases this
   * way once per query (core/service/repo-search.ts). Throws `no_index` without one.
   */
  async readSession<T>(fn: (session: SearchSession) => T): Promise<T> {
    const searcher = await this.searcher();
    return searcher.store.read(() => fn(searcher.session));
  }

  /** Explains a hit from a search; the query is recalled from the hit id (or passed in). */
  async explain(hitId: string, opts: { query?: string; mode?: SearchRequest['mode'] } = {}): Promise<ExplainResponse> {
    try {
      const { chunkId, key } = parseHitId(hitId);
      const searcher = await this.searcher();
      const req: SearchRequest | undefined = opts.query !== undefined ? { query: opts.query, ...(opts.mode ? { mode: opts.mode } : {}) } : this.queries.recall(key);
      return await searcher.explain(hitId, chunkId, req);
    } catch (e) {
      const err = asHciError(e);
      return { status: 'error', hit_id: hitId, index: null, error: { code: err.code, message: err.message }, hint: err.hint };
    }
  }
}

/**
 * A workspace-relative path with forward slashes, or null when it would leave the workspace. A `\`
 * is a separator only where file names cannot hold it (see WorkspaceFs.backslashInNames).
 */
function normalizeRelPath(p: string, backslashInNames = false): string | null {
  const rel = (backslashInNames ? p.trim() : p.trim().replace(/\\/g, '/')).replace(/^\.\//, '');
  if (!rel || rel.startsWith('/') || /^[a-zA-Z]:/.test(rel) || rel.split('/').includes('..')) return null;
  return rel.replace(/\/+$/, '');
}

/** The last run's stored summary; null when missing or unreadable (a record for people, not a reason to fail). */
function parseLastRun(json: string | undefined): unknown {
  try {
    return json ? JSON.parse(json) : null;
  } catch {
    return null;
  }
}
