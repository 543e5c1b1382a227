// The Node runtime's library entry (`hybrid-codebase-index/node`): openWorkspace over the Node
// adapters (workspace.ts), the adapters themselves, the intercom engine on disk, and the whole core.
// Owns only what it exports.
import { createNodeWorkspaceFs } from './workspace-fs.ts';
import { createNodeIndexStorage } from './node-storage.ts';
import { createNodeGrammarSource } from './grammars.ts';
import { createNodeParsePool } from './parse-pool.ts';
import { nodeVectorHost } from './vector-host.ts';

export { createNodeWorkspaceFs, createNodeIndexStorage, createNodeGrammarSource, createNodeParsePool, nodeVectorHost };
export { openWorkspace, openRemoteIndex, findIndexedRoot, zlibCodec } from './workspace.ts';
export * from '../../core/index.ts';
export { openIntercom, createNodeIntercom, type NodeIntercomOptions } from './intercom.ts';
export { createNodeLogOpener } from './intercom-log.ts';
