// A synchronous SQLite VFS over any runtime's synchronous file API, so the WASM engine reads and
// writes a real index file. Written once for Node (runtimes/node/node-vfs.ts) and Deno
// (runtimes/deno/deno-vfs.ts), which supply a SyncFileSystem and a lock factory. Owns the io and vfs
// methods: reads and writes (short reads zero-filled), fsync of data and, on a new file, of its
// folder, and handing SQLite's lock levels to a cross-process lock (runtimes/shared/vfs-lock.ts:
// readers share, a committing writer excludes them); a blocked caller gets SQLITE_BUSY at once (the
// store retries asynchronously). Journaling is rollback (no WAL, so no shared memory is needed). Leaves every
// file system call, path operation and random source to the runtime's adapter: imports no node:*
// module and touches no Deno global.
import type { Sqlite3Static } from '@sqlite.org/sqlite-wasm';

export interface SyncFileHandle {
  /** Reads into `dest` from `offset`; returns the bytes read (0 at end of file). */
  read(dest: Uint8Array, offset: number): number;
  /** Writes from `src` at `offset`; returns the bytes written. */
  write(src: Uint8Array, offset: number): number;
  truncate(size: number): void;
  /** full: data and metadata (fsync); otherwise data only (fdatasync). */
  sync(full: boolean): void;
  size(): number;
  close(): void;
}

export interface SyncFileSystem {
  open(path: string, opts: { create: boolean; exclusive: boolean; readwrite: boolean }): SyncFileHandle;
  exists(path: string): boolean;
  /** Removes a file; false when it did not exist, throws on any other failure. */
  remove(path: string): boolean;
  /** Exists, and is not an empty regular file (SQLite's notion of a journal that exists). */
  existsNonEmpty(path: string): boolean;
  /** Readable and writable (xAccess READWRITE). */
  isWritable(path: string): boolean;
  /** The absolute form of a path. */
  resolve(path: string): string;
  dirname(path: string): string;
  /** fsync of a folder, best effort (never throws). */
  syncDir(dir: string): void;
  /** A fresh path for a nameless temporary file; `mainPath` is the last main database opened. */
  tempPath(mainPath: string | null): string;
  /**
   * Bytes for SQLite's xRandomness: the 44-byte seed of its own ChaCha20 PRNG (temp-file names,
   * journal nonces, random()); none of them is a secret in hci.
   */
  randomFill(out: Uint8Array): void;
}

/** The cross-process lock the VFS maps SQLite's lock levels onto (one per main database): runtimes/shared/vfs-lock.ts. */
export interface VfsLock {
  /** Raises the hold from `from` towards `to` (SQLite's levels); returns the level held now (less than `to`: busy). */
  lock(from: number, to: number): number;
  /** Lowers the hold to `to` (SHARED or NONE). */
  unlock(to: number): void;
  /** Whether another connection holds RESERVED or more (SQLite's hot-journal test). */
  reservedElsewhere(): boolean;
  /** Called when the database file closes: release, and drop any files the lock keeps. */
  dispose(): void;
}

interface OpenFile {
  file: SyncFileHandle;
  path: string;
  flags: number;
  lockLevel: number;
  lock: VfsLock | null;
  syncDirOnFirstSync: boolean;
}

const installed = new WeakMap<object, Set<string>>();
/** What xSleep waits on: made on the first sleep (a browser Worker without cross-origin isolation has no SharedArrayBuffer, and a read-only remote index never sleeps). */
let sleepCell: Int32Array | null = null;

