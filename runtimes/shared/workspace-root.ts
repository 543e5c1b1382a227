// What a workspace root must be on a real file system (Node and Deno): an existing folder. Owns that
// rule and the error that says what is wrong — missing, or a file — before anything is opened or
// created (the index folder is made inside the root, never the root itself). Each runtime supplies
// its own stat.
import { HciError } from '../../core/platform.ts';

/** What a stat saw at the root: 'dir', 'file', another kind, null when nothing is there, 'unknown' when it could not look (no permission). */
export type RootKind = 'dir' | 'file' | 'other' | null | 'unknown';

/** Throws HciError `root_not_found` unless `root` is a folder (an unknown kind is left to the calls that follow). */
export function checkWorkspaceRoot(root: string, kind: RootKind, parent: string): void {
  if (kind === 'dir' || kind === 'unknown') return;
  if (kind === null) {
    throw new HciError('root_not_found', `workspace folder not found: ${root}`, 'pass an existing folder (hci index <folder>, or --root <folder>); hci never creates it');
  }
  throw new HciError(
    'root_not_found',
    `${root} is a ${kind === 'file' ? 'file' : 'special file'}, not a folder: a workspace is a folder`,
    `pass the folder that holds it (${parent}), or the repository's root folder`,
  );
}
