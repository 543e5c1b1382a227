// The search pipeline, stage by stage: parse the query once (query.ts) → expand it with the
// repository's own identifiers (expand.ts; not a text query) and, with setting learned_terms, a
// question's rare words with the name parts its doc comments link them to (learned-terms.ts), and
// with unnamed_term_weight / weak_term_weight each word's weight (term-weights.ts) → route it to a mode (modes.ts
// routeMode: `re:`, quoted literals and mode literal/regex go to the literal channel) → ask the mode's
// channels for candidates (channels/, modes.ts) → fuse their lists (fuse.ts) → rerank (rerank.ts: factors,
// per-file cap) → widen with a second pass while the ranking is short → the query's one ranked list
// (depth.ts: ranked at a fixed depth, deeper tiers for deep pages) → page (page.ts) → present
// (present.ts). Owns the order of the stages, the candidate pool size, the match kind, and turning
// an unexpected SQL failure into `query_failed` (damage stays `index_corrupt`). Preparing a search
// (checked, parsed once, its channels and query vector ready), freshness and the read transaction
// belong to the caller (searcher.ts).
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { isCorruption, isIoError } from '../index/store.ts';
import { resultCode } from '../sqlite/connection.ts';
import type { MatchKind, SearchMode, SearchRequest, SearchHit } from './contract.ts';
import { candidateOf, type Candidate, type RankedResult, type SearchPage } from './candidates.ts';
import { findDeclarations } from './declarations.ts';
import { definitionWiden } from './definition-widen.ts';
import { agreeScores, scaleBelow } from './placement.ts';
import { headCount, splitAtCap } from './file-tiers.ts';
import { queryType } from './query-type.ts';
import { AFTER_COMPLETE, RERANK_POOLS, type PassPools } from './rerank.ts';
import { identityFusion, type ChannelList, type ChannelRanking } from './fuse.ts';
import { compilePathFilter, prepareRequestGlobs } from './filters.ts';
import { DEFAULT_MODES, modeRow, routeMode, type ModeRow, type ModeTable } from './modes.ts';
import { textHitCap, type PageRange } from './page.ts';
import { rankTiered, type TieredRanking } from './depth.ts';
import { leanHits, renderHits } from './present.ts';
import { parseQuery, type ParsedQuery } from './query.ts';
import { expandQuery } from './expand.ts';
import { learnedExpansion, learnedTermsOf } from './learned-terms.ts';
import { withTermWeights } from './term-weights.ts';
import { Reranker } from './rerank.ts';
import type { SearchSession } from './session.ts';

export interface SearchContext {
  session: SearchSession;
  settings: Settings;
  /** The mode table (default: modes.ts's DEFAULT_MODES). */
  modes?: ModeTable;
}

export type { RankedResult, SearchPage };

/** How many candidates each channel returns for a ranking at depth `depth` (depth.ts). */
export function candidatePool(depth: number): number {
  return Math.min(2000, depth * 8 + 64);
}

/**
 * The deepest pool a short page asks for (rankPasses): a query whose best few hundred chunks all lie
 * in one or two files (`MudDataGrid`: every chunk of MudDataGrid.razor.cs holds it in its path) asks
 * again, 4x deeper each time, until the ranking holds more hits than the page needs or the channels
 * run out of matches.
 */
export const MAX_POOL = 8192;

function matchKind(complete: number, partial: number): MatchKind {
  return complete ? (partial ? 'all_then_any' : 'all') : partial ? 'any' : 'none';
}

/**
 * Partial matches rank after every complete one (`partial_matches = "after_complete"`): their scores
 * are scaled by one factor so the best of them scores no higher than the last complete match, and
 * the scores shown keep the rank order. Order within the partial matches is unchanged.
 */
function calibrateAfter(complete: readonly Candidate[], partial: Candidate[]): Candidate[] {
  scaleBelow(partial, complete.length ? complete[complete.length - 1].score : Infinity, AFTER_COMPLETE);
  return partial;
}

/**
 * The request's query parsed as the pipeline reads it (its mode, case and word options, the literal
 * budget; the literal hit cap is the ranking depth's: rankQuery). Throws on a query that cannot be read.
 */
export function parseRequest(settings: Settings, req: SearchRequest): ParsedQuery {
  return parseQuery(req.query, { mode: req.mode, case_sensitive: req.case_sensitive, whole_word: req.whole_word, budget_ms: settings.literal_budget_ms, change_words: settings.change_words });
}

