// A runtime's service host (core/service/host.ts) that also serves published indexes: a root that is
// an http(s) URL (index-url.ts) has no folder — its paths are the index's own (relativePathGuard), it
// is read-only (no indexing, no watcher), and message ↔ code traceability needs a workspace folder.
// Owns these three rules for Node and Deno alike; opening the URL is the runtime's openWorkspace.
import type { ServiceHost } from '../../core/service/index.ts';
import { relativePathGuard } from '../../core/service/index.ts';
import { HciError } from '../../core/platform.ts';
import { indexUrl } from './index-url.ts';

export function withPublishedIndexes(host: ServiceHost): ServiceHost {
  return {
    ...host,
    pathGuard: (root) => (indexUrl(root) ? relativePathGuard(root) : host.pathGuard(root)),
    readOnly: (root) => indexUrl(root) !== null || (host.readOnly?.(root) ?? false),
    createIntercom: host.createIntercom && (async (ws, root, logs) => {
      if (indexUrl(root)) throw new HciError('not_available', 'message ↔ code traceability needs the workspace\'s own index folder: a published index has none', 'run intercom calls against the workspace folder');
      return host.createIntercom!(ws, root, logs);
    }),
  };
}
