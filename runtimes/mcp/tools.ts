// The MCP tools of hci: stable names, descriptions written for a model, input and output schemas, and
// how each maps onto the service and its text rendering (the intercom rows: intercom-tools.ts). Owns
// the tool surface only: the schemas are the contract's (core/contract/; an input adds only bounds a
// model needs, and a tool may coerce what a model gets wrong before validation — one string for a list
// — without widening the declared schema), behaviour is core/service/, layout render.ts. Names and
// field meanings never change silently.
import { z } from 'zod';
import {
  CONTRACT_VERSION, explainRequest, explainResponse, hostStatus, outlineRequest, outlineResponse, reindexAnswer, reindexRequest,
  resolveRequest, resolveResponse, searchAnswer, searchRequest, similarAnswer, similarRequest, statusRequest, watchAnswer, watchRequest, SEARCH_LIMIT,
  type ErrorInfo, type SearchRequest, type ExplainRequest, type OutlineRequest, type ReindexRequest, type ResolveRequest, type StatusRequest, type WatchRequest,
} from '../../core/contract/index.ts';
import type { CallContext, HciService } from '../../core/service/index.ts';
import { renderExplain, renderOutline, renderReindex, renderResolve, renderSearch, renderSimilar, renderStatus, renderWatch } from './render.ts';
import { intercomToolDefs } from './intercom-tools.ts';

const DEFAULT_MAX_TOKENS = 3000;

/** A list argument: an array in the schema (never `string | array`: a union defeats generic clients), at most 50 entries. */
const stringList = (of: z.ZodOptional<z.ZodArray<z.ZodString>>) => z.array(z.string()).max(50).optional().describe(of.description ?? '');

/** The list arguments of search; a lone string there is taken as a one-item list before validation (coerceLists). */
const SEARCH_LISTS = ['paths', 'exts', 'exclude_paths'] as const;

/** The contract's search request as a model sends it. */
export const searchInput = searchRequest
  .extend({
    query: searchRequest.shape.query.min(1),
    paths: stringList(searchRequest.shape.paths),
    exts: stringList(searchRequest.shape.exts),
    exclude_paths: stringList(searchRequest.shape.exclude_paths),
    max_tokens: z.number().int().min(200).max(20_000).optional()
      .describe(`budget for the whole answer (~4 characters per token; default ${DEFAULT_MAX_TOKENS}); hits beyond it are cut and truncated=true`),
  })
  .strict();

/** similar's request as a model sends it (lists as in search: a lone string is coerced to a one-item list). */
export const similarInput = similarRequest
  .extend({ paths: stringList(similarRequest.shape.paths), exts: stringList(similarRequest.shape.exts), exclude_paths: stringList(similarRequest.shape.exclude_paths) })
  .strict();

type Out = Record<string, unknown>;

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  output: z.ZodType;
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  call(svc: HciService, args: Record<string, unknown>, ctx: CallContext): Promise<Out>;
  render(out: Out): string;
  /** Arguments as a model sends them, made to fit the schema before validation (a lone string for a list). */
  coerce?(raw: Out): Out;
  /** The tool's answer shape for an error found before the call (invalid arguments). */
  errorAnswer(svc: HciService, error: ErrorInfo, hint: string, raw: Out): Out;
  /** Arguments that show the call, for the hint of a bad call. */
  example: string;
}

/** Lone strings under `keys` as one-item lists; everything else as sent (the schema judges it). */
const coerceLists = (keys: readonly string[]) => (raw: Out): Out => {
  const out = { ...raw };
  for (const k of keys) if (typeof out[k] === 'string') out[k] = [out[k]];
  return out;
};
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const answer = <T>(p: Promise<T>): Promise<Out> => p as unknown as Promise<Out>;
const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
const writes = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** The watcher as the server starts (HciService.watcherPlan): descriptions say only what is true. */
export type WatcherPlan = 'unavailable' | 'on' | 'off';

