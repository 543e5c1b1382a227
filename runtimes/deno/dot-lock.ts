// The cross-process dot-file lock of runtimes/node/dot-lock.ts, on Deno's own file APIs: the same
// files (`<db>.lock`, temp files `<lock>.<pid>.<24 hex>`, the `<lock>.break` breaker), the same owner
// record and the same staleness rules, so Deno and Node processes share one index safely. The
// protocol itself is runtimes/shared/dot-lock.ts, written once for both; this module supplies it
// with Deno's file, process and permission APIs.
//
// Why not node:fs compatibility: under Deno's permissions a liveness probe
// (`kill(pid, 0)`) needs --allow-run and /proc needs --allow-all. Through node: compatibility a
// refused probe surfaces as an error the Node code reads as "that process is dead", and it would
// break a live holder's lock. Here a probe Deno may not make means "unknown", and an unknown holder
// is treated as alive: a lock is never broken on a guess. With --allow-run, locks left by crashed
// processes are recovered as in Node; without it a Node process (or a Deno one with --allow-run)
// recovers them. Boot id and process start time are recorded only when /proc is readable (-A).
import { HciError } from '../../core/platform.ts';
import { SharedDotLock, type LockOwner, type LockPlatform } from '../shared/dot-lock.ts';
import { deno, errorName, granted } from './deno-api.ts';

export type { LockOwner } from '../shared/dot-lock.ts';

let cachedHost: string | null = null;

/** This machine's host name (the owner record's `host`); needs --allow-sys=hostname. */
export function hostName(): string {
  if (cachedHost !== null) return cachedHost;
  try {
    cachedHost = deno().hostname();
  } catch (e) {
    throw new HciError(
      'permission_needed',
      `hci under Deno cannot read the host name (${(e as Error).message})`,
      'add --allow-sys=hostname: lock files name the host that holds them, so a crashed process\'s lock can be recognised',
    );
  }
  return cachedHost;
}

/** /proc is readable by Deno only with every permission granted (-A); never prompt for it. */
const procReadable = (): boolean => ['read', 'write', 'run', 'env', 'net', 'sys', 'ffi'].every((name) => granted({ name }));

function readProc(file: string): string | null {
  try {
    return deno().readTextFileSync(file);
  } catch {
    return null;
  }
}

let procInfo: { boot: string | null; start: number | null } | null = null;

function startTicks(pid: number | 'self'): number | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const v = Number(fields[19]);
  return Number.isFinite(v) ? v : null;
}

function ownProc(): { boot: string | null; start: number | null } {
  if (!procInfo) {
    const readable = deno().build.os === 'linux' && procReadable();
    procInfo = readable ? { boot: readProc('/proc/sys/kernel/random/boot_id')?.trim() || null, start: startTicks('self') } : { boot: null, start: null };
  }
  return procInfo;
}

/** Holders whose liveness this process could not check (for "index busy" hints). */
export const uncheckedHolders = new Map<string, LockOwner>();

/** true: alive, false: gone, null: cannot tell (no --allow-run). */
export function pidAlive(pid: number): boolean | null {
  if (!granted({ name: 'run' })) return null;
  try {
    deno().kill(pid, 0);
    return true;
  } catch (e) {
    const n = errorName(e);
    if (n === 'NotFound') return false; // ESRCH
    if (n === 'PermissionDenied') return true; // EPERM: it exists, owned by someone else
    return null;
  }
}

function randomHex(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  let s = '';
  for (const x of b) s += x.toString(16).padStart(2, '0');
  return s;
}

function dirname(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i <= 0 ? (i === 0 ? p.slice(0, 1) : '.') : p.slice(0, i);
}

function basename(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

export const denoLockPlatform: LockPlatform = {
  link(from, to) {
    try {
      deno().linkSync(from, to);
      return true;
    } catch (e) {
      if (errorName(e) === 'AlreadyExists') return false;
      throw e;
    }
  },
  readText(p) {
    try {
      return deno().readTextFileSync(p);
    } catch (e) {
      if (errorName(e) === 'NotFound') return null;
      throw e;
    }
  },
  writeText(p, text, exclusive) {
    try {
      deno().writeTextFileSync(p, text, exclusive ? { createNew: true } : undefined);
      return true;
    } catch (e) {
      if (exclusive && errorName(e) === 'AlreadyExists') return false;
      throw e;
    }
  },
  remove(p) {
    try {
      deno().removeSync(p);
    } catch (e) {
      if (errorName(e) !== 'NotFound') throw e;
    }
  },
  mtimeMs: (p) => deno().statSync(p).mtime?.getTime() ?? null,
  exists(p) {
    try {
      deno().lstatSync(p);
      return true;
    } catch (e) {
      if (errorName(e) === 'NotFound') return false;
      throw e;
    }
  },
  list: (dir) => [...deno().readDirSync(dir)].map((e) => e.name),
  dirname,
  basename,
  join: (dir, name) => `${dir}/${name}`,
  processState(pid) {
    const alive = pidAlive(pid);
    return alive === null ? 'unknown' : alive ? 'alive' : 'dead';
  },
  startTicks: (pid) => startTicks(pid),
  pid: () => deno().pid,
  host: hostName,
  bootId: () => ownProc().boot,
  ownStart: () => ownProc().start,
  randomHex,
  onUnknownHolder: (lockPath, owner) => void uncheckedHolders.set(lockPath, owner),
  onAcquired: (lockPath) => void uncheckedHolders.delete(lockPath),
};

export class DotLock extends SharedDotLock {
  constructor(lockPath: string) {
    super(lockPath, denoLockPlatform);
  }
}
