// Node implementation of WorkspaceFs over node:fs (callback API; file reads are synchronous, see
// readFile). Owns path safety (no '..', no absolute paths; a read checks that the file it opened is
// inside the real workspace root) and symlink resolution against that root; what to scan is the
// walker's job.
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { DirEntry, EntryStat, WorkspaceFs } from '../../core/platform.ts';
import { HciError } from '../../core/platform.ts';
import { checkOpenedInside, readBounded, relativeInside } from '../shared/workspace-files.ts';

// The callback API wrapped in promises: about twice as fast as node:fs/promises for the many small
// stat calls of a scan.
function call<T>(fn: (cb: (err: NodeJS.ErrnoException | null, value: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => fn((err, value) => (err ? reject(err) : resolve(value))));
}

const UNSAFE = /^(?:[\\/]|[a-zA-Z]:)|(?:^|[\\/])\.\.(?:[\\/]|$)/;

export function createNodeWorkspaceFs(root: string): WorkspaceFs {
  const absRoot = nodePath.resolve(root);
  let realRoot: Promise<string> | undefined;
  let realRootSync: string | undefined;

  const prefix = absRoot.endsWith(nodePath.sep) ? absRoot : absRoot + nodePath.sep;
  const native = nodePath.sep === '/' ? (rel: string) => rel : (rel: string) => rel.replaceAll('/', nodePath.sep);

  const abs = (rel: string): string => {
    if (rel === '') return absRoot;
    if (UNSAFE.test(rel)) {
      throw new HciError('path_outside_workspace', `path must be workspace-relative without '..': ${rel}`);
    }
    return prefix + native(rel);
  };

  return {
    rootLabel: absRoot,
    backslashInNames: nodePath.sep === '/',

    async readDir(rel: string): Promise<DirEntry[]> {
      const p = abs(rel);
      const entries = await call<nodeFs.Dirent[]>((cb) => nodeFs.readdir(p, { withFileTypes: true }, cb));
      return entries.map((e) => ({
        name: e.name,
        kind: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : e.isFile() ? 'file' : 'other',
      }));
    },

    async stat(rel: string): Promise<EntryStat | null> {
      const p = abs(rel);
      try {
        const s = await call<nodeFs.Stats>((cb) => nodeFs.stat(p, cb));
        return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'dir' : 'other', size: s.size, mtimeMs: s.mtimeMs };
      } catch {
        return null;
      }
    },

    async resolveLink(rel: string): Promise<{ inside: string } | 'outside' | null> {
      const p = abs(rel);
      realRoot ??= call<string>((cb) => nodeFs.realpath(absRoot, cb));
      let target: string;
      try {
        target = await call<string>((cb) => nodeFs.realpath(p, cb));
      } catch {
        return null;
      }
      return relativeInside(await realRoot, target);
    },

    async readFile(rel: string, maxBytes?: number): Promise<Uint8Array> {
      // Synchronous reads behind the async interface. Workspace files are small and nearly always in
      // the page cache, where open/fstat/read/close take microseconds; as async calls each one is a
      // thread-pool round trip whose wake-ups, on 2 busy cores, preempt the indexer's main thread.
      // Measured on a 5k-file tree (load 3.4–4.6 on 2 cores), reads interleaved with chunking: sync
      // ~0.6–1.3 s per pass faster than 8 async reads in flight, ~1.7 s faster than one at a time.
      // The cost: on a cold page cache these reads no longer overlap chunking (reading the 10 MB
      // tree cold took ~0.65 s sync vs ~0.4–0.7 s with 8 async reads in flight on this disk).
      // The check after the open (a realpath and a stat) costs ~10–40 µs per file here.
      const p = abs(rel);
      const fd = nodeFs.openSync(p, 'r');
      try {
        const opened = nodeFs.fstatSync(fd);
        realRootSync ??= nodeFs.realpathSync.native(absRoot);
        const real = nodeFs.realpathSync.native(p);
        checkOpenedInside(rel, realRootSync, real, opened, nodeFs.statSync(real));
        return await readBounded(opened.size, maxBytes ?? Number.MAX_SAFE_INTEGER, (view) => nodeFs.readSync(fd, view, 0, view.length, null));
      } finally {
        nodeFs.closeSync(fd);
      }
    },
  };
}
