// Intercom event logs on disk for Deno, the same contract and files as runtimes/node/intercom-log.ts:
// the `<log>.lock` dot-lock (one protocol for both runtimes, so their appenders exclude each other),
// the file opened for append (O_APPEND), the whole line in one write, then fdatasync. Path rules and
// the lock wait are runtimes/shared/intercom-log.ts. Permissions: read the log; an append also
// writes the log's folder (the lock files sit beside the log).
import * as path from 'node:path'; // pure path arithmetic only
import type { IntercomLogFile, IntercomLogOpener, LogStat } from '../../core/intercom/log.ts';
import {
  acquireAppendLock, appendBytes, checkLogPath, DEFAULT_APPEND_LOCK_MS, logMissing, realPathConfinement, type LogOpenerOptions, type RealPathOps,
} from '../shared/intercom-log.ts';
import { HciError } from '../../core/platform.ts';
import { deno, errorName, SEEK_START } from './deno-api.ts';
import { absolutePath } from './deno-storage.ts';
import { DotLock } from './dot-lock.ts';

export function createDenoLogOpener(opts: LogOpenerOptions = {}): IntercomLogOpener {
  const base = absolutePath(opts.base ?? '.');
  const roots = opts.roots?.map((r) => absolutePath(r));
  const sep = deno().build.os === 'windows' ? '\\' : '/';
  return (location: string) => {
    const file = checkLogPath(location, path.resolve(base, location), roots, sep);
    return denoLogFile(file, opts.lockTimeoutMs, realPathConfinement(location, file, roots, sep, realPaths));
  };
}

const realPaths: RealPathOps = {
  realpath(p) {
    try {
      return deno().realPathSync(p);
    } catch (e) {
      if (errorName(e) === 'NotFound' || errorName(e) === 'NotADirectory') return null;
      throw e;
    }
  },
  dirname: path.dirname, basename: path.basename, join: path.join,
};

/** Deno's "permission not granted" as an HciError that names the flag to add. */
function permissionError(e: unknown, file: string, what: 'read' | 'write'): unknown {
  if (errorName(e) !== 'NotCapable' && errorName(e) !== 'PermissionDenied') return e;
  const dir = path.dirname(file);
  return new HciError(
    'permission_needed',
    `hci under Deno cannot ${what} the intercom log ${file}: ${(e as Error).message}`,
    what === 'read' ? `grant --allow-read=${file}` : `grant --allow-write=${dir} (the log and its lock files beside it)`,
  );
}

const absent = (e: unknown) => errorName(e) === 'NotFound' || errorName(e) === 'NotADirectory' || errorName(e) === 'IsADirectory';

/** One log file; `confine` (the real-path check of the opener's roots) runs before every access. */
export function denoLogFile(file: string, lockTimeoutMs = DEFAULT_APPEND_LOCK_MS, confine: () => void = () => {}): IntercomLogFile {
  return {
    location: file,
    async stat(): Promise<LogStat | null> {
      confine();
      try {
        const st = await deno().stat(file);
        return st.isFile ? { size: st.size, mtimeMs: st.mtime ? st.mtime.getTime() : 0 } : null;
      } catch (e) {
        if (absent(e)) return null;
        throw permissionError(e, file, 'read');
      }
    },
    async read() {
      confine();
      try {
        return await deno().readFile(file);
      } catch (e) {
        if (absent(e)) return null;
        throw permissionError(e, file, 'read');
      }
    },
    async append(line: string) {
      confine();
      const D = deno();
      try {
        D.statSync(file);
      } catch (e) {
        if (absent(e)) throw logMissing(file);
        throw e;
      }
      const lock = new DotLock(`${file}.lock`);
      try {
        await acquireAppendLock(lock, file, lockTimeoutMs);
      } catch (e) {
        throw permissionError(e, file, 'write');
      }
      try {
        let size: number;
        let lastByte: number | null = null;
        const reader = D.openSync(file, { read: true });
        try {
          size = reader.statSync().size;
          if (size > 0) {
            const one = new Uint8Array(1);
            reader.seekSync(size - 1, SEEK_START);
            if (reader.readSync(one) === 1) lastByte = one[0];
          }
        } finally {
          reader.close();
        }
        const bytes = appendBytes(line, size, lastByte);
        let f;
        try {
          f = D.openSync(file, { append: true }); // never create
        } catch (e) {
          if (absent(e)) throw logMissing(file);
          throw permissionError(e, file, 'write');
        }
        try {
          // One write: with O_APPEND the kernel puts it at the end as a whole.
          let put = f.writeSync(bytes);
          while (put < bytes.length) put += f.writeSync(bytes.subarray(put));
          f.syncDataSync();
        } finally {
          f.close();
        }
      } finally {
        lock.dispose();
      }
    },
  };
}
