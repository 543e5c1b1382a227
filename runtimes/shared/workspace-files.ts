// File-source pieces the Node and Deno runtimes share: where a resolved path lies relative to the
// workspace, and a read bounded by a byte limit. Owns only path arithmetic (node:path, which Deno
// provides too) and the buffer growth of a bounded read; the system calls stay with each runtime's
// file source. Path arguments of the CLI and MCP are runtimes/shared/path-guard.ts.
import * as nodePath from 'node:path';

/** Where `target` (a real path) lies relative to the workspace's real root, '/'-separated. */
export function relativeInside(realRoot: string, target: string): { inside: string } | 'outside' {
  const r = nodePath.relative(realRoot, target);
  if (r === '') return { inside: '' };
  if (nodePath.isAbsolute(r) || r === '..' || r.startsWith('..' + nodePath.sep)) return 'outside';
  return { inside: r.split(nodePath.sep).join('/') };
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
