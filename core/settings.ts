// Workspace settings: validation and parsing of `.hci/settings.toml` (snake_case keys), with each
// key's default from settings-defaults.ts. Owns the meaning of every key; reading the file from disk
// is the caller's job. Loaded only when there is something to validate (HciWorkspace.open).
import { parse as parseToml, TomlError } from 'smol-toml';
import { z } from 'zod';
import { HciError } from './platform.ts';
import { DEFAULT_EXCLUDE_PATH_SEGMENTS, DEFAULT_INCLUDE_EXTENSIONS, SETTING_DEFAULTS as D, settingDefaults } from './settings-defaults.ts';
import { semanticSettings } from './vector/settings.ts';
import { QUERY_FORMS } from './contract/limits.ts';

export { DEFAULT_EXCLUDE_PATH_SEGMENTS, DEFAULT_INCLUDE_EXTENSIONS };

/** The longest `lock_timeout_ms` accepted: 10 minutes. */
export const MAX_LOCK_TIMEOUT_MS = 600_000;

const extension = z
  .string()
  .min(1)
  .transform((s) => (s.startsWith('.') ? s : `.${s}`).toLowerCase());

const relPath = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !/^[a-zA-Z]:/.test(p) && !p.split(/[\\/]/).includes('..'), {
    message: 'must be a workspace-relative path without ".."',
  })
  .transform((p) => p.replace(/\\/g, '/').replace(/\/+$/, ''));

/** One row of factor_weights: factor name → exponent. */
const weightRow = z.record(z.string().min(1), z.number().min(0).max(4)).optional();

