// Indexing some paths only (IndexOptions.paths, `hci index --path`, the watcher's runs): the walker's
// verdict on single paths matches a whole walk exactly, and a targeted pass updates, adds and removes
// rows without scanning the rest of the tree, refuses paths outside the workspace and falls back to a
// whole pass when the index is not complete.
// @lane cli
import { describe, it, expect, afterEach } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import * as path from 'node:path';
import { openWorkspace, createNodeIndexStorage, loadEngine } from '../runtimes/node/index.ts';
import { IndexStore } from '../core/index/store.ts';
import { readMeta } from '../core/index/meta.ts';
import { HciError } from '../core/platform.ts';
import { validateSettings } from '../core/settings.ts';
import { scanPaths, scanWorkspace, toWorkspacePath } from '../core/scan/walker.ts';
import { FreshnessTracker, wholePassFilter, changeFilter } from '../core/freshness.ts';
import { defaultSettings } from '../core/settings.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { createTmpWorkspace, type TmpWorkspace, type WorkspaceFiles, csharpClass } from './helpers/tmp-workspace.ts';

const bin = path.resolve(import.meta.dirname, '../bin/hci.js');

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function tmp(files: WorkspaceFiles): Promise<TmpWorkspace> {
  const ws = await createTmpWorkspace(files);
  cleanups.push(() => ws.cleanup());
  return ws;
}

/** Every path below root (files, directories, symlinks), workspace-relative, without .hci. */
function allPaths(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (r === '.hci') continue;
    out.push(r);
    if (e.isDirectory()) out.push(...allPaths(root, r));
  }
  return out;
}

async function indexRows(root: string) {
  const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 2000 });
  try {
    return await store.read((db) => ({
      paths: db.selectValues('SELECT path FROM files ORDER BY path') as string[],
      chunks: Number(db.selectValue('SELECT count(*) FROM chunks')),
      ftsRows: Number(db.selectValue('SELECT count(*) FROM chunks_fts_docsize')),
      skippedRows: Number(db.selectValue('SELECT count(*) FROM skipped')),
      meta: readMeta(db),
    }));
  } finally {
    store.close();
  }
}

async function expectHciError(p: Promise<unknown>, code: string): Promise<HciError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(HciError);
  expect((e as HciError).code).toBe(code);
  return e as HciError;
}

