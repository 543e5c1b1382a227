// An index that knows its commit: a real git repository in a temp folder (the git binary builds it;
// hci reads .git itself). The index records the commit and branch it was built at; after a branch
// switch every answer's freshness says "built at <commit> (<branch>); HEAD is <commit> (<branch>)",
// and the next incremental run re-indexes just the files that differ and records the new commit.
// Also: packed refs, a detached HEAD, a linked worktree (.git is a file naming the git dir), a
// folder that is no checkout (no git field), and the manifest of `hci pack` naming the commit.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import { HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { readGitHead, headMovedNote } from '../core/git/head.ts';
import { csharpClass, tmpDir } from './helpers/tmp-workspace.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@x', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@x', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } }).trim();

/** Waits past HEAD's reuse window (core/workspace.ts HEAD_TTL_MS) so the next answer reads HEAD again. */
const pastHeadTtl = () => new Promise((r) => setTimeout(r, 300));

describe('an index that knows its commit', () => {
  let root: string;
  const dirs: string[] = [];

  beforeAll(() => {
    root = tmpDir('hci-git-');
    dirs.push(root);
    git(root, 'init', '-q', '-b', 'main');
    git(root, 'remote', 'add', 'origin', 'https://github.com/contoso/shop.git');
    fs.mkdirSync(path.join(root, 'src'));
    for (let i = 0; i < 12; i++) fs.writeFileSync(path.join(root, 'src', `Service${i}.cs`), csharpClass(`Service${i}`, `public int Value${i}() => ${i};`));
    fs.writeFileSync(path.join(root, '.gitignore'), '.hci/\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '-m', 'first');
  });

  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('records the commit, says when HEAD moved, and re-indexes only what the switch changed', async () => {
    const c1 = git(root, 'rev-parse', 'HEAD');
    const ws = await openWorkspace(root);
    try {
      const first = await ws.index();
      expect(first.files_indexed).toBe(12);
      const built = (await ws.search({ query: 'Service3', limit: 3 })).index;
      expect(built?.git).toEqual({ commit: c1, branch: 'main', head: c1, head_branch: 'main' });

      // A branch with one file changed, one added, one removed.
      git(root, 'checkout', '-q', '-b', 'feature');
      fs.writeFileSync(path.join(root, 'src', 'Service3.cs'), csharpClass('Service3', 'public int Renamed() => 33;'));
      fs.writeFileSync(path.join(root, 'src', 'Extra.cs'), csharpClass('Extra'));
      fs.rmSync(path.join(root, 'src', 'Service7.cs'));
      git(root, 'add', '-A');
      git(root, 'commit', '-q', '-m', 'feature work');
      const c2 = git(root, 'rev-parse', 'HEAD');
      await pastHeadTtl();
      const moved = (await ws.search({ query: 'Service3', limit: 3 })).index;
      expect(moved?.git).toMatchObject({ commit: c1, branch: 'main', head: c2, head_branch: 'feature' });
      expect(moved?.git?.note).toBe(`built at ${c1.slice(0, 12)} (main); HEAD is ${c2.slice(0, 12)} (feature)`);
      // Status says it too.
      expect((await ws.status({ checkPending: false })).index?.git?.note).toContain('HEAD is');

      const second = await ws.index();
      expect(second).toMatchObject({ files_indexed: 2, files_removed: 1, files_unchanged: 10 });
      const after = (await ws.search({ query: 'Renamed', limit: 3 })).index;
      expect(after?.git).toEqual({ commit: c2, branch: 'feature', head: c2, head_branch: 'feature' });

      // Back to main: the index is at feature's commit until the next run.
      git(root, 'checkout', '-q', 'main');
      await pastHeadTtl();
      expect((await ws.search({ query: 'Service3', limit: 3 })).index?.git?.note).toBe(`built at ${c2.slice(0, 12)} (feature); HEAD is ${c1.slice(0, 12)} (main)`);
      expect(await ws.index()).toMatchObject({ files_indexed: 2, files_removed: 1, files_unchanged: 10 });

      // The manifest of a pack names the repository (git remote origin) and the commit.
      const out = path.join(tmpDir('hci-git-pack-'), 'index.sqlite');
      dirs.push(path.dirname(out));
      const m = await ws.pack(nodePackTarget(out), { fileName: 'index.sqlite' });
      expect(m).toMatchObject({ repository: 'contoso/shop', commit: c1, branch: 'main' });
    } finally {
      ws.close();
    }
  });

  it('shows the move through the service (every surface\'s freshness)', async () => {
    const svc = new HciService({ root, host: nodeServiceHost(), surface: 'mcp', watch: 'off' });
    try {
      await svc.call('reindex', { wait_ms: 60_000 });
      git(root, 'checkout', '-q', 'feature');
      await pastHeadTtl();
      const r = await svc.call('search', { query: 'Service3' });
      expect(r.index?.git?.note).toMatch(/^built at [0-9a-f]{12} \(main\); HEAD is [0-9a-f]{12} \(feature\)$/);
      git(root, 'checkout', '-q', 'main');
    } finally {
      await svc.close();
    }
  });

  it('reads packed refs, a detached HEAD and a linked worktree', async () => {
    const read = (base: string) => async (p: string) => {
      try {
        return fs.readFileSync(path.resolve(base, p), 'utf8');
      } catch {
        return null;
      }
    };
    const main = git(root, 'rev-parse', 'main');
    git(root, 'pack-refs', '--all');
    expect(fs.existsSync(path.join(root, '.git', 'refs', 'heads', 'main'))).toBe(false);
    expect(await readGitHead(read(root))).toEqual({ commit: main, branch: 'main' });
    const wt = path.join(tmpDir('hci-git-wt-'), 'linked');
    dirs.push(path.dirname(wt));
    git(root, 'worktree', 'add', '-q', wt, 'feature');
    expect(fs.statSync(path.join(wt, '.git')).isFile()).toBe(true);
    expect(await readGitHead(read(wt))).toEqual({ commit: git(root, 'rev-parse', 'feature'), branch: 'feature' });
    git(wt, 'checkout', '-q', '--detach', main);
    expect(await readGitHead(read(wt))).toEqual({ commit: main, branch: null });
    // The workspace in the linked worktree reads its HEAD through the git dir outside it.
    const ws = await openWorkspace(wt);
    try {
      await ws.index();
      expect((await ws.search({ query: 'Service3' })).index?.git).toEqual({ commit: main, branch: null, head: main, head_branch: null });
    } finally {
      ws.close();
    }
    expect(headMovedNote({ commit: main, branch: null }, { commit: main, branch: 'x' })).toBeUndefined();
  });

  it('says nothing about git for a folder that is not a checkout', async () => {
    const plain = tmpDir('hci-nogit-');
    dirs.push(plain);
    fs.writeFileSync(path.join(plain, 'A.cs'), csharpClass('Alpha'));
    const ws = await openWorkspace(plain);
    try {
      await ws.index();
      const f = (await ws.search({ query: 'Alpha' })).index;
      expect(f?.git).toBeUndefined();
    } finally {
      ws.close();
    }
  });
});
