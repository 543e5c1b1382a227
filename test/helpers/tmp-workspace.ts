// Test helper: temporary folders for tests — an empty one (tmpDir), a copy of a workspace without
// its index (copyWorkspace), the sample workspace's sources with given settings (sampleSources), and a `{ 'path/to/file': content }` map materialised as a workspace that
// removes itself (createTmpWorkspace); plus the small C# class most index tests write (csharpClass).
// Symlinks and permissions are the individual tests' business.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/** A fresh empty folder in the OS temp folder (the caller removes it). */
export function tmpDir(prefix = 'hci-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Copies a workspace's files (not its `.hci` folder) into a fresh temp folder (the caller removes it). */
export function copyWorkspace(src: string, prefix = 'hci-copy-'): string {
  const dst = tmpDir(prefix);
  cpSync(src, dst, { recursive: true, filter: (from) => path.basename(from) !== '.hci' });
  return dst;
}

/** The sample workspace's `src/` in a fresh temp folder, with `.hci/settings.toml` when given (the caller removes it). */
export function sampleSources(prefix: string, settingsToml?: string): string {
  const root = tmpDir(prefix);
  cpSync(path.resolve(import.meta.dirname, '../sample-workspace/src'), path.join(root, 'src'), { recursive: true });
  if (settingsToml !== undefined) {
    mkdirSync(path.join(root, '.hci'));
    writeFileSync(path.join(root, '.hci/settings.toml'), settingsToml);
  }
  return root;
}

/** A one-class C# file: `namespace <ns>; public class <name> { public void Run<name>() { } <body> }`. */
export function csharpClass(name: string, body = '', ns = 'Demo'): string {
  return `namespace ${ns};\n\npublic class ${name}\n{\n    public void Run${name}() { }\n${body}}\n`;
}

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
