// The cross-process dot-file lock of runtimes/node/dot-lock.ts, on Deno's own file APIs: the same
// files (`<db>.lock`, temp files `<lock>.<pid>.<24 hex>`, the `<lock>.break` breaker), the same owner
// record and the same staleness rules, so Deno and Node processes share one index safely.
//
// Why a port and not node:fs compatibility: under Deno's permissions a liveness probe
// (`kill(pid, 0)`) needs --allow-run and /proc needs --allow-all. Through node: compatibility a
// refused probe surfaces as an error the Node code reads as "that process is dead", and it would
// break a live holder's lock. Here a probe Deno may not make means "unknown", and an unknown holder
// is treated as alive: a lock is never broken on a guess. With --allow-run, locks left by crashed
// processes are recovered as in Node; without it a Node process (or a Deno one with --allow-run)
// recovers them. Boot id and process start time are recorded only when /proc is readable (-A).
import { HciError } from '../../core/platform.ts';
import { deno, errorName, granted } from './deno-api.ts';

export interface LockOwner {
  pid: number;
  host: string;
  token: string;
  acquired_at: number;
  purpose?: string;
  boot?: string;
  start?: number;
}

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

const heldTokens = new Set<string>();

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

function exists(p: string): boolean {
  try {
    deno().lstatSync(p);
    return true;
  } catch (e) {
    if (errorName(e) === 'NotFound') return false;
    throw e;
  }
}

function removeForce(p: string): void {
  try {
    deno().removeSync(p);
  } catch (e) {
    if (errorName(e) !== 'NotFound') throw e;
  }
}

function readOwner(lockPath: string): LockOwner | null | 'missing' {
  let text: string;
  try {
    text = deno().readTextFileSync(lockPath);
  } catch (e) {
    if (errorName(e) === 'NotFound') return 'missing';
    return null;
  }
  try {
    return JSON.parse(text) as LockOwner;
  } catch {
    return null; // torn or foreign: treated as held, never broken on a guess
  }
}

function ageMs(p: string): number {
  try {
    const m = deno().statSync(p).mtime;
    return m ? Date.now() - m.getTime() : 0;
  } catch {
    return 0;
  }
}

function isStale(owner: LockOwner, lockPath: string): boolean {
  if (owner.host !== hostName()) return false;
  if (owner.pid === deno().pid) return !heldTokens.has(owner.token);
  const own = ownProc();
  if (owner.boot && own.boot && owner.boot !== own.boot) return true;
  const alive = pidAlive(owner.pid);
  if (alive === false) return true;
  if (alive === null) {
    uncheckedHolders.set(lockPath, owner);
    return false;
  }
  if (typeof owner.start === 'number' && (!owner.boot || owner.boot === own.boot)) {
    const now = startTicks(owner.pid);
    if (now !== null && now !== owner.start) return true;
  }
  return false;
}

function ownerRecord(token: string, purpose?: string): LockOwner {
  const owner: LockOwner = { pid: deno().pid, host: hostName(), token, acquired_at: Date.now(), purpose };
  const own = ownProc();
  if (own.boot) owner.boot = own.boot;
  if (own.start !== null) owner.start = own.start;
  return owner;
}

function dirname(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i <= 0 ? (i === 0 ? p.slice(0, 1) : '.') : p.slice(0, i);
}

function basename(p: string): string {
  return p.slice(Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\')) + 1);
}

export class DotLock {
  private token: string | null = null;

  constructor(readonly lockPath: string) {}

  get held(): boolean {
    return this.token !== null;
  }

  /** One non-blocking attempt. Returns false when another live (or unverifiable) holder has the lock. */
  tryAcquire(purpose?: string): boolean {
    if (this.token) return true;
    if (exists(this.lockPath) && !this.breakIfStale()) return false;
    const token = randomHex(12);
    const owner = ownerRecord(token, purpose);
    const temp = `${this.lockPath}.${owner.pid}.${token}`;
    deno().writeTextFileSync(temp, JSON.stringify(owner));
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          deno().linkSync(temp, this.lockPath);
          this.token = token;
          heldTokens.add(token);
          uncheckedHolders.delete(this.lockPath);
          return true;
        } catch (e) {
          if (errorName(e) !== 'AlreadyExists') throw e;
          if (attempt === 0 && !this.breakIfStale()) return false;
        }
      }
      return false;
    } finally {
      removeForce(temp);
    }
  }

  release(): void {
    if (!this.token) return;
    const owner = readOwner(this.lockPath);
    if (owner && owner !== 'missing' && owner.token === this.token) removeForce(this.lockPath);
    heldTokens.delete(this.token);
    this.token = null;
  }

  holder(): LockOwner | null {
    const owner = readOwner(this.lockPath);
    return owner === 'missing' ? null : owner;
  }

  private breakIfStale(): boolean {
    const seen = readOwner(this.lockPath);
    if (seen === 'missing') return true;
    if (seen === null || !isStale(seen, this.lockPath)) return false;
    const breaker = new DotLock(`${this.lockPath}.break`);
    if (!breaker.tryAcquireSimple()) return false;
    try {
      const again = readOwner(this.lockPath);
      if (again === 'missing') return true;
      if (again === null || again.token !== seen.token) return false;
      removeForce(this.lockPath);
      this.sweepDeadTemps();
      return true;
    } finally {
      breaker.release();
    }
  }

  private sweepDeadTemps(): void {
    try {
      const dir = dirname(this.lockPath);
      const prefix = `${basename(this.lockPath)}.`;
      for (const e of deno().readDirSync(dir)) {
        const m = e.name.startsWith(prefix) ? /^(\d+)\.[0-9a-f]{24}$/.exec(e.name.slice(prefix.length)) : null;
        if (m && Number(m[1]) !== deno().pid && pidAlive(Number(m[1])) === false) removeForce(`${dir}/${e.name}`);
      }
    } catch {
      // hygiene only
    }
  }

  private tryAcquireSimple(): boolean {
    const owner = readOwner(this.lockPath);
    if (owner !== 'missing' && (owner === null ? ageMs(this.lockPath) > 5000 : isStale(owner, this.lockPath))) removeForce(this.lockPath);
    const token = randomHex(12);
    try {
      deno().writeTextFileSync(this.lockPath, JSON.stringify(ownerRecord(token)), { createNew: true });
    } catch (e) {
      if (errorName(e) === 'AlreadyExists') return false;
      throw e;
    }
    this.token = token;
    heldTokens.add(token);
    return true;
  }
}
