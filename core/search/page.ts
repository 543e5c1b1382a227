// Paging: which slice of the ranked list a request asks for (limit and cursor), and cutting a page
// to the answer's token budget. Owns the cursor format, the page size (its bounds are the contract's:
// core/contract/limits.ts), the literal channel's hit cap a first page chooses (and its cursor keeps)
// and the token estimate; ranking happens before, rendering and wording in present.ts.
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
 * Fewest it collects for a first page: 4 × the page's limit, at least this (a page of 10 ranks the
 * best of the first 64 matching chunks, as the keyword channel's rerank sees its best 40-80), at most
 * MAX_TEXT_HITS; the page's cursor keeps the cap, so every later page ranks the same chunks. Reading
 * 200 files' text cost a capped literal's first search 25-50 ms at 50k chunks, most of its time.
 */
export const MIN_TEXT_HITS = 64;

/** The slice of the ranked list a request asks for. */
export interface PageRange {
  offset: number;
  limit: number;
  /** The literal channel's hit cap (textHitCap): the first page's, carried by the cursor (pageRange sets it). */
  textHits?: number;
}

/** The range of a (validated) request: its limit, from the offset its cursor holds. Throws `invalid_cursor`. */
export function pageRange(req: Pick<SearchRequest, 'limit' | 'cursor'>): PageRange {
  const limit = req.limit ?? DEFAULT_LIMIT;
  const { offset, textHits } = cursorParts(req.cursor);
  return { offset, limit, textHits: textHits ?? firstPageTextHits(limit) };
}

/** The literal channel's hit cap for a request: its cursor's (the first page's), else the first page's for its limit. */
export function textHitCap(req: Pick<SearchRequest, 'limit' | 'cursor'>): number {
  return pageRange(req).textHits!;
}

function firstPageTextHits(limit: number): number {
  return Math.min(MAX_TEXT_HITS, Math.max(MIN_TEXT_HITS, 4 * limit));
}

/** `textHits`: the literal channel's hit cap, kept for the next page (only a text query's cursor carries it). */
export function encodeCursor(offset: number, textHits?: number): string {
  return `o${offset.toString(36)}${textHits === undefined ? '' : `.${textHits.toString(36)}`}`;
}

export function decodeCursor(cursor: string | undefined): number {
  return cursorParts(cursor).offset;
}

function cursorParts(cursor: string | undefined): { offset: number; textHits?: number } {
  if (cursor === undefined || cursor === '') return { offset: 0 };
  const m = /^o([0-9a-z]{1,8})(?:\.([0-9a-z]{1,2}))?$/.exec(cursor);
  const textHits = m?.[2] === undefined ? undefined : parseInt(m[2], 36);
  if (!m || (textHits !== undefined && (textHits < 1 || textHits > MAX_TEXT_HITS))) {
    throw new HciError('invalid_cursor', `"${cursor}" is not a cursor from this search`, 'pass next_cursor exactly as returned, or omit it');
  }
  return { offset: parseInt(m[1], 36), ...(textHits === undefined ? {} : { textHits }) };
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
