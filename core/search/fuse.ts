// Fusion: one list of candidates from what the mode's channels returned, each candidate keeping
// every channel's score and rank (candidates.ts) and getting one fused score. Two kinds, named in a
// mode's row (modes.ts): a Fusion combines the channels' raw lists before rerank (the identity
// fusion of a single channel: keyword and semantic); a RankFusion combines channels' finished
// rankings (each reranked, widened and capped exactly as if it were the only channel), so a channel
// that must never lose ground (keyword) enters with its own final order: the hybrid fusion —
// per-channel min-max (or z-scores: fusion_calibration), weights, keyword's top N files kept in place
// (the guard), the weights and guard optionally chosen by the query's type (fusion_by_type: symbol,
// question, stated, mixed — fusionType), optional routing,
// optionally keyword's candidates given their own cosine (keyword_cosines; the search computes it),
// the vector side weighed by each hit's path role factor (vector_roles), files only
// the vector channel found held to an agreement with keyword's first files (vector_agreement), and a
// confidence gate (fusion_gate) that lets the vector channel's first file into keyword's top files
// when that channel is sure of it (a large cosine lead) and keyword is not (a small score lead).
// Finding candidates is the channels', ordering within a channel rerank.ts's.
import { HciError } from '../platform.ts';
import { candidateOf, type Candidate, type FusedValues, type FusionReport } from './candidates.ts';
import { capTail, fileRankEnd, firstOfFiles } from './file-tiers.ts';
import { scaleBelow } from './placement.ts';
import { queryForm, type QueryForm } from './query-type.ts';

/** The factor keyword's candidates past the fusion's depth get, listed after every fused one. */
export const PAST_FUSION_DEPTH = 'past_fusion_depth';

export type { FusedValues, FusionReport };
import type { Channel, ChannelHit } from './channels/channel.ts';
import type { MatchKind } from './contract.ts';
import type { ParsedQuery } from './query.ts';

/** One channel's answer for one pass, best first. */
export interface ChannelList {
  channel: Channel;
  hits: readonly ChannelHit[];
}

/** Combines the channels' lists into candidates in fused order (the query is there for routing). */
export type Fusion = (lists: readonly ChannelList[], q: ParsedQuery) => Candidate[];

/** One channel: its hits as they are, its score as the fused score, its order as the fused order. */
export const identityFusion: Fusion = (lists) => {
  if (lists.length !== 1) throw new HciError('internal', `identity fusion takes one channel's list, got ${lists.length}`);
  const { channel, hits } = lists[0];
  return hits.map((h, i) => candidateOf(h, channel, i + 1));
};

/** A channel's finished ranking (pipeline.ts: its passes reranked and capped as if it ran alone). */
export interface ChannelRanking {
  channel: Channel;
  ranked: Candidate[];
  complete: number;
  match: MatchKind;
  /** False when the route left the channel out (it was not asked). */
  ran: boolean;
}

export interface RankFusionResult {
  ranked: Candidate[];
  match: MatchKind;
  complete: number;
  report: FusionReport;
}

export interface RankFusionContext {
  /** The ranking's depth (depth.ts: setting rank_depth, or a deeper tier; never the page's offset + limit). */
  needed: number;
  maxHitsPerFile: number;
}

/** Combines finished rankings (the keyword one first). */
export type RankFusion = (rankings: readonly ChannelRanking[], q: ParsedQuery, ctx: RankFusionContext) => RankFusionResult;

/** The fusion's query types: query-type.ts's forms (a question split into asked and stated). */
export type FusionType = QueryForm;

/** A query type's own vector weight (keyword's is 1 − it) and guard, where they differ from the defaults. */
export interface TypeBlend {
  vectorWeight?: number;
  guard?: number;
}

/**
 * How each channel's scores are put on one scale: `minmax` — the list's best 1, its last 0;
 * `zscore` — standard scores over the list (mean 0, one standard deviation 1), so a channel whose
 * first hit stands far above the rest keeps that margin where min-max gives every list the same spread.
 */
export type Calibration = 'minmax' | 'zscore';

export const fusionType: (q: Pick<ParsedQuery, 'written' | 'text' | 'raw'>) => FusionType = queryForm;

