// A synchronous SQLite VFS over Deno's file API (Deno.FsFile), so the WASM engine under Deno reads and
// writes the same real index file as Node's hci-node VFS, with the same guarantees: rollback journal
// (no WAL, so no shared memory), fsync of data and, on a new file, of its folder, and SQLite's lock
// levels mapped onto the cross-process dot-file locks (runtimes/shared/vfs-lock.ts over dot-lock.ts,
// the same protocol as Node's: readers share, a committing writer excludes them); a blocked caller
// gets SQLITE_BUSY at once (the core's store retries asynchronously, up to lock_timeout_ms). The VFS
// logic itself is runtimes/shared/sync-vfs.ts, written once for both runtimes; this module supplies
// it with Deno's file API.
//
// Deno's own API rather than node:fs compatibility: the locks had to be Deno-aware anyway (see
// dot-lock.ts), and Deno's errors say which permission is missing. Temporary files (rare:
// temp_store is MEMORY) go beside the index in `.hci/`, the only folder hci may write.
import * as path from 'node:path'; // pure path arithmetic only (no I/O, no permissions)
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { installSyncVfs, type SyncFileHandle, type SyncFileSystem } from '../shared/sync-vfs.ts';
import { deno, errorName, SEEK_START, type DenoFsFile } from './deno-api.ts';
import { VfsDotLock } from '../shared/vfs-lock.ts';
import { denoLockPlatform } from './dot-lock.ts';

export const DENO_VFS_NAME = 'hci-deno';

function randomHex(n: number): string {
  let s = '';
  for (const x of crypto.getRandomValues(new Uint8Array(n))) s += x.toString(16).padStart(2, '0');
  return s;
}

function fileHandle(file: DenoFsFile): SyncFileHandle {
  return {
    read(dest, offset) {
      file.seekSync(offset, SEEK_START);
      return file.readSync(dest) ?? 0;
    },
    write(src, offset) {
      file.seekSync(offset, SEEK_START);
      return file.writeSync(src);
    },
    truncate: (size) => file.truncateSync(size),
    sync: (full) => (full ? file.syncSync() : file.syncDataSync()),
    size: () => file.statSync().size,
    close: () => file.close(),
  };
}

const denoFileSystem: SyncFileSystem = {
  open(name, { create, exclusive, readwrite }) {
    return fileHandle(
      deno().openSync(name, { read: true, write: readwrite, create: readwrite && create, createNew: readwrite && exclusive, mode: 0o644 }),
    );
  },
  exists(name) {
    try {
      deno().lstatSync(name);
      return true;
    } catch {
      return false;
    }
  },
  remove(name) {
    try {
      deno().removeSync(name);
      return true;
    } catch (e) {
      if (errorName(e) === 'NotFound') return false;
      throw e;
    }
  },
  existsNonEmpty(name) {
    const st = deno().statSync(name);
    return !st.isFile || st.size > 0;
  },
  isWritable(name) {
    // Deno has no access(2): for the read/write check, existing is taken as accessible.
    deno().statSync(name);
    return true;
  },
  resolve: (name) => (path.isAbsolute(name) ? path.normalize(name) : path.join(deno().cwd(), name)),
  dirname: (name) => path.dirname(name),
  syncDir(dir) {
    let f: DenoFsFile | null = null;
    try {
      f = deno().openSync(dir, { read: true });
      f.syncSync();
    } catch {
      // Some platforms refuse fsync on folders; the data itself is already synced.
    } finally {
      f?.close();
    }
  },
  tempPath(mainPath) {
    // Beside the last main database opened: the only folder hci may write.
    if (!mainPath) throw new Error('no folder for a temporary file yet');
    return path.join(path.dirname(mainPath), `hci-tmp-${randomHex(8)}`);
  },
  randomFill(out) {
    for (let i = 0; i < out.length; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(out.length, i + 65536)));
  },
};

/** Installs the VFS into one loaded sqlite3 module (idempotent) and returns its name. */
export function installDenoVfs(sqlite3: Sqlite3Static): string {
  return installSyncVfs(sqlite3, DENO_VFS_NAME, denoFileSystem, (lockPath) => new VfsDotLock(lockPath, denoLockPlatform));
}
