// Query expansion through the shipped code model's neighbours (setting `neighbour_terms`, off at 0):
// a natural-language question (query-type.ts: words only, never an identifier) gets, per query word,
// the model's nearest tokens (core/vector/neighbours.ts) that this index holds, and the keyword
// channel's any-term pass (channels/fts.ts widen) adds their BM25 at a low weight (`neighbour_weight`)
// — a chunk that says `Save` where the question says "persisted" gains a little, and a chunk only the
// neighbours reach can enter the pool after the chunks the question's own words found. The neighbours are
// co-occurrence, not synonyms, hence a floor on their cosine (`neighbour_floor`), few per word, and a
// weight well below the words'. Owns choosing the terms (prepare: the model's side; in the read
// transaction: the index's vocabulary) and merging their hits into a pass; explain shows which
// neighbours a hit matched (the repository's learned terms, learned-terms.ts, join a pass the same way). Loading the model is the workspace's; the FTS statements are fts.ts's.
import { STOP_WORDS } from '../text/analyzer.ts';
import type { TokenNeighbours } from '../vector/neighbours.ts';
import type { ChannelHit } from './channels/channel.ts';
import type { NeighbourExpansion, NeighbourTerm, ParsedQuery } from './query.ts';
import { queryType } from './query-type.ts';
import type { SearchSession } from './session.ts';

export interface NeighbourOptions {
  /** Neighbours per query word (0: off). */
  perWord: number;
  /** Their BM25's weight beside the query words'. */
  weight: number;
  /** The least cosine a neighbour needs. */
  floor: number;
}

/** A neighbour must look like a word: letters only, at least this long (`cf`, `df` are not words). */
const WORD = /^\p{L}{3,}$/u;
/** Parts of hex colours (`ffeb`, `eceff`: colour tables hold them next to colour words). */
const HEX_PART = /^[a-f]*ff[a-f]*$/;

/**
 * The model's candidates for a parsed query, or undefined when it is not expanded: only a question
 * (no identifier among its words), only its plain word clauses (no prefixes, no identifier parts),
 * neighbours that are words and not already query words.
 */
export function neighbourCandidates(q: ParsedQuery, model: TokenNeighbours, o: NeighbourOptions): NeighbourExpansion | undefined {
  if (o.perWord <= 0 || o.weight <= 0 || q.text || queryType(q) !== 'question') return undefined;
  const own = new Set<string>();
  for (const c of q.clauses) {
    if (c.kind === 'word') own.add(c.token);
    else if (c.kind === 'phrase') c.tokens.forEach((t) => own.add(t));
  }
  const terms: NeighbourTerm[] = [];
  const taken = new Set<string>();
  for (const c of q.clauses) {
    if (c.kind !== 'word' || c.prefix || c.parts.length) continue;
    let n = 0;
    // Asked for more than needed: some are dropped below.
    for (const nb of model.nearest(c.token, Math.min(16, o.perWord * 3), o.floor)) {
      if (n >= o.perWord) break;
      const t = nb.token;
      if (own.has(t) || taken.has(t) || STOP_WORDS.has(t) || !WORD.test(t) || HEX_PART.test(t)) continue;
      taken.add(t);
      terms.push({ from: c.token, token: t, cosine: nb.cosine });
      n++;
    }
  }
  return terms.length ? { weight: o.weight, terms } : undefined;
}

/** The expansion's terms this index holds (asked of FTS5 once per term and index generation). */
export function heldNeighbours(session: SearchSession, x: NeighbourExpansion): NeighbourTerm[] {
  return x.terms.filter((t) => session.cached(`held:${t.token}`, () => session.value('SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1', [`"${t.token}"`]) !== undefined));
}

/** Runs an FTS5 expression for a pool: the keyword channel's any-term statement (hits with score = −BM25). */
export type RunAny = (expr: string, pool: number) => readonly ChannelHit[];

/**
 * An any-term pass with the question's neighbours: each hit's score plus the BM25 of the neighbours
 * it holds, scaled so the best neighbour hit adds `weight` × the best word hit's score; chunks only
 * the neighbours reach join with that alone (outside `seen`, the first pass's chunks). Best first, at most `pool`. A hit the neighbours touched says which ones
 * (detail.neighbours) and keeps its own BM25 (detail.bm25).
 */
export function withNeighbourHits(session: SearchSession, q: ParsedQuery, pool: number, hits: readonly ChannelHit[], seen: ReadonlySet<number>, run: RunAny): readonly ChannelHit[] {
  const x = q.neighbours;
  if (!x) return hits;
  const terms = heldNeighbours(session, x);
  if (!terms.length) return hits;
  const expr = terms.map((t) => `"${t.token}"`).join(' OR ');
  const extra = run(expr, pool).filter((h) => !seen.has(h.row.chunkId));
  if (!extra.length) return hits;
  const byChunk = new Map<number, ChannelHit>(hits.map((h) => [h.row.chunkId, h]));
  // The neighbours' BM25 on the words' scale: the best neighbour hit counts `weight` × the best word
  // hit (a rare neighbour's IDF would otherwise outweigh the question's own words).
  const best = (xs: readonly ChannelHit[]) => xs.reduce((m, h) => Math.max(m, h.score), 0);
  const scale = hits.length && best(extra) > 0 ? (x.weight * best(hits)) / best(extra) : x.weight;
  const matched = matchedTerms(session, terms, extra.map((h) => h.row.chunkId));
  for (const e of extra) {
    const id = e.row.chunkId;
    const own = byChunk.get(id);
    const names = (matched.get(id) ?? []).map((t) => `${t.token}←${t.from}`).join(', ');
    const detail = { ...(own?.detail ?? { terms: 'neighbours' }), bm25: own ? -own.score : 0, neighbour_bm25: -e.score, neighbours: names };
    byChunk.set(id, { ...(own ?? e), score: (own?.score ?? 0) + scale * e.score, detail });
  }
  return [...byChunk.values()].sort((a, b) => b.score - a.score || a.row.chunkId - b.row.chunkId).slice(0, Math.max(pool, hits.length));
}

/** Which terms each chunk holds (one statement per term over the chunks). */
function matchedTerms(session: SearchSession, terms: readonly NeighbourTerm[], chunkIds: readonly number[]): Map<number, NeighbourTerm[]> {
  const out = new Map<number, NeighbourTerm[]>();
  const ids = JSON.stringify(chunkIds);
  for (const t of terms) {
    const rows = session.arrays('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))', [`"${t.token}"`, ids]);
    for (const [id] of rows) {
      const list = out.get(Number(id));
      if (list) list.push(t);
      else out.set(Number(id), [t]);
    }
  }
  return out;
}
