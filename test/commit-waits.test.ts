// A write whose COMMIT meets another connection's reader (core/sqlite/connection.ts over
// runtimes/shared/vfs-lock.ts, two connections to one real index file in a temp folder): the writer
// keeps its transaction and runs its work once — it neither rolls back nor redoes it — while PENDING
// keeps new readers (another connection's and its own) waiting, so a stream of readers cannot starve
// it; once the reader ends, the write commits and every waiting read sees it. Across real processes:
// test/concurrency.test.ts.
// @lane unit
import { afterEach, describe, expect, it } from 'vitest';
import { IndexStore } from '../core/index/store.ts';
import { createNodeIndexStorage, loadEngine, openWorkspace } from '../runtimes/node/index.ts';
import { createTmpWorkspace, csharpClass, type TmpWorkspace } from './helpers/tmp-workspace.ts';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function indexedWorkspace(): Promise<TmpWorkspace> {
  const ws = await createTmpWorkspace({ 'src/Alpha.cs': csharpClass('Alpha') });
  cleanups.push(() => ws.cleanup());
  const w = await openWorkspace(ws.root);
  try {
    await w.index();
  } finally {
    await w.close();
  }
  return ws;
}

async function openStore(root: string): Promise<IndexStore> {
  const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 10_000 });
  cleanups.push(() => store.close());
  return store;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a write whose COMMIT meets a reader', () => {
  it('runs its work once, keeps new readers out while it waits, and commits when the reader ends', async () => {
    const ws = await indexedWorkspace();
    const reader = await openStore(ws.root);
    const writer = await openStore(ws.root);
    const other = await openStore(ws.root);

    // A reader in the middle of a long read: its transaction holds SHARED (a reader mark).
    reader.db.exec('BEGIN DEFERRED');
    expect(Number(reader.db.selectValue('SELECT count(*) FROM files'))).toBe(1);

    let runs = 0;
    let committed = false;
    const write = writer
      .write((db) => {
        runs++;
        db.exec('CREATE TABLE commit_probe(x); INSERT INTO commit_probe VALUES (42)');
      })
      .then(() => (committed = true));
    const seen: string[] = [];
    const otherRead = other.read((db) => Number(db.selectValue('SELECT x FROM commit_probe'))).then((x) => (seen.push('other'), x));
    const ownRead = writer.read((db) => Number(db.selectValue('SELECT x FROM commit_probe'))).then((x) => (seen.push('own'), x));

    await tick(300);
    expect(committed, 'the write waits for the reader').toBe(false);
    expect(seen, 'PENDING lets no new reader in, of another connection or of the writer’s own').toEqual([]);
    expect(runs, 'the work ran once and is kept, not rolled back').toBe(1);
    // The long reader still reads the last commit.
    expect(Number(reader.db.selectValue("SELECT count(*) FROM sqlite_master WHERE name = 'commit_probe'"))).toBe(0);

    reader.db.exec('COMMIT');
    await write;
    expect(runs, 'not redone after the reader let go').toBe(1);
    expect(await otherRead).toBe(42);
    expect(await ownRead).toBe(42);
    expect(await reader.read((db) => Number(db.selectValue('SELECT x FROM commit_probe')))).toBe(42);
  });
});
