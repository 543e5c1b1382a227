// `hci` under Deno: the Deno side of the shared command table (runtimes/cli/) — the same verbs,
// options, help, output and exit codes as the Node CLI, with Deno's streams, signals, permissions and
// adapters. Narrowest permissions that work (docs/runtimes.md, "Deno, the browser and a Vite app"):
//
//   deno run --no-prompt --allow-read=<workspace>,<hci folder>/node_modules \
//     --allow-write=<workspace>/.hci --allow-sys=hostname <hci folder>/runtimes/deno/cli.ts index <workspace>
//
// Add --allow-run only if Deno should clear lock files left by crashed processes itself. Owns only
// this wiring.
import * as path from 'node:path';
import type { IndexProgress } from '../../core/index/indexer.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { runCli } from '../cli/program.ts';
import { formatProgress, tickClock, type ProgressClock } from '../cli/format.ts';
import type { CliRuntime, ProgressDisplay } from '../cli/runtime.ts';
import { deno, granted, isPermissionError } from './deno-api.ts';
import { HciError } from '../../core/platform.ts';
import { uncheckedHolders } from './dot-lock.ts';
import { absolutePath } from './deno-storage.ts';
import { findIndexedRoot } from './workspace.ts';
import { denoServiceHost } from './service-host.ts';
import { denoPackTarget } from './pack-target.ts';
export { EXIT };

const enc = new TextEncoder();

function writeAll(out: { writeSync(p: Uint8Array): number }, text: string): void {
  const bytes = enc.encode(text);
  for (let off = 0; off < bytes.length; ) off += out.writeSync(bytes.subarray(off));
}

/** Extra advice when a lock holder could not be checked (Deno without --allow-run). */
function lockAdvice(code: string): string | null {
  if (code !== 'index_busy') return null;
  const [lockPath, owner] = [...uncheckedHolders.entries()][0] ?? [];
  if (!lockPath || !owner) return null;
  return `Deno cannot tell whether pid ${owner.pid} (which holds ${lockPath}) is still running without --allow-run: if it is not, run once with --allow-run (or run hci under Node) so the stale lock is cleared, or delete that file`;
}

function statOf(p: string): { isFile: boolean; isDirectory: boolean } | null {
  try {
    return deno().statSync(p);
  } catch {
    return null;
  }
}

/** Whether `p` is a folder; a refused read is `permission_needed` naming the flag (not "not found"). */
function isDirectory(p: string): boolean {
  try {
    return deno().statSync(p).isDirectory;
  } catch (e) {
    if (isPermissionError(e)) {
      throw new HciError('permission_needed', `hci under Deno may not read the workspace ${p}`, `add --allow-read=${p},<hci folder>/node_modules (and --allow-write=${p}/.hci to index)`);
    }
    return false;
  }
}

/** A one-line display on stderr, redrawn on each report: formatProgress, as the Node bar shows it. */
function progressLine(): ProgressDisplay {
  let clock: ProgressClock | null = null;
  return {
    update(p: IndexProgress) {
      const now = Date.now();
      clock = tickClock(clock, p, now);
      writeAll(deno().stderr, `\r${formatProgress(p, clock, now)}\x1b[K`);
    },
    stop: () => clock !== null && writeAll(deno().stderr, '\r\x1b[K'),
  };
}

function onInterrupt(fn: () => void): () => void {
  const signals = ['SIGINT', 'SIGTERM'];
  const added = signals.filter((s) => {
    try {
      deno().addSignalListener(s, fn);
      return true;
    } catch {
      return false; // signals unavailable (e.g. Windows without SIGTERM): Ctrl-C just ends the process
    }
  });
  return () => {
    for (const s of added) deno().removeSignalListener(s, fn);
  };
}

export const denoCliRuntime: CliRuntime = {
  name: 'Deno',
  write: (stream, text) => writeAll(stream === 'out' ? deno().stdout : deno().stderr, text),
  columns: () => undefined,
  color: deno().stdout.isTerminal() && !deno().noColor,
  stderrIsTerminal: deno().stderr.isTerminal(),
  cwd: () => deno().cwd(),
  // Only variables granted with --allow-env=NAME are read: never a permission prompt.
  env: (name) => (granted({ name: 'env', variable: name }) ? deno().env.get(name) || undefined : undefined),
  resolve: (...segments) => absolutePath(segments.reduce((acc, s) => (path.isAbsolute(s) ? s : acc ? path.join(acc, s) : s), '')),
  dirname: (p) => path.dirname(p),
  isDirectory,
  isFile: (p) => statOf(p)?.isFile === true,
  findIndexedRoot,
  serviceHost: denoServiceHost,
  onInterrupt,
  progress: progressLine,
  advice: lockAdvice,
  missingRootHint: 'pass an existing folder and grant --allow-read on it',
  packTarget: denoPackTarget,
  mcp: async () => (await import('./mcp-server.ts')).denoMcpRuntime(onInterrupt),
};

export function main(args: string[]): Promise<number> {
  return runCli(args, denoCliRuntime);
}

if ((import.meta as ImportMeta & { main?: boolean }).main) deno().exit(await main(deno().args));
