// The workspace walk: which files are candidates for indexing, and every skip counted by reason.
// Owns traversal order, pruning (ignore rules, denied segments, extra include roots), symlink
// policy, the file-name secret denylist and the file-count limit. Reading contents, the binary
// probe and content secret patterns are the indexer's (it adds 'binary' / 'secret_content').
import type { DirEntry, WorkspaceFs } from '../platform.ts';
import { HciError } from '../platform.ts';
import type { Settings } from '../settings.ts';
import type { IgnoreChain } from './ignore-rules.ts';
import { isIgnored, loadDirLayer, loadInfoExclude } from './ignore-rules.ts';
import { extensionOf, languageOf } from './languages.ts';
import { isSecretPath } from './secrets.ts';

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

  async walkDir(dir: Dir): Promise<void> {
    this.checkCancel();
    let entries: DirEntry[];
    try {
      entries = await (dir.listing ?? this.fs.readDir(dir.rel));
    } catch (e) {
      if (dir.rel === '') {
        throw new HciError('workspace_unreadable', `cannot read workspace ${this.fs.rootLabel}: ${(e as Error).message}`);
      }
      this.skip(dir.rel, 'unreadable');
      return;
    }
    this.dirs++;
    entries.sort((a, b) => byCodeUnit(a.name, b.name));

    if (dir.transit) {
      for (const e of entries) {
        const rel = join(dir.rel, e.name);
        if (e.kind !== 'dir' || !(this.extraRoots.has(rel) || this.extraAncestors.has(rel))) continue;
        const isRoot = this.extraRoots.has(rel);
        await this.walkDir(this.child(dir, rel, join(dir.real, e.name), !isRoot, isRoot ? [] : undefined));
      }
      this.opts.onProgress?.({ dirs: this.dirs, files: this.indexable });
      return;
    }

    const layer = await loadDirLayer(this.fs, dir.rel, entries, this.settings.ignore_files);
    const chain = layer ? [...dir.chain, layer] : dir.chain;
    const subdirs: Dir[] = [];
    const candidates: string[] = [];

    for (const e of entries) {
      const rel = join(dir.rel, e.name);
      if (e.kind === 'dir') {
        const reason = this.denied.has(e.name) ? 'denied_path' : isIgnored(chain, rel, true) ? 'ignored' : null;
        const real = join(dir.real, e.name);
        if (this.extraRoots.has(rel)) subdirs.push(this.child(dir, rel, real, false, []));
        else if (reason === null) subdirs.push({ ...this.child(dir, rel, real, false), chain });
        else {
          this.skip(rel, reason);
          if (this.extraAncestors.has(rel)) subdirs.push(this.child(dir, rel, real, true));
        }
        continue;
      }
      if (this.denied.has(e.name)) this.skip(rel, 'denied_path');
      else if (isIgnored(chain, rel, false)) this.skip(rel, 'ignored');
      else if (e.kind === 'symlink') await this.followLink(dir, chain, rel, subdirs);
      else if (this.nameCheck(rel)) {
        if (e.kind === 'other') this.skip(rel, 'unreadable');
        else candidates.push(rel);
      }
    }

    for (const sub of subdirs) this.prefetch(sub);
    await this.statFiles(candidates);
    this.opts.onProgress?.({ dirs: this.dirs, files: this.indexable });
    for (const sub of subdirs) await this.walkDir(sub);
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

  /** Secret names, extensions and the C# switch; true when the file is still a candidate. */
  private nameCheck(rel: string, target?: string): boolean {
    if (isSecretPath(rel) || (target !== undefined && isSecretPath(target))) {
      this.skip(rel, 'secret_name');
      return false;
    }
    const ext = extensionOf(rel);
    // Excluded "extensions" may span dots (`.min.js`, `.g.cs`): compare the end of the name.
    const lower = rel.toLowerCase();
    if (!this.include.has(ext) || this.exclude.has(ext) || [...this.exclude].some((e) => lower.endsWith(e))) {
      this.skip(rel, 'unsupported_ext');
      return false;
    }
    if (ext === '.cs' && !this.settings.include_cs_in_fts) {
      this.skip(rel, 'cs_excluded');
      return false;
    }
    return true;
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
    if (!this.nameCheck(rel, real)) return;
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

  private accept(path: string, size: number, mtimeMs: number): void {
    if (size > this.settings.max_indexed_file_bytes) return this.skip(path, 'too_large');
    this.indexable++;
    if (this.files.length < this.settings.max_files) {
      this.files.push({ path, size, mtimeMs, ext: extensionOf(path), lang: languageOf(path) });
    }
  }
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
  await walk.walkDir({ rel: '', real: '', chain: exclude ? [exclude] : [], realChain: new Set(['']), transit: false });
  if (walk.indexable > settings.max_files) {
    throw new HciError(
      'file_limit',
      `workspace has ${walk.indexable} indexable files, over max_files = ${settings.max_files}`,
      'raise max_files in .hci/settings.toml or narrow include_extensions / add ignore rules',
    );
  }
  walk.files.sort((a, b) => byCodeUnit(a.path, b.path));
  return { files: walk.files, skipped: walk.skipped, skippedSamples: walk.samples };
}
