// `hci` under Deno: index, search, status, explain and outline with the Deno adapters, the same
// options, JSON shapes and exit codes as the Node CLI (0 ok · 1 nothing found · 2 usage · 3 no index ·
// 4 busy · 5 failure · 130 cancelled). Narrowest permissions that work (see the README):
//
//   deno run --no-prompt --allow-read=<workspace>,<hci folder>/node_modules \
//     --allow-write=<workspace>/.hci --allow-sys=hostname <hci folder>/runtimes/deno/cli.ts index <workspace>
//
// Add --allow-run only if Deno should clear lock files left by crashed processes itself.
import type { IndexProgress } from '../../core/index/indexer.ts';
import { HciError } from '../../core/platform.ts';
import type { SearchRequest, SearchResponse } from '../../core/search/contract.ts';
import type { SkipCounts } from '../../core/scan/walker.ts';
import type { OutlineSymbol } from '../../core/search/symbols.ts';
import { deno } from './deno-api.ts';
import { uncheckedHolders } from './dot-lock.ts';
import { absolutePath } from './deno-storage.ts';
import { findIndexedRoot, openWorkspace } from './workspace.ts';
import { EXIT, exitCodeFor } from '../shared/exit-codes.ts';
import { workspacePathArg } from '../shared/workspace-files.ts';
export { EXIT };


const USAGE = `usage (under deno run … runtimes/deno/cli.ts):
  index [root] [--full | -p|--path P…] [--json] [-q]
  search <query…> [-r|--root DIR] [-k N] [-p|--path P]… [-e|--ext E]… [-x|--exclude P]… [--max-tokens N] [--cursor C] [--json]
  status [-r|--root DIR] [--no-pending] [--json]
  explain <hit_id> [-r|--root DIR] [--query Q] [--json]
  outline <path> [-r|--root DIR] [--json]`;


const enc = new TextEncoder();
const out = (s: string) => void deno().stdout.writeSync(enc.encode(`${s}\n`));
const err = (s: string) => void deno().stderr.writeSync(enc.encode(`${s}\n`));
const printJson = (x: unknown) => out(JSON.stringify(x, null, 2));

interface Parsed {
  positional: string[];
  flags: Map<string, string[]>;
}

const VALUE_FLAGS = new Set(['root', 'k', 'path', 'ext', 'exclude', 'max-tokens', 'cursor', 'query']);
const BOOL_FLAGS = new Set(['full', 'json', 'quiet', 'no-pending', 'help']);
const SHORT: Record<string, string> = { r: 'root', k: 'k', p: 'path', e: 'ext', x: 'exclude', q: 'quiet', h: 'help' };

function parseArgs(args: string[]): Parsed {
  const positional: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    let name: string | null = null;
    let value: string | undefined;
    if (a.startsWith('--')) [name, value] = a.slice(2).includes('=') ? [a.slice(2, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a.slice(2), undefined];
    else if (/^-[a-z]$/.test(a)) name = SHORT[a[1]] ?? null;
    if (name === null) {
      if (a.startsWith('-') && a.length > 1 && !/^-\w+:/.test(a)) throw new HciError('usage', `unknown option ${a}`, USAGE);
      positional.push(a);
      continue;
    }
    if (BOOL_FLAGS.has(name)) flags.set(name, ['true']);
    else if (VALUE_FLAGS.has(name)) {
      value ??= args[++i];
      if (value === undefined) throw new HciError('usage', `option --${name} needs a value`, USAGE);
      flags.set(name, [...(flags.get(name) ?? []), value]);
    } else throw new HciError('usage', `unknown option ${a}`, USAGE);
  }
  return { positional, flags };
}

function positiveInt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new HciError('usage', `--${name} expects a positive integer`, USAGE);
  return n;
}

const list = (p: Parsed, name: string) => (p.flags.get(name) ?? []).flatMap((v) => v.split(',')).filter(Boolean);
const one = (p: Parsed, name: string) => p.flags.get(name)?.at(-1);

function rootOf(p: Parsed): string {
  const r = one(p, 'root');
  if (r) return absolutePath(r);
  const cwd = deno().cwd();
  return findIndexedRoot(cwd) ?? cwd;
}