describe('scanPaths: the walker on single paths', () => {
  const files: WorkspaceFiles = {
    '.gitignore': '*.tmp.md\n!keep.tmp.md\n/build\nlogs/\n**/generated/**\nexcluded-dir/\n!excluded-dir/inner.cs\nvendor/\n',
    '.git/info/exclude': 'secret-plan.md\n',
    'a.cs': 'x', 'x.tmp.md': 'x', 'keep.tmp.md': 'x', 'secret-plan.md': 'x', 'notes.txt': 'x', '.env': 'A=1',
    'build/out.cs': 'x', 'src/build/y.md': 'x', 'logs/l.cs': 'x', 'src/logs/l.cs': 'x',
    'src/generated/g.cs': 'x', 'excluded-dir/inner.cs': 'x',
    'src/.gitignore': '*.cs\n!Keep.cs\n', 'src/.hciignore': 'notes.md\n',
    'src/A.cs': 'x', 'src/Keep.cs': 'x', 'src/sub/B.cs': 'x', 'src/sub/Keep.cs': 'x', 'src/notes.md': 'x',
    'lib/.gitignore': '!vendor/\n', 'lib/vendor/v.cs': 'x', 'vendor/w.cs': 'x',
    'node_modules/@acme/lib/index.ts': 'x', 'node_modules/@acme/lib/.gitignore': 'dist/\n', 'node_modules/@acme/lib/dist/out.js': 'x',
    'node_modules/left-pad/index.js': 'x', 'gen/Api.g.cs': 'x', 'gen/Api.cs': 'x',
    'big/huge.md': 'y'.repeat(5000), 'obj/Debug/x.cs': 'x',
  };

  it('judges every path of a tree exactly as the whole walk does (ignore files, denied segments, extra roots, limits)', async () => {
    const ws = await tmp(files);
    await symlink('../a.cs', ws.abs('src/alias-to-a.cs'));
    await symlink('missing.cs', ws.abs('broken.cs'));
    const settings = validateSettings({ extra_include_roots: ['node_modules/@acme/lib', 'gen'], max_indexed_file_bytes: 4096, exclude_extensions: ['.g.cs'] });
    const wfs = createNodeWorkspaceFs(ws.root);
    const whole = await scanWorkspace(wfs, settings);
    const expected = whole.files.map((f) => f.path);
    expect(expected).toEqual([
      'a.cs', 'gen/Api.cs', 'keep.tmp.md', 'lib/vendor/v.cs', 'node_modules/@acme/lib/index.ts',
      'src/Keep.cs', 'src/build/y.md', 'src/sub/Keep.cs',
    ]);
    expect(whole.skippedSamples.find((x) => x.path === 'src/alias-to-a.cs')?.reason).toBe('ignored'); // src/.gitignore: *.cs
    expect(whole.skippedSamples.find((x) => x.path === 'broken.cs')?.reason).toBe('unreadable');
    for (const p of allPaths(ws.root)) {
      const r = await scanPaths(wfs, settings, [p]);
      expect(r, p).not.toBeNull();
      const under = whole.files.filter((f) => f.path === p || f.path.startsWith(`${p}/`));
      expect(r!.files, p).toEqual(under);
    }
    // Several paths at once, a missing one among them.
    const many = await scanPaths(wfs, settings, ['src', 'gen/Api.cs', 'gone/x.cs', 'big/huge.md']);
    expect(many!.files.map((f) => f.path)).toEqual(['gen/Api.cs', 'src/Keep.cs', 'src/build/y.md', 'src/sub/Keep.cs']);
    expect(many!.skipped).toMatchObject({ too_large: 1, ignored: 6 }); // src/A.cs, sub/B.cs, alias, notes.md, logs/, generated/
    expect(many!.considered).toBe(3 + 3); // three file paths (one missing) + the three files found below src
  });

  it('leaves a path through a symlinked directory to the whole walk', async () => {
    const ws = await tmp({ 'real/a.cs': 'x', 'b.cs': 'x' });
    await symlink(ws.abs('real'), ws.abs('linked'));
    const wfs = createNodeWorkspaceFs(ws.root);
    const settings = defaultSettings();
    expect(await scanPaths(wfs, settings, ['linked/a.cs'])).toBeNull();
    expect(await scanPaths(wfs, settings, ['linked'])).toBeNull();
    expect(await scanPaths(wfs, settings, [''])).toBeNull(); // the root walk meets the link
    expect((await scanPaths(wfs, settings, ['real/a.cs', 'b.cs']))!.files.map((f) => f.path)).toEqual(['b.cs', 'real/a.cs']);
  });

  it('normalises workspace paths and refuses the ones outside', () => {
    expect(toWorkspacePath('./src//a.cs')).toBe('src/a.cs');
    expect(toWorkspacePath('src\\Web\\')).toBe('src/Web');
    expect(toWorkspacePath('.')).toBe('');
    for (const bad of ['../x.cs', 'src/../../x', '/etc/passwd', 'C:/x.cs', 'a/..']) {
      expect(() => toWorkspacePath(bad), bad).toThrow(HciError);
    }
  });
});

