// Index storage on disk for Deno: `<workspace>/.hci/index.sqlite` through the hci-deno VFS, the
// indexer claim as a dot-lock beside it, and small sidecar files: the same files, names and lock
// protocol as Node's node-storage.ts, so both runtimes share one index. Writes only inside `.hci/`.
import * as path from 'node:path'; // pure path arithmetic only
import type { IndexStorage } from '../../core/index/storage.ts';
import type { Database, SqliteEngine } from '../../core/sqlite/engine.ts';
import { deno, errorName, type DenoFileInfo } from './deno-api.ts';
import { DotLock, denoLockPlatform, hostName, pidAlive } from './dot-lock.ts';
import { HciError } from '../../core/platform.ts';
import { installDenoVfs } from './deno-vfs.ts';
import { checkIndexPath, type PathKind } from '../shared/index-path.ts';

export const INDEX_DIR = '.hci';
export const INDEX_FILE = 'index.sqlite';

/** An absolute, normalised path (relative ones are taken from the current folder). */
export function absolutePath(p: string): string {
  return path.isAbsolute(p) ? path.normalize(p) : path.join(deno().cwd(), p);
}

function removeForce(p: string): void {
  try {
    deno().removeSync(p);
  } catch (e) {
    if (errorName(e) !== 'NotFound') throw e;
  }
}

/** Turns Deno's "permission not granted" into an HciError that names the flag to add. */
function permissionGuard<T>(dir: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (errorName(e) === 'NotCapable' || errorName(e) === 'PermissionDenied') {
      throw new HciError(
        'permission_needed',
        `hci under Deno cannot use ${dir}: ${(e as Error).message}`,
        `grant --allow-read for the workspace and hci's node_modules, --allow-write=${dir} (hci writes nothing else) and --allow-sys=hostname`,
      );
    }
    throw e;
  }
}

function kindAt(p: string): PathKind {
  let st: DenoFileInfo;
  try {
    st = deno().lstatSync(p);
  } catch {
    return null;
  }
  if (st.isFile) return 'file';
  if (st.isDirectory) return 'directory';
  if (st.isSymlink) return 'symbolic link';
  if (st.isFifo) return 'FIFO';
  if (st.isSocket) return 'socket';
  return st.isBlockDevice || st.isCharDevice ? 'device' : 'special file';
}

/**
 * The index (`fileName` omitted) or another database beside it in `.hci/` (e.g. the intercom sidecar,
 * `intercom-message-code.sqlite`): same folder, VFS and lock rules; its own indexer claim file.
 */
export function createDenoIndexStorage(workspaceRoot: string, fileName: string = INDEX_FILE): IndexStorage {
  const dir = path.join(absolutePath(workspaceRoot), INDEX_DIR);
  const file = path.join(dir, fileName);
  const indexer = new DotLock(path.join(dir, fileName === INDEX_FILE ? 'indexer.lock' : `${fileName}.indexer.lock`));
  const mkdir = () => permissionGuard(dir, () => deno().mkdirSync(dir, { recursive: true }));
  /** The index file, its journal and its lock must each be absent or a regular file. */
  const checkPaths = () => {
    for (const p of [file, `${file}-journal`, `${file}.lock`]) checkIndexPath(p, kindAt(p));
  };
  return {
    location: file,
    // The index itself (not a sidecar) may be built cold without syncs (core/index/cold-build.ts) where Linux names the boot.
    ...(fileName === INDEX_FILE ? { bootId: () => denoLockPlatform.bootId() } : {}),
    async exists() {
      checkPaths();
      try {
        return deno().statSync(file).size > 0;
      } catch {
        return false;
      }
    },
    open(engine: SqliteEngine): Database {
      hostName(); // fails early, with the flag to add, when --allow-sys=hostname is missing
      mkdir();
      checkPaths();
      const vfs = installDenoVfs(engine.sqlite3);
      return new engine.sqlite3.oo1.DB({ filename: file, flags: 'c', vfs }) as Database;
    },
    async remove() {
      for (const f of [file, `${file}-journal`]) removeForce(f);
    },
    async moveAside() {
      const aside = `${file}.damaged`;
      for (const f of [aside, `${aside}-journal`]) removeForce(f);
      for (const [from, to] of [[`${file}-journal`, `${aside}-journal`], [file, aside]]) {
        try {
          deno().renameSync(from, to);
        } catch (e) {
          if (errorName(e) !== 'NotFound') throw e;
        }
      }
      return aside;
    },
    fileStamp() {
      try {
        const st = deno().statSync(file);
        return `${st.size}:${st.mtime?.getTime() ?? 0}:${st.ino ?? 0}`;
      } catch {
        return null;
      }
    },
    claimIndexer() {
      mkdir();
      if (!permissionGuard(dir, () => indexer.tryAcquire('index'))) return null;
      return { release: () => indexer.dispose() }; // one claim per pass: no owner file kept between passes
    },
    indexerHolder() {
      if (indexer.held) return { pid: deno().pid, since: Date.now() };
      const owner = indexer.holder();
      if (!owner) return null;
      // A holder known to be gone is nobody (the next claim removes its lock); one this process
      // cannot check (no --allow-run) is reported as it is.
      if (pidAlive(owner.pid) === false) return null;
      return { pid: owner.pid, since: owner.acquired_at };
    },
    readSidecar(name: string) {
      try {
        return deno().readTextFileSync(path.join(dir, name));
      } catch {
        return null;
      }
    },
    writeSidecar(name: string, text: string) {
      mkdir();
      const tmp = path.join(dir, `${name}.${deno().pid}.tmp`);
      deno().writeTextFileSync(tmp, text);
      deno().renameSync(tmp, path.join(dir, name));
    },
    appendSidecar(name: string, text: string) {
      mkdir();
      deno().writeTextFileSync(path.join(dir, name), `${text}\n`, { append: true });
    },
  };
}
