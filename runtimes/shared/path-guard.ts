// The path rule of core/service/paths.ts for runtimes with a real file system (Node, and Deno through
// its node: modules): besides workspace-relative paths, absolute paths and file:// URIs are accepted
// when they lie inside the root — also inside its real path, when the root is reached through a
// symlink. Models often pass absolute paths they saw elsewhere. Where file names may hold `\` (POSIX)
// it stays a name character, as the workspace's file source reads it (WorkspaceFs.backslashInNames);
// a Windows-style absolute path there is refused, never read as a name below the current folder.
// Owns only that arithmetic (node:path, node:url, and one realpath of the root, which needs read
// permission on it).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeRelative, outsideWorkspace, type PathGuard } from '../../core/service/paths.ts';

export function fileSystemPathGuard(root: string): PathGuard {
  const backslashInNames = path.sep === '/';
  const abs = path.resolve(root);
  let real = abs;
  try {
    real = fs.realpathSync(abs);
  } catch {
    // a missing root is reported by the calls themselves
  }
  const insideRoot = (input: string): string | null => {
    const native = path.resolve(input);
    for (const base of [abs, real]) {
      const r = path.relative(base, native);
      if (r === '') return '';
      if (r !== '..' && !r.startsWith(`..${path.sep}`) && !path.isAbsolute(r)) {
        const trailing = input.endsWith('/') || (!backslashInNames && input.endsWith('\\'));
        return normalizeRelative(r.split(path.sep).join('/') + (trailing ? '/' : ''), backslashInNames);
      }
    }
    return null;
  };
  return {
    root: abs,
    toRelative(input: string, what = 'path'): string {
      let p = String(input).trim();
      if (p.startsWith('file://')) {
        try {
          p = fileURLToPath(p);
        } catch {
          throw outsideWorkspace(input, what, abs);
        }
      }
      const windowsAbsolute = /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');
      if (windowsAbsolute && !path.isAbsolute(p)) throw outsideWorkspace(input, what, abs);
      const rel = path.isAbsolute(p) ? insideRoot(p) : normalizeRelative(p, backslashInNames);
      if (rel === null) throw outsideWorkspace(input, what, abs);
      return rel;
    },
  };
}
