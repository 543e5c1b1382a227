// Message ↔ code traceability in the hci Worker: an Intercom (core/intercom) over a session's
// workspace, its sidecar in the workspace's OPFS pool beside the index, and its logs from two places —
// a log the page handed over (addLog: kept in the Worker's memory, relate appends there) or a log
// file of the workspace's own source (a folder, a zip), read through its WorkspaceFs; the first
// relate on such a file copies it into memory, since a zip or an uploaded folder cannot be written.
// Loaded by the Worker on the first intercom call (sessions.ts imports it lazily: the engine's
// schemas are zod). Owns only this wiring and the browser's log-path rule.
import { HciError, type WorkspaceFs } from '../../core/platform.ts';
import { Intercom } from '../../core/intercom/intercom.ts';
import { createMemoryIntercomLog, type IntercomLogFile } from '../../core/intercom/log.ts';
import { SIDECAR_FILE } from '../../core/intercom/sidecar.ts';
import { checkLogPath } from '../shared/intercom-log.ts';
import type { HciWorkspace } from '../../core/workspace.ts';
import { createOpfsIndexStorage, type WorkspaceSlot } from './opfs-storage.ts';

/** The logs a session holds in memory, by their workspace-relative name. */
export type BrowserLogs = Map<string, IntercomLogFile & { text(): string | null }>;

/** Files the pool needs: the index, the sidecar, each with its journal, and room for temp files. */
const POOL_CAPACITY = 8;

/** A log name as the browser takes it: workspace-relative, forward slashes, no `..`, a .ndjson or .jsonl file. */
export function browserLogName(location: string): string {
  const name = String(location ?? '').replace(/\\/g, '/').replace(/^\.\//, '');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.split('/').includes('..')) {
    throw new HciError('path_outside_workspace', `log "${location}" is outside the workspace, where this host reads logs`, 'pass the log\'s path relative to the workspace, or hand its text to addLog()');
  }
  return checkLogPath(location, name, undefined, '/');
}

/** A log file of the workspace's source, read-only; `onWrite` turns it into a memory log on the first append. */
function sourceLog(fs: WorkspaceFs, name: string, onWrite: (text: string) => IntercomLogFile): IntercomLogFile {
  const read = async () => ((await fs.stat(name))?.kind === 'file' ? fs.readFile(name) : null);
  return {
    location: name,
    async stat() {
      const st = await fs.stat(name);
      return st?.kind === 'file' ? { size: st.size, mtimeMs: Math.trunc(st.mtimeMs) } : null;
    },
    read,
    async append(line: string) {
      const bytes = await read();
      if (!bytes) throw new HciError('log_missing', `no log at ${name}`, 'pass the path of an existing events.ndjson log (hci never creates one)');
      await onWrite(new TextDecoder().decode(bytes)).append(line);
    },
  };
}

export async function createBrowserIntercom(workspace: HciWorkspace, slot: WorkspaceSlot, logs: BrowserLogs): Promise<Intercom> {
  await slot.pool.reserveMinimumCapacity(POOL_CAPACITY);
  const fs = workspace.host.fs;
  const openLog = (location: string): IntercomLogFile => {
    const name = browserLogName(location);
    return logs.get(name) ?? sourceLog(fs, name, (text) => {
      const log = createMemoryIntercomLog(name, text);
      logs.set(name, log);
      return log;
    });
  };
  return new Intercom({ workspace, sidecar: createOpfsIndexStorage(slot, `/${SIDECAR_FILE}`), openLog });
}

/** Keeps a log the page handed over (replacing one of that name); its mtime is now, so the sidecar sees a change. */
export function addBrowserLog(logs: BrowserLogs, location: string, text: string): { location: string; bytes: number } {
  const name = browserLogName(location);
  if (typeof text !== 'string') throw new HciError('invalid_request', 'addLog takes the log\'s text', 'read the file with await file.text() and pass that');
  logs.set(name, createMemoryIntercomLog(name, text, Date.now()));
  return { location: name, bytes: new TextEncoder().encode(text).length };
}
