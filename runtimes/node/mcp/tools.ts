// The MCP tools of hci: stable names, descriptions written for a model, zod input and output schemas,
// and how each maps onto the service and its text rendering. Owns the tool surface; behaviour is in
// service.ts, layout in render.ts. The names and the meaning of their fields never change silently.
import { z } from 'zod';
import { CONTRACT_VERSION } from '../../../core/search/contract.ts';
import type { CallContext, ErrorInfo, HciMcpService } from './service.ts';
import { renderExplain, renderOutline, renderReindex, renderSearch, renderStatus, renderWatch } from './render.ts';

// ── shared output pieces ───────────────────────────────────────────────────────────────────────

const errorInfo = z.looseObject({
  code: z.string().describe('stable error code, e.g. invalid_arguments, path_outside_workspace, no_index, index_busy, not_available'),
  message: z.string(),
  issues: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
});

const freshness = z
  .looseObject({
    location: z.string(),
    generation: z.number().describe('bumped by every committed indexing batch'),
    indexed_at: z.string().nullable().describe('when the last indexing run finished (ISO 8601)'),
    build_state: z.string().describe('complete | partial | empty'),
    files: z.number(),
    chunks: z.number(),
    pending_changes: z.number().nullable().describe('files changed on disk and not indexed yet (null: unknown, e.g. the watcher is off)'),
    indexer_running: z.boolean(),
  })
  .nullable()
  .describe('how current the index is');

const progress = z.looseObject({ phase: z.string(), files_done: z.number(), files_total: z.number(), chunks: z.number() }).nullable();

const task = z.looseObject({
  task_id: z.string(),
  kind: z.string(),
  state: z.enum(['queued', 'running', 'done', 'failed', 'cancelled']),
  full: z.boolean(),
  trigger: z.string().describe('who started it: tool, search (first build), watcher'),
  paths: z.array(z.string()).optional().describe('the run covers only these paths'),
  progress,
  cancel_requested: z.boolean(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  took_ms: z.number().nullable(),
  result: z
    .looseObject({ generation: z.number(), files_indexed: z.number(), files_unchanged: z.number(), files_removed: z.number(), chunks_written: z.number(), took_ms: z.number() })
    .optional(),
  error: z.looseObject({ code: z.string(), message: z.string(), hint: z.string().optional() }).optional(),
});

const watcher = z.looseObject({
  state: z.enum(['off', 'starting', 'on', 'error']),
  mode: z.enum(['events', 'polling']).nullable().describe('events: OS file events; polling: periodic scans (fallback when the OS watch limit is hit)'),
  reason: z.string().optional(),
  since: z.string().nullable(),
  poll_interval_ms: z.number().optional(),
  pending: z.number().nullable(),
  pending_sample: z.array(z.string()).optional(),
  debounce_ms: z.number(),
  runs: z.number(),
  last_change_at: z.string().nullable(),
  last_run_at: z.string().nullable(),
  last_error: z.looseObject({ code: z.string(), message: z.string() }).nullable(),
});

const hint = z.string().optional().describe('what to do next, when useful');

// ── inputs ─────────────────────────────────────────────────────────────────────────────────────

const stringList = (what: string) =>
  z.union([z.string(), z.array(z.string()).max(50)]).optional().describe(what);

const maxWait = z.number().int().min(0).max(50_000);

export const searchInput = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(2000)
    .describe('identifiers (GetCatalogItemsAsync), words (all must match; camelCase is split), "quoted phrases", prefix*, and inline filters path:src/Web/ ext:cs,razor -path:tests/'),
  limit: z.number().int().min(1).max(50).optional().describe('hits per page, 1-50 (default 8)'),
  paths: stringList('only hits under these workspace-relative path prefixes or globs, e.g. ["src/Web/", "**/*.razor"]'),
  exts: stringList('only these extensions, e.g. ["cs", "razor"]'),
  exclude_paths: stringList('leave out these path prefixes or globs, e.g. ["tests/"]'),
  mode: z.enum(['keyword', 'semantic', 'hybrid']).optional().describe('keyword (default). semantic/hybrid need the semantic channel (not configured here)'),
  max_tokens: z.number().int().min(200).max(20_000).optional().describe('budget for the whole answer (~4 characters per token; default 3000); hits beyond it are cut and truncated=true'),
  cursor: z.string().optional().describe('next_cursor from a previous answer, for the next page'),
});

