// Workspace file sources for the browser: a directory handle (File System Access API or an OPFS
// folder), the files of an `<input webkitdirectory>`, and a .zip archive. Owns path safety, listing
// and reading on demand (nothing is read until the walker asks for it, so ignored and denied folders
// of a large upload cost nothing); what to index stays the core walker's decision.
import { inflateSync } from 'fflate';
import { HciError, type DirEntry, type EntryStat, type WorkspaceFs } from '../../core/platform.ts';
import { createMemoryWorkspaceFs } from '../../core/memory-fs.ts';
import type { BrowserSource } from './protocol.ts';

function normalize(rel: string): string {
  const p = rel.replace(/\\/g, '/').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (/^[a-zA-Z]:/.test(p) || p.split('/').includes('..')) {
    throw new HciError('path_outside_workspace', `path "${rel}" leaves the workspace`, 'use a workspace-relative path');
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Directory handles

/** The async-iterable part of FileSystemDirectoryHandle (not in every TypeScript DOM lib). */
interface IterableDirectoryHandle extends FileSystemDirectoryHandle {
  entries(): AsyncIterableIterator<[string, FileSystemDirectoryHandle | FileSystemFileHandle]>;
}

function isNotFound(e: unknown): boolean {
  const name = (e as { name?: string })?.name;
  return name === 'NotFoundError' || name === 'TypeMismatchError' || name === 'TypeError';
}

/**
 * A WorkspaceFs over a directory handle. Every call reads the folder as it is now (sizes and
 * modification times come from the live files), so an index run after edits re-reads only what
 * changed and drops what was deleted. Folder handles are cached during a walk; file snapshots never
 * are (a snapshot of an edited file cannot be read any more).
 */
export function createDirectoryHandleFs(root: FileSystemDirectoryHandle): WorkspaceFs {
  const dirs = new Map<string, Promise<FileSystemDirectoryHandle>>([['', Promise.resolve(root)]]);
  const dir = (rel: string): Promise<FileSystemDirectoryHandle> => {
    let p = dirs.get(rel);
    if (!p) {
      const slash = rel.lastIndexOf('/');
      const parent = slash < 0 ? '' : rel.slice(0, slash);
      p = dir(parent).then((h) => h.getDirectoryHandle(rel.slice(slash + 1)));
      dirs.set(rel, p);
      p.catch(() => dirs.delete(rel));
    }
    return p;
  };
  const fileHandle = async (rel: string): Promise<FileSystemFileHandle> => {
    const slash = rel.lastIndexOf('/');
    const parent = await dir(slash < 0 ? '' : rel.slice(0, slash));
    return parent.getFileHandle(rel.slice(slash + 1));
  };
  return {
    rootLabel: root.name || 'folder',
    async readDir(rel) {
      const p = normalize(rel);
      // A walk starts at the root: forget folder handles of the previous run (folders may be gone).
      if (p === '') for (const k of [...dirs.keys()]) if (k !== '') dirs.delete(k);
      const h = (await dir(p)) as IterableDirectoryHandle;
      const out: DirEntry[] = [];
      for await (const [name, child] of h.entries()) out.push({ name, kind: child.kind === 'directory' ? 'dir' : 'file' });
      return out;
    },
    async stat(rel): Promise<EntryStat | null> {
      const p = normalize(rel);
      if (p === '') return { kind: 'dir', size: 0, mtimeMs: 0 };
      try {
        const f = await (await fileHandle(p)).getFile();
        return { kind: 'file', size: f.size, mtimeMs: f.lastModified };
      } catch (e) {
        if (!isNotFound(e)) throw e;
      }
      try {
        await dir(p);
        return { kind: 'dir', size: 0, mtimeMs: 0 };
      } catch {
        return null;
      }
    },
    async resolveLink() {
      return null; // directory handles have no symbolic links
    },
    async readFile(rel, maxBytes) {
      const f = await (await fileHandle(normalize(rel))).getFile();
      const part = maxBytes !== undefined && f.size > maxBytes ? f.slice(0, Math.max(0, Math.floor(maxBytes))) : f;
      return new Uint8Array(await part.arrayBuffer());
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Flat lists of lazily read entries (uploaded files, zip members)

interface FlatEntry {
  size: number;
  mtimeMs: number;
  read(maxBytes?: number): Promise<Uint8Array>;
}

/**
 * Reads of uploaded files and zip members resolve at once (no real I/O), so an indexing pass over
 * them would never return to the Worker's event loop: a cancel() or a search sent meanwhile would
 * wait for the whole run. Every YIELD_MS of reading, one read waits for a macrotask instead. The
 * macrotask is a MessageChannel message, not setTimeout(0): timers nested this deep are clamped to
 * 4 ms, which left a pass over a zip idle for ~14% of its time (4 ms of every 29).
 */
const YIELD_MS = 25;
let lastYield = 0;
const turns: Array<() => void> = [];
let channel: MessageChannel | null = null;

function nextMacrotask(): Promise<void> {
  if (typeof MessageChannel !== 'function') return new Promise<void>((r) => setTimeout(r, 0));
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => turns.shift()?.();
  }
  return new Promise<void>((r) => {
    turns.push(r);
    channel!.port2.postMessage(0);
  });
}

async function yieldNow(): Promise<void> {
  const now = Date.now();
  if (now - lastYield < YIELD_MS) return;
  await nextMacrotask();
  lastYield = Date.now();
}

function createFlatFs(label: string, entries: Map<string, FlatEntry>): WorkspaceFs {
  // Folder → children, built once: listing a folder must not scan every path of a large upload.
  const children = new Map<string, Map<string, DirEntry>>([['', new Map()]]);
  for (const p of entries.keys()) {
    const segs = p.split('/');
    let parent = '';
    for (let i = 0; i < segs.length; i++) {
      const here = parent === '' ? segs[i] : `${parent}/${segs[i]}`;
      const isFile = i === segs.length - 1;
      let list = children.get(parent);
      if (!list) children.set(parent, (list = new Map()));
      if (!list.has(segs[i])) list.set(segs[i], { name: segs[i], kind: isFile ? 'file' : 'dir' });
      if (!isFile && !children.has(here)) children.set(here, new Map());
      parent = here;
    }
  }
  return {
    rootLabel: label,
    async readDir(rel) {
      const list = children.get(normalize(rel));
      if (!list) throw new HciError('unreadable', `no such folder: ${rel}`);
      return [...list.values()];
    },
    async stat(rel) {
      const p = normalize(rel);
      const f = entries.get(p);
      if (f) return { kind: 'file', size: f.size, mtimeMs: f.mtimeMs };
      return children.has(p) ? { kind: 'dir', size: 0, mtimeMs: 0 } : null;
    },
    async resolveLink() {
      return null;
    },
    async readFile(rel, maxBytes) {
      const f = entries.get(normalize(rel));
      if (!f) throw new HciError('unreadable', `no such file: ${rel}`);
      await yieldNow();
      return f.read(maxBytes);
    },
  };
}

/** Adds an entry unless its path is unusable (empty, absolute-looking or leaving the root). */
function addEntry(entries: Map<string, FlatEntry>, raw: string, entry: FlatEntry): void {
  let p: string;
  try {
    p = normalize(raw);
  } catch {
    return;
  }
  if (p !== '' && !p.split('/').some((s) => s === '' || s === '.')) entries.set(p, entry);
}

/** Files from `<input type="file" webkitdirectory>`, a drop, or any list of File objects. */
export function createFileListFs(files: FileList | File[], paths?: string[], label?: string): WorkspaceFs {
  const list = Array.from(files as ArrayLike<File>);
  const entries = new Map<string, FlatEntry>();
  let top: string | undefined;
  list.forEach((file, i) => {
    let p = paths?.[i];
    if (p === undefined) {
      const relative = (file as File & { webkitRelativePath?: string }).webkitRelativePath;
      if (relative) {
        const slash = relative.indexOf('/');
        top ??= slash > 0 ? relative.slice(0, slash) : undefined;
        p = slash >= 0 ? relative.slice(slash + 1) : relative;
      } else p = file.name;
    }
    addEntry(entries, p, {
      size: file.size,
      mtimeMs: file.lastModified,
      read: async (max) => new Uint8Array(await (max !== undefined && file.size > max ? file.slice(0, max) : file).arrayBuffer()),
    });
  });
  return createFlatFs(label ?? top ?? 'upload', entries);
}

// ---------------------------------------------------------------------------------------------
// Zip archives

interface ZipMember {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
  mtimeMs: number;
}

function dosTime(date: number, time: number): number {
  const d = new Date(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2);
  return Number.isNaN(d.getTime()) ? 0 : d.getTime();
}

/**
 * Reads a zip's central directory: names, sizes, methods and offsets, without inflating anything.
 * Members are inflated one by one (fflate) when the indexer reads them.
 */
function readZipDirectory(zip: Uint8Array): ZipMember[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new HciError('invalid_zip', 'this file is not a zip archive (no end-of-central-directory record)', 'upload a .zip file');
  const count = view.getUint16(eocd + 10, true);
  let at = view.getUint32(eocd + 16, true);
  if (count === 0xffff || at === 0xffffffff) {
    throw new HciError('invalid_zip', 'zip64 archives (over 65535 entries or 4 GiB) are not supported', 'pick the folder instead, or split the archive');
  }
  const decoder = new TextDecoder();
  const members: ZipMember[] = [];
  for (let n = 0; n < count; n++) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new HciError('invalid_zip', 'the zip central directory is damaged', 'create the archive again');
    }
    const flags = view.getUint16(at + 8, true);
    const nameLen = view.getUint16(at + 28, true);
    const extraLen = view.getUint16(at + 30, true);
    const commentLen = view.getUint16(at + 32, true);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLen);
    // Bit 11: UTF-8 names; older archivers write CP437, which agrees with UTF-8 for ASCII names.
    const name = decoder.decode(nameBytes);
    members.push({
      name,
      flags,
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      mtimeMs: dosTime(view.getUint16(at + 14, true), view.getUint16(at + 12, true)),
    });
    at += 46 + nameLen + extraLen + commentLen;
  }
  return members;
}

function inflateMember(zip: Uint8Array, m: ZipMember): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  if (view.getUint32(m.localOffset, true) !== 0x04034b50) throw new HciError('unreadable', `zip member ${m.name} is damaged`);
  if (m.flags & 1) throw new HciError('unreadable', `zip member ${m.name} is encrypted`);
  const start = m.localOffset + 30 + view.getUint16(m.localOffset + 26, true) + view.getUint16(m.localOffset + 28, true);
  const data = zip.subarray(start, start + m.compressedSize);
  if (m.method === 0) return data.slice();
  if (m.method === 8) return inflateSync(data, { out: new Uint8Array(m.size) });
  throw new HciError('unreadable', `zip member ${m.name} uses compression method ${m.method} (only stored and deflate are supported)`);
}

