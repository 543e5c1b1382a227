// The search modes: which channels a mode asks and how their lists fuse — the one table a new
// channel or fusion is registered in. `keyword` is FTS alone; a mode without a row here is answered
// with `mode_unavailable`. Hosts and tests may pass their own table to the pipeline (a channel with
// a model behind it is built per workspace). Owns the table and the lookup only.
import { HciError } from '../platform.ts';
import type { SearchMode } from './contract.ts';
import type { Channel } from './channels/channel.ts';
import { ftsChannel } from './channels/fts.ts';
import { identityFusion, type Fusion } from './fuse.ts';

export interface ModeRow {
  /** Asked in this order; fusions see their lists in this order. */
  channels: readonly Channel[];
  fuse: Fusion;
}

export type ModeTable = Partial<Record<SearchMode, ModeRow>>;

export const DEFAULT_MODES: ModeTable = {
  keyword: { channels: [ftsChannel], fuse: identityFusion },
};

/** The row of a mode (default: keyword), or `mode_unavailable`. */
export function modeRow(mode: SearchMode | undefined, modes: ModeTable = DEFAULT_MODES): ModeRow {
  const row = modes[mode ?? 'keyword'];
  if (!row) {
    throw new HciError('mode_unavailable', `mode "${mode}" needs the semantic channel, which is not configured`, 'use mode "keyword" (the default)');
  }
  return row;
}
