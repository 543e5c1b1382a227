// The MCP service's host under Node: the Node adapters (runtimes/node/index.ts) and the chokidar
// watcher with its polling fallback (runtimes/node/watcher.ts). `hci mcp` passes it to the service;
// runtimes/deno/mcp.ts passes the Deno one, so the service itself loads no runtime's adapters.
import { openWorkspace } from '../index.ts';
import { NodeWorkspaceWatcher, type EventSourceFactory } from '../watcher.ts';
import type { McpHost } from './service.ts';

export function nodeMcpHost(o: { createEventSource?: EventSourceFactory } = {}): McpHost {
  return {
    name: 'Node',
    openWorkspace: (root) => openWorkspace(root),
    createWatcher: (p) => new NodeWorkspaceWatcher({ ...p, createEventSource: o.createEventSource }),
  };
}
