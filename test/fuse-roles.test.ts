// The hybrid fusion's vector_roles and vector_agreement settings (core/search/fuse.ts): with
// vector_roles a candidate's vector value is weighed by its path role factor (as keyword's final
// score already is; the real lookup is covered by semantic-index.test.ts), so a test or docs file the vector list ranks high no longer
// passes a source file on its cosine alone; with vector_agreement a file only the vector channel
// found enters only when its cosine reaches a share of the best cosine of keyword's first files.
// Without either setting the same lists fuse as before.
// @lane unit
import { describe, it, expect } from 'vitest';
import { hybridFusion, type ChannelRanking, type HybridOptions } from '../core/search/fuse.ts';
import type { Candidate } from '../core/search/candidates.ts';
import type { Channel } from '../core/search/channels/channel.ts';
import { cand as fixtureCand, fts, vector } from './helpers/fusion-fixture.ts';
import type { ParsedQuery } from '../core/search/query.ts';


/** Test files (role factor 0.3: the search's role lookup, core/search/vector-roles.ts, gives it by path). */
const TESTS = new Set([12, 5]);
const roles = () => (c: Candidate) => (TESTS.has(c.fileId) ? 0.3 : 1);

/** One chunk per file: chunk id = file id = n; the test files under test/. */
const cand = (channel: Channel, n: number, score: number, rank: number): Candidate => fixtureCand(channel, n, score, rank, TESTS.has(n) ? `test/F${n}Tests.cs` : `src/F${n}.cs`);

// Keyword: files 1..5 (scores 10, 9, 8, 5, 1); vector: files 12 (a test, cosine 0.9), 11 (0.85), 4 (0.6), 13 (0.4).
function fuse(o: Partial<HybridOptions>) {
  const kw = [10, 9, 8, 5, 1].map((s, i) => cand(fts, i + 1, s, i + 1));
  const vec = [[12, 0.9], [11, 0.85], [4, 0.6], [13, 0.4]].map(([n, s], i) => cand(vector, n, s, i + 1));
  const rankings: ChannelRanking[] = [
    { channel: fts, ranked: kw, complete: kw.length, match: 'all', ran: true },
    { channel: vector, ranked: vec, complete: vec.length, match: 'similar', ran: true },
  ];
  const opts: HybridOptions = { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3, routing: true, minVectorScore: 0, ...o };
  const r = hybridFusion(opts)(rankings, {} as ParsedQuery, { needed: 10, maxHitsPerFile: 3 });
  return { ...r, order: r.ranked.map((c) => c.fileId), by: new Map(r.ranked.map((c) => [c.fileId, c.fusion!])) };
}

describe('hybrid fusion: vector_roles', () => {
  it('off: the test file the vector list ranks first passes keyword\'s fourth file', () => {
    const r = fuse({});
    expect(r.report.vector_roles).toBeUndefined();
    expect(r.order).toEqual([1, 2, 3, 4, 12, 11, 5, 13]);
    expect(r.by.get(12)!.vector).toBe(1);
  });

  it('on: the test file\'s vector value is weighed by its role factor and it falls behind the source files', () => {
    const r = fuse({ vectorRoles: roles });
    expect(r.report.vector_roles).toBe(true);
    expect(r.by.get(12)!.vector).toBeCloseTo(0.3, 12);
    expect(r.by.get(11)!.vector).toBeCloseTo((0.85 - 0.4) / 0.5, 12);
    expect(r.order).toEqual([1, 2, 3, 4, 11, 12, 5, 13]);
    // The guard holds keyword's first three files in place.
    expect([1, 2, 3].every((n) => r.by.get(n)!.guarded)).toBe(true);
  });
});

describe('hybrid fusion: vector_agreement', () => {
  it('a vector-only file under the share of keyword\'s top files\' best cosine does not enter; one above it does', () => {
    // Keyword's files in the vector list: file 4 (0.6). Bar at 0.9: 0.54 — file 13 (0.4) stays out, 11 and 12 enter.
    const r = fuse({ agreement: 0.9 });
    expect(r.report.vector_agreement).toBe(0.9);
    // (The vector side's min-max now runs over 0.6-0.9: file 4's vector value is 0, 11's 0.25 / 0.3.)
    expect(r.order).toEqual([1, 2, 3, 12, 11, 4, 5]);
    expect(r.by.has(13)).toBe(false);
  });

  it('no keyword top file in the vector list: no vector-only file enters, keyword\'s files keep the vector values they have', () => {
    const kw = [10, 9].map((s, i) => cand(fts, i + 1, s, i + 1));
    const vec = [[11, 0.9], [2, 0.5]].map(([n, s], i) => cand(vector, n, s, i + 1));
    const r = hybridFusion({ keywordWeight: 0.65, vectorWeight: 0.35, guard: 0, routing: true, minVectorScore: 0, agreement: 0.9 })([
      { channel: fts, ranked: kw, complete: 2, match: 'all', ran: true },
      { channel: vector, ranked: vec, complete: 2, match: 'similar', ran: true },
    ], {} as ParsedQuery, { needed: 10, maxHitsPerFile: 3 });
    // File 2 is keyword's second and in the vector list: the bar is 0.45, and 11 (0.9) enters (fused 0.35, file 2 0).
    expect(r.ranked.map((c) => c.fileId)).toEqual([1, 11, 2]);
    const lone = hybridFusion({ keywordWeight: 0.65, vectorWeight: 0.35, guard: 0, routing: true, minVectorScore: 0, agreement: 0.9 })([
      { channel: fts, ranked: [cand(fts, 1, 10, 1)], complete: 1, match: 'all', ran: true },
      { channel: vector, ranked: [cand(vector, 11, 0.9, 1)], complete: 1, match: 'similar', ran: true },
    ], {} as ParsedQuery, { needed: 10, maxHitsPerFile: 3 });
    expect(lone.ranked.map((c) => c.fileId)).toEqual([1]);
  });
});