/** Installs the VFS under `name` into one loaded sqlite3 module (idempotent) and returns the name. */
export function installSyncVfs(
  sqlite3: Sqlite3Static,
  name: string,
  fs: SyncFileSystem,
  lockFor: (lockPath: string) => VfsLock,
  opts: { asDefault?: boolean } = {},
): string {
  const names = installed.get(sqlite3) ?? new Set<string>();
  installed.set(sqlite3, names);
  if (names.has(name)) return name;
  const { capi, wasm } = sqlite3;
  const files = new Map<number, OpenFile>();
  let lastError: Error | null = null;
  /** The last main database opened (some runtimes put temporary files beside it). */
  let lastMain: string | null = null;

  const cstr = (p: number): string => sqlite3.wasm.cstrToJs(p) ?? '';
  const fail = (e: unknown, rc: number): number => {
    lastError = e instanceof Error ? e : new Error(String(e));
    return rc;
  };

  const io = new capi.sqlite3_io_methods();
  (io as unknown as { $iVersion: number }).$iVersion = 1;
  const ioMethods = {
    xClose(pFile: number): number {
      const f = files.get(pFile);
      if (!f) return 0;
      files.delete(pFile);
      try {
        f.lock?.dispose();
        f.file.close();
        if (f.flags & capi.SQLITE_OPEN_DELETEONCLOSE) fs.remove(f.path);
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
          const r = f.file.read(dest.subarray(got), Number(offset) + got);
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
        while (put < n) put += f.file.write(src.subarray(put), Number(offset) + put);
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_WRITE);
      }
    },
    xTruncate(pFile: number, size: bigint | number): number {
      try {
        files.get(pFile)!.file.truncate(Number(size));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_TRUNCATE);
      }
    },
    xSync(pFile: number, flags: number): number {
      const f = files.get(pFile)!;
      try {
        f.file.sync((flags & 0x0f) === capi.SQLITE_SYNC_FULL);
        if (f.syncDirOnFirstSync) {
          f.syncDirOnFirstSync = false;
          fs.syncDir(fs.dirname(f.path));
        }
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_FSYNC);
      }
    },
    xFileSize(pFile: number, pSize: number): number {
      try {
        wasm.poke64(pSize, BigInt(files.get(pFile)!.file.size()));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_FSTAT);
      }
    },
    xLock(pFile: number, level: number): number {
      const f = files.get(pFile)!;
      if (level <= f.lockLevel) return 0;
      if (!f.lock) {
        f.lockLevel = level;
        return 0;
      }
      try {
        f.lockLevel = f.lock.lock(f.lockLevel, level);
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_LOCK);
      }
      return f.lockLevel >= level ? 0 : capi.SQLITE_BUSY;
    },
    xUnlock(pFile: number, level: number): number {
      const f = files.get(pFile)!;
      if (level >= f.lockLevel) return 0;
      f.lockLevel = level;
      try {
        f.lock?.unlock(level);
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_UNLOCK);
      }
      return 0;
    },
    xCheckReservedLock(pFile: number, pOut: number): number {
      const f = files.get(pFile)!;
      let reserved = f.lockLevel >= capi.SQLITE_LOCK_RESERVED;
      try {
        if (!reserved && f.lock) reserved = f.lock.reservedElsewhere();
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_CHECKRESERVEDLOCK);
      }
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
        const path = zName ? cstr(zName) : fs.tempPath(lastMain);
        if (!zName) flags |= capi.SQLITE_OPEN_DELETEONCLOSE;
        const isMain = (flags & capi.SQLITE_OPEN_MAIN_DB) !== 0;
        const existed = fs.exists(path);
        const file = fs.open(path, {
          readwrite: (flags & capi.SQLITE_OPEN_READWRITE) !== 0,
          create: (flags & capi.SQLITE_OPEN_CREATE) !== 0,
          exclusive: (flags & capi.SQLITE_OPEN_EXCLUSIVE) !== 0,
        });
        if (isMain) lastMain = path;
        files.set(pFile, {
          file,
          path,
          flags,
          lockLevel: capi.SQLITE_LOCK_NONE,
          lock: isMain ? lockFor(`${path}.lock`) : null,
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
      const path = cstr(zName);
      try {
        if (!fs.remove(path)) return capi.SQLITE_IOERR_DELETE_NOENT;
        if (syncDir) fs.syncDir(fs.dirname(path));
        return 0;
      } catch (e) {
        return fail(e, capi.SQLITE_IOERR_DELETE);
      }
    },
    xAccess(_pVfs: number, zName: number, flags: number, pOut: number): number {
      const path = cstr(zName);
      let ok = false;
      try {
        // As in SQLite's unix VFS: an empty regular file (a truncated journal) does not count.
        ok = flags === capi.SQLITE_ACCESS_EXISTS ? fs.existsNonEmpty(path) : fs.isWritable(path);
      } catch {
        ok = false;
      }
      wasm.poke32(pOut, ok ? 1 : 0);
      return 0;
    },
    xFullPathname(_pVfs: number, zName: number, nOut: number, pOut: number): number {
      const full = new TextEncoder().encode(fs.resolve(cstr(zName)));
      if (full.length >= nOut) return capi.SQLITE_CANTOPEN;
      const heap = wasm.heap8u();
      heap.set(full, Number(pOut));
      heap[Number(pOut) + full.length] = 0;
      return 0;
    },
    xRandomness(_pVfs: number, n: number, pOut: number): number {
      fs.randomFill(wasm.heap8u().subarray(Number(pOut), Number(pOut) + n));
      return n;
    },
    xSleep(_pVfs: number, micros: number): number {
      const ms = Math.max(1, Math.round(micros / 1000));
      if (typeof SharedArrayBuffer === 'function') Atomics.wait((sleepCell ??= new Int32Array(new SharedArrayBuffer(4))), 0, 0, ms);
      else for (const until = Date.now() + ms; Date.now() < until;);
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
  // Registered as the default VFS (unless opts.asDefault is false: the read-only hci-http VFS): SQLite seeds its PRNG once, inside the first sqlite3_open_v2,
  // from the *default* VFS's xRandomness — in the WASM build that is Emscripten's unix VFS reading
  // its /dev/urandom, which under Node loads node:crypto (7–25 ms of every CLI start). As the default,
  // this VFS answers through the adapter's randomFill instead. hci opens every file-backed database
  // with this VFS by name anyway; `:memory:` databases use no VFS file.
  sqlite3.vfs.installVfs({ vfs: { struct: vfs, methods: vfsMethods as never, name, asDefault: opts.asDefault ?? true } });
  names.add(name);
  return name;
}
