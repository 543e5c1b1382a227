// The channel seam: what a retrieval channel (FTS, vectors, literal text) is and the one
// currency every channel answers in — a chunk row and the channel's own score, best first (its list
// order is its rank). A new channel is one file implementing Channel plus a row in the mode table
// (modes.ts). Owns these shapes only; combining channels is fuse.ts's, ranking rerank.ts's.
import type { HitKind } from '../contract.ts';
import type { ParsedQuery } from '../query.ts';
import type { SearchSession } from '../session.ts';

/** A chunk as every channel finds it: its row in `chunks` joined with its file's. */
export interface ChunkRow {
  chunkId: number;
  fileId: number;
  ordinal: number;
  path: string;
  /** The file's content hash (keys the decoded-file cache). */
  hash: string;
  lang: string;
  flags: number;
  startLine: number;
  endLine: number;
  symbolKind: string | null;
  symbolName: string | null;
}

/** One chunk as one channel found it. Higher scores are better. */
export interface ChannelHit {
  row: ChunkRow;
  score: number;
  /** What the channel wants explain to show about this hit (FTS: which pass found it). */
  detail?: Readonly<Record<string, number | string>>;
  /** The 1-based lines of the chunk where the channel's pattern matched (the literal channel's match_lines). */
  lines?: readonly number[];
}

/** What the pipeline tells a channel when it asks for a wider pass. */
export interface WidenRequest {
  /** Hits of the first pass that survived ranking and the per-file cap. */
  kept: number;
  /** Hits the page needs. */
  needed: number;
  /** Chunks the first pass kept (a wider pass leaves them out). */
  seen: ReadonlySet<number>;
}

export interface Channel {
  /** The key of the channel's section in explain. */
  readonly name: string;
  /** What a hit found by this channel alone is evidence of. */
  readonly hitKind: HitKind;
  /** The contract field that carries this channel's score on a hit, when the contract has one. */
  readonly scoreField?: 'fts_score' | 'vec_score' | 'literal_score';
  /**
   * The channel's best chunks for the query (at most `pool`), best first, within the session's
   * current path filter; empty when the query gives it nothing to look for.
   */
  search(session: SearchSession, q: ParsedQuery, pool: number): readonly ChannelHit[];
  /**
   * A wider second pass, asked for once the first was ranked; its hits rank after every hit of the
   * first pass. Null when the channel does not widen for this query and page.
   */
  widen?(session: SearchSession, q: ParsedQuery, pool: number, page: WidenRequest): readonly ChannelHit[] | null;
  /**
   * This channel's hits among the given chunks, those that match the query (in the order given):
   * for chunks a later stage adds to the candidates (declarations.ts: a declaration's chunk the
   * pool did not reach; definition-widen.ts: a query identifier's best holders). Their rank is 0 (not
   * in the channel's list); `added` names the stage in explain (default `declaration`).
   */
  scoreChunks?(session: SearchSession, q: ParsedQuery, chunkIds: readonly number[], added?: string): readonly ChannelHit[];
  /**
   * Asynchronous work before a search that reaches this channel, awaited outside the read
   * transaction (search itself is synchronous): loading code or an engine the query needs.
   */
  prepare?(q: ParsedQuery): Promise<void>;
  /** The channel's own part of an explanation (beyond score and rank), e.g. FTS's column weights. */
  explain?(entry: ChannelEntry): Record<string, unknown>;
}

/** One channel's verdict on a candidate: its score and its 1-based rank in that channel's list. */
export interface ChannelEntry {
  channel: Channel;
  score: number;
  rank: number;
  detail?: Readonly<Record<string, number | string>>;
}
