// Write transactions are cut at batchMs (issue 17 item 7): the cost model sizes a batch to about
// batchMs of work, but a loaded machine or a bad estimate can make one take many times that, and
// every reader waits for the whole transaction. A transaction still writing after batchMs commits the
// files it has and the rest follow in the next one. A slow machine is made here by the clock alone
// (each reading of Date.now during the pass advances it 30 ms), so the test needs no real load and
// asserts no real timing; what it checks is how many transactions the writer used and that every
// file arrived whole.
// @lane unit
import { describe, it, expect, vi, afterEach } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { createTmpWorkspace, csharpClass } from './helpers/tmp-workspace.ts';

const FILES = 60;

afterEach(() => vi.restoreAllMocks());

describe('write transactions on a slow machine', () => {
  it('are cut after batchMs: many small commits instead of one long one, every file whole', async () => {
    const ws = await createTmpWorkspace(Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/Service${i}.cs`, csharpClass(`Service${i}`)])));
    const w = await openWorkspace(ws.root);
    try {
      // A fast clock: the same pass as it looks on a machine where every step takes 30 ms.
      const realNow = Date.now.bind(Date);
      let ticks = 0;
      vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 30 * ticks++);
      const s = await w.index({ batchMs: 100 });
      vi.restoreAllMocks();
      expect(s.files_indexed).toBe(FILES);
      // The cost model put all 60 small files in one or two batches; past 100 ms (about 4 files at
      // 30 ms a step) each transaction commits what it has.
      expect(s.batches, JSON.stringify(s)).toBeGreaterThanOrEqual(FILES / 6);
      const r = await w.search({ query: 'RunService59', limit: 5 });
      expect(r.hits.map((h) => h.path)).toContain('src/Service59.cs');
    } finally {
      w.close();
      await ws.cleanup();
    }
  });
});
