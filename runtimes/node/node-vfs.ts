// A synchronous SQLite VFS over node:fs, so the WASM engine reads and writes a real index file.
// Owns file I/O, fsync (data and directory) and mapping SQLite's lock levels onto the cross-process
// dot-file locks (runtimes/shared/vfs-lock.ts: readers share, a committing writer excludes them; a
// blocked caller gets SQLITE_BUSY at once and the store retries asynchronously). Journaling is
// rollback (no WAL, so no shared memory is needed).
//
// The VFS logic itself is runtimes/shared/sync-vfs.ts (shared with Deno); this module supplies it
// with node:fs (positional reads and writes), access(2), and temporary files in the OS temp folder.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { createRequire } from 'node:module';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { installSyncVfs, type SyncFileHandle, type SyncFileSystem } from '../shared/sync-vfs.ts';
import { VfsDotLock } from '../shared/vfs-lock.ts';
import { nodeLockPlatform } from './dot-lock.ts';

export const NODE_VFS_NAME = 'hci-node';

let cryptoModule: typeof import('node:crypto') | null = null;
/** node:crypto, loaded when SQLite first needs a temporary file (a search never does). */
const crypto = () => (cryptoModule ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto'));

function fdHandle(fd: number): SyncFileHandle {
  return {
    read: (dest, offset) => fs.readSync(fd, dest, 0, dest.length, offset),
    write: (src, offset) => fs.writeSync(fd, src, 0, src.length, offset),
    truncate: (size) => fs.ftruncateSync(fd, size),
    sync: (full) => (full ? fs.fsyncSync(fd) : fs.fdatasyncSync(fd)),
    size: () => fs.fstatSync(fd).size,
    close: () => fs.closeSync(fd),
  };
}

const nodeFileSystem: SyncFileSystem = {
  open(name, { create, exclusive, readwrite }) {
    let mode = readwrite ? fs.constants.O_RDWR : fs.constants.O_RDONLY;
    if (create) mode |= fs.constants.O_CREAT;
    if (exclusive) mode |= fs.constants.O_EXCL;
    return fdHandle(fs.openSync(name, mode, 0o644));
  },
  exists: (name) => fs.existsSync(name),
  remove(name) {
    try {
      fs.unlinkSync(name);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw e;
    }
  },
  existsNonEmpty(name) {
    // SQLite asks for the hot journal as every read transaction starts, and the answer is almost always
    // "none": no ENOENT thrown for it (an exception per transaction was ~4% of a 10-repository search's CPU).
    const st = fs.statSync(name, { throwIfNoEntry: false });
    return st !== undefined && (!st.isFile() || st.size > 0);
  },
  isWritable(name) {
    fs.accessSync(name, fs.constants.R_OK | fs.constants.W_OK);
    return true;
  },
  resolve: (name) => path.resolve(name),
  dirname: (name) => path.dirname(name),
  syncDir(dir) {
    let fd = -1;
    try {
      fd = fs.openSync(dir, 'r');
      fs.fsyncSync(fd);
    } catch {
      // Some file systems refuse fsync on directories; the data itself is already synced.
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
  },
  tempPath: () => path.join(os.tmpdir(), `hci-tmp-${crypto().randomBytes(8).toString('hex')}`),
  // Math.random (V8 seeds it per process from the OS's entropy) rather than node:crypto: SQLite asks
  // for its PRNG seed while opening every index, and loading node:crypto for it cost each CLI start
  // 7–25 ms. What SQLite derives from the seed needs to differ between processes, not to be secret.
  randomFill: (out) => {
    for (let i = 0; i < out.length; i++) out[i] = (Math.random() * 256) | 0;
  },
};

/** Installs the VFS into one loaded sqlite3 module (idempotent) and returns its name. */
export function installNodeVfs(sqlite3: Sqlite3Static): string {
  return installSyncVfs(sqlite3, NODE_VFS_NAME, nodeFileSystem, (lockPath) => new VfsDotLock(lockPath, nodeLockPlatform));
}
