// The part of Deno's runtime API the Deno adapters use, typed locally (the repository typechecks
// with Node's and the DOM's types, not Deno's), and how a refused permission becomes hci's
// `permission_needed` naming the flag. Every adapter reaches Deno through `deno()` so a missing
// runtime fails with one clear message.
import { HciError } from '../../core/platform.ts';

export interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  /** null on Windows. */
  isFifo?: boolean | null;
  isSocket?: boolean | null;
  isBlockDevice?: boolean | null;
  isCharDevice?: boolean | null;
  size: number;
  mtime: Date | null;
  /** null on Windows. */
  dev: number | null;
  ino: number | null;
}

export interface DenoDirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

export interface DenoFsFile {
  readonly rid?: number;
  readSync(p: Uint8Array): number | null;
  read(p: Uint8Array): Promise<number | null>;
  writeSync(p: Uint8Array): number;
  seekSync(offset: number | bigint, whence: number): number;
  truncateSync(len?: number): void;
  syncSync(): void;
  syncDataSync(): void;
  statSync(): DenoFileInfo;
  close(): void;
}

export interface DenoOpenOptions {
  read?: boolean;
  write?: boolean;
  create?: boolean;
  createNew?: boolean;
  append?: boolean;
  mode?: number;
}

export type PermissionState = 'granted' | 'denied' | 'prompt';

export interface DenoApi {
  pid: number;
  args: string[];
  build: { os: string };
  version: { deno: string };
  cwd(): string;
  exit(code?: number): never;
  hostname(): string;
  kill(pid: number, signal: number | string): void;
  env: { get(key: string): string | undefined };
  readDir(path: string): AsyncIterable<DenoDirEntry>;
  readDirSync(path: string): Iterable<DenoDirEntry>;
  stat(path: string): Promise<DenoFileInfo>;
  statSync(path: string): DenoFileInfo;
  lstatSync(path: string): DenoFileInfo;
  realPath(path: string): Promise<string>;
  realPathSync(path: string): string;
  readFile(path: string | URL): Promise<Uint8Array>;
  readTextFileSync(path: string): string;
  readFileSync(path: string | URL): Uint8Array;
  readTextFile(path: string | URL): Promise<string>;
  writeTextFileSync(path: string, data: string, opts?: { append?: boolean; createNew?: boolean; mode?: number }): void;
  open(path: string, opts?: DenoOpenOptions): Promise<DenoFsFile>;
  openSync(path: string, opts?: DenoOpenOptions): DenoFsFile;
  linkSync(oldpath: string, newpath: string): void;
  renameSync(oldpath: string, newpath: string): void;
  removeSync(path: string, opts?: { recursive?: boolean }): void;
  mkdirSync(path: string, opts?: { recursive?: boolean }): void;
  permissions: { querySync(desc: { name: string; path?: string; kind?: string; variable?: string }): { state: PermissionState } };
  stdout: { writeSync(p: Uint8Array): number; isTerminal(): boolean };
  stderr: { writeSync(p: Uint8Array): number; isTerminal(): boolean };
  /** True when NO_COLOR is set (readable without env permission). */
  noColor: boolean;
  addSignalListener(signal: string, handler: () => void): void;
  removeSignalListener(signal: string, handler: () => void): void;
}

/** Deno's SeekMode.Start. */
export const SEEK_START = 0;

/** The Deno namespace; throws a clear error when this code is not running under Deno. */
export function deno(): DenoApi {
  const d = (globalThis as { Deno?: DenoApi }).Deno;
  if (!d) throw new Error('runtimes/deno needs the Deno runtime; under Node use runtimes/node');
  return d;
}

/** The Deno error class name of a thrown error ('NotFound', 'AlreadyExists', 'NotCapable', …). */
export function errorName(e: unknown): string {
  return (e as { name?: string })?.name ?? '';
}

/** True when the permission is granted outright (never triggers a prompt). */
export function granted(desc: { name: string; path?: string; kind?: string; variable?: string }): boolean {
  try {
    return deno().permissions.querySync(desc).state === 'granted';
  } catch {
    return false;
  }
}

/** Whether an error is Deno refusing a permission (as opposed to a missing file or an I/O error). */
export function isPermissionError(e: unknown): boolean {
  const name = errorName(e);
  return name === 'NotCapable' || name === 'PermissionDenied';
}

/**
 * The folder to grant reading for `file`: the node_modules folder holding it (hci's dependencies all
 * sit there; granting it once covers the engine and every grammar), else the file's own folder.
 */
export function readGrantFor(file: string): string {
  const at = file.lastIndexOf('/node_modules/');
  return at >= 0 ? file.slice(0, at + '/node_modules'.length) : file.replace(/\/[^/]*$/, '') || '/';
}

/** A refused read of `file` (`what` it is, for the message) as `permission_needed` with the flag to add. */
export function readPermissionNeeded(file: string, what: string, e: unknown): HciError {
  const grant = readGrantFor(file);
  return new HciError(
    'permission_needed',
    `hci under Deno cannot read ${what} (${file}): ${(e as Error)?.message ?? e}`,
    `add --allow-read=${grant} (with the workspace: --allow-read=<workspace>,${grant})`,
  );
}

/** Reads a file hci needs from its installation, turning a refused permission into `permission_needed`. */
export async function readInstalledFile(url: URL, what: string): Promise<Uint8Array> {
  try {
    return await deno().readFile(url);
  } catch (e) {
    if (isPermissionError(e)) throw readPermissionNeeded(decodeURIComponent(url.pathname), what, e);
    throw e;
  }
}
