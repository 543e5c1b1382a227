// The settings every workspace has when `.hci/settings.toml` and the caller set nothing: the
// default of every key, as a plain object. Kept apart from the schema (settings.ts, zod and the TOML
// parser) so a workspace without settings opens without loading either; settings.ts declares each
// key's default from here (HciWorkspace.open and settings.ts's defaultSettings() take these as a
// Settings, so a key without a default does not compile), and test/settings.test.ts checks the
// schema's defaults are exactly these.
import { DEFAULT_EXTENSIONS } from './languages/table.ts';
import type { SemanticSettings } from './vector/settings.ts';
import type { QueryForm } from './search/query-type.ts';

/** Every language-table row's default extensions (core/languages/table.ts). */
export const DEFAULT_INCLUDE_EXTENSIONS: string[] = [...DEFAULT_EXTENSIONS];

// No `packages`: it is a JavaScript/TypeScript monorepo's source as often as NuGet's restore folder;
// restored NuGet packages are known by what they hold (skip_nuget_packages, core/scan/nuget-folders.ts).
export const DEFAULT_EXCLUDE_PATH_SEGMENTS = [
  'bin', 'obj', 'node_modules', '.git', '.vs', '.idea', '.hci', '.vscode-test',
  '.nuget', 'TestResults', '.cache', '.angular', '.next', '.turbo', '.parcel-cache',
  'coverage', '__pycache__', '.gradle', '.terraform',
];

/**
 * Setting factor_weights: exponents on rerank's named factors (a factor f weighs f^w), in rows by
 * query — `all`, then a query type's row (`symbol`, `question`, `mixed`), then `stated` for a query
 * stated, not asked (query-type.ts isStated) — each row over the ones before it, factor by factor.
 */
export type FactorWeights = Partial<Record<'all' | QueryForm, Record<string, number>>>;

/** Read-only by convention: settingDefaults() hands out copies. */
export const SETTING_DEFAULTS = {
  include_extensions: DEFAULT_INCLUDE_EXTENSIONS,
  exclude_extensions: [] as string[],
  exclude_path_segments: DEFAULT_EXCLUDE_PATH_SEGMENTS,
  ignore_files: ['.gitignore', '.hciignore'],
  extra_include_roots: [] as string[],
  skip_nuget_packages: true,
  max_indexed_file_bytes: 512 * 1024,
  large_file_max_bytes: 4 * 1024 * 1024,
  large_file_langs: ['csharp', 'axaml', 'xaml', 'json'],
  max_files: 200_000,
  // 16 MiB → 4 MiB for passes that write many files (issue 34, bench/results/store-memory-mem10.md): hci's store
  // loading dotnet-8's 452k chunks: WASM heap 24.1 → 9.6 MB, peak RSS 160.9 → 143.0 MB, the same CPU; hci on Avalonia 247.9 → 234.4 MB (medians of 3).
  index_page_cache_kib: 4096,
  // Off by default: the lead's quiet run of the ~10x corpus (dotnet-8) with "balanced" ended in a V8 fatal error
  // while a parse worker's thread was torn down (node::worker::Worker::Run → FreeEnvironment → BaseObjectList::Cleanup),
  // in the bench's index worker; a second run through the CLI did not crash. Until that is understood, "off" (the
  // path every earlier dotnet-8 run took) stays the default; "balanced" / "all" are opt-in.
  worker_rows: 'off' as 'off' | 'balanced' | 'all',
  chunk_lines: 110,
  chunk_overlap_lines: 15,
  binary_probe_bytes: 8192,
  include_cs_in_fts: true,
  // 0.3 → 0.2 (issue 32, bench/results/rank-variants-rank5.md): MRR@10 up on 5 of 12 golden sets, down on none.
  test_path_penalty: 0.2,
  generated_path_penalty: 0.5,
  demo_path_penalty: 0.6,
  docs_path_penalty: 0.6,
  stated_docs_factor: 1,
  build_path_penalty: 1,
  partial_matches: 'by_score' as 'after_complete' | 'by_score',
  ui_view_boost: 1.3,
  scope_match_boost: 1.3,
  style_query_boost: 1,
  paired_file_share: 0.7,
  coverage_boost: 3,
  coverage_chunks: 0,
  coverage_long_file: 0,
  pool_file_cap: 0,
  proximity_boost: 0,
  proximity_lines: 3,
  near_complete: 'off' as 'off' | 'short' | 'always',
  file_chunks_bonus: 0.03,
  // On (issue 32, bench/results/rank-variants-rank7.md): 13 golden sets unchanged but SukiUI nDCG@10 as returned up; akka.net probe: a file's 4-line chunk matched by its path and member key alone no longer leads it.
  own_evidence: true,
  own_evidence_weight: 1,
  shared_only_factor: 1,
  max_hits_per_file: 2,
  rank_depth: 10,
  same_file_factor: 0.1,
  collapse_copies: true,
  collapse_variants: true,
  declaration_boost: 1.5,
  definition_widen: 40,
  question_identifier_share: 1,
  question_members_factor: 0.5,
  question_short_lines: 30,
  change_log_factor: 0.3,
  change_words: ['fix', 'fixed', 'fixes', 'fixing'],
  unnamed_term_weight: 1,
  unnamed_term_share: 0,
  weak_term_weight: 1,
  term_weight_types: ['symbol', 'question', 'mixed'] as QueryForm[],
  weak_words: ['add', 'adds', 'added', 'adding', 'update', 'updates', 'updated', 'support', 'supports', 'supported', 'allow', 'allows', 'allowed', 'remove', 'removes', 'removed', 'improve', 'improved', 'improves', 'change', 'changes', 'changed', 'make', 'makes', 'ensure', 'prevent', 'correct', 'correctly', 'properly', 'issue', 'bug', 'new'],
  dead_code_factor: 0.3,
  /** Exponents on rerank's named factors, by query row (rerank.ts factorWeights): none (every factor as computed). */
  factor_weights: {} as FactorWeights,
  neighbour_terms: 0,
  neighbour_weight: 0.3,
  neighbour_floor: 0.5,
  learned_terms: 0,
  learned_weight: 0.3,
  learned_floor: 0.4,
  learned_rare: 0.005,
  lock_timeout_ms: 10_000,
  literal_index: false,
  literal_budget_ms: 2000,
  quoted_literal_fallback: true,
  /** `[semantic]` (schema: core/vector/settings.ts): off, and the learned model's defaults. */
  semantic: {
    enabled: false,
    provider: 'learned',
    dims: 192,
    keyword_weight: 0.65,
    vector_weight: 0.35,
    guard: 3,
    routing: true,
    min_vector_score: 0,
    keyword_cosines: false,
    vector_roles: false,
    vector_agreement: 0,
    fusion_by_type: {},
    fusion_calibration: 'minmax',
    fusion_gate: { vector_gap: 0, keyword_lead: 0, keyword_any: false, at: 3 },
  } as SemanticSettings,
};

/** A fresh copy of the defaults (the caller may change its lists). */
export function settingDefaults(): typeof SETTING_DEFAULTS {
  return structuredClone(SETTING_DEFAULTS);
}
