// Which commit and branch a workspace's git checkout is at, read from `.git` directly (no git binary):
// HEAD (a symbolic ref or a detached commit), loose refs, packed-refs, a worktree's or submodule's
// `.git` file (`gitdir: …`) and its `commondir`. Owns reading and resolving those few text files and
// the wording of "HEAD moved" for freshness; where the files come from is the caller's reader (the
// workspace's files, and outside them for a linked worktree's git dir: the runtime's), and what the
// index records is core/workspace.ts's. A reftable repository (no loose or packed refs) reads as a
// branch without a commit.

/** The checkout's HEAD: the commit (null: an unborn branch, or refs this reader cannot read) and the branch (null: detached). */
export interface GitHead {
  commit: string | null;
  branch: string | null;
}

/**
 * Reads a small text file: `path` workspace-relative (`.git/HEAD`), or absolute (a linked worktree's
 * git dir lies outside the workspace). Resolves null when it does not exist or cannot be read.
 */
export type GitTextReader = (path: string) => Promise<string | null>;

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const MAX_SYMREF_DEPTH = 5;

const isAbsolute = (p: string) => p.startsWith('/') || /^[a-zA-Z]:[\\/]/.test(p) || p.startsWith('\\\\');

/** `base` joined with `rel` (rel may be absolute), `.` and `..` resolved, forward slashes. */
export function joinGitPath(base: string, rel: string): string {
  const r = rel.replace(/\\/g, '/');
  const joined = isAbsolute(rel) ? r : `${base.replace(/\\/g, '/').replace(/\/+$/, '')}/${r}`;
  const drive = /^[a-zA-Z]:/.exec(joined)?.[0] ?? '';
  const rooted = joined.slice(drive.length).startsWith('/');
  const out: string[] = [];
  for (const seg of joined.slice(drive.length).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && out.length && out[out.length - 1] !== '..') out.pop();
    else if (seg === '..' && rooted) continue;
    else out.push(seg);
  }
  return `${drive}${rooted ? '/' : ''}${out.join('/')}` || '.';
}


/** The git dir of a workspace and the common dir its refs live in; null when `.git` is neither a folder nor a `gitdir:` file. */
async function gitDirs(read: GitTextReader): Promise<{ gitDir: string; commonDir: string } | null> {
  let gitDir = '.git';
  if ((await read('.git/HEAD')) === null) {
    // A linked worktree or a submodule: `.git` is a file naming the real git dir (relative to the file's folder).
    const pointer = await read('.git');
    const m = pointer ? /^gitdir:\s*(.+?)\s*$/m.exec(pointer) : null;
    if (!m) return null;
    gitDir = joinGitPath('.', m[1]);
  }
  const common = await read(`${gitDir}/commondir`);
  const commonDir = common?.trim() ? joinGitPath(gitDir, common.trim()) : gitDir;
  return { gitDir, commonDir };
}

/** A ref's commit: loose in the git dir, then in the common dir, then packed-refs; symbolic refs followed. */
async function resolveRef(read: GitTextReader, dirs: { gitDir: string; commonDir: string }, ref: string, depth = 0): Promise<string | null> {
  if (depth > MAX_SYMREF_DEPTH) return null;
  for (const dir of dirs.gitDir === dirs.commonDir ? [dirs.gitDir] : [dirs.gitDir, dirs.commonDir]) {
    const text = (await read(`${dir}/${ref}`))?.trim();
    if (!text) continue;
    if (SHA.test(text)) return text;
    const sym = /^ref:\s*(\S+)$/.exec(text);
    if (sym) return resolveRef(read, dirs, sym[1], depth + 1);
  }
  const packed = await read(`${dirs.commonDir}/packed-refs`);
  for (const line of packed?.split('\n') ?? []) {
    if (line.startsWith('#') || line.startsWith('^')) continue;
    const [sha, name] = line.trim().split(/\s+/);
    if (name === ref && SHA.test(sha ?? '')) return sha;
  }
  return null;
}

/** The workspace's HEAD, or null when it is not a git checkout. */
export async function readGitHead(read: GitTextReader): Promise<GitHead | null> {
  const dirs = await gitDirs(read);
  if (!dirs) return null;
  const head = (await read(`${dirs.gitDir}/HEAD`))?.trim();
  if (!head) return null;
  if (SHA.test(head)) return { commit: head, branch: null };
  const sym = /^ref:\s*(\S+)$/.exec(head);
  if (!sym) return null;
  const branch = sym[1].startsWith('refs/heads/') ? sym[1].slice('refs/heads/'.length) : sym[1];
  return { commit: await resolveRef(read, dirs, sym[1]), branch: branch === '.invalid' ? null : branch };
}

/** A commit as people read it: its first 12 characters. */
export const shortCommit = (c: string | null | undefined): string => (c ? c.slice(0, 12) : 'an unknown commit');

/**
 * "built at <commit> (<branch>); HEAD is <commit> (<branch>)" when the checkout's HEAD is not the
 * commit the index was built at; undefined when it is, or when either is unknown.
 */
export function headMovedNote(built: GitHead | null, now: GitHead | null): string | undefined {
  if (!built?.commit || !now?.commit || built.commit === now.commit) return undefined;
  const label = (h: GitHead) => `${shortCommit(h.commit)}${h.branch ? ` (${h.branch})` : ''}`;
  return `built at ${label(built)}; HEAD is ${label(now)}`;
}

/**
 * The repository's name for a manifest: from `remote "origin"`'s URL in the git config (owner/name),
 * or null (no remote).
 */
export async function readOriginName(read: GitTextReader): Promise<string | null> {
  const dirs = await gitDirs(read);
  const config = dirs ? await read(`${dirs.commonDir}/config`) : null;
  if (!config) return null;
  const m = /\[remote "origin"\][^[]*?\burl\s*=\s*(\S+)/.exec(config);
  if (!m) return null;
  const url = m[1].replace(/\.git$/, '').replace(/\/+$/, '');
  const parts = url.split(/[/:]/).filter(Boolean);
  return parts.length >= 2 ? `${parts[parts.length - 2]}/${parts[parts.length - 1]}` : (parts[0] ?? null);
}
