// Where a workspace's files come from, as the page gets them: the File System Access directory picker
// (Chromium), an `<input webkitdirectory>` (everywhere), a dropped or chosen .zip (a GitHub archive
// works: its single top folder is stripped), and the directory handles remembered in IndexedDB so a
// picked folder can be re-indexed after a reload (incrementally). Owns the pickers and that store;
// indexing is the Worker's.
import type { BrowserSource } from '../../../runtimes/browser/client.ts';

export interface PickedSource {
  name: string;
  source: BrowserSource;
}

type DirectoryPicker = (opts?: { mode?: 'read' | 'readwrite'; id?: string }) => Promise<FileSystemDirectoryHandle>;

export const canPickDirectory = typeof (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker === 'function';

/** The File System Access picker; null when the user cancels. */
export async function pickDirectory(): Promise<PickedSource | null> {
  const picker = (window as unknown as { showDirectoryPicker: DirectoryPicker }).showDirectoryPicker;
  try {
    const handle = await picker({ mode: 'read', id: 'hci-workspace' });
    await rememberHandle(handle.name, handle);
    return { name: handle.name, source: { kind: 'directory', handle } };
  } catch (e) {
    if ((e as { name?: string }).name === 'AbortError') return null;
    throw e;
  }
}

/** Files of an `<input webkitdirectory>`: the folder's name is the first segment of every path. */
export function fromFolderUpload(files: FileList): PickedSource | null {
  if (!files.length) return null;
  const rel = (files[0] as File & { webkitRelativePath?: string }).webkitRelativePath ?? '';
  const name = rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : 'upload';
  return { name, source: { kind: 'files', files } };
}

/** A .zip (a GitHub archive is named like `repo-main.zip`). */
export function fromZip(file: File): PickedSource {
  const name = file.name.replace(/\.zip$/i, '') || 'archive';
  return { name, source: { kind: 'zip', bytes: file, name } };
}

export function isZip(file: File): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed';
}

// ── remembered directory handles ─────────────────────────────────────────────────────────────

const DB = 'hci-explorer';
const STORE = 'directory-handles';

function db(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function tx<T>(mode: IDBTransactionMode, fn: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const d = await db();
  try {
    return await new Promise<T>((resolve, reject) => {
      const r = fn(d.transaction(STORE, mode).objectStore(STORE));
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  } finally {
    d.close();
  }
}

export const rememberHandle = (workspace: string, handle: FileSystemDirectoryHandle) => tx('readwrite', (s) => s.put(handle, workspace)).then(() => {});
export const forgetHandle = (workspace: string) => tx('readwrite', (s) => s.delete(workspace)).then(() => {});

/** The folder picked for this workspace earlier, with read permission asked again (needs a click). */
export async function rememberedDirectory(workspace: string): Promise<BrowserSource | null> {
  const handle = (await tx('readonly', (s) => s.get(workspace)).catch(() => undefined)) as FileSystemDirectoryHandle | undefined;
  if (!handle) return null;
  const h = handle as FileSystemDirectoryHandle & {
    queryPermission?(o: { mode: string }): Promise<PermissionState>;
    requestPermission?(o: { mode: string }): Promise<PermissionState>;
  };
  let state = (await h.queryPermission?.({ mode: 'read' })) ?? 'granted';
  if (state !== 'granted') state = (await h.requestPermission?.({ mode: 'read' })) ?? 'denied';
  return state === 'granted' ? { kind: 'directory', handle } : null;
}
