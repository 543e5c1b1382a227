// The `hci` command line: parses arguments (commander), calls the same core workspace calls as the
// MCP server and the library, and prints human output or the contract JSON. Owns exit codes:
//   0 ok · 1 search found nothing · 2 bad usage or input · 3 no index · 4 index busy ·
//   5 other failure (damaged or outdated index, I/O) · 130 cancelled (Ctrl-C)
import * as path from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { HciError, type HciWorkspace, type IndexProgress, type OpenOptions, type SearchRequest } from '../../core/index.ts';
import { openWorkspace, findIndexedRoot } from './index.ts';
import { formatExplain, formatIndexSummary, formatOutline, formatSearch, formatStatus } from './cli-format.ts';
import { runDemo } from './demo.ts';
import { registerMcpCommand } from './cli-mcp.ts';
import { EXIT, exitCodeFor } from '../shared/exit-codes.ts';
import { workspacePathArg } from '../shared/workspace-files.ts';
export { EXIT };



function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

const collect = (v: string, prev: string[]) => [...prev, ...v.split(',').filter(Boolean)];

/** --root if given, else the nearest indexed folder at or above the cwd, else the cwd. */
function resolveRoot(root: string | undefined): string {
  if (root) return path.resolve(root);
  return findIndexedRoot(process.cwd()) ?? process.cwd();
}

function printJson(x: unknown): void {
  process.stdout.write(`${JSON.stringify(x, null, 2)}\n`);
}

function fail(e: unknown, json: boolean): number {
  const err = e instanceof HciError ? e : new HciError('internal', (e as Error)?.message ?? String(e));
  if (json) printJson({ status: 'error', error: { code: err.code, message: err.message }, hint: err.hint });
  else process.stderr.write(`hci: ${err.message}${err.hint ? `\nhint: ${err.hint}` : ''}\n`);
  return exitCodeFor(err.code);
}

function progressReporter(enabled: boolean) {
  if (!enabled) return { update: (_p: IndexProgress) => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    { format: 'indexing [{bar}] {value}/{total} files · {chunks} chunks · {mb} MB', hideCursor: true, clearOnComplete: true, stream: process.stderr },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(p: IndexProgress) {
      if (p.phase !== 'index' && p.phase !== 'done') return;
      const payload = { chunks: p.chunks, mb: (p.bytes / 1048576).toFixed(1) };
      if (!started) {
        bar.start(p.filesTotal, p.filesDone, payload);
        started = true;
      } else bar.update(p.filesDone, payload);
    },
    stop: () => started && bar.stop(),
  };
}

/**
 * Opens the workspace, asks it one question and prints the answer: JSON (the contract) or the human
 * rendering (to stderr when the answer is an error). Returns the exit code.
 */
async function answer<R extends { error?: { code: string } }>(
  root: string,
  opts: OpenOptions,
  json: boolean,
  ask: (ws: HciWorkspace) => Promise<R>,
  human: (r: R) => string,
  exitOf: (r: R) => number = (r) => exitCodeFor(r.error?.code),
): Promise<number> {
  try {
    const ws = await openWorkspace(root, opts);
    try {
      const r = await ask(ws);
      if (json) printJson(r);
      else (r.error ? process.stderr : process.stdout).write(`${human(r)}\n`);
      return exitOf(r);
    } finally {
      ws.close();
    }
  } catch (e) {
    return fail(e, json);
  }
}