/** Whether the request or its query narrows the files searched (paths, extensions, kinds left out). */
export function pathFiltered(req: SearchRequest, parsed: ParsedQuery): boolean {
  return [req.paths, req.exts, req.exclude_paths, req.exclude_kinds, parsed.paths, parsed.exts, parsed.excludePaths].some((f) => f?.length);
}

/**
 * Whether the first pass is the keyword channel's alone over every file (keyword mode, no text
 * patterns, no path filter): what a search over several indexes may split one candidate pool by
 * (core/service/federation.ts, Searcher.firstPass).
 */
export function keywordFirstPassOnly(req: SearchRequest, parsed: ParsedQuery): boolean {
  return (req.mode ?? 'keyword') === 'keyword' && !parsed.text && !pathFiltered(req, parsed);
}

/**
 * Before the read transaction: loads the glob matcher the request's filters need and lets the
 * channels of the mode the parsed query is routed to do their asynchronous preparation
 * (Channel.prepare: the literal channel loads its code, and the regex engine when a pattern needs
 * it), so that rankQuery, which runs synchronously inside the transaction, finds them ready; a
 * keyword search loads nothing. The semantic modes' channels are built per search (searcher.ts: its
 * query vector). `parsed` absent: the query does not parse (rankQuery reports that), and only the
 * request's own filters are prepared.
 */
export async function prepareSearch(req: SearchRequest, parsed: ParsedQuery | undefined): Promise<void> {
  await prepareRequestGlobs(req, parsed);
  if (!parsed) return;
  const row = DEFAULT_MODES[routeMode(req.mode, parsed)];
  if (row) await Promise.all(row.channels.map((c) => c.prepare?.(parsed)));
}

/**
 * Runs the query through every ranking stage at one depth (`needed`: depth.ts's tiers; never a
 * page's offset + limit); returns at least `needed` candidates when that many match, and more when
 * more match. `written`: the query as parseRequest read it, when the caller has it already.
 */
export function rankQuery(ctx: SearchContext, req: SearchRequest, needed: number, written: ParsedQuery = parseRequest(ctx.settings, req)): RankedResult {
  // A text query collects matches up to the depth's hit cap (page.ts), the same for every page. (Set
  // on the search's own parse, as the literal channel's prepare sets its case: parsed once, ranked
  // at one depth at a time.)
  if (written.text) written.text.maxHits = textHitCap(needed);
  const filter = compilePathFilter({
    paths: [...(req.paths ?? []), ...written.paths],
    exts: [...(req.exts ?? []), ...written.exts],
    excludePaths: [...(req.exclude_paths ?? []), ...written.excludePaths],
    excludeKinds: req.exclude_kinds,
  });
  const routed = routeMode(req.mode, written);
  const fallsBack = ctx.settings.quoted_literal_fallback && literalFallsBack(req, written);
  const asWords = (fallback: NonNullable<RankedResult['fallback']>): RankedResult =>
    ({ ...rankRouted(ctx, req, { ...written, text: null }, req.mode ?? 'keyword', filter, needed), fallback });
  let result: RankedResult;
  try {
    result = rankRouted(ctx, req, written, routed, filter, needed);
  } catch (e) {
    // The same words when the exact-text check ran out of its time budget (no trigram index on a large
    // repository: `@page "/orders/drafts"` reads every file): the words still answer, the hint says
    // the quoted text was not checked everywhere. A literal or regex search asked for keeps its error.
    if (fallsBack && e instanceof HciError && e.code === 'search_timeout') return asWords('quoted_literal_timeout');
    throw e;
  }
  // Quoted literals among other words (a pasted commit subject or error message: `Pager shows "0-0 of 0"`)
  // that no chunk holds all together: the words are searched in the mode asked instead (keyword by
  // default; setting quoted_literal_fallback; the answer's mode says which one answered).
  if (result.ranked.length === 0 && fallsBack) return asWords('quoted_literal_not_found');
  // Fewer chunks hold the quoted text with the other words than the page needs: the page is filled
  // with the words' hits, after every exact one (a page is full whenever more matches; issue 32).
  if (fallsBack && result.ranked.length < needed) return { ...withWordsAfter(result, asWords('quoted_literal_filled')), queryType: queryType(result.parsed) };
  return { ...result, queryType: queryType(result.parsed) };
}

/**
 * The exact-text hits, then the words' hits that are not among them, scaled (factor
 * `after_quoted_text`) so the best of them scores no higher than the last exact hit.
 */
