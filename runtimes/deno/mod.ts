// The Deno runtime entry. Deno runs these TypeScript sources directly (imports carry `.ts`). The
// adapters are Deno-native (deno-storage.ts, deno-vfs.ts, dot-lock.ts, workspace-fs.ts, grammars.ts):
// the same index file and the same dot-file lock protocol as Node, so a Deno process and a Node
// process share one index. Permissions: read the workspace and hci's node_modules, write only the
// workspace's `.hci/`, and the host name (lock owner records); --allow-run is optional (it lets Deno
// clear locks left by crashed processes). See docs/runtimes.md, "Deno, the browser and a Vite app".
export { openWorkspace, openRemoteIndex, findIndexedRoot } from './workspace.ts';
export { openIntercom, createDenoIntercom, type DenoIntercomOptions } from './intercom.ts';
export { createDenoLogOpener } from './intercom-log.ts';
export { createDenoIndexStorage, absolutePath } from './deno-storage.ts';
export { createDenoWorkspaceFs } from './workspace-fs.ts';
export { createDenoGrammarSource } from './grammars.ts';
export { installDenoVfs, DENO_VFS_NAME } from './deno-vfs.ts';
export { DotLock as DenoDotLock, type LockOwner } from './dot-lock.ts';
/**
 * The Node adapters, kept for existing callers: they run under Deno through node: compatibility
 * but need -A there (their lock code reads /proc and probes pids with kill). Prefer the Deno ones.
 * Imported from their own modules, not from runtimes/node/index.ts, whose openWorkspace hands the
 * core Node's zlib as the index's deflate codec: under Deno node:zlib ignores the preset dictionary
 * every stored file is deflated with, so every search would answer `index_corrupt`. Deno's own
 * openWorkspace keeps the core's default codec (fflate, pure JS).
 */
export { createNodeWorkspaceFs } from '../node/workspace-fs.ts';
export { createNodeIndexStorage } from '../node/node-storage.ts';
export * from '../../core/index.ts';
