// The command table of `hci`, shared by the Node and Deno command lines: one row per command — the
// verbs of the verb table (core/service/verbs.ts) a person runs (search, similar, status, explain,
// outline, resolve; the intercom group in intercom-command.ts) as their presentation only (arguments,
// options, help, the request they make, the human format: the call, --json and the exit code are
// derived, command.ts verbCommand), and the commands that are no verb (index, demo, mcp). A new verb
// on the command line is one row. Owns the rows; parsing is commander (program.ts), the platform the
// CliRuntime, the human formats format.ts.
import { HciError } from '../../core/platform.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { FILES_LIMIT } from '../../core/contract/limits.ts';
import type { SearchRequest } from '../../core/contract/search.ts';
import type { SimilarRequest } from '../../core/contract/similar.ts';
import { command, fail, fileArg, folderArg, oneShot, printJson, rootFor, verbCommand, withEmpty, type CommandContext, type CommandRow } from './command.ts';
import { arg, indexOption, indexUrl, isIndexUrl, jsonOption, opt, rootOption } from './options.ts';
import { formatExplain, formatIndexSummary, formatOutline, formatPack, formatResolve, formatSearch, formatSimilar, formatStatus, formatTree } from './format.ts';
import { mcpCommand } from './mcp-command.ts';
import { intercomCommand } from './intercom-command.ts';
import { setupCommand } from './setup-command.ts';

/**
 * `<file>:<line>` when the part before the colon names a file (relative to the current folder or to
 * the root, see fileArg), with the root it belongs to; else null (a member key).
 */
