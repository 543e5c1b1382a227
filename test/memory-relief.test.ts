// Memory held by an indexing pass: the analyzer's split memo keeps no chunk text alive through its
// keys and stays bounded in entries; Node's memory relief really collects (the garbage's ArrayBuffers are freed) and only past
// its step; the indexer calls the relief after each write batch and once, forced, before the vector
// phase. Real V8 collections, no timing.
// @lane cli
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { HciWorkspace } from '../core/workspace.ts';
import { createMemoryWorkspaceFs } from '../core/memory-fs.ts';
import { createMemoryIndexStorage } from '../core/index/memory-storage.ts';
import { createMemoryRelief, RELIEF_STEP_BYTES } from '../runtimes/node/memory-relief.ts';
import { ensureBuilt } from './helpers/hci-process.ts';

const MB = 1024 * 1024;

describe('memory held by an indexing pass', () => {
  it('the split memo holds no reference to the texts its identifiers came from', () => {
    ensureBuilt();
    // 60 texts of 400 KB, each with a distinct camelCase identifier (a memo entry): a key sliced
    // from its text would keep all 24 MB alive after the texts are dropped.
    const script = `
      const { identsOf } = await import(${JSON.stringify(new URL('../dist/core/text/analyzer.js', import.meta.url).href)});
      gc(); const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 60; i++) {
        const text = [Array.from({ length: 4000 }, (_, j) => 'lorem ipsum dolor sit amet consectetur adipiscing ' + j).join(' '), 'retainedIdentifierNumber' + i + 'Here'].join(' ');
        if (!identsOf(text).includes('retained identifier number')) throw new Error('not split');
      }
      gc(); gc();
      process.stdout.write(String(process.memoryUsage().heapUsed - before));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout) / MB).toBeLessThan(6);
  });

  it('the split memo stays bounded however many distinct identifiers a corpus has', () => {
    ensureBuilt();
    // 150,000 distinct camelCase identifiers (a large corpus has that many and more): one memo of up to
    // 200,000 entries kept them all (18.9 MB); two generations of MEMO_GENERATION keep at most 65,536 (~6 MB).
    const script = `
      const { identsOf } = await import(${JSON.stringify(new URL('../dist/core/text/analyzer.js', import.meta.url).href)});
      gc(); const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < 150000; i += 1000) identsOf(Array.from({ length: 1000 }, (_, j) => 'distinctWord' + (i + j).toString(36) + 'Here').join(' '));
      gc(); gc();
      process.stdout.write(String(process.memoryUsage().heapUsed - before));`;
    const r = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout) / MB).toBeLessThan(10);
  });

  it('Node relief collects past its step (freeing the garbage) and not before', () => {
    const relief = createMemoryRelief(8 * MB);
    expect(relief.relieve()).toBe(false);
    let garbage: Uint8Array[] | null = Array.from({ length: 48 }, () => new Uint8Array(MB).fill(1));
    // Young-generation collections while it is held: it is promoted, so only a full collection frees it.
    let churn = 0;
    for (let i = 0; i < 300; i++) churn += new Array(100_000).fill(i).length;
    expect(churn + garbage.length).toBe(30_000_048);
    garbage = null;
    const held = process.memoryUsage().arrayBuffers;
    expect(relief.relieve()).toBe(true);
    expect(relief.collections).toBe(1);
    // The 48 MB were freed by that collection.
    expect(held - process.memoryUsage().arrayBuffers).toBeGreaterThan(40 * MB);
    expect(relief.relieve()).toBe(false);
    expect(relief.relieve(true)).toBe(true);
    expect(relief.collections).toBe(2);
  });

  it('the default relief collects once the managed memory grew by 16 MB (its step was 32: dotnet-8 peaked with up to a step of garbage)', () => {
    expect(RELIEF_STEP_BYTES).toBe(16 * MB);
    const relief = createMemoryRelief();
    const held = Array.from({ length: 24 }, () => new Uint8Array(MB).fill(1));
    expect(relief.relieve()).toBe(true);
    expect(relief.collections).toBe(1);
    expect(held.length).toBe(24);
  });

  it('the indexer relieves memory after each write batch, and once, forced, before the vector phase', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/Service${i}.cs`] = `public class Service${i}\n{\n    public int Compute${i}(int value) => value * ${i};\n}\n`;
    const calls: boolean[] = [];
    const w = await HciWorkspace.open(
      { fs: createMemoryWorkspaceFs('relief', files), storage: createMemoryIndexStorage('relief'), relieveMemory: (force) => void calls.push(force) },
      { settings: { semantic: { enabled: true } } as never },
    );
    // Tiny batches: several write transactions.
    const s = await w.index({ batchMs: 0 });
    expect(s.batches).toBeGreaterThan(2);
    expect(calls.filter((f) => !f).length).toBe(s.batches);
    expect(calls.filter((f) => f)).toEqual([true]);
    // The forced one comes after the last batch (the keyword pass is done), before the vector phase ran.
    expect(calls.at(-1)).toBe(true);
    expect(s.vectors?.with_vectors).toBeGreaterThan(0);
    w.close();
  });
});
