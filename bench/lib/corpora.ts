// Corpus manifests and pinned checkouts: reads a manifest of public repositories pinned at a commit
// (bench/golden/repos.json, or any other of the same shape) and writes each pinned tree out of a bare
// git mirror (<mirror root>/<owner>+<name>/repo) into a folder. Owns the manifest shape, the mirror
// layout and the marker written next to each tree (<out>/<name>.corpus.json: what was written and
// which blobs the mirror lacked). Leaves the queries (bench/lib/queries.ts) and indexing to others.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface CorpusEntry {
  /** The folder name under the output folder, and the golden file's name (<name>.jsonl). */
  name: string;
  /** GitHub owner/name. */
  github: string;
  /** The bare git dir, relative to the mirror root (default <owner>+<name>/repo). */
  gitdir: string;
  commit: string;
  branch?: string;
  licence?: string;
  kind?: string;
  /** Anything else the manifest says about the entry (kept, not interpreted here). */
  [key: string]: unknown;
}

export interface CorpusMarker {
  name: string;
  github: string;
  commit: string;
  files: number;
  bytes: number;
  missing: string[];
  written: string;
}

const SHA = /^[0-9a-f]{40}$/;

/**
 * Reads a manifest: an object keyed by name (`{"Polly": {"github": "App-vNext/Polly", "commit": …}}`),
 * the same under a `repos` key, or an array of entries with a `name`. Keys starting with `_` are comments.
 */
export function readManifest(file: string): CorpusEntry[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const body = raw && typeof raw === 'object' && !Array.isArray(raw) && 'repos' in raw ? (raw as { repos: unknown }).repos : raw;
  const rows: Array<[string | undefined, Record<string, unknown>]> = Array.isArray(body)
    ? body.map((r) => [undefined, r as Record<string, unknown>])
    : Object.entries(body as Record<string, unknown>).filter(([k]) => !k.startsWith('_')).map(([k, v]) => [k, v as Record<string, unknown>]);
  return rows.map(([key, r], i) => {
    const where = `${file}: entry ${key ?? i + 1}`;
    if (!r || typeof r !== 'object') throw new Error(`${where} is not an object`);
    const name = String(r.name ?? key ?? '');
    const github = String(r.github ?? r.repo ?? '');
    const commit = String(r.commit ?? '');
    if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`${where}: a name of letters, digits, . _ - is needed (got "${name}")`);
    if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(github)) throw new Error(`${where}: "github" must be owner/name (got "${github}")`);
    if (!SHA.test(commit)) throw new Error(`${where}: "commit" must be a full 40-hex commit id (got "${commit}")`);
    const gitdir = typeof r.gitdir === 'string' && r.gitdir ? r.gitdir : `${github.replace('/', '+')}/repo`;
    return { ...r, name, github, commit, gitdir } as CorpusEntry;
  });
}

export function markerPath(out: string, name: string): string {
  return path.join(out, `${name}.corpus.json`);
}

export function readMarker(out: string, name: string): CorpusMarker | null {
  try {
    return JSON.parse(fs.readFileSync(markerPath(out, name), 'utf8')) as CorpusMarker;
  } catch {
    return null;
  }
}

export function git(gitDir: string, args: string[]): string {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} (in ${gitDir}) failed: ${(r.stderr || '').trim()}`);
  return r.stdout;
}

/** The bare git dir of an entry under a mirror root, checked to hold the pinned commit. */
export function mirrorOf(entry: CorpusEntry, mirrorRoot: string): string {
  const gd = path.join(mirrorRoot, entry.gitdir);
  if (!fs.existsSync(gd)) throw new Error(`${entry.name}: no mirror at ${gd} (get a bare mirror of github.com/${entry.github} there)`);
  const r = spawnSync('git', ['--git-dir', gd, 'cat-file', '-e', `${entry.commit}^{commit}`]);
  if (r.status !== 0) throw new Error(`${entry.name}: commit ${entry.commit} is not in ${gd} (the mirror is older or rewritten; re-fetch it)`);
  return gd;
}

interface TreeEntry { mode: string; sha: string; path: string }

export function listTree(gitDir: string, commit: string): TreeEntry[] {
  const r = spawnSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--full-tree', commit], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ls-tree ${commit} failed in ${gitDir}: ${r.stderr.toString().trim()}`);
  const out: TreeEntry[] = [];
  for (const rec of r.stdout.toString('utf8').split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, sha] = rec.slice(0, tab).split(' ');
    if (type !== 'blob') continue; // submodules
    out.push({ mode, sha, path: rec.slice(tab + 1) });
  }
  return out;
}

