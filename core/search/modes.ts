// The search modes: which channels a mode asks and how their lists fuse — the one table a new
// channel or fusion is registered in. `keyword` is FTS alone; `semantic` (the vector channel alone)
// and `hybrid` (FTS + vectors, hybridFusion) have rows only where the semantic channel is configured:
// their channel holds a model and a query vector, so the workspace builds them per search
// (semanticModes). A mode without a row is answered with `mode_unavailable`. Owns the table and the
// lookup only.
import { HciError } from '../platform.ts';
import type { SearchMode } from './contract.ts';
import type { Channel } from './channels/channel.ts';
import type { ParsedQuery } from './query.ts';
import { FUSION_DEPTH, hybridFusion, keywordRoute, type HybridOptions } from './fuse.ts';
import { ftsChannel } from './channels/fts.ts';
import { identityFusion, type Fusion, type RankFusion } from './fuse.ts';

export interface ModeRow {
  /** Asked in this order; fusions see their lists in this order. */
  channels: readonly Channel[];
  /** Before rerank: the channels' raw lists into one (identity for one channel). */
  fuse: Fusion;
  /**
   * After rerank instead: each channel ranked on its own (as if alone), then these rankings fused
   * (hybrid: core/search/fuse.ts hybridFusion). `route` may leave channels out for a query.
   */
  fuseRanked?: RankFusion;
  route?: (q: ParsedQuery) => readonly Channel[];
  /** With fuseRanked: channels whose hits enter the fusion as they are (their own order, no rerank or widening). */
  unranked?: readonly Channel[];
  /** How many hits an unranked channel is asked for, for a page that needs `needed` (default: the pipeline's pool). */
  unrankedPool?: (needed: number) => number;
}

export type ModeTable = Partial<Record<SearchMode, ModeRow>>;

export const DEFAULT_MODES: ModeTable = {
  keyword: { channels: [ftsChannel], fuse: identityFusion },
};

/** The table with the semantic rows for one search's vector channel. */
export function semanticModes(vector: Channel, fusion: HybridOptions): ModeTable {
  return {
    keyword: DEFAULT_MODES.keyword,
    semantic: { channels: [vector], fuse: identityFusion },
    hybrid: {
      channels: [ftsChannel, vector],
      fuse: identityFusion,
      fuseRanked: hybridFusion(fusion),
      // The fusion reads the vector channel's own cosine and order (the measured recipe): reranking it would be wasted work.
      unranked: [vector],
      unrankedPool: (needed) => Math.max(FUSION_DEPTH, needed),
      route: fusion.routing ? (q) => (keywordRoute(q) ? [ftsChannel] : [ftsChannel, vector]) : undefined,
    },
  };
}

export const MODE_UNAVAILABLE_HINT = 'turn semantic search on: `[semantic]` with `enabled = true` in .hci/settings.toml, then run `hci index`; or use mode "keyword" (the default)';

/** The row of a mode (default: keyword), or `mode_unavailable`. */
export function modeRow(mode: SearchMode | undefined, modes: ModeTable = DEFAULT_MODES): ModeRow {
  const row = modes[mode ?? 'keyword'];
  if (!row) {
    throw new HciError('mode_unavailable', `mode "${mode}" needs the semantic channel, which is not turned on for this workspace`, MODE_UNAVAILABLE_HINT);
  }
  return row;
}
