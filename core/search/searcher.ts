// The searches of one open index, as one object (Zoekt's Searcher and Orama's methods/search-*.ts
// are the models): it owns the index's search session (session.ts: caches, prepared statements, the
// path filter), and prepares each request once — checked against the contract's bounds, its query
// parsed once, its channels and glob matcher loaded and, for the semantic modes, its query vector
// made — before the one read transaction that ranks, pages and presents it with the mode table of
// that search (its vector channel: semanticModes). search, explain, similar (similar.ts) and the
// warm-ups a host runs in idle time all go through it. Owns preparing and running a search; the
// stages are pipeline.ts, the answer's wording present.ts, freshness and the query log the
// workspace's (core/workspace.ts), which keeps one Searcher per open index.
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import type { Database } from '../sqlite/engine.ts';
import type { IndexStore } from '../index/store.ts';
import { readMeta } from '../index/meta.ts';
import type { SkipCounts } from '../scan/walker.ts';
import type { IndexFreshness } from '../contract/common.ts';
import type { ExplainResponse } from '../contract/explain.ts';
import type { SearchHit, SearchRequest, SearchResponse } from '../contract/search.ts';
import { MAX_TOKENS_MIN, QUERY_MAX_CHARS, SEARCH_LIMIT, SEARCH_MODES } from '../contract/limits.ts';
import type { SemanticIndex, QueryVector } from '../vector/semantic.ts';
import { modelKeyString } from '../vector/provider.ts';
import { candidatePool, keywordFirstPassOnly, parseRequest, prepareSearch, rankList, searchPage, type DeferredRender, type RankedResult, type SearchContext, type SearchPage } from './pipeline.ts';
import type { Candidate } from './candidates.ts';
import { DEFAULT_MODES, MODE_UNAVAILABLE_HINT, semanticModes, type ModeTable } from './modes.ts';
import type { FusionType, HybridOptions } from './fuse.ts';
import { vectorChannel } from './channels/vector.ts';
import { pathRoleFactors } from './vector-roles.ts';
import type { ParsedQuery } from './query.ts';
import { pageRange, type PageRange } from './page.ts';
import { searchResponse } from './present.ts';
import { SearchSession } from './session.ts';
import { queryKey } from './query-log.ts';
import { skippedFilesHint, skippedFilesMatching } from './skipped-files.ts';
import type { FirstPass, KeywordStats } from './term-stats.ts';
import type { TokenNeighbours } from '../vector/neighbours.ts';
import { neighbourCandidates } from './neighbour-terms.ts';
import { queryType } from './query-type.ts';

/** What a Searcher needs of the workspace that opened its index. */
export interface SearcherHost {
  readonly settings: Settings;
  /** The semantic channel, loaded on first use (a keyword search never asks). */
  semantic(): Promise<SemanticIndex>;
  /** How current the index is, inside the caller's read transaction (`session`: its per-generation counts). */
  freshnessIn(db: Database, meta?: Record<string, string>, session?: SearchSession): IndexFreshness;
  /** The freshness with whether an indexer runs now (after the read). */
  withRunningFlag(f: IndexFreshness): IndexFreshness;
  /** The shipped code model's token neighbours (setting neighbour_terms), or null where this runtime has no code model. */
  tokenNeighbours?(): Promise<TokenNeighbours | null>;
}

/** Why the vector channel cannot run for a search (hybrid then answers keyword's results and says so). */
interface Unavailable {
  reason: string;
  hint: string;
}

/**
 * One request made ready outside the read transaction: checked, parsed once (or the reason it does
 * not parse, reported where the pipeline would have met it), its channels loaded, its query vector.
 */
export class PreparedSearch {
  constructor(
    private readonly searcher: Searcher,
    readonly req: SearchRequest,
    private readonly parsed: ParsedQuery | { error: unknown },
    /** The semantic modes: the semantic index, the query's vector and the text it is of (null: similar's chunk's own). */
    private readonly vector: { semantic: SemanticIndex; query: QueryVector; text: string | null } | null,
    /** A search over several indexes: the mode table with the keyword statistics of them all (channels/fts-global.ts). */
    private readonly keywordModes?: (modes: ModeTable) => ModeTable,
  ) {}

