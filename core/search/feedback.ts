// Pseudo-relevance feedback with the repository's own identifiers (RM3-style, as a rerank): the
// best few files of a first ranking are taken as relevant; the identifiers their best chunks share
// (CamelCase names written in two or more of those files, not already query words) are what the
// query is about in this code base's own vocabulary. One more FTS query scores the ranked chunks by
// those identifiers, and each ranked chunk's score is raised by up to `feedback_weight` of itself in
// proportion (factor `feedback_terms` in explain). The page is re-sorted, never widened: chunks the
// first ranking did not find stay out. Owns the choice of feedback terms and the factor; finding
// and ranking candidates is the channels' and rerank.ts's.
import type { Settings } from '../settings.ts';
import { loadBodies, type Candidate } from './candidates.ts';
import type { ParsedQuery } from './query.ts';
import type { SearchSession } from './session.ts';

/** Files of the first ranking taken as relevant. */
const FEEDBACK_FILES = 5;
/** Identifiers added at most. */
const FEEDBACK_TERMS = 4;
/** A multi-part identifier (`ResetAsync`, `_debounceTimer`, `MAX_ITEMS`): what the repository names things by. */
const IDENTIFIER = /\b_?[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+|_[A-Za-z0-9]+)+\b/g;

/** Feedback runs for queries of this many words or more (shorter ones are lookups, not descriptions). */
const MIN_WORDS = 3;

/** The feedback identifiers of a ranking (lowercase), best first; empty when feedback does not apply. */
export function feedbackTerms(session: SearchSession, q: ParsedQuery, ranked: readonly Candidate[]): string[] {
  if (q.clauses.filter((c) => c.kind === 'word').length < MIN_WORDS) return [];
  const best: Candidate[] = [];
  const files = new Set<number>();
  for (const c of ranked) {
    if (files.has(c.fileId)) continue;
    files.add(c.fileId);
    best.push(c);
    if (best.length >= FEEDBACK_FILES) break;
  }
  if (best.length < 2) return [];
  loadBodies(session, best);
  const own = new Set<string>(q.clauses.flatMap((c) => (c.kind === 'word' ? [c.token] : c.kind === 'phrase' ? c.tokens : [])));
  for (const c of q.compounds ?? []) own.add(c.token);
  const top = best[0].score || 1;
  const weight = new Map<string, { w: number; files: number }>();
  for (const c of best) {
    const seen = new Set<string>();
    for (const m of (c.body ?? '').matchAll(IDENTIFIER)) {
      const id = m[0].toLowerCase().replace(/^_/, '');
      if (id.length < 6 || own.has(id) || seen.has(id)) continue;
      seen.add(id);
      const e = weight.get(id) ?? { w: 0, files: 0 };
      e.w += c.score / top;
      e.files++;
      weight.set(id, e);
    }
  }
  return [...weight].filter(([, e]) => e.files >= 2).sort((a, b) => b[1].w - a[1].w || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS).map(([id]) => id);
}

/**
 * Raises each ranked chunk by its BM25 over the feedback identifiers (normalised to the best such
 * chunk), times `feedback_weight`, and re-sorts (score, path, line). Returns the terms used.
 */
export function applyFeedback(session: SearchSession, settings: Settings, q: ParsedQuery, ranked: Candidate[]): string[] {
  if (settings.feedback_weight <= 0 || ranked.length < 2) return [];
  const terms = feedbackTerms(session, q, ranked);
  if (!terms.length) return [];
  const ids = ranked.map((c) => c.chunkId);
  const rows = session.db.selectArrays(
    `SELECT rowid, bm25(chunks_fts) FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`,
    [terms.map((t) => `"${t}"`).join(' OR '), JSON.stringify(ids)],
  ) as Array<[number, number]>;
  if (!rows.length) return terms;
  const fb = new Map(rows.map(([id, bm]) => [Number(id), -Number(bm)]));
  const max = Math.max(...fb.values());
  if (!(max > 0)) return terms;
  for (const c of ranked) {
    const s = fb.get(c.chunkId);
    if (!s || s <= 0) continue;
    const factor = 1 + settings.feedback_weight * (s / max);
    c.factors.push({ name: 'feedback_terms', factor });
    c.score *= factor;
  }
  ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine);
  return terms;
}
