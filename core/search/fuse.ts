// Fusion: one list of candidates from the lists the mode's channels returned, each candidate keeping
// every channel's score and rank (candidates.ts) and getting one fused score for rerank to multiply.
// Owns the Fusion seam and the identity fusion of a single channel; a fusion over several channels
// (weights, normalisation, keeping a channel's top hits in place, routing by query shape) is one more
// Fusion named in a mode's row (modes.ts). Finding candidates is the channels', ordering rerank.ts's.
import { HciError } from '../platform.ts';
import { candidateOf, type Candidate } from './candidates.ts';
import type { Channel, ChannelHit } from './channels/channel.ts';
import type { ParsedQuery } from './query.ts';

/** One channel's answer for one pass, best first. */
export interface ChannelList {
  channel: Channel;
  hits: ChannelHit[];
}

/** Combines the channels' lists into candidates in fused order (the query is there for routing). */
export type Fusion = (lists: readonly ChannelList[], q: ParsedQuery) => Candidate[];

/** One channel: its hits as they are, its score as the fused score, its order as the fused order. */
export const identityFusion: Fusion = (lists) => {
  if (lists.length !== 1) throw new HciError('internal', `identity fusion takes one channel's list, got ${lists.length}`);
  const { channel, hits } = lists[0];
  return hits.map((h, i) => candidateOf(h, channel, i + 1));
};
