// Test helper: materialises a `{ 'path/to/file': content }` map as a temporary workspace folder and
// removes it afterwards. Symlinks and permissions are the individual tests' business.
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

export type WorkspaceFiles = Record<string, string | Uint8Array>;

export interface TmpWorkspace {
  /** Absolute path of the workspace root. */
  root: string;
  /** Absolute path of a workspace-relative path. */
  abs(rel: string): string;
  /** Writes (or overwrites) more files. */
  write(files: WorkspaceFiles): Promise<void>;
  cleanup(): Promise<void>;
}

async function writeAll(root: string, files: WorkspaceFiles): Promise<void> {
  const entries = Object.entries(files).map(([rel, content]) => [path.join(root, ...rel.split('/')), content] as const);
  for (const dir of new Set(entries.map(([p]) => path.dirname(p)))) await mkdir(dir, { recursive: true });
  for (let i = 0; i < entries.length; i += 64) {
    await Promise.all(entries.slice(i, i + 64).map(([p, content]) => writeFile(p, content)));
  }
}

export async function createTmpWorkspace(files: WorkspaceFiles = {}, prefix = 'hci-ws-'): Promise<TmpWorkspace> {
  const root = await mkdtemp(path.join(tmpdir(), prefix));
  await writeAll(root, files);
  return {
    root,
    abs: (rel) => path.join(root, ...rel.split('/')),
    write: (more) => writeAll(root, more),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Runs fn with a fresh workspace and always cleans up. */
export async function withTmpWorkspace<T>(files: WorkspaceFiles, fn: (ws: TmpWorkspace) => Promise<T>): Promise<T> {
  const ws = await createTmpWorkspace(files);
  try {
    return await fn(ws);
  } finally {
    await ws.cleanup();
  }
}