export interface HybridOptions {
  keywordWeight: number;
  vectorWeight: number;
  /** Setting `fusion_by_type` (empty: every type takes the weights and guard above). */
  byType?: Partial<Record<FusionType, TypeBlend>>;
  /** Setting `fusion_calibration` (default minmax). */
  calibration?: Calibration;
  /** Keyword's first `guard` files keep their places (3: measured best; 0: off). */
  guard: number;
  routing: boolean;
  minVectorScore: number;
  /**
   * Setting `keyword_cosines`: the query's cosine with any chunk (core/vector/knn.ts scores). When
   * given, keyword's candidates outside the vector list are fused with their own cosine instead of
   * none (the vector side's min-max then runs over every cosine the fusion reads).
   */
  cosines?: (chunkIds: readonly number[]) => ReadonlyMap<number, number>;
  /**
   * Setting `vector_roles`: the query's path role factor of a candidate (test, demo, docs, generated,
   * build files; 1 for source and for a role the query names; the search resolves it as rerank does),
   * which its normalised vector value is multiplied by — keyword's side carries those factors in
   * its final score, the cosine (the vector channel is not reranked) does not.
   */
  vectorRoles?: (q: ParsedQuery) => (c: Candidate) => number;
  /** Setting `fusion_gate` (absent or vectorGap 0: off). */
  gate?: FusionGate;
  /**
   * Setting `vector_agreement` (0: off): a file only the vector channel found (none of keyword's
   * candidates is in it) enters only when its chunk's cosine reaches this share of the best cosine
   * among the vector list's chunks of keyword's first AGREEMENT_FILES files (none there: it does not enter).
   */
  agreement?: number;
}

/**
 * Setting `fusion_gate`: the guard opens for one query when the vector channel's first file leads its
 * second by at least `vectorGap` cosine and keyword's first file's score is at most `keywordLead` times
 * its second's (0: no keyword condition) — or, with `keywordAny`, keyword matched no chunk holding
 * every term. Open, that vector file stands at file rank `at` at least and the guard is `guard`.
 * With `types`, only queries of those fusion types are read.
 */
export interface FusionGate {
  vectorGap: number;
  keywordLead: number;
  keywordAny: boolean;
  at: number;
  guard?: number;
  /** The fusion types the gate reads (fusionType; absent: every type routing lets through). */
  types?: readonly FusionType[];
}

/** What the gate read and whether it opened (explain shows it). */
export interface GateReading {
  vector_gap: number;
  keyword_lead: number | null;
  opened: boolean;
  file?: string;
}

/**
 * The gate's reading of one query: the vector list's first two files by cosine and keyword's first
 * two files by final score (fusion_gate).
 */
export function readGate(g: FusionGate, kwRanked: readonly Candidate[], vecList: readonly Candidate[], kwMatch: MatchKind): GateReading & { fileId?: number } {
  const vbest = new Map<number, Candidate>();
  for (const c of vecList) {
    const b = vbest.get(c.fileId);
    if (!b || (c.channels[0]?.score ?? 0) > (b.channels[0]?.score ?? 0)) vbest.set(c.fileId, c);
  }
  const vs = [...vbest.values()].map((c) => ({ c, cos: c.channels[0]?.score ?? 0 })).sort((a, b) => b.cos - a.cos);
  const kFirst = firstOfFiles(kwRanked, Math.max(2, g.at));
  const kbest = kFirst.map((c) => c.score);
  const kFiles = kFirst.map((c) => c.fileId);
  const gap = vs.length > 1 ? vs[0].cos - vs[1].cos : vs.length ? vs[0].cos : 0;
  const lead = kbest.length > 1 && kbest[1] > 0 ? kbest[0] / kbest[1] : null;
  const keywordUnsure = g.keywordLead === 0 || (lead !== null && lead <= g.keywordLead) || (g.keywordAny && kwMatch === 'any');
  const first = vs[0]?.c;
  const opened = !!first && g.vectorGap > 0 && gap >= g.vectorGap && keywordUnsure && !kFiles.slice(0, g.at - 1).includes(first.fileId);
  return { vector_gap: gap, keyword_lead: lead, opened, ...(opened ? { file: first.path, fileId: first.fileId } : {}) };
}