describe('index({ paths })', () => {
  it('re-indexes one edited file without scanning the tree: searchable, old text gone, files_scanned = paths given', async () => {
    const files: WorkspaceFiles = { 'src/Alpha.cs': csharpClass('Alpha', '    // OldMarkerWalrus\n') };
    for (let i = 0; i < 40; i++) files[`src/gen/F${i}.cs`] = csharpClass(`F${i}`);
    const ws = await tmp(files);
    const w = await openWorkspace(ws.root);
    try {
      expect((await w.index()).files_scanned).toBe(41);
      await ws.write({ 'src/Alpha.cs': csharpClass('Alpha', '    // NewMarkerNarwhal\n') });
      const phases: Array<{ phase: string; total: number }> = [];
      const s = await w.index({ paths: ['src/Alpha.cs'], onProgress: (p) => phases.push({ phase: p.phase, total: p.filesTotal }) });
      expect(s).toMatchObject({ files_scanned: 1, files_indexed: 1, files_unchanged: 0, files_removed: 0 });
      expect(phases.find((p) => p.phase === 'index')?.total).toBe(1);
      expect((await w.search({ query: 'NewMarkerNarwhal' })).hits.map((h) => h.path)).toEqual(['src/Alpha.cs']);
      expect((await w.search({ query: 'OldMarkerWalrus' })).status).toBe('empty');
      // Unchanged: the same path again reads nothing.
      expect(await w.index({ paths: ['src/Alpha.cs'] })).toMatchObject({ files_scanned: 1, files_indexed: 0, files_unchanged: 1, bytes_read: 0 });
    } finally {
      w.close();
    }
    const rows = await indexRows(ws.root);
    expect(rows.paths).toHaveLength(41);
    expect(rows.ftsRows).toBe(rows.chunks);
  });

  it('removes a deleted path, adds a new one, and keeps the last whole scan\'s skip counts', async () => {
    const ws = await tmp({ 'src/A.cs': csharpClass('A'), 'src/B.cs': csharpClass('B'), 'notes.txt': 'not indexed', 'app.dll': 'x' });
    const w = await openWorkspace(ws.root);
    try {
      await w.index();
      const before = await indexRows(ws.root);
      expect(JSON.parse(before.meta.skipped_counts)).toMatchObject({ unsupported_ext: 2 });
      fs.rmSync(ws.abs('src/B.cs'));
      await ws.write({ 'src/C.cs': csharpClass('Gamma') });
      const s = await w.index({ paths: ['src/B.cs', 'src/C.cs', 'notes.txt'] });
      expect(s).toMatchObject({ files_scanned: 3, files_indexed: 1, files_removed: 1 });
      expect(s.skipped).toEqual({ unsupported_ext: 1 });
      expect((await w.search({ query: 'RunGamma' })).hits[0]?.path).toBe('src/C.cs');
      expect((await w.search({ query: 'RunB' })).status).toBe('empty');
      const after = await indexRows(ws.root);
      expect(after.paths).toEqual(['src/A.cs', 'src/C.cs']);
      expect(after.meta.skipped_counts).toBe(before.meta.skipped_counts);
      expect(after.skippedRows).toBe(before.skippedRows);
      expect(after.meta.build_state).toBe('complete');
      expect(Number(after.meta.generation)).toBeGreaterThan(Number(before.meta.generation));
    } finally {
      w.close();
    }
  });

  it('removes a path that is now ignored, or now too large', async () => {
    const ws = await tmp({ 'src/A.cs': csharpClass('A'), 'src/Secretish.cs': csharpClass('Hidden'), 'docs/big.md': '# small\n' });
    const w = await openWorkspace(ws.root, { settings: { max_indexed_file_bytes: 2000 } });
    try {
      await w.index();
      await ws.write({ '.gitignore': 'Secretish.cs\n', 'docs/big.md': `# big\n${'word '.repeat(1000)}\n` });
      const s = await w.index({ paths: ['src/Secretish.cs', 'docs/big.md'] });
      expect(s).toMatchObject({ files_scanned: 2, files_indexed: 0, files_removed: 2 });
      expect(s.skipped).toEqual({ ignored: 1, too_large: 1 });
      expect((await indexRows(ws.root)).paths).toEqual(['src/A.cs']);
      expect((await w.search({ query: 'RunHidden' })).status).toBe('empty');
    } finally {
      w.close();
    }
  });

  it('a directory path stands for its subtree: new files added, files no longer there removed, the rest untouched', async () => {
    const ws = await tmp({ 'src/Web/A.cs': csharpClass('A'), 'src/Web/B.cs': csharpClass('B'), 'src/Core/C.cs': csharpClass('C'), 'src/Old/D.cs': csharpClass('D') });
    const w = await openWorkspace(ws.root);
    try {
      await w.index();
      fs.rmSync(ws.abs('src/Web/B.cs'));
      fs.rmSync(ws.abs('src/Core/C.cs')); // not in the paths: stays indexed until a pass covers it
      await ws.write({ 'src/Web/Pages/E.cs': csharpClass('E'), 'src/Web/bin/F.cs': csharpClass('F') });
      const s = await w.index({ paths: ['src/Web/'] });
      expect(s).toMatchObject({ files_scanned: 2, files_indexed: 1, files_unchanged: 1, files_removed: 1 });
      expect(s.skipped).toEqual({ denied_path: 1 });
      expect((await indexRows(ws.root)).paths).toEqual(['src/Core/C.cs', 'src/Old/D.cs', 'src/Web/A.cs', 'src/Web/Pages/E.cs']);
      // A folder that is gone: every row below it goes.
      fs.rmSync(ws.abs('src/Old'), { recursive: true });
      expect(await w.index({ paths: ['src/Old'] })).toMatchObject({ files_scanned: 1, files_removed: 1 });
      // A folder given along with a file inside it counts once.
      expect(await w.index({ paths: ['src/Web', 'src/Web/A.cs'] })).toMatchObject({ files_scanned: 2, files_unchanged: 2 });
      expect((await indexRows(ws.root)).paths).toEqual(['src/Core/C.cs', 'src/Web/A.cs', 'src/Web/Pages/E.cs']);
      // The root means the whole workspace: a whole incremental pass.
      expect(await w.index({ paths: ['.'] })).toMatchObject({ files_scanned: 2, files_removed: 1 });
    } finally {
      w.close();
    }
  });

  it('refuses paths outside the workspace with a structured error, and `full` with paths', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A') });
    const w = await openWorkspace(ws.root);
    try {
      await w.index();
      const e = await expectHciError(w.index({ paths: ['../outside.cs'] }), 'path_outside_workspace');
      expect(e.hint).toMatch(/workspace-relative/);
      await expectHciError(w.index({ paths: ['a.cs', '/etc/passwd'] }), 'path_outside_workspace');
      await expectHciError(w.index({ paths: ['a.cs'], full: true }), 'invalid_request');
      // Refused before anything is written or a fallback scan starts.
      expect((await indexRows(ws.root)).meta.build_state).toBe('complete');
    } finally {
      w.close();
    }
    // Also without an index (when the pass would fall back to a whole scan).
    const fresh = await tmp({ 'a.cs': csharpClass('A') });
    const w2 = await openWorkspace(fresh.root);
    try {
      await expectHciError(w2.index({ paths: ['../../x'] }), 'path_outside_workspace');
    } finally {
      w2.close();
    }
  });

  it('falls back to a whole scan without a complete index: the first build, a cancelled run, other chunk settings', async () => {
    const files: WorkspaceFiles = {};
    for (let i = 0; i < 300; i++) files[`src/F${i}.cs`] = csharpClass(`F${i}`, `    // ${'x'.repeat(200)}\n`.repeat(20));
    const ws = await tmp(files);
    let w = await openWorkspace(ws.root);
    try {
      const first = await w.index({ paths: ['src/F1.cs'] });
      expect(first).toMatchObject({ files_scanned: 300, files_indexed: 300 });
      // A cancelled whole run leaves the index partial: the next targeted pass completes it.
      const abort = new AbortController();
      await ws.write({ 'src/F7.cs': csharpClass('F7', '    // changed\n') });
      const err = await w.index({ full: true, signal: abort.signal, batchMs: 5, onProgress: (p) => p.filesDone >= 50 && abort.abort() }).catch((e: unknown) => e);
      expect((err as HciError).code).toBe('cancelled');
      expect((await indexRows(ws.root)).meta.build_state).toBe('partial');
      const again = await w.index({ paths: ['src/F1.cs'] });
      expect(again.files_scanned).toBe(300); // the whole tree, so F7 (not among the paths) is caught up too
      expect(again.files_indexed).toBeGreaterThanOrEqual(1);
      expect((await w.search({ query: 'changed', paths: ['src/F7.cs'] })).hits).toHaveLength(1);
      expect((await indexRows(ws.root)).meta.build_state).toBe('complete');
    } finally {
      w.close();
    }
    w = await openWorkspace(ws.root, { settings: { chunk_lines: 40 } });
    try {
      expect(await w.index({ paths: ['src/F1.cs'] })).toMatchObject({ files_scanned: 300, files_indexed: 300 });
      expect(await w.index({ paths: ['src/F1.cs'] })).toMatchObject({ files_scanned: 1, files_unchanged: 1 });
    } finally {
      w.close();
    }
  });

  it('a new file past max_files falls back to the whole scan, which fails loudly', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A'), 'b.cs': csharpClass('B') });
    const w = await openWorkspace(ws.root, { settings: { max_files: 2 } });
    try {
      await w.index();
      await ws.write({ 'c.cs': csharpClass('C') });
      await expectHciError(w.index({ paths: ['c.cs'] }), 'file_limit');
    } finally {
      w.close();
    }
  });

  it('a path through a symlinked directory takes a whole pass (its aliases depend on walk order)', async () => {
    const ws = await tmp({ 'real/a.cs': csharpClass('A'), 'b.cs': csharpClass('B') });
    await mkdir(ws.abs('links'));
    await symlink(ws.abs('real'), ws.abs('links/real'));
    const w = await openWorkspace(ws.root);
    try {
      expect((await w.index()).files_scanned).toBe(3);
      await ws.write({ 'real/a.cs': csharpClass('A', '    // LinkedEdit\n') });
      const s = await w.index({ paths: ['links/real/a.cs'] });
      expect(s).toMatchObject({ files_scanned: 3, files_indexed: 2 }); // the file and its alias
    } finally {
      w.close();
    }
  });
});