/** Reads blobs one after another through one `git cat-file --batch` process. */
class BlobReader {
  private readonly proc;
  private buf: Buffer = Buffer.alloc(0);
  private waiting: (() => void) | null = null;
  private ended = false;

  constructor(gitDir: string) {
    this.proc = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.proc.stdout.on('data', (d: Buffer) => {
      this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
      this.wake();
    });
    this.proc.stdout.on('end', () => {
      this.ended = true;
      this.wake();
    });
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }

  private async need(test: () => boolean): Promise<void> {
    while (!test()) {
      if (this.ended) throw new Error('git cat-file ended early');
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
  }

  /** The blob's bytes, or null when the mirror lacks it. */
  async read(sha: string): Promise<Buffer | null> {
    this.proc.stdin.write(`${sha}\n`);
    await this.need(() => this.buf.indexOf(10) >= 0);
    const nl = this.buf.indexOf(10);
    const header = this.buf.subarray(0, nl).toString('utf8');
    this.buf = this.buf.subarray(nl + 1);
    if (header.endsWith(' missing')) return null;
    const size = Number(header.split(' ')[2]);
    if (!Number.isFinite(size)) throw new Error(`git cat-file: unexpected header "${header}"`);
    await this.need(() => this.buf.length >= size + 1);
    const data: Buffer = Buffer.from(this.buf.subarray(0, size));
    this.buf = this.buf.subarray(size + 1);
    return data;
  }

  close(): void {
    this.proc.stdin.end();
  }
}

/**
 * Writes the pinned tree of `entry` to <out>/<name> (via a temp folder renamed into place, so a reader
 * never sees half a tree) and the marker next to it. Blobs the mirror lacks (a snapshot may leave out
 * files of 4 MiB or more, and LFS content) are skipped and listed in the marker.
 */
export async function materialize(entry: CorpusEntry, mirrorRoot: string, out: string, opts: { force?: boolean; log?: (s: string) => void } = {}): Promise<CorpusMarker & { skipped: boolean }> {
  const log = opts.log ?? (() => {});
  const dest = path.join(out, entry.name);
  const prev = readMarker(out, entry.name);
  if (!opts.force && prev && prev.commit === entry.commit && fs.existsSync(dest)) return { ...prev, skipped: true };
  if (!opts.force && !prev && fs.existsSync(dest)) throw new Error(`${entry.name}: ${dest} exists without ${markerPath(out, entry.name)}; pass --force to replace it`);
  const gd = mirrorOf(entry, mirrorRoot);
  const tree = listTree(gd, entry.commit);
  fs.mkdirSync(out, { recursive: true });
  const tmp = path.join(out, `.${entry.name}.tmp-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  const reader = new BlobReader(gd);
  const missing: string[] = [];
  let files = 0;
  let bytes = 0;
  try {
    const dirs = new Set<string>();
    for (const t of tree) {
      if (t.path.split('/').some((s) => s === '..' || s === '.git')) continue; // never write outside the tree, nor a .git
      const data = await reader.read(t.sha);
      if (!data) {
        missing.push(t.path);
        continue;
      }
      const fp = path.join(tmp, t.path);
      const dir = path.dirname(fp);
      if (!dirs.has(dir)) {
        fs.mkdirSync(dir, { recursive: true });
        dirs.add(dir);
      }
      if (t.mode === '120000') {
        try {
          fs.symlinkSync(data.toString('utf8'), fp);
        } catch {
          /* a link that cannot be made here is left out */
        }
        continue;
      }
      fs.writeFileSync(fp, data, { mode: t.mode === '100755' ? 0o755 : 0o644 });
      files++;
      bytes += data.length;
    }
  } finally {
    reader.close();
  }
  fs.rmSync(dest, { recursive: true, force: true });
  fs.renameSync(tmp, dest);
  const marker: CorpusMarker = { name: entry.name, github: entry.github, commit: entry.commit, files, bytes, missing, written: new Date().toISOString() };
  fs.writeFileSync(markerPath(out, entry.name), `${JSON.stringify(marker, null, 2)}\n`);
  log(`${entry.name}: ${entry.github}@${entry.commit.slice(0, 12)} -> ${dest} (${files} files, ${(bytes / 1048576).toFixed(1)} MiB${missing.length ? `, ${missing.length} blob(s) missing from the mirror` : ''})`);
  return { ...marker, skipped: false };
}
