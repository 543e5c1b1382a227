// Paging: which slice of the query's one ranked list (depth.ts) a request asks for (limit and cursor),
// and cutting a page to the answer's token budget. Owns the cursor format, the page size (its bounds
// are the contract's: core/contract/limits.ts), the literal channel's hit cap at a ranking depth and
// the token estimate; ranking happens before, rendering and wording in present.ts.
import { HciError } from '../platform.ts';
import type { SearchRequest } from './contract.ts';
import { SEARCH_LIMIT } from '../contract/limits.ts';

export const DEFAULT_LIMIT = SEARCH_LIMIT.default;

/**
 * Most chunks a literal or regex search collects before it stops checking files (in index order):
 * a pattern found all over the code base would otherwise read every file for one page.
 */
export const MAX_TEXT_HITS = 200;
/**
 * Fewest it collects: at a ranking depth of d (depth.ts: the tiers from setting rank_depth, 10, 40,
 * 160, 640) it collects 4 × d, at least this, at most MAX_TEXT_HITS — more than d below the largest
 * cap, so a run its cap stopped ranks more than its depth and the next tier goes on — so the first
 * 10 hits, at any limit, are ranked among the first 64 matching chunks, the next 30 among 160, the
 * rest among 200. Reading
 * 200 files' text cost a capped literal's first search 25-50 ms at 50k chunks, most of its time.
 */
export const MIN_TEXT_HITS = 64;

/** The slice of the ranked list a request asks for. */
export interface PageRange {
  offset: number;
  limit: number;
}

/** The range of a (validated) request: its limit, from the offset its cursor holds. Throws `invalid_cursor`. */
export function pageRange(req: Pick<SearchRequest, 'limit' | 'cursor'>): PageRange {
  return { offset: decodeCursor(req.cursor), limit: req.limit ?? DEFAULT_LIMIT };
}

/** The literal channel's hit cap for a ranking at `depth` (a function of the depth alone, never of the page). */
export function textHitCap(depth: number): number {
  return Math.min(MAX_TEXT_HITS, Math.max(MIN_TEXT_HITS, 4 * depth));
}

/** The cursor to the page starting at `offset` of the query's one ranked list. */
export function encodeCursor(offset: number): string {
  return `o${offset.toString(36)}`;
}

/**
 * The offset a cursor holds. (A cursor of the last version may carry `.<cap>`, the literal hit cap
 * its first page chose: still accepted, no longer needed — the cap follows the ranking depth.)
 */
export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^o([0-9a-z]{1,8})(?:\.([0-9a-z]{1,2}))?$/.exec(cursor);
  const textHits = m?.[2] === undefined ? undefined : parseInt(m[2], 36);
  if (!m || (textHits !== undefined && (textHits < 1 || textHits > MAX_TEXT_HITS))) {
    throw new HciError('invalid_cursor', `"${cursor}" is not a cursor from this search`, 'pass next_cursor exactly as returned, or omit it');
  }
  return parseInt(m[1], 36);
}

/** A rough token count of a JSON value (≈ 4 characters each). */
export function estimateTokens(x: unknown): number {
  return Math.ceil(JSON.stringify(x).length / 4);
}

/**
 * The leading items that fit in `budget` tokens after `used` (the rest of the answer); the first
 * item is always kept, so a tight budget still answers. `truncated` when any were cut.
 */
export function fitTokenBudget<T>(items: readonly T[], budget: number, used: number): { kept: T[]; truncated: boolean } {
  const kept: T[] = [];
  for (const item of items) {
    const cost = estimateTokens(item);
    if (kept.length > 0 && used + cost > budget) return { kept, truncated: true };
    kept.push(item);
    used += cost;
  }
  return { kept, truncated: false };
}
