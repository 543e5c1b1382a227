// Bounds of the contract's requests and list answers, in a module without zod: the schemas
// (search.ts, browse.ts) declare them from here, and the code that fills answers or checks a request
// where no schema runs (the library, the CLI, the Worker: core/search/searcher.ts) reads the same
// values without loading the schemas (see version.ts).
export const FILES_LIMIT = { default: 5000, max: 100_000 } as const;

/** Hits per search page. */
export const SEARCH_LIMIT = { default: 8, max: 50 } as const;
/** The longest query, in characters. */
export const QUERY_MAX_CHARS = 2000;
/** The smallest token budget an answer can be cut to. */
export const MAX_TOKENS_MIN = 100;
/** The search modes (keyword first: the default). */
export const SEARCH_MODES = ['keyword', 'semantic', 'hybrid', 'literal', 'regex'] as const;
/**
 * The query forms ranking and fusion policies differ by (core/search/query-type.ts queryForm decides
 * a query's): explain's fusion_type and the settings that name forms list these.
 */
export const QUERY_FORMS = ['symbol', 'question', 'stated', 'mixed'] as const;
