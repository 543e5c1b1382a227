// Runs hci under Deno from the tests: the `deno` binary of the devDependency, the narrowest
// permissions the README documents (read the workspace and hci's node_modules, write only the
// workspace's .hci/, the host name), and the Deno CLI (runtimes/deno/cli.ts) or a helper script.
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { SearchRequest, SearchResponse } from '../../core/search/contract.ts';
import type { IndexSummary } from '../../core/index/indexer.ts';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const DENO_CLI = path.join(REPO, 'runtimes/deno/cli.ts');

/** The documented permission flags for one workspace (plus extras such as --allow-run). */
export function denoFlags(workspace: string, extra: string[] = []): string[] {
  return ['--no-prompt', `--allow-read=${workspace},${path.join(REPO, 'node_modules')}`, `--allow-write=${path.join(workspace, '.hci')}`, '--allow-sys=hostname', ...extra];
}

export interface DenoResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON when it is JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface DenoProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves with the first stdout line. */
  firstLine: Promise<string>;
  exited: Promise<DenoResult>;
}

export function startDeno(deno: string, flags: string[], script: string, args: string[], cwd = REPO): DenoProcess {
  const child = spawn(deno, ['run', ...flags, script, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  let resolveLine: (l: string) => void;
  const firstLine = new Promise<string>((r) => (resolveLine = r));
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    const nl = stdout.indexOf('\n');
    if (nl >= 0) resolveLine(stdout.slice(0, nl));
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<DenoResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      let json: unknown = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        // not JSON
      }
      resolveLine(stdout);
      resolve({ code, signal, stdout, stderr, json });
    });
  });
  return { child, pid: child.pid!, firstLine, exited };
}

/** Runs the Deno CLI with the documented permissions for `workspace` (plus `extra` flags). */
export function runDenoCli(deno: string, workspace: string, args: string[], extra: string[] = []): Promise<DenoResult> {
  return startDeno(deno, denoFlags(workspace, extra), DENO_CLI, args).exited;
}

export interface DenoSessionResult {
  open_ms: number;
  summary: IndexSummary | null;
  index_ms: number | null;
  answers: SearchResponse[];
  times: number[];
}

/** Runs test/helpers/deno-session.ts (one Deno process: optional index, then many searches). */
export async function denoSession(
  deno: string,
  cfg: { root: string; index?: 'before' | 'after'; full?: boolean; queries: SearchRequest[]; repeats?: number },
): Promise<DenoSessionResult & { wall_ms: number }> {
  const t0 = Date.now();
  const r = await startDeno(deno, denoFlags(cfg.root), path.join(REPO, 'test/helpers/deno-session.ts'), [JSON.stringify(cfg)]).exited;
  if (r.code !== 0 || !r.json) throw new Error(`deno-session failed (${r.code}): ${r.stderr}`);
  return { ...(r.json as DenoSessionResult), wall_ms: Date.now() - t0 };
}
