// The Deno runtime entry. Deno runs these TypeScript sources directly (imports carry `.ts`), and its
// node: compatibility layer runs the Node adapters (node:fs VFS, dot-file locks) unchanged, so a Deno
// process and a Node process share one index with the same lock protocol. Deno-native adapters and
// the Deno-hosted MCP server build on this seam.
export { openWorkspace, findIndexedRoot, createNodeWorkspaceFs, createNodeIndexStorage } from '../node/index.ts';
export * from '../../core/index.ts';
