// The service's host under Node (core/service/host.ts): the Node adapters (runtimes/node/workspace.ts),
// the file-system path rule (runtimes/shared/path-guard.ts), the intercom wiring (intercom.ts,
// loaded on the first intercom call) and published indexes by URL (runtimes/shared/published-host.ts).
// The CLI uses it as is; `hci mcp` adds the watcher (runtimes/node/mcp/node-host.ts).
import type { OpenOptions } from '../../core/workspace.ts';
import type { ServiceHost } from '../../core/service/index.ts';
import { openWorkspace } from './workspace.ts';
import { fileSystemPathGuard } from '../shared/path-guard.ts';
import { withPublishedIndexes } from '../shared/published-host.ts';

export function nodeServiceHost(open: OpenOptions = {}): ServiceHost {
  return withPublishedIndexes({
    name: 'Node', openWorkspace: (root) => openWorkspace(root, open), pathGuard: fileSystemPathGuard,
    createIntercom: async (ws, root, logs) => (await import('./intercom.ts')).createNodeIntercom(ws, root, { logs }),
  });
}
