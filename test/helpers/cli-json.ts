// Test helper for the CLI contract suites: runs `hci <args>` as a child process under Node
// (bin/hci.js) or Deno (runtimes/deno/cli.ts with the documented narrow permissions, plus extras),
// parses its stdout as JSON, and checks an answer against its contract schema with nothing undeclared.
import { spawnSync } from 'node:child_process';
import { expect } from 'vitest';
import type { z } from 'zod';
import { HCI_BIN, REPO } from './mcp-harness.ts';
import { denoFlags, DENO_CLI } from './deno.ts';
import { denoBinary } from './runtimes.ts';

export type CliRuntimeName = 'node' | 'deno';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `hci <args>` under `runtime`, in `cwd` (default: the repository); `denoExtra`: more Deno permission flags. */
export function runHci(runtime: CliRuntimeName, root: string, args: string[], opts: { cwd?: string; denoExtra?: string[] } = {}): CliRun {
  const [command, argv] = runtime === 'node'
    ? [process.execPath, [HCI_BIN, ...args]]
    : [denoBinary()!, ['run', ...denoFlags(root, opts.denoExtra), DENO_CLI, ...args]];
  const r = spawnSync(command, argv, { cwd: opts.cwd ?? REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** runHci, with stdout parsed as JSON (throws, showing the output, when it is not JSON). */
export function cliJson(runtime: CliRuntimeName, root: string, args: string[], opts: { cwd?: string; denoExtra?: string[] } = {}): CliRun & { json: Record<string, any> } { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = runHci(runtime, root, args, opts);
  try {
    return { ...r, json: JSON.parse(r.stdout) };
  } catch {
    throw new Error(`hci ${args.join(' ')} (${runtime}) printed no JSON (exit ${r.code}): ${r.stdout}${r.stderr}`);
  }
}

/** The answer fits its schema, and parsing (which drops undeclared fields) loses nothing. */
export function expectContract(schema: z.ZodType, json: unknown, what: string): void {
  const parsed = schema.safeParse(json);
  expect(parsed.success, `${what}: ${parsed.error?.message}`).toBe(true);
  expect(parsed.data, `${what}: a field the contract does not declare`).toEqual(json);
}

/** Node, and Deno when its binary is there. */
export const CLI_RUNTIMES: CliRuntimeName[] = denoBinary() ? ['node', 'deno'] : ['node'];
