// The unsynced cold build (core/index/cold-build.ts) with real processes: a build into an empty index
// syncs nothing per batch while a rebuild of an index that holds files syncs every batch as before; a
// cold build killed mid-pass (SIGKILL: its pages are in the OS's cache, each batch whole or rolled back)
// is a partial index like any other, and the next run goes on from it to a clean build's rows; a file
// whose mark names another boot (the machine restarted before the build ended: it may be torn) is not
// trusted — readers find no index, `hci index` starts from an empty file and leaves no lock behind;
// a pack of an index that still carries a mark does not carry it (it would make every reader on
// another machine, another boot, refuse the published file).
// Linux only: the unsynced build needs the kernel's boot id.
// @lane slow
import { existsSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { UNSYNCED_BUILD_KEY } from '../core/index/cold-build.ts';
import { generateWorkspace, type GeneratedWorkspace } from './helpers/generate-workspace.ts';
import { dbOf, ensureBuilt, indexCounts, lockState, runCli, runCliScript, shapeByPath, sqliteText } from './helpers/hci-process.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'cold-build-child.mjs');
const BOOT_ID = '/proc/sys/kernel/random/boot_id';
const FILES = 240;
const dirs: string[] = [];
const linux = existsSync(BOOT_ID);

interface ChildCounts {
  journals: number;
  syncs: number;
  batches?: number;
  files_indexed?: number;
  killedAt?: number;
}
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildCounts;
/** A copy of the workspace whose cold build a SIGKILL stopped half-way. */
async function killedHalfWay(): Promise<string> {
  const root = copyWorkspace(ws.root);
  dirs.push(root);
  const killed = await runCliScript(CHILD, [root, 'kill', String(FILES / 2)]);
  expect(killed.signal, `${killed.stdout}\n${killed.stderr}`).toBe('SIGKILL');
  return root;
}
const mark = (root: string) => sqliteText(dbOf(root), `SELECT coalesce((SELECT value FROM meta WHERE key = '${UNSYNCED_BUILD_KEY}'), '')`);

let ws: GeneratedWorkspace;
let clean: string;
beforeAll(async () => {
  if (!linux) return;
  ensureBuilt();
  ws = generateWorkspace({ files: FILES, seed: 7_341 });
  dirs.push(ws.root);
  clean = copyWorkspace(ws.root);
  dirs.push(clean);
  expect((await runCli(['index', clean, '--quiet'])).code).toBe(0);
}, 180_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe.skipIf(!linux)(`cold build without syncs${linux ? '' : ' [SKIPPED: no kernel boot id]'}`, () => {
  it('syncs no batch of a cold build; a rebuild of a full index syncs each', async () => {
    const root = copyWorkspace(ws.root);
    dirs.push(root);
    const first = await runCliScript(CHILD, [root, 'run']);
    expect(first.code, first.stderr).toBe(0);
    const a = lastJson(first.stdout);
    expect(a.files_indexed).toBe(FILES);
    // Small batches: many commits, each journaled; syncs only around the pass (schema, mark set, mark
    // removed, the commit recorded after it), not per batch.
    expect(a.batches).toBeGreaterThanOrEqual(10);
    expect(a.journals).toBeGreaterThanOrEqual(a.batches!);
    expect(a.syncs).toBeLessThanOrEqual(16);
    expect(mark(root)).toBe('');
    expect(sqliteText(dbOf(root), 'PRAGMA integrity_check')).toBe('ok');
    expect(shapeByPath(dbOf(root))).toEqual(shapeByPath(dbOf(clean)));

    // The same pass over an index that already holds files (a --full rebuild in place) is synced batch by batch.
    const full = await runCliScript(CHILD, [root, 'run', 'full']);
    expect(full.code, full.stderr).toBe(0);
    const b = lastJson(full.stdout);
    expect(b.files_indexed).toBe(FILES);
    expect(b.batches).toBeGreaterThanOrEqual(10);
    expect(b.syncs).toBeGreaterThanOrEqual(2 * b.batches!);
    expect(mark(root)).toBe('');
  }, 180_000);

  it('a cold build killed mid-pass is a partial index that the next run completes', async () => {
    const root = await killedHalfWay();
    // Batches were committed (rows are in the file), and the mark names this boot.
    expect(mark(root)).toBe(readFileSync(BOOT_ID, 'utf8').trim());
    expect(sqliteText(dbOf(root), 'PRAGMA integrity_check')).toBe('ok');
    const done = Number(sqliteText(dbOf(root), 'SELECT count(*) FROM files'));
    expect(done).toBeGreaterThan(0);
    const w = await openWorkspace(root);
    try {
      const st = await w.status();
      expect(st.status, JSON.stringify(st.error)).toBe('ok');
      expect(st.index?.build_state).toBe('partial');
    } finally {
      w.close();
    }
    const r = await runCliScript(CHILD, [root, 'run']);
    expect(r.code, r.stderr).toBe(0);
    // It went on from the committed batches, still without a sync per batch, and removed the mark.
    expect(lastJson(r.stdout).files_indexed).toBe(FILES - done);
    expect(lastJson(r.stdout).syncs).toBeLessThanOrEqual(16);
    expect(mark(root)).toBe('');
    expect(indexCounts(dbOf(root))).toMatchObject({ files: FILES, build_state: 'complete', orphan_chunks: 0, orphan_fts: 0, missing_fts: 0 });
    expect(shapeByPath(dbOf(root))).toEqual(shapeByPath(dbOf(clean)));
  }, 180_000);

  it('a cold build cut off by a restart of the machine is not trusted: no index for readers, rebuilt from empty', async () => {
    const root = await killedHalfWay();
    // What the file holds after a restart: the mark of the boot the build ran in, not this one.
    sqliteText(dbOf(root), `UPDATE meta SET value = 'an-earlier-boot' WHERE key = '${UNSYNCED_BUILD_KEY}'`, { write: true });
    expect(mark(root)).toBe('an-earlier-boot');

    const w = await openWorkspace(root);
    try {
      const st = await w.status();
      expect(st.status, JSON.stringify(st.error)).toBe('no_index');
      expect(st.error?.message).toMatch(/restarted/);
      expect((await w.search({ query: ws.probes[0].query })).status).toBe('no_index');
    } finally {
      w.close();
    }
    // A reader leaves the file as it was; only an indexer starts over.
    expect(mark(root)).toBe('an-earlier-boot');

    const r = await runCliScript(CHILD, [root, 'run']);
    expect(r.code, r.stderr).toBe(0);
    expect(lastJson(r.stdout).files_indexed).toBe(FILES); // every file: from an empty index
    expect(mark(root)).toBe('');
    expect(lockState(`${dbOf(root)}.lock`).state).toBe('absent');
    expect(lockState(path.join(root, '.hci', 'indexer.lock')).state).toBe('absent');
    expect(indexCounts(dbOf(root))).toMatchObject({ files: FILES, build_state: 'complete', orphan_chunks: 0, orphan_fts: 0, missing_fts: 0 });
    expect(shapeByPath(dbOf(root))).toEqual(shapeByPath(dbOf(clean)));
    const w2 = await openWorkspace(root);
    try {
      expect((await w2.search({ query: ws.probes[0].query })).status).toBe('ok');
    } finally {
      w2.close();
    }
  }, 180_000);

  it('a pack does not carry the mark: a published index opens on another boot', async () => {
    const root = copyWorkspace(ws.root);
    dirs.push(root);
    expect((await runCli(['index', root, '--quiet'])).code).toBe(0);
    // An index holding this boot's mark (a build killed before it removed it: trusted here), then packed.
    const boot = readFileSync(BOOT_ID, 'utf8').trim();
    sqliteText(dbOf(root), `INSERT OR REPLACE INTO meta(key, value) VALUES ('${UNSYNCED_BUILD_KEY}', '${boot}')`, { write: true });
    expect(mark(root)).toBe(boot);
    const out = path.join(tmpDir('hci-cold-pack-'), 'index.sqlite');
    dirs.push(path.dirname(out));
    const w = await openWorkspace(root);
    try {
      await w.pack(nodePackTarget(out), { fileName: 'index.sqlite' });
    } finally {
      w.close();
    }
    expect(sqliteText(out, `SELECT count(*) FROM meta WHERE key = '${UNSYNCED_BUILD_KEY}'`)).toBe('0');
    expect(mark(root)).toBe(boot); // the live index is the indexer's to clear
  }, 180_000);
});