  /** The parsed query (throws the reason when it does not parse: an answer's error). */
  query(): ParsedQuery {
    if ('error' in this.parsed) throw this.parsed.error;
    return this.parsed;
  }

  /**
   * Inside the read transaction: the pipeline's context with this search's mode table — its vector
   * channel (the scan of the current generation, the query's vector; `source`: similar's chunk, whose
   * own vector is the query and which is never a hit) — or, when that cannot run, why (semantic fails
   * with it; hybrid answers keyword's results and says so).
   */
  context(db: Database, source?: { chunkId: number }): { ctx: SearchContext; unavailable?: Unavailable } {
    const { modes, unavailable } = this.vector ? vectorModes(this.vector, this.searcher.settings, db, this.req.mode, source, this.searcher.session) : {};
    return { ctx: this.searcher.context(this.keywordModes ? this.keywordModes(modes ?? DEFAULT_MODES) : modes), unavailable };
  }

  /**
   * The query's one ranked list (depth.ts), as far as `enough` needs it (inside the read
   * transaction): the ranking every page of this search is cut from.
   */
  rank(db: Database, enough: (list: readonly Candidate[]) => boolean): RankedResult {
    return rankList(this.context(db).ctx, this.req, enough, this.query()).result;
  }

  /** Ranks and renders one page (inside the read transaction; `source` as for context). */
  page(db: Database, range: PageRange, queryKey: string, source?: { chunkId: number }, defer?: (render: DeferredRender) => void): { page: SearchPage; session: SearchSession; unavailable?: Unavailable } {
    const { ctx, unavailable } = this.context(db, source);
    return { page: searchPage(ctx, this.req, range, queryKey, this.query(), defer), session: ctx.session, unavailable };
  }
}

/** Takes the renderer of a search's page by position (Searcher.search's `deferRender`); it answers null when the index changed since. */
export type DeferRender = (render: (at: readonly number[]) => Promise<SearchHit[] | null>) => void;

export class Searcher {
  readonly session: SearchSession;

  constructor(
    readonly store: IndexStore,
    private readonly host: SearcherHost,
  ) {
    const storage = store.storage;
    const prefetch = storage.prefetchRows && ((table: string, ids: readonly number[]) => storage.prefetchRows!(store.db, table, ids));
    // (A reader that reads ahead tokenizes a query's phrases in an in-memory database: SearchSession.prefetchDoclists.)
    this.session = new SearchSession(store.db, store.codec, prefetch, prefetch && (() => new store.engine.sqlite3.oo1.DB(':memory:') as Database));
  }

  get settings(): Settings {
    return this.host.settings;
  }

  /**
   * Before the read transaction: the request checked and parsed once, its glob matcher and channels
   * loaded, and for the semantic modes its query vector (made here where a remote provider makes
   * it). `vectorText`: the text the query vector is made of (similar: a snippet; null: a chunk's
   * own, given to page()); default the query.
   */
  async prepare(req: SearchRequest, vectorText?: string | null, keywordStats?: KeywordStats): Promise<PreparedSearch> {
    checkRequest(req);
    checkMode(this.host.settings, req.mode);
    let parsed: ParsedQuery | { error: unknown };
    try {
      parsed = parseRequest(this.host.settings, req);
    } catch (error) {
      parsed = { error };
    }
    await prepareSearch(req, 'error' in parsed ? undefined : parsed);
    if (!('error' in parsed)) await this.expand(parsed);
    let vector: { semantic: SemanticIndex; query: QueryVector; text: string | null } | null = null;
    if (req.mode === 'semantic' || req.mode === 'hybrid') {
      const semantic = await this.host.semantic();
      const text = vectorText === undefined ? req.query : vectorText;
      vector = { semantic, query: await semantic.prepare(text), text };
    }
    // Loaded only by a search over several indexes (a browser Worker's start never carries it).
    const keywordModes = keywordStats ? (await import('./channels/fts-global.ts')).withGlobalStats : null;
    return new PreparedSearch(this, req, parsed, vector, keywordModes && keywordStats ? (m) => keywordModes(m, keywordStats) : undefined);
  }