describe('freshness: which runs can be limited to the changed paths', () => {
  it('passes the changed paths, and asks for a whole pass for folders, ignore files, unseen changes or too many paths', async () => {
    const settings = defaultSettings();
    const runs: Array<string[] | null> = [];
    const tracker = new FreshnessTracker({
      debounceMs: 5, maxPaths: 3, isRelevant: changeFilter(settings), needsWholePass: wholePassFilter(settings),
      run: async ({ paths }) => (runs.push(paths), { ok: true }),
    });
    const settle = async () => {
      await new Promise((r) => setTimeout(r, 20));
      await tracker.idle();
    };
    tracker.notify([{ path: 'src/A.cs', kind: 'change' }, { path: 'src/B.cs', kind: 'unlink' }, { path: 'img.png', kind: 'add' }]);
    await settle();
    expect(runs.pop()!.sort()).toEqual(['src/A.cs', 'src/B.cs']);
    for (const c of [
      { path: 'src/old', kind: 'unlinkDir' as const },
      { path: 'src/.gitignore', kind: 'change' as const },
      { path: '.hci/settings.toml', kind: 'change' as const },
    ]) {
      tracker.notify([c, { path: 'src/A.cs', kind: 'change' }]);
      await settle();
      expect(runs.pop(), c.path).toBeNull();
    }
    tracker.notify(['a', 'b', 'c', 'd'].map((n) => ({ path: `${n}.cs`, kind: 'add' as const })));
    await settle();
    expect(runs.pop()).toBeNull();
    tracker.markUnknown('catch-up');
    await settle();
    expect(runs.pop()).toBeNull();
    expect(tracker.pendingCount()).toBe(0);
    // A run limited to some paths settles only those.
    tracker.notify([{ path: 'x.cs', kind: 'change' }, { path: 'dir/y.cs', kind: 'change' }, { path: 'z.cs', kind: 'change' }]);
    const mark = tracker.mark();
    tracker.settle(mark, ['dir', 'x.cs']);
    expect(tracker.pendingSample()).toEqual(['z.cs']);
    tracker.stop();
  });
});

