// The cross-process lock protocol for one index file, written once for every runtime: a dot-file
// (`<db>.lock`) created atomically with link(2), holding the owner's pid, host and a random token
// (where the OS tells them, also the boot id and the process start time, so a lock outlives neither
// a reboot nor the reuse of its pid). Owns acquisition, release, the `<lock>.break` breaker (linked
// into place the same way) and recovery of locks and temp files (`<lock>.<pid>.<24 hex>`,
// `<lock>.break.<pid>.<24 hex>`) left by dead processes. Leaves every file system call, process
// probe and path operation to a LockPlatform (runtimes/node/dot-lock.ts, runtimes/deno/dot-lock.ts),
// so it imports no node:* module and touches no Deno global. Knows nothing of SQLite (the VFS
// decides when to take and drop it).

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

/** What a liveness probe says; 'unknown' (the runtime may not probe) is treated as alive. */
export type ProcessState = 'alive' | 'dead' | 'unknown';

/** The synchronous file and process operations the lock protocol needs from a runtime. */
export interface LockPlatform {
  /** Hard-links `from` to `to`; false when `to` already exists, throws on any other failure. */
  link(from: string, to: string): boolean;
  /** The file's text; null when it does not exist; throws when it cannot be read. */
  readText(p: string): string | null;
  /** Writes a file; with `exclusive`, false when it already exists. Throws on any other failure. */
  writeText(p: string, text: string, exclusive?: boolean): boolean;
  /** Removes a file; a missing file is no error. */
  remove(p: string): void;
  /** Modification time in ms since the epoch; null when unknown. */
  mtimeMs(p: string): number | null;
  exists(p: string): boolean;
  /** Names of the entries in a folder. */
  list(dir: string): Iterable<string>;
  dirname(p: string): string;
  basename(p: string): string;
  join(dir: string, name: string): string;
  processState(pid: number): ProcessState;
  /** A process's start time (clock ticks since boot), where the OS tells it; null elsewhere. */
  startTicks(pid: number): number | null;
  pid(): number;
  host(): string;
  /** The current boot's id, where the OS tells it; null elsewhere. */
  bootId(): string | null;
  /** This process's start time (clock ticks since boot); null where unknown. */
  ownStart(): number | null;
  randomHex(bytes: number): string;
  /** A holder whose liveness could not be checked (it is treated as alive). */
  onUnknownHolder?(lockPath: string, owner: LockOwner): void;
  onAcquired?(lockPath: string): void;
}

/** Tokens of locks this process holds, so a leftover lock with our own (reused) pid is recognised as stale. */
export const heldTokens = new Set<string>();

export function readOwner(os: LockPlatform, lockPath: string): LockOwner | null | 'missing' {
  let text: string | null;
  try {
    text = os.readText(lockPath);
  } catch {
    return null; // unreadable: treated as held, never broken on a guess
  }
  if (text === null) return 'missing';
  try {
    return JSON.parse(text) as LockOwner;
  } catch {
    return null; // torn or foreign: treated as held, never broken on a guess
  }
}

function ageMs(os: LockPlatform, p: string): number {
  try {
    const m = os.mtimeMs(p);
    return m === null ? 0 : Date.now() - m;
  } catch {
    return 0;
  }
}

/**
 * A lock is stale when it was taken on this host by a process that no longer exists: its pid is
 * gone, or (where the OS says so) the machine has rebooted since, or the pid now belongs to a
 * different process. Without the last two checks a lock left by a crash or power loss would look
 * held for ever once its pid is reused (after a reboot pids are handed out again from the bottom).
 * A holder whose liveness cannot be checked is never taken for dead.
 */
export function isStale(os: LockPlatform, owner: LockOwner, lockPath: string): boolean {
  if (owner.host !== os.host()) return false;
  if (owner.pid === os.pid()) return !heldTokens.has(owner.token);
  const boot = os.bootId();
  if (owner.boot && boot && owner.boot !== boot) return true;
  const state = os.processState(owner.pid);
  if (state === 'dead') return true;
  if (state === 'unknown') {
    os.onUnknownHolder?.(lockPath, owner);
    return false;
  }
  if (typeof owner.start === 'number' && (!owner.boot || owner.boot === boot)) {
    const now = os.startTicks(owner.pid);
    if (now !== null && now !== owner.start) return true;
  }
  return false;
}

/** Owner record for a lock this process takes now. */
export function ownerRecord(os: LockPlatform, token: string, purpose?: string): LockOwner {
  const owner: LockOwner = { pid: os.pid(), host: os.host(), token, acquired_at: Date.now(), purpose };
  const boot = os.bootId();
  const start = os.ownStart();
  if (boot) owner.boot = boot;
  if (start !== null) owner.start = start;
  return owner;
}

export class SharedDotLock {
  private token: string | null = null;
  /**
   * This lock's owner record, written once and hard-linked to the lock path on every acquisition:
   * a search takes the lock per transaction, and writing a fresh temp file each time cost more than
   * the query. One token per lock object identifies its holder just as well (release compares it).
   */
  private ownerFile: { path: string; token: string; purpose?: string } | null = null;

