// Message ↔ code traceability for Deno: the wiring of runtimes/node/intercom.ts with the Deno
// adapters (the sidecar through the Deno index storage, logs through intercom-log.ts), so a Deno
// process reads and writes the same sidecar and logs as a Node one. Owns only the wiring.
import { Intercom, type IntercomOptions } from '../../core/intercom/intercom.ts';
import { SIDECAR_FILE } from '../../core/intercom/sidecar.ts';
import type { HciWorkspace, OpenOptions } from '../../core/workspace.ts';
import type { LogOpenerOptions } from '../shared/intercom-log.ts';
import { absolutePath, createDenoIndexStorage } from './deno-storage.ts';
import { createDenoLogOpener } from './intercom-log.ts';
import { openWorkspace } from './workspace.ts';

export interface DenoIntercomOptions extends IntercomOptions {
  /** Where logs may be and how relative log paths resolve (default base: the workspace root). */
  logs?: LogOpenerOptions;
}

/** An Intercom over a workspace already open. Closing it leaves the workspace open. */
export function createDenoIntercom(workspace: HciWorkspace, root: string, opts: DenoIntercomOptions = {}): Intercom {
  const abs = absolutePath(root);
  return new Intercom({ workspace, sidecar: createDenoIndexStorage(abs, SIDECAR_FILE), openLog: createDenoLogOpener({ base: abs, ...opts.logs }) }, opts);
}

/** Opens the workspace at `root` and an Intercom over it; `close()` closes both. */
export async function openIntercom(root: string, opts: DenoIntercomOptions & { workspace?: OpenOptions } = {}): Promise<Intercom> {
  return createDenoIntercom(await openWorkspace(root, opts.workspace), root, { ...opts, ownsWorkspace: true });
}
