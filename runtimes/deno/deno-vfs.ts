// A synchronous SQLite VFS over Deno's file API (Deno.FsFile), so the WASM engine under Deno reads and
// writes the same real index file as Node's hci-node VFS, with the same guarantees: rollback journal
// (no WAL, so no shared memory), fsync of data and, on a new file, of its folder, and SQLite's lock
// levels mapped onto the cross-process dot-lock (dot-lock.ts, the same protocol as Node's). As in
// SQLite's unix-dotfile VFS, every level above NONE is exclusive and a blocked caller gets
// SQLITE_BUSY at once (the core's store retries asynchronously, up to lock_timeout_ms).
//
// Deno's own API rather than node:fs compatibility: the locks had to be Deno-aware anyway (see
// dot-lock.ts), and Deno's errors say which permission is missing. Temporary files (rare:
// temp_store is MEMORY) go beside the index in `.hci/`, the only folder hci may write.
import * as path from 'node:path'; // pure path arithmetic only (no I/O, no permissions)
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { deno, errorName, SEEK_START, type DenoFsFile } from './deno-api.ts';
import { DotLock } from './dot-lock.ts';

export const DENO_VFS_NAME = 'hci-deno';

interface OpenFile {
  file: DenoFsFile;
  path: string;
  flags: number;
  lockLevel: number;
  lock: DotLock | null;
  syncDirOnFirstSync: boolean;
}

const installed = new WeakMap<object, string>();
const sleepCell = new Int32Array(new SharedArrayBuffer(4));

function randomHex(n: number): string {
  let s = '';
  for (const x of crypto.getRandomValues(new Uint8Array(n))) s += x.toString(16).padStart(2, '0');
  return s;
}

/** Installs the VFS into one loaded sqlite3 module (idempotent) and returns its name. */
export function installDenoVfs(sqlite3: Sqlite3Static): string {
  const done = installed.get(sqlite3);
  if (done) return done;
  const D = deno();
  const { capi, wasm } = sqlite3;
  const files = new Map<number, OpenFile>();
  let lastError: Error | null = null;
  /** Where nameless temp files go: the folder of the last main database opened. */
  let tempDir: string | null = null;

  const cstr = (p: number): string => sqlite3.wasm.cstrToJs(p) ?? '';
  const fail = (e: unknown, rc: number): number => {
    lastError = e instanceof Error ? e : new Error(String(e));
    return rc;
  };
  const fsyncDir = (dir: string) => {
    let f: DenoFsFile | null = null;
    try {
      f = D.openSync(dir, { read: true });
      f.syncSync();
    } catch {
      // Some platforms refuse fsync on folders; the data itself is already synced.
    } finally {
      f?.close();
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
        f.file.close();
        if (f.flags & capi.SQLITE_OPEN_DELETEONCLOSE) {
          try {
            D.removeSync(f.path);
          } catch {
            // already gone
          }
        }
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_CLOSE);
      }
    },
    xRead(pFile: number, pDest: number, n: number, offset: bigint | number): number {
      const f = files.get(pFile)!;
      try {
        const dest = wasm.heap8u().subarray(Number(pDest), Number(pDest) + n);
        f.file.seekSync(Number(offset), SEEK_START);
        let got = 0;
        while (got < n) {
          const r = f.file.readSync(dest.subarray(got));
          if (r === null || r === 0) break;
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
        f.file.seekSync(Number(offset), SEEK_START);
        let put = 0;
        while (put < n) put += f.file.writeSync(src.subarray(put));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_WRITE);
      }
    },
    xTruncate(pFile: number, size: bigint | number): number {
      try {
        files.get(pFile)!.file.truncateSync(Number(size));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_TRUNCATE);
      }
    },
    xSync(pFile: number, flags: number): number {
      const f = files.get(pFile)!;
      try {
        if ((flags & 0x0f) === capi.SQLITE_SYNC_FULL) f.file.syncSync();
        else f.file.syncDataSync();
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
        wasm.poke64(pSize, BigInt(files.get(pFile)!.file.statSync().size));
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
  const absolute = (name: string) => (path.isAbsolute(name) ? path.normalize(name) : path.join(D.cwd(), name));
  const vfsMethods = {
    xOpen(_pVfs: number, zName: number, pFile: number, flags: number, pOutFlags: number): number {
      try {
        let name: string;
        if (zName) name = cstr(zName);
        else {
          if (!tempDir) throw new Error('no folder for a temporary file yet');
          name = path.join(tempDir, `hci-tmp-${randomHex(8)}`);
          flags |= capi.SQLITE_OPEN_DELETEONCLOSE;
        }
        const isMain = (flags & capi.SQLITE_OPEN_MAIN_DB) !== 0;
        const write = (flags & capi.SQLITE_OPEN_READWRITE) !== 0;
        let existed = true;
        try {
          D.lstatSync(name);
        } catch {
          existed = false;
        }
        const file = D.openSync(name, {
          read: true,
          write,
          create: write && (flags & capi.SQLITE_OPEN_CREATE) !== 0,
          createNew: write && (flags & capi.SQLITE_OPEN_EXCLUSIVE) !== 0,
          mode: 0o644,
        });
        if (isMain) tempDir = path.dirname(name);
        files.set(pFile, {
          file,
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
        D.removeSync(name);
        if (syncDir) fsyncDir(path.dirname(name));
        return 0;
      } catch (e) {
        if (errorName(e) === 'NotFound') return capi.SQLITE_IOERR_DELETE_NOENT;
        return fail(e, capi.SQLITE_IOERR_DELETE);
      }
    },
    xAccess(_pVfs: number, zName: number, flags: number, pOut: number): number {
      let ok = false;
      try {
        const st = D.statSync(cstr(zName));
        // As in SQLite's unix VFS: an empty regular file (a truncated journal) does not exist.
        // Deno has no access(2): for the read/write check, existing is taken as accessible.
        ok = flags === capi.SQLITE_ACCESS_EXISTS ? !st.isFile || st.size > 0 : true;
      } catch {
        ok = false;
      }
      wasm.poke32(pOut, ok ? 1 : 0);
      return 0;
    },
    xFullPathname(_pVfs: number, zName: number, nOut: number, pOut: number): number {
      const full = new TextEncoder().encode(absolute(cstr(zName)));
      if (full.length >= nOut) return capi.SQLITE_CANTOPEN;
      const heap = wasm.heap8u();
      heap.set(full, Number(pOut));
      heap[Number(pOut) + full.length] = 0;
      return 0;
    },
    xRandomness(_pVfs: number, n: number, pOut: number): number {
      const out = wasm.heap8u().subarray(Number(pOut), Number(pOut) + n);
      for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
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
  sqlite3.vfs.installVfs({ vfs: { struct: vfs, methods: vfsMethods as never, name: DENO_VFS_NAME } });
  installed.set(sqlite3, DENO_VFS_NAME);
  return DENO_VFS_NAME;
}
