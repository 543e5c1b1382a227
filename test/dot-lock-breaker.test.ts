// The breaker of a stale lock (runtimes/shared/dot-lock.ts) is linked into place whole, as the lock
// is: a process killed while taking it leaves nothing that holds the next one off. Created in place
// it could be left empty by a kill between open and write, and an unreadable breaker blocks every
// breaker for 5 s — seen in CI as "another process is indexing this workspace" right after a SIGKILL.
// Real files in a temp folder through Node's lock platform, with the kill injected into its writes.
// @lane cli
import { describe, it, expect, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SharedDotLock, type LockPlatform } from '../runtimes/shared/dot-lock.ts';
import { nodeLockPlatform } from '../runtimes/node/dot-lock.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A lock left by a process that has exited (its pid is gone). */
function staleLock(): { lockPath: string; deadPid: number } {
  const dir = tmpDir('hci-lock-');
  dirs.push(dir);
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid!;
  const lockPath = path.join(dir, 'indexer.lock');
  writeFileSync(lockPath, JSON.stringify({ pid: deadPid, host: os.hostname(), token: 'cd'.repeat(12), acquired_at: Date.now() - 1000 }));
  return { lockPath, deadPid };
}

/** Node's platform, but "killed" in the middle of writing any breaker file: the file is created, nothing is written. */
const killedWritingBreaker: LockPlatform = {
  ...nodeLockPlatform,
  writeText(p, text, exclusive) {
    if (!p.includes('.break')) return nodeLockPlatform.writeText(p, text, exclusive);
    writeFileSync(p, '', { flag: exclusive ? 'wx' : 'w' });
    throw new Error('SIGKILL (injected)');
  },
};

describe('breaking a stale lock', () => {
  it('a kill while taking the breaker leaves nothing that stops the next process from breaking the stale lock', () => {
    const { lockPath } = staleLock();
    expect(() => new SharedDotLock(lockPath, killedWritingBreaker).tryAcquire('index')).toThrow(/injected/);
    expect(existsSync(`${lockPath}.break`)).toBe(false);
    const next = new SharedDotLock(lockPath, nodeLockPlatform);
    expect(next.tryAcquire('index')).toBe(true);
    expect(next.holder()?.pid).toBe(process.pid);
    next.dispose();
    expect(existsSync(lockPath)).toBe(false);
  });

  it("sweeps a dead process's breaker temp file once the stale lock is broken, and leaves no breaker behind", () => {
    const { lockPath, deadPid } = staleLock();
    const temp = `${lockPath}.break.${deadPid}.${'ef'.repeat(12)}`;
    writeFileSync(temp, '');
    const lock = new SharedDotLock(lockPath, nodeLockPlatform);
    expect(lock.tryAcquire('index')).toBe(true);
    expect(existsSync(temp)).toBe(false);
    expect(readdirSync(path.dirname(lockPath)).filter((n) => n.includes('.break'))).toEqual([]);
    lock.dispose();
  });
});