export function toolDefs(root: string, watcher: WatcherPlan = 'on'): ToolDef[] {
  const noWatcher = watcher === 'unavailable';
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
        'mode: keyword (default) for identifiers, exact names, config keys and error messages; hybrid when you describe behaviour in words and do not know the names ' +
        '(keyword hits plus chunks similar in meaning — hit_kind text_vector or hybrid —, keyword\'s top 3 files kept first); semantic for meaning only. ' +
        'hybrid/semantic need semantic search turned on in the workspace (else error mode_unavailable with a hint). ' +
        'Every answer has a status: ok | empty (nothing matched: NOT proof of absence; see hint and skipped) | indexing (index being built: partial results, retry shortly) | no_index | error (code + hint). ' +
        'match says how the hits hold the terms: all | all_then_any (the first hits hold every term, later ones some) | any | none. ' +
        'More results: pass cursor=next_cursor. truncated=true means max_tokens cut the page. ' +
        'Exact text, like grep: mode "literal" (the query is the text) or "regex" (an RE2 regex, ripgrep\'s syntax), with case_sensitive and whole_word; ' +
        'a quoted phrase with punctuation ("?.Invoke(") or re:<regex> inside a keyword query does the same. Such hits are hit_kind "text_literal" and list match_lines (1-based); ' +
        'every matching chunk is listed (no per-file cap).',
      input: searchInput,
      output: searchAnswer,
      annotations: readOnly,
      coerce: coerceLists(SEARCH_LISTS),
      call: (svc, a, ctx) =>
        answer(svc.search({
          query: a.query as string, limit: (a.limit as number | undefined) ?? SEARCH_LIMIT.default, paths: a.paths as string[] | undefined, exts: a.exts as string[] | undefined,
          exclude_paths: a.exclude_paths as string[] | undefined, exclude_kinds: a.exclude_kinds as SearchRequest['exclude_kinds'], mode: a.mode as SearchRequest['mode'], max_tokens: (a.max_tokens as number | undefined) ?? DEFAULT_MAX_TOKENS,
          cursor: a.cursor as string | undefined,
          ...(a.case_sensitive !== undefined ? { case_sensitive: a.case_sensitive as boolean } : {}),
          ...(a.whole_word !== undefined ? { whole_word: a.whole_word as boolean } : {}),
        }, ctx)),
      render: (o) => renderSearch(o as never),
      errorAnswer: (_svc, error, hint, raw) => ({
        contract_version: CONTRACT_VERSION, status: 'error', query: str(raw.query), mode: typeof raw.mode === 'string' ? raw.mode : 'keyword', match: 'none', hits: [], took_ms: 0,
        index: null, skipped: {}, truncated: false, error, hint,
      }),
      example: '{"query": "GetCatalogItemsAsync", "limit": 8, "exts": ["cs"]} or {"query": "where are discounts applied to an order", "mode": "hybrid"}',
    },
    {
      name: 'similar',
      title: 'More like this',
      description:
        'Chunks nearest in meaning to one piece of code: pass hit_id (from search), or path and line (the innermost chunk holding that line), or snippet (code or text). ' +
        'Use it to find other implementations of the same idea, duplicated logic, or the tests and docs about a piece of code. Hits are hit_kind "text_vector" with ' +
        'vec_score (cosine), best first, within paths/exts/exclude_paths; source says which chunk they are near. Needs semantic search turned on (else mode_unavailable).',
      input: similarInput,
      output: similarAnswer,
      annotations: readOnly,
      coerce: coerceLists(SEARCH_LISTS),
      call: (svc, a) => answer(svc.similar({
        hit_id: a.hit_id as string | undefined, path: a.path as string | undefined, line: a.line as number | undefined, snippet: a.snippet as string | undefined,
        limit: (a.limit as number | undefined) ?? SEARCH_LIMIT.default, paths: a.paths as string[] | undefined, exts: a.exts as string[] | undefined, exclude_paths: a.exclude_paths as string[] | undefined,
      })),
      render: (o) => renderSimilar(o as never),
      errorAnswer: (_svc, error, hint) => ({
        contract_version: CONTRACT_VERSION, status: 'error', query: '', mode: 'semantic', match: 'none', hits: [], took_ms: 0, index: null, skipped: {}, truncated: false,
        source: null, error, hint,
      }),
      example: '{"hit_id": "130.1juiota"} or {"path": "src/Pricing/PricingEngine.cs", "line": 42} or {"snippet": "decimal ApplyDiscount(decimal price)"}',
    },
    {
      name: 'explain_result',
      title: 'Explain one search hit',
      description:
        'Show one search hit by hit_id: the chunk text (bounded by max_lines), which query terms matched in which fields (path, symbol, header, body), ' +
        'the BM25 score with every boost and penalty, its rank, and paired files (Razor/AXAML code-behind, scoped CSS). ' +
        'Use it to check a hit before opening the file, or to see why something ranked where it did.',
      input: explainRequest,
      output: explainResponse,
      annotations: readOnly,
      call: (svc, a) => answer(svc.explain(a as ExplainRequest)),
      render: (o) => renderExplain(o as never),
      errorAnswer: (_svc, error, hint, raw) => ({ status: 'error', hit_id: str(raw.hit_id), index: null, error, hint }),
      example: '{"hit_id": "83.k4f9a2"}',
    },
    {
      name: 'outline',
      title: 'Outline one file',
      description:
        'The symbol tree of one file (namespaces, types, members with 1-based line ranges and member keys), to see its shape without reading it all. ' +
        'The path must be inside the workspace.',
      input: outlineRequest,
      output: outlineResponse,
      annotations: readOnly,
      call: (svc, a) => answer(svc.outline(a as OutlineRequest)),
      render: (o) => renderOutline(o as never),
      errorAnswer: (_svc, error, hint, raw) => ({ status: 'error', path: str(raw.path), symbols: [], index: null, error, hint }),
      example: '{"path": "src/Web/Program.cs"}',
    },
    {
      name: 'resolve',
      title: 'Resolve a member key or a line',
      description:
        'Where a symbol is now: pass member_key (from outline or a hit, e.g. "Shop.Ordering.OrderService.PlaceOrder(int)") for its current file and 1-based lines, ' +
        'even after edits moved it; or path and line for the innermost member (method, property, type, config key) that holds that line. ' +
        'status empty: no such member now (renamed or removed) or no member holds the line.',
      input: resolveRequest,
      output: resolveResponse,
      annotations: readOnly,
      call: (svc, a) => answer(svc.resolve(a as ResolveRequest)),
      render: (o) => renderResolve(o as never),
      errorAnswer: (_svc, error, hint) => ({ status: 'error', locations: [], index: null, error, hint }),
      example: '{"member_key": "Shop.OrderService.PlaceOrder(int)"} or {"path": "src/OrderService.cs", "line": 12}',
    },
    {
      name: 'status',
      title: 'Index status',
      description:
        'How current and complete the index is: location, format, generation, files and chunks by language, files skipped by reason, the last run, ' +
        `${noWatcher ? 'the watcher (there is none in this server)' : 'the watcher (events or polling, pending changes)'} and recent indexing tasks. With task_id: that task\'s state and progress ` +
        '(wait_ms waits for it to finish). Call it when results look stale or incomplete.',
      input: statusRequest,
      output: hostStatus,
      annotations: readOnly,
      call: (svc, a, ctx) => answer(svc.status(a as StatusRequest, ctx)),
      render: (o) => renderStatus(o as never),
      errorAnswer: (svc, error, hint) => ({
        status: 'error', index: null, format_version: null, engine: '', files_by_lang: {}, skipped: {}, skipped_samples: [], last_run: null, pending: null,
        watcher: svc.watcherView(), tasks: [], error, hint,
      }),
      example: '{"task_id": "t1-ab12", "wait_ms": 5000}',
    },
    {
      name: 'reindex',
      title: 'Update the index',
      description:
        'Start an indexing run in the background and return its task_id at once (incremental: only changed files; full: true rebuilds and repairs; ' +
        'paths: only these files or folders, without scanning the rest). ' +
        'Follow it with status(task_id, wait_ms), or pass wait_ms here. cancel: true (with task_id) stops a run; the index keeps what was committed. ' +
        (watcher === 'on'
          ? 'Rarely needed: the watcher re-indexes changed files by itself, and search builds a missing index.'
          : `Call it after editing files: ${noWatcher ? 'this server has no file watcher' : 'the watcher is off'}, so changes reach the index only through reindex (search builds a missing index).`),
      input: reindexRequest,
      output: reindexAnswer,
      annotations: writes,
      call: (svc, a, ctx) => answer(svc.reindex(a as ReindexRequest, ctx)),
      render: (o) => renderReindex(o as never),
      errorAnswer: (_svc, error, hint) => ({ status: 'error', task: null, index: null, error, hint }),
      example: '{"full": false} or {"cancel": true, "task_id": "t1-ab12"}',
    },
    {
      name: 'watch',
      title: noWatcher ? 'The watcher (not available in this server)' : 'Turn the watcher on or off',
      description: noWatcher
        ? 'This server has no file watcher, so there is nothing to turn on: the call answers not_available. Call reindex after editing files instead (it is incremental).'
        : 'Turn automatic re-indexing of changed files on (enabled: true) or off. ' +
          `${watcher === 'on' ? 'On' : 'Off'} since this server started; it uses OS file events and falls back to polling when the OS watch limit is reached (status says which).`,
      input: watchRequest,
      output: watchAnswer,
      annotations: writes,
      call: (svc, a) => answer(svc.watch(a as WatchRequest)),
      render: (o) => renderWatch(o as never),
      errorAnswer: (svc, error, hint) => ({ status: 'error', watcher: svc.watcherView(), index: null, error, hint }),
      example: '{"enabled": true}',
    },
    ...intercomToolDefs(),
  ];
}

/**
 * JSON Schema for a tool list entry (draft-7, as the MCP SDK itself emits). Outputs are open: every
 * object admits fields it does not declare, so a newer server's additions never fail an older host.
 */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, {
    target: 'draft-7', io, unrepresentable: 'any',
    override: io === 'output' ? (ctx) => void (ctx.jsonSchema.additionalProperties === false && delete ctx.jsonSchema.additionalProperties) : undefined,
  }) as Record<string, unknown>;
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
