// Hand-made channel lists for the hybrid fusion's unit tests (fuse-*.test.ts): two channels that
// find nothing themselves, and one candidate per file (chunk id = file id = n) with a given score.
import { candidateOf, type Candidate } from '../../core/search/candidates.ts';
import type { Channel } from '../../core/search/channels/channel.ts';

export const fts: Channel = { name: 'fts', hitKind: 'text_fts', search: () => [] };
export const vector: Channel = { name: 'vector', hitKind: 'text_vector', search: () => [] };

/** File n's one chunk as `channel` found it, at `rank`, with `score` (path `src/F<n>.cs` unless given). */
export function cand(channel: Channel, n: number, score: number, rank: number, path = `src/F${n}.cs`): Candidate {
  const c = candidateOf({ row: { chunkId: n, fileId: n, ordinal: 0, path, hash: `h${n}`, lang: 'csharp', flags: 0, startLine: 1, endLine: 9, symbolKind: null, symbolName: null }, score }, channel, rank);
  c.score = score;
  return c;
}
