// Scores that agree with the order: a ranked list whose order a placement rule decided beyond the
// scores (the hybrid fusion's guard keeps keyword's first files first whatever their fused value)
// has each hit raised to the score of the hit after it, when that one scores more (factor
// `placement`, which explain shows), so an answer's `score` never rises down the page. Owns that
// pass; the rules that place hits are the fusions' and rerank's.
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
