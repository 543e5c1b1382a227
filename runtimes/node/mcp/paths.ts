// Path arguments of MCP tools against the fixed workspace root. Owns the one rule every tool follows:
// a path is workspace-relative (or absolute, or a file:// URI, inside the root) and never leaves it;
// anything else is refused with `path_outside_workspace`. Models often pass absolute paths they saw
// elsewhere, so those are accepted and made relative when they lie inside the root.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HciError } from '../../../core/platform.ts';

export class PathGuard {
  readonly root: string;
  private readonly realRoot: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    try {
      this.realRoot = fs.realpathSync(this.root);
    } catch {
      this.realRoot = this.root;
    }
  }

  /**
   * A workspace-relative path with forward slashes ('' is the root) for a path argument, or an
   * HciError `path_outside_workspace`. Glob characters pass through untouched.
   */
  toRelative(input: string, what = 'path'): string {
    let p = String(input).trim();
    if (p.startsWith('file://')) {
      try {
        p = fileURLToPath(p);
      } catch {
        throw this.outside(input, what);
      }
    }
    const isAbs = path.isAbsolute(p) || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');
    if (isAbs) {
      const rel = this.insideRoot(p);
      if (rel === null) throw this.outside(input, what);
      return rel;
    }
    const posix = p.replace(/\\/g, '/');
    const norm = path.posix.normalize(posix);
    if (norm === '..' || norm.startsWith('../')) throw this.outside(input, what);
    if (norm === '.' || norm === './') return '';
    return norm.replace(/^\.\//, '').replace(/\/+$/, posix.endsWith('/') ? '/' : '');
  }

  private insideRoot(abs: string): string | null {
    const native = path.resolve(abs);
    for (const base of [this.root, this.realRoot]) {
      const r = path.relative(base, native);
      if (r === '') return '';
      if (!r.startsWith('..') && !path.isAbsolute(r)) return r.split(path.sep).join('/') + (/[\\/]$/.test(abs) ? '/' : '');
    }
    return null;
  }

  private outside(input: string, what: string): HciError {
    return new HciError(
      'path_outside_workspace',
      `${what} "${input}" is outside the workspace ${this.root}`,
      'pass a path relative to the workspace root (e.g. src/Web/Program.cs) or an absolute path inside it; this server only serves its own workspace',
    );
  }
}
