// The hybrid fusion's keyword_cosines setting (core/search/fuse.ts): keyword's candidates that the
// vector list did not reach are fused with their own cosine (given by the search's cosine function)
// instead of none, the vector side normalised over every cosine the fusion reads; explain's values
// say where each came from. Without the setting the same lists fuse as before.
// @lane unit
import { describe, it, expect } from 'vitest';
import { hybridFusion, type ChannelRanking, type HybridOptions } from '../core/search/fuse.ts';
import { cand, fts, vector } from './helpers/fusion-fixture.ts';
import type { ParsedQuery } from '../core/search/query.ts';


// Keyword: files 1..5 (scores 10, 9, 8, 5, 1); vector: files 11, 12, 13 (cosines 0.9, 0.85, 0.5).
// Every cosine the search would give: keyword's files 1-3 0.3, file 4 0.8 (close to the query but
// outside the vector list's reach in this fixture), file 5 0.2.
const COSINE = new Map([[1, 0.3], [2, 0.3], [3, 0.3], [4, 0.8], [5, 0.2], [11, 0.9], [12, 0.85], [13, 0.5]]);

function fuse(o: Partial<HybridOptions>) {
  const kw = [10, 9, 8, 5, 1].map((s, i) => cand(fts, i + 1, s, i + 1));
  const vec = [0.9, 0.85, 0.5].map((s, i) => cand(vector, 11 + i, s, i + 1));
  const asked: number[][] = [];
  const rankings: ChannelRanking[] = [
    { channel: fts, ranked: kw, complete: kw.length, match: 'all', ran: true },
    { channel: vector, ranked: vec, complete: vec.length, match: 'similar', ran: true },
  ];
  const opts: HybridOptions = { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3, routing: true, minVectorScore: 0, ...o };
  const withLog = opts.cosines ? { ...opts, cosines: (ids: readonly number[]) => (asked.push([...ids]), opts.cosines!(ids)) } : opts;
  const r = hybridFusion(withLog)(rankings, {} as ParsedQuery, { needed: 10, maxHitsPerFile: 3 });
  return { ...r, asked, order: r.ranked.map((c) => c.fileId) };
}

const cosines = (ids: readonly number[]) => new Map(ids.filter((id) => COSINE.has(id)).map((id) => [id, COSINE.get(id)!]));

describe('hybrid fusion: keyword_cosines', () => {
  it('off: a keyword candidate outside the vector list has no vector value and falls behind the vector list\'s best', () => {
    const r = fuse({});
    expect(r.report.keyword_cosines).toBe(false);
    expect(r.order).toEqual([1, 2, 3, 11, 12, 4, 5, 13]);
    const f4 = r.ranked.find((c) => c.fileId === 4)!.fusion!;
    expect(f4).toMatchObject({ vector: 0, vectorFrom: 'none' });
    expect(f4.vectorCosine).toBeUndefined();
  });

  it('on: keyword\'s candidates get their own cosine, normalised with the vector list\'s over every cosine read', () => {
    const r = fuse({ cosines });
    expect(r.report.keyword_cosines).toBe(true);
    // Asked once, for keyword's candidates the vector list lacks (files 1-5), not for the list's own.
    expect(r.asked).toEqual([[1, 2, 3, 4, 5]]);
    // File 4 (keyword 4/9 normalised, cosine 0.8) now passes the vector list's best (vector only).
    expect(r.order).toEqual([1, 2, 3, 4, 11, 12, 13, 5]);
    const by = new Map(r.ranked.map((c) => [c.fileId, c.fusion!]));
    // min 0.2 (file 5), max 0.9 (file 11).
    expect(by.get(4)!.vector).toBeCloseTo((0.8 - 0.2) / 0.7, 12);
    expect(by.get(4)).toMatchObject({ vectorFrom: 'scored', vectorCosine: 0.8, keywordFrom: 'chunk' });
    expect(by.get(5)).toMatchObject({ vector: 0, vectorFrom: 'scored', vectorCosine: 0.2 });
    expect(by.get(11)).toMatchObject({ vector: 1, vectorFrom: 'chunk' });
    expect(by.get(11)!.vectorCosine).toBeUndefined();
    expect(by.get(13)!.vector).toBeCloseTo((0.5 - 0.2) / 0.7, 12);
    // The guard still holds keyword's first three files in keyword's order.
    expect(by.get(1)!.guarded && by.get(2)!.guarded && by.get(3)!.guarded).toBe(true);
  });

  it('on: a cosine below min_vector_score, or a chunk without a vector, is left as before', () => {
    const r = fuse({ cosines: (ids) => new Map(cosines(ids.filter((id) => id !== 4))), minVectorScore: 0.25 });
    const by = new Map(r.ranked.map((c) => [c.fileId, c.fusion!]));
    expect(by.get(4)).toMatchObject({ vector: 0, vectorFrom: 'none' });
    expect(by.get(5)).toMatchObject({ vector: 0, vectorFrom: 'none' });
    expect(by.get(1)!.vectorFrom).toBe('scored');
    expect(r.order.slice(3, 5)).toEqual([11, 12]);
  });
});
