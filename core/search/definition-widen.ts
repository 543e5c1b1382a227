// Definition widening: a short query that names an identifier ("SymbolThemeFontFamily resource
// definition") whose every word more chunks hold than the ranking's depth (the usages: `{StaticResource
// SymbolThemeFontFamily}` beside a `Grid.ColumnDefinitions`) is ranked over those complete matches
// only — the any-term pass (channels/fts.ts widen) runs only while the page is short — so the chunk
// that DEFINES the name (`<FontFamily x:Key="SymbolThemeFontFamily">`, which lacks "definition") is
// no candidate at the first tier's depth, and a deeper tier then lists it below the first tier's
// positions (depth.ts), scaled down like any body hit. Here the chunks that hold one of the query's
// identifiers (boosts.ts definitionTargets: a query of at most three words) best — by that name's own
// BM25, so a short chunk declaring it leads the long ones using it — join such a pass as partial
// matches (setting `definition_widen`: how many; 0: off), scored by the channel on the whole query
// as a declaration's chunk is (explain: fts `added: definition_widen`); rerank's text signals then
// tell a definition (definition_like) from a usage. Owns choosing those chunks; scoring is the
// channel's, ranking rerank's, when a pass widens the pipeline's.
import { definitionTargets } from './boosts.ts';
import { clauseExpr, type Clause, type ParsedQuery } from './query.ts';
import { rankedChunks } from './channels/fts.ts';
import type { Channel, ChannelHit } from './channels/channel.ts';
import type { SearchSession } from './session.ts';

/** The explain label of the chunks this adds (the FTS detail's `added`). */
export const DEFINITION_WIDEN = 'definition_widen';

/** The query's word clauses that are one of its definition targets (case aside). */
export function targetClauses(q: ParsedQuery): Clause[] {
  const targets = new Set(definitionTargets(q).map((t) => t.toLowerCase()));
  if (!targets.size) return [];
  return q.clauses.filter((c) => c.kind === 'word' && targets.has(c.token));
}

/**
 * The chunks (at most `count`, none of `seen`) that hold one of the query's identifiers best, scored
 * by `channel` on the whole query (channel.scoreChunks), best first; null when the query names no
 * identifier among other words, the channel cannot score given chunks, or `count` is 0.
 */
export function definitionWiden(session: SearchSession, q: ParsedQuery, channel: Channel, count: number, seen: ReadonlySet<number>): ChannelHit[] | null {
  if (count <= 0 || q.text || q.clauses.length < 2 || !channel.scoreChunks) return null;
  const clauses = targetClauses(q);
  if (!clauses.length) return null;
  const expr = clauses.map(clauseExpr).join(' OR ');
  // Ranked as the FTS channel's wider pass ranks (the path filter applied), its hits kept for this
  // ranking: when the identifiers are all the query's words, scoring the chunks on the whole query's
  // any-term expression reads them, not the index again. (Those already candidates are skipped after
  // the limit: the best `count` holders, not more.)
  const ids = rankedChunks(session, expr, count).filter((id) => !seen.has(id));
  if (!ids.length) return null;
  const hits = channel.scoreChunks(session, q, ids, DEFINITION_WIDEN);
  return hits.length ? [...hits].sort((a, b) => b.score - a.score) : null;
}