export const explainInput = z.strictObject({
  hit_id: z.string().min(1).describe('a hit_id exactly as search returned it, e.g. "83.k4f9a2"'),
  query: z.string().max(2000).optional().describe('the query, only if this hit_id did not come from a search on this server'),
  max_lines: z.number().int().min(1).max(200).optional().describe('lines of chunk text to return (default 60)'),
});

export const outlineInput = z.strictObject({
  path: z.string().min(1).describe('one file, workspace-relative (src/Web/Program.cs) or absolute inside the workspace'),
});

export const statusInput = z.strictObject({
  task_id: z.string().optional().describe('a task_id from reindex (or from a search that started the first build): report that task'),
  wait_ms: maxWait.optional().describe('with task_id: wait up to this long (max 50000) for the task to finish; progress notifications are sent meanwhile'),
  check_pending: z.boolean().optional().describe('scan the disk for files changed since the last run (default: only when the watcher is off)'),
});

export const reindexInput = z.strictObject({
  full: z.boolean().optional().describe('rebuild everything (also repairs an outdated or damaged index); default: incremental, only changed files'),
  paths: z.array(z.string().min(1)).min(1).max(1000).optional()
    .describe('update only these files or folders (workspace-relative or absolute inside the workspace), e.g. ["src/Web/Program.cs"]: no scan of the rest of the tree; a deleted or now-ignored path is removed. Not with full'),
  cancel: z.boolean().optional().describe('cancel a run instead of starting one (task_id, or the current run)'),
  task_id: z.string().optional().describe('with cancel: the task to cancel'),
  wait_ms: maxWait.optional().describe('wait up to this long (max 50000) for the run to finish before answering (default 0: answer at once)'),
});

export const watchInput = z.strictObject({
  enabled: z.boolean().describe('true: watch the workspace and re-index changed files automatically; false: stop watching'),
});

// ── outputs ────────────────────────────────────────────────────────────────────────────────────

const searchOutput = z.looseObject({
  contract_version: z.number(),
  status: z.enum(['ok', 'empty', 'no_index', 'indexing', 'error']),
  query: z.string(),
  mode: z.string(),
  match: z.enum(['all', 'any', 'none']).describe('all: every term matched; any: no chunk had all terms, these match some'),
  hits: z.array(
    z.looseObject({
      hit_id: z.string().describe('handle for explain_result'),
      rank: z.number(),
      path: z.string().describe('workspace-relative, forward slashes'),
      start_line: z.number().describe('1-based, inclusive'),
      end_line: z.number().describe('1-based, inclusive'),
      hit_kind: z.enum(['text_fts', 'text_vector', 'hybrid']).describe('text_fts: keyword match in text (for C#, symbol truth needs the compiler)'),
      score: z.number(),
      fts_score: z.number(),
      vec_score: z.number().optional(),
      lang: z.string(),
      symbol: z.looseObject({ kind: z.string(), name: z.string(), member_key: z.string().optional() }).optional(),
      snippet: z.string().describe('the best matching lines, "<line>: <text>"'),
      paired: z.array(z.string()).optional().describe('files that belong with this one: code-behind, scoped CSS, the markup of a code-behind'),
      note: z.string().optional(),
    }),
  ),
  took_ms: z.number(),
  index: freshness,
  skipped: z.record(z.string(), z.number()).describe('files left out of the index, by reason'),
  truncated: z.boolean().describe('true when max_tokens cut this page; next_cursor continues'),
  next_cursor: z.string().optional(),
  hint,
  error: errorInfo.optional(),
  task: task.optional().describe('the indexing run in progress, if any'),
});

const explainOutput = z.looseObject({
  status: z.enum(['ok', 'error']),
  hit_id: z.string(),
  explanation: z
    .looseObject({
      path: z.string(),
      start_line: z.number(),
      end_line: z.number(),
      lang: z.string(),
      chunk_kind: z.string(),
      symbol: z.looseObject({ kind: z.string(), name: z.string(), member_key: z.string().optional() }).optional(),
      header: z.string(),
      text: z.string(),
      text_truncated: z.boolean(),
      query: z.string().nullable(),
      match: z.string().optional(),
      rank: z.number().nullable().optional(),
      score: z.number().optional(),
      fts: z.looseObject({ bm25: z.number(), score: z.number() }).optional(),
      factors: z.array(z.looseObject({ name: z.string(), factor: z.number() })).optional(),
      matched_terms: z.array(z.looseObject({ term: z.string(), fields: z.array(z.string()) })).optional(),
      unmatched_terms: z.array(z.string()).optional(),
      dropped_stop_words: z.array(z.string()).optional(),
      paired_files: z
        .array(z.looseObject({ path: z.string(), relation: z.string().describe('code_behind | scoped_css | markup') }))
        .optional()
        .describe('files that belong with this one'),
    })
    .optional(),
  index: freshness,
  hint,
  error: errorInfo.optional(),
});

