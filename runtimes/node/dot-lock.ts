// Cross-process lock for one index file: a dot-file (`<db>.lock`) created atomically with link(2),
// holding the owner's pid, host and a random token. Owns acquisition, release and recovery of locks
// left by dead processes; knows nothing of SQLite (the VFS decides when to take and drop it).
import * as fs from 'node:fs';
import * as os from 'node:os';
import { randomBytes } from 'node:crypto';

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  acquired_at: number;
  purpose?: string;
}

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

/** A lock is stale when it was taken on this host by a process that no longer exists. */
function isStale(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return false;
  if (owner.pid === process.pid) return !heldTokens.has(owner.token);
  return !pidAlive(owner.pid);
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
    const token = randomBytes(12).toString('hex');
    const owner: LockOwner = { pid: process.pid, host: os.hostname(), token, acquired_at: Date.now(), purpose };
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
      return true;
    } finally {
      breaker.release();
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
      fs.writeFileSync(this.lockPath, JSON.stringify({ pid: process.pid, host: os.hostname(), token, acquired_at: Date.now() }), { flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    this.token = token;
    heldTokens.add(token);
    return true;
  }
}
