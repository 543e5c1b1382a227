// Hand-made channel lists for the hybrid fusion's unit tests (fuse-*.test.ts): two channels that
// find nothing themselves, one candidate per file (chunk id = file id = n) with a given score, and
// the paraphrase fixture fuse-by-type and fuse-gate fuse (fuseFixture).
import { candidateOf, type Candidate } from '../../core/search/candidates.ts';
import type { Channel } from '../../core/search/channels/channel.ts';
import type { MatchKind } from '../../core/search/contract.ts';
import { hybridFusion, type ChannelRanking, type HybridOptions } from '../../core/search/fuse.ts';
import { parseQuery } from '../../core/search/query.ts';

export const fts: Channel = { name: 'fts', hitKind: 'text_fts', search: () => [] };
export const vector: Channel = { name: 'vector', hitKind: 'text_vector', search: () => [] };

/** File n's one chunk as `channel` found it, at `rank`, with `score` (path `src/F<n>.cs` unless given). */
export function cand(channel: Channel, n: number, score: number, rank: number, path = `src/F${n}.cs`): Candidate {
  const c = candidateOf({ row: { chunkId: n, fileId: n, ordinal: 0, path, hash: `h${n}`, lang: 'csharp', flags: 0, startLine: 1, endLine: 9, symbolKind: null, symbolName: null }, score }, channel, rank);
  c.score = score;
  return c;
}

/**
 * The fuse-by-type / fuse-gate fixture: keyword finds files 1..6 (final scores `kwScores`, match
 * `kwMatch`), the vector channel files 4, 7, 1, 8 (cosines `vecScores`); file 4 is a paraphrase's target.
 */
export function fuseFixture(query: string, o: HybridOptions, kwScores = [10, 9.5, 9, 8.8, 4, 1], vecScores = [0.9, 0.6, 0.55, 0.5], kwMatch: MatchKind = 'all') {
  const kw = kwScores.map((s, i) => cand(fts, i + 1, s, i + 1));
  const vec = [4, 7, 1, 8].map((n, i) => cand(vector, n, vecScores[i], i + 1));
  const rankings: ChannelRanking[] = [
    { channel: fts, ranked: kw, complete: kw.length, match: kwMatch, ran: true },
    { channel: vector, ranked: vec, complete: vec.length, match: 'similar', ran: true },
  ];
  const r = hybridFusion(o)(rankings, parseQuery(query), { needed: 10, maxHitsPerFile: 3 });
  return { ...r, order: r.ranked.map((c) => c.fileId) };
}
