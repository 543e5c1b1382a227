// The search pipeline, stage by stage: parse the query once (query.ts) → ask the mode's channels for
// candidates (channels/, modes.ts) → fuse their lists (fuse.ts) → rerank (rerank.ts: factors,
// per-file cap) → widen with a second pass while the page is short → page (page.ts) → present
// (present.ts). Owns the order of the stages, the candidate pool size, the match kind, and turning
// an unexpected SQL failure into `query_failed` (damage stays `index_corrupt`). Freshness, request
// validation and the read transaction belong to the caller (the workspace).
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { isCorruption } from '../index/store.ts';
import type { MatchKind, SearchRequest, SearchHit } from './contract.ts';
import type { Candidate, RankedResult, SearchPage } from './candidates.ts';
import type { ChannelList } from './fuse.ts';
import { compilePathFilter } from './filters.ts';
import { modeRow, routeMode, type ModeTable } from './modes.ts';
import type { PageRange } from './page.ts';
import { renderHits } from './present.ts';
import { parseQuery, type ParsedQuery } from './query.ts';
import { Reranker } from './rerank.ts';
import type { SearchSession } from './session.ts';

export interface SearchContext {
  session: SearchSession;
  settings: Settings;
  /** The mode table (default: modes.ts's DEFAULT_MODES). */
  modes?: ModeTable;
}

export type { RankedResult, SearchPage };

/** How many candidates each channel returns for a page that needs `needed` hits. */
function candidatePool(needed: number): number {
  return Math.min(2000, needed * 8 + 64);
}

function matchKind(complete: number, partial: number): MatchKind {
  return complete ? (partial ? 'all_then_any' : 'all') : partial ? 'any' : 'none';
}

/** Runs the query through every ranking stage; returns at least `needed` candidates when that many match. */
export function rankQuery(ctx: SearchContext, req: SearchRequest, needed: number): RankedResult {
  const parsed = parseQuery(req.query, { mode: req.mode, case_sensitive: req.case_sensitive, whole_word: req.whole_word, budget_ms: ctx.settings.literal_budget_ms });
  const filter = compilePathFilter({
    paths: [...(req.paths ?? []), ...parsed.paths],
    exts: [...(req.exts ?? []), ...parsed.exts],
    excludePaths: [...(req.exclude_paths ?? []), ...parsed.excludePaths],
  });
  const modeName = routeMode(req.mode, parsed);
  const mode = modeRow(modeName, ctx.modes);
  const settings = mode.perFileCap === false ? { ...ctx.settings, max_hits_per_file: Number.MAX_SAFE_INTEGER } : ctx.settings;
  const { session } = ctx;
  const pool = candidatePool(needed);
  try {
    return session.withPathFilter(filter, () => {
      const reranker = new Reranker(session, settings, parsed);
      const lists: ChannelList[] = mode.channels.map((channel) => ({ channel, hits: channel.search(session, parsed, pool) }));
      const complete = reranker.rank(mode.fuse(lists, parsed));
      const page = { kept: complete.length, needed, seen: new Set(complete.map((c) => c.chunkId)) };
      const wider: ChannelList[] = [];
      for (const channel of mode.channels) {
        const hits = channel.widen?.(session, parsed, pool, page);
        if (hits) wider.push({ channel, hits });
      }
      const partial = wider.length ? reranker.rank(mode.fuse(wider, parsed)) : [];
      return { parsed, mode: modeName, match: matchKind(complete.length, partial.length), ranked: [...complete, ...partial], complete: complete.length, filtered: filter !== null };
    });
  } catch (e) {
    // Damage is reported as such (the store maps it to index_corrupt with its location and hint).
    if (e instanceof HciError || isCorruption(e)) throw e;
    throw new HciError('query_failed', `the query could not run: ${(e as Error).message}`, 'report this: queries are escaped and should never fail');
  }
}

/** Ranks the query and renders the range's hits. Runs inside the caller's read transaction. */
export function searchPage(ctx: SearchContext, req: SearchRequest, range: PageRange, queryKey: string): SearchPage {
  const ranked = rankQuery(ctx, req, range.offset + range.limit);
  const end = range.offset + range.limit;
  return {
    ranked,
    range,
    hits: renderHits(ctx.session, ranked.ranked.slice(range.offset, end), range.offset + 1, ranked.parsed, queryKey),
    more: ranked.ranked.length > end,
  };
}
