// The service's host under Deno (core/service/host.ts), for the CLI and the MCP server alike: the
// Deno adapters (workspace.ts), the file-system path rule (runtimes/shared/path-guard.ts) and the
// intercom wiring (intercom.ts), published indexes by URL (runtimes/shared/published-host.ts). No file watcher: Deno.watchFs lacks the polling fallback and
// dir/file kinds, so the `watch` tool answers `not_available`.
import type { OpenOptions } from '../../core/workspace.ts';
import type { ServiceHost } from '../../core/service/index.ts';
import { fileSystemPathGuard } from '../shared/path-guard.ts';
import { openWorkspace } from './workspace.ts';
import { withPublishedIndexes } from '../shared/published-host.ts';

export function denoServiceHost(open: OpenOptions = {}): ServiceHost {
  return withPublishedIndexes({
    name: 'Deno', openWorkspace: (root) => openWorkspace(root, open), pathGuard: fileSystemPathGuard,
    // Loaded on first use: the other commands never load the intercom engine.
    createIntercom: async (ws, root, logs) => (await import('./intercom.ts')).createDenoIntercom(ws, root, { logs }),
  });
}
