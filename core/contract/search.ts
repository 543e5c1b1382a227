// The search request and answer: what a caller asks (words, filters, paging, a token budget) and what
// every surface returns (status, match, ranked hits, freshness, skips). Owns these shapes; ranking is
// core/search/ (paging core/search/page.ts, the status and hint wording core/search/present.ts), host
// additions (the running task, hints worded for MCP) core/service/.
import { z } from 'zod';
import { answerFields, errorInfo, fileKind, freshness, skipCounts, symbolRef } from './common.ts';
import { taskView } from './tasks.ts';
import { MAX_TOKENS_MIN, QUERY_MAX_CHARS, SEARCH_LIMIT, SEARCH_MODES } from './limits.ts';

export { SEARCH_LIMIT };

export const searchMode = z.enum(SEARCH_MODES);
export const searchStatus = z.enum(['ok', 'empty', 'no_index', 'indexing', 'error']);
/**
 * What a hit is evidence of. `text_fts`: keyword match in text (C# symbol truth needs a compiler);
 * `text_vector`: similar in meaning by the embedding model, holds none of the terms necessarily;
 * `hybrid`: found by both channels; `text_literal`: the exact text (a literal or a regex) is on the
 * hit's match_lines.
 */
export const hitKind = z.enum(['text_fts', 'text_vector', 'hybrid', 'text_literal']);
/** `similar` (contract 2): the hits are nearest neighbours by meaning, not term matches (semantic mode, similar). */
export const matchKind = z.enum(['all', 'all_then_any', 'any', 'none', 'similar']);

export const searchRequest = z.object({
  query: z
    .string()
    .max(QUERY_MAX_CHARS)
    .describe('identifiers (GetCatalogItemsAsync), words (all must match; camelCase is split), "quoted phrases", prefix*, and inline filters path:src/Web/ ext:cs,razor -path:tests/; ' +
      'a quoted phrase with punctuation ("?.Invoke(", "/api/v1/") is matched exactly, re:<regex> searches by RE2 regex; with mode literal or regex the whole query is the pattern'),
  limit: z.number().int().min(1).max(SEARCH_LIMIT.max).optional().describe(`hits per page, 1-${SEARCH_LIMIT.max} (default ${SEARCH_LIMIT.default})`),
  paths: z.array(z.string()).optional().describe('only hits under these workspace-relative path prefixes or globs, e.g. ["src/Web/", "**/*.razor"]'),
  exts: z.array(z.string()).optional().describe('only these extensions, with or without the dot, e.g. ["cs", "razor"]'),
  exclude_paths: z.array(z.string()).optional().describe('leave out these path prefixes or globs, e.g. ["tests/"]'),
  exclude_kinds: z.array(fileKind).optional().describe('leave out test files and/or generated files, e.g. ["test", "generated"]'),
  mode: searchMode.optional().describe(
    'keyword (default): identifiers, exact names, error messages, config keys. hybrid: questions and descriptions in words (what code does, not what it is called): ' +
      'keyword hits plus chunks similar in meaning, keyword\'s top files kept first. semantic: meaning only. hybrid/semantic need semantic search turned on ([semantic] in .hci/settings.toml); else mode_unavailable. ' +
      'literal: the query is exact text; regex: the query is an RE2 regex (both list match_lines, like grep)',
  ),
  case_sensitive: z.boolean().optional().describe('literal and regex matching: true matches case exactly, false ignores it; default smart case, as rg -S: case-sensitive when the pattern has an upper-case letter'),
  whole_word: z.boolean().optional().describe('literal and regex matching: only where the match is not inside a longer word (like grep -w)'),
  max_tokens: z.number().min(MAX_TOKENS_MIN).optional().describe('budget for the whole answer (~4 characters per token); hits beyond it are cut and truncated=true'),
  cursor: z.string().optional().describe('next_cursor from a previous answer, for the next page'),
  repos: z.array(z.string()).optional().describe('a search over several repositories (hci search --root A --root B, hci mcp A B): only hits from these, by the names hits carry in repo'),
});