function withWordsAfter(exact: RankedResult, words: RankedResult): RankedResult {
  const have = new Set(exact.ranked.map((c) => c.chunkId));
  const rest = words.ranked.filter((c) => !have.has(c.chunkId));
  if (!rest.length) return exact;
  scaleBelow(rest, exact.ranked[exact.ranked.length - 1].score, AFTER_QUOTED_TEXT);
  return { ...exact, ranked: [...exact.ranked, ...rest], match: 'all_then_any', fallback: 'quoted_literal_filled' };
}

const AFTER_QUOTED_TEXT = 'after_quoted_text';

/** A keyword, hybrid or semantic query routed to the literal channel by quoted literals next to other words. */
function literalFallsBack(req: SearchRequest, q: ParsedQuery): boolean {
  return req.mode !== 'literal' && req.mode !== 'regex' && q.text?.reason === 'quoted' && q.text.patterns.length > 1 && q.clauses.length > 0;
}

/** A question's learned terms (setting learned_terms; learned-terms.ts), unless the model's neighbours expand it already. */
function withLearnedTerms(ctx: SearchContext, q: ParsedQuery): ParsedQuery {
  const s = ctx.settings;
  if (!(s.learned_terms > 0) || q.neighbours || q.text) return q;
  const { session } = ctx;
  const most = Math.floor(s.learned_rare * session.chunkCount());
  const rare = (token: string) => Number(session.value('SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)', [`"${token}"`, most + 1])) <= most;
  const learned = learnedExpansion(q, session.cached('learned-terms', () => learnedTermsOf(session.db, session.codec)), { perWord: s.learned_terms, weight: s.learned_weight, floor: s.learned_floor, rare });
  return learned ? { ...q, neighbours: learned } : q;
}

function rankRouted(ctx: SearchContext, req: SearchRequest, written: ParsedQuery, modeName: SearchMode, filter: ReturnType<typeof compilePathFilter>, needed: number): RankedResult {
  const mode = modeRow(modeName, ctx.modes);
  // Text matches are listed like grep: every match of a file, in score order (no per-file tiers).
  const rankCtx = mode.perFileCap === false ? { ...ctx, settings: { ...ctx.settings, max_hits_per_file: Number.MAX_SAFE_INTEGER, same_file_factor: 1 } } : ctx;
  const { session } = ctx;
  const pool = candidatePool(needed);
  try {
    return session.withPathFilter(filter, () => {
      // A text query (literal channel) matches patterns, not words: nothing to expand.
      const weighed = written.text ? written : withTermWeights(session, ctx.settings, withLearnedTerms(ctx, expandQuery(session, written)));
      const parsed = ctx.settings.near_complete !== 'off' && !weighed.text ? { ...weighed, nearComplete: ctx.settings.near_complete } : weighed;
      const capped = ctx.settings.pool_file_cap > 0 ? { poolFileCap: ctx.settings.pool_file_cap } : {};
      if (!mode.fuseRanked) return { parsed, mode: modeName, ...rankPasses(rankCtx, mode, parsed, pool, needed), filtered: filter !== null, ...capped };
      // Late fusion: each channel ranked exactly as if it ran alone, then the rankings fused.
      const asked = mode.route?.(parsed) ?? mode.channels;
      const rankings: ChannelRanking[] = mode.channels.map((channel) => {
        if (!asked.includes(channel)) return { channel, ranked: [], complete: 0, match: 'none', ran: false };
        if (mode.unranked?.includes(channel)) {
          const ranked = identityFusion([{ channel, hits: channel.search(session, parsed, mode.unrankedPool?.(needed) ?? pool) }], parsed);
          return { channel, ranked, complete: ranked.length, match: ranked.length ? 'similar' : 'none', ran: true };
        }
        return { channel, ...rankPasses(ctx, { channels: [channel], fuse: identityFusion }, parsed, pool, needed), ran: true };
      });
      const fused = mode.fuseRanked(rankings, parsed, { needed, maxHitsPerFile: ctx.settings.max_hits_per_file });
      // The guard orders beyond the fused scores: the scores are made to agree with the order.
      return { parsed, mode: modeName, match: fused.match, ranked: agreeScores(fused.ranked), complete: fused.complete, filtered: filter !== null, fusion: fused.report, ...capped };
    });
  } catch (e) {
    // Damage is reported as such (the store maps it to index_corrupt with its location and hint).
    if (e instanceof HciError || isCorruption(e) || isIoError(e)) throw e;
    const rc = resultCode(e);
    throw new HciError('query_failed', rc === undefined ? `the query could not run: ${(e as Error).message}` : `the query could not run (SQLite result code ${rc})`, 'report this: queries are escaped and should never fail');
  }
}

