// A synchronous SQLite VFS over node:fs, so the WASM engine reads and writes a real index file.
// Owns file I/O, fsync (data and directory) and mapping SQLite's lock levels onto the cross-process
// DotLock. Like SQLite's own unix-dotfile VFS, every lock level above NONE is exclusive: readers and
// writers take the same lock, per transaction, and a blocked caller gets SQLITE_BUSY at once (the
// store retries asynchronously). Journaling is rollback (no WAL, so no shared memory is needed).
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import { randomFillSync, randomBytes } from 'node:crypto';
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { DotLock } from './dot-lock.ts';

export const NODE_VFS_NAME = 'hci-node';

interface OpenFile {
  fd: number;
  path: string;
  flags: number;
  lockLevel: number;
  lock: DotLock | null;
  syncDirOnFirstSync: boolean;
}

const installed = new WeakMap<object, string>();
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

/** Installs the VFS into one loaded sqlite3 module (idempotent) and returns its name. */
export function installNodeVfs(sqlite3: Sqlite3Static): string {
  const done = installed.get(sqlite3);
  if (done) return done;
  const { capi, wasm } = sqlite3;
  const files = new Map<number, OpenFile>();
  let lastError: Error | null = null;

  const cstr = (p: number): string => sqlite3.wasm.cstrToJs(p) ?? '';
  const fail = (e: unknown, rc: number): number => {
    lastError = e instanceof Error ? e : new Error(String(e));
    return rc;
  };
  const fsyncDir = (dir: string) => {
    let fd = -1;
    try {
      fd = fs.openSync(dir, 'r');
      fs.fsyncSync(fd);
    } catch {
      // Some file systems refuse fsync on directories; the data itself is already synced.
    } finally {
      if (fd >= 0) fs.closeSync(fd);
    }
  };

  const io = new capi.sqlite3_io_methods();
  (io as unknown as { $iVersion: number }).$iVersion = 1;
  const ioMethods = {
    xClose(pFile: number): number {
      const f = files.get(pFile);
      if (!f) return 0;
      files.delete(pFile);
      try {
        f.lock?.release();
        fs.closeSync(f.fd);
        if (f.flags & capi.SQLITE_OPEN_DELETEONCLOSE) fs.rmSync(f.path, { force: true });
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_CLOSE);
      }
    },
    xRead(pFile: number, pDest: number, n: number, offset: bigint | number): number {
      const f = files.get(pFile)!;
      try {
        const dest = wasm.heap8u().subarray(Number(pDest), Number(pDest) + n);
        let got = 0;
        while (got < n) {
          const r = fs.readSync(f.fd, dest, got, n - got, Number(offset) + got);
          if (r === 0) break;
          got += r;
        }
        if (got < n) {
          dest.fill(0, got);
          return capi.SQLITE_IOERR_SHORT_READ;
        }
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_READ);
      }
    },
    xWrite(pFile: number, pSrc: number, n: number, offset: bigint | number): number {
      const f = files.get(pFile)!;
      try {
        const src = wasm.heap8u().subarray(Number(pSrc), Number(pSrc) + n);
        let put = 0;
        while (put < n) put += fs.writeSync(f.fd, src, put, n - put, Number(offset) + put);
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_WRITE);
      }
    },
    xTruncate(pFile: number, size: bigint | number): number {
      try {
        fs.ftruncateSync(files.get(pFile)!.fd, Number(size));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_TRUNCATE);
      }
    },
    xSync(pFile: number, flags: number): number {
      const f = files.get(pFile)!;
      try {
        if ((flags & 0x0f) === capi.SQLITE_SYNC_FULL) fs.fsyncSync(f.fd);
        else fs.fdatasyncSync(f.fd);
        if (f.syncDirOnFirstSync) {
          f.syncDirOnFirstSync = false;
          fsyncDir(path.dirname(f.path));
        }
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_FSYNC);
      }
    },
    xFileSize(pFile: number, pSize: number): number {
      try {
        wasm.poke64(pSize, BigInt(fs.fstatSync(files.get(pFile)!.fd).size));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_FSTAT);
      }
    },
    xLock(pFile: number, level: number): number {
      const f = files.get(pFile)!;
      if (f.lock && f.lockLevel === capi.SQLITE_LOCK_NONE && level > capi.SQLITE_LOCK_NONE) {
        try {
          if (!f.lock.tryAcquire()) return capi.SQLITE_BUSY;
        } catch (e) {
          return fail(e, capi.SQLITE_IOERR_LOCK);
        }
      }
      if (level > f.lockLevel) f.lockLevel = level;
      return 0;
    },
    xUnlock(pFile: number, level: number): number {
      const f = files.get(pFile)!;
      if (level < f.lockLevel) f.lockLevel = level;
      if (f.lock && level === capi.SQLITE_LOCK_NONE) {
        try {
          f.lock.release();
        } catch (e) {
          return fail(e, capi.SQLITE_IOERR_UNLOCK);
        }
      }
      return 0;
    },
    xCheckReservedLock(pFile: number, pOut: number): number {
      // Our lock is exclusive: while we hold any level, nobody else can hold RESERVED.
      const f = files.get(pFile)!;
      let reserved = f.lockLevel > capi.SQLITE_LOCK_SHARED;
      if (f.lock && f.lockLevel === capi.SQLITE_LOCK_NONE) reserved = f.lock.holder() !== null;
      wasm.poke32(pOut, reserved ? 1 : 0);
      return 0;
    },
    xFileControl(): number {
      return capi.SQLITE_NOTFOUND;
    },
    xSectorSize(): number {
      return 4096;
    },
    xDeviceCharacteristics(): number {
      return 0;
    },
  };
  sqlite3.vfs.installVfs({ io: { struct: io, methods: ioMethods as never } });

  const vfs = new capi.sqlite3_vfs();
  vfs.$iVersion = 2;
  vfs.$szOsFile = (capi.sqlite3_file as unknown as { structInfo: { sizeof: number } }).structInfo.sizeof;
  vfs.$mxPathname = 1024;
  const vfsMethods = {
    xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
      try {
        const name = zName ? cstr(zName) : path.join(os.tmpdir(), `hci-tmp-${randomBytes(8).toString('hex')}`);
        if (!zName) flags |= capi.SQLITE_OPEN_DELETEONCLOSE;
        let mode = flags & capi.SQLITE_OPEN_READWRITE ? fs.constants.O_RDWR : fs.constants.O_RDONLY;
        if (flags & capi.SQLITE_OPEN_CREATE) mode |= fs.constants.O_CREAT;
        if (flags & capi.SQLITE_OPEN_EXCLUSIVE) mode |= fs.constants.O_EXCL;
        const existed = fs.existsSync(name);
        const fd = fs.openSync(name, mode, 0o644);
        const isMain = (flags & capi.SQLITE_OPEN_MAIN_DB) !== 0;
        files.set(pFile, {
          fd,
          path: name,
          flags,
          lockLevel: capi.SQLITE_LOCK_NONE,
          lock: isMain ? new DotLock(`${name}.lock`) : null,
          syncDirOnFirstSync: !existed,
        });
        const f = new capi.sqlite3_file(pFile);
        f.$pMethods = io.pointer;
        f.dispose();
        if (pOutFlags) wasm.poke32(pOutFlags, flags);
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_CANTOPEN);
      }
    },
    xDelete(_pVfs: number, zName: number, syncDir: number): number {
      const name = cstr(zName);
      try {
        fs.unlinkSync(name);
        if (syncDir) fsyncDir(path.dirname(name));
        return 0;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return capi.SQLITE_IOERR_DELETE_NOENT;
        return fail(e, capi.SQLITE_IOERR_DELETE);
      }
    },
    xAccess(_pVfs: number, zName: number, flags: number, pOut: number): number {
      const name = cstr(zName);
      let ok = false;
      try {
        if (flags === capi.SQLITE_ACCESS_EXISTS) {
          // As in SQLite's unix VFS: an empty regular file (a truncated journal) does not count.
          const st = fs.statSync(name);
          ok = !st.isFile() || st.size > 0;
        } else {
          fs.accessSync(name, fs.constants.R_OK | fs.constants.W_OK);
          ok = true;
        }
      } catch {
        ok = false;
      }
      wasm.poke32(pOut, ok ? 1 : 0);
      return 0;
    },
    xFullPathname(_pVfs: number, zName: number, nOut: number, pOut: number): number {
      const full = new TextEncoder().encode(path.resolve(cstr(zName)));
      if (full.length >= nOut) return capi.SQLITE_CANTOPEN;
      const heap = wasm.heap8u();
      heap.set(full, Number(pOut));
      heap[Number(pOut) + full.length] = 0;
      return 0;
    },
    xRandomness(_pVfs: number, n: number, pOut: number): number {
      randomFillSync(wasm.heap8u().subarray(Number(pOut), Number(pOut) + n));
      return n;
    },
    xSleep(_pVfs: number, micros: number): number {
      Atomics.wait(sleepCell, 0, 0, Math.max(1, Math.round(micros / 1000)));
      return micros;
    },
    xCurrentTime(_pVfs: number, pOut: number): number {
      wasm.poke(pOut, 2440587.5 + Date.now() / 864e5, 'double');
      return 0;
    },
    xCurrentTimeInt64(_pVfs: number, pOut: number): number {
      wasm.poke64(pOut, BigInt(210866760000000 + Date.now()));
      return 0;
    },
    xGetLastError(_pVfs: number, nOut: number, pOut: number): number {
      if (lastError && nOut > 0) {
        const bytes = new TextEncoder().encode(lastError.message).subarray(0, nOut - 1);
        wasm.heap8u().set(bytes, Number(pOut));
        wasm.heap8u()[Number(pOut) + bytes.length] = 0;
      }
      return 0;
    },
  };
  sqlite3.vfs.installVfs({ vfs: { struct: vfs, methods: vfsMethods as never, name: NODE_VFS_NAME } });
  installed.set(sqlite3, NODE_VFS_NAME);
  return NODE_VFS_NAME;
}