function fileAndLine(c: CommandContext, target: string, rootOpt: string | undefined, index?: string): { root: string; path: string; line: number } | null {
  const m = /^(.+):(\d+)$/.exec(target);
  if (!m) return null;
  const root = rootFor(c, rootOpt, c.rt.dirname(c.rt.resolve(m[1])), index);
  // A published index has no files here: <path>:<line> names one of its paths.
  if (isIndexUrl(root)) return { root, path: m[1], line: Number(m[2]) };
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

/** An identifier as written in code (letters, digits, `_`, a leading `@` of C#): what `resolve` reads as a name. */
const BARE_NAME = /^@?[\p{L}_][\p{L}\p{N}_]*$/u;

// ── the table ──────────────────────────────────────────────────────────────────────────────────

const MODES = ['keyword', 'semantic', 'hybrid', 'literal', 'regex'] as const;

const DEFAULT_K = 8;

/** The filters search and similar share. */
const filterOptions = () => ({
  limit: opt.int('-k, --limit <n>', `number of hits (1-50; default ${DEFAULT_K}; --vimgrep, -l and -C of a literal or regex search list every match unless it is given)`),
  // The name this option had before it took the contract's (`limit`): scripts that wrote `--k 20` still work.
  k: opt.int('--k <n>', 'the same as --limit', (x) => x.hideHelp().conflicts('limit')),
  path: opt.list('-p, --path <prefix|glob>', 'only paths under this prefix or matching this glob (repeatable)'),
  ext: opt.list('-e, --ext <ext>', 'only these extensions (repeatable, comma-separated)'),
  exclude: opt.list('-x, --exclude <prefix|glob>', 'leave out these paths (repeatable)'),
});

export const COMMANDS: CommandRow[] = [
  command({
    name: 'index',
    description: 'build or update the index of a workspace (incremental; --full rebuilds)',
    args: [arg.maybe('[root]', 'workspace folder (default: the current folder)')],
    options: {
      // Every other verb names its workspace with --root; a user who searched with it writes it here too.
      root: opt.text('-r, --root <dir>', 'workspace folder (the same as the [root] argument)'),
      full: opt.flag('--full', 'rebuild from scratch (also repairs an outdated or damaged index)'),
      path: opt.many('--path <path...>', 'update only these files or folders (workspace-relative, or absolute inside the workspace): no scan of the rest of the tree'),
      json: jsonOption('print the run summary as JSON'),
      quiet: opt.flag('-q, --quiet', 'no progress bar'),
    },
    async run(c, [rootArg], o) {
      if (rootArg !== undefined && o.root !== undefined && c.rt.resolve(rootArg) !== c.rt.resolve(o.root)) {
        return fail(c, new HciError('usage', `two workspace folders given: ${rootArg} and --root ${o.root}`, 'name the folder once, as the argument or with --root'), o.json);
      }
      const root = rootArg ?? o.root;
      const abort = new AbortController();
      const offInterrupt = c.rt.onInterrupt(() => abort.abort());
      const bar = !o.json && !o.quiet && c.rt.stderrIsTerminal ? c.rt.progress() : null;
      const svc = await oneShot(c, c.rt.resolve(root ?? '.'));
      try {
        if (o.full && o.path) throw new HciError('usage', '--full and --path do not go together', '--full rebuilds every file; --path updates only the files given');
        const summary = await svc.index({ full: o.full, paths: o.path, signal: abort.signal, onProgress: (p) => bar?.update(p) });
        bar?.stop();
        if (o.json) printJson(c, { status: 'ok', ...summary });
        else c.rt.write('out', `${formatIndexSummary(summary)}\n`);
        return EXIT.ok;
      } catch (e) {
        bar?.stop();
        return fail(c, e, o.json);
      } finally {
        offInterrupt();
        await svc.close();
      }
    },
  }),
  verbCommand({
    verb: 'search',
    name: 'search',
    description: 'search the index (keyword: BM25 over path, symbols, headers and code; --literal / --regex: exact text, like grep)',
    rewriteArgs: queryFiltersAsWords,
    args: [arg.words('<query...>', 'words, identifiers, "quoted phrases", "?.literal(" (exact), re:<regex>, path:<prefix|glob>, ext:<ext>, -path:<prefix|glob>')],
    options: {
      root: opt.repeat('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one); repeat it, or add --index, to search several repositories as one'),
      index: opt.repeat('--index <url>', 'a published index (hci pack) read over HTTP range requests, instead of a workspace folder; repeatable, and mixed with --root', indexUrl),
      repo: opt.list('--repo <name>', 'searching several repositories: only these, by the name hits carry (the folder\'s or file\'s name; repeatable)'),
      ...filterOptions(),
      maxTokens: opt.int('--max-tokens <n>', 'cut the answer to about this many tokens'),
      cursor: opt.text('--cursor <cursor>', 'next page, from a previous answer'),
      mode: opt.oneOf('-m, --mode <mode>', 'keyword (default) | hybrid (keyword + meaning, for questions in words) | semantic (meaning only) | literal | regex (exact text, like -F / -E); hybrid and semantic need [semantic] enabled = true', MODES),
      literal: opt.flag('-F, --literal', 'the query is exact text (no filters or words read out of it); lists matching lines', (x) => x.conflicts('mode')),
      regex: opt.flag('-E, --regex', 'the query is an RE2 regex (ripgrep\'s syntax); lists matching lines', (x) => x.conflicts(['literal', 'mode'])),
      caseSensitive: opt.flag('-s, --case-sensitive', 'literal and regex matching: match case exactly (default: smart case, as rg -S: case-sensitive when the pattern has an upper-case letter)'),
      ignoreCase: opt.flag('-i, --ignore-case', 'literal and regex matching: ignore case', (x) => x.conflicts('caseSensitive')),
      word: opt.flag('-w, --word', 'literal and regex matching: whole words only'),
      vimgrep: opt.flag('--vimgrep', 'one line per match: path:line:column:text (as rg --vimgrep; a literal or regex search lists every match)'),
      files: opt.flag('-l, --files-with-matches', 'only the paths of the files with hits, once each, best first'),
      context: opt.int('-C, --context <n>', 'grep\'s lines: path:line:text for each matching line, path-line-text for the n lines around it'),
      quiet: opt.flag('-q, --quiet', 'print nothing; the exit code says whether anything was found (0) or not (1)'),
      footer: opt.negated('--no-footer', 'no summary, hint or note lines after the hits'),
      json: jsonOption('print the search contract as JSON'),
    },
    open: { persistQueries: true },
    ask: async (c, [words], o) => {
      const mode: SearchRequest['mode'] = o.literal ? 'literal' : o.regex ? 'regex' : o.mode;
      const query = words.join(' ');
      // -s and -i decide the case; neither: the contract's smart case (rg -S), decided by the core.
      const exact = mode === 'literal' || mode === 'regex';
      const grepShaped = o.vimgrep || o.files || o.context !== undefined;
      // A grep of exact text lists every match (pages of 50 followed to the end) unless -k says how many.
      const given = o.limit ?? o.k;
      const limit = given ?? (grepShaped && exact ? 50 : DEFAULT_K);
      const req: SearchRequest = {
        query, limit, paths: o.path, exts: o.ext, exclude_paths: o.exclude, max_tokens: o.maxTokens, cursor: o.cursor,
        ...(mode ? { mode } : {}),
        ...(o.caseSensitive ? { case_sensitive: true } : o.ignoreCase ? { case_sensitive: false } : {}),
        ...(o.word ? { whole_word: true } : {}),
        ...(o.repo.length ? { repos: o.repo } : {}),
      };
      const roots = [...o.root.map((r) => (isIndexUrl(r) ? r : c.rt.resolve(r))), ...o.index.map((u) => rootFor(c, undefined, undefined, u))];
      if (roots.length > 1) {
        if (grepShaped || o.quiet) throw new HciError('usage', '--vimgrep, -l, -C and -q search one repository', 'search several without them, or one with --root');
        return { root: roots[0], roots, req };
      }
      return { root: rootFor(c, o.root[0], undefined, o.index[0]), req };
    },
    format: formatSearch,
    render: (o, req) => {
      if (o.quiet) return async () => '';
      if (o.vimgrep || o.files || o.context !== undefined) {
        const exact = req.mode === 'literal' || req.mode === 'regex';
        const shape = { vimgrep: o.vimgrep, files: o.files, context: o.context ?? 0 };
        return async (r, svc) => {
          const { grepLines } = await import('./grep-output.ts');
          const shown = await grepLines(svc, req, r, shape, exact && o.limit === undefined && o.k === undefined);
          return o.footer ? shown : { out: shown.out };
        };
      }
      return o.footer ? null : async (r, _svc, style) => formatSearch(r, style, false);
    },
    exit: withEmpty((r) => r.hits.length),
  }),
  verbCommand({
    verb: 'similar',
    name: 'similar',
    description: 'more like this: the chunks nearest in meaning to a hit, to the chunk at <file>:<line>, or to a snippet (semantic search on)',
    args: [arg.maybe('[target]', 'a hit_id from a search, or <file>:<line> (the file relative to the current folder, or absolute)')],
    options: {
      root: rootOption(),
      index: indexOption(),
      snippet: opt.text('--snippet <text>', 'chunks like this code or text (instead of a target)'),
      ...filterOptions(),
      cursor: opt.text('--cursor <cursor>', 'next page, from a previous answer'),
      json: jsonOption('print the answer (the search contract plus source) as JSON'),
    },
    helpAfter: '\nExamples:\n  hci similar 130.1juiota\n  hci similar src/Pricing/PricingEngine.cs:42\n  hci similar --snippet "decimal ApplyDiscount(decimal price)"',
    open: { persistQueries: true },
    fileHint: true,
    ask: (c, [target], o) => {
      const at = target !== undefined ? fileAndLine(c, target, o.root, o.index) : null;
      const filters = { limit: o.limit ?? o.k ?? DEFAULT_K, paths: o.path, exts: o.ext, exclude_paths: o.exclude, cursor: o.cursor };
      const req: SimilarRequest = o.snippet !== undefined ? { snippet: o.snippet, ...filters }
        : at ? { path: at.path, line: at.line, ...filters }
        : { hit_id: target ?? '', ...filters };
      return { root: at ? at.root : rootFor(c, o.root, undefined, o.index), req };
    },
    format: formatSimilar,
    exit: withEmpty((r) => r.hits.length),
  }),
  verbCommand({
    verb: 'status',
    name: 'status',
    description: 'where the index is, how fresh, what it holds and what was skipped',
    args: [],
    options: { root: rootOption(), index: indexOption(), pending: opt.negated('--no-pending', 'skip the scan that counts files changed since the last run'), json: jsonOption() },
    ask: (c, _args, o) => ({ root: rootFor(c, o.root, undefined, o.index), req: { check_pending: o.pending } }),
    format: formatStatus,
  }),
  verbCommand({
    verb: 'explain',
    name: 'explain',
    description: 'show one hit: its text, which terms matched where, and how its score was made',
    args: [arg.one('<hit_id>', 'a hit_id from a search')],
    options: { root: rootOption(), index: indexOption(), query: opt.text('--query <query>', 'the query, if this hit id came from elsewhere'), json: jsonOption() },
    open: { persistQueries: true },
    ask: (c, [hitId], o) => ({ root: rootFor(c, o.root, undefined, o.index), req: { hit_id: hitId, ...(o.query !== undefined ? { query: o.query } : {}) } }),
    format: formatExplain,
  }),
  verbCommand({
    verb: 'outline',
    name: 'outline',
    description: 'the symbol tree of a file (types, members, sections, keys) with member keys and line ranges',
    args: [arg.one('<file>', 'a file inside the workspace: relative to the current folder or to the workspace root, or absolute')],
    options: { root: rootOption(), index: indexOption(), json: jsonOption() },
    fileHint: true,
    ask: (c, [file], o) => {
      const root = rootFor(c, o.root, c.rt.dirname(c.rt.resolve(file)), o.index);
      return { root, req: { path: fileArg(c, root, file) } };
    },
    format: formatOutline,
  }),
  verbCommand({
    verb: 'resolve',
    name: 'resolve',
    aliases: ['def'],
    description: 'go to definition: every symbol defined with a name; where a member key is now; or which member holds <file>:<line>',
    args: [arg.one('<target>', 'a name as written in code (CatalogService), a member key (from outline or a hit), or <file>:<line> (the file relative to the current folder or to the workspace root, or absolute)')],
    options: { root: rootOption(), index: indexOption(), json: jsonOption() },
    helpAfter: '\nExamples:\n  hci resolve CatalogService      # or: hci def CatalogService\n  hci resolve "Contoso.Shop.Catalog.CatalogService.GetAsync(int)"\n  hci resolve src/Catalog/CatalogService.cs:42',
    fileHint: true,
    ask: (c, [target], o) => {
      const at = fileAndLine(c, target, o.root, o.index);
      // A bare identifier is a name (every definition of it, like MCP's resolve {name}); a dotted or parenthesised one a member key.
      const req = at ? { path: at.path, line: at.line } : BARE_NAME.test(target) ? { name: target } : { member_key: target };
      return { root: at?.root ?? rootFor(c, o.root, undefined, o.index), req };
    },
    format: formatResolve,
    exit: withEmpty((r) => r.locations.length),
  }),
  verbCommand({
    verb: 'tree',
    name: 'tree',
    description: 'one folder of the index: its subfolders (with how many files are below each) and its files',
    args: [arg.maybe('[folder]', 'a folder inside the workspace: relative to the current folder or to the workspace root, or absolute (default: the current folder)')],
    options: { root: rootOption(), limit: opt.int('-k, --limit <n>', `most of the folder's own files to list (default ${FILES_LIMIT.default})`), json: jsonOption('print the tree contract as JSON') },
    ask: (c, [folder], o) => {
      const root = rootFor(c, o.root, c.rt.resolve(folder ?? '.'));
      return { root, req: { folder: folderArg(c, root, folder ?? '.'), ...(o.limit ? { limit: o.limit } : {}) } };
    },
    format: formatTree,
    exit: withEmpty((r) => r.total),
  }),
  command({
    name: 'pack',
    description: 'write a read-only copy of the index for publishing (compacted, paged for HTTP range reads) and its manifest <file>.json',
    args: [],
    options: {
      root: rootOption(),
      out: opt.required('-o, --out <file>', 'the packed index to write (its manifest goes beside it as <file>.json)'),
      pageSize: opt.int('--page-size <bytes>', 'SQLite page size of the packed file: 4096, 8192 (default), 16384, 32768 or 65536'),
      repository: opt.text('--repository <name>', 'the repository\'s name in the manifest (default: owner/name of the git remote origin, else the folder\'s name)'),
      json: jsonOption('print the manifest as JSON'),
    },
    helpAfter: '\nServe the file from any static host that answers HTTP range requests; then: hci search <query> --index <url>',
    async run(c, _args, o) {
      const root = rootFor(c, o.root);
      const svc = await oneShot(c, root);
      try {
        const ws = await svc.workspace();
        const out = c.rt.resolve(o.out);
        const manifest = await ws.pack(c.rt.packTarget(out), { pageSize: o.pageSize, fileName: out.split(/[\\/]/).pop() ?? out, repository: o.repository });
        if (o.json) printJson(c, { status: 'ok', path: out, manifest: `${out}.json`, ...manifest });
        else c.rt.write('out', `${formatPack(out, manifest)}\n`);
        return EXIT.ok;
      } catch (e) {
        return fail(c, e, o.json);
      } finally {
        await svc.close();
      }
    },
  }),
  command({
    name: 'demo',
    description: 'index the bundled sample workspace (or [root]) and run a few example searches',
    args: [arg.maybe('[root]', 'workspace folder (default: the bundled sample)')],
    options: {},
    needs: 'demo',
    async run(c, [root]) {
      try {
        await c.rt.demo!(root);
        return EXIT.ok;
      } catch (e) {
        return fail(c, e, false);
      }
    },
  }),
  intercomCommand,
  mcpCommand,
  setupCommand,
];
