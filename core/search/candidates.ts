// The candidates the pipeline ranks: a chunk, every channel that found it (channels/channel.ts) and
// one fused score, plus the factors rerank applies. Owns that shape, building one from a single
// channel's hit, filling in the chunk text of candidates (through the session's file cache), and the
// ranked list and page the later stages hand on (RankedResult, SearchPage).
// Finding chunks belongs to the channels, combining their lists to fuse.ts, ordering to rerank.ts.
import type { HitKind, MatchKind, SearchHit, SearchMode } from './contract.ts';
import type { Channel, ChannelEntry, ChannelHit, ChunkRow } from './channels/channel.ts';
import type { SearchSession } from './session.ts';
import type { ParsedQuery } from './query.ts';
import type { PageRange } from './page.ts';
import type { RoleVerdict } from '../scan/roles.ts';
import type { Declaration } from './declarations.ts';
import type { QueryForm, QueryType } from './query-type.ts';
import { storedLines } from '../index/file-data.ts';

/** What a fused ranking tells explain and the answer's hint. */
export interface FusionReport {
  kind: 'hybrid';
  weights: { keyword: number; vector: number };
  guard: number;
  /** `hybrid`: both channels; `keyword`: routed to keyword only (and why); `keyword_only`: no vector hits. */
  route: 'hybrid' | 'keyword';
  route_reason: string | null;
  min_vector_score: number;
  /** Candidates per channel that the min-max normalisation ran over. */
  depth: number;
  /** Setting keyword_cosines: keyword's candidates outside the vector list were fused with their own cosine. */
  keyword_cosines: boolean;
  /** Setting vector_roles: the vector values were weighed by the hits' path role factors. */
  vector_roles?: boolean;
  /** Setting vector_agreement: the share of keyword's top files' best cosine a vector-only file needed. */
  vector_agreement?: number;
  /** Setting fusion_by_type: the query's fusion type (fuse.ts fusionType), which chose the weights and guard above. */
  fusion_type?: QueryForm;
  /** Setting fusion_calibration, when not min-max. */
  calibration?: 'zscore';
  /** Setting fusion_gate: what the confidence gate read (fuse.ts readGate) and whether it opened. */
  gate?: { vector_gap: number; keyword_lead: number | null; opened: boolean; file?: string };
}

/** Per-channel fusion values on a candidate (present.ts shows them as fts_norm / vec_norm). */
export interface FusedValues {
  keyword: number;
  vector: number;
  /**
   * Where each value came from: the chunk itself, its file's best hit in that channel, or neither;
   * `scored`: the chunk's own cosine, computed for the fusion (setting keyword_cosines) because the
   * vector list did not reach it.
   */
  keywordFrom: 'chunk' | 'file' | 'none';
  vectorFrom: 'chunk' | 'file' | 'none' | 'scored';
  /** The cosine computed for a chunk the vector list did not reach (setting keyword_cosines). */
  vectorCosine?: number;
  guarded: boolean;
  /** The confidence gate opened and moved this hit up (setting fusion_gate). */
  lifted?: boolean;
}

/**
 * Scores as answers show them: three decimals, and below 0.1 three significant digits — a word in
 * most of an index's chunks has FTS5's IDF floor (1e-6), so every score of it is ~1e-6, and three
 * decimals made them all 0: ties that a merge of several repositories' lists (federation.ts) and an
 * agent comparing hits could no longer tell apart.
 */
export function round(x: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  return Math.abs(x) >= 0.1 ? Math.round(x * 1000) / 1000 : Number(x.toPrecision(3));
}

export interface Candidate extends ChunkRow {
  /** The chunk's member key (null: none); undefined until loaded (loadBodies: the page's hits, and config chunks, whose key path ranking reads). */
  memberKey?: string | null;
  /** Loaded only for the candidates that need it (text signals, snippets). */
  body?: string;
  /** The body in lower case, made when first read (lowerBody). */
  bodyLower?: string;
  hitKind: HitKind;
  /** Every channel that found the chunk, in the mode's channel order. */
  channels: ChannelEntry[];
  /** The fused score the factors multiply (with one channel: that channel's score). */
  base: number;
  /** base times every factor. */
  score: number;
  /** `weight`: the exponent setting factor_weights raised the factor to (rerank.ts). */
  factors: Array<{ name: string; factor: number; weight?: number }>;
  /** Set by a fusion of several channels (fuse.ts): each channel's normalised value and where it came from. */
  fusion?: FusedValues;
  /** The file's path role, once rerank resolved it (explain shows it). */
  role?: RoleVerdict;
  /** The lines where a text pattern matched (set when the literal channel found the chunk). */
  matchLines?: readonly number[];
  /** 1 for the best chunk of its file in this search, 2 for the next, … (rerank.ts sets it). */
  fileRank?: number;
  /** The declaration of a query name this chunk holds (declarations.ts; rerank.ts sets it). */
  declaration?: Declaration;
}