  /**
   * A search over several indexes (core/service/federation.ts) before it splits one candidate pool:
   * this index's keyword scores of the query's first pass and widening at the first depth's pool, with
   * the statistics of them all (channels/fts-global.ts firstPassOf) — or null when its first pass is
   * not the keyword channel's alone (another mode, a text query, a path filter) or it cannot run.
   */
  async firstPass(req: SearchRequest, keywordStats: KeywordStats): Promise<FirstPass | null> {
    const s = this.host.settings;
    let parsed: ParsedQuery;
    try {
      checkRequest(req);
      parsed = parseRequest(s, req);
    } catch {
      return null;
    }
    if (!keywordFirstPassOnly(req, parsed)) return null;
    const { firstPassOf } = await import('./channels/fts-global.ts');
    const session = this.session;
    return this.store.read(() => session.withPathFilter(null, () => firstPassOf(session, parsed, keywordStats, candidatePool(s.rank_depth), s.rank_depth, s.max_hits_per_file)));
  }

  /** A question's neighbour terms (setting neighbour_terms; neighbour-terms.ts), when the code model can be read. */
  private async expand(parsed: ParsedQuery): Promise<void> {
    const s = this.host.settings;
    if (s.neighbour_terms <= 0 || parsed.text || !this.host.tokenNeighbours || queryType(parsed) !== 'question') return;
    const model = await this.host.tokenNeighbours();
    if (model) parsed.neighbours = neighbourCandidates(parsed, model, { perWord: s.neighbour_terms, weight: s.neighbour_weight, floor: s.neighbour_floor });
  }

  /** The pipeline's context on this index with a mode table (default: the keyword, literal and regex rows). */
  context(modes?: ModeTable): SearchContext {
    return { session: this.session, settings: this.host.settings, modes };
  }

  /**
   * A search's answer (not remembered: the caller keeps its query log; `key` names its hit ids).
   * Runs in one read transaction: hits, counts and freshness all describe the same committed state.
   * `deferRender` (a search over several indexes): the hits unrendered (present.ts leanHits), and
   * the renderer of the page's hits by position given to it — it renders in a read transaction of
   * its own, null when the index generation moved since.
   */
  async search(req: SearchRequest, key = queryKey(req), t0 = Date.now(), keywordStats?: KeywordStats, deferRender?: DeferRender): Promise<SearchResponse> {
    const range = pageRange(req);
    const prepared = await this.prepare(req, undefined, keywordStats);
    const out = await this.store.read((db) => {
      const meta = readMeta(db);
      const defer = deferRender && ((render: DeferredRender) => deferRender((at) => this.store.read((d) => (readMeta(d).generation === meta.generation ? render(at) : null))));
      const { page, session, unavailable } = prepared.page(db, range, key, undefined, defer);
      // A first page with few hits names the skipped files whose path names the query.
      const skippedFiles = range.offset === 0 && !page.more && page.hits.length < range.limit ? session.withPathFilter(null, () => skippedFilesMatching(session, req.query)) : [];
      // The counts from the session's cache: the page has just checked the index generation.
      return { page, index: this.host.freshnessIn(db, meta, session), skipped: parseSkipped(meta.skipped_counts), skippedFiles, unavailable };
    });
    const res = searchResponse(req, out.page, this.host.withRunningFlag(out.index), out.skipped, t0);
    if (out.skippedFiles.length) {
      res.skipped_files = out.skippedFiles;
      res.hint = [res.hint, skippedFilesHint(out.skippedFiles)].filter(Boolean).join('; ');
    }
    if (out.unavailable) res.hint = [`vector channel unavailable (${out.unavailable.reason}): these are keyword results; ${out.unavailable.hint}`, res.hint].filter(Boolean).join('; ');
    return res;
  }

