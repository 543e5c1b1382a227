// What a row of the command table is (commands.ts, intercom-command.ts, mcp-command.ts) and the two
// ways to write one: `command` (a command with its own run: index, demo, mcp) and `verbCommand` (the
// presentation of a verb of the verb table, core/service/verbs.ts: its arguments and options, the
// request they make, the human format; the call, the JSON and the exit code are derived). Both read
// commander's values through typed argument and option specs (options.ts), so a row casts nothing.
// Also how a one-shot verb asks the service and prints its answer, and how any command reports a
// failure: one line and a hint on stderr, or the error JSON, and the exit code from the contract's
// error table. Owns these shapes and that wording.
import type { Option } from 'commander';
import { asHciError } from '../../core/platform.ts';
import { EXIT, exitCodeFor } from '../../core/contract/errors.ts';
import type { FailureAnswer } from '../../core/contract/common.ts';
import type { Federation, HciService, VerbInput, VerbName, VerbOutput } from '../../core/service/index.ts';
import type { OpenOptions } from '../../core/workspace.ts';
import type { CliRuntime } from './runtime.ts';
import type { Style } from './format.ts';
import { isIndexUrl, type Arg, type ArgValues, type Opt, type OptValues } from './options.ts';

/** What every verb's run gets. */
export interface CommandContext {
  rt: CliRuntime;
  style: Style;
}

export interface CommandRow {
  name: string;
  /** Other names the command answers to (resolve: def); the help shows them beside its name. */
  aliases?: string[];
  description: string;
  /** Positional arguments in commander's syntax (`<query...>`, `[root]`) with their help. */
  args: Array<[string, string]>;
  options(): Option[];
  helpAfter?: string;
  /** The row exists only where the runtime offers this. */
  needs?: 'demo' | 'setup';
  /** Rewrites the verb's arguments before they are parsed (search: query filters that look like options). */
  rewriteArgs?(args: string[]): string[];
  /** A group verb (`hci intercom find …`): its own rows; the group itself has no run. */
  subcommands?: CommandRow[];
  /** Returns the exit code; `args` and `opts` as commander parsed them (the builders below read them typed). */
  run?(c: CommandContext, args: unknown[], opts: Record<string, unknown>): Promise<number>;
}

/** What both builders take: the row's text and its typed arguments and options. */
interface RowSpec<A extends readonly Arg<unknown>[], O extends Record<string, Opt<unknown>>> {
  name: string;
  aliases?: string[];
  description: string;
  args: A;
  options: O;
  helpAfter?: string;
  needs?: 'demo' | 'setup';
  rewriteArgs?(args: string[]): string[];
}

function rowOf<A extends readonly Arg<unknown>[], O extends Record<string, Opt<unknown>>>(
  spec: RowSpec<A, O>,
  run: (c: CommandContext, args: ArgValues<A>, o: OptValues<O>) => Promise<number>,
): CommandRow {
  return {
    name: spec.name,
    aliases: spec.aliases,
    description: spec.description,
    args: spec.args.map((a) => [a.syntax, a.help]),
    options: () => Object.values(spec.options).map((o) => o.make()),
    helpAfter: spec.helpAfter,
    needs: spec.needs,
    rewriteArgs: spec.rewriteArgs,
    run: (c, args, opts) => run(c, readArgs(spec.args, args), readOpts(spec.options, opts)),
  };
}

/** The positional values, each read by its spec. */
function readArgs<A extends readonly Arg<unknown>[]>(specs: A, values: unknown[]): ArgValues<A> {
  return specs.map((a, i) => a.read(values[i])) as ArgValues<A>;
}

/** The option values, each read by its spec under commander's attribute name (`--max-tokens` → maxTokens). */
function readOpts<O extends Record<string, Opt<unknown>>>(specs: O, values: Record<string, unknown>): OptValues<O> {
  return Object.fromEntries(Object.entries(specs).map(([k, o]) => [k, o.read(values[o.make().attributeName()])])) as OptValues<O>;
}

/** A command with its own run (index, demo, mcp). */
export function command<const A extends readonly Arg<unknown>[], O extends Record<string, Opt<unknown>>>(
  spec: RowSpec<A, O> & { run(c: CommandContext, args: ArgValues<A>, o: OptValues<O>): Promise<number> },
): CommandRow {
  return rowOf(spec, (c, a, o) => spec.run(c, a, o));
}

