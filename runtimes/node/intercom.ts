// Message ↔ code traceability for Node: an Intercom over a workspace, with its sidecar beside the
// index (`.hci/intercom-message-code.sqlite`, the index's storage factory with another file name) and
// logs on disk (intercom-log.ts). Owns only the wiring; the engine is core/intercom.
import * as path from 'node:path';
import { Intercom, type IntercomOptions } from '../../core/intercom/intercom.ts';
import { SIDECAR_FILE } from '../../core/intercom/sidecar.ts';
import type { HciWorkspace, OpenOptions } from '../../core/workspace.ts';
import { createNodeIndexStorage } from './node-storage.ts';
import { createNodeLogOpener, type LogOpenerOptions } from './intercom-log.ts';
import { openWorkspace } from './workspace.ts';

export interface NodeIntercomOptions extends IntercomOptions {
  /** Where logs may be and how relative log paths resolve (default base: the workspace root). */
  logs?: LogOpenerOptions;
}

/** An Intercom over a workspace already open (a long-lived host's). Closing it leaves the workspace open. */
export function createNodeIntercom(workspace: HciWorkspace, root: string, opts: NodeIntercomOptions = {}): Intercom {
  const abs = path.resolve(root);
  return new Intercom(
    { workspace, sidecar: createNodeIndexStorage(abs, SIDECAR_FILE), openLog: createNodeLogOpener({ base: abs, ...opts.logs }) },
    opts,
  );
}

/** Opens the workspace at `root` and an Intercom over it; `close()` closes both. */
export async function openIntercom(root: string, opts: NodeIntercomOptions & { workspace?: OpenOptions } = {}): Promise<Intercom> {
  return createNodeIntercom(await openWorkspace(root, opts.workspace), root, { ...opts, ownsWorkspace: true });
}
