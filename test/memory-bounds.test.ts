// Memory bounds of an indexing pass on real code, each checked without timing: V8 never re-compiles a
// tree-sitter grammar with TurboFan (its huge lexer function cost up to 545 MB of compiler memory),
// also after the memory relief's last-resort collections (which dropped Liftoff code by default);
// Node's parse pool retires a worker whose tree-sitter memory grew (it never shrinks), and loses
// nothing doing so; the pool's lookahead holds a bounded number of file bytes, and a pooled pass no second window of reads under it; the learned model's factorization holds two vocabulary-sized dense arrays, not one
// per product. Real V8, real worker threads, real grammars, the real training kernel.
// @lane cli
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { ensureBuilt } from './helpers/hci-process.ts';
import { GRAMMARS } from '../core/languages/grammars.ts';
import { createNodeGrammarSource, grammarFilePath } from '../runtimes/node/grammars.ts';
import { createNodeParsePool, RETIRE_AFTER_HEAP_BYTES } from '../runtimes/node/parse-pool.ts';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { extractFromBytes, type ParsePool } from '../core/index/prepare.ts';
import { POOL_AHEAD_BYTES, pooledPrepare } from '../core/index/read-ahead.ts';
import { defaultSettings } from '../core/settings.ts';
import { HciWorkspace } from '../core/workspace.ts';
import { createMemoryWorkspaceFs } from '../core/memory-fs.ts';
import { createMemoryIndexStorage } from '../core/index/memory-storage.ts';
import type { ScannedFile } from '../core/scan/walker.ts';
import { denseOps, type DenseOps } from '../core/vector/learned/dense.ts';
import { randomizedSvd } from '../core/vector/learned/svd.ts';
import { buildTokenCorpus, cooccurrence } from '../core/vector/learned/cooccur.ts';
import { ppmi } from '../core/vector/learned/ppmi.ts';
import { ModelTokenizer } from '../core/vector/learned/tokens.ts';
import { sampleCorpus } from './helpers/vector-corpus.ts';

const MiB = 1024 * 1024;
const dist = (p: string) => JSON.stringify(new URL(`../dist/${p}`, import.meta.url).href);

/** Body sizes of a wasm module's defined functions (its code section), largest first. */
function functionBodySizes(file: string): number[] {
  let b = fs.readFileSync(file);
  if (b[0] === 0x1f) b = gunzipSync(b);
  let p = 8;
  const leb = () => {
    let r = 0;
    let s = 0;
    for (;;) {
      const x = b[p++];
      r |= (x & 0x7f) << s;
      s += 7;
      if (!(x & 0x80)) return r >>> 0;
    }
  };
  while (p < b.length) {
    const id = b[p++];
    const len = leb();
    const end = p + len;
    if (id === 10) {
      const sizes: number[] = [];
      for (let n = leb(), i = 0; i < n; i++) {
        const s = leb();
        sizes.push(s);
        p += s;
      }
      return sizes.sort((x, y) => y - x);
    }
    p = end;
  }
  return [];
}

/** V8 12 (Node 22) hangs a tree-sitter parse under --wasm-sync-tier-up, the flag that makes the check below deterministic (the same run without it shows no grammar tier-up either). */
const syncTierUp = Number(process.versions.v8.split('.')[0]) >= 13;

