// The VFS's lock levels on real dot-files in a temp folder (runtimes/shared/vfs-lock.ts with Node's
// LockPlatform): readers share; a writer's RESERVED leaves them reading; its PENDING lets no new
// reader in while the present ones finish; EXCLUSIVE waits for the last of them; a reader mark left
// by a dead process never blocks a writer; a writer lock of the earlier, all-exclusive protocol
// (no purpose 'write') still keeps readers out. Each connection is its own VfsDotLock, as each
// opened database file is. The same protocol across real processes: test/concurrency.test.ts.
// @lane unit
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeLockPlatform } from '../runtimes/node/dot-lock.ts';
import { LOCK, VfsDotLock } from '../runtimes/shared/vfs-lock.ts';

let dir: string;
let db: string;
const opened: VfsDotLock[] = [];
const connection = () => {
  const l = new VfsDotLock(`${db}.lock`, nodeLockPlatform);
  opened.push(l);
  return l;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hci-vfs-lock-'));
  db = path.join(dir, 'index.sqlite');
});
afterEach(() => {
  for (const l of opened.splice(0)) l.dispose();
  rmSync(dir, { recursive: true, force: true });
});

/** A pid no process has now (the unit lane starts no child process to take one from). */
function deadPid(): number {
  let pid = 999_999;
  while (existsSync(`/proc/${pid}`)) pid--;
  return pid;
}

describe('VfsDotLock: SQLite lock levels on dot-files', () => {
  it('lets readers share, keeps them reading past RESERVED, and lets a writer reach EXCLUSIVE only when they are gone', () => {
    const a = connection();
    const b = connection();
    const c = connection();
    expect(a.lock(LOCK.NONE, LOCK.SHARED)).toBe(LOCK.SHARED);
    expect(b.lock(LOCK.NONE, LOCK.SHARED), 'a second reader shares').toBe(LOCK.SHARED);
    expect(a.lock(LOCK.SHARED, LOCK.RESERVED)).toBe(LOCK.RESERVED);
    expect(b.lock(LOCK.SHARED, LOCK.RESERVED), 'one writer at a time').toBe(LOCK.SHARED);
    expect(b.reservedElsewhere()).toBe(true);
    expect(c.lock(LOCK.NONE, LOCK.SHARED), 'a reader starts while the writer prepares').toBe(LOCK.SHARED);
    c.unlock(LOCK.NONE);

    expect(a.lock(LOCK.RESERVED, LOCK.EXCLUSIVE), 'b still reads: the writer stops at PENDING').toBe(LOCK.PENDING);
    expect(c.lock(LOCK.NONE, LOCK.SHARED), 'PENDING lets no new reader in').toBe(LOCK.NONE);
    b.unlock(LOCK.NONE);
    expect(a.lock(LOCK.PENDING, LOCK.EXCLUSIVE)).toBe(LOCK.EXCLUSIVE);
    expect(c.lock(LOCK.NONE, LOCK.SHARED)).toBe(LOCK.NONE);
    a.unlock(LOCK.SHARED);
    expect(b.reservedElsewhere()).toBe(false);
    expect(c.lock(LOCK.NONE, LOCK.SHARED), 'readers again once the writer is down to SHARED').toBe(LOCK.SHARED);
    a.unlock(LOCK.NONE);
    c.unlock(LOCK.NONE);
    expect(readdirSync(dir).filter((n) => n === 'index.sqlite.lock' || n.includes('.lock.r.') || n.endsWith('.pending'))).toEqual([]);
  });

  it('removes a dead reader’s mark instead of waiting for it', () => {
    const pid = deadPid();
    const mark = `${db}.lock.r.${pid}.${'ab'.repeat(12)}`;
    writeFileSync(mark, JSON.stringify({ pid, host: os.hostname(), token: 'ab'.repeat(12), acquired_at: Date.now(), purpose: 'read' }));
    const w = connection();
    expect(w.lock(LOCK.NONE, LOCK.EXCLUSIVE)).toBe(LOCK.EXCLUSIVE);
    expect(existsSync(mark)).toBe(false);
  });

  it('keeps readers out of a live writer lock of the earlier, all-exclusive protocol, and clears a dead one', () => {
    const live = { pid: process.pid, host: os.hostname(), token: 'cd'.repeat(12), acquired_at: Date.now() };
    // Our own pid with a token this process does not hold reads as stale; a parent process is alive.
    const parent = { ...live, pid: process.ppid };
    writeFileSync(`${db}.lock`, JSON.stringify(parent));
    const r = connection();
    expect(r.lock(LOCK.NONE, LOCK.SHARED)).toBe(LOCK.NONE);
    writeFileSync(`${db}.lock`, JSON.stringify({ ...live, pid: deadPid() }));
    expect(r.lock(LOCK.NONE, LOCK.SHARED)).toBe(LOCK.SHARED);
    expect(existsSync(`${db}.lock`), 'the dead holder’s lock was cleared').toBe(false);
  });
});
