// Cross-process lock for one index file: a dot-file (`<db>.lock`) created atomically with link(2),
// holding the owner's pid, host and a random token (on Linux also the boot id and the process start
// time, so a lock outlives neither a reboot nor the reuse of its pid). Owns acquisition, release and
// recovery of locks left by dead processes; knows nothing of SQLite (the VFS decides when to take
// and drop it).
//
// The protocol itself lives once in runtimes/shared/dot-lock.ts (shared with Deno); this module
// supplies it with node:fs, process.kill(pid, 0) as the liveness probe, and /proc for the boot id
// and process start times.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SharedDotLock, type LockPlatform } from '../shared/dot-lock.ts';

export type { LockOwner } from '../shared/dot-lock.ts';

function readProc(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The current boot's id, where the OS tells it (Linux); null elsewhere. */
const bootId: string | null = readProc('/proc/sys/kernel/random/boot_id')?.trim() || null;

/** Start time (clock ticks since boot) of a process, from /proc/<pid>/stat (Linux); null elsewhere. */
function startTicks(pid: number | 'self'): number | null {
  const stat = readProc(`/proc/${pid}/stat`);
  if (!stat) return null;
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const v = Number(fields[19]); // field 22 of the line: starttime
  return Number.isFinite(v) ? v : null;
}

const ownStart = startTicks('self');

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;

/** Node's LockPlatform (exported so a test can wrap it with an injected fault). */
export const nodeLockPlatform: LockPlatform = {
  link(from, to) {
    try {
      fs.linkSync(from, to);
      return true;
    } catch (e) {
      if (code(e) === 'EEXIST') return false;
      throw e;
    }
  },
  readText(p) {
    try {
      return fs.readFileSync(p, 'utf8');
    } catch (e) {
      if (code(e) === 'ENOENT') return null;
      throw e;
    }
  },
  writeText(p, text, exclusive) {
    try {
      fs.writeFileSync(p, text, exclusive ? { flag: 'wx' } : undefined);
      return true;
    } catch (e) {
      if (exclusive && code(e) === 'EEXIST') return false;
      throw e;
    }
  },
  // unlink, not rmSync: on Node 22, rmSync loads its rimraf module on first use, after the CLI's V8
  // flags are set, so compiled from source (runtimes/node/v8-flags.ts). Lock files are plain files.
  remove(p) {
    try {
      fs.unlinkSync(p);
    } catch (e) {
      if (code(e) !== 'ENOENT') throw e;
    }
  },
  mtimeMs: (p) => fs.statSync(p).mtimeMs,
  exists: (p) => fs.existsSync(p),
  list: (dir) => fs.readdirSync(dir),
  dirname: (p) => path.dirname(p),
  basename: (p) => path.basename(p),
  join: (dir, name) => path.join(dir, name),
  processState(pid) {
    try {
      process.kill(pid, 0);
      return 'alive';
    } catch (e) {
      return code(e) === 'EPERM' ? 'alive' : 'dead';
    }
  },
  startTicks: (pid) => startTicks(pid),
  pid: () => process.pid,
  host: () => os.hostname(),
  bootId: () => bootId,
  ownStart: () => ownStart,
  // Uniqueness, not secrecy (the token sits in a plain file beside the lock, with the pid, host and
  // start time): Math.random, seeded per process, spares every command loading node:crypto (~5 ms).
  randomHex: (bytes) => Array.from({ length: bytes }, () => Math.floor(Math.random() * 256).toString(16).padStart(2, '0')).join(''),
};

export class DotLock extends SharedDotLock {
  constructor(lockPath: string) {
    super(lockPath, nodeLockPlatform);
  }
}