describe('memory bounds of a pass', () => {
  it.skipIf(!syncTierUp)('V8 never compiles a grammar with TurboFan, also after the memory relief collected', () => {
    ensureBuilt();
    const lexer = functionBodySizes(grammarFilePath(GRAMMARS.typescript))[0];
    expect(lexer).toBeGreaterThan(50_000); // TypeScript's lexer: the function whose TurboFan compile took 545 MB
    // A TypeScript file parsed until V8 would have tiered its lexer up many times over, with a
    // last-resort collection (what the relief runs between write batches) after each parse.
    const text = Array.from({ length: 150 }, (_, i) => `export class Widget${i}<T> extends Base { private value${i}: Map<string, T[]> = new Map(); async load${i}(x: number): Promise<T> { return await this.fetch(\`item-\${x}\`) as T; } }`).join('\n');
    const script = `
      const { TreeSitterHost } = await import(${dist('core/chunk/treesitter.js')});
      const { createNodeGrammarSource } = await import(${dist('runtimes/node/grammars.js')});
      const { createMemoryRelief } = await import(${dist('runtimes/node/memory-relief.js')});
      const host = new TreeSitterHost(createNodeGrammarSource());
      const relief = createMemoryRelief();
      const text = ${JSON.stringify(text)};
      for (let i = 0; i < 40; i++) {
        (await host.parse('typescript', text)).delete();
        relief.relieve(true);
      }
      process.stdout.write('parsed');`;
    const r = spawnSync(process.execPath, ['--wasm-sync-tier-up', '--trace-wasm-compilation-times', '--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 64 << 20 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('parsed');
    const turbofan = r.stdout.split('\n').filter((l) => l.includes('using TurboFan'));
    // The tree-sitter runtime's functions still tier up (they are not huge): the trace is live.
    expect(turbofan.length).toBeGreaterThan(0);
    expect(turbofan.filter((l) => l.includes(`bodysize ${lexer} `))).toEqual([]);
  });

  it('holds at most POOL_AHEAD_BYTES (4 MiB) and one file of file bytes ahead of the file being written for the parse pool', async () => {
    // The bytes of a file sent to the pool are held twice until it is written (the indexer's and the
    // worker's queued copy), and the worker's queue is full for a whole cold pass: in a run of large
    // files, the byte cap is what is resident. Files of 1 MiB each here (their scanned size; the bytes read are small).
    const files: ScannedFile[] = Array.from({ length: 120 }, (_, i) => ({ path: `src/F${i}.cs`, size: MiB, mtimeMs: 0, ext: '.cs', lang: 'csharp' }));
    const consumed = new Set<number>();
    let maxAhead = 0;
    const pool: ParsePool = {
      async extract(file) {
        const i = Number(/F(\d+)/.exec(file.path)![1]);
        // Bytes of the files sent and not yet written, this one included.
        const ahead = files.filter((_, k) => k <= i && !consumed.has(k)).length * MiB;
        maxAhead = Math.max(maxAhead, ahead);
        return { extracted: JSON.stringify({ outline: null, failed: false }) };
      },
      async close() {},
    };
    const read = async (i: number) => ({ ok: true as const, bytes: new TextEncoder().encode(`class F${i} { }\n`) });
    const prepared = pooledPrepare(files, read, pool, defaultSettings(), new Chunker(null), () => true);
    for (let i = 0; i < files.length; i++) {
      expect((await prepared.get(i)).inWorker).toBe(true);
      consumed.add(i);
    }
    await prepared.close();
    expect(maxAhead).toBeGreaterThan(MiB); // it does run ahead
    expect(POOL_AHEAD_BYTES).toBeLessThanOrEqual(4 * MiB);
    expect(maxAhead).toBeLessThanOrEqual(POOL_AHEAD_BYTES + MiB);
  });

  it('a pooled pass reads each file when the pool starts it: no read-ahead window nested under the pool\'s (bytes read and not written stay under POOL_AHEAD_BYTES and two files)', async () => {
    // 240 files of 96 KiB through a real pass (real WASM SQLite) with a pool that answers at once; the indexer
    // writes a batch per file (batchMs 0) and relieves memory after each, which counts the files written.
    // A read-ahead nested under the pool's window read up to 8 files (or 8 MiB) more ahead of it.
    const KiB = 1024;
    const size = 96 * KiB;
    const files: Record<string, string> = {};
    for (let i = 0; i < 240; i++) files[`docs/n${i}.md`] = `# Note ${i}\n\n`.padEnd(size, `line of note ${i} that says nothing much\n`);
    const wfs = createMemoryWorkspaceFs('ahead', files);
    let read = 0;
    let written = 0;
    let maxAhead = 0;
    const readFile = wfs.readFile.bind(wfs);
    wfs.readFile = async (rel: string, maxBytes?: number) => {
      const bytes = await readFile(rel, maxBytes);
      if (rel.startsWith('docs/')) {
        read += bytes.length;
        maxAhead = Math.max(maxAhead, read - written);
      }
      return bytes;
    };
    let extracted = 0;
    const pool: ParsePool = {
      async extract() {
        extracted++;
        return { extracted: JSON.stringify({ outline: null, failed: false }) };
      },
      async close() {},
    };
    // One file per batch: each relief after a batch is one more file written.
    const relieveMemory = (force: boolean) => void (force || (written += size));
    const w = await HciWorkspace.open({ fs: wfs, storage: createMemoryIndexStorage('ahead'), parsePool: () => pool, relieveMemory }, {});
    const s = await w.index({ batchMs: 0 });
    w.close();
    expect(s.files_indexed).toBe(240);
    expect(extracted).toBe(240); // the pool prepared them
    expect(s.batches).toBeGreaterThanOrEqual(240);
    expect(maxAhead).toBeGreaterThan(POOL_AHEAD_BYTES / 2); // it does run ahead
    expect(maxAhead).toBeLessThanOrEqual(POOL_AHEAD_BYTES + 2 * size);
  }, 120_000);

  /** Every pool answer equals what the in-thread chunker extracts from the same bytes. */
  const expectInThreadAnswers = async (files: { path: string; text: string }[], answers: { extracted: string }[]) => {
    const inThread = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
    for (const [i, f] of files.entries()) {
      const expected = await extractFromBytes(new TextEncoder().encode(f.text), { path: f.path, lang: 'csharp' }, 8192, inThread);
      expect(answers[i].extracted, f.path).toBe(expected.extracted);
    }
  };

  it('retires a parse worker whose tree-sitter memory grew past the bound at once; its queue and later files go to a new one, every answer intact', async () => {
    ensureBuilt();
    const MB = 1024 * 1024;
    // A generated table of 600 KB: its tree takes tree-sitter's memory past its starting 32 MB.
    const rows: string[] = ['namespace Gen;', 'public static class Table', '{', '    public static readonly int[] Data = new int[]', '    {'];
    for (let i = 0, size = 0; size < 600 * 1024; i += 8) {
      const row = `        ${Array.from({ length: 8 }, (_, k) => i + k).join(', ')},`;
      rows.push(row);
      size += row.length + 1;
    }
    rows.push('    };', '}');
    const files = [
      { path: 'Small1.cs', text: 'namespace A;\npublic class Small1 { public void Run() { } }\n' },
      { path: 'Table.cs', text: rows.join('\n') },
      ...Array.from({ length: 6 }, (_, i) => ({ path: `After${i}.cs`, text: `namespace A;\npublic class After${i}\n{\n    public int Value${i} => ${i};\n}\n` })),
    ];
    const pool = createNodeParsePool({ binaryProbeBytes: 8192, retireAfterBytes: 32 * MB, workers: 1 });
    try {
      // Sent all at once, as the indexer's read-ahead does: the files after the table are queued in the worker that grows.
      const sent = files.map((f) => pool.extract({ path: f.path, lang: 'csharp' }, new TextEncoder().encode(f.text)));
      // A file sent as soon as the table is answered: the grown worker ended then (its queue went to its successor),
      // so one worker runs, not the grown one draining its queue beside a new one.
      const during = sent[1].then(() => {
        const p = pool.extract({ path: 'During.cs', lang: 'csharp' }, new TextEncoder().encode('namespace A;\npublic class During { }\n'));
        return { running: pool.running, answer: p };
      });
      const answers = await Promise.all(sent);
      const { running, answer } = await during;
      expect(pool.retired).toBe(1);
      expect(running).toBe(1);
      expect(pool.started).toBe(2);
      expect(JSON.parse((await answer).extracted).outline.nodes.length).toBeGreaterThan(0);
      // A file sent after the retirement is answered by a new worker.
      const later = await pool.extract({ path: 'Later.cs', lang: 'csharp' }, new TextEncoder().encode('namespace A;\npublic class Later { }\n'));
      expect(JSON.parse(later.extracted).outline.nodes.length).toBeGreaterThan(0);
      expect(pool.retired).toBe(1); // the new worker's memory did not grow
      await expectInThreadAnswers(files, answers);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('retires a parse worker whose V8 heap grew past its bound too; every answer intact', async () => {
    ensureBuilt();
    // A bound of one byte: every worker's heap is past it after its first file, so each answered file
    // retires the worker that answered it and the rest go to a new one (the default bound,
    // RETIRE_AFTER_HEAP_BYTES, retires only a worker whose heap stepped up for good).
    const files = Array.from({ length: 4 }, (_, i) => ({ path: `Heap${i}.cs`, text: `namespace A;\npublic class Heap${i}\n{\n    public int Value${i} => ${i};\n}\n` }));
    const pool = createNodeParsePool({ binaryProbeBytes: 8192, retireAfterHeapBytes: 1, workers: 1 });
    try {
      const answers = await Promise.all(files.map((f) => pool.extract({ path: f.path, lang: 'csharp' }, new TextEncoder().encode(f.text))));
      expect(pool.retired).toBe(files.length);
      expect(pool.started).toBe(files.length);
      await expectInThreadAnswers(files, answers);
    } finally {
      await pool.close();
    }
  }, 120_000);

  it('retires a worker whose V8 heap reached 56 MB with the default bound (dotnet-8 peaked with the worker at 46-63 MB; Avalonia\'s stays 22-40 MB)', async () => {
    ensureBuilt();
    const files = Array.from({ length: 3 }, (_, i) => ({ path: `Grown${i}.cs`, text: `namespace A;\npublic class Grown${i}\n{\n    public int Value${i} => ${i};\n}\n` }));
    const pool = createNodeParsePool({ binaryProbeBytes: 8192, workers: 1, faults: { heapOnPath: { path: 'Grown1.cs', bytes: 56 * MiB } } });
    try {
      const answers = [];
      for (const f of files) answers.push(await pool.extract({ path: f.path, lang: 'csharp' }, new TextEncoder().encode(f.text)));
      expect(RETIRE_AFTER_HEAP_BYTES).toBeLessThan(56 * MiB);
      expect(pool.retired).toBe(1);
      expect(pool.started).toBe(2);
      await expectInThreadAnswers(files, answers);
    } finally {
      await pool.close();
    }
  }, 120_000);
});

describe('memory bounds of the learned model\'s training', () => {
  // The randomized SVD's two dense matrices (Y and Mᵀ·Y, vocabulary × (dims + oversample): 16 MB each at
  // 10k words × 200) were the semantic-on peak: a new array per product, Y₀ kept twice (one copy for the
  // fallback), Ω kept to the end. Every large operand of every product is now one of two arrays.
  it.each(['auto', 'gram-schmidt'] as const)('the factorization (%s) reads and writes two vocabulary-sized dense arrays, and returns the same bits', (orthonormalization) => {
    const corpus = buildTokenCorpus(sampleCorpus().texts, new ModelTokenizer(), { minCount: 2, maxVocab: 2000 });
    const m = ppmi(cooccurrence(corpus, 5), { alpha: 0.75, maxPerRow: 50 });
    const o = { rank: 21, oversample: 6, powerIterations: 2, seed: 9, orthonormalization };
    const l = o.rank + o.oversample;
    const large = new Set<ArrayBufferLike>();
    let products = 0;
    const seen = (...arrays: Array<Float64Array | undefined>) => {
      for (const a of arrays) if (a && a.length >= m.rows * o.rank) large.add(a.buffer);
    };
    const inner = denseOps('wasm');
    const ops: DenseOps = {
      backend: inner.backend,
      mulSparse: (mat, x, width, out) => {
        products++;
        expect(out, 'a product writes into a given array').toBeDefined();
        seen(x, out);
        return inner.mulSparse(mat, x, width, out);
      },
      multiply: (a, rows, k, b, width, out) => {
        products++;
        expect(out, 'a product writes into a given array').toBeDefined();
        seen(a, b, out);
        return inner.multiply(a, rows, k, b, width, out);
      },
      gram: (a, rows, width) => (seen(a), inner.gram(a, rows, width)),
      solveRight: (a, rows, n, r) => (seen(a), inner.solveRight(a, rows, n, r)),
      symmetricEigen: (a, n) => inner.symmetricEigen(a, n),
    };
    expect(m.rows * l).toBeGreaterThan(20_000);
    const watched = randomizedSvd(m, { ...o, ops });
    expect(products).toBeGreaterThanOrEqual(2 + 2 * o.powerIterations);
    expect(large.size).toBe(2);
    // The same factors as the twin's (each product allocating its own result).
    const plain = randomizedSvd(m, { ...o, backend: 'js' });
    expect(Buffer.from(watched.u.buffer, watched.u.byteOffset, watched.u.byteLength).equals(Buffer.from(plain.u.buffer, plain.u.byteOffset, plain.u.byteLength))).toBe(true);
    expect(Buffer.from(watched.s.buffer).equals(Buffer.from(plain.s.buffer))).toBe(true);
  });
});
