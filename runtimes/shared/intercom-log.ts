// What Node's and Deno's intercom log adapters share: which paths may name a log (a .ndjson or
// .jsonl file, optionally only below given roots — by the path as given and by its real path, so a
// symlink inside a root cannot lead outside), waiting for the append lock, and the bytes one append
// writes. Imports no node:* module and touches no Deno global; file calls (realpath among them) stay
// in each adapter (runtimes/node/intercom-log.ts, runtimes/deno/intercom-log.ts).
import { HciError } from '../../core/platform.ts';

export interface LogOpenerOptions {
  /** Relative log paths are taken from here (default: the current folder). */
  base?: string;
  /** When set, only logs at or below these folders may be opened (an MCP server passes the workspace). */
  roots?: string[];
  /** How long an append waits for another appender's lock (default 5 s). */
  lockTimeoutMs?: number;
}

export const DEFAULT_APPEND_LOCK_MS = 5000;
const LOG_EXTENSIONS = ['.ndjson', '.jsonl'];

/** `resolved` (the absolute path of `location`) when it may be a log here, else HciError `invalid_log_path` (not a log file) or `path_outside_workspace` (not below `roots`). */
export function checkLogPath(location: string, resolved: string, roots: string[] | undefined, sep: string): string {
  if (!LOG_EXTENSIONS.some((e) => resolved.toLowerCase().endsWith(e))) {
    throw new HciError('invalid_log_path', `${location}: an intercom log is a .ndjson or .jsonl file`, 'pass the path of the events.ndjson log of the conversation');
  }
  if (roots && !roots.some((r) => resolved === r || resolved.startsWith(r.endsWith(sep) ? r : r + sep))) {
    // The same refusal as any path argument that leaves the workspace (an MCP server passes its root).
    throw new HciError('path_outside_workspace', `log "${location}" is outside ${roots.join(' and ')}, where this host reads logs`, `put the log below ${roots.join(' or ')} and pass its path relative to it`);
  }
  return resolved;
}

/** The file calls the real-path check needs; `realpath` answers null for a path that does not exist. */
export interface RealPathOps {
  realpath(p: string): string | null;
  dirname(p: string): string;
  basename(p: string): string;
  join(...parts: string[]): string;
}

/** The real path of `p`: symlinks resolved as far as the path exists, the missing rest appended. */
export function realPathOf(p: string, ops: RealPathOps): string {
  const rest: string[] = [];
  for (let cur = p; ; ) {
    const real = ops.realpath(cur);
    if (real !== null) return ops.join(real, ...rest.reverse());
    const up = ops.dirname(cur);
    if (up === cur) return p;
    rest.push(ops.basename(cur));
    cur = up;
  }
}

/**
 * A check that the log at `resolved` really lies at or below one of `roots` (their real paths too):
 * HciError `path_outside_workspace` when a symlink on the way leads outside, or when where it leads
 * cannot be told. The adapters run it on opening and before every stat, read and append, so a link
 * swapped in after opening is caught too. No roots: no check.
 */
export function realPathConfinement(location: string, resolved: string, roots: string[] | undefined, sep: string, ops: RealPathOps): () => void {
  if (!roots) return () => {};
  const real = (p: string) => realPathOf(p, ops);
  const realRoots = roots.map((r) => {
    try {
      return real(r);
    } catch {
      return r;
    }
  });
  const check = () => {
    let at: string;
    try {
      at = real(resolved);
    } catch (e) {
      throw new HciError('path_outside_workspace', `log "${location}": cannot tell where it leads (${(e as Error)?.message ?? e})`, `put the log below ${roots.join(' or ')}, without symbolic links that lead elsewhere`);
    }
    if (!realRoots.some((r) => at === r || at.startsWith(r.endsWith(sep) ? r : r + sep))) {
      throw new HciError('path_outside_workspace', `log "${location}" leads outside ${roots.join(' and ')} through a symbolic link (to ${at})`, `put the log itself below ${roots.join(' or ')}; a link to a log elsewhere is not followed here`);
    }
  };
  check();
  return check;
}

export { logMissing } from '../../core/intercom/log.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits (polling) for the append lock, or HciError `log_busy`. */
export async function acquireAppendLock(lock: { tryAcquire(purpose?: string): boolean }, location: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let delay = 1;
  while (!lock.tryAcquire('intercom-append')) {
    if (Date.now() >= deadline) {
      throw new HciError('log_busy', `another process kept ${location} locked for ${timeoutMs} ms`, `retry; if no process is appending, delete ${location}.lock`);
    }
    await sleep(delay);
    delay = Math.min(delay * 2, 8);
  }
}

/**
 * The bytes of one append: the line and its newline, after a newline of its own when the log ends in
 * a torn line (`lastByte` not \n), so the torn fragment stays a line apart and ours is whole.
 */
export function appendBytes(line: string, size: number, lastByte: number | null): Uint8Array {
  if (line.includes('\n')) throw new HciError('internal', 'an event line must not contain a newline');
  const lead = size > 0 && lastByte !== 0x0a ? '\n' : '';
  return new TextEncoder().encode(`${lead}${line}\n`);
}
