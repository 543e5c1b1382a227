// The workspace walk: which files are candidates for indexing, and every skip counted by reason.
// Owns traversal order, pruning (ignore rules, denied segments, folders of restored NuGet packages
// (nuget-folders.ts), extra include roots), symlink policy, the file-name secret denylist, the file-count limit and the size rule (size-policy.ts). Reading contents, the binary
// probe and content secret patterns are the indexer's (it adds 'binary' / 'secret_content').
// The same rules also answer for some paths only (scanPaths: a watcher's changed files), walking
// just the ancestors of each path and the subtrees of directory paths.
import type { DirEntry, WorkspaceFs } from '../platform.ts';
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import type { IgnoreChain, IgnoreLayer } from './ignore-rules.ts';
import { isIgnored, loadDirLayer, loadInfoExclude } from './ignore-rules.ts';
import { extensionOf, languageOf } from './languages.ts';
import { isRestoredNugetPackage } from './nuget-folders.ts';
import { isSecretPath } from './secrets.ts';
import { sizeVerdict } from './size-policy.ts';

export type SkipReason =
  | 'ignored' | 'denied_path' | 'unsupported_ext' | 'too_large' | 'binary' | 'secret_name'
  | 'secret_content' | 'symlink_outside' | 'symlink_loop' | 'unreadable' | 'limit' | 'cs_excluded';
export type SkipCounts = Partial<Record<SkipReason, number>>;
export interface ScannedFile { path: string; size: number; mtimeMs: number; ext: string; lang: string }
export interface ScanResult {
  /** Sorted by path (UTF-16 code unit order). */
  files: ScannedFile[];
  skipped: SkipCounts;
  /** At most SAMPLES_PER_REASON per reason, in walk order. */
  skippedSamples: Array<{ path: string; reason: SkipReason }>;
}
export interface ScanOptions {
  signal?: AbortSignal;
  onProgress?: (p: { dirs: number; files: number }) => void;
}

export const SAMPLES_PER_REASON = 200;

export function addSkip(counts: SkipCounts, reason: SkipReason, n = 1): void {
  counts[reason] = (counts[reason] ?? 0) + n;
}

const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const join = (dir: string, name: string) => (dir === '' ? name : `${dir}/${name}`);
const STAT_BATCH = 256;

interface Dir {
  rel: string;
  /** Real (symlink-free) workspace-relative path of this directory. */
  real: string;
  chain: IgnoreChain;
  /** Real paths of this directory and its ancestors, for loop detection. */
  realChain: ReadonlySet<string>;
  /** Pruned directory walked only to reach extra include roots below it. */
  transit: boolean;
  /** The listing, requested ahead of time so directory reads overlap (results stay in walk order). */
  listing?: Promise<DirEntry[]>;
}

/** An opened directory: its sorted listing, the ignore chain of its entries, the directory as walked on. */
interface OpenedDir { entries: DirEntry[]; chain: IgnoreChain; dir: Dir }

class Walk {
  readonly files: ScannedFile[] = [];
  readonly skipped: SkipCounts = {};
  readonly samples: Array<{ path: string; reason: SkipReason }> = [];
  private readonly sampleCounts: SkipCounts = {};
  private readonly include: Set<string>;
  private readonly exclude: Set<string>;
  private readonly denied: Set<string>;
  private readonly extraRoots = new Set<string>();
  private readonly extraAncestors = new Set<string>();
  private readonly linkedDirs = new Set<string>();
  indexable = 0;
  dirs = 0;

  constructor(
    private readonly fs: WorkspaceFs,
    private readonly settings: Settings,
    private readonly opts: ScanOptions,
  ) {
    this.include = new Set(settings.include_extensions.map((e) => e.toLowerCase()));
    this.exclude = new Set(settings.exclude_extensions.map((e) => e.toLowerCase()));
    this.denied = new Set(settings.exclude_path_segments);
    for (const raw of settings.extra_include_roots) {
      const segs = raw.split('/').filter((s) => s !== '' && s !== '.');
      if (!segs.length) continue;
      this.extraRoots.add(segs.join('/'));
      for (let i = 1; i < segs.length; i++) this.extraAncestors.add(segs.slice(0, i).join('/'));
    }
  }

  skip(path: string, reason: SkipReason): void {
    addSkip(this.skipped, reason);
    if ((this.sampleCounts[reason] ?? 0) < SAMPLES_PER_REASON) {
      addSkip(this.sampleCounts, reason);
      this.samples.push({ path, reason });
    }
  }

  checkCancel(): void {
    if (this.opts.signal?.aborted) throw new HciError('cancelled', 'scan cancelled', 'run the scan again when ready');
  }

