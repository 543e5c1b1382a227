// The offline fusion prototype of the vector evaluation: file rankings from keyword hits and from
// vector neighbours, min-max normalized per channel and mixed (0.65 keyword / 0.35 vector by
// default), with keyword's top N files kept in place. Mirrors what the search pipeline's fuse step
// will do (issue 13), so its figures can be checked before the pipeline exists. Owns only this.

export interface ScoredFile {
  path: string;
  score: number;
}

/** Distinct files in first-hit order, each with its best (first) hit's score. */
export function filesOf(hits: ReadonlyArray<{ path: string; score: number }>): ScoredFile[] {
  const seen = new Set<string>();
  const out: ScoredFile[] = [];
  for (const h of hits) {
    if (seen.has(h.path)) continue;
    seen.add(h.path);
    out.push({ path: h.path, score: h.score });
  }
  return out;
}

export interface FusionOptions {
  keywordWeight: number;
  vectorWeight: number;
  /** Keyword's first N files stay at ranks 1…N, in keyword order. */
  guard: number;
}

export const SEED_FUSION: FusionOptions = { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3 };

/** Min-max normalized scores by path (all 1 when every score is equal). */
function normalized(files: readonly ScoredFile[]): Map<string, number> {
  const out = new Map<string, number>();
  if (files.length === 0) return out;
  let min = Infinity;
  let max = -Infinity;
  for (const f of files) {
    min = Math.min(min, f.score);
    max = Math.max(max, f.score);
  }
  for (const f of files) out.set(f.path, max > min ? (f.score - min) / (max - min) : 1);
  return out;
}

/** The fused file ranking. A file one channel did not return scores 0 in that channel. */
export function fuse(keyword: readonly ScoredFile[], vector: readonly ScoredFile[], o: FusionOptions = SEED_FUSION): string[] {
  const kw = normalized(keyword);
  const vec = normalized(vector);
  const kwRank = new Map(keyword.map((f, i) => [f.path, i]));
  const guarded = keyword.slice(0, o.guard).map((f) => f.path);
  const held = new Set(guarded);
  const rest = [...new Set([...keyword.map((f) => f.path), ...vector.map((f) => f.path)])].filter((p) => !held.has(p));
  const score = (p: string) => o.keywordWeight * (kw.get(p) ?? 0) + o.vectorWeight * (vec.get(p) ?? 0);
  rest.sort((a, b) => score(b) - score(a) || (kwRank.get(a) ?? Infinity) - (kwRank.get(b) ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
  return [...guarded, ...rest];
}
