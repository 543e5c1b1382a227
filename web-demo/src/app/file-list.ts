// The index's file list (core/service files), fetched once per workspace and index generation and
// shared by Ctrl-P, the start screen's example queries and the file tree. Owns that cache.
import type { FileEntry } from '../../../core/contract/index.ts';
import { current, status } from './state.ts';

let cache: { key: string; files: Promise<FileEntry[]> } | null = null;

export function loadFiles(): Promise<FileEntry[]> {
  const ws = current.value;
  if (!ws) return Promise.resolve([]);
  const key = `${ws.name}:${status.value?.index?.generation ?? '?'}`;
  if (cache?.key !== key) cache = { key, files: ws.call('files', { limit: 100_000 }).then((r) => r.files) };
  return cache.files;
}