  /**
   * One hit explained: its chunk, and — with the request behind it (`req`, recalled or given) — its
   * rank, matched terms and scores within that search. Answers `invalid_hit_id` for a chunk id this
   * index never gave, `stale_hit` for one it no longer holds.
   */
  async explain(hitId: string, chunkId: number, req: SearchRequest | undefined): Promise<ExplainResponse> {
    const [{ explainChunk, loadChunk }, prepared] = await Promise.all([import('./explain.ts'), req ? this.prepare(req) : Promise.resolve(null)]);
    const codec = this.store.codec;
    const { result, index, everHad } = await this.store.read((db) => {
      const row = loadChunk(db, chunkId, codec);
      // The list the search's pages were cut from, as deep as it takes to reach the hit: its values are the ones it was ranked with.
      const ranked = row && prepared ? prepared.rank(db, (list) => list.some((c) => c.chunkId === chunkId)) : null;
      // Chunk ids only grow (AUTOINCREMENT): one above the highest ever given was never a hit here.
      const everHad = row !== undefined || chunkId <= Number(db.selectValue("SELECT seq FROM sqlite_sequence WHERE name = 'chunks'") ?? 0);
      return { result: row ? explainChunk(db, row, ranked, codec) : null, index: this.host.withRunningFlag(this.host.freshnessIn(db)), everHad };
    });
    if (!result && !everHad) {
      return { status: 'error', hit_id: hitId, index, error: { code: 'invalid_hit_id', message: `${hitId} is not a hit of this index (no chunk ${chunkId} was ever in it)` }, hint: 'pass a hit_id exactly as a search of this workspace returned it, or search again' };
    }
    if (!result) {
      return { status: 'error', hit_id: hitId, index, error: { code: 'stale_hit', message: `hit ${hitId} is no longer in the index (its file was re-indexed or removed)` }, hint: 'search again for fresh hit ids' };
    }
    const res: ExplainResponse = { status: 'ok', hit_id: hitId, explanation: result, index };
    if (!req) res.hint = 'the query behind this hit id is not remembered here; pass the query to see matched terms and scores';
    return res;
  }

  /**
   * One step of a host's idle work on this index, in one read transaction: the next item of a work
   * list made once per index generation by `list` (a new generation starts it over), or, when the
   * list is used up, the search cache filled with decoded files for at most `budgetMs`
   * (SearchSession.warmFiles; `done` when nothing is left). The host decides what the list holds
   * and what to do with an item (runtimes/browser/warm-up.ts: searches typed ahead).
   */
  idleStep<T>(key: string, list: (db: Database) => T[], budgetMs: number): Promise<{ item: T } | { done: boolean }> {
    return this.store.read((db) => {
      const session = this.session;
      const next = session.withPathFilter(null, () => session.cached(key, () => list(db))).shift();
      return next !== undefined ? { item: next } : { done: session.warmFiles(budgetMs) };
    });
  }
}

/** semantic and hybrid need the semantic channel: `mode_unavailable` (before anything is read) when it is off. */
export function checkMode(settings: Settings, mode: SearchRequest['mode']): void {
  if ((mode === 'semantic' || mode === 'hybrid') && !settings.semantic.enabled) {
    throw new HciError('mode_unavailable', `mode "${mode}" needs semantic search, which is off for this workspace`, MODE_UNAVAILABLE_HINT);
  }
}

/** Setting fusion_by_type in the fusion's terms. */
function byType(t: Settings['semantic']['fusion_by_type']): HybridOptions['byType'] {
  const out: NonNullable<HybridOptions['byType']> = {};
  for (const [k, v] of Object.entries(t ?? {})) out[k as FusionType] = { vectorWeight: v.vector_weight, guard: v.guard };
  return out;
}

/** Setting fusion_gate as the fusion reads it (undefined: off). */
function fusionGate(g: Settings['semantic']['fusion_gate']): HybridOptions['gate'] {
  if (!g || !(g.vector_gap > 0)) return undefined;
  return { vectorGap: g.vector_gap, keywordLead: g.keyword_lead, keywordAny: g.keyword_any, at: g.at, ...(g.guard !== undefined ? { guard: g.guard } : {}), ...(g.types ? { types: g.types } : {}) };
}