type Passes = { match: MatchKind; ranked: Candidate[]; complete: number };

/**
 * A mode's channels asked, fused before rerank, ranked, then widened while the page is short; with
 * `partial_matches = "by_score"` complete and partial matches compete on one score. When the
 * ranking's head (a file's first max_hits_per_file chunks, file-tiers.ts) holds no more hits than
 * the page needs while a channel returned all it was asked for (one file's chunks filled the pool),
 * it is done again with a pool 4x deeper (up to MAX_POOL): the page lists distinct files whenever
 * enough match, is full whenever enough chunks match, and `more` (a next cursor) is true whenever
 * more do (nothing is dropped).
 */
function rankPasses(ctx: SearchContext, mode: ModeRow, parsed: ParsedQuery, pool: number, needed: number): Passes {
  for (;;) {
    const { saturated, ...passes } = rankPassesAt(ctx, mode, parsed, pool, needed);
    if (headCount(passes.ranked, ctx.settings.max_hits_per_file) > needed || !saturated || pool >= MAX_POOL) return passes;
    pool = Math.min(MAX_POOL, pool * 4);
  }
}

function rankPassesAt(ctx: SearchContext, mode: ModeRow, parsed: ParsedQuery, pool: number, needed: number): Passes & { saturated: boolean } {
  const { session } = ctx;
  const reranker = new Reranker(session, ctx.settings, parsed);
  const cap = ctx.settings.pool_file_cap;
  const asked = cap > 0 ? pool * POOL_CAP_DEPTH : pool;
  const raw: ChannelList[] = mode.channels.map((channel) => ({ channel, hits: channel.search(session, parsed, asked) }));
  const lists = cap > 0 ? raw.map((l) => ({ channel: l.channel, hits: capPool(l.hits, cap, pool) })) : raw;
  const first = mode.fuse(lists, parsed);
  const page = { kept: splitAtCap(first, ctx.settings.max_hits_per_file).head.length, needed, seen: new Set(first.map((c) => c.chunkId)) };
  const wider: ChannelList[] = [];
  let widerFull = false;
  for (const channel of mode.channels) {
    const hits = channel.widen?.(session, parsed, asked, page);
    if (!hits) continue;
    widerFull ||= hits.length + page.seen.size >= asked;
    wider.push({ channel, hits: cap > 0 ? capPool(hits, cap, pool) : hits });
  }
  // A channel that returned its whole pool may hold more (a wider pass's list leaves out the first
  // pass's chunks: it may have been full when it and those together reach the pool).
  const saturated = raw.some((l) => l.hits.length >= asked) || widerFull;
  // No channel widened (more chunks hold every word than the depth): a query identifier's best holders
  // join as partial matches all the same (definition-widen.ts; setting definition_widen).
  // (Near-complete widening on `always` widens a page complete matches fill: the identifier's holders join too.)
  if (!wider.length || (parsed.nearComplete === 'always' && page.kept > needed)) {
    const channel = mode.channels.find((c) => c.scoreChunks);
    const hits = channel && definitionWiden(session, parsed, channel, ctx.settings.definition_widen, page.seen);
    if (channel && hits) wider.push({ channel, hits });
  }
  // A search over several indexes: each pass's share of the union's text-signal pools (channels/fts-global.ts), read after the channels ran.
  const pools = session.duringRun<PassPools>(RERANK_POOLS);
  const byScore = ctx.settings.partial_matches === 'by_score';
  // A channel that matches no terms (vectors) finds "similar" chunks, not term matches.
  const similarOnly = mode.channels.every((c) => c.hitKind === 'text_vector');
  const done = (ranked: Candidate[], complete: number, partial = ranked.length - complete) =>
    ({ match: similarOnly ? (ranked.length ? 'similar' : 'none') as MatchKind : matchKind(complete, partial), ranked, complete, saturated });
  // The declarations of the query's names join the pass they are ranked in (both passes when they
  // compete on one score; a declaration's chunk outside them was scored by the channel).
  const declared = (cands: Candidate[]) => withDeclarations(session, mode, parsed, reranker, cands, page.seen);
  if (!wider.length) {
    const ranked = reranker.rank(declared(first), byScore ? pools?.both : pools?.first);
    return done(ranked, ranked.filter((c) => page.seen.has(c.chunkId)).length);
  }
  if (ctx.settings.partial_matches === 'by_score') {
    // One ranking over both passes. `complete` counts the chunks that hold every term, also those the
    // per-file cap then drops (a file's two better partial chunks can hide its complete one): the
    // match is still all_then_any.
    const ranked = reranker.rank(declared([...first, ...mode.fuse(wider, parsed)]).sort((a, b) => b.base - a.base), pools?.both);
    return done(ranked, page.kept, ranked.filter((c) => !page.seen.has(c.chunkId)).length);
  }
  const complete = reranker.rank(declared(first), pools?.first);
  return done([...complete, ...calibrateAfter(complete, reranker.rank(mode.fuse(wider, parsed), pools?.wider))], complete.length);
}

