// Per-word weights in the keyword score (settings unnamed_term_weight, unnamed_term_share,
// weak_term_weight, weak_words; all off by default). A query word is either dropped (stop words, change_words:
// query.ts) or weighs in full in BM25; these give a kept word a weight instead: a word among weak_words (what a commit
// subject or a report says about the change: add, update, support …) and a word that no chunk holds
// in its symbol, path or identifier-parts column (prose only: no chunk's symbol, member key, path or
// compound identifier has it as a part) weigh less, while a word the repository names things by
// weighs in full (an identifier written as one, `RetryPolicy`, too: weighing it more lost on most
// probe sets, bench/results/rank-variants-rank10-identifiers.md).
// A weighted word stays in the match (the all-terms pass still needs it); only its share of the score
// shrinks. term_weight_types gates them by query type (query-type.ts). Owns choosing the weights (per clause, once per query) and the phrase → weight map the
// keyword channel (channels/fts.ts) and the merged statistics (term-stats.ts) score with; explain
// shows them (`term_weights`).
import type { Settings } from '../settings.ts';
import { clauseExpr, type ParsedQuery } from './query.ts';
import { queryForm, queryType } from './query-type.ts';
import type { SearchSession } from './session.ts';

/** The phrases of an FTS5 expression as the keyword channel writes it (query.ts: quoted, maybe a trailing `*`). */
export function phrasesOf(expr: string): string[] {
  return expr.match(/"(?:[^"]|"")*"\*?/g) ?? [];
}

/** Whether some chunk holds the word in its symbol, path or identifier-parts column (a name part of this repository), once per generation. */
function named(session: SearchSession, token: string): boolean {
  return session.cached(`named:${token}`, () => session.value('SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1', [`{symbol path idents} : "${token}"`]) !== undefined);
}

/** Chunks a count reads at most (a common word's doclist is long; past it the share is read from these). */
const COUNT_CAP = 20_000;

/**
 * The share of the chunks holding the word that hold it in their symbol or path column (what the
 * repository declares or files by that name), once per generation.
 */
function nameShare(session: SearchSession, token: string): number {
  return session.cached(`name-share:${token}`, () => {
    const count = (expr: string) => Number(session.value('SELECT count(*) FROM (SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT ?)', [expr, COUNT_CAP]));
    const all = count(`"${token}"`);
    return all ? Math.min(1, count(`{symbol path} : "${token}"`) / all) : 0;
  });
}

/** Whether term_weight_types names the query's type or form (query-type.ts: `question` covers both forms, `stated` the stated one). */
function weighsType(types: Settings['term_weight_types'], q: ParsedQuery): boolean {
  return types.includes(queryType(q)) || types.includes(queryForm(q));
}

/**
 * The query with its clauses' weights (ParsedQuery.termWeights, one per clause), or as it was when
 * every weight is 1 (the settings at 1, a text query, a query of one clause).
 */
export function withTermWeights(session: SearchSession, settings: Settings, q: ParsedQuery): ParsedQuery {
  const unnamed = settings.unnamed_term_weight;
  const weak = settings.weak_term_weight;
  if ((unnamed >= 1 && weak >= 1) || q.text || q.clauses.length < 2) return q;
  // Only the query types term_weight_types names (a commit subject's words, not a question's).
  if (!weighsType(settings.term_weight_types, q)) return q;
  const weakWords = new Set(settings.weak_words.map((w) => w.toLowerCase()));
  const weights = q.clauses.map((c) => {
    if (c.kind !== 'word') return 1;
    if (weak < 1 && weakWords.has(c.token)) return weak;
    // (An identifier written as one, `RetryPolicy`, names code whatever the index says.)
    if (unnamed < 1 && !c.prefix && c.parts.length < 2) {
      const share = settings.unnamed_term_share;
      if (share > 0) return unnamed + (1 - unnamed) * Math.min(1, nameShare(session, c.token) / share);
      if (!named(session, c.token)) return unnamed;
    }
    return 1;
  });
  // A query whose every word weighs the same ranks as it did.
  if (weights.every((w) => w === weights[0])) return q;
  return { ...q, termWeights: weights };
}

/** Each weighted phrase of the query's clauses and its weight (null: the query has no weights). */
export function phraseWeights(q: ParsedQuery): Map<string, number> | null {
  const w = q.termWeights;
  if (!w) return null;
  const out = new Map<string, number>();
  q.clauses.forEach((c, i) => {
    if (w[i] !== 1) for (const p of phrasesOf(clauseExpr(c))) out.set(p, w[i]);
  });
  return out.size ? out : null;
}

/** What explain shows: each weighted word and its weight. */
export function weightsShown(q: ParsedQuery): Record<string, number> | undefined {
  const w = q.termWeights;
  if (!w) return undefined;
  const out: Record<string, number> = {};
  q.clauses.forEach((c, i) => {
    if (w[i] !== 1 && c.kind === 'word') out[c.token] = Math.round(w[i] * 1000) / 1000;
  });
  return out;
}
