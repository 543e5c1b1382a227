// Path arguments against a workspace root: the one rule every surface follows — a path is
// workspace-relative (or, where the runtime has them, absolute or a file:// URI inside the root) and
// never leaves the workspace; anything else is refused with `path_outside_workspace`. Owns the
// interface and the platform-free part (relative paths); runtimes with absolute paths and symlinks
// (runtimes/shared/path-guard.ts, Node and Deno) add the rest.
import { HciError } from '../platform.ts';

export interface PathGuard {
  /** The workspace root as shown in messages. */
  readonly root: string;
  /**
   * A workspace-relative path with forward slashes ('' is the root; a trailing '/' is kept) for a
   * path argument, or an HciError `path_outside_workspace`. Glob characters pass through untouched.
   * A `\` stays a name character where file names may hold it (POSIX: WorkspaceFs.backslashInNames),
   * else it is read as '/'.
   */
  toRelative(input: string, what?: string): string;
}

export function outsideWorkspace(input: string, what: string, root: string): HciError {
  return new HciError(
    'path_outside_workspace',
    `${what} "${input}" is outside the workspace ${root}`,
    'pass a path relative to the workspace root (e.g. src/Web/Program.cs) or an absolute path inside it; only this workspace is served',
  );
}

/**
 * A relative path made canonical ('.' and '..' resolved), or null when it climbs out. A `\` is a
 * separator unless `backslashInNames` (then `a\b.cs` is one name); either way a path whose `\`-as-'/'
 * reading climbs out is refused, so no caller's Windows habit can pass a `..` through.
 */
export function normalizeRelative(input: string, backslashInNames = false): string | null {
  const separated = input.replace(/\\/g, '/');
  if (backslashInNames && separated !== input && normalizeRelative(separated) === null) return null;
  const posix = backslashInNames ? input : separated;
  const out: string[] = [];
  for (const seg of posix.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  const rel = out.join('/');
  return rel && posix.endsWith('/') ? `${rel}/` : rel;
}

/** A guard for workspaces without absolute paths (the browser, memory): relative paths only. */
export function relativePathGuard(root: string): PathGuard {
  return {
    root,
    toRelative(input: string, what = 'path'): string {
      const p = String(input).trim();
      if (p.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\') || p.startsWith('file://')) throw outsideWorkspace(input, what, root);
      const rel = normalizeRelative(p);
      if (rel === null) throw outsideWorkspace(input, what, root);
      return rel;
    },
  };
}
