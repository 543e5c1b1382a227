// The MCP tools of hci: one presenter per verb of the verb table (core/service/verbs.ts) — a stable
// name, a title and a description written for a model, annotations, an example, the text rendering
// (render.ts), and where a model needs them, tighter input bounds (the contract's schema extended,
// never widened), lists coerced from a lone string before validation, and the surface's defaults.
// The schemas, the call and the failure answer are the verb's; the intercom rows are
// intercom-tools.ts; what a tool is, tool.ts. Names and field meanings never change silently.
import { z } from 'zod';
import { SEARCH_LIMIT } from '../../core/contract/index.ts';
import { renderExplain, renderOutline, renderReindex, renderResolve, renderSearch, renderSimilar, renderStatus, renderTree, renderWatch } from './render.ts';
import { intercomTools } from './intercom-tools.ts';
import { coerceLists, readOnly, stringList, writes, type AnyMcpTool } from './tool.ts';

const DEFAULT_MAX_TOKENS = 3000;

/** The list arguments of search; a lone string there is taken as a one-item list before validation (coerceLists). */
const SEARCH_LISTS = ['paths', 'exts', 'exclude_paths', 'repos'] as const;

/** The watcher as the server starts (HciService.watcherPlan): descriptions say only what is true. */
export type WatcherPlan = 'unavailable' | 'on' | 'off';

