// Test helper: a WorkspaceFs wrapper (the file-source seam) that, just before the first read of a
// chosen path, swaps something on the way for a symbolic link leading outside the workspace: the
// file itself (`file`), or its parent directory (`dir`, the original moved aside). The swap is done
// with the runtime's own calls, passed in, so the Node test and the Deno helper share it. The read
// then goes to the real file source, which must notice.
import type { WorkspaceFs } from '../../core/platform.ts';

export interface Swap {
  /** Workspace-relative path whose first read triggers the swap. */
  rel: string;
  /** `file`: rel becomes a link to target; `dir`: rel's parent becomes a link to target. */
  kind: 'file' | 'dir';
  /** Absolute path outside the workspace. */
  target: string;
}

export interface SwapOps {
  remove(abs: string): void;
  rename(from: string, to: string): void;
  symlink(target: string, at: string): void;
}

export function swappingFs(inner: WorkspaceFs, root: string, swaps: Swap[], ops: SwapOps): WorkspaceFs & { swapped: string[] } {
  const pending = new Map(swaps.map((s) => [s.rel, s]));
  const swapped: string[] = [];
  return {
    rootLabel: inner.rootLabel,
    swapped,
    readDir: (rel) => inner.readDir(rel),
    stat: (rel) => inner.stat(rel),
    resolveLink: (rel) => inner.resolveLink(rel),
    readFile(rel, maxBytes) {
      const s = pending.get(rel);
      if (s) {
        pending.delete(rel);
        if (s.kind === 'file') {
          ops.remove(`${root}/${rel}`);
          ops.symlink(s.target, `${root}/${rel}`);
        } else {
          const dir = `${root}/${rel.slice(0, rel.lastIndexOf('/'))}`;
          ops.rename(dir, `${dir}-moved`);
          ops.symlink(s.target, dir);
        }
        swapped.push(rel);
      }
      return inner.readFile(rel, maxBytes);
    },
  };
}