export const searchHit = z.object({
  hit_id: z.string().describe('handle for explain_result'),
  rank: z.number(),
  repo: z.string().optional().describe('a search over several repositories: the repository of the hit (path is relative to it; hit_id and paths for other calls are qualified as <repo>/<path>)'),
  path: z.string().describe('workspace-relative, forward slashes'),
  start_line: z.number().describe('1-based, inclusive'),
  end_line: z.number().describe('1-based, inclusive'),
  hit_kind: hitKind.describe('text_fts: keyword match in text (for C#, symbol truth needs the compiler); text_vector: similar in meaning (embedding); hybrid: both; text_literal: the exact text or regex is on match_lines'),
  score: z.number().describe('keyword: BM25 times the factors explain lists; semantic: cosine times those factors; hybrid: the fused score (weights × normalised channel scores); literal/regex: literal_score times the factors. ' +
    'Hits come in rank order and their scores never rise down the list: a hit a rule places first (hybrid: keyword\'s top files) is raised to the score of the hit after it (factor `placement` in explain)'),
  fts_score: z.number().optional().describe('the keyword channel\'s score, when it found this chunk (contract 2: absent on vector-only and literal hits)'),
  vec_score: z.number().optional().describe('cosine similarity of the query and the chunk, when the vector channel found it'),
  fts_norm: z.number().optional().describe('hybrid: the keyword score min-max normalised over keyword\'s candidates (the chunk\'s or its file\'s best; 0: none)'),
  vec_norm: z.number().optional().describe('hybrid: the vector score min-max normalised over the vector candidates (the chunk\'s or its file\'s best; 0: none)'),
  literal_score: z.number().optional().describe('the literal channel\'s BM25 over matching lines (present when it found the hit)'),
  match_lines: z.array(z.number()).optional().describe('literal and regex hits: the 1-based lines of this range where the text matches'),
  lang: z.string(),
  symbol: symbolRef.optional(),
  snippet: z.string().describe('the best matching lines, "<line>: <text>"'),
  paired: z.array(z.string()).optional().describe('files that belong with this one: code-behind, scoped CSS, the markup of a code-behind'),
  note: z.string().optional().describe('for C# text hits: symbol-level truth (usages, rename) needs a compiler (Roslyn) follow-up'),
});

/** One repository's part of a search over several. */
export const repoAnswer = z.object({
  repo: z.string(),
  root: z.string().describe('its workspace folder or published index URL'),
  status: searchStatus,
  hits: z.number().describe('hits it gave the merge (its best offset + limit)'),
  index: freshness,
  error: errorInfo.optional(),
});

export const searchResponse = z.object({
  contract_version: z.number(),
  status: searchStatus,
  query: z.string(),
  mode: z.string().describe('the mode that answered: keyword | semantic | hybrid | literal | regex (a keyword query with re: or a quoted literal is answered as regex or literal)'),
  match: matchKind.describe(
    'all: every hit holds every term; all_then_any: too few chunks held every term, so hits that hold some of them fill the page (ranked with the others by score; ' +
      'with the setting partial_matches = "after_complete" every hit holding all terms comes first); ' +
      'any: no chunk holds all terms, every hit holds some; none: nothing matched',
  ),
  hits: z.array(searchHit),
  took_ms: z.number(),
  skipped: skipCounts,
  skipped_files: z.array(z.object({ path: z.string(), reason: z.string() })).optional().describe('a first page with few hits: files left out of the index whose path or name matches the query (the hint names them too)'),
  truncated: z.boolean().describe('true when max_tokens cut this page; next_cursor continues'),
  next_cursor: z.string().optional(),
  repos: z.array(repoAnswer).optional().describe('a search over several repositories: how each answered (its hits are merged by score into hits, BM25 weighed with the statistics of all their indexes together)'),
  ...answerFields,
});

/** A long-lived host's answer: the contract answer plus the indexing run in progress, if any. */
export const searchAnswer = searchResponse.extend({
  task: taskView.optional().describe('the indexing run in progress, if any'),
});

export type SearchMode = z.infer<typeof searchMode>;
export type SearchStatus = z.infer<typeof searchStatus>;
export type HitKind = z.infer<typeof hitKind>;
export type MatchKind = z.infer<typeof matchKind>;
export type SearchRequest = z.infer<typeof searchRequest>;
export type SearchHit = z.infer<typeof searchHit>;
export type SearchResponse = z.infer<typeof searchResponse>;
export type SearchAnswer = z.infer<typeof searchAnswer>;
export type RepoAnswer = z.infer<typeof repoAnswer>;