export function toolDefs(root: string, watcher: WatcherPlan = 'on'): AnyMcpTool[] {
  const noWatcher = watcher === 'unavailable';
  return [
    {
      verb: 'search',
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
      annotations: readOnly,
      input: (s) =>
        s.extend({
          query: s.shape.query.min(1),
          paths: stringList(s.shape.paths),
          exts: stringList(s.shape.exts),
          exclude_paths: stringList(s.shape.exclude_paths),
          repos: stringList(s.shape.repos),
          max_tokens: z.number().int().min(200).max(20_000).optional()
            .describe(`budget for the whole answer (~4 characters per token; default ${DEFAULT_MAX_TOKENS}); hits beyond it are cut and truncated=true`),
        }).strict(),
      coerce: coerceLists(SEARCH_LISTS),
      prepare: (req) => ({ ...req, limit: req.limit ?? SEARCH_LIMIT.default, max_tokens: req.max_tokens ?? DEFAULT_MAX_TOKENS }),
      render: renderSearch,
      example: '{"query": "GetCatalogItemsAsync", "limit": 8, "exts": ["cs"]} or {"query": "where are discounts applied to an order", "mode": "hybrid"}',
    },
    {
      verb: 'similar',
      name: 'similar',
      title: 'More like this',
      description:
        'Chunks nearest in meaning to one piece of code: pass hit_id (from search), or path and line (the innermost chunk holding that line), or snippet (code or text). ' +
        'Use it to find other implementations of the same idea, duplicated logic, or the tests and docs about a piece of code. Hits are hit_kind "text_vector" with ' +
        'vec_score (cosine), best first, within paths/exts/exclude_paths; source says which chunk they are near. Needs semantic search turned on (else mode_unavailable).',
      annotations: readOnly,
      // Lists as in search: a lone string is coerced to a one-item list.
      input: (s) => s.extend({ paths: stringList(s.shape.paths), exts: stringList(s.shape.exts), exclude_paths: stringList(s.shape.exclude_paths) }).strict(),
      coerce: coerceLists(SEARCH_LISTS),
      prepare: (req) => ({ ...req, limit: req.limit ?? SEARCH_LIMIT.default }),
      render: renderSimilar,
      example: '{"hit_id": "130.1juiota"} or {"path": "src/Pricing/PricingEngine.cs", "line": 42} or {"snippet": "decimal ApplyDiscount(decimal price)"}',
    },
    {
      verb: 'explain',
      name: 'explain_result',
      title: 'Explain one search hit',
      description:
        'Show one search hit by hit_id: the chunk text (bounded by max_lines), which query terms matched in which fields (path, symbol, header, body), ' +
        'the BM25 score with every boost and penalty, its rank, and paired files (Razor/AXAML code-behind, scoped CSS). ' +
        'Use it to check a hit before opening the file, or to see why something ranked where it did.',
      annotations: readOnly,
      input: (s) => s,
      render: renderExplain,
      example: '{"hit_id": "83.k4f9a2"}',
    },
    {
      verb: 'outline',
      name: 'outline',
      title: 'Outline one file',
      description:
        'The symbol tree of one file (namespaces, types, members with 1-based line ranges and member keys), to see its shape without reading it all. ' +
        'The path must be inside the workspace.',
      annotations: readOnly,
      input: (s) => s,
      render: renderOutline,
      example: '{"path": "src/Web/Program.cs"}',
    },
    {
      verb: 'resolve',
      name: 'resolve',
      title: 'Resolve a member key or a line',
      description:
        'Where a symbol is now: pass member_key (from outline or a hit, e.g. "Shop.Ordering.OrderService.PlaceOrder(int)") for its current file and 1-based lines, ' +
        'even after edits moved it; or path and line for the innermost member (method, property, type, config key) that holds that line. ' +
        'status empty: no such member now (renamed or removed) or no member holds the line.',
      annotations: readOnly,
      input: (s) => s,
      render: renderResolve,
      example: '{"member_key": "Shop.OrderService.PlaceOrder(int)"} or {"path": "src/OrderService.cs", "line": 12}',
    },
    {
      verb: 'tree',
      name: 'tree',
      title: 'List one folder',
      description:
        'One folder of the index, a level at a time: its subfolders, each with how many indexed files are below it, and its own files ' +
        '(language, lines, test/generated), by name. Omit folder for the workspace root; pass a subfolder\'s path to go down. ' +
        'Use it to see how the repository is laid out; to find where something is, search.',
      annotations: readOnly,
      input: (s) => s,
      render: renderTree,
      example: '{"folder": "src/Web/"}',
    },
    {
      verb: 'status',
      name: 'status',
      title: 'Index status',
      description:
        'How current and complete the index is: location, format, generation, files and chunks by language, files skipped by reason, the last run, ' +
        `${noWatcher ? 'the watcher (there is none in this server)' : 'the watcher (events or polling, pending changes)'} and recent indexing tasks. With task_id: that task\'s state and progress ` +
        '(wait_ms waits for it to finish). Call it when results look stale or incomplete.',
      output: (c) => c.hostStatus,
      annotations: readOnly,
      input: (s) => s,
      render: renderStatus,
      example: '{"task_id": "t1-ab12", "wait_ms": 5000}',
    },
    {
      verb: 'reindex',
      name: 'reindex',
      title: 'Update the index',
      description:
        'Start an indexing run in the background and return its task_id at once (incremental: only changed files; full: true rebuilds and repairs; ' +
        'paths: only these files or folders, without scanning the rest). ' +
        'Follow it with status(task_id, wait_ms), or pass wait_ms here. cancel: true (with task_id) stops a run; the index keeps what was committed. ' +
        (watcher === 'on'
          ? 'Rarely needed: the watcher re-indexes changed files by itself, and search builds a missing index.'
          : `Call it after editing files: ${noWatcher ? 'this server has no file watcher' : 'the watcher is off'}, so changes reach the index only through reindex (search builds a missing index).`),
      annotations: writes,
      input: (s) => s,
      render: renderReindex,
      example: '{"full": false} or {"cancel": true, "task_id": "t1-ab12"}',
    },
    {
      verb: 'watch',
      name: 'watch',
      title: noWatcher ? 'The watcher (not available in this server)' : 'Turn the watcher on or off',
      description: noWatcher
        ? 'This server has no file watcher, so there is nothing to turn on: the call answers not_available. Call reindex after editing files instead (it is incremental).'
        : 'Turn automatic re-indexing of changed files on (enabled: true) or off. ' +
          `${watcher === 'on' ? 'On' : 'Off'} since this server started; it uses OS file events and falls back to polling when the OS watch limit is reached (status says which).`,
      annotations: writes,
      input: (s) => s,
      render: renderWatch,
      example: '{"enabled": true}',
    },
    ...intercomTools(),
  ];
}
