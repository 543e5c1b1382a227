// Real repositories for the benchmark and the evaluation: the files of one pinned commit of a public
// repository, written into a cache folder (no .git: what a user's checkout holds), from a bare git
// directory — a local mirror (`--mirror DIR` / HCI_BENCH_MIRROR: DIR/<owner>+<name>/repo, or
// DIR/<owner>+<name>.git) or else a depth-1 fetch of that commit from GitHub into the cache. Owns the
// manifest format (bench/corpora.json: named corpora of {repo, commit}; any JSON whose objects carry
// `repo` and `commit` works for materializeRepo) and the cache layout; what is measured on the
// files is the callers'. A blob absent from a mirror (mirrors may lack files of 4 MiB and more) is
// left out and listed; every run from the same mirror writes the same files.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { repoRoot } from './util.ts';

export interface PinnedRepo {
  /** owner/name on GitHub. */
  repo: string;
  /** The full 40-hex commit. */
  commit: string;
}

export interface CorpusEntry {
  about?: string;
  repos: PinnedRepo[];
}

export interface MaterializeOptions {
  /** Where repositories are written (default: HCI_BENCH_CORPORA, else ~/.cache/hci-bench/corpora). */
  cacheDir?: string;
  /** A folder of bare mirrors, DIR/<owner>+<name>/repo or DIR/<owner>+<name>.git (default: HCI_BENCH_MIRROR). */
  mirror?: string;
  log?: (line: string) => void;
}

export interface Materialized extends PinnedRepo {
  dir: string;
  files: number;
  bytes: number;
  /** Paths whose blob the git directory did not have (not written). */
  missing: string[];
}

export const MANIFEST = () => path.join(repoRoot(), 'bench', 'corpora.json');

export function corporaCacheDir(o: MaterializeOptions = {}): string {
  return path.resolve(o.cacheDir ?? process.env.HCI_BENCH_CORPORA ?? path.join(os.homedir(), '.cache', 'hci-bench', 'corpora'));
}

/** The named corpora of a manifest (bench/corpora.json by default). */
export function readManifest(file = MANIFEST()): Record<string, CorpusEntry> {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { corpora?: Record<string, CorpusEntry> };
  const corpora = json.corpora ?? {};
  for (const [name, c] of Object.entries(corpora)) {
    if (!Array.isArray(c.repos) || !c.repos.length) throw new Error(`${file}: corpus "${name}" lists no repos`);
    for (const r of c.repos) checkPin(r, `${file}: corpus "${name}"`);
  }
  return corpora;
}

function checkPin(r: PinnedRepo, where: string): void {
  if (typeof r.repo !== 'string' || !/^[A-Za-z0-9][\w.-]*\/[\w.-]+$/.test(r.repo)) throw new Error(`${where}: "${r.repo}" is not owner/name`);
  if (typeof r.commit !== 'string' || !/^[0-9a-f]{40}$/.test(r.commit)) throw new Error(`${where}: ${r.repo}'s commit "${r.commit}" is not 40 hex digits`);
}

const slugOf = (repo: string) => repo.replace('/', '+');

/** The folder a pinned repository is materialized into. */
export function repoDir(pin: PinnedRepo, o: MaterializeOptions = {}): string {
  return path.join(corporaCacheDir(o), `${slugOf(pin.repo)}@${pin.commit.slice(0, 12)}`);
}

function git(gitDir: string, args: string[]): string {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} (in ${gitDir}) failed: ${r.stderr || r.error?.message}`);
  return r.stdout;
}

const hasCommit = (gitDir: string, commit: string) =>
  spawnSync('git', ['--git-dir', gitDir, 'cat-file', '-e', `${commit}^{commit}`], { stdio: 'ignore' }).status === 0;

/** A bare git directory holding the pinned commit: a mirror's, or one fetched into the cache. */
function gitDirFor(pin: PinnedRepo, o: MaterializeOptions): string {
  const mirror = o.mirror ?? process.env.HCI_BENCH_MIRROR;
  if (mirror) {
    for (const cand of [path.join(mirror, slugOf(pin.repo), 'repo'), path.join(mirror, `${slugOf(pin.repo)}.git`)]) {
      if (fs.existsSync(cand) && hasCommit(cand, pin.commit)) return cand;
    }
  }
  const own = path.join(corporaCacheDir(o), '.git', `${slugOf(pin.repo)}.git`);
  if (fs.existsSync(own) && hasCommit(own, pin.commit)) return own;
  o.log?.(`fetching ${pin.repo} at ${pin.commit.slice(0, 12)} from GitHub (depth 1)…`);
  fs.mkdirSync(own, { recursive: true });
  const run = (args: string[]) => {
    const r = spawnSync('git', args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr || r.error?.message}`);
  };
  if (!fs.existsSync(path.join(own, 'HEAD'))) run(['init', '--bare', '--quiet', own]);
  run(['--git-dir', own, 'fetch', '--quiet', '--depth', '1', `https://github.com/${pin.repo}.git`, pin.commit]);
  if (!hasCommit(own, pin.commit)) throw new Error(`${pin.repo}: commit ${pin.commit} was not fetched`);
  return own;
}

