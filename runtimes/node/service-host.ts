// The service's host under Node (core/service/host.ts): the Node adapters (runtimes/node/index.ts),
// the file-system path rule (runtimes/shared/path-guard.ts) and the intercom wiring (intercom.ts).
// The CLI uses it as is; `hci mcp` adds the watcher (runtimes/node/mcp/node-host.ts).
import type { OpenOptions } from '../../core/workspace.ts';
import type { ServiceHost } from '../../core/service/index.ts';
import { openWorkspace } from './index.ts';
import { fileSystemPathGuard } from '../shared/path-guard.ts';
import { createNodeIntercom } from './intercom.ts';

export function nodeServiceHost(open: OpenOptions = {}): ServiceHost {
  return {
    name: 'Node', openWorkspace: (root) => openWorkspace(root, open), pathGuard: fileSystemPathGuard,
    createIntercom: async (ws, root, logs) => createNodeIntercom(ws, root, { logs }),
  };
}