/** Keyword's first files whose best cosine sets the agreement bar (setting vector_agreement). */
export const AGREEMENT_FILES = 10;

/** Candidates per channel the normalisation sees at least (the measured prototype used 30 of each). */
export const FUSION_DEPTH = 30;

/**
 * Whether a query goes to keyword only: identifier-like (camelCase, snake_case, dotted, digits in a
 * word) or at most two content terms. Null: both channels.
 */
export function keywordRoute(q: ParsedQuery): string | null {
  if (q.clauses.length === 0) return 'no searchable terms';
  if (q.written.some((w) => /[a-z][A-Z]|[A-Za-z]_[A-Za-z]|\w\.\w|[A-Za-z]\d/.test(w))) return 'identifier-like query';
  if (q.clauses.length <= 2) return `${q.clauses.length} content term${q.clauses.length === 1 ? '' : 's'}`;
  return null;
}

/**
 * Normalised values by chunk id, and each file's best: min-max (all 1 when every score is equal), or
 * z-scores shifted so the list's lowest is 0 (what a candidate the channel did not find gets).
 */
function normalise(cands: readonly Candidate[], scoreOf: (c: Candidate) => number, calibration: Calibration = 'minmax'): { byChunk: Map<number, number>; byFile: Map<number, number> } {
  const byChunk = new Map<number, number>();
  const byFile = new Map<number, number>();
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const c of cands) {
    const s = scoreOf(c);
    sum += s;
    if (s < min) min = s;
    if (s > max) max = s;
  }
  let spread = max - min;
  if (calibration === 'zscore' && cands.length > 1) {
    const mean = sum / cands.length;
    let sq = 0;
    for (const c of cands) sq += (scoreOf(c) - mean) ** 2;
    spread = Math.sqrt(sq / cands.length);
  }
  for (const c of cands) {
    const v = spread > 0 ? (scoreOf(c) - min) / spread : 1;
    byChunk.set(c.chunkId, v);
    if (!(byFile.get(c.fileId)! >= v)) byFile.set(c.fileId, v);
  }
  return { byChunk, byFile };
}

/**
 * The vector list without the files keyword's list lacks whose cosine stays under `share` of the
 * best cosine of keyword's first AGREEMENT_FILES files in that list (setting vector_agreement).
 */
function agreed(vecList: readonly Candidate[], kwRanked: readonly Candidate[], kwList: readonly Candidate[], share: number): Candidate[] {
  const top = new Set(firstOfFiles(kwRanked, AGREEMENT_FILES).map((c) => c.fileId));
  let best = -Infinity;
  for (const c of vecList) if (top.has(c.fileId)) best = Math.max(best, c.channels[0]?.score ?? -Infinity);
  const bar = best === -Infinity ? Infinity : best * share;
  const kwFiles = new Set(kwList.map((c) => c.fileId));
  return vecList.filter((c) => kwFiles.has(c.fileId) || (c.channels[0]?.score ?? -Infinity) >= bar);
}

/** The gate opened: the file's first candidate moves up to stand at file rank `at` (when it stands lower). */
function lift(ranked: Candidate[], fileId: number, at: number): void {
  const from = ranked.findIndex((c) => c.fileId === fileId);
  if (from < 0) return;
  const to = fileRankEnd(ranked, at - 1);
  if (to >= from) return;
  const [c] = ranked.splice(from, 1);
  ranked.splice(to, 0, c);
  if (c.fusion) c.fusion.lifted = true;
}

/**
 * Hybrid fusion over [keyword, vector] rankings. Each channel's list (its first max(30, depth)
 * candidates, at the ranking's depth — the same for every page: keyword's by its final score, with every rerank factor; vector's by cosine) is min-max
 * normalised; a candidate's value in a channel is its own, or — when the channel found another chunk
 * of its file and not this one — its file's best ("file evidence": the measured prototype fused
 * files). With `cosines` (setting keyword_cosines) keyword's candidates the vector list lacks enter
 * the vector side with their own cosine (or their file's best in the list, when higher), and the
 * vector min-max runs over every cosine read. Fused score = wk·keyword + wv·vector. The candidates that hold keyword's first `guard`
 * files come first, in keyword order (so keyword's top hits never move); the rest follow by fused
 * score (ties: keyword rank, then path and line); then a file's chunks past the cap; then keyword's
 * candidates past the depth, in keyword order (past_fusion_depth). A chunk found by both
 * channels is `hybrid`, by one its channel's kind.
 */