describe('hci index --path (child process)', () => {
  function hci(args: string[]) {
    const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    return { code: r.status, out: r.stdout, err: r.stderr };
  }

  it('updates the files given (relative or absolute inside the root), refuses paths outside with exit 2', async () => {
    const files: WorkspaceFiles = { 'src/Order.cs': csharpClass('Order'), 'README.md': '# Shop\n' };
    for (let i = 0; i < 20; i++) files[`src/more/M${i}.cs`] = csharpClass(`M${i}`);
    const ws = await tmp(files);
    expect(hci(['index', ws.root, '-q']).code).toBe(0);
    await ws.write({ 'src/Order.cs': csharpClass('Order', '    // CliPathMarkerOcelot\n'), 'src/New.cs': csharpClass('NewOne') });
    const r = hci(['index', ws.root, '--path', 'src/Order.cs', ws.abs('src/New.cs'), '--json']);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: 'ok', files_scanned: 2, files_indexed: 2, files_removed: 0 });
    expect(hci(['search', 'CliPathMarkerOcelot', '--root', ws.root]).code).toBe(0);
    expect(hci(['search', 'RunNewOne', '--root', ws.root]).code).toBe(0);

    const human = hci(['index', ws.root, '--path', 'src/Order.cs']);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/scanned 1 file/);

    const out = hci(['index', ws.root, '--path', '../elsewhere.cs', '--json']);
    expect(out.code).toBe(2);
    expect(JSON.parse(out.out)).toMatchObject({ status: 'error', error: { code: 'path_outside_workspace' } });
    const both = hci(['index', ws.root, '--full', '--path', 'src/Order.cs']);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--full and --path/);
  });
});