/** How much deeper the channels are asked when setting pool_file_cap thins their lists. */
const POOL_CAP_DEPTH = 4;

/**
 * Setting pool_file_cap: a channel's hits in its order, each file's first `cap` only, up to `pool`:
 * a file's many chunks no longer fill the pool, so files further down the list reach rerank (issue
 * 32: bench/results/miss-anatomy-rank14.md).
 */
export function capPool<T extends { row: { fileId: number } }>(hits: readonly T[], cap: number, pool: number): T[] {
  const per = new Map<number, number>();
  const out: T[] = [];
  for (const h of hits) {
    if (out.length >= pool) break;
    const n = per.get(h.row.fileId) ?? 0;
    if (n >= cap) continue;
    per.set(h.row.fileId, n + 1);
    out.push(h);
  }
  return out;
}

/**
 * Definition-first (declarations.ts): the declarations of the query's names among the candidates'
 * files go to the reranker, and a declaration's chunk the pool did not reach joins the candidates,
 * scored by the first of the mode's channels that can score given chunks (keyword: FTS).
 */
function withDeclarations(session: SearchSession, mode: ModeRow, parsed: ParsedQuery, reranker: Reranker, cands: Candidate[], complete: Set<number>): Candidate[] {
  if (!reranker.declarationNames.length || !cands.length) return cands;
  const channel = mode.channels.find((c) => c.scoreChunks);
  if (!channel) return cands;
  const decls = findDeclarations(session, reranker.declarationNames, cands);
  if (!decls.length) return cands;
  reranker.declare(decls);
  const have = new Set(cands.map((c) => c.chunkId));
  const missing = [...new Set(decls.map((d) => d.chunkId))].filter((id) => !have.has(id));
  if (!missing.length) return cands;
  const added = channel.scoreChunks!(session, parsed, missing);
  // One that holds every term counts as a complete match, as the first pass's do.
  for (const h of added) if (h.detail?.terms === 'all') complete.add(h.row.chunkId);
  return [...cands, ...added.map((h) => candidateOf(h, channel, 0))];
}

/**
 * The query's one ranked list (depth.ts), as far as `enough` needs it: ranked at the depth of setting
 * rank_depth, and deeper tiers for positions past it. `parsed` as for rankQuery.
 */
export function rankList(ctx: SearchContext, req: SearchRequest, enough: (list: readonly Candidate[]) => boolean, parsed: ParsedQuery = parseRequest(ctx.settings, req)): TieredRanking {
  return rankTiered((depth) => rankQuery(ctx, req, depth, parsed), ctx.settings.rank_depth, enough);
}

/** Renders some of a page's hits afterwards (their positions in the page), in a read transaction of the same generation. */
export type DeferredRender = (at: readonly number[]) => SearchHit[];

/**
 * Ranks the query and renders the range's hits. Runs inside the caller's read transaction. `parsed` as for rankQuery.
 * `defer` (a search over several indexes, core/service/federation.ts): the hits unrendered (leanHits:
 * ids, scores, keys) and `defer` given the page's renderer, for the hits the merged page keeps.
 */
export function searchPage(ctx: SearchContext, req: SearchRequest, range: PageRange, queryKey: string, parsed?: ParsedQuery, defer?: (render: DeferredRender) => void): SearchPage {
  const end = range.offset + range.limit;
  // (Whether more follow the page: a tier cut at its depth has more, a deeper one would list them.)
  const { result: ranked, more } = rankList(ctx, req, (list) => list.length >= end, parsed);
  const cands = ranked.ranked.slice(range.offset, end);
  if (defer) defer((at) => renderHits(ctx.session, at.map((i) => cands[i]), range.offset + 1, ranked.parsed, queryKey));
  return {
    ranked,
    range,
    hits: defer ? leanHits(cands, range.offset + 1, queryKey) : renderHits(ctx.session, cands, range.offset + 1, ranked.parsed, queryKey),
    more: more || ranked.ranked.length > end,
  };
}
