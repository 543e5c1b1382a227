// Tiny runs of the vector benchmark scripts (bench/knn-bench.ts's body and bench/vector-eval.ts on
// the sample workspace), so they never rot: well-formed reports, both scan backends agreeing, and
// fusion never losing a keyword rank-1 hit on the sample. Timings are never asserted.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runKnn } from '../bench/lib/knn-run.ts';
import { formatKnn } from '../bench/knn-bench.ts';
import { main as vectorEval, type CorpusRun } from '../bench/vector-eval.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

describe('vector benchmark scripts (smoke)', () => {
  it('knn-run measures every encoding and backend, and the backends agree', async () => {
    const r = await runKnn({ count: 2000, dims: 48, k: 10, queries: 8, repeats: 10 });
    expect(r.cases.map((c) => `${c.encoding}/${c.backend}`)).toEqual(['int8/wasm-simd', 'int8/js', 'f32/wasm-simd', 'f32/js']);
    for (const c of r.cases) expect(c.p50).toBeGreaterThanOrEqual(0);
    expect(r.backendsAgree).toBe(true);
    expect(r.int8RecallAtK).toBeGreaterThan(0.9);
    expect(formatKnn([{ runtime: 'node', ...r }])).toMatch(/int8 recall@10/);
  });

  it('vector-eval trains, ranks and fuses on the sample workspace', async () => {
    const out = tmpDir('hci-veval-out-');
    try {
      expect(await vectorEval(['--corpus', 'sample', '--dims', '64', '--out', out])).toBe(0);
      const [run] = JSON.parse(fs.readFileSync(path.join(out, 'vector-eval.json'), 'utf8')) as CorpusRun[];
      expect(run.label).toBe('sample-workspace');
      expect(run.queries).toBeGreaterThanOrEqual(60);
      const [d] = run.runs;
      expect(d.dims).toBe(64);
      expect(d.vector.all.r5).toBeGreaterThan(0.5);
      expect(d.rank1Lost).toBe(0);
      expect(d.build.vocab).toBeGreaterThan(500);
      expect(fs.readFileSync(path.join(out, 'vector-eval.md'), 'utf8')).toMatch(/fused 64d/);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  });
});