interface OutlineNode {
  kind: string;
  name: string;
  member_key?: string;
  start_line: number;
  end_line: number;
  children?: OutlineNode[];
}
const outlineSymbol: z.ZodType<OutlineNode> = z.looseObject({
  kind: z.string(),
  name: z.string(),
  member_key: z.string().optional(),
  start_line: z.number(),
  end_line: z.number(),
  get children() {
    return z.array(outlineSymbol).optional();
  },
});

const outlineOutput = z.looseObject({
  status: z.enum(['ok', 'error']),
  path: z.string(),
  symbols: z.array(outlineSymbol),
  index: freshness,
  hint,
  error: errorInfo.optional(),
});

const statusOutput = z.looseObject({
  status: z.enum(['ok', 'no_index', 'indexing', 'error']),
  index: freshness,
  format_version: z.number().nullable(),
  engine: z.string(),
  files_by_lang: z.record(z.string(), z.number()),
  skipped: z.record(z.string(), z.number()),
  skipped_samples: z.array(z.looseObject({ path: z.string(), reason: z.string() })),
  last_run: z.unknown(),
  pending: z.looseObject({ added: z.number(), modified: z.number(), deleted: z.number() }).nullable(),
  watcher,
  tasks: z.array(task).describe('recent indexing runs, newest first'),
  task: task.optional(),
  hint,
  error: errorInfo.optional(),
});

const reindexOutput = z.looseObject({
  status: z.enum(['ok', 'error']),
  task: task.nullable(),
  coalesced: z.boolean().optional().describe('an equal request was already waiting: its task is returned'),
  index: freshness,
  hint,
  error: errorInfo.optional(),
});

const watchOutput = z.looseObject({
  status: z.enum(['ok', 'error']),
  watcher,
  index: freshness,
  hint,
  error: errorInfo.optional(),
});

// ── tool table ─────────────────────────────────────────────────────────────────────────────────

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  call(svc: HciMcpService, args: Record<string, unknown>, ctx: CallContext): Promise<Record<string, unknown>>;
  render(out: Record<string, unknown>): string;
  /** The tool's answer shape for an error found before the call (invalid arguments). */
  errorAnswer(svc: HciMcpService, error: ErrorInfo, hint: string, raw: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const asList = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? (v as string[]) : [v as string]);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

type Out = Record<string, unknown>;
const answer = <T>(p: Promise<T>): Promise<Out> => p as unknown as Promise<Out>;

