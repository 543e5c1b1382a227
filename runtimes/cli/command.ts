// What a verb of the command table is (commands.ts, mcp-command.ts) and how any command reports a
// failure: one line and a hint on stderr, or the error JSON, and the exit code from the contract's
// error table. Owns these shapes and that wording.
import type { Option } from 'commander';
import { HciError } from '../../core/platform.ts';
import { exitCodeFor } from '../../core/contract/errors.ts';
import type { FailureAnswer } from '../../core/contract/common.ts';
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
  /** Returns the exit code. */
  run(c: CommandContext, args: Array<string | string[] | undefined>, opts: Record<string, unknown>): Promise<number>;
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
  const err = e instanceof HciError ? e : new HciError('internal', (e as Error)?.message ?? String(e));
  const hint = withAdvice(c, err.code, err.hint);
  const answer: FailureAnswer = { status: 'error', error: { code: err.code, message: err.message }, hint };
  if (json) printJson(c, answer);
  else c.rt.write('err', `hci: ${err.message}${hint ? `\nhint: ${hint}` : ''}\n`);
  return exitCodeFor(err.code);
}

