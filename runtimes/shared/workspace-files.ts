// File-source pieces the Node and Deno runtimes share: where a resolved path lies relative to the
// workspace, whether a file opened for reading is the one inside it, and a read bounded by a byte
// limit. Owns only path arithmetic (node:path, which Deno provides too), that verdict and the buffer
// growth of a bounded read; the system calls stay with each runtime's file source. Path arguments of
// the CLI and MCP are runtimes/shared/path-guard.ts.
import * as nodePath from 'node:path';
import { HciError } from '../../core/platform.ts';

/** Where `target` (a real path) lies relative to the workspace's real root, '/'-separated. */
export function relativeInside(realRoot: string, target: string): { inside: string } | 'outside' {
  const r = nodePath.relative(realRoot, target);
  if (r === '') return { inside: '' };
  if (nodePath.isAbsolute(r) || r === '..' || r.startsWith('..' + nodePath.sep)) return 'outside';
  return { inside: r.split(nodePath.sep).join('/') };
}

/** Identity of a file as a stat reports it; null fields (Deno on Windows) cannot be compared. */
export interface FileIdentity {
  dev: number | bigint | null;
  ino: number | bigint | null;
}

/**
 * Checks, after opening `rel`, that the descriptor holds the file inside the workspace: the path's
 * real path (resolved after the open) lies under the real root and names the very file opened (same
 * device and inode). The scan judged symlinks when it walked; one swapped in since (a file or a
 * directory on the way replaced by a link leading outside) would otherwise be followed by the read.
 * A swap before the open fails the first test, a swap after it the second; either way nothing from
 * outside is read. Throws HciError 'path_outside_workspace'.
 */
export function checkOpenedInside(rel: string, realRoot: string, realPath: string, opened: FileIdentity, atRealPath: FileIdentity): void {
  const outside = relativeInside(realRoot, realPath) === 'outside';
  const same = opened.ino === null || atRealPath.ino === null || (opened.dev === atRealPath.dev && opened.ino === atRealPath.ino);
  if (outside || !same) {
    throw new HciError('path_outside_workspace', `${rel} now leads outside the workspace (a symbolic link replaced it after the scan); it was not read`, 'run `hci index` again: the next scan judges the link');
  }
}

/**
 * Reads at most `limit` bytes of a file whose size was `size` when stat'ed, through `readInto` (fills
 * the view from the current position; 0 or null at the end). The buffer is sized from the file plus a
 * byte to notice growth, not from the limit: most files are far below it, and a limit-sized buffer
 * per file was measurable GC work.
 */
export async function readBounded(size: number, limit: number, readInto: (view: Uint8Array) => number | null | Promise<number | null>): Promise<Uint8Array> {
  limit = Math.max(0, Math.floor(limit));
  let out = new Uint8Array(Math.min(limit, size + 1));
  let n = 0;
  while (n < limit) {
    if (n === out.length) {
      const grown = new Uint8Array(Math.min(limit, out.length * 2 + 1));
      grown.set(out);
      out = grown;
    }
    const r = await readInto(out.subarray(n));
    if (!r) break;
    n += r;
    // A read that ends exactly at stat's size is the end of a regular file: skip the extra read that
    // would only return 0.
    if (n === size && n < out.length) break;
  }
  return n === out.length ? out : out.subarray(0, n);
}
