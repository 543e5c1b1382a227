// The seams between the engine and a host runtime. Owns only interfaces: how the core reads a
// workspace's files and where its index lives. Node, Deno and browser adapters in runtimes/ implement
// them; the core never touches node:*, Deno or the DOM directly.

/** One directory entry as the runtime sees it, before any symlink is resolved. */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
}

/** What the core needs to know about a file or directory (symlinks already followed). */
export interface EntryStat {
  kind: 'file' | 'dir' | 'other';
  size: number;
  mtimeMs: number;
}

/**
 * Read-only view of one workspace. Every path is workspace-relative with forward slashes;
 * '' is the root. Implementations must refuse paths that escape the root ('..', absolute).
 */
export interface WorkspaceFs {
  /** A label for messages (an absolute path on disk, a folder name in the browser). */
  readonly rootLabel: string;
  /**
   * True where `\` is an ordinary character of file names (POSIX file systems): a caller's path
   * keeps it (`a\b.cs` is one name). Otherwise (Windows; sources whose names cannot hold it) a `\`
   * in a caller's path is read as '/'. Paths in answers always use '/'.
   */
  readonly backslashInNames?: boolean;
  readDir(rel: string): Promise<DirEntry[]>;
  /** Follows symlinks; null when the entry does not exist or the link is broken. */
  stat(rel: string): Promise<EntryStat | null>;
  /**
   * Where a symlink really points, as a workspace-relative path; `outside` when its target lies
   * outside the workspace; null when broken. Runtimes without symlinks never get this call.
   */
  resolveLink(rel: string): Promise<{ inside: string } | 'outside' | null>;
  /** Reads at most maxBytes (the whole file when omitted). */
  readFile(rel: string, maxBytes?: number): Promise<Uint8Array>;
}

/** A failure the user can act on; carries a stable code and a hint for CLI, MCP and library callers. */
export class HciError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'HciError';
  }
}
