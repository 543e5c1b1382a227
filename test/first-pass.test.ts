// The unjournaled first pass (core/index/first-pass.ts) with real processes: a first build into an
// empty index writes no rollback journal and syncs nothing per batch, while a rebuild of an index
// that holds files journals every batch as before; a first build killed mid-pass (SIGKILL) leaves
// its mark in the file's header, readers then find "no index" (not a half-written one), and the next
// `hci index` starts from an empty file and builds exactly what a clean build gives.
import { readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { UNJOURNALED_PASS_MARK } from '../core/index/first-pass.ts';
import { generateWorkspace, type GeneratedWorkspace } from './helpers/generate-workspace.ts';
import { dbOf, ensureBuilt, indexCounts, journalState, runCli, runCliScript, shapeByPath, sqliteText } from './helpers/hci-process.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'first-pass-child.mjs');
const FILES = 240;
const dirs: string[] = [];

/** The header's application_id (bytes 68–71, big-endian), read from the file itself. */
const applicationId = (root: string) => readFileSync(dbOf(root)).readUInt32BE(68);

interface ChildCounts {
  journals: number;
  syncs: number;
  batches?: number;
  files_indexed?: number;
  killedAt?: number;
}
const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildCounts;

let ws: GeneratedWorkspace;
beforeAll(() => {
  ensureBuilt();
  ws = generateWorkspace({ files: FILES, seed: 7_341 });
  dirs.push(ws.root);
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('first indexing pass without a rollback journal', () => {
  it('journals and syncs no batch of a first build; a rebuild of a full index journals each', async () => {
    const root = copyWorkspace(ws.root);
    dirs.push(root);
    const first = await runCliScript(CHILD, [root, 'run']);
    expect(first.code, first.stderr).toBe(0);
    const a = lastJson(first.stdout);
    expect(a.files_indexed).toBe(FILES);
    // Small batches: many commits. Journals and syncs only around the pass (schema, mark set,
    // mark cleared, the commit recorded after it), not per batch.
    expect(a.batches).toBeGreaterThanOrEqual(10);
    expect(a.journals).toBeLessThanOrEqual(6);
    expect(a.syncs).toBeLessThanOrEqual(18);
    expect(applicationId(root)).toBe(0);
    expect(journalState(dbOf(root))).toBe('absent');
    expect(sqliteText(dbOf(root), 'PRAGMA integrity_check')).toBe('ok');

    // The same pass over an index that already holds files (a --full rebuild in place) is journaled batch by batch.
    const full = await runCliScript(CHILD, [root, 'run', 'full']);
    expect(full.code, full.stderr).toBe(0);
    const b = lastJson(full.stdout);
    expect(b.files_indexed).toBe(FILES);
    expect(b.batches).toBeGreaterThanOrEqual(10);
    expect(b.journals).toBeGreaterThanOrEqual(b.batches!);
    expect(b.syncs).toBeGreaterThanOrEqual(b.batches!);
    expect(applicationId(root)).toBe(0);
  }, 180_000);

  it('a first build killed mid-pass is found incomplete: readers see no index, the next run rebuilds it', async () => {
    const root = copyWorkspace(ws.root);
    dirs.push(root);
    const killed = await runCliScript(CHILD, [root, 'kill', String(FILES / 2)]);
    expect(killed.signal, `${killed.stdout}\n${killed.stderr}`).toBe('SIGKILL');
    expect(lastJson(killed.stdout).killedAt).toBeGreaterThanOrEqual(FILES / 2);
    // Batches were committed (rows are in the file), and the mark says the pass never finished.
    expect(Number(sqliteText(dbOf(root), 'SELECT count(*) FROM files'))).toBeGreaterThan(0);
    expect(applicationId(root)).toBe(UNJOURNALED_PASS_MARK);
    expect(journalState(dbOf(root))).toBe('absent');

    const w = await openWorkspace(root);
    try {
      const st = await w.status();
      expect(st.status, JSON.stringify(st.error)).toBe('no_index');
      expect(st.error?.message).toMatch(/did not finish/);
      expect((await w.search({ query: ws.probes[0].query })).status).toBe('no_index');
    } finally {
      w.close();
    }
    // A reader leaves the file as it was; only an indexer starts over.
    expect(applicationId(root)).toBe(UNJOURNALED_PASS_MARK);

    const r = await runCli(['index', root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(applicationId(root)).toBe(0);
    expect(sqliteText(dbOf(root), 'PRAGMA integrity_check')).toBe('ok');
    expect(indexCounts(dbOf(root))).toMatchObject({ files: FILES, build_state: 'complete', orphan_chunks: 0, orphan_fts: 0, missing_fts: 0 });
    // Built from an empty file: the same rows a clean build of the tree gives.
    const clean = copyWorkspace(ws.root);
    dirs.push(clean);
    expect((await runCli(['index', clean, '--quiet'])).code).toBe(0);
    expect(shapeByPath(dbOf(root))).toEqual(shapeByPath(dbOf(clean)));
    const w2 = await openWorkspace(root);
    try {
      expect((await w2.search({ query: ws.probes[0].query })).status).toBe('ok');
    } finally {
      w2.close();
    }
  }, 180_000);
});