const settingsShape = z
  .object({
    include_extensions: z.array(extension).default(D.include_extensions),
    exclude_extensions: z.array(extension).default(D.exclude_extensions),
    exclude_path_segments: z.array(z.string().min(1)).default(D.exclude_path_segments),
    ignore_files: z.array(z.string().min(1)).default(D.ignore_files),
    extra_include_roots: z.array(relPath).default(D.extra_include_roots),
    /** Folders NuGet restored a package into (their `.nupkg` named after them: core/scan/nuget-folders.ts) are not walked. */
    skip_nuget_packages: z.boolean().default(D.skip_nuget_packages),
    max_indexed_file_bytes: z.number().int().positive().default(D.max_indexed_file_bytes),
    /** Files of `large_file_langs` over max_indexed_file_bytes and up to this are indexed as line windows (core/scan/size-policy.ts); 0: skipped. */
    large_file_max_bytes: z.number().int().min(0).max(64 * 1024 * 1024, 'must be at most 67108864 (64 MiB)').default(D.large_file_max_bytes),
    large_file_langs: z.array(z.string().min(1)).default(D.large_file_langs),
    max_files: z.number().int().positive().default(D.max_files),
    /** SQLite's page cache (KiB) while a pass writes more than POOL_MIN_FILES files (core/index/indexer.ts); searches keep SEARCH_PAGE_CACHE_KIB. */
    index_page_cache_kib: z.number().int().min(256).max(1024 * 1024).default(D.index_page_cache_kib),
    /**
     * Which files a pass's parse worker makes whole rows of (blob, chunks, FTS values: core/index/ready-rows.ts)
     * instead of only their outline: none, a share that keeps both threads busy (read-ahead.ts RowsShare), every one.
     */
    worker_rows: z.enum(['off', 'balanced', 'all']).default(D.worker_rows),
    chunk_lines: z.number().int().min(5).max(2000).default(D.chunk_lines),
    chunk_overlap_lines: z.number().int().min(0).default(D.chunk_overlap_lines),
    binary_probe_bytes: z.number().int().positive().default(D.binary_probe_bytes),
    include_cs_in_fts: z.boolean().default(D.include_cs_in_fts),
    test_path_penalty: z.number().min(0).max(1).default(D.test_path_penalty),
    generated_path_penalty: z.number().min(0).max(1).default(D.generated_path_penalty),
    demo_path_penalty: z.number().min(0).max(1).default(D.demo_path_penalty),
    docs_path_penalty: z.number().min(0).max(1).default(D.docs_path_penalty),
    /** A query stated, not asked (a commit subject, a paraphrase: query-type.ts asksHow false): docs pages weigh this on top of docs_path_penalty (1: off). */
    stated_docs_factor: z.number().min(0).max(1).default(D.stated_docs_factor),
    build_path_penalty: z.number().min(0).max(1).default(D.build_path_penalty),
    partial_matches: z.enum(['after_complete', 'by_score']).default(D.partial_matches),
    ui_view_boost: z.number().min(1).max(10).default(D.ui_view_boost),
    scope_match_boost: z.number().min(1).max(10).default(D.scope_match_boost),
    /** A stylesheet or XAML style chunk weighs this for a question about how something looks (appearance.ts); 1: off (1.5 lost on 2 of 7 repositories, gained on 1). */
    style_query_boost: z.number().min(1).max(10).default(D.style_query_boost),
    paired_file_share: z.number().min(0).max(1).default(D.paired_file_share),
    /** A file holding every query word weighs (1 + this) times one holding none (file-evidence.ts); 0: off. */
    coverage_boost: z.number().min(0).max(10).default(D.coverage_boost),
    /** Coverage reads each file's best this many candidates only (a long file's many weak chunks hold every word somewhere); 0: all of the pool's. */
    coverage_chunks: z.number().int().min(0).max(80).default(D.coverage_chunks),
    /** With coverage_chunks: only files of more chunks than this are read so (a giant file); 0: every file. */
    coverage_long_file: z.number().int().min(0).default(D.coverage_long_file),
    /** A file gives at most this many chunks to each pass's candidate pool, which is filled from channel lists 4x as deep (more distinct files reach rerank; pipeline.ts capPool); 0: off. */
    pool_file_cap: z.number().int().min(0).max(64).default(D.pool_file_cap),
    /** A chunk whose query words stand within proximity_lines lines of each other weighs up to (1 + this) (proximity.ts); 0: off. */
    proximity_boost: z.number().min(0).max(10).default(D.proximity_boost),
    /** The window (lines) proximity_boost counts a chunk's query words in. */
    proximity_lines: z.number().int().min(1).max(200).default(D.proximity_lines),
    /** Chunks holding every query word but one, common words included, join the any-term pass (channels/fts.ts widenExpr): `short` when the page widens anyway, `always` also when complete matches fill it; `off`. */
    near_complete: z.enum(['off', 'short', 'always']).default(D.near_complete),
    /** Per other matching chunk of the same file, in proportion to its score (at most 5); 0: off. */
    file_chunks_bonus: z.number().min(0).max(1).default(D.file_chunks_bonus),
    /** In a query of 2+ words, a file's chunk holding the most query words in its own text (body, own name) leads its file; siblings matched by the file's shared words (path, member key's namespace/type) weigh no more (own-evidence.ts). */
    own_evidence: z.boolean().default(D.own_evidence),
    /** How much of the gap between a file's best chunk and its own-evidence lead the file loses (1: it ranks by its lead; 0: the lead only shows first). */
    own_evidence_weight: z.number().min(0).max(1).default(D.own_evidence_weight),
    /** With own_evidence: a file none of whose candidate chunks holds a query word in its own text (matched by its path and member keys alone) weighs this; 1: off. */
    shared_only_factor: z.number().min(0).max(1).default(D.shared_only_factor),
    max_hits_per_file: z.number().int().min(1).default(D.max_hits_per_file),
    /**
     * Candidates a query is ranked at, whatever the page (core/search/depth.ts: one ranked list per
     * query; pages past it from tiers 4x deeper). Default 10: a first page of the default limit (8) or
     * of 10 is one ranking at its old cost; 50 ranked no better (rank-probe over 13 sets, pooled R@5
     * 0.802 vs 0.804) and cost its first page 1.1-1.5x (bench/results/limit-cost-*.md).
     */
    rank_depth: z.number().int().min(1).max(1000).default(D.rank_depth),
    /** A file's second listed chunk weighs this, its third the square, … (distinct files first; rerank.ts); 1: off. */
    same_file_factor: z.number().min(0).max(1).default(D.same_file_factor),
    collapse_copies: z.boolean().default(D.collapse_copies),
    /** Translations of one resource and per-version copies of a docs page count as one file, led by the untranslated/English or current one (variants.ts). */
    collapse_variants: z.boolean().default(D.collapse_variants),
    /** A declaration of a query name is raised to this × its tier × the best hit's score (definition-first; rerank.ts); 0: off. */
    declaration_boost: z.number().min(0).max(10).default(D.declaration_boost),
    /** A query of at most three words naming an identifier, whose every word more chunks hold than the ranking's depth: this many of the identifier's best holders join as partial matches (definition-widen.ts); 0: off. */
    definition_widen: z.number().int().min(0).max(200).default(D.definition_widen),
    /** In a question or mixed query (query-type.ts) a chunk named by a query identifier gains this share of a symbol query's exact_symbol_name boost. */
    question_identifier_share: z.number().min(0).max(1).default(D.question_identifier_share),
    /** In a question (query-type.ts: words only), a chunk that lists members (fields, properties, keys: symbol kind `members`) weighs this; 1: off. */
    question_members_factor: z.number().min(0).max(1).default(D.question_members_factor),
    /** In a question put as one (query-type.ts asksHow: `how …`, `what …`, a `?`), a chunk of fewer lines than this weighs (lines / this)^0.25 (rerank.ts); 0: off. */
    question_short_lines: z.number().int().min(0).max(200).default(D.question_short_lines),
    /** A change log (CHANGELOG.md, release notes, HISTORY: change-log.ts) weighs this on top of its docs role, unless the query asks for one; 1: off. */
    change_log_factor: z.number().min(0).max(1).default(D.change_log_factor),
    /** Words a query of several words drops like stop words: what a commit subject or bug report says about the change, not the code (query.ts). */
    change_words: z.array(z.string().min(1)).default(D.change_words),
    /** A query word that no chunk holds in its symbol, path or identifier-parts column (not a name part of this repository: prose only) weighs this in the keyword score (term-weights.ts); 1: off. */
    unnamed_term_weight: z.number().min(0).max(1).default(D.unnamed_term_weight),
    /** With unnamed_term_weight below 1: graded instead — a word weighs unnamed_term_weight + (1 − it) × min(1, s / this), s the share of its chunks that hold it in their symbol or path column; 0: a word no name holds weighs unnamed_term_weight, any other 1. */
    unnamed_term_share: z.number().min(0).max(1).default(D.unnamed_term_share),
    /** A query word among weak_words (a verb of change, a word about the report) weighs this in the keyword score, kept in the match (term-weights.ts); 1: off. */
    weak_term_weight: z.number().min(0).max(1).default(D.weak_term_weight),
    /** The query types (query-type.ts: symbol, question, mixed; `stated`: a question not put as one, asksHow) unnamed_term_weight and weak_term_weight apply to; others rank as without them. */
    term_weight_types: z.array(z.enum(QUERY_FORMS)).default(D.term_weight_types),
    /** The words weak_term_weight weighs: what a commit subject or a bug report says about the change. */
    weak_words: z.array(z.string().min(1)).default(D.weak_words),
    /** A question's words each get this many of the shipped code model's neighbours as low-weight extra terms of the any-term pass (neighbour-terms.ts); 0: off. */
    neighbour_terms: z.number().int().min(0).max(8).default(D.neighbour_terms),
    /** The neighbour terms' BM25 weight beside the question's own words'. */
    neighbour_weight: z.number().min(0).max(1).default(D.neighbour_weight),
    /** The least cosine (word vectors of the code model) a neighbour term needs. */
    neighbour_floor: z.number().min(0).max(1).default(D.neighbour_floor),
    /** A question's words each get this many name parts the repository's doc comments link them to (learned-terms.ts) as low-weight extra terms of the any-term pass; 0: off. */
    learned_terms: z.number().int().min(0).max(8).default(D.learned_terms),
    /** The learned terms' BM25 weight beside the question's own words'. */
    learned_weight: z.number().min(0).max(1).default(D.learned_weight),
    /** The least normalised PMI (doc word × name part) a learned term needs. */
    learned_floor: z.number().min(0).max(1).default(D.learned_floor),
    /** A question word held by more than this share of all chunks is not expanded (1: any word). */
    learned_rare: z.number().min(0).max(1).default(D.learned_rare),
    /** A chunk wholly of commented-out code, `#if false` or a generated region weighs this (dead-code.ts); 1: off. */
    dead_code_factor: z.number().min(0).max(1).default(D.dead_code_factor),
    /** Exponents on rerank's named factors by query row (all / symbol / question / mixed / stated; rerank.ts factorWeights); {}: every factor as computed. */
    factor_weights: z
      .object({ all: weightRow, symbol: weightRow, question: weightRow, mixed: weightRow, stated: weightRow })
      .strict()
      .default(D.factor_weights),
    // Bounded: a reader or indexer waits this long for another process's lock before `index_busy`;
    // past the bound a stuck lock would hang a search for good (timers cannot wait longer than ~24.8 days).
    lock_timeout_ms: z.number().int().min(0).max(MAX_LOCK_TIMEOUT_MS, `must be at most ${MAX_LOCK_TIMEOUT_MS} (10 minutes)`).default(D.lock_timeout_ms),
    /** A trigram index (files_tri) for literal and regex search, filled by the next indexing pass. */
    literal_index: z.boolean().default(D.literal_index),
    /** The time budget of one literal or regex search (then search_timeout). */
    literal_budget_ms: z.number().int().min(10).max(600_000).default(D.literal_budget_ms),
    /** A keyword query whose quoted literals no chunk holds with its other words is searched as keywords instead. */
    quoted_literal_fallback: z.boolean().default(D.quoted_literal_fallback),
    /** The semantic channel (`[semantic]`, core/vector/settings.ts): off by default. */
    semantic: semanticSettings.prefault({}),
  })
  .strict();

