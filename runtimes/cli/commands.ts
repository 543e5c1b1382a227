// The command table of `hci`, one row per verb, shared by the Node and Deno command lines: arguments,
// options, help, and what the verb asks the service (core/service/, one-shot: one service per
// command) and prints — the contract JSON with --json, else the human rendering (format.ts), and the
// exit code from the contract's error table. A new verb is one row. Owns the verbs; parsing is
// commander (program.ts), the platform is the CliRuntime.
import { Option } from 'commander';
import { HciError } from '../../core/platform.ts';
import { EXIT } from '../../core/contract/errors.ts';
import type { SearchRequest } from '../../core/contract/search.ts';
import type { SimilarRequest } from '../../core/contract/similar.ts';
import { answer, cliPathHint, fail, fileArg, oneShot, printJson, rootFor, withEmpty, type CommandContext, type CommandRow } from './command.ts';
import { collect, jsonOption, oneOf, positiveInt, rootOption } from './options.ts';
import { formatExplain, formatIndexSummary, formatOutline, formatResolve, formatSearch, formatSimilar, formatStatus } from './format.ts';
import { mcpCommand } from './mcp-command.ts';
import { intercomCommand } from './intercom-command.ts';

/**
 * `<file>:<line>` when the part before the colon names a file (relative to the current folder or to
 * the root, see fileArg), with the root it belongs to; else null (a member key).
 */
function fileAndLine(c: CommandContext, target: string, rootOpt: unknown): { root: string; path: string; line: number } | null {
  const m = /^(.+):(\d+)$/.exec(target);
  if (!m) return null;
  const root = rootFor(c, rootOpt, c.rt.dirname(c.rt.resolve(m[1])));
  if (!c.rt.isFile(c.rt.resolve(m[1])) && !c.rt.isFile(c.rt.resolve(root, m[1]))) return null;
  return { root, path: fileArg(c, root, m[1]), line: Number(m[2]) };
}

/** Query filters typed without quotes (`-path:tests/`) would be read as short options (`-p ath:tests/`): they go after `--`, with the query words. */
function queryFiltersAsWords(args: string[]): string[] {
  const isFilter = (a: string) => /^-(?:path|ext|file|lang):/i.test(a);
  const end = args.indexOf('--');
  const options = end < 0 ? args : args.slice(0, end);
  const filters = options.filter(isFilter);
  if (!filters.length) return args;
  return [...options.filter((a) => !isFilter(a)), '--', ...(end < 0 ? [] : args.slice(end + 1)), ...filters];
}

// ── the table ──────────────────────────────────────────────────────────────────────────────────

