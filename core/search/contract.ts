// The search contract shared by the library, the CLI's --json and MCP structured output.
// Owns the shapes and their meaning; a field's meaning never changes silently (bump CONTRACT_VERSION).
import type { SkipCounts } from '../scan/walker.ts';

export const CONTRACT_VERSION = 1;

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';
export type SearchStatus = 'ok' | 'empty' | 'no_index' | 'indexing' | 'error';

/** What a hit is evidence of. `text_fts`: keyword match in text; C# symbol truth needs a compiler. */
export type HitKind = 'text_fts' | 'text_vector' | 'hybrid';

export type MatchKind = 'all' | 'all_then_any' | 'any' | 'none';

export interface SearchRequest {
  query: string;
  /** Hits per page (default 8, max 50). */
  limit?: number;
  /** Path prefixes or globs (`src/Web/`, `**\/*.razor`); a hit must match one. */
  paths?: string[];
  /** Extensions, with or without the dot. */
  exts?: string[];
  /** Path prefixes or globs to leave out. */
  exclude_paths?: string[];
  mode?: SearchMode;
  /** Rough budget for the whole answer in tokens (≈ 4 characters each); hits beyond it are cut. */
  max_tokens?: number;
  /** From a previous answer's next_cursor. */
  cursor?: string;
}

export interface HitSymbol {
  kind: string;
  name: string;
  member_key?: string;
}

export interface SearchHit {
  hit_id: string;
  rank: number;
  path: string;
  start_line: number;
  end_line: number;
  hit_kind: HitKind;
  score: number;
  fts_score: number;
  vec_score?: number;
  lang: string;
  symbol?: HitSymbol;
  snippet: string;
  /** Files that belong with this one (code-behind, scoped CSS, the markup of a code-behind). */
  paired?: string[];
  /** For C# text hits: symbol-level truth (usages, rename) needs a compiler (Roslyn) follow-up. */
  note?: string;
}

export interface IndexFreshness {
  location: string;
  generation: number;
  indexed_at: string | null;
  build_state: string;
  files: number;
  chunks: number;
  /** Files changed on disk since the index was built, when known (null: not checked). */
  pending_changes: number | null;
  indexer_running: boolean;
}

export interface SearchResponse {
  contract_version: number;
  status: SearchStatus;
  query: string;
  mode: SearchMode;
  /**
   * `all`: every hit holds every term; `all_then_any`: the first hits hold every term, the ones after
   * them (too few held all) hold some; `any`: no chunk holds all terms, every hit holds some.
   */
  match: MatchKind;
  hits: SearchHit[];
  took_ms: number;
  index: IndexFreshness | null;
  skipped: SkipCounts;
  truncated: boolean;
  next_cursor?: string;
  hint?: string;
  error?: { code: string; message: string };
}
