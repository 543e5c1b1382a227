// A symlink swapped in between the scan and the read is not followed outside the workspace, under
// Node and under Deno (a real Deno process): through the file-source seam (helpers/swap-fs.ts) a
// file, and then a directory on the way to another file, are replaced by links to an outside folder
// just before their first read. Nothing of the outside files may reach the index (raw bytes, the
// inflated file_data blobs, search); a plain read of a swapped path is refused with
// path_outside_workspace; links inside the workspace that the scan accepted are still read.
// @lane cli
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HciWorkspace, createNodeIndexStorage, createNodeWorkspaceFs } from '../runtimes/node/index.ts';
import { swappingFs, type Swap } from './helpers/swap-fs.ts';
import { storedPlainTexts } from './helpers/hci-process.ts';
import { REPO, startDeno } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
import { tmpDir } from './helpers/tmp-workspace.ts';

const MARKER = 'OutsideMarkerQz7';
const temp: string[] = [];
afterAll(() => {
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
});

/** A workspace with inside links, and an outside folder the swaps point to. */
function setup(): { root: string; outside: string; swaps: Swap[] } {
  const root = tmpDir('hci-swap-ws-');
  const outside = tmpDir('hci-swap-outside-');
  temp.push(root, outside);
  const cs = (name: string, word: string) => `namespace Demo;\npublic class ${name}\n{\n    public void ${word}() { }\n}\n`;
  fs.mkdirSync(path.join(root, 'src', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(root, 'src', 'Alpha.cs'), cs('Alpha', 'InsideAlphaRun'));
  fs.writeFileSync(path.join(root, 'src', 'sub', 'Beta.cs'), cs('Beta', 'InsideBetaRun'));
  fs.writeFileSync(path.join(root, 'src', 'Gamma.cs'), cs('Gamma', 'InsideGammaRun'));
  fs.symlinkSync('Gamma.cs', path.join(root, 'src', 'GammaLink.cs')); // inside: still indexed
  fs.mkdirSync(path.join(outside, 'dir'));
  fs.writeFileSync(path.join(outside, 'Secret.cs'), cs('Secret', MARKER));
  fs.writeFileSync(path.join(outside, 'dir', 'Beta.cs'), cs('Beta', MARKER));
  return {
    root,
    outside,
    swaps: [
      { rel: 'src/Alpha.cs', kind: 'file', target: path.join(outside, 'Secret.cs') },
      { rel: 'src/sub/Beta.cs', kind: 'dir', target: path.join(outside, 'dir') },
    ],
  };
}

/** Nothing of the outside files in the index folder's bytes nor in any stored text. */
function expectNoMarker(root: string): void {
  const dir = path.join(root, '.hci');
  for (const f of fs.readdirSync(dir)) expect(fs.readFileSync(path.join(dir, f)).includes(MARKER), f).toBe(false);
  const texts = storedPlainTexts(path.join(dir, 'index.sqlite'));
  expect(texts.some((t) => t.includes('InsideGammaRun'))).toBe(true);
  for (const t of texts) expect(t.includes(MARKER)).toBe(false);
}

describe('a symlink swapped in after the scan', () => {
  it('is not followed by the Node file source', async () => {
    const { root, swaps } = setup();
    const plain = createNodeWorkspaceFs(root);
    const sfs = swappingFs(plain, root, swaps, { remove: (p) => fs.rmSync(p), rename: (a, b) => fs.renameSync(a, b), symlink: (t, p) => fs.symlinkSync(t, p) });
    const ws = await HciWorkspace.open({ fs: sfs, storage: createNodeIndexStorage(root) });
    try {
      const s = await ws.index();
      expect(sfs.swapped).toEqual(['src/Alpha.cs', 'src/sub/Beta.cs']);
      expect(s.skipped.unreadable).toBe(2);
      expect((await ws.search({ query: MARKER })).hits).toEqual([]);
      const gamma = (await ws.search({ query: 'InsideGammaRun' })).hits.map((h) => h.path).sort();
      expect(gamma).toEqual(['src/Gamma.cs', 'src/GammaLink.cs']);
    } finally {
      ws.close();
    }
    expectNoMarker(root);
    for (const s of swaps) await expect(plain.readFile(s.rel)).rejects.toMatchObject({ code: 'path_outside_workspace' });
    await expect(plain.readFile('src/GammaLink.cs', 100)).resolves.toBeInstanceOf(Uint8Array);
  });

  it.skipIf(!deno)(titled('is not followed by the Deno file source', { Deno: deno }), async () => {
    const { root, swaps } = setup();
    // Unscoped read and write: Deno.symlinkSync (the helper's swap) needs them, and with read
    // permission on the outside folder the file source's own check is what must stop the read.
    const flags = ['--no-prompt', '--allow-read', '--allow-write', '--allow-sys=hostname'];
    const r = await startDeno(deno, flags, path.join(REPO, 'test/helpers/deno-swap.ts'), [JSON.stringify({ root, swaps, marker: MARKER })]).exited;
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.swapped).toEqual(['src/Alpha.cs', 'src/sub/Beta.cs']);
    expect(r.json.summary.skipped.unreadable).toBe(2);
    expect(r.json.hits).toEqual([]);
    expect(r.json.direct).toMatchObject({ ok: false, code: 'path_outside_workspace' });
    expectNoMarker(root);
  }, 60_000);
});
