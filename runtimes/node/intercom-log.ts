// Intercom event logs on disk for Node: stat and read a log, and append one line the way the log's
// contract asks — a cross-process dot-lock (`<log>.lock`, the index's protocol, so Node and Deno
// appenders exclude each other), the file opened with O_APPEND, the whole line in one write, then
// fdatasync. Path rules and the lock wait are runtimes/shared/intercom-log.ts; what a line means
// belongs to core/intercom.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IntercomLogFile, IntercomLogOpener, LogStat } from '../../core/intercom/log.ts';
import {
  acquireAppendLock, appendBytes, checkLogPath, DEFAULT_APPEND_LOCK_MS, logMissing, realPathConfinement, type LogOpenerOptions, type RealPathOps,
} from '../shared/intercom-log.ts';
import { DotLock } from './dot-lock.ts';

export type { LogOpenerOptions };

export function createNodeLogOpener(opts: LogOpenerOptions = {}): IntercomLogOpener {
  const base = path.resolve(opts.base ?? '.');
  const roots = opts.roots?.map((r) => path.resolve(r));
  return (location: string) => {
    const file = checkLogPath(location, path.resolve(base, location), roots, path.sep);
    return nodeLogFile(file, opts.lockTimeoutMs, realPathConfinement(location, file, roots, path.sep, realPaths));
  };
}

const code = (e: unknown) => (e as NodeJS.ErrnoException).code;
const absent = (e: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(code(e) ?? '');

const realPaths: RealPathOps = {
  realpath(p) {
    try {
      return fs.realpathSync(p);
    } catch (e) {
      if (code(e) === 'ENOENT' || code(e) === 'ENOTDIR') return null;
      throw e;
    }
  },
  dirname: path.dirname, basename: path.basename, join: path.join,
};

/** One log file; `confine` (the real-path check of the opener's roots) runs before every access. */
export function nodeLogFile(file: string, lockTimeoutMs = DEFAULT_APPEND_LOCK_MS, confine: () => void = () => {}): IntercomLogFile {
  return {
    location: file,
    async stat(): Promise<LogStat | null> {
      confine();
      try {
        // Synchronous: a stat is a few microseconds, a trip through libuv's thread pool can be milliseconds on a busy machine.
        const st = fs.statSync(file);
        return st.isFile() ? { size: st.size, mtimeMs: Math.trunc(st.mtimeMs) } : null;
      } catch (e) {
        if (absent(e)) return null;
        throw e;
      }
    },
    async read() {
      confine();
      try {
        return new Uint8Array(await fs.promises.readFile(file));
      } catch (e) {
        if (absent(e)) return null;
        throw e;
      }
    },
    async append(line: string) {
      confine();
      if (!fs.existsSync(file)) throw logMissing(file);
      const lock = new DotLock(`${file}.lock`);
      await acquireAppendLock(lock, file, lockTimeoutMs);
      let fd = -1;
      try {
        try {
          fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND); // never O_CREAT
        } catch (e) {
          if (absent(e)) throw logMissing(file);
          throw e;
        }
        const size = fs.fstatSync(fd).size;
        const last = new Uint8Array(1);
        const bytes = appendBytes(line, size, size > 0 && fs.readSync(fd, last, 0, 1, size - 1) === 1 ? last[0] : null);
        // One write: with O_APPEND the kernel puts it at the end as a whole.
        let put = fs.writeSync(fd, bytes, 0, bytes.length);
        while (put < bytes.length) put += fs.writeSync(fd, bytes, put, bytes.length - put);
        fs.fdatasyncSync(fd);
      } finally {
        if (fd >= 0) fs.closeSync(fd);
        lock.dispose();
      }
    },
  };
}