/** What a verb's row makes of the command line: where the workspace is, and the verb's request. */
export interface VerbAsk<V extends VerbName> {
  root: string;
  /** Several workspaces or published indexes asked as one (a Federation: search over several repositories). */
  roots?: string[];
  req: VerbInput<V>;
}

/**
 * A verb of the verb table on the command line: the row says how its arguments make the request and
 * how a person reads the answer; the call (one-shot service), `--json` (the contract answer) and the
 * exit code (the error table's; `exit` for an answer without an error) are derived.
 */
export function verbCommand<V extends VerbName, const A extends readonly Arg<unknown>[], O extends Record<string, Opt<unknown>> & { json: Opt<boolean> }>(
  spec: RowSpec<A, O> & {
    verb: V;
    /** Recent queries kept beside the index (search → explain in a later process). */
    open?: OpenOptions;
    /** The request names a file as the command line read it (fileArg): a refusal's hint says how (cliPathHint). */
    fileHint?: boolean;
    /** May load what reading the arguments needs (asynchronous for that). */
    ask(c: CommandContext, args: ArgValues<A>, o: OptValues<O>): VerbAsk<V> | Promise<VerbAsk<V>>;
    format(r: VerbOutput<V>, style: Style): string;
    /**
     * An output the options ask for instead of `format` for an answer without an error (search's
     * grep shapes, --quiet, --no-footer); it may read more through the service (file lines, pages).
     */
    render?(o: OptValues<O>, req: VerbInput<V>): ((r: VerbOutput<V>, svc: HciService, style: Style) => Promise<Shown>) | null;
    /** The exit code of an answer without an error (default ok): withEmpty for answers that may be empty. */
    exit?(r: VerbOutput<V>): number;
  },
): CommandRow {
  return rowOf(spec, async (c, a, o) => {
    const { root, roots, req } = await spec.ask(c, a, o);
    const exitOf = (r: VerbOutput<V>) => (r.error ? exitCodeFor(r.error.code) : spec.exit ? spec.exit(r) : EXIT.ok);
    const json = o.json === true;
    if (roots && roots.length > 1) {
      return answer(c, () => federated(c, roots, spec.open), json, (svc) => svc.call(spec.verb, req), (r, style) => spec.format(r, style), exitOf);
    }
    const hint = spec.fileHint ? cliPathHint<VerbOutput<V>>(root) : (r: VerbOutput<V>) => r;
    const render = spec.render?.(o, req) ?? null;
    const human = (r: VerbOutput<V>, style: Style, svc: HciService) => (render && !r.error ? render(r, svc, style) : spec.format(r, style));
    return answer(c, () => oneShot(c, root, spec.open), json, (svc) => svc.call(spec.verb, req).then(hint), human, exitOf);
  });
}

/** What a command shows: its text (stdout, or stderr for an error), and a note for stderr. */
export type Shown = string | { out: string; note?: string };

// ── failures ───────────────────────────────────────────────────────────────────────────────────

export function printJson(c: CommandContext, x: unknown): void {
  c.rt.write('out', `${JSON.stringify(x, null, 2)}\n`);
}

/** The hint with whatever the runtime adds for this error code. */
export function withAdvice(c: CommandContext, code: string | undefined, hint: string | undefined): string | undefined {
  const advice = code ? c.rt.advice?.(code) : null;
  return [hint, advice].filter(Boolean).join('; ') || undefined;
}

/** The contract's failure answer that is no verb's (a usage error; a failure before a verb ran). */
export function failureOf(code: FailureAnswer['error']['code'], message: string, hint: string | undefined): FailureAnswer {
  return { status: 'error', error: { code, message }, ...(hint ? { hint } : {}) };
}

/** A failure before or instead of an answer: one line and a hint (or the error JSON); its exit code. */
export function fail(c: CommandContext, e: unknown, json: boolean): number {
  const err = asHciError(e);
  const hint = withAdvice(c, err.code, err.hint);
  if (json) printJson(c, failureOf(err.code, err.message, hint));
  else c.rt.write('err', `hci: ${err.message}${hint ? `\nhint: ${hint}` : ''}\n`);
  return exitCodeFor(err.code);
}

// ── how a one-shot command answers ─────────────────────────────────────────────────────────────