export function toolDefs(root: string): ToolDef[] {
  return [
    {
      name: 'search',
      title: 'Search the code index',
      description:
        `Find where something is in this workspace (${root}): a class, method, setting, route, message, or a concept in words. ` +
        'Call this BEFORE listing, grepping or reading files: one call returns a ranked list of locations, about one line each: ' +
        'path:start-end (1-based, inclusive), language, symbol, score, hit_id, and the best matching lines. Then read only those lines, ' +
        'or call explain_result(hit_id) for the chunk text and why it ranked. ' +
        'hit_kind "text_fts" is a keyword match in text, not compiler truth: for C#/Razor, confirm usages, overrides and renames with the compiler or language server. ' +
        'Every answer has a status: ok | empty (nothing matched: NOT proof of absence; see hint and skipped) | indexing (index being built: partial results, retry shortly) | no_index | error (code + hint). ' +
        'More results: pass cursor=next_cursor. truncated=true means max_tokens cut the page.',
      input: searchInput,
      output: searchOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      call: (svc, a, ctx) =>
        answer(svc.search({
          query: a.query as string, limit: (a.limit as number | undefined) ?? 8, paths: asList(a.paths), exts: asList(a.exts),
          exclude_paths: asList(a.exclude_paths), mode: a.mode as 'keyword' | undefined, max_tokens: (a.max_tokens as number | undefined) ?? 3000,
          cursor: a.cursor as string | undefined,
        }, ctx)),
      render: (o) => renderSearch(o as never),
      errorAnswer: async (_svc, error, hint, raw) => ({
        contract_version: CONTRACT_VERSION, status: 'error', query: str(raw.query), mode: 'keyword', match: 'none', hits: [], took_ms: 0,
        index: null, skipped: {}, truncated: false, error, hint,
      }),
    },
    {
      name: 'explain_result',
      title: 'Explain one search hit',
      description:
        'Show one search hit by hit_id: the chunk text (bounded by max_lines), which query terms matched in which fields (path, symbol, header, body), ' +
        'the BM25 score with every boost and penalty, its rank, and paired files (Razor/AXAML code-behind, scoped CSS). ' +
        'Use it to check a hit before opening the file, or to see why something ranked where it did.',
      input: explainInput,
      output: explainOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      call: (svc, a) => answer(svc.explain({ hit_id: a.hit_id as string, query: a.query as string | undefined, max_lines: a.max_lines as number | undefined })),
      render: (o) => renderExplain(o as never),
      errorAnswer: async (_svc, error, hint, raw) => ({ status: 'error', hit_id: str(raw.hit_id), index: null, error, hint }),
    },
    {
      name: 'outline',
      title: 'Outline one file',
      description:
        'The symbol tree of one file (namespaces, types, members with 1-based line ranges), to see its shape without reading it all. ' +
        'The path must be inside the workspace. Answers status error with code not_available while the structural chunker is not installed.',
      input: outlineInput,
      output: outlineOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      call: (svc, a) => answer(svc.outline({ path: a.path as string })),
      render: (o) => renderOutline(o as never),
      errorAnswer: async (_svc, error, hint, raw) => ({ status: 'error', path: str(raw.path), symbols: [], index: null, error, hint }),
    },
    {
      name: 'status',
      title: 'Index status',
      description:
        'How current and complete the index is: location, format, generation, files and chunks by language, files skipped by reason, the last run, ' +
        'the watcher (events or polling, pending changes) and recent indexing tasks. With task_id: that task\'s state and progress ' +
        '(wait_ms waits for it to finish). Call it when results look stale or incomplete.',
      input: statusInput,
      output: statusOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      call: (svc, a, ctx) => answer(svc.status({ task_id: a.task_id as string | undefined, wait_ms: a.wait_ms as number | undefined, check_pending: a.check_pending as boolean | undefined }, ctx)),
      render: (o) => renderStatus(o as never),
      errorAnswer: async (svc, error, hint) => ({
        status: 'error', index: null, format_version: null, engine: '', files_by_lang: {}, skipped: {}, skipped_samples: [], last_run: null, pending: null,
        watcher: svc.watcherView(), tasks: [], error, hint,
      }),
    },
    {
      name: 'reindex',
      title: 'Update the index',
      description:
        'Start an indexing run in the background and return its task_id at once (incremental: only changed files; full: true rebuilds and repairs; ' +
        'paths: only these files or folders, without scanning the rest). ' +
        'Follow it with status(task_id, wait_ms), or pass wait_ms here. cancel: true (with task_id) stops a run; the index keeps what was committed. ' +
        'Rarely needed: the watcher re-indexes changed files by itself, and search builds a missing index.',
      input: reindexInput,
      output: reindexOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      call: (svc, a, ctx) => answer(svc.reindex({ full: a.full as boolean | undefined, paths: a.paths as string[] | undefined, cancel: a.cancel as boolean | undefined, task_id: a.task_id as string | undefined, wait_ms: a.wait_ms as number | undefined }, ctx)),
      render: (o) => renderReindex(o as never),
      errorAnswer: async (_svc, error, hint) => ({ status: 'error', task: null, index: null, error, hint }),
    },
    {
      name: 'watch',
      title: 'Turn the watcher on or off',
      description:
        'Turn automatic re-indexing of changed files on (enabled: true) or off. On by default; it uses OS file events and falls back to polling when the OS watch limit is reached (status says which).',
      input: watchInput,
      output: watchOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      call: (svc, a) => answer(svc.watch({ enabled: a.enabled as boolean })),
      render: (o) => renderWatch(o as never),
      errorAnswer: async (svc, error, hint) => ({ status: 'error', watcher: svc.watcherView(), index: null, error, hint }),
    },
  ];
}

/** JSON Schema for a tool list entry (draft-7, as the MCP SDK itself emits). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

/** zod issues as a short list a model can act on. */
export function describeIssues(err: z.ZodError): Array<{ path: string; message: string }> {
  return err.issues.map((i) => {
    const where = i.path.map(String).join('.');
    let message = i.message;
    if (i.code === 'unrecognized_keys') message = `unknown argument${i.keys.length > 1 ? 's' : ''}: ${i.keys.join(', ')}`;
    else if (i.code === 'invalid_type' && /received undefined/.test(i.message)) message = `required (${i.expected})`;
    return { path: where, message };
  });
}
