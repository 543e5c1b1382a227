// The depth tiers on hand-made rankings (core/search/depth.ts): a first page is the first tier's own
// ranking cut at its depth; a page past it keeps the first tier's positions and goes on with the next
// tier's other chunks, scaled to score no higher than the last one kept (factor deeper_tier); a tier
// that ranked no more than its depth ends the list; `more` says whether a deeper tier would list more.
// @lane unit
import { describe, it, expect } from 'vitest';
import { DEEPER_TIER, depthTiers, rankTiered } from '../core/search/depth.ts';
import type { Candidate, RankedResult } from '../core/search/candidates.ts';

const cand = (chunkId: number, score: number): Candidate => ({ chunkId, score, factors: [] }) as unknown as Candidate;

/** A ranking at each depth: chunks `order(depth)` with falling scores from `top(depth)`. */
function rankings(order: (depth: number) => number[], top: (depth: number) => number = () => 10) {
  const asked: number[] = [];
  const rankAt = (depth: number): RankedResult => {
    asked.push(depth);
    const ids = order(depth);
    return { ranked: ids.map((id, i) => cand(id, top(depth) - i * 0.01)), match: 'all', complete: ids.length, filtered: false, mode: 'keyword' } as unknown as RankedResult;
  };
  return { rankAt, asked };
}

const ids = (r: RankedResult) => r.ranked.map((c) => c.chunkId);
const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

describe('depth tiers', () => {
  it('grows 4x from rank_depth', () => {
    expect(depthTiers(50)).toEqual([50, 200, 800, 3200]);
    expect(depthTiers(8)).toEqual([8, 32, 128, 512]);
  });

  it('answers a first page from the first tier alone, cut at its depth, with more when it ranked past it', () => {
    const { rankAt, asked } = rankings((d) => range(1, d + 30));
    const t = rankTiered(rankAt, 50, (list) => list.length >= 8);
    expect(asked).toEqual([50]);
    expect(ids(t.result)).toEqual(range(1, 50));
    expect(t.more).toBe(true);
  });

  it('keeps the first tier\'s positions and goes on with the next tier\'s other chunks, scaled below the last kept', () => {
    // The deeper ranking orders differently: it puts chunk 1000 first and reverses the first tier's 50.
    const { rankAt, asked } = rankings((d) => (d === 50 ? range(1, 80) : [1000, ...range(1, 50).reverse(), ...range(51, 300)]), (d) => (d === 50 ? 10 : 99));
    const t = rankTiered(rankAt, 50, (list) => list.length >= 60);
    expect(asked).toEqual([50, 200]);
    const got = ids(t.result);
    expect(got.slice(0, 50)).toEqual(range(1, 50));
    expect(got.slice(50, 53)).toEqual([1000, 51, 52]);
    expect(got).toHaveLength(200);
    expect(new Set(got).size).toBe(200);
    const scores = t.result.ranked.map((c) => c.score);
    for (let i = 1; i < scores.length; i++) expect(scores[i]).toBeLessThanOrEqual(scores[i - 1]);
    expect(t.result.ranked[50].factors.map((f) => f.name)).toEqual([DEEPER_TIER]);
    expect(t.result.ranked[50].score).toBeCloseTo(t.result.ranked[49].score, 9);
    expect(t.more).toBe(true);
  });

  it('ends the list where a tier ranked no more than its depth, and at the last tier with its whole ranking', () => {
    const short = rankings((d) => (d === 50 ? range(1, 120) : range(1, 150)));
    const t = rankTiered(short.rankAt, 50, (list) => list.length >= 100);
    expect(short.asked).toEqual([50, 200]);
    expect(ids(t.result)).toEqual(range(1, 150));
    expect(t.more).toBe(false);
    const deep = rankings((d) => range(1, d * 2));
    const all = rankTiered(deep.rankAt, 50, () => false);
    expect(deep.asked).toEqual([50, 200, 800, 3200]);
    expect(ids(all.result)).toHaveLength(6400);
    expect(all.more).toBe(false);
    // Fewer matches than the first depth: one ranking, nothing more.
    const few = rankings(() => range(1, 12));
    const f = rankTiered(few.rankAt, 50, (list) => list.length >= 50);
    expect([few.asked, ids(f.result).length, f.more]).toEqual([[50], 12, false]);
  });
});