export const settingsSchema = settingsShape.refine((s) => s.chunk_overlap_lines < s.chunk_lines, {
    message: 'chunk_overlap_lines must be smaller than chunk_lines',
    path: ['chunk_overlap_lines'],
  });

export type Settings = z.output<typeof settingsSchema>;

export function defaultSettings(): Settings {
  return settingDefaults();
}

/** Validates a plain object (e.g. from an API caller) into complete settings. */
export function validateSettings(input: unknown, source = 'settings'): Settings {
  const result = settingsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => {
    const where = i.path.length ? i.path.join('.') : '(top level)';
    return `${where}: ${i.message}`;
  });
  throw new HciError(
    'invalid_settings',
    `${source} is invalid: ${problems.join('; ')}`,
    `known keys: ${Object.keys(settingsShape.shape).join(', ')}`,
  );
}

/** Parses the text of `.hci/settings.toml`. */
export function parseSettingsToml(text: string, source = '.hci/settings.toml'): Settings {
  let data: unknown;
  try {
    data = parseToml(text);
  } catch (e) {
    const msg = e instanceof TomlError ? e.message.split('\n')[0] : String(e);
    throw new HciError('invalid_settings', `${source} is not valid TOML: ${msg}`, 'fix the syntax or delete the file to use defaults');
  }
  return validateSettings(data, source);
}