export function hybridFusion(o: HybridOptions): RankFusion {
  return (rankings, q, ctx) => {
    const [kw, vec] = rankings;
    if (!kw || !vec) throw new HciError('internal', `hybrid fusion takes a keyword and a vector ranking, got ${rankings.length}`);
    const depth = Math.max(FUSION_DEPTH, ctx.needed);
    // The query's type, read once and only when a setting reads it (fusion_by_type, the gate's `types`);
    // reported when a type has a blend of its own.
    const byType = !!o.byType && Object.keys(o.byType).length > 0;
    const form = byType || o.gate?.types ? fusionType(q) : null;
    const type = byType ? form : null;
    const blend = type ? o.byType?.[type] : undefined;
    const vectorWeight = blend?.vectorWeight ?? o.vectorWeight;
    const keywordWeight = blend?.vectorWeight !== undefined ? 1 - blend.vectorWeight : o.keywordWeight;
    let guard = blend?.guard ?? o.guard;
    const calibration = o.calibration ?? 'minmax';
    const report: FusionReport = {
      kind: 'hybrid', weights: { keyword: keywordWeight, vector: vectorWeight }, guard,
      ...(type ? { fusion_type: type } : {}), ...(calibration !== 'minmax' ? { calibration } : {}),
      route: vec.ran ? 'hybrid' : 'keyword', route_reason: vec.ran ? null : (o.routing ? keywordRoute(q) : null) ?? 'vector channel not asked',
      min_vector_score: o.minVectorScore, depth, keyword_cosines: !!o.cosines,
      ...(o.vectorRoles ? { vector_roles: true } : {}), ...(o.agreement ? { vector_agreement: o.agreement } : {}),
    };
    const kwList = kw.ranked.slice(0, depth);
    let vecList = vec.ran ? vec.ranked.slice(0, depth) : [];
    if (o.agreement && vecList.length) vecList = agreed(vecList, kw.ranked, kwList, o.agreement);
    if (vecList.length === 0) {
      // Nothing to fuse: keyword's ranking as it is (the vector channel found nothing, or was routed away).
      for (const c of kw.ranked) c.fusion = { keyword: 0, vector: 0, keywordFrom: 'chunk', vectorFrom: 'none', guarded: false };
      return { ranked: kw.ranked, match: kw.match, complete: kw.complete, report };
    }
    const gate = o.gate && o.gate.vectorGap > 0 && (!o.gate.types || (form !== null && o.gate.types.includes(form))) ? readGate(o.gate, kw.ranked, vecList, kw.match) : null;
    if (gate) {
      const { fileId: _, ...reading } = gate;
      report.gate = reading;
      if (gate.opened && o.gate!.guard !== undefined) report.guard = guard = Math.min(guard, o.gate!.guard);
    }
    const nk = normalise(kwList, (c) => c.score, calibration);
    const kwRank = new Map(kw.ranked.map((c, i) => [c.chunkId, i]));
    // Keyword's first `guard` files: every keyword hit before its (guard+1)-th distinct file.
    const guarded = kw.ranked.slice(0, fileRankEnd(kw.ranked, guard));
    const held = new Set(guarded.map((c) => c.chunkId));
    // The union, one candidate per chunk (a chunk both found keeps keyword's candidate and gains the vector entry).
    const byChunk = new Map<number, Candidate>();
    for (const c of kwList) byChunk.set(c.chunkId, c);
    for (const c of guarded) byChunk.set(c.chunkId, c);
    const kwOnly = [...byChunk.values()];
    for (const c of vecList) {
      const known = byChunk.get(c.chunkId);
      if (known) {
        known.channels.push(...c.channels.map((e) => ({ ...e })));
        known.hitKind = 'hybrid';
      } else byChunk.set(c.chunkId, c);
    }
    // The vector channel's own score (cosine), not its reranked one: the measured recipe.
    const vecCands: Candidate[] = [...vecList];
    const vecScore = new Map<number, number>();
    const scored = new Set<number>();
    if (o.cosines) {
      // keyword_cosines: keyword's candidates the vector list lacks enter with their own cosine (at or above min_vector_score).
      const inVec = new Set(vecList.map((c) => c.chunkId));
      const missing = kwOnly.filter((c) => !inVec.has(c.chunkId));
      const cos = o.cosines(missing.map((c) => c.chunkId));
      for (const c of missing) {
        const v = cos.get(c.chunkId);
        if (v !== undefined && v >= o.minVectorScore) {
          scored.add(c.chunkId);
          vecCands.push(c);
          vecScore.set(c.chunkId, v);
        }
      }
    }
    const nv = normalise(vecCands, (c) => vecScore.get(c.chunkId) ?? c.channels[0]?.score ?? 0, calibration);
    // A file's best normalised value among the vector list's own hits (file evidence for a scored chunk).
    const listFile = new Map<number, number>();
    for (const c of vecList) {
      const v = nv.byChunk.get(c.chunkId)!;
      if (!(listFile.get(c.fileId)! >= v)) listFile.set(c.fileId, v);
    }
    const nvFile = (c: Candidate) => listFile.get(c.fileId) ?? -1;
    const roleOf = o.vectorRoles?.(q);
    const value = (n: ReturnType<typeof normalise>, c: Candidate): [number, 'chunk' | 'file' | 'none'] => {
      const own = n.byChunk.get(c.chunkId);
      if (own !== undefined) return [own, 'chunk'];
      const file = n.byFile.get(c.fileId);
      return file !== undefined ? [file, 'file'] : [0, 'none'];
    };
    for (const c of byChunk.values()) {
      const [k, kFrom] = value(nk, c);
      let [v, vFrom] = value(nv, c) as [number, FusedValues['vectorFrom']];
      if (scored.has(c.chunkId)) {
        // Its own cosine, or its file's best in the vector list when that is higher (file evidence, as before).
        const file = nvFile(c);
        if (file > v) [v, vFrom] = [file, 'file'];
        else vFrom = 'scored';
      }
      if (roleOf) v *= roleOf(c);
      c.fusion = { keyword: k, vector: v, keywordFrom: kFrom, vectorFrom: vFrom, guarded: held.has(c.chunkId), ...(scored.has(c.chunkId) ? { vectorCosine: vecScore.get(c.chunkId)! } : {}) };
      c.score = keywordWeight * k + vectorWeight * v;
    }
    const rest = [...byChunk.values()].filter((c) => !held.has(c.chunkId));
    rest.sort((a, b) =>
      b.score - a.score || (kwRank.get(a.chunkId) ?? Infinity) - (kwRank.get(b.chunkId) ?? Infinity) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine || a.chunkId - b.chunkId);
    // A file's chunks past the cap follow all the others (file-tiers.ts): nothing is dropped.
    const ranked = capTail([...guarded, ...rest], ctx.maxHitsPerFile);
    if (gate?.opened) lift(ranked, gate.fileId!, o.gate!.at);
    // Keyword's candidates past the fusion's depth follow, in keyword order, scaled below the last
    // fused one (factor past_fusion_depth): the list is longer than its depth whenever more match,
    // so a deeper ranking (depth.ts) lists them, never a page that looks like the last.
    const beyond = kw.ranked.slice(depth).filter((c) => !byChunk.has(c.chunkId));
    for (const c of beyond) {
      const [k, kFrom] = value(nk, c);
      const [v, vFrom] = value(nv, c);
      c.fusion = { keyword: k, vector: v, keywordFrom: kFrom, vectorFrom: vFrom, guarded: false };
    }
    scaleBelow(beyond, ranked.length ? ranked[ranked.length - 1].score : Infinity, PAST_FUSION_DEPTH);
    ranked.push(...beyond);
    const match: MatchKind = kw.ranked.length ? kw.match : 'similar';
    return { ranked, match, complete: kw.complete, report };
  };
}