export const COMMANDS: CommandRow[] = [
  {
    name: 'index',
    description: 'build or update the index of a workspace (incremental; --full rebuilds)',
    args: [['[root]', 'workspace folder (default: the current folder)']],
    options: () => [
      new Option('--full', 'rebuild from scratch (also repairs an outdated or damaged index)'),
      new Option('--path <path...>', 'update only these files or folders (workspace-relative, or absolute inside the workspace): no scan of the rest of the tree'),
      jsonOption('print the run summary as JSON'),
      new Option('-q, --quiet', 'no progress bar'),
    ],
    async run(c, [root], o) {
      const json = !!o.json;
      const abort = new AbortController();
      const offInterrupt = c.rt.onInterrupt(() => abort.abort());
      const bar = !json && !o.quiet && c.rt.stderrIsTerminal ? c.rt.progress() : null;
      const svc = await oneShot(c, c.rt.resolve((root as string | undefined) ?? '.'));
      try {
        if (o.full && o.path) throw new HciError('usage', '--full and --path do not go together', '--full rebuilds every file; --path updates only the files given');
        const summary = await svc.index({ full: !!o.full, paths: o.path as string[] | undefined, signal: abort.signal, onProgress: (p) => bar?.update(p) });
        bar?.stop();
        if (json) printJson(c, { status: 'ok', ...summary });
        else c.rt.write('out', `${formatIndexSummary(summary)}\n`);
        return EXIT.ok;
      } catch (e) {
        bar?.stop();
        return fail(c, e, json);
      } finally {
        offInterrupt();
        await svc.close();
      }
    },
  },
  {
    name: 'search',
    description: 'search the index (keyword: BM25 over path, symbols, headers and code; --literal / --regex: exact text, like grep)',
    rewriteArgs: queryFiltersAsWords,
    args: [['<query...>', 'words, identifiers, "quoted phrases", "?.literal(" (exact), re:<regex>, path:<prefix|glob>, ext:<ext>, -path:<prefix|glob>']],
    options: () => [
      rootOption(),
      new Option('-k, --k <n>', 'number of hits (1-50)').argParser(positiveInt).default(8),
      new Option('-p, --path <prefix|glob>', 'only paths under this prefix or matching this glob (repeatable)').argParser(collect).default([]),
      new Option('-e, --ext <ext>', 'only these extensions (repeatable, comma-separated)').argParser(collect).default([]),
      new Option('-x, --exclude <prefix|glob>', 'leave out these paths (repeatable)').argParser(collect).default([]),
      new Option('--max-tokens <n>', 'cut the answer to about this many tokens').argParser(positiveInt),
      new Option('--cursor <cursor>', 'next page, from a previous answer'),
      new Option('-m, --mode <mode>', 'keyword (default) | hybrid (keyword + meaning, for questions in words) | semantic (meaning only) | literal | regex (exact text, like -F / -E); hybrid and semantic need [semantic] enabled = true').argParser(oneOf(['keyword', 'semantic', 'hybrid', 'literal', 'regex'] as const)),
      new Option('-F, --literal', 'the query is exact text (no filters or words read out of it); lists matching lines').conflicts('mode'),
      new Option('-E, --regex', 'the query is an RE2 regex (ripgrep\'s syntax); lists matching lines').conflicts(['literal', 'mode']),
      new Option('-s, --case-sensitive', 'literal and regex matching: match case exactly (default: ignore case)'),
      new Option('-w, --word', 'literal and regex matching: whole words only'),
      jsonOption('print the search contract as JSON'),
    ],
    run(c, [words], o) {
      const req: SearchRequest = {
        query: (words as string[]).join(' '), limit: o.k as number, paths: o.path as string[], exts: o.ext as string[], exclude_paths: o.exclude as string[],
        max_tokens: o.maxTokens as number | undefined, cursor: o.cursor as string | undefined,
        ...(o.literal ? { mode: 'literal' as const } : o.regex ? { mode: 'regex' as const } : o.mode ? { mode: o.mode as SearchRequest['mode'] } : {}),
        ...(o.caseSensitive ? { case_sensitive: true } : {}),
        ...(o.word ? { whole_word: true } : {}),
      };
      return answer(c, rootFor(c, o.root), { open: { persistQueries: true }, json: !!o.json }, (svc) => svc.search(req), formatSearch, withEmpty((r) => r.hits.length));
    },
  },
  {
    name: 'similar',
    description: 'more like this: the chunks nearest in meaning to a hit, to the chunk at <file>:<line>, or to a snippet (semantic search on)',
    args: [['[target]', 'a hit_id from a search, or <file>:<line> (the file relative to the current folder, or absolute)']],
    options: () => [
      rootOption(),
      new Option('-s, --snippet <text>', 'chunks like this code or text (instead of a target)'),
      new Option('-k, --k <n>', 'number of hits (1-50)').argParser(positiveInt).default(8),
      new Option('-p, --path <prefix|glob>', 'only paths under this prefix or matching this glob (repeatable)').argParser(collect).default([]),
      new Option('-e, --ext <ext>', 'only these extensions (repeatable, comma-separated)').argParser(collect).default([]),
      new Option('-x, --exclude <prefix|glob>', 'leave out these paths (repeatable)').argParser(collect).default([]),
      jsonOption('print the answer (the search contract plus source) as JSON'),
    ],
    helpAfter: '\nExamples:\n  hci similar 130.1juiota\n  hci similar src/Pricing/PricingEngine.cs:42\n  hci similar --snippet "decimal ApplyDiscount(decimal price)"',
    run(c, [target], o) {
      const at = typeof target === 'string' ? fileAndLine(c, target, o.root) : null;
      const root = at ? at.root : rootFor(c, o.root);
      const filters = { limit: o.k as number, paths: o.path as string[], exts: o.ext as string[], exclude_paths: o.exclude as string[] };
      const req: SimilarRequest = o.snippet !== undefined ? { snippet: o.snippet as string, ...filters }
        : at ? { path: at.path, line: at.line, ...filters }
        : { hit_id: (target as string | undefined) ?? '', ...filters };
      return answer(c, root, { open: { persistQueries: true }, json: !!o.json }, (svc) => svc.similar(req).then(cliPathHint(root)), formatSimilar, withEmpty((r) => r.hits.length));
    },
  },
  {
    name: 'status',
    description: 'where the index is, how fresh, what it holds and what was skipped',
    args: [],
    options: () => [rootOption(), new Option('--no-pending', 'skip the scan that counts files changed since the last run'), jsonOption()],
    run: (c, _args, o) => answer(c, rootFor(c, o.root), { json: !!o.json }, (svc) => svc.status({ check_pending: o.pending !== false }), formatStatus),
  },
  {
    name: 'explain',
    description: 'show one hit: its text, which terms matched where, and how its score was made',
    args: [['<hit_id>', 'a hit_id from a search']],
    options: () => [rootOption(), new Option('--query <query>', 'the query, if this hit id came from elsewhere'), jsonOption()],
    run: (c, [hitId], o) =>
      answer(c, rootFor(c, o.root), { open: { persistQueries: true }, json: !!o.json }, (svc) => svc.explain({ hit_id: hitId as string, query: o.query as string | undefined }), formatExplain),
  },
  {
    name: 'outline',
    description: 'the symbol tree of a file (types, members, sections, keys) with member keys and line ranges',
    args: [['<file>', 'a file inside the workspace: relative to the current folder or to the workspace root, or absolute']],
    options: () => [rootOption(), jsonOption()],
    run(c, [file], o) {
      const root = rootFor(c, o.root, c.rt.dirname(c.rt.resolve(file as string)));
      const path = fileArg(c, root, file as string);
      return answer(c, root, { json: !!o.json }, (svc) => svc.outline({ path }).then(cliPathHint(root)), formatOutline);
    },
  },
  {
    name: 'resolve',
    description: 'where a member key is now, or which member holds <file>:<line>',
    args: [['<target>', 'a member key (from outline or a hit), or <file>:<line> (the file relative to the current folder or to the workspace root, or absolute)']],
    options: () => [rootOption(), jsonOption()],
    helpAfter: '\nExamples:\n  hci resolve "Contoso.Shop.Catalog.CatalogService.GetAsync(int)"\n  hci resolve src/Catalog/CatalogService.cs:42',
    run(c, [target], o) {
      const at = fileAndLine(c, target as string, o.root);
      const root = at?.root ?? rootFor(c, o.root);
      const req = at ? { path: at.path, line: at.line } : { member_key: target as string };
      return answer(c, root, { json: !!o.json }, (svc) => svc.resolve(req).then(cliPathHint(root)), formatResolve, withEmpty((r) => r.locations.length));
    },
  },
  {
    name: 'demo',
    description: 'index the bundled sample workspace (or [root]) and run a few example searches',
    args: [['[root]', 'workspace folder (default: the bundled sample)']],
    options: () => [],
    needs: 'demo',
    async run(c, [root]) {
      try {
        await c.rt.demo!(root as string | undefined);
        return EXIT.ok;
      } catch (e) {
        return fail(c, e, false);
      }
    },
  },
  intercomCommand,
  mcpCommand,
];
