// Scores that agree with the order: a ranked list whose order a placement rule decided beyond the
// scores (the hybrid fusion's guard keeps keyword's first files first whatever their fused value)
// has each hit raised to the score of the hit after it, when that one scores more (factor
// `placement`, which explain shows), so an answer's `score` never rises down the page; and hits a
// rule lists after others (a file's chunks past the cap, partial matches, words after quoted text)
// are scaled by one named factor to score no higher than the last of those. Owns those two passes;
// the rules that place hits are the fusions', rerank's, file-tiers' and the pipeline's.
import type { Candidate } from './candidates.ts';

export const PLACEMENT = 'placement';

/** Raises, from the end, each candidate scoring below the one after it to that score (in place). */
export function agreeScores(ranked: Candidate[]): Candidate[] {
  for (let i = ranked.length - 2; i >= 0; i--) {
    const c = ranked[i];
    const next = ranked[i + 1].score;
    if (c.score >= next) continue;
    // (From a score of 0 the factor is taken from a millionth: finite, and plainly a placement.)
    c.factors.push({ name: PLACEMENT, factor: next / Math.max(c.score, 1e-6) });
    c.score = next;
  }
  return ranked;
}

/**
 * Hits listed after others whatever their scores: when the best of them (`best`: the first's score
 * unless given) scores above `floor` (the last score listed before them), each is scaled by one
 * factor named `name` so that it scores `floor`; their order stays (in place).
 */
export function scaleBelow(after: readonly Candidate[], floor: number, name: string, best = after[0]?.score ?? 0): void {
  if (!(best > floor && best > 0)) return;
  const factor = floor / best;
  for (const c of after) {
    c.factors.push({ name, factor });
    c.score *= factor;
  }
}