/** A .zip archive as a workspace. With `stripTopFolder` (default: when every member shares one top folder) that folder is the root. */
export function createZipFs(bytes: Uint8Array, opts: { label?: string; stripTopFolder?: boolean } = {}): WorkspaceFs {
  const members = readZipDirectory(bytes).filter((m) => !m.name.endsWith('/'));
  let prefix = '';
  const tops = new Set(members.map((m) => (m.name.includes('/') ? m.name.slice(0, m.name.indexOf('/') + 1) : '')));
  if (opts.stripTopFolder !== false && tops.size === 1 && !tops.has('')) prefix = [...tops][0];
  const entries = new Map<string, FlatEntry>();
  for (const m of members) {
    addEntry(entries, m.name.slice(prefix.length), {
      size: m.size,
      mtimeMs: m.mtimeMs,
      read: async (max) => {
        const all = inflateMember(bytes, m);
        return max !== undefined && all.length > max ? all.subarray(0, max) : all;
      },
    });
  }
  return createFlatFs(opts.label ?? (prefix ? prefix.slice(0, -1) : 'archive.zip'), entries);
}

/** Turns a page-supplied source into the core's WorkspaceFs. */
export async function workspaceFsFromSource(source: BrowserSource): Promise<WorkspaceFs> {
  switch (source.kind) {
    case 'directory':
      return createDirectoryHandleFs(source.handle);
    case 'files':
      return createFileListFs(source.files, source.paths);
    case 'zip': {
      const b = source.bytes;
      const bytes = b instanceof Uint8Array ? b : b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(await b.arrayBuffer());
      return createZipFs(bytes, { label: source.name, stripTopFolder: source.stripTopFolder });
    }
    case 'memory':
      return createMemoryWorkspaceFs(source.name ?? 'memory', source.files);
    default:
      throw new HciError('invalid_request', `unknown source kind "${(source as { kind?: unknown }).kind}"`, 'use directory, files, zip or memory');
  }
}
