// The keyword channel with the BM25 statistics of several index files (a search over several
// repositories, core/service/federation.ts): it asks the FTS channel as it is, then scores its hits
// again with the merged statistics (core/search/term-stats.ts) — the score each would have in one
// index of them all — and orders them by that, so every stage after it (declarations, rerank, the
// merge of the repositories' lists) compares like with like; its widening judges a word common or
// not by the counts of them all too (a repository's own name is in most of its chunks, not of the
// union's), and widens only when the complete matches of them all leave the page short. Owns the wrapping and swapping it into
// a mode table; the arithmetic is term-stats.ts, the candidate SQL fts.ts.
import type { ModeRow, ModeTable } from '../modes.ts';
import { ftsExpression, type ParsedQuery } from '../query.ts';
import type { SearchSession } from '../session.ts';
import { globalScores, hitParts, queryPhrases, type FirstPass, type HitParts, type KeywordStats } from '../term-stats.ts';
import type { Channel, ChannelHit } from './channel.ts';
import { RERANK_POOLS, type PassPools } from '../rerank.ts';
import { phrasesOf, phraseWeights } from '../term-weights.ts';
import { clauseExprs, ftsChannel, noCompleteMatches, widenExpr, widenFts, type ClauseCounts } from './fts.ts';

/**
 * `inner`'s hits scored with the statistics of all the indexes, best first. `phrases`: those their
 * BM25 was taken over — the query's (its complete expression's), or the any-term pass's informative
 * ones (the score that pass gives in one index of the union: its common words' parts are not in it).
 */
function rescored(session: SearchSession, q: ParsedQuery, stats: KeywordStats, hits: readonly ChannelHit[], phrases = queryPhrases(q), totals = false): ChannelHit[] {
  if (!hits.length) return [];
  if (!phrases.length) return [...hits];
  // A chunk's parts for these phrases, read once per generation (deeper passes and the wider one ask again).
  const known = session.recent<HitParts>(`fts-parts:${phrases.join(' ')}`, () => new Map());
  const missing = hits.map((h) => h.row.chunkId).filter((id) => !known.has(id));
  // `totals`: the hits' scores are bm25() over exactly these phrases (a pass of the FTS channel itself): one phrase's parts follow from them.
  // (Not when the query weighs its words: those scores are weighted sums, term-weights.ts.)
  const weights = phraseWeights(q);
  const given = totals && !weights ? { scores: new Map(hits.map((h) => [h.row.chunkId, h.score])), own: stats.own } : undefined;
  for (const [id, p] of hitParts(session, phrases, missing, given, stats.own)) known.set(id, p);
  const scores = globalScores(stats.own, stats.all, phrases, new Map(hits.map((h) => [h.row.chunkId, known.get(h.row.chunkId)!])), weights);
  return hits
    .map((h, i) => ({ h: { ...h, score: scores.get(h.row.chunkId) ?? h.score }, i }))
    .sort((a, b) => b.h.score - a.h.score || a.i - b.i)
    .map((x) => x.h);
}

/**
 * The clause counts of all the indexes, when the federation counted every clause of the query (else
 * null: each index's own), and the complete matches the other indexes keep at their head when it
 * counted those (an unfiltered search: term-stats.ts heads), as one index of the union decides.
 */
function allCounts(global: KeywordStats, q: ParsedQuery): ClauseCounts | null {
  const exprs = clauseExprs(q);
  const docs = global.all.docs;
  if (!exprs.every((e) => docs[e] !== undefined)) return null;
  const complete = ftsExpression(q, 'all');
  const all = complete ? global.all.heads?.[complete] : undefined;
  const own = complete ? global.own.heads?.[complete] : undefined;
  const othersKept = all !== undefined && own !== undefined ? Math.max(0, all - own) : 0;
  return { chunks: () => global.all.rows, count: (_session, expr) => docs[expr], othersKept };
}

/** How many hits are among their file's first `cap` (the head a page counts: file-tiers.ts splitAtCap). */
function headsOf(hits: readonly ChannelHit[], cap: number): number {
  const perFile = new Map<number, number>();
  let n = 0;
  for (const h of hits) {
    const k = (perFile.get(h.row.fileId) ?? 0) + 1;
    perFile.set(h.row.fileId, k);
    if (k <= cap) n++;
  }
  return n;
}

/**
 * Whether this index holds no chunk with every clause of the query, told by its own counts (a clause,
 * or the whole expression, counted 0): the FTS channel's all-terms pass would find nothing, so it
 * does not run (it set up a cursor per term for nothing, in every repository that lacks a word of a
 * long query) — and the run knows no chunk matches completely, as that pass would have told it.
 */
function lacksClause(session: SearchSession, q: ParsedQuery, global: KeywordStats, inner: Channel): boolean {
  if (inner !== ftsChannel) return false;
  const all = ftsExpression(q, 'all');
  if (!all || ![all, ...clauseExprs(q)].some((e) => global.own.docs[e] === 0)) return false;
  noCompleteMatches(session, all);
  return true;
}

