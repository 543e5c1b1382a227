// Cross-process lock for one index file: a dot-file (`<db>.lock`) created atomically with link(2),
// holding the owner's pid, host and a random token (on Linux also the boot id and the process start
// time, so a lock outlives neither a reboot nor the reuse of its pid). Owns acquisition, release and
// recovery of locks left by dead processes; knows nothing of SQLite (the VFS decides when to take
// and drop it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  acquired_at: number;
  purpose?: string;
  /** Linux: the kernel's boot id when the lock was taken (a lock from an earlier boot is stale). */
  boot?: string;
  /** Linux: the holder's start time in clock ticks since boot (tells a reused pid from the holder). */
  start?: number;
}

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

/** Tokens of locks this process holds, so a leftover lock with our own (reused) pid is recognised as stale. */
const heldTokens = new Set<string>();

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(lockPath: string): LockOwner | null | 'missing' {
  try {
    return JSON.parse(fs.readFileSync(lockPath, 'utf8')) as LockOwner;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    return null; // unreadable or torn: treated as held, never broken on a guess
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - fs.statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * A lock is stale when it was taken on this host by a process that no longer exists: its pid is
 * gone, or (where the OS says so) the machine has rebooted since, or the pid now belongs to a
 * different process. Without the last two checks a lock left by a crash or power loss would look
 * held for ever once its pid is reused (after a reboot pids are handed out again from the bottom).
 */
function isStale(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return !heldTokens.has(owner.token);
  if (owner.boot && bootId && owner.boot !== bootId) return true;
  if (!pidAlive(owner.pid)) return true;
  if (typeof owner.start === 'number' && (!owner.boot || owner.boot === bootId)) {
    const now = startTicks(owner.pid);
    if (now !== null && now !== owner.start) return true;
  }
  return false;
}

/** Owner record for a lock this process takes now. */
function ownerRecord(token: string, purpose?: string): LockOwner {
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), token, acquired_at: Date.now(), purpose };
  if (bootId) owner.boot = bootId;
  if (ownStart !== null) owner.start = ownStart;
  return owner;
}

export class DotLock {
  private token: string | null = null;

  constructor(readonly lockPath: string) {}

  get held(): boolean {
    return this.token !== null;
  }

  /** One non-blocking attempt. Returns false when another live holder has the lock. */
  tryAcquire(purpose?: string): boolean {
    if (this.token) return true;
    // Contended case first, cheaply: a live holder means no attempt (waiters poll every few ms,
    // and creating, linking and removing a temp file per poll would be wasted work).
    if (fs.existsSync(this.lockPath) && !this.breakIfStale()) return false;
    const token = randomBytes(12).toString('hex');
    const owner = ownerRecord(token, purpose);
    const temp = `${this.lockPath}.${process.pid}.${token}`;
    fs.writeFileSync(temp, JSON.stringify(owner));
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          fs.linkSync(temp, this.lockPath);
          this.token = token;
          heldTokens.add(token);
          return true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
          if (attempt === 0 && !this.breakIfStale()) return false;
        }
      }
      return false;
    } finally {
      fs.rmSync(temp, { force: true });
    }
  }

  release(): void {
    if (!this.token) return;
    const owner = readOwner(this.lockPath);
    if (owner && owner !== 'missing' && owner.token === this.token) fs.rmSync(this.lockPath, { force: true });
    heldTokens.delete(this.token);
    this.token = null;
  }

  /** Who holds the lock now, if anyone (for "index busy" messages and status). */
  holder(): LockOwner | null {
    const owner = readOwner(this.lockPath);
    return owner === 'missing' ? null : owner;
  }

  /**
   * Removes the lock if its holder is dead. A second dot-file serialises breakers, so two processes
   * that both saw the same stale lock cannot remove a fresh lock taken in between.
   */
  private breakIfStale(): boolean {
    const seen = readOwner(this.lockPath);
    if (seen === 'missing') return true;
    if (seen === null || !isStale(seen)) return false;
    const breaker = new DotLock(`${this.lockPath}.break`);
    if (!breaker.tryAcquireSimple()) return false;
    try {
      const again = readOwner(this.lockPath);
      if (again === 'missing') return true;
      if (again === null || again.token !== seen.token) return false;
      fs.rmSync(this.lockPath, { force: true });
      this.sweepDeadTemps();
      return true;
    } finally {
      breaker.release();
    }
  }

  /**
   * Removes `<lock>.<pid>.<token>` temp files of dead processes on this host: a process killed
   * between writing its temp file and removing it leaves one behind. Runs only after a stale lock
   * was broken (the moment a dead holder is noticed), so it costs nothing in normal operation.
   */
  private sweepDeadTemps(): void {
    try {
      const dir = path.dirname(this.lockPath);
      const prefix = `${path.basename(this.lockPath)}.`;
      for (const name of fs.readdirSync(dir)) {
        const m = name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]{24}$/.exec(name.slice(prefix.length)) : null;
        if (m && Number(m[1]) !== process.pid && !pidAlive(Number(m[1]))) fs.rmSync(path.join(dir, name), { force: true });
      }
    } catch {
      // Hygiene only: a failure here never affects locking.
    }
  }

  /** tryAcquire without stale-breaking recursion beyond one level (used for the breaker lock). */
  private tryAcquireSimple(): boolean {
    const owner = readOwner(this.lockPath);
    if (owner !== 'missing' && (owner === null ? ageMs(this.lockPath) > 5000 : isStale(owner))) {
      fs.rmSync(this.lockPath, { force: true });
    }
    const token = randomBytes(12).toString('hex');
    try {
      fs.writeFileSync(this.lockPath, JSON.stringify(ownerRecord(token)), { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    this.token = token;
    heldTokens.add(token);
    return true;
  }
}
