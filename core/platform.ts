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

/**
 * The failures of file and storage calls that are the environment's, not hci's: a missing or
 * unreadable path, a read-only or full disk, too many open files. Node's and Deno's errno names
 * (`ENOENT`, …) and the browser's DOMException names (OPFS, a picked folder's handles). Each becomes
 * `io_error` with the system's words kept in its message and what to check as its hint. Every other
 * system code is not listed on purpose: it would be hci's bug (Node's `ERR_*` codes, `EINVAL`).
 */
const IO_FAILURES: ReadonlyMap<string, string> = (() => {
  const path = 'check that the path exists (a file or folder may have been moved or deleted meanwhile)';
  const access = 'check that hci may read the workspace and write its .hci folder';
  const space = 'free some disk space (or storage quota), then index again';
  const files = 'too many files are open: close other programs or raise the limit (ulimit -n)';
  const busy = 'another program holds the file: retry when it is done';
  return new Map(Object.entries({
    ENOENT: path, ENOTDIR: path, EISDIR: path, ELOOP: path, ENAMETOOLONG: path, NotFoundError: path,
    EACCES: access, EPERM: access, EROFS: access, NotAllowedError: access, NotReadableError: access,
    ENOSPC: space, EDQUOT: space, EFBIG: space, QuotaExceededError: space,
    EMFILE: files, ENFILE: files,
    EBUSY: busy, ETXTBSY: busy, EAGAIN: busy,
    EIO: 'the disk reported an input/output error: check the device',
  }));
})();

/** What hci's own error codes look like (the contract's error table, core/contract/errors.ts). */
const HCI_CODE = /^[a-z][a-z0-9_]*$/;

/**
 * A thrown value as an HciError, the one conversion every answer and exit code goes through: an
 * HciError as it is; a file or storage failure of the environment (IO_FAILURES, by its errno `code`
 * or its DOMException `name`) as `io_error`; an object that carries an hci code (a task's or a
 * Worker's error crossing a boundary) keeps its code, message and hint; anything else — a bug,
 * Node's `ERR_*` codes included — is `internal`, with its message.
 */
export function asHciError(e: unknown): HciError {
  if (e instanceof HciError) return e;
  const x = e as { code?: unknown; name?: unknown; message?: unknown; hint?: unknown } | null;
  if (x && typeof x === 'object') {
    const message = String(x.message ?? x.code ?? x.name);
    const io = (typeof x.code === 'string' && IO_FAILURES.get(x.code)) || (typeof x.name === 'string' && IO_FAILURES.get(x.name));
    if (io) return new HciError('io_error', message, io);
    if (typeof x.code === 'string' && HCI_CODE.test(x.code)) return new HciError(x.code, message, typeof x.hint === 'string' ? x.hint : undefined);
  }
  return new HciError('internal', e instanceof Error ? e.message : String(e));
}