/** The service for one command (loaded here, when a verb runs: see commands.ts on what loads when). */
export async function oneShot(c: CommandContext, root: string, open: OpenOptions = {}): Promise<HciService> {
  const { HciService } = await import('../../core/service/index.ts');
  return new HciService({ root, host: c.rt.serviceHost(open), surface: 'cli', watch: 'off' });
}

/** One service over several workspaces or published indexes (`--root A --root B`), each named by its folder or file. */
export async function federated(c: CommandContext, roots: readonly string[], open: OpenOptions = {}): Promise<Federation> {
  const { Federation, HciService, repoNames } = await import('../../core/service/index.ts');
  const names = repoNames(roots);
  return new Federation(roots.map((root, i) => ({ repo: names[i], service: new HciService({ root, host: c.rt.serviceHost(open), surface: 'cli', watch: 'off' }) })));
}

/**
 * Asks the service one question and prints the answer: JSON (the contract) or the human rendering
 * (to stderr when the answer is an error). Every failure, a workspace that cannot be opened (a
 * missing root, bad settings) included, is the verb's own answer with its error. Returns the exit code.
 */
export async function answer<R extends { error?: { code: string }; hint?: string }, S extends { close(): Promise<void> }>(
  c: CommandContext,
  connect: () => Promise<S>,
  json: boolean,
  ask: (svc: S) => Promise<R>,
  human: (r: R, style: Style, svc: S) => Shown | Promise<Shown>,
  exitOf: (r: R) => number = (r) => exitCodeFor(r.error?.code),
): Promise<number> {
  c.rt.shortRun?.();
  const opts = { json };
  const svc = await connect();
  try {
    const r = await ask(svc);
    if (r.error) {
      const hint = withAdvice(c, r.error.code, r.hint);
      if (hint !== undefined) r.hint = hint;
    }
    if (opts.json) printJson(c, r);
    else {
      const shown = await human(r, c.style, svc);
      const { out, note } = typeof shown === 'string' ? { out: shown, note: undefined } : shown;
      if (out) c.rt.write(r.error ? 'err' : 'out', `${out}\n`);
      if (note) c.rt.write('err', `${note}\n`);
    }
    return exitOf(r);
  } catch (e) {
    return fail(c, e, opts.json);
  } finally {
    await svc.close();
  }
}

/**
 * --index (a published index's URL: options.ts indexOption, which commander checks and keeps apart
 * from --root) or --root if given, else the nearest indexed folder at or above `from` (the cwd), else
 * the cwd.
 */
export function rootFor(c: CommandContext, root: unknown, from = c.rt.cwd(), index?: string): string {
  if (index !== undefined) return index;
  if (typeof root === 'string') return isIndexUrl(root) ? root : c.rt.resolve(root);
  return c.rt.findIndexedRoot(from) ?? c.rt.cwd();
}

/**
 * A file argument as a command line means it: relative to the current folder when it names a file
 * there inside `root` (then given as that absolute path), else as typed — workspace-relative, the
 * contract's reading (`hci outline src/App.cs --root ~/repo` from anywhere).
 */
export function fileArg(c: CommandContext, root: string, p: string): string {
  const abs = c.rt.resolve(p);
  return inside(root, abs) && c.rt.isFile(abs) ? abs : p;
}

/** A folder argument as fileArg reads a file's: a folder there inside `root` (or the root itself) as its absolute path, else as typed. */
export function folderArg(c: CommandContext, root: string, p: string): string {
  const abs = c.rt.resolve(p);
  return (abs === root || inside(root, abs)) && c.rt.isDirectory(abs) ? abs : p;
}

function inside(root: string, abs: string): boolean {
  return abs.length > root.length && abs.startsWith(root) && /[\\/]/.test(abs[root.length]);
}

/** The hint of a path refusal, as the command line reads paths (fileArg). */
export function cliPathHint<R extends { error?: { code: string }; hint?: string }>(root: string): (r: R) => R {
  return (r) => {
    if (r.error?.code === 'path_outside_workspace') {
      r.hint = `pass a file inside the workspace ${root}: a path relative to the current folder or to the workspace root, or an absolute path`;
    }
    return r;
  };
}

/** The exit code of an answer that may be empty: 1 when `count` is 0, like a search that found nothing. */
export const withEmpty = <R,>(count: (r: R) => number) => (r: R) => (count(r) === 0 ? EXIT.empty : EXIT.ok);
