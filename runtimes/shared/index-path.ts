// What may stand at the index's paths on disk (Node and Deno storages): nothing yet, or a regular
// file. Owns that rule and the error that names the obstacle; each runtime supplies its own lstat.
// A directory, FIFO, socket, device or symlink at `.hci/index.sqlite` (or its journal or lock) is
// not something hci should delete or write through: the user is told exactly what is in the way.
import { HciError } from '../../core/platform.ts';

/** What an lstat saw at a path, in words; 'file' for a regular file, null when nothing is there. */
export type PathKind = 'file' | 'directory' | 'symbolic link' | 'FIFO' | 'socket' | 'device' | 'special file' | null;

/** Throws HciError `index_path_blocked` when something other than a regular file is at `path`. */
export function checkIndexPath(path: string, kind: PathKind): void {
  if (kind === null || kind === 'file') return;
  const remove = kind === 'directory' ? `rm -r '${path}'` : `rm '${path}'`;
  throw new HciError(
    'index_path_blocked',
    `${path} is a ${kind}, not an index file: hci keeps its index there as a regular file it creates itself`,
    `move it away or delete it (${remove}), then run \`hci index\` to build the index there`,
  );
}
