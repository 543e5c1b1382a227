// The search modes: which channels a mode asks and how their lists fuse — the one table a new
// channel or fusion is registered in. `keyword` is FTS alone, `literal` and `regex` the literal
// channel; `semantic` (the vector channel alone) and `hybrid` (FTS + vectors, hybridFusion) have
// rows only where the semantic channel is configured: their channel holds a model and a query
// vector, so the workspace builds them per search (semanticModes). A mode without a row is answered
// with `mode_unavailable`. Owns the table, the lookup, and routing a parsed query to the mode that
// answers it.
import { HciError } from '../platform.ts';
import type { SearchMode } from './contract.ts';
import type { Channel } from './channels/channel.ts';
import type { ParsedQuery } from './query.ts';
import { FUSION_DEPTH, hybridFusion, keywordRoute, type HybridOptions } from './fuse.ts';
import { ftsChannel } from './channels/fts.ts';
import { deferredChannel } from './channels/deferred.ts';
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
  /** How many hits an unranked channel is asked for, at a ranking depth `needed` (depth.ts; default: the pipeline's pool). */
  unrankedPool?: (needed: number) => number;
  /**
   * False: every matching chunk of a file may be listed (the settings' max_hits_per_file does not
   * apply). Text matches are answered like grep: a cap would hide matches, not just trim a ranking.
   */
  perFileCap?: boolean;
}

export type ModeTable = Partial<Record<SearchMode, ModeRow>>;

/** The literal channel, loaded by the first search that reaches it (its code and re2js stay out of a keyword search). */
const literalChannel = deferredChannel({ name: 'literal', hitKind: 'text_literal', scoreField: 'literal_score' }, async () => (await import('./channels/literal.ts')).literalChannel);

export const DEFAULT_MODES: ModeTable = {
  keyword: { channels: [ftsChannel], fuse: identityFusion },
  literal: { channels: [literalChannel], fuse: identityFusion, perFileCap: false },
  regex: { channels: [literalChannel], fuse: identityFusion, perFileCap: false },
};

/**
 * The mode that answers a parsed query: a query the literal channel takes (a `re:` term, a quoted
 * literal, text without a searchable word; query.ts sets `text`) is answered as regex or literal,
 * whatever mode was asked; else the mode asked (default keyword).
 */
export function routeMode(requested: SearchMode | undefined, q: ParsedQuery): SearchMode {
  if (q.text) return q.text.patterns.some((p) => p.kind === 'regex') ? 'regex' : 'literal';
  return requested ?? 'keyword';
}

/** The table with the semantic rows for one search's vector channel. */
export function semanticModes(vector: Channel, fusion: HybridOptions): ModeTable {
  return {
    ...DEFAULT_MODES,
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