  constructor(
    readonly lockPath: string,
    private readonly os: LockPlatform,
  ) {}

  get held(): boolean {
    return this.token !== null;
  }

  /** One non-blocking attempt. Returns false when another live (or unverifiable) holder has the lock. */
  tryAcquire(purpose?: string): boolean {
    if (this.token) return true;
    const os = this.os;
    // Contended case first, cheaply: a live holder means no attempt (waiters poll every few ms).
    if (os.exists(this.lockPath) && !this.breakIfStale()) return false;
    const owner = this.ownerFileFor(purpose);
    for (let attempt = 0; attempt < 2; attempt++) {
      if (os.link(owner.path, this.lockPath)) {
        this.token = owner.token;
        heldTokens.add(owner.token);
        os.onAcquired?.(this.lockPath);
        return true;
      }
      if (attempt === 0 && !this.breakIfStale()) return false;
    }
    return false;
  }

  private ownerFileFor(purpose?: string): { path: string; token: string } {
    const os = this.os;
    if (this.ownerFile && this.ownerFile.purpose === purpose && os.exists(this.ownerFile.path)) return this.ownerFile;
    if (this.ownerFile) os.remove(this.ownerFile.path);
    else this.sweepDeadTemps(); // once per lock object: files of processes killed while holding one
    const token = os.randomHex(12);
    const owner = ownerRecord(os, token, purpose);
    const path = `${this.lockPath}.${owner.pid}.${token}`;
    os.writeText(path, JSON.stringify(owner));
    this.ownerFile = { path, token, purpose };
    return this.ownerFile;
  }

  release(): void {
    if (!this.token) return;
    const owner = readOwner(this.os, this.lockPath);
    if (owner && owner !== 'missing' && owner.token === this.token) this.os.remove(this.lockPath);
    heldTokens.delete(this.token);
    this.token = null;
  }

  /** Releases the lock and removes this object's owner file (when the database file closes). */
  dispose(): void {
    this.release();
    if (this.ownerFile) this.os.remove(this.ownerFile.path);
    this.ownerFile = null;
  }

  /** Who holds the lock now, if anyone (for "index busy" messages and status). */
  holder(): LockOwner | null {
    const owner = readOwner(this.os, this.lockPath);
    return owner === 'missing' ? null : owner;
  }

  /**
   * Removes the lock if its holder is dead; true when nobody holds it now. A second dot-file serialises breakers, so two processes
   * that both saw the same stale lock cannot remove a fresh lock taken in between.
   */
  breakIfStale(): boolean {
    const seen = readOwner(this.os, this.lockPath);
    if (seen === 'missing') return true;
    if (seen === null || !isStale(this.os, seen, this.lockPath)) return false;
    const breaker = new SharedDotLock(`${this.lockPath}.break`, this.os);
    if (!breaker.tryAcquireSimple()) return false;
    try {
      const again = readOwner(this.os, this.lockPath);
      if (again === 'missing') return true;
      if (again === null || again.token !== seen.token) return false;
      this.os.remove(this.lockPath);
      this.sweepDeadTemps();
      return true;
    } finally {
      breaker.release();
    }
  }

  /**
   * Removes `<lock>.<pid>.<token>` owner files of dead processes on this host: a process killed before
   * closing its database leaves one behind. Runs after a stale lock was broken and when a lock
   * object writes its first owner file (once per open database), so it costs nothing per transaction.
   */
  private sweepDeadTemps(): void {
    const os = this.os;
    try {
      const dir = os.dirname(this.lockPath);
      const prefix = `${os.basename(this.lockPath)}.`;
      for (const name of os.list(dir)) {
        // `<lock>.<pid>.<token>`, and the breaker's `<lock>.break.<pid>.<token>`.
        const m = name.startsWith(prefix) ? /^(?:break\.)?(\d+)\.[0-9a-f]{24}$/.exec(name.slice(prefix.length)) : null;
        if (m && Number(m[1]) !== os.pid() && os.processState(Number(m[1])) === 'dead') os.remove(os.join(dir, name));
      }
    } catch {
      // Hygiene only: a failure here never affects locking.
    }
  }

  /** tryAcquire without stale-breaking recursion beyond one level (used for the breaker lock). */
  private tryAcquireSimple(): boolean {
    const os = this.os;
    const owner = readOwner(os, this.lockPath);
    if (owner !== 'missing' && (owner === null ? ageMs(os, this.lockPath) > 5000 : isStale(os, owner, this.lockPath))) {
      os.remove(this.lockPath);
    }
    // Written whole under a name of its own, then linked into place, as the lock itself: a process
    // killed at any point leaves no breaker or a complete one naming it. Created in place (open, then
    // write), a kill between the two left an empty breaker, which blocked every breaker for 5 s.
    const token = os.randomHex(12);
    const temp = `${this.lockPath}.${os.pid()}.${token}`;
    os.writeText(temp, JSON.stringify(ownerRecord(os, token)));
    let linked = false;
    try {
      linked = os.link(temp, this.lockPath);
    } finally {
      os.remove(temp);
    }
    if (!linked) return false;
    this.token = token;
    heldTokens.add(token);
    return true;
  }
}
