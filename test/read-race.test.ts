// A file that changes between the scan (its size and mtime) and the read (its bytes) — issue 39
// defect 3: the index kept the size seen at scan time, so `status` said the file was modified and
// every incremental run (every watcher run) re-read it, forever. The index records what it read:
// one incremental run after the race brings it back to "nothing pending, nothing read".
// @lane unit
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HciWorkspace, createNodeIndexStorage, createNodeWorkspaceFs } from '../runtimes/node/index.ts';
import type { WorkspaceFs } from '../core/platform.ts';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

function workspace(files: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-read-race-'));
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  return root;
}

/** The real Node file source; the first read of each raced path first rewrites the file on disk (after the scan saw it). */
function racingFs(root: string, raced: Map<string, string>): WorkspaceFs {
  const inner = createNodeWorkspaceFs(root);
  return {
    rootLabel: inner.rootLabel,
    readDir: (rel) => inner.readDir(rel),
    stat: (rel) => inner.stat(rel),
    resolveLink: (rel) => inner.resolveLink(rel),
    readFile(rel, maxBytes) {
      const text = raced.get(rel);
      if (text !== undefined) {
        raced.delete(rel);
        const abs = path.join(root, rel);
        fs.writeFileSync(abs, text);
        const later = new Date(Date.now() + 5_000); // a distinct mtime even on a coarse clock
        fs.utimesSync(abs, later, later);
      }
      return inner.readFile(rel, maxBytes);
    },
  };
}

describe('a file changed between scan and read', () => {
  it.each([
    ['grows', 'class Raced { void Before() {} }\n', 'class Raced { void After() {} void More() {} }\n'],
    ['keeps its size', 'class Raced { void Before() {} }\n', 'class Raced { void Behind() {} }\n'],
  ])('%s: the next incremental run converges, and the one after reads nothing', async (_what, before, after) => {
    const root = workspace({ 'src/Raced.cs': before, 'src/Calm.cs': 'class Calm { void Quiet() {} }\n' });
    const raced = new Map([['src/Raced.cs', after]]);
    const open = (fsrc: WorkspaceFs) => HciWorkspace.open({ fs: fsrc, storage: createNodeIndexStorage(root) });

    let w = await open(racingFs(root, raced));
    try {
      await w.index();
      expect(raced.size, 'the race happened').toBe(0);
      // What was read is what is searchable.
      const word = after.includes('After') ? 'After' : 'Behind';
      expect((await w.search({ query: word })).hits.map((h) => h.path)).toEqual(['src/Raced.cs']);
    } finally {
      w.close();
    }

    w = await open(createNodeWorkspaceFs(root));
    try {
      await w.index(); // the one run a changed mtime may cost
      const third = await w.index();
      expect(third.files_indexed).toBe(0);
      expect(third.bytes_read, 'a converged run reads no file').toBe(0);
      const status = await w.status({ checkPending: true });
      expect(status.pending).toEqual({ added: 0, modified: 0, deleted: 0 });
      const fourth = await w.index();
      expect(fourth.bytes_read).toBe(0);
    } finally {
      w.close();
    }
  });
});
