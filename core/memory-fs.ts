// A WorkspaceFs over files held in memory (a Map of path → bytes): what a browser has after a
// FileList upload or an unzipped archive, and what tests of the core alone use. Owns path
// normalisation and directory listing over flat paths; no symlinks exist here.
import { HciError, type DirEntry, type EntryStat, type WorkspaceFs } from './platform.ts';

export interface MemoryFile {
  bytes: Uint8Array;
  mtimeMs?: number;
}

function normalize(rel: string): string {
  const p = rel.replace(/\\/g, '/').replace(/^\.?\/+/, '').replace(/\/+$/, '');
  if (p.startsWith('/') || p.split('/').includes('..')) {
    throw new HciError('path_outside_workspace', `path "${rel}" leaves the workspace`, 'use a workspace-relative path');
  }
  return p;
}

export function createMemoryWorkspaceFs(label: string, files: Map<string, MemoryFile> | Record<string, string | Uint8Array>): WorkspaceFs & { files: Map<string, MemoryFile> } {
  const map = files instanceof Map ? files : new Map<string, MemoryFile>();
  if (!(files instanceof Map)) {
    const enc = new TextEncoder();
    for (const [p, c] of Object.entries(files)) map.set(normalize(p), { bytes: typeof c === 'string' ? enc.encode(c) : c, mtimeMs: 0 });
  }
  const isDir = (p: string) => {
    const prefix = p === '' ? '' : `${p}/`;
    for (const k of map.keys()) if (k.startsWith(prefix)) return true;
    return false;
  };
  return {
    rootLabel: label,
    files: map,
    async readDir(rel) {
      const dir = normalize(rel);
      const prefix = dir === '' ? '' : `${dir}/`;
      const seen = new Map<string, DirEntry>();
      for (const k of map.keys()) {
        if (!k.startsWith(prefix)) continue;
        const rest = k.slice(prefix.length);
        const slash = rest.indexOf('/');
        const name = slash < 0 ? rest : rest.slice(0, slash);
        if (!seen.has(name)) seen.set(name, { name, kind: slash < 0 ? 'file' : 'dir' });
      }
      if (seen.size === 0 && dir !== '') throw new HciError('unreadable', `no such folder: ${dir}`);
      return [...seen.values()];
    },
    async stat(rel): Promise<EntryStat | null> {
      const p = normalize(rel);
      const f = map.get(p);
      if (f) return { kind: 'file', size: f.bytes.length, mtimeMs: f.mtimeMs ?? 0 };
      return isDir(p) ? { kind: 'dir', size: 0, mtimeMs: 0 } : null;
    },
    async resolveLink() {
      return null;
    },
    async readFile(rel, maxBytes) {
      const f = map.get(normalize(rel));
      if (!f) throw new HciError('unreadable', `no such file: ${rel}`);
      return maxBytes !== undefined && f.bytes.length > maxBytes ? f.bytes.subarray(0, maxBytes) : f.bytes;
    },
  };
}
