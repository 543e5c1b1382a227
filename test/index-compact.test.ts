// The index stays compact under repeated rebuilds (issue 39 defect 5: a contentless FTS table keeps
// deleted rows' tokens until its segments merge, and six `--full` runs grew FluentAvalonia's index
// from 5.8 to 17.4 MB). A pass that replaced many rows merges the segments and hands the freed
// pages back (core/index/compact.ts): after six full rebuilds the file is within 1.1x a clean build,
// and still sound and searchable; a small incremental pass does not pay for a merge. A pass that leaves
// more than MERGE_ABOVE_SEGMENTS segments (a cold build's many batches) merges them to one: every query
// term reads each segment.
// @lane cli
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { copySample } from './helpers/mcp-harness.ts';
import { sqliteText } from './helpers/hci-process.ts';
import { MERGE_ABOVE_SEGMENTS } from '../core/index/compact.ts';

const ws = copySample('hci-compact-');
afterAll(() => ws.cleanup());
const db = path.join(ws.root, '.hci', 'index.sqlite');
const size = () => fs.statSync(db).size;

describe('repeated --full rebuilds', () => {
  it('leave the index within 1.1x a clean build, sound and searchable', async () => {
    const w = await openWorkspace(ws.root, { settings: { literal_index: true } });
    try {
      await w.index();
      const clean = size();
      const sizes: number[] = [];
      const runs = [];
      for (let i = 0; i < 6; i++) {
        runs.push(await w.index({ full: true }));
        sizes.push(size());
      }
      expect(sizes.at(-1)! / clean, `clean ${clean}, after each run ${sizes.join(', ')}`).toBeLessThanOrEqual(1.1);
      for (const [i, s] of runs.entries()) {
        expect(s.compacted, `run ${i + 1}`).toBeDefined();
        expect(s.compacted!.bytes_after).toBeLessThanOrEqual(s.compacted!.bytes_before);
      }
      expect((await w.search({ query: 'CatalogService' })).hits.length).toBeGreaterThan(0);
      expect((await w.search({ query: 'class CatalogService', mode: 'literal' })).hits.length).toBeGreaterThan(0);
      // An incremental pass that changes one file merges nothing.
      const file = path.join(ws.root, 'README.md');
      fs.appendFileSync(file, '\nOne more line about compaction.\n');
      const small = await w.index();
      expect(small.files_indexed).toBe(1);
      expect(small.compacted).toBeUndefined();
    } finally {
      w.close();
    }
    expect(sqliteText(db, 'PRAGMA integrity_check')).toBe('ok');
    expect(sqliteText(db, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 0); SELECT 'fts ok'", { write: true })).toBe('fts ok');
    expect(Number(sqliteText(db, 'PRAGMA freelist_count'))).toBe(0);
  }, 180_000);
});

describe('a pass that leaves many segments', () => {
  const many = copySample('hci-segments-');
  afterAll(() => many.cleanup());
  const file = path.join(many.root, '.hci', 'index.sqlite');
  // The segments the index holds (each has its rows in chunks_fts_idx), read by the sqlite3 CLI.
  const segments = () => Number(sqliteText(file, 'SELECT count(DISTINCT segid) FROM chunks_fts_idx'));

  it('merges them to one; a one-file pass after it merges nothing', async () => {
    const w = await openWorkspace(many.root);
    try {
      // A batch per file: the sample's 79 files leave FTS5 a dozen segments (automerge keeps a few per level).
      const cold = await w.index({ batchMs: 0 });
      expect(cold.batches).toBeGreaterThan(2 * MERGE_ABOVE_SEGMENTS);
      expect(cold.compacted, 'the cold pass merged its segments').toBeDefined();
      expect(segments()).toBe(1);
      fs.appendFileSync(path.join(many.root, 'README.md'), '\nOne more line about segments.\n');
      const small = await w.index();
      expect(small.files_indexed).toBe(1);
      expect(small.compacted).toBeUndefined();
      expect(segments()).toBeLessThanOrEqual(2);
      expect((await w.search({ query: 'CatalogService' })).hits.length).toBeGreaterThan(0);
    } finally {
      w.close();
    }
    expect(sqliteText(file, "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 0); SELECT 'fts ok'", { write: true })).toBe('fts ok');
  }, 180_000);
});