/**
 * The mode table with one search's vector channel, or why it cannot run: semantic mode fails with
 * `mode_unavailable`, hybrid answers keyword's results (the answer says so).
 */
function vectorModes(
  vector: { semantic: SemanticIndex; query: QueryVector; text: string | null },
  settings: Settings,
  db: Database,
  mode: SearchRequest['mode'],
  source?: { chunkId: number },
  session?: SearchSession,
): { modes?: ModeTable; unavailable?: Unavailable } {
  const vs = vector.semantic.vectorSearch(db, source ? null : vector.text, vector.query, source?.chunkId, session && ((sql) => session.arrays(sql)[0]));
  const s = settings.semantic;
  if (!vs.ok) {
    if (mode === 'semantic') throw new HciError('mode_unavailable', `semantic search cannot run: ${vs.reason}`, vs.hint);
    // Hybrid without vectors is the keyword search (the answer says so).
    return { modes: { ...DEFAULT_MODES, hybrid: DEFAULT_MODES.keyword }, unavailable: { reason: vs.reason, hint: vs.hint } };
  }
  const channel = vectorChannel({ knn: vs.knn, query: vs.query, model: modelKeyString(vs.model.key), minScore: s.min_vector_score, exclude: source ? new Set([source.chunkId]) : undefined });
  const cosines = s.keyword_cosines ? (ids: readonly number[]) => vs.knn.scores(vs.query, ids) : undefined;
  return { modes: semanticModes(channel, { keywordWeight: s.keyword_weight, vectorWeight: s.vector_weight, guard: s.guard, routing: s.routing, minVectorScore: s.min_vector_score, cosines, vectorRoles: s.vector_roles && session ? pathRoleFactors(session, settings) : undefined, agreement: s.vector_agreement, byType: byType(s.fusion_by_type), calibration: s.fusion_calibration, gate: fusionGate(s.fusion_gate) }) };
}

/**
 * The request against the contract's bounds (core/contract/limits.ts, the ones its schema declares),
 * for callers no schema has checked (the library, the CLI, the Worker): `invalid_request` naming the
 * field and what to do.
 */
export function checkRequest(req: SearchRequest): void {
  if (!req || typeof req.query !== 'string') throw new HciError('invalid_request', 'query must be a string', 'pass the words to look for, e.g. "GetCatalogItemsAsync"');
  if (req.query.length > QUERY_MAX_CHARS) throw new HciError('invalid_request', `query is ${req.query.length} characters; the limit is ${QUERY_MAX_CHARS}`, 'shorten the query');
  if (req.limit !== undefined && (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > SEARCH_LIMIT.max)) {
    throw new HciError('invalid_request', `limit must be an integer from 1 to ${SEARCH_LIMIT.max}`, `use the default (${SEARCH_LIMIT.default}) or page with next_cursor`);
  }
  if (req.max_tokens !== undefined && (!Number.isFinite(req.max_tokens) || req.max_tokens < MAX_TOKENS_MIN)) {
    throw new HciError('invalid_request', `max_tokens must be a number ≥ ${MAX_TOKENS_MIN}`, 'omit it for no budget');
  }
  if (req.mode !== undefined && !SEARCH_MODES.includes(req.mode)) {
    throw new HciError('invalid_request', `mode must be ${SEARCH_MODES.slice(0, -1).join(', ')} or ${SEARCH_MODES.at(-1)}`, 'omit it for keyword');
  }
  for (const flag of ['case_sensitive', 'whole_word'] as const) {
    if (req[flag] !== undefined && typeof req[flag] !== 'boolean') throw new HciError('invalid_request', `${flag} must be true or false`, flag === 'case_sensitive' ? 'omit it for smart case (case-sensitive when the pattern has an upper-case letter)' : 'omit it for the default (false)');
  }
}

export function parseSkipped(json: string | undefined): SkipCounts {
  try {
    return json ? (JSON.parse(json) as SkipCounts) : {};
  } catch {
    return {};
  }
}
