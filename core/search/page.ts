// Paging: which slice of the ranked list a request asks for (limit and cursor), and cutting a page
// to the answer's token budget. Owns the cursor format, the page limits and the token estimate;
// ranking happens before, rendering and wording in present.ts.
import { HciError } from '../platform.ts';
import type { SearchRequest } from './contract.ts';

export const DEFAULT_LIMIT = 8;
export const MAX_LIMIT = 50;

/** The slice of the ranked list a request asks for. */
export interface PageRange {
  offset: number;
  limit: number;
}

/** The range of a (validated) request: its limit, from the offset its cursor holds. Throws `invalid_cursor`. */
export function pageRange(req: Pick<SearchRequest, 'limit' | 'cursor'>): PageRange {
  return { offset: decodeCursor(req.cursor), limit: req.limit ?? DEFAULT_LIMIT };
}

export function encodeCursor(offset: number): string {
  return `o${offset.toString(36)}`;
}

export function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined || cursor === '') return 0;
  const m = /^o([0-9a-z]{1,8})$/.exec(cursor);
  if (!m) throw new HciError('invalid_cursor', `"${cursor}" is not a cursor from this search`, 'pass next_cursor exactly as returned, or omit it');
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
