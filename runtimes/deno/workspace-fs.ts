// WorkspaceFs on Deno's own file API. Owns path safety (no '..', no absolute paths) and symlink
// resolution against the real workspace root, exactly like runtimes/node/workspace-fs.ts; what to
// scan is the walker's job. Needs only read permission on the workspace.
import * as nodePath from 'node:path'; // pure path arithmetic only
import type { DirEntry, EntryStat, WorkspaceFs } from '../../core/platform.ts';
import { HciError } from '../../core/platform.ts';
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
      const r = nodePath.relative(await realRoot, target);
      if (r === '') return { inside: '' };
      if (nodePath.isAbsolute(r) || r === '..' || r.startsWith('..' + nodePath.sep)) return 'outside';
      return { inside: r.split(nodePath.sep).join('/') };
    },

    async readFile(rel: string, maxBytes?: number): Promise<Uint8Array> {
      const p = abs(rel);
      if (maxBytes === undefined) return D.readFile(p);
      const limit = Math.max(0, Math.floor(maxBytes));
      const f = await D.open(p, { read: true });
      try {
        // Size the buffer from the file (plus a byte to notice growth), not from the limit: most
        // files are far below it, and a limit-sized buffer per file is needless GC work.
        let out = new Uint8Array(Math.min(limit, f.statSync().size + 1));
        let n = 0;
        while (n < limit) {
          if (n === out.length) {
            const grown = new Uint8Array(Math.min(limit, out.length * 2 + 1));
            grown.set(out);
            out = grown;
          }
          const r = await f.read(out.subarray(n));
          if (r === null || r === 0) break;
          n += r;
        }
        return n === out.length ? out : out.subarray(0, n);
      } finally {
        f.close();
      }
    },
  };
}