function formatSkipped(s: SkipCounts): string {
  const parts = Object.entries(s).filter(([, n]) => (n ?? 0) > 0).map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`);
  return parts.length ? parts.join(', ') : 'none';
}

function formatSearch(r: SearchResponse): string {
  const lines: string[] = [];
  for (const h of r.hits) {
    const sym = h.symbol ? `  ${h.symbol.kind} ${h.symbol.name}` : '';
    lines.push(`${String(h.rank).padStart(2)}  ${h.path}:${h.start_line}-${h.end_line}  ${h.lang} · ${h.score.toFixed(2)} · ${h.hit_id}${sym}`);
    for (const l of h.snippet.split('\n')) if (l) lines.push(`      ${l}`);
  }
  const idx = r.index ? ` · index gen ${r.index.generation}, ${r.index.files} files` : '';
  lines.push(`${r.hits.length} hit${r.hits.length === 1 ? '' : 's'} (${r.status}, match ${r.match}) · ${r.took_ms} ms${idx} · skipped: ${formatSkipped(r.skipped)}${r.next_cursor ? ` · more: --cursor ${r.next_cursor}` : ''}`);
  if (r.hint) lines.push(`hint: ${r.hint}`);
  return lines.join('\n');
}

/** Extra advice when a lock holder could not be checked (Deno without --allow-run). */
function lockAdvice(): string | null {
  const [lockPath, owner] = [...uncheckedHolders.entries()][0] ?? [];
  if (!lockPath || !owner) return null;
  return `Deno cannot tell whether pid ${owner.pid} (which holds ${lockPath}) is still running without --allow-run: if it is not, run once with --allow-run (or run hci under Node) so the stale lock is cleared, or delete that file`;
}

function fail(e: unknown, json: boolean): number {
  const e2 = e instanceof HciError ? e : new HciError('internal', (e as Error)?.message ?? String(e));
  const advice = e2.code === 'index_busy' ? lockAdvice() : null;
  const hint = [e2.hint, advice].filter(Boolean).join('; ') || undefined;
  if (json) printJson({ status: 'error', error: { code: e2.code, message: e2.message }, hint });
  else err(`hci: ${e2.message}${hint ? `\nhint: ${hint}` : ''}`);
  return exitCodeFor(e2.code);
}

async function cmdIndex(p: Parsed): Promise<number> {
  const json = p.flags.has('json');
  const abort = new AbortController();
  try {
    deno().addSignalListener('SIGINT', () => abort.abort());
  } catch {
    // signals unavailable (e.g. Windows without SIGINT listeners): Ctrl-C just ends the process
  }
  const tty = !json && !p.flags.has('quiet') && deno().stderr.isTerminal();
  const progress = (pr: IndexProgress) => {
    if (tty && pr.phase === 'index') deno().stderr.writeSync(enc.encode(`\rindexing ${pr.filesDone}/${pr.filesTotal} files · ${pr.chunks} chunks`));
  };
  const root = absolutePath(p.positional[0] ?? '.');
  // --path: only these files or folders (absolute ones inside the root become relative; the core refuses the rest).
  const paths = p.flags.has('path')
    ? list(p, 'path').map((x) => workspacePathArg(root, x))
    : undefined;
  if (paths && p.flags.has('full')) throw new HciError('usage', '--full and --path do not go together', '--full rebuilds every file; --path updates only the files given');
  const ws = await openWorkspace(root);
  try {
    const s = await ws.index({ full: p.flags.has('full'), paths, signal: abort.signal, onProgress: progress });
    if (tty) deno().stderr.writeSync(enc.encode('\r\x1b[K'));
    if (json) printJson({ status: 'ok', ...s });
    else {
      out(`indexed ${s.files_indexed} files (${s.chunks_written} chunks), ${s.files_unchanged} unchanged, ${s.files_removed} removed in ${(s.took_ms / 1000).toFixed(2)} s · generation ${s.generation}`);
      out(`scanned ${s.files_scanned} files · skipped: ${formatSkipped(s.skipped)}`);
    }
    return EXIT.ok;
  } finally {
    ws.close();
  }
}

async function cmdSearch(p: Parsed): Promise<number> {
  if (p.positional.length === 0) throw new HciError('usage', 'search needs a query', USAGE);
  const ws = await openWorkspace(rootOf(p), { persistQueries: true });
  try {
    const req: SearchRequest = {
      query: p.positional.join(' '), limit: positiveInt(one(p, 'k'), 'k') ?? 8, paths: list(p, 'path'), exts: list(p, 'ext'),
      exclude_paths: list(p, 'exclude'), max_tokens: positiveInt(one(p, 'max-tokens'), 'max-tokens'), cursor: one(p, 'cursor'),
    };
    const r = await ws.search(req);
    if (r.error?.code === 'index_busy') {
      const advice = lockAdvice();
      if (advice) r.hint = `${r.hint ?? ''}${r.hint ? '; ' : ''}${advice}`;
    }
    if (p.flags.has('json')) printJson(r);
    else if (r.status === 'error' || r.status === 'no_index') err(`hci: ${r.error?.message ?? r.status}${r.hint ? `\nhint: ${r.hint}` : ''}`);
    else out(formatSearch(r));
    return r.error ? exitCodeFor(r.error.code) : r.hits.length === 0 ? EXIT.empty : EXIT.ok;
  } finally {
    ws.close();
  }
}

async function cmdStatus(p: Parsed): Promise<number> {
  const ws = await openWorkspace(rootOf(p));
  try {
    const s = await ws.status({ checkPending: !p.flags.has('no-pending') });
    if (p.flags.has('json')) printJson(s);
    else if (s.error) err(`hci: ${s.error.message}${s.hint ? `\nhint: ${s.hint}` : ''}`);
    else {
      out(`index: ${s.index?.location} · generation ${s.index?.generation} · ${s.index?.files} files, ${s.index?.chunks} chunks · ${s.index?.build_state} · built ${s.index?.indexed_at}`);
      out(`engine: ${s.engine} · format ${s.format_version} · skipped: ${formatSkipped(s.skipped)}`);
      if (s.pending) out(`changed since: ${s.pending.added} added, ${s.pending.modified} modified, ${s.pending.deleted} deleted`);
      if (s.hint) out(`hint: ${s.hint}`);
    }
    return exitCodeFor(s.error?.code);
  } finally {
    ws.close();
  }
}

async function cmdExplain(p: Parsed): Promise<number> {
  const id = p.positional[0];
  if (!id) throw new HciError('usage', 'explain needs a hit id', USAGE);
  const ws = await openWorkspace(rootOf(p), { persistQueries: true });
  try {
    const query = one(p, 'query');
    const r = await ws.explain(id, query === undefined ? {} : { query });
    if (p.flags.has('json') || r.status === 'ok') printJson(p.flags.has('json') ? r : r.explanation);
    else err(`hci: ${r.error?.message}${r.hint ? `\nhint: ${r.hint}` : ''}`);
    return exitCodeFor(r.error?.code);
  } finally {
    ws.close();
  }
}

async function cmdOutline(p: Parsed): Promise<number> {
  const file = p.positional[0];
  if (!file) throw new HciError('usage', 'outline needs a workspace-relative path', USAGE);
  const ws = await openWorkspace(rootOf(p));
  try {
    const r = await ws.outline(file);
    if (p.flags.has('json')) printJson(r);
    else if (r.status === 'ok') {
      const walk = (syms: OutlineSymbol[], depth: number): void => {
        for (const s of syms) {
          out(`${'  '.repeat(depth)}${s.kind} ${s.name}  ${s.start_line}-${s.end_line}`);
          walk(s.children ?? [], depth + 1);
        }
      };
      walk(r.symbols, 0);
      if (r.hint) out(`hint: ${r.hint}`);
    }
    else err(`hci: ${r.error?.message}${r.hint ? `\nhint: ${r.hint}` : ''}`);
    return exitCodeFor(r.error?.code);
  } finally {
    ws.close();
  }
}

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  let parsed: Parsed | null = null;
  try {
    parsed = parseArgs(rest);
    if (!command || command === 'help' || command === '--help' || parsed.flags.has('help')) {
      out(USAGE);
      return command ? EXIT.ok : EXIT.usage;
    }
    switch (command) {
      case 'index':
        return await cmdIndex(parsed);
      case 'search':
        return await cmdSearch(parsed);
      case 'status':
        return await cmdStatus(parsed);
      case 'explain':
        return await cmdExplain(parsed);
      case 'outline':
        return await cmdOutline(parsed);
      default:
        throw new HciError('usage', `unknown command "${command}"`, USAGE);
    }
  } catch (e) {
    return fail(e, parsed?.flags.has('json') ?? args.includes('--json'));
  }
}

if ((import.meta as ImportMeta & { main?: boolean }).main) deno().exit(await main(deno().args));
