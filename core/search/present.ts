// Presentation: ranked candidates as contract hits (the snippet of best-matching lines, the innermost
// symbol holding the best one, paired files, the compiler note), and the whole answer — the page cut to its token budget, the next cursor, and the status
// and hint wording (never a bare empty list). Owns that wording and the hit shape; ranking is the
// pipeline's, the cursor format and the budget arithmetic page.ts's, freshness the workspace's.
import { asHciError } from '../platform.ts';
import type { SkipCounts } from '../scan/walker.ts';
import { CONTRACT_VERSION, type IndexFreshness, type SearchHit, type SearchRequest, type SearchResponse } from './contract.ts';
import { loadBodies, round, type Candidate } from './candidates.ts';
export { round };
import type { Channel } from './channels/channel.ts';
import { conventionalPairsFor } from './pairs.ts';
import { queryTerms, type ParsedQuery } from './query.ts';
import { linesSnippet, makeSnippet } from './snippet.ts';
import { innermostSymbol, type OutlineSymbol } from './symbols.ts';
import type { SearchSession } from './session.ts';
import { encodeCursor, estimateTokens, fitTokenBudget, MAX_TEXT_HITS } from './page.ts';
import type { SearchPage } from './candidates.ts';
import { languageById } from '../languages/table.ts';

export const CSHARP_NOTE = 'text match: confirm symbol facts (usages, overrides, renames) with the compiler';


/** Renders ranked candidates into contract hits (loads the files' text for snippets). */
export function renderHits(session: SearchSession, cands: Candidate[], firstRank: number, parsed: ParsedQuery, queryKey: string): SearchHit[] {
  const terms = queryTerms(parsed);
  loadBodies(session, cands);
  const pairs = conventionalPairsFor(session.indexedPaths(), [...new Set(cands.map((c) => c.path))]);
  return cands.map((c, i) => {
    const scores: Partial<Record<NonNullable<Channel['scoreField']>, number>> = {};
    for (const e of c.channels) if (e.channel.scoreField) scores[e.channel.scoreField] = round(e.score);
    const norms = c.fusion ? { fts_norm: round(c.fusion.keyword), vec_norm: round(c.fusion.vector) } : {};
    const snippet = c.matchLines ? linesSnippet(c.body ?? '', c.startLine, c.matchLines) : makeSnippet(c.body ?? '', c.startLine, terms);
    const hit = {
      hit_id: `${c.chunkId}.${queryKey}`,
      rank: firstRank + i,
      path: c.path,
      start_line: c.startLine,
      end_line: c.endLine,
      hit_kind: c.hitKind,
      score: round(c.score),
      ...scores,
      ...norms,
      lang: c.lang,
      snippet: snippet.text,
    } as SearchHit;
    if (c.matchLines) hit.match_lines = [...c.matchLines];
    const inner = snippet.bestLine !== null ? innermostIn(session, c, snippet.bestLine) : null;
    if (inner) hit.symbol = { kind: inner.kind, name: inner.name, ...(inner.member_key ? { member_key: inner.member_key } : {}) };
    else if (c.symbolName) hit.symbol = { kind: c.symbolKind ?? 'symbol', name: c.symbolName, ...(c.memberKey ? { member_key: c.memberKey } : {}) };
    const paired = pairs.get(c.path);
    if (paired?.length) hit.paired = paired.map((p) => p.path);
    if (languageById(c.lang)?.compilerNote) hit.note = CSHARP_NOTE;
    return hit;
  });
}

/**
 * Ranked candidates as hits for a merge only (core/service/federation.ts): the ids, lines, keys and
 * scores renderHits gives them, no snippet, symbol or pairs (no file read); the merge renders the
 * ones its page keeps with renderHits (pipeline.ts DeferredRender).
 */
export function leanHits(cands: readonly Candidate[], firstRank: number, queryKey: string): SearchHit[] {
  return cands.map((c, i) => ({
    hit_id: `${c.chunkId}.${queryKey}`, rank: firstRank + i, path: c.path, start_line: c.startLine, end_line: c.endLine,
    hit_kind: c.hitKind, score: round(c.score), lang: c.lang, snippet: '',
  }) as SearchHit);
}

/**
 * The innermost outline symbol that holds the hit's best-matching line and starts within the chunk:
 * in a chunk packed from several members, the member that matched, not the first one; in a chunk
 * that opens a long type (its doc comment and declaration line glued to its first member, see
 * core/chunk/build.ts), the type when the declaration line is what matched — `OneForOneStrategy`
 * answers `class OneForOneStrategy`, not the field `_maxNumberOfRetries` its first chunk also holds.
 * A symbol that starts before the chunk (a window of a long method, a gap between members) leaves
 * the chunk's own symbol.
 */
function innermostIn(session: SearchSession, c: Candidate, line: number): OutlineSymbol | null {
  const outline = session.files.get(c.fileId, c.hash)?.outline;
  if (!outline) return null;
  const s = innermostSymbol(outline, line);
  return s && s.start_line >= c.startLine ? s : null;
}

/** The answer before anything ran: what a failure answers with, and the frame the token budget counts. */
export function baseResponse(req: SearchRequest): SearchResponse {
  return {
    contract_version: CONTRACT_VERSION, status: 'ok', query: typeof req?.query === 'string' ? req.query : '',
    mode: req?.mode ?? 'keyword', match: 'none', hits: [], took_ms: 0, index: null, skipped: {}, truncated: false,
  };
}