  /**
   * A directory's listing (sorted), the ignore chain that applies to its entries and the directory as
   * the walk goes on in it (in transit when it is a restored package on the way to an extra include
   * root); null when unreadable or a restored package and nothing more.
   */
  private async openDir(dir: Dir): Promise<OpenedDir | null> {
    let entries: DirEntry[];
    try {
      entries = await (dir.listing ?? this.fs.readDir(dir.rel));
    } catch (e) {
      if (dir.rel === '') {
        throw new HciError('workspace_unreadable', `cannot read workspace ${this.fs.rootLabel}: ${(e as Error).message}`);
      }
      this.skip(dir.rel, 'unreadable');
      return null;
    }
    this.dirs++;
    entries.sort((a, b) => byCodeUnit(a.name, b.name));
    if (this.restoredPackage(dir, entries)) {
      this.skip(dir.rel, 'denied_path');
      // Still walked towards an extra include root below it, and nothing else.
      if (!this.extraAncestors.has(dir.rel)) return null;
      dir = { ...dir, transit: true };
    }
    // A transit directory's own ignore files do not matter: only extra include roots below it are walked.
    const layer = dir.transit ? null : await loadDirLayer(this.fs, dir.rel, entries, this.settings.ignore_files);
    return { entries, chain: layer ? [...dir.chain, layer] : dir.chain, dir };
  }

  /**
   * A folder NuGet restored a package into (nuget-folders.ts; setting skip_nuget_packages), known
   * from its own listing; never the workspace root, a transit folder or an extra include root.
   */
  private restoredPackage(dir: Dir, entries: DirEntry[]): boolean {
    if (!this.settings.skip_nuget_packages || dir.rel === '' || dir.transit || this.extraRoots.has(dir.rel)) return false;
    const segs = dir.rel.split('/');
    return isRestoredNugetPackage(segs[segs.length - 1], segs.length > 1 ? segs[segs.length - 2] : '', entries.map((e) => e.name));
  }

  async walkDir(dir: Dir): Promise<void> {
    this.checkCancel();
    const opened = await this.openDir(dir);
    if (!opened) return;
    const { entries, chain } = opened;
    dir = opened.dir;
    const subdirs: Dir[] = [];
    const candidates: string[] = [];

    for (const e of entries) {
      const rel = join(dir.rel, e.name);
      if (e.kind === 'dir') {
        const v = this.judgeDir(dir, chain, e.name);
        if (v.skip) this.skip(rel, v.skip);
        if (v.next) subdirs.push(v.next);
        continue;
      }
      if (dir.transit) continue;
      const v = this.judgeEntry(chain, rel, e);
      if (v === 'link') await this.followLink(dir, chain, rel, subdirs);
      else if (v === 'stat') candidates.push(rel);
      else this.skip(rel, v);
    }

    for (const sub of subdirs) this.prefetch(sub);
    await this.statFiles(candidates);
    this.opts.onProgress?.({ dirs: this.dirs, files: this.indexable });
    for (const sub of subdirs) await this.walkDir(sub);
  }

  /**
   * What the walk does with a (real) subdirectory: descend into it (`next`, maybe in transit only
   * towards extra include roots), count it as skipped, or both (a pruned directory on the way to an
   * extra include root). Neither: a directory of a transit walk that leads to no extra root.
   */
  private judgeDir(dir: Dir, chain: IgnoreChain, name: string): { next?: Dir; skip?: SkipReason } {
    const rel = join(dir.rel, name);
    const real = join(dir.real, name);
    if (dir.transit) {
      if (this.extraRoots.has(rel)) return { next: this.child(dir, rel, real, false, []) };
      if (this.extraAncestors.has(rel)) return { next: this.child(dir, rel, real, true) };
      return {};
    }
    const reason = this.denied.has(name) ? 'denied_path' : isIgnored(chain, rel, true) ? 'ignored' : null;
    if (this.extraRoots.has(rel)) return { next: this.child(dir, rel, real, false, []) };
    if (reason === null) return { next: { ...this.child(dir, rel, real, false), chain } };
    return { skip: reason, next: this.extraAncestors.has(rel) ? this.child(dir, rel, real, true) : undefined };
  }

  /** What the walk does with a non-directory entry of a walked directory: stat it, resolve the link, or a skip. */
  private judgeEntry(chain: IgnoreChain, rel: string, e: DirEntry): SkipReason | 'link' | 'stat' {
    if (this.denied.has(e.name)) return 'denied_path';
    if (isIgnored(chain, rel, false)) return 'ignored';
    if (e.kind === 'symlink') return 'link';
    const name = this.nameVerdict(rel);
    if (name) return name;
    return e.kind === 'other' ? 'unreadable' : 'stat';
  }

  private prefetch(dir: Dir): void {
    dir.listing = this.fs.readDir(dir.rel);
    dir.listing.catch(() => {}); // handled when walkDir awaits it
  }