export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('hci')
    .description('hci — the hybrid codebase index: find where to look in a code base in one or two calls')
    .exitOverride() // before the subcommands, which inherit it: usage errors become exit code 2
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', '\nExit codes: 0 ok · 1 no hits · 2 bad usage/input · 3 no index · 4 index busy · 5 other failure · 130 cancelled');

  program
    .command('index')
    .description('build or update the index of a workspace (incremental; --full rebuilds)')
    .argument('[root]', 'workspace folder (default: the current folder)')
    .option('--full', 'rebuild from scratch (also repairs an outdated or damaged index)')
    .option('--path <path...>', 'update only these files or folders (workspace-relative, or absolute inside the workspace): no scan of the rest of the tree')
    .option('--json', 'print the run summary as JSON')
    .option('-q, --quiet', 'no progress bar')
    .action(async (root: string | undefined, o: { full?: boolean; path?: string[]; json?: boolean; quiet?: boolean }) => {
      const abort = new AbortController();
      const onSig = () => abort.abort();
      process.once('SIGINT', onSig);
      process.once('SIGTERM', onSig);
      const bar = progressReporter(!o.json && !o.quiet && process.stderr.isTTY === true);
      try {
        const abs = path.resolve(root ?? '.');
        if (o.full && o.path) throw new HciError('usage', '--full and --path do not go together', '--full rebuilds every file; --path updates only the files given');
        const paths = o.path?.map((p) => workspacePathArg(abs, p));
        const ws = await openWorkspace(abs);
        try {
          const summary = await ws.index({ full: o.full, paths, signal: abort.signal, onProgress: (p) => bar.update(p) });
          bar.stop();
          if (o.json) printJson({ status: 'ok', ...summary });
          else process.stdout.write(`${formatIndexSummary(summary)}\n`);
        } finally {
          ws.close();
        }
      } catch (e) {
        bar.stop();
        setExit(fail(e, !!o.json));
      } finally {
        process.off('SIGINT', onSig);
        process.off('SIGTERM', onSig);
      }
    });

  program
    .command('search')
    .description('search the index (keyword: BM25 over path, symbols, headers and code)')
    .argument('<query...>', 'words, identifiers, "quoted phrases", path:<prefix|glob>, ext:<ext>, -path:<prefix|glob>')
    .option('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)')
    .option('-k, --k <n>', 'number of hits (1-50)', positiveInt, 8)
    .option('-p, --path <prefix|glob>', 'only paths under this prefix or matching this glob (repeatable)', collect, [])
    .option('-e, --ext <ext>', 'only these extensions (repeatable, comma-separated)', collect, [])
    .option('-x, --exclude <prefix|glob>', 'leave out these paths (repeatable)', collect, [])
    .option('--max-tokens <n>', 'cut the answer to about this many tokens', positiveInt)
    .option('--cursor <cursor>', 'next page, from a previous answer')
    .option('--json', 'print the search contract as JSON')
    .action(async (words: string[], o: { root?: string; k: number; path: string[]; ext: string[]; exclude: string[]; maxTokens?: number; cursor?: string; json?: boolean }) => {
      const req: SearchRequest = { query: words.join(' '), limit: o.k, paths: o.path, exts: o.ext, exclude_paths: o.exclude, max_tokens: o.maxTokens, cursor: o.cursor };
      setExit(await answer(resolveRoot(o.root), { persistQueries: true }, !!o.json, (ws) => ws.search(req), formatSearch,
        (r) => (r.error ? exitCodeFor(r.error.code) : r.hits.length === 0 ? EXIT.empty : EXIT.ok)));
    });

  program
    .command('status')
    .description('where the index is, how fresh, what it holds and what was skipped')
    .option('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)')
    .option('--no-pending', 'skip the scan that counts files changed since the last run')
    .option('--json', 'print as JSON')
    .action(async (o: { root?: string; pending: boolean; json?: boolean }) => {
      setExit(await answer(resolveRoot(o.root), {}, !!o.json, (ws) => ws.status({ checkPending: o.pending }), formatStatus));
    });

  program
    .command('explain')
    .description('show one hit: its text, which terms matched where, and how its score was made')
    .argument('<hit_id>', 'a hit_id from a search')
    .option('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)')
    .option('--query <query>', 'the query, if this hit id came from elsewhere')
    .option('--json', 'print as JSON')
    .action(async (hitId: string, o: { root?: string; query?: string; json?: boolean }) => {
      setExit(await answer(resolveRoot(o.root), { persistQueries: true }, !!o.json, (ws) => ws.explain(hitId, { query: o.query }), formatExplain));
    });

  program
    .command('outline')
    .description('the symbol tree of a file (types, members, sections, keys) with member keys and line ranges')
    .argument('<file>', 'a file inside the workspace (relative to the current folder, or absolute)')
    .option('-r, --root <dir>', 'workspace folder (default: nearest indexed folder above the current one)')
    .option('--json', 'print as JSON')
    .action(async (file: string, o: { root?: string; json?: boolean }) => {
      const root = o.root ? path.resolve(o.root) : (findIndexedRoot(path.dirname(path.resolve(file))) ?? process.cwd());
      const rel = path.relative(root, path.resolve(file)).split(path.sep).join('/');
      setExit(await answer(root, {}, !!o.json, (ws) => ws.outline(rel), formatOutline));
    });

  program
    .command('demo')
    .description('index the bundled sample workspace (or [root]) and run a few example searches')
    .argument('[root]', 'workspace folder (default: the bundled sample)')
    .action(async (root: string | undefined) => {
      try {
        await runDemo(root);
      } catch (e) {
        setExit(fail(e, false));
      }
    });

  registerMcpCommand(program, setExit);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const program = buildProgram((c) => {
    code = c;
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT.usage;
    throw e;
  }
  return code;
}
