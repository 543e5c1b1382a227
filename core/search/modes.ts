// The search modes: which channels a mode asks and how their lists fuse — the one table a new
// channel or fusion is registered in. `keyword` is FTS alone, `literal` and `regex` the literal
// channel; a mode without a row here is answered with `mode_unavailable`. Hosts and tests may pass
// their own table to the pipeline (a channel with a model behind it is built per workspace). Owns
// the table, the lookup, and routing a parsed query to the mode that answers it.
import { HciError } from '../platform.ts';
import type { SearchMode } from './contract.ts';
import type { Channel } from './channels/channel.ts';
import { ftsChannel } from './channels/fts.ts';
import { literalChannel } from './channels/literal.ts';
import { identityFusion, type Fusion } from './fuse.ts';
import type { ParsedQuery } from './query.ts';

export interface ModeRow {
  /** Asked in this order; fusions see their lists in this order. */
  channels: readonly Channel[];
  fuse: Fusion;
  /**
   * False: every matching chunk of a file may be listed (the settings' max_hits_per_file does not
   * apply). Text matches are answered like grep: a cap would hide matches, not just trim a ranking.
   */
  perFileCap?: boolean;
}

export type ModeTable = Partial<Record<SearchMode, ModeRow>>;

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

/** The row of a mode (default: keyword), or `mode_unavailable`. */
export function modeRow(mode: SearchMode | undefined, modes: ModeTable = DEFAULT_MODES): ModeRow {
  const row = modes[mode ?? 'keyword'];
  if (!row) {
    throw new HciError('mode_unavailable', `mode "${mode}" needs the semantic channel, which is not configured`, 'use mode "keyword" (the default)');
  }
  return row;
}