/** A failed search as an answer: `no_index` has its own status, everything else is `error`. */
export function failedResponse(req: SearchRequest, e: unknown, t0: number): SearchResponse {
  const err = asHciError(e);
  const status = err.code === 'no_index' ? 'no_index' : 'error';
  return { ...baseResponse(req), status, took_ms: Date.now() - t0, error: { code: err.code, message: err.message }, hint: err.hint };
}

/**
 * The answer to a search: the page cut to the token budget (the frame with freshness and skips
 * counts too), the cursor to the next page, and the status and hint for the state of the index and
 * the match. `index` is the freshness read in the same transaction as the page.
 */
export function searchResponse(req: SearchRequest, page: SearchPage, index: IndexFreshness, skipped: SkipCounts, t0: number): SearchResponse {
  const base = baseResponse(req);
  let hits = page.hits;
  let truncated = false;
  if (req.max_tokens !== undefined) ({ kept: hits, truncated } = fitTokenBudget(page.hits, req.max_tokens, estimateTokens({ ...base, index, skipped })));
  const { ranked } = page;
  const res: SearchResponse = { ...base, mode: ranked.mode, match: ranked.match, hits, index, skipped, truncated, took_ms: Date.now() - t0 };
  // The next page of the same ranked list (depth.ts): the cursor holds only where it starts.
  if (truncated || page.more) res.next_cursor = encodeCursor(page.range.offset + hits.length);
  const building = index.build_state !== 'complete';
  if (building && index.indexer_running) {
    res.status = 'indexing';
    res.hint = `the index is being built (${index.files} files so far); results are partial — search again shortly`;
  } else if (hits.length === 0) {
    res.status = 'empty';
    res.hint = emptyHint(index, ranked.parsed, ranked.filtered);
  } else if (building) {
    res.hint = 'the last indexing run did not finish; run `hci index` to complete the index';
  } else if (incompleteText(ranked)) {
    const d = incompleteText(ranked)!;
    res.hint = `the text matches in more places than one search collects: these hits come from the first ${d.checked_files} files (in index order) that could hold it, and more remain; ` +
      'narrow it with path:, ext: or -path: (or a longer pattern) to see the rest';
  } else if (ranked.fallback === 'quoted_literal_not_found') {
    res.hint = 'no line holds the quoted text together with the other words; these hits match the same words as search terms, not as exact text';
  } else if (ranked.fallback === 'quoted_literal_filled') {
    const n = ranked.complete;
    res.hint = `only ${n === 1 ? '1 chunk holds' : `${n} chunks hold`} the quoted text with the other words; the other hits match the same words as search terms, not as exact text`;
  } else if (ranked.fallback === 'quoted_literal_timeout') {
    res.hint = 'the quoted text could not be checked in every file within the time budget; these hits match the same words as search terms, not as exact text ' +
      '(turn on literal_index = true in .hci/settings.toml and run `hci index` for exact text at this size, or raise literal_budget_ms)';
  } else if (ranked.fusion) {
    if (ranked.fusion.route === 'keyword') res.hint = `keyword results only (${ranked.fusion.route_reason})`;
  } else if (ranked.match === 'any') {
    res.hint = 'no chunk contains all terms; these hits match some of them';
  } else if (ranked.match === 'all_then_any') {
    res.hint = ranked.complete === 1
      ? 'only 1 chunk contains all terms; the other hits match some of them'
      : `only ${ranked.complete} chunks contain all terms; the other hits match some of them`;
  }
  return res;
}

/**
 * The literal channel's run details when it stopped before checking every candidate file at the
 * largest hit cap (else null): the run of the deepest ranking the list reached (depth.ts), which found
 * its last hit. A run stopped at a smaller cap (the first tier's 64) is continued by the next pages.
 */
function incompleteText(ranked: SearchPage['ranked']): Readonly<Record<string, number | string>> | null {
  const d = ranked.ranked.at(-1)?.channels.find((e) => e.channel.name === 'literal')?.detail;
  return d?.complete === 'no' && Number(d.chunks_matched) >= MAX_TEXT_HITS ? d : null;
}

function emptyHint(index: IndexFreshness, parsed: ParsedQuery, filtered: boolean): string {
  const text = parsed.text;
  if (text) {
    const what = text.patterns.map((p) => (p.kind === 'regex' ? `regex ${JSON.stringify(p.source)}` : JSON.stringify(p.source))).join(' and ');
    const how = [text.caseSensitive ? (text.smartCase ? 'case-sensitive: smart case, the pattern has an upper-case letter; case_sensitive false ignores case' : 'case-sensitive') : 'ignoring case', ...(text.wholeWord ? ['whole words'] : [])].join(', ');
    return `no line of the ${index.files} indexed files${filtered ? ' within the filters' : ''} holds ${what} (${how}). ` +
      'This is not proof of absence: check `skipped` for files left out, and secret lines are never indexed';
  }
  if (parsed.clauses.length === 0) return 'the query has no searchable words (only filters); add a word, an identifier or a "literal"';
  return `no indexed chunk matches${filtered ? ' within the filters' : ''}; the index holds ${index.files} files (generation ${index.generation}). ` +
    'This is not proof of absence: check `skipped` for files left out, try other words, or drop filters';
}
