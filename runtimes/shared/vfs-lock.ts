// SQLite's lock levels for one database file, across processes, on dot-files — so readers share and
// only a committing writer excludes them, as SQLite's own unix VFS does with fcntl locks:
//   SHARED    a reader mark `<db>.lock.r.<pid>.<token>` (one per connection, linked into place per
//             transaction); any number of them coexist.
//   RESERVED  the writer lock `<db>.lock` (runtimes/shared/dot-lock.ts), exclusive among writers;
//             readers keep reading while a writer prepares its transaction.
//   PENDING   `<db>.lock.pending`, taken by the writer on its way to EXCLUSIVE: no new reader starts,
//             so the readers present drain and a writer is never starved by a stream of readers.
//   EXCLUSIVE PENDING plus no live reader mark but the writer's own.
// A reader checks for PENDING after linking its mark and the writer checks for marks after taking
// PENDING, so of two that race at least one sees the other and backs off (SQLITE_BUSY; the store
// retries). Marks and locks of dead processes are recognised by their owner records (pid, host, boot
// id, start time) and removed. A writer lock without purpose 'write' was taken by an hci of the
// earlier protocol (every level exclusive): readers treat it as excluding them, as before.
// Owns only the mapping; the dot-file protocol belongs to dot-lock.ts, the io methods to sync-vfs.ts,
// every file system call to the runtime's LockPlatform.
import { heldTokens, isStale, ownerRecord, readOwner, SharedDotLock, type LockPlatform } from './dot-lock.ts';

/** SQLite's lock levels (sqlite3.h; the same in every build). */
export const LOCK = { NONE: 0, SHARED: 1, RESERVED: 2, PENDING: 3, EXCLUSIVE: 4 } as const;

/** The purpose a writer of this protocol records in `<db>.lock` (readers of this protocol do not wait for it). */
const WRITER_PURPOSE = 'write';

export class VfsDotLock {
  private readonly writer: SharedDotLock;
  private readonly pending: SharedDotLock;
  /** This connection's reader mark: its path, and the owner file it is linked from (written once). */
  private mark: { path: string; source: string; token: string } | null = null;
  private marked = false;

  constructor(
    readonly lockPath: string,
    private readonly os: LockPlatform,
  ) {
    this.writer = new SharedDotLock(lockPath, os);
    this.pending = new SharedDotLock(`${lockPath}.pending`, os);
  }

  /**
   * Raises this connection's hold from `from` towards `to` and returns the level it holds now: less
   * than `to` when another process's hold forbids more (the VFS answers SQLITE_BUSY). A refused
   * EXCLUSIVE leaves PENDING in place, as SQLite's unix VFS does, so the readers present finish and
   * no new one starts.
   */
  lock(from: number, to: number): number {
    let held = from;
    if (to >= LOCK.SHARED && held < LOCK.SHARED) {
      if (!this.takeShared()) return held;
      held = LOCK.SHARED;
    }
    if (to >= LOCK.RESERVED && held < LOCK.RESERVED) {
      if (!this.writer.tryAcquire(WRITER_PURPOSE)) return held;
      held = LOCK.RESERVED;
    }
    if (to >= LOCK.PENDING && held < LOCK.PENDING) {
      if (!this.pending.tryAcquire('pending')) return held;
      held = LOCK.PENDING;
    }
    if (to >= LOCK.EXCLUSIVE && held < LOCK.EXCLUSIVE) {
      if (this.otherReaders()) return held;
      held = LOCK.EXCLUSIVE;
    }
    return held;
  }

  /** Lowers the hold to `to` (SHARED or NONE). */
  unlock(to: number): void {
    if (to < LOCK.PENDING) this.pending.release();
    if (to < LOCK.RESERVED) this.writer.release();
    if (to < LOCK.SHARED) this.dropMark();
  }

  /** Whether a live process other than this connection holds RESERVED or more (SQLite's hot-journal test). */
  reservedElsewhere(): boolean {
    if (this.writer.held) return false;
    const owner = readOwner(this.os, this.lockPath);
    if (owner === 'missing') return false;
    return owner === null || !isStale(this.os, owner, this.lockPath);
  }

  /** Releases everything and removes this connection's owner files (the database file closes). */
  dispose(): void {
    this.unlock(LOCK.NONE);
    this.writer.dispose();
    this.pending.dispose();
    if (this.mark) {
      heldTokens.delete(this.mark.token);
      this.os.remove(this.mark.source);
    }
    this.mark = null;
  }

  private takeShared(): boolean {
    if (this.pendingElsewhere() || this.earlierWriterHolds()) return false;
    const mark = this.markFiles();
    if (!this.os.link(mark.source, mark.path)) {
      // Our own name exists only if an earlier unlock failed halfway: it is ours, so take it over.
      this.os.remove(mark.path);
      if (!this.os.link(mark.source, mark.path)) return false;
    }
    this.marked = true;
    // The other half of the race with a writer (which takes PENDING, then looks for marks): PENDING
    // alone is checked again. (A writer of the earlier protocol never looks for marks: see the header.)
    if (this.pendingElsewhere()) {
      this.dropMark();
      return false;
    }
    return true;
  }

  private dropMark(): void {
    if (!this.marked || !this.mark) return;
    this.marked = false;
    this.os.remove(this.mark.path);
  }

  /** A live PENDING of another connection (a writer committing); a dead one is removed (dot-lock's breaker). */
  private pendingElsewhere(): boolean {
    return !this.pending.held && this.os.exists(this.pending.lockPath) && !this.pending.breakIfStale();
  }

  /**
   * A live writer of the earlier, all-exclusive protocol (a lock without purpose 'write'). A dead
   * writer's lock of either protocol is removed on the way, as a reader of the earlier protocol did
   * when it took the lock.
   */
  private earlierWriterHolds(): boolean {
    const os = this.os;
    if (this.writer.held || !os.exists(this.lockPath)) return false;
    const owner = readOwner(os, this.lockPath);
    if (owner === 'missing') return false;
    if (owner !== null && owner.purpose === WRITER_PURPOSE) {
      if (isStale(os, owner, this.lockPath)) this.writer.breakIfStale();
      return false;
    }
    return !this.writer.breakIfStale();
  }

  /** Whether a live reader mark other than this connection's exists; marks of dead processes are removed. */
  private otherReaders(): boolean {
    const os = this.os;
    const dir = os.dirname(this.lockPath);
    const prefix = `${os.basename(this.lockPath)}.r.`;
    for (const name of os.list(dir)) {
      if (!name.startsWith(prefix)) continue;
      const p = os.join(dir, name);
      if (this.marked && this.mark && p === this.mark.path) continue;
      const owner = readOwner(os, p);
      if (owner === 'missing') continue;
      if (owner !== null && isStale(os, owner, p)) {
        os.remove(p); // its name is unique to a dead holder: nobody else can be taking it now
        continue;
      }
      return true;
    }
    return false;
  }

  /** The mark's owner file (written once per connection) and the name it is linked to per transaction. */
  private markFiles(): { path: string; source: string; token: string } {
    const os = this.os;
    if (this.mark && os.exists(this.mark.source)) return this.mark;
    const token = os.randomHex(12);
    const owner = ownerRecord(os, token, 'read');
    const source = `${this.lockPath}.${owner.pid}.${token}`;
    os.writeText(source, JSON.stringify(owner));
    heldTokens.add(token);
    this.mark = { path: `${this.lockPath}.r.${owner.pid}.${token}`, source, token };
    return this.mark;
  }
}
