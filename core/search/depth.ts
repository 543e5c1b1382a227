// The ranking depth: one ranked list per query, whatever page is asked for. A query is ranked at a
// fixed candidate depth (setting `rank_depth`, default 10: a default page (8) or one of 10 is one
// ranking; every page, at any limit, is a slice of the same list, so an evaluation at limit 50
// measures the order an agent sees at the default limit) — never at the page's offset + limit, which made the first hits
// depend on the limit asked for (bench/results/hybrid-limit-dependence.md: the pool, the per-file
// widening, the hybrid fusion's min-max depth and the literal hit cap all followed the page). A page
// reaching past that depth is served from depth tiers that grow DEPTH_GROWTH-fold: each tier ranks
// the query again, deeper, and fixes the positions up to its depth after those the shallower tiers
// fixed (its other chunks, scaled by one factor `deeper_tier` so scores never rise down the list).
// The list is a function of the query alone: a cursor's next page continues the page before it (no
// hit repeats, none is skipped), and explain finds a hit in the very ranking it was shown from.
// Owns the tiers and that list; ranking at one depth is the pipeline's (pipeline.ts rankQuery).
import type { Candidate, RankedResult } from './candidates.ts';
import { scaleBelow } from './placement.ts';

/** How much deeper each tier ranks than the one before (the pipeline's short-page widening grows 4x too). */
export const DEPTH_GROWTH = 4;
/** Tiers at most: the last one's whole ranking is listed (10, 40, 160, 640: 160 positions fixed before it). */
export const DEPTH_TIERS = 4;
/** The factor a deeper tier's hits get so that the best of them scores no higher than the last hit fixed before them. */
export const DEEPER_TIER = 'deeper_tier';

/** The depths a query is ranked at, shallowest first (`first`: setting rank_depth). */
export function depthTiers(first: number): number[] {
  return Array.from({ length: DEPTH_TIERS }, (_, k) => first * DEPTH_GROWTH ** k);
}

export interface TieredRanking {
  /** The ranking's fields (match, fusion, …) of the deepest tier asked, with `ranked` the list so far. */
  result: RankedResult;
  /** Whether the query matches more than `result.ranked` holds (a deeper tier would list them). */
  more: boolean;
}

/**
 * The query's one ranked list, as far as `enough` needs it: `rankAt(depth)` ranks the query at one
 * depth (at least `depth` candidates when that many match, more when more match); tiers are asked,
 * shallowest first, until `enough(list)` holds or a tier's ranking holds no more than its depth (it
 * ranked every match) or the last tier is reached (its whole ranking is listed).
 */
export function rankTiered(rankAt: (depth: number) => RankedResult, first: number, enough: (list: readonly Candidate[]) => boolean): TieredRanking {
  const tiers = depthTiers(first);
  const list: Candidate[] = [];
  const listed = new Set<number>();
  for (let k = 0; ; k++) {
    const depth = tiers[k];
    const r = rankAt(depth);
    const done = k === tiers.length - 1 || r.ranked.length <= depth;
    if (k === 0 && (done || enough(r.ranked.slice(0, depth)))) {
      // The common case, a first page: the first tier's own ranking, cut at its depth unless it is the whole list.
      return { result: done ? r : { ...r, ranked: r.ranked.slice(0, depth) }, more: !done };
    }
    const rest = r.ranked.filter((c) => !listed.has(c.chunkId));
    const take = done ? rest : rest.slice(0, Math.max(0, depth - list.length));
    if (list.length) scaleBelow(take, list[list.length - 1].score, DEEPER_TIER);
    for (const c of take) {
      listed.add(c.chunkId);
      list.push(c);
    }
    if (done || enough(list)) return { result: { ...r, ranked: list }, more: !done };
  }
}