/** The text-signal pools of this ranking's passes (the pipeline gives them to rerank). */
const passPools = (session: SearchSession): PassPools => session.duringRun<PassPools>(RERANK_POOLS, () => ({}))!;

/**
 * The FTS channel whose scores use the statistics of all the indexes (and, given a share, keeps only
 * its share of the pool, and tells the ranking its share of the text-signal pools).
 */
export function globalFtsChannel(global: KeywordStats, inner: Channel = ftsChannel): Channel {
  const share = global.share;
  // What the last first pass left out of its share: the widening decides and excludes as if it had kept them.
  let dropped: { ids: Set<number>; heads: number } | null = null;
  return {
    ...inner,
    search: (session, q, pool) => {
      const hits = rescored(session, q, global, lacksClause(session, q, global, inner) ? [] : inner.search(session, q, pool), queryPhrases(q), inner === ftsChannel);
      dropped = null;
      // This pass's share of the union's text-signal pools (rerank.ts), at the pool the share is of.
      const pools = passPools(session);
      pools.first = share && pool === share.pool ? share.rerank?.first : undefined;
      pools.both = share && pool === share.pool ? share.rerank?.both : undefined;
      if (!share || pool !== share.pool || hits.length <= share.first) return hits;
      const kept = hits.slice(0, share.first);
      dropped = { ids: new Set(hits.slice(share.first).map((h) => h.row.chunkId)), heads: headsOf(hits, share.cap) - headsOf(kept, share.cap) };
      return kept;
    },
    widen: inner.widen && ((session, q, pool, asked) => {
      const page = dropped ? { ...asked, kept: asked.kept + dropped.heads, seen: new Set([...asked.seen, ...dropped.ids]) } : asked;
      passPools(session).wider = share && pool === share.pool ? share.rerank?.wider : undefined;
      const counts = inner === ftsChannel ? allCounts(global, q) : null;
      let hits: readonly ChannelHit[] | null;
      if (!counts) {
        const found = inner.widen!(session, q, pool, page);
        hits = found && rescored(session, q, global, found);
      } else {
        // Scored over the phrases of the expression that found them (rarer than the query's common words: shorter passes too).
        const expr = widenExpr(session, q, page, counts);
        const found = widenFts(session, q, pool, page, counts, expr);
        // (Each phrase once when near-complete groups, setting near_complete, repeat the query's clauses.)
        hits = found && rescored(session, q, global, found, q.nearComplete ? [...new Set(phrasesOf(expr!))] : phrasesOf(expr!), !q.neighbours);
      }
      return hits && share?.wider !== undefined && pool === share.pool ? hits.slice(0, share.wider) : hits;
    }),
    scoreChunks: inner.scoreChunks && ((session, q, ids, added) => {
      // In the order given (the contract of scoreChunks), scores from the global statistics.
      const hits = inner.scoreChunks!(session, q, ids, added);
      const byId = new Map(rescored(session, q, global, hits).map((h) => [h.row.chunkId, h]));
      return hits.map((h) => byId.get(h.row.chunkId) ?? h);
    }),
  };
}

/**
 * The keyword scores of a query's first pass and its widening at `pool` candidates in this index, with
 * the statistics of all the indexes (inside a read transaction; no path filter): what a search over
 * several splits one pool by (federation.ts). `needed`: the depth the page is ranked at, `cap` a
 * file's share of the head — the widening decides as the pipeline's first depth does (pipeline.ts rankPassesAt).
 */
export function firstPassOf(session: SearchSession, q: ParsedQuery, global: KeywordStats, pool: number, needed: number, cap: number): FirstPass {
  const channel = globalFtsChannel({ all: global.all, own: global.own });
  const first = channel.search(session, q, pool);
  const wider = channel.widen!(session, q, pool, { kept: headsOf(first, cap), needed, seen: new Set(first.map((h) => h.row.chunkId)) });
  return { pool, first: first.map((h) => h.score), wider: wider ? wider.map((h) => h.score) : null };
}

/** The mode table with the FTS channel of every row (and its routes) scoring with `global` statistics. */
export function withGlobalStats(modes: ModeTable, global: KeywordStats): ModeTable {
  const fts = globalFtsChannel(global);
  const swap = (c: Channel) => (c === ftsChannel ? fts : c);
  const out: ModeTable = {};
  for (const [mode, row] of Object.entries(modes) as Array<[keyof ModeTable, ModeRow]>) {
    const route = row.route;
    out[mode] = { ...row, channels: row.channels.map(swap), ...(route ? { route: (q: ParsedQuery) => route(q).map(swap) } : {}), ...(row.unranked ? { unranked: row.unranked.map(swap) } : {}) };
  }
  return out;
}
