// The MCP server's host under Node: the CLI's service host (runtimes/node/service-host.ts) plus the
// chokidar watcher with its polling fallback (runtimes/node/watcher.ts). Loaded only by `hci mcp`, so
// other commands never load chokidar.
import type { ServiceHost } from '../../../core/service/index.ts';
import { nodeServiceHost } from '../service-host.ts';
import { NodeWorkspaceWatcher, type EventSourceFactory } from '../watcher.ts';

export function nodeMcpHost(o: { createEventSource?: EventSourceFactory } = {}): ServiceHost {
  return { ...nodeServiceHost(), createWatcher: (p) => new NodeWorkspaceWatcher({ ...p, createEventSource: o.createEventSource }) };
}