  private child(parent: Dir, rel: string, real: string, transit: boolean, chain?: IgnoreChain): Dir {
    const realChain = new Set(parent.realChain);
    realChain.add(real);
    return { rel, real, chain: chain ?? parent.chain, realChain, transit };
  }

  /** Secret names, extensions and the C# switch: the skip reason, or null when the file is still a candidate. */
  private nameVerdict(rel: string, target?: string): SkipReason | null {
    if (isSecretPath(rel) || (target !== undefined && isSecretPath(target))) return 'secret_name';
    const ext = extensionOf(rel);
    // Excluded "extensions" may span dots (`.min.js`, `.g.cs`): compare the end of the name.
    const lower = rel.toLowerCase();
    if (!this.include.has(ext) || this.exclude.has(ext) || [...this.exclude].some((e) => lower.endsWith(e))) return 'unsupported_ext';
    if (ext === '.cs' && !this.settings.include_cs_in_fts) return 'cs_excluded';
    return null;
  }

  private async followLink(dir: Dir, chain: IgnoreChain, rel: string, subdirs: Dir[]): Promise<void> {
    let target: Awaited<ReturnType<WorkspaceFs['resolveLink']>>;
    try {
      target = await this.fs.resolveLink(rel);
    } catch {
      target = null;
    }
    if (target === null) return this.skip(rel, 'unreadable');
    if (target === 'outside') return this.skip(rel, 'symlink_outside');
    const real = target.inside;
    // A link must not smuggle denied paths (.git, .hci, node_modules, …) into the index.
    if (real.split('/').some((s) => this.denied.has(s))) return this.skip(rel, 'denied_path');
    const st = await this.fs.stat(rel).catch(() => null);
    if (!st) return this.skip(rel, 'unreadable');
    if (st.kind === 'dir') {
      if (isIgnored(chain, rel, true)) return this.skip(rel, 'ignored');
      if (real === '' || dir.realChain.has(real) || this.linkedDirs.has(real)) return this.skip(rel, 'symlink_loop');
      this.linkedDirs.add(real);
      subdirs.push({ ...this.child(dir, rel, real, false), chain });
      return;
    }
    const name = this.nameVerdict(rel, real);
    if (name) return this.skip(rel, name);
    if (st.kind !== 'file') return this.skip(rel, 'unreadable');
    this.accept(rel, st.size, st.mtimeMs);
  }

  private async statFiles(paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += STAT_BATCH) {
      this.checkCancel();
      const batch = paths.slice(i, i + STAT_BATCH);
      const stats = await Promise.all(batch.map((p) => this.fs.stat(p).catch(() => null)));
      batch.forEach((p, j) => {
        const st = stats[j];
        if (!st || st.kind !== 'file') this.skip(p, 'unreadable');
        else this.accept(p, st.size, st.mtimeMs);
      });
    }
  }

  /** Listings of the ancestors of probed paths, read once per probe run. */
  private readonly probed = new Map<string, Promise<OpenedDir | null>>();

  /**
   * The walk's verdict on one path, reached the way the walk would reach it: through its ancestors'
   * listings, ignore files, denied segments and extra include roots. A file is accepted or counted as
   * skipped; a directory is walked like any other. Returns how many files the path stands for (1
   * for a file path, whether or not it exists; the files accepted below a directory), or 'linked'
   * when the path leads through or into a symlinked directory: which alias of a linked directory
   * the walk keeps depends on walk order, so only a whole walk decides.
   */
  async probe(root: Dir, path: string): Promise<number | 'linked'> {
    if (path === '') {
      await this.walkDir(root);
      return this.linkedDirs.size ? 'linked' : this.indexable;
    }
    const segs = path.split('/');
    let dir = root;
    for (let i = 0; i < segs.length; i++) {
      this.checkCancel();
      if (!this.probed.has(dir.rel)) this.probed.set(dir.rel, this.openDir(dir));
      const opened = await this.probed.get(dir.rel)!;
      if (!opened) return 1; // an unreadable ancestor or a restored package: nothing below it is indexed
      dir = opened.dir;
      const rel = join(dir.rel, segs[i]);
      const e = opened.entries.find((x) => x.name === segs[i]);
      const last = i === segs.length - 1;
      if (!e) return 1; // gone (or never there)
      if (e.kind === 'dir') {
        const v = this.judgeDir(dir, opened.chain, e.name);
        if (!last) {
          if (!v.next) return 1; // pruned: the walk never gets below it
          dir = v.next;
          continue;
        }
        if (v.skip) this.skip(rel, v.skip);
        if (!v.next) return 0;
        const before = this.indexable;
        await this.walkDir(v.next);
        return this.linkedDirs.size ? 'linked' : this.indexable - before;
      }
      if (dir.transit) return 1; // a transit walk looks at directories only
      const v = this.judgeEntry(opened.chain, rel, e);
      if (v === 'link') {
        if (!last) return 'linked'; // perhaps a linked directory: let the whole walk decide
        const subdirs: Dir[] = [];
        await this.followLink(dir, opened.chain, rel, subdirs);
        return subdirs.length ? 'linked' : 1;
      }
      if (!last) return 1; // a file where the path needs a directory
      if (v === 'stat') await this.statFiles([rel]);
      else this.skip(rel, v);
      return 1;
    }
    return 1;
  }

  private accept(path: string, size: number, mtimeMs: number): void {
    const lang = languageOf(path);
    if (sizeVerdict(this.settings, lang, size) === 'too_large') return this.skip(path, 'too_large');
    this.indexable++;
    if (this.files.length < this.settings.max_files) {
      this.files.push({ path, size, mtimeMs, ext: extensionOf(path), lang });
    }
  }
}