interface TreeEntry { mode: string; sha: string; path: string }

function listTree(gitDir: string, commit: string): TreeEntry[] {
  const out = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit]);
  const entries: TreeEntry[] = [];
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, sha] = rec.slice(0, tab).split(' ');
    if (type !== 'blob') continue; // submodules
    entries.push({ mode, sha, path: rec.slice(tab + 1) });
  }
  return entries;
}

/**
 * Streams `git cat-file --batch` for the entries, calling `each` with every blob (null when the git
 * directory lacks it), in order.
 */
async function catBlobs(gitDir: string, entries: readonly TreeEntry[], each: (e: TreeEntry, data: Buffer | null) => void): Promise<void> {
  const child = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`git cat-file --batch exited ${code}: ${stderr.join('')}`))));
  });
  // Requests are written as the answers are read (a pipe's buffer could otherwise fill both ways).
  let asked = 0;
  const ask = () => {
    let ok = true;
    while (ok && asked < entries.length) ok = child.stdin.write(`${entries[asked++].sha}\n`);
    if (asked >= entries.length) child.stdin.end();
    else child.stdin.once('drain', ask);
  };
  ask();
  let buf: Buffer = Buffer.alloc(0);
  let next = 0;
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      const nl = buf.indexOf(10);
      if (nl < 0) break;
      const header = buf.subarray(0, nl).toString();
      if (header.endsWith(' missing')) {
        each(entries[next++], null);
        buf = buf.subarray(nl + 1);
        continue;
      }
      const size = Number(header.split(' ')[2]);
      if (buf.length < nl + 1 + size + 1) break;
      each(entries[next++], buf.subarray(nl + 1, nl + 1 + size));
      buf = buf.subarray(nl + 1 + size + 1);
    }
  }
  await done;
  if (next !== entries.length) throw new Error(`git cat-file answered ${next} of ${entries.length} blobs`);
}

/**
 * The files of `pin.commit` in repoDir(pin) (written once; a later call reads the record beside it).
 * Written into a temporary folder first and renamed, so a half-written tree is never taken for one.
 */
export async function materializeRepo(pin: PinnedRepo, o: MaterializeOptions = {}): Promise<Materialized> {
  checkPin(pin, 'materializeRepo');
  const dir = repoDir(pin, o);
  const record = `${dir}.json`;
  if (fs.existsSync(record) && fs.existsSync(dir)) {
    const r = JSON.parse(fs.readFileSync(record, 'utf8')) as Materialized;
    if (r.commit === pin.commit) return { ...r, dir };
  }
  const gitDir = gitDirFor(pin, o);
  o.log?.(`materializing ${pin.repo} at ${pin.commit.slice(0, 12)} into ${dir}…`);
  const entries = listTree(gitDir, pin.commit);
  const part = `${dir}.part-${process.pid}`;
  fs.rmSync(part, { recursive: true, force: true });
  const missing: string[] = [];
  let files = 0;
  let bytes = 0;
  const made = new Set<string>();
  await catBlobs(gitDir, entries, (e, data) => {
    if (!data) {
      missing.push(e.path);
      return;
    }
    const file = path.join(part, e.path);
    const parent = path.dirname(file);
    if (!made.has(parent)) {
      fs.mkdirSync(parent, { recursive: true });
      made.add(parent);
    }
    if (e.mode === '120000') {
      try {
        fs.symlinkSync(data.toString(), file);
      } catch {
        // a link the file system cannot hold: left out, as git does on such systems
      }
      return;
    }
    fs.writeFileSync(file, data, { mode: e.mode === '100755' ? 0o755 : 0o644 });
    files++;
    bytes += data.length;
  });
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(part, dir);
  const result: Materialized = { repo: pin.repo, commit: pin.commit, dir, files, bytes, missing };
  fs.writeFileSync(record, `${JSON.stringify(result, null, 1)}\n`);
  return result;
}

/** Every repository of a named corpus of the manifest, materialized. */
export async function materializeCorpus(name: string, o: MaterializeOptions & { manifest?: string } = {}): Promise<{ name: string; entry: CorpusEntry; repos: Materialized[] }> {
  const corpora = readManifest(o.manifest);
  const entry = corpora[name];
  if (!entry) throw new Error(`no corpus "${name}" in ${o.manifest ?? MANIFEST()} (it has: ${Object.keys(corpora).join(', ')})`);
  const repos: Materialized[] = [];
  for (const pin of entry.repos) repos.push(await materializeRepo(pin, o));
  return { name, entry, repos };
}

/** The folder name a repository gets in a corpus of several (its name; owner+name if two share one). */
export function folderInCorpus(pin: PinnedRepo, all: readonly PinnedRepo[]): string {
  const name = pin.repo.split('/')[1];
  return all.filter((p) => p.repo.split('/')[1] === name).length > 1 ? slugOf(pin.repo) : name;
}
