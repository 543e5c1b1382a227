// What a verb of the command table is (commands.ts, intercom-command.ts, mcp-command.ts), how a
// one-shot verb asks the service and prints its answer, and how any command reports a failure: one
// line and a hint on stderr, or the error JSON, and the exit code from the contract's error table.
// Owns these shapes and that wording.
import type { Option } from 'commander';
import { asHciError } from '../../core/platform.ts';
import { EXIT, exitCodeFor } from '../../core/contract/errors.ts';
import type { FailureAnswer } from '../../core/contract/common.ts';
import type { HciService } from '../../core/service/index.ts';
import type { OpenOptions } from '../../core/workspace.ts';
import type { CliRuntime } from './runtime.ts';
import type { Style } from './format.ts';

/** What every verb's run gets. */
export interface CommandContext {
  rt: CliRuntime;
  style: Style;
}

export interface CommandRow {
  name: string;
  description: string;
  /** Positional arguments in commander's syntax (`<query...>`, `[root]`) with their help. */
  args: Array<[string, string]>;
  options(): Option[];
  helpAfter?: string;
  /** The row exists only where the runtime offers this. */
  needs?: 'demo';
  /** Rewrites the verb's arguments before they are parsed (search: query filters that look like options). */
  rewriteArgs?(args: string[]): string[];
  /** A group verb (`hci intercom find …`): its own rows; the group itself has no run. */
  subcommands?: CommandRow[];
  /** Returns the exit code. */
  run?(c: CommandContext, args: Array<string | string[] | undefined>, opts: Record<string, unknown>): Promise<number>;
}

// ── failures ───────────────────────────────────────────────────────────────────────────────────

export function printJson(c: CommandContext, x: unknown): void {
  c.rt.write('out', `${JSON.stringify(x, null, 2)}\n`);
}

/** The hint with whatever the runtime adds for this error code. */
export function withAdvice(c: CommandContext, code: string | undefined, hint: string | undefined): string | undefined {
  const advice = code ? c.rt.advice?.(code) : null;
  return [hint, advice].filter(Boolean).join('; ') || undefined;
}

/** A failure before or instead of an answer: one line and a hint (or the error JSON); its exit code. */
export function fail(c: CommandContext, e: unknown, json: boolean): number {
  const err = asHciError(e);
  const hint = withAdvice(c, err.code, err.hint);
  const answer: FailureAnswer = { status: 'error', error: { code: err.code, message: err.message }, ...(hint ? { hint } : {}) };
  if (json) printJson(c, answer);
  else c.rt.write('err', `hci: ${err.message}${hint ? `\nhint: ${hint}` : ''}\n`);
  return exitCodeFor(err.code);
}

// ── how a one-shot command answers ─────────────────────────────────────────────────────────────

/** The service for one command (loaded here, when a verb runs: see commands.ts on what loads when). */
export async function oneShot(c: CommandContext, root: string, open: OpenOptions = {}): Promise<HciService> {
  const { HciService } = await import('../../core/service/index.ts');
  return new HciService({ root, host: c.rt.serviceHost(open), surface: 'cli', watch: 'off' });
}

/**
 * Asks the service one question and prints the answer: JSON (the contract) or the human rendering
 * (to stderr when the answer is an error). Every failure, a workspace that cannot be opened (a
 * missing root, bad settings) included, is the verb's own answer with its error. Returns the exit code.
 */
export async function answer<R extends { error?: { code: string }; hint?: string }>(
  c: CommandContext,
  root: string,
  opts: { open?: OpenOptions; json: boolean },
  ask: (svc: HciService) => Promise<R>,
  human: (r: R, style: Style) => string,
  exitOf: (r: R) => number = (r) => exitCodeFor(r.error?.code),
): Promise<number> {
  c.rt.shortRun?.();
  const svc = await oneShot(c, root, opts.open);
  try {
    const r = await ask(svc);
    if (r.error) {
      const hint = withAdvice(c, r.error.code, r.hint);
      if (hint !== undefined) r.hint = hint;
    }
    if (opts.json) printJson(c, r);
    else c.rt.write(r.error ? 'err' : 'out', `${human(r, c.style)}\n`);
    return exitOf(r);
  } catch (e) {
    return fail(c, e, opts.json);
  } finally {
    await svc.close();
  }
}

/** --root if given, else the nearest indexed folder at or above `from` (the cwd), else the cwd. */
export function rootFor(c: CommandContext, root: unknown, from = c.rt.cwd()): string {
  if (typeof root === 'string') return c.rt.resolve(root);
  return c.rt.findIndexedRoot(from) ?? c.rt.cwd();
}

/**
 * A file argument as a command line means it: relative to the current folder when it names a file
 * there inside `root` (then given as that absolute path), else as typed — workspace-relative, the
 * contract's reading (`hci outline src/App.cs --root ~/repo` from anywhere).
 */
export function fileArg(c: CommandContext, root: string, p: string): string {
  const abs = c.rt.resolve(p);
  const inside = abs.length > root.length && abs.startsWith(root) && /[\\/]/.test(abs[root.length]);
  return inside && c.rt.isFile(abs) ? abs : p;
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
export const withEmpty = <R extends { error?: { code: string } }>(count: (r: R) => number) => (r: R) =>
  r.error ? exitCodeFor(r.error.code) : count(r) === 0 ? EXIT.empty : EXIT.ok;
