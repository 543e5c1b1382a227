// Index storage on disk for Node: `<workspace>/.hci/index.sqlite` opened through the hci-node VFS,
// the indexer claim as a dot-lock beside it, and small sidecar files. Owns paths and file lifetimes;
// the database format belongs to core/index.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexStorage } from '../../core/index/storage.ts';
import type { Database, SqliteEngine } from '../../core/sqlite/engine.ts';
import { DotLock, nodeLockPlatform } from './dot-lock.ts';
import { installNodeVfs } from './node-vfs.ts';
import { checkIndexPath, type PathKind } from '../shared/index-path.ts';

export const INDEX_DIR = '.hci';
export const INDEX_FILE = 'index.sqlite';

function kindAt(p: string): PathKind {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(p);
  } catch {
    return null;
  }
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'directory';
  if (st.isSymbolicLink()) return 'symbolic link';
  if (st.isFIFO()) return 'FIFO';
  if (st.isSocket()) return 'socket';
  return st.isBlockDevice() || st.isCharacterDevice() ? 'device' : 'special file';
}

/**
 * The index (`fileName` omitted) or another database beside it in `.hci/` (e.g. the intercom sidecar,
 * `intercom-message-code.sqlite`): same folder, VFS and lock rules; its own indexer claim file.
 */
export function createNodeIndexStorage(workspaceRoot: string, fileName: string = INDEX_FILE): IndexStorage {
  const dir = path.join(path.resolve(workspaceRoot), INDEX_DIR);
  const file = path.join(dir, fileName);
  const indexer = new DotLock(path.join(dir, fileName === INDEX_FILE ? 'indexer.lock' : `${fileName}.indexer.lock`));
  /** The index file, its journal and its lock must each be absent or a regular file. */
  const checkPaths = () => {
    for (const p of [file, `${file}-journal`, `${file}.lock`]) checkIndexPath(p, kindAt(p));
  };
  return {
    location: file,
    // The index itself (not a sidecar) may be built cold without syncs (core/index/cold-build.ts) where Linux names the boot.
    ...(fileName === INDEX_FILE ? { bootId: () => nodeLockPlatform.bootId() } : {}),
    async exists() {
      checkPaths();
      try {
        return fs.statSync(file).size > 0;
      } catch {
        return false;
      }
    },
    open(engine: SqliteEngine): Database {
      fs.mkdirSync(dir, { recursive: true });
      checkPaths();
      const vfs = installNodeVfs(engine.sqlite3);
      return new engine.sqlite3.oo1.DB({ filename: file, flags: 'c', vfs }) as Database;
    },
    async remove() {
      for (const f of [file, `${file}-journal`]) fs.rmSync(f, { force: true });
    },
    async moveAside() {
      const aside = `${file}.damaged`;
      for (const f of [aside, `${aside}-journal`]) fs.rmSync(f, { force: true });
      if (fs.existsSync(`${file}-journal`)) fs.renameSync(`${file}-journal`, `${aside}-journal`);
      if (fs.existsSync(file)) fs.renameSync(file, aside);
      return aside;
    },
    fileStamp() {
      try {
        const st = fs.statSync(file);
        return `${st.size}:${st.mtimeMs}:${st.ino}`;
      } catch {
        return null;
      }
    },
    claimIndexer() {
      fs.mkdirSync(dir, { recursive: true });
      if (!indexer.tryAcquire('index')) return null;
      return { release: () => indexer.dispose() }; // one claim per pass: no owner file kept between passes
    },
    indexerHolder() {
      if (indexer.held) return { pid: process.pid, since: Date.now() };
      const owner = indexer.holder();
      if (!owner) return null;
      // A holder that died is reported as nobody; the next claim removes its lock.
      try {
        process.kill(owner.pid, 0);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ESRCH') return null;
      }
      return { pid: owner.pid, since: owner.acquired_at };
    },
    readSidecar(name: string) {
      try {
        return fs.readFileSync(path.join(dir, name), 'utf8');
      } catch {
        return null;
      }
    },
    writeSidecar(name: string, text: string) {
      fs.mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, `${name}.${process.pid}.tmp`);
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, path.join(dir, name));
    },
    appendSidecar(name: string, text: string) {
      fs.mkdirSync(dir, { recursive: true });
      fs.appendFileSync(path.join(dir, name), `${text}\n`);
    },
  };
}