/** A candidate found by one channel, at `rank` in its list (fusions add the other channels' entries). */
export function candidateOf(hit: ChannelHit, channel: Channel, rank: number): Candidate {
  const entry: ChannelEntry = { channel, score: hit.score, rank, detail: hit.detail };
  const r = hit.row;
  // Field by field, not `{ ...r }`: a spread plus more fields built slow-shaped objects that every
  // later stage (factors, sort, cap) paid for (most of an 8% slowdown per search at 50k chunks).
  return {
    chunkId: r.chunkId, fileId: r.fileId, ordinal: r.ordinal, path: r.path, hash: r.hash, lang: r.lang, flags: r.flags,
    startLine: r.startLine, endLine: r.endLine, symbolKind: r.symbolKind, symbolName: r.symbolName,
    memberKey: undefined, body: undefined, bodyLower: undefined, hitKind: channel.hitKind, channels: [entry], base: hit.score, score: 0, factors: [], role: undefined,
    matchLines: hit.lines, fileRank: undefined,
  };
}

/** The entry of the named channel, when it found the candidate. */
export function channelEntry(c: Candidate, name: string): ChannelEntry | undefined {
  return c.channels.find((e) => e.channel.name === name);
}

/**
 * Fills in the chunk text of the given candidates, and the member key of those `keyed` picks (each
 * file's data is inflated once; its meta — member keys among it — only when a key is read).
 */
export function loadBodies(session: SearchSession, cands: readonly Candidate[], keyed: (c: Candidate) => boolean = () => true): void {
  const byFile = new Map<number, Candidate[]>();
  for (const c of cands) {
    if (c.body !== undefined && (c.memberKey !== undefined || !keyed(c))) continue;
    const list = byFile.get(c.fileId);
    if (list) list.push(c);
    else byFile.set(c.fileId, [c]);
  }
  session.prefetchFiles([...byFile].map(([fileId, list]) => ({ fileId, hash: list[0].hash })));
  for (const [fileId, list] of byFile) {
    const stored = session.files.get(fileId, list[0].hash);
    for (const c of list) {
      c.body ??= stored ? storedLines(stored, c.startLine, c.endLine) : '';
      if (c.memberKey === undefined && keyed(c)) c.memberKey = stored?.keys[c.ordinal] ?? null;
    }
  }
}

/**
 * A candidate's body in lower case, made once per candidate: coverage (file-evidence.ts), own
 * evidence (own-evidence.ts) and the verbatim signal (boosts.ts) each read it — lowercasing it for
 * each was a tenth of what a warm query allocated. '' while its body is not loaded (and not kept).
 */
export function lowerBody(c: Pick<Candidate, 'body' | 'bodyLower'>): string {
  if (c.body === undefined) return '';
  return (c.bodyLower ??= c.body.toLowerCase());
}

/** What the pipeline's rank stage hands on (pipeline.ts builds it; explain and present read it). */
export interface RankedResult {
  parsed: ParsedQuery;
  /** The mode that answered (modes.ts routeMode: a `re:` query is answered in regex mode). */
  mode: SearchMode;
  /** symbol / question / mixed (query-type.ts). */
  queryType?: QueryType;
  match: MatchKind;
  /** Every ranked candidate after the per-file cap, best first. */
  ranked: Candidate[];
  /**
   * How many chunks hold every term (the first pass, counted after the per-file cap among themselves).
   * With `partial_matches = "by_score"` they compete with the partial ones and need not come first.
   */
  complete: number;
  /** Whether a path filter (the request's or the query's own) applied. */
  filtered: boolean;
  /** Setting pool_file_cap, when on: the most chunks one file gave each pass's candidate pool. */
  poolFileCap?: number;
  /** Set when several channels' rankings were fused (weights, guard, route). */
  fusion?: FusionReport;
  /**
   * Set when the routed mode found nothing, or ran out of its time budget, and another answered
   * (pipeline.ts: quoted literals → the words in the mode asked).
   */
  fallback?: 'quoted_literal_not_found' | 'quoted_literal_timeout' | 'quoted_literal_filled';
}

export interface SearchPage {
  ranked: RankedResult;
  range: PageRange;
  /** The range's hits, in the contract shape. */
  hits: SearchHit[];
  /** Whether ranked candidates remain past the range. */
  more: boolean;
}