function rootDir(exclude: IgnoreLayer | null): Dir {
  return { rel: '', real: '', chain: exclude ? [exclude] : [], realChain: new Set(['']), transit: false };
}

function limitError(indexable: number, settings: Settings): HciError {
  return new HciError(
    'file_limit',
    `workspace has ${indexable} indexable files, over max_files = ${settings.max_files}`,
    'raise max_files in .hci/settings.toml or narrow include_extensions / add ignore rules',
  );
}

/**
 * Walks the workspace and returns the files to index, sorted by path, with skip counts by reason.
 * Throws HciError 'file_limit' when more than settings.max_files files are indexable (after
 * counting them all), 'cancelled' when opts.signal aborts, 'workspace_unreadable' when the root
 * cannot be listed.
 */
export async function scanWorkspace(fs: WorkspaceFs, settings: Settings, opts: ScanOptions = {}): Promise<ScanResult> {
  const walk = new Walk(fs, settings, opts);
  walk.checkCancel();
  const exclude = await loadInfoExclude(fs);
  await walk.walkDir(rootDir(exclude));
  if (walk.indexable > settings.max_files) throw limitError(walk.indexable, settings);
  walk.files.sort((a, b) => byCodeUnit(a.path, b.path));
  return { files: walk.files, skipped: walk.skipped, skippedSamples: walk.samples };
}

export interface PathScanResult extends ScanResult {
  /** Paths considered: one per file path given (present or not), plus the files found below directory paths. */
  considered: number;
}

/**
 * The walk's answer for some paths only (workspace-relative, as toWorkspacePath returns them): the
 * files among them (and below the directories among them) that a whole walk would return, by the
 * very same rules, with skips counted. Reads only the ancestors of each path and the subtrees of
 * directory paths. A path that does not exist, or that the walk would not reach, yields nothing.
 * Returns null when a path leads through a symlinked directory (then only a whole walk can say
 * which alias is indexed). Throws like scanWorkspace ('file_limit' for a directory path holding
 * more than max_files indexable files, 'cancelled').
 */
export async function scanPaths(fs: WorkspaceFs, settings: Settings, paths: readonly string[], opts: ScanOptions = {}): Promise<PathScanResult | null> {
  const walk = new Walk(fs, settings, opts);
  walk.checkCancel();
  const root = rootDir(await loadInfoExclude(fs));
  let considered = 0;
  for (const p of paths) {
    const n = await walk.probe(root, p);
    if (n === 'linked') return null;
    considered += n;
  }
  if (walk.indexable > settings.max_files) throw limitError(walk.indexable, settings);
  const seen = new Set<string>();
  const files = walk.files.filter((f) => !seen.has(f.path) && seen.add(f.path)).sort((a, b) => byCodeUnit(a.path, b.path));
  return { files, skipped: walk.skipped, skippedSamples: walk.samples, considered };
}

/**
 * A caller's path as the walk names it: workspace-relative, '/'-separated, without '.', empty
 * segments or a trailing slash ('' is the workspace root). A `\` is a separator unless the file
 * source's names may hold it (WorkspaceFs.backslashInNames). Throws HciError
 * 'path_outside_workspace' for absolute paths and any '..' segment.
 */
export function toWorkspacePath(p: string, backslashInNames = false): string {
  const raw = backslashInNames ? String(p) : String(p).replace(/\\/g, '/');
  if (raw.startsWith('/') || /^[a-zA-Z]:/.test(raw) || raw.includes('\0')) {
    throw new HciError('path_outside_workspace', `"${p}" is not a path inside the workspace`, 'pass a workspace-relative path such as src/App.cs');
  }
  const segs = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segs.includes('..')) {
    throw new HciError('path_outside_workspace', `"${p}" leaves the workspace`, 'pass a workspace-relative path without ".." segments, such as src/App.cs');
  }
  return segs.join('/');
}
