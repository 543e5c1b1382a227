// WorkspaceFs on Deno's own file API. Owns path safety (no '..', no absolute paths; a read checks
// that the file it opened is inside the real workspace root) and symlink resolution against that
// root, exactly like runtimes/node/workspace-fs.ts; what to scan is the walker's job. Needs only
// read permission on the workspace.
import type { DirEntry, EntryStat, WorkspaceFs } from '../../core/platform.ts';
import { HciError } from '../../core/platform.ts';
import { checkOpenedInside, readBounded, relativeInside } from '../shared/workspace-files.ts';
import { deno } from './deno-api.ts';
import { absolutePath } from './deno-storage.ts';

const UNSAFE = /^(?:[\\/]|[a-zA-Z]:)|(?:^|[\\/])\.\.(?:[\\/]|$)/;

export function createDenoWorkspaceFs(root: string): WorkspaceFs {
  const D = deno();
  const absRoot = absolutePath(root);
  let realRoot: Promise<string> | undefined;
  const sep = D.build.os === 'windows' ? '\\' : '/';
  const prefix = absRoot.endsWith(sep) ? absRoot : absRoot + sep;
  const native = sep === '/' ? (rel: string) => rel : (rel: string) => rel.replaceAll('/', sep);

  const abs = (rel: string): string => {
    if (rel === '') return absRoot;
    if (UNSAFE.test(rel)) throw new HciError('path_outside_workspace', `path must be workspace-relative without '..': ${rel}`);
    return prefix + native(rel);
  };

  return {
    rootLabel: absRoot,
    backslashInNames: sep === '/',

    async readDir(rel: string): Promise<DirEntry[]> {
      const out: DirEntry[] = [];
      for await (const e of D.readDir(abs(rel))) {
        out.push({ name: e.name, kind: e.isSymlink ? 'symlink' : e.isDirectory ? 'dir' : e.isFile ? 'file' : 'other' });
      }
      return out;
    },

    async stat(rel: string): Promise<EntryStat | null> {
      const p = abs(rel);
      try {
        const s = await D.stat(p);
        return { kind: s.isFile ? 'file' : s.isDirectory ? 'dir' : 'other', size: s.size, mtimeMs: s.mtime ? s.mtime.getTime() : 0 };
      } catch {
        return null;
      }
    },

    async resolveLink(rel: string): Promise<{ inside: string } | 'outside' | null> {
      const p = abs(rel);
      realRoot ??= D.realPath(absRoot);
      let target: string;
      try {
        target = await D.realPath(p);
      } catch {
        return null;
      }
      return relativeInside(await realRoot, target);
    },

    async readFile(rel: string, maxBytes?: number): Promise<Uint8Array> {
      const p = abs(rel);
      const f = await D.open(p, { read: true });
      try {
        const opened = f.statSync();
        realRoot ??= D.realPath(absRoot);
        const real = await D.realPath(p);
        checkOpenedInside(rel, await realRoot, real, opened, D.statSync(real));
        return await readBounded(opened.size, maxBytes ?? Number.MAX_SAFE_INTEGER, (view) => f.read(view));
      } finally {
        f.close();
      }
    },
  };
}
